"""Every refusal names its rule as data (issue #76): each ``Refused(...)`` of a ruleset, of
the engine, and of the test rulesets gives ``rule=`` ids of its rules map (or of the
engine's, ``core/explain/engine_rules.toml``), or ``TYPING`` for a line mistyped or misused.

The walk reads the source (``ast``), so it sees every refusal, those no test reaches too.
A ``rule=`` must be ids written out (a string, a tuple of them, or a choice of two such),
``TYPING``, or another refusal's ``.rules`` passed on; anything else cannot be checked and
fails.  The guard holds for every part but those :data:`NOT_YET` counts; :func:`unnamed`
lists, for those, what still names no rule.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from registry_walk import RULESETS, sources

from core.commands.words import Meant
from core.explain import rulesmap
from core.refusal import TYPING, Refused
from core.registry import get_ruleset
from core.scenarios.files import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"

#: Each part of the code whose refusals the guard walks: its files, and the ruleset whose
#: map its ids are of (None: the engine's map only).  Every ruleset of the registry (the
#: built-ins, the installed plugins, the test rulesets: ``registry_walk``), by its source;
#: the engine; and the seventh ruleset, a ruleset of one file registered by its own test.
PARTS: dict[str, tuple[tuple[Path, ...], str | None]] = {
    "engine": (
        tuple(p for p in CORE.rglob("*.py") if "rulesets" not in p.relative_to(CORE).parts[:1])
        + (CORE / "rulesets" / "common.py", CORE / "rulesets" / "__init__.py"),
        None,
    ),
    **{rid: (tuple(sources(rid)), rid) for rid in RULESETS},
    "seventh": ((ROOT / "tests" / "seventh_ruleset.py",), None),
}

#: The parts whose refusals do not all name a rule yet, and how many do not (issue #76): the
#: test rulesets' own rules, which keep no rules map (Snowball is the plugin without one).
NOT_YET: dict[str, int] = {"outpost": 3, "snowball": 3}
#: Every part; those of :data:`NOT_YET` expected to fail the guard, strictly (one that
#: passes fails the run, until it is taken off the list).
GUARDED = [
    pytest.param(part, marks=pytest.mark.xfail(strict=True, reason=f"{NOT_YET[part]} refusals name no rule yet"))
    if part in NOT_YET
    else part
    for part in PARTS
]


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


#: What a failure of the guard says: where the rule ids come from, and where a plugin's author reads it.
HOW = (
    "every Refused(...) names its rule: rule= an id of the ruleset's rules map or of the engine's"
    " (core/explain/engine_rules.toml), or TYPING; docs/architecture.md, 'For a plugin's author:"
    " every Refused names its rule'"
)


@pytest.mark.long  # it parses every module of its part
@pytest.mark.parametrize("part", GUARDED)
def test_every_refusal_names_its_rule(part):
    assert unnamed(part) == [], HOW


def test_the_guards_message_points_at_the_docs_that_say_it():
    said = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "**For a plugin's author: every `Refused` names its rule.**" in said
    assert "'For a plugin's author: every Refused names its rule'" in HOW


@pytest.mark.long  # (as above)
@pytest.mark.parametrize("part", NOT_YET)
def test_what_is_not_yet_guarded_is_counted(part):
    assert len(unnamed(part)) == NOT_YET[part]


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
