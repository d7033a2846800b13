"""Every refusal names its rule as data (issue #76): each ``Refused(...)`` of a ruleset, of
the engine, and of the test rulesets gives ``rule=`` ids of its rules map (or of the
engine's, ``core/engine_rules.toml``), or ``TYPING`` for a line mistyped or misused.

The walk reads the source (``ast``), so it sees every refusal, those no test reaches too.
A ``rule=`` must be ids written out (a string, a tuple of them, or a choice of two such),
``TYPING``, or another refusal's ``.rules`` passed on; anything else cannot be checked and
fails.  :data:`GUARDED` lists the parts whose refusals are all converted: the guard holds
for them; :func:`unnamed` lists, for the others, what still names no rule.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from core import rulesmap
from core.commands.words import Meant
from core.refusal import TYPING, Refused
from core.ruleset import get_ruleset
from core.scenarios.files import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"

#: Each part of the code whose refusals the guard walks: its files, and the ruleset whose
#: map its ids are of (None: the engine's map only).
PARTS: dict[str, tuple[tuple[Path, ...], str | None]] = {
    "engine": (
        tuple(p for p in CORE.rglob("*.py") if "rulesets" not in p.relative_to(CORE).parts[:1])
        + (CORE / "rulesets" / "common.py", CORE / "rulesets" / "__init__.py"),
        None,
    ),
    "bassa-intensita": (tuple((CORE / "rulesets" / "bassa_intensita").rglob("*.py")), "bassa-intensita"),
    "breaking-news": (tuple((CORE / "rulesets" / "breaking_news").rglob("*.py")), "breaking-news"),
    "linea-di-tiro": (tuple((CORE / "rulesets" / "linea_di_tiro").rglob("*.py")), "linea-di-tiro"),
    "ludonet": (tuple((CORE / "rulesets" / "ludonet").rglob("*.py")), "ludonet"),
}

#: The parts whose every refusal names its rule: the guard holds for these (a part joins
#: when its refusals are converted).
GUARDED: tuple[str, ...] = ("bassa-intensita", "engine", "linea-di-tiro", "ludonet")


@cache
def _ids(ruleset_id: str | None) -> frozenset[str]:
    own = get_ruleset(ruleset_id).rules_map() if ruleset_id else None
    return frozenset(r.id for r in (*(own.rules if own else ()), *rulesmap.engine().rules))


def _problem(value: ast.expr | None, ids: frozenset[str]) -> str:
    """Why ``rule=value`` names no rule of ``ids`` ("" when it names one)."""
    if value is None:
        return "no rule="
    if isinstance(value, ast.Name) and value.id in ("TYPING", "rules"):  # (``rules``: a refusal's, carried whole)
        return ""
    if isinstance(value, ast.Attribute) and value.attr in ("TYPING", "rules"):
        return ""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return "" if value.value in ids else f"{value.value!r} is no rule of its map"
    if isinstance(value, (ast.Tuple, ast.List)) and value.elts:
        return next((p for e in value.elts if (p := _problem(e, ids))), "")
    if isinstance(value, ast.IfExp):
        return _problem(value.body, ids) or _problem(value.orelse, ids)
    return f"rule={ast.unparse(value)} cannot be checked"


def unnamed(part: str) -> list[str]:
    """``path:line: why`` for each refusal of ``part`` that names no rule."""
    files, ruleset_id = PARTS[part]
    ids = _ids(ruleset_id)
    found = []
    for path in sorted(files):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name != "Refused":
                continue
            rule = next((k.value for k in node.keywords if k.arg == "rule"), None)
            if problem := _problem(rule, ids):
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                found.append(f"{where}:{node.lineno}: {problem}")
    return found


@pytest.mark.parametrize("part", GUARDED)
def test_every_refusal_names_its_rule(part):
    assert unnamed(part) == []


def test_the_guard_finds_a_refusal_without_its_rule(tmp_path, monkeypatch):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "raise Refused('no rule at all')\n"
        "raise Refused('a typo', rule=TYPING)\n"
        "raise Refused('an id of no map', rule='ZZ-9')\n"
        "raise Refused('an engine rule', rule='ENG-1')\n"
        "raise Refused('who knows', rule=pick())\n"
        "raise Refused('one of two', rule='ENG-3' if x else 'ZZ-1')\n"
    )
    monkeypatch.setitem(PARTS, "bad", ((bad,), None))
    assert [line.split(":", 1)[1] for line in unnamed("bad")] == [
        "1: no rule=",
        "3: 'ZZ-9' is no rule of its map",
        "5: rule=pick() cannot be checked",
        "6: 'ZZ-1' is no rule of its map",
    ]


def test_a_refusal_carries_its_rule_and_the_typing_kinds_say_typing():
    assert Refused("x", rule="ENG-1").rules == ("ENG-1",)
    assert Refused("x", rule=("LN-R020", "LN-R001")).rules == ("LN-R020", "LN-R001")
    assert Refused("x").rules == ()
    assert Meant("no unit zz", ["zed"]).rules == (TYPING,)
    assert ScenarioError("f.toml", 3, "bad").rules == (TYPING,)


def test_a_refusal_keeps_its_rule_across_processes():
    import pickle

    back = pickle.loads(pickle.dumps(Refused("out of range", rule="LN-R030")))
    assert (str(back), back.rules) == ("out of range", ("LN-R030",))


def test_the_engine_map_is_honest():
    from tests.core.test_rules_map import _rulings

    assert [r.id for r in rulesmap.engine().rules if r.ruling not in _rulings()] == []
