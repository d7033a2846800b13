"""Names declared once (issue 33): statuses and secret variables.

A status (badge) or a secret variable is a plain string, checked in many places
(``unit.has("hidden")``, ``"secret.dies."``).  Each ruleset declares its own once,
beside its tables (``Ruleset.statuses()``, ``Ruleset.secret_vars``), and this test
reads every ruleset's code for the names it sets or reads and checks each is
declared: a typo (``has("hiddne")``) fails here rather than never matching.  The
client's badge words are checked against the declarations too.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from registry_walk import RULESETS as WALKED
from registry_walk import sources

import core.rulesets
from core.language.i18n import CORE_DOMAIN
from core.registry import BUILTIN, get_ruleset, ruleset_class
from core.ruleset import Ruleset
from core.rulesets import common
from core.scenarios.schema import START_STATUSES

pytestmark = pytest.mark.long

RULESETS = Path(core.rulesets.__file__).parent
#: The code that serves every ruleset: the core outside the rulesets, and the client.
CORE = RULESETS.parent
ROOT = CORE.parent
#: The shared modules beside the built-in rulesets' packages are every ruleset's.
SHARED = sorted(RULESETS.glob("*.py"))
#: A status named by its member (``Status.IN_VEHICLE``, each ruleset's ``terms``) is read as its word.
MEMBERS = {
    m.name: m.value
    for ruleset_id in BUILTIN
    for m in importlib.import_module(".".join([*ruleset_class(ruleset_id).__module__.split(".")[:3], "terms"])).Status
}
#: Functions whose arguments (after the unit) are statuses: ``badges(ctx, unit, add, remove)``.
STATUS_SETTERS = {"badges"}
#: Functions taking the fact of a ``secret.<fact>.<unit>`` key (Breaking News' ledger).
SECRET_FACTS = {"unit_var": 2, "set_unit_var": 2}


def _strings(node: ast.AST) -> list[str]:
    """The names a node holds: a string, the strings of a tuple or list, an f-string's
    constant head followed by ``*`` (a family: ``f"aboard-{v.id}"`` is ``aboard-*``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Status":
        return [MEMBERS.get(node.attr, node.attr)]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for e in node.elts for s in _strings(e)]
    if isinstance(node, ast.JoinedStr):
        head = node.values[0] if node.values else None
        return [head.value + "*"] if isinstance(head, ast.Constant) and isinstance(head.value, str) else ["*"]
    return []


def _name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def used(paths: list[Path]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The statuses and the secret variables ``paths`` set or read, each with where."""
    statuses: dict[str, list[str]] = {}
    secrets: dict[str, list[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # An f-string's parts are read with it, not as strings of their own.
        parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        shown = _shown(path)  # once a file: worked out for each of its nodes, it was most of the reading's time
        for node in ast.walk(tree):
            if id(node) in parts:
                continue
            where = f"{shown}:{getattr(node, 'lineno', 0)}"
            found: list[str] = []
            if isinstance(node, ast.Call):
                name = _name(node)
                if name == "has" and node.args:
                    found += _strings(node.args[0])
                elif name == "StatusChanged":
                    found += [s for kw in node.keywords if kw.arg in ("add", "remove") for s in _strings(kw.value)]
                elif name in STATUS_SETTERS:
                    found += [s for a in node.args[2:] for s in _strings(a)]
                    found += [s for kw in node.keywords if kw.arg in ("add", "remove") for s in _strings(kw.value)]
                elif name in SECRET_FACTS and len(node.args) > SECRET_FACTS[name]:
                    for fact in _strings(node.args[SECRET_FACTS[name]]):
                        secrets.setdefault(f"secret.{fact}.*", []).append(where)
            elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
                if isinstance(node.comparators[0], ast.Attribute) and node.comparators[0].attr == "status":
                    found += _strings(node.left)
            elif isinstance(node, ast.Constant | ast.JoinedStr):
                for s in _strings(node):
                    if s.startswith("secret.") and s != "secret.*":  # secret.{fact}: its facts are read above
                        secrets.setdefault(s, []).append(where)
            for s in found:
                statuses.setdefault(s, []).append(where)
    return statuses, secrets


def _shown(path: Path) -> Path:
    """Where a file is, as a failure names it: from the built-in rulesets' folder or the
    checkout's root, or whole (a plugin's, installed anywhere)."""
    for root in (RULESETS, ROOT):
        if path.is_relative_to(root):
            return path.relative_to(root)
    return path


def declared(name: str, names: frozenset[str] | tuple[str, ...]) -> bool:
    """Whether ``name`` (``x*``: a family, or a name made from an id) is one of ``names``
    (``x*`` or ``x.``: a family)."""
    families = [n.rstrip("*") for n in names if n.endswith(("*", "."))]
    if name.endswith("*"):
        head = name[:-1]
        return any(n.startswith(head) for n in names) or any(head.startswith(f) for f in families)
    return name in names or any(name.startswith(f) for f in families)


def _files(ruleset_id: str) -> list[Path]:
    return sources(ruleset_id) + SHARED


def test_the_reading_finds_a_ruleset_s_statuses():
    statuses, _ = used(_files("bassa-intensita"))
    assert len(statuses) >= 6, sorted(statuses)


@pytest.mark.parametrize("ruleset_id", WALKED)
def test_every_status_a_ruleset_sets_or_reads_is_declared(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    statuses, _ = used(_files(ruleset_id))
    undeclared = {s: where for s, where in statuses.items() if not declared(s, ruleset.statuses())}
    assert undeclared == {}
    # What its commands offer as a status to give or take (the referee's mark and clear) …
    offered = {c for spec in ruleset.commands() for p in spec.params if p.name == "status" for c in p.choices}
    assert {s for s in offered if not declared(s, ruleset.statuses())} == set()
    if ruleset.scenario_format is not None:  # … and what its scenario files may start a piece with
        assert set(START_STATUSES) <= ruleset.statuses()


@pytest.mark.parametrize("ruleset_id", WALKED)
def test_every_secret_variable_a_ruleset_keeps_is_declared(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    _, secrets = used(_files(ruleset_id))
    undeclared = {s: where for s, where in secrets.items() if not declared(s, ruleset.secret_vars)}
    assert undeclared == {}
    assert all(key.startswith("secret.") for key in ruleset.secret_vars)
    assert {k for k in ruleset.piece_keys if k.startswith("secret.")} <= set(ruleset.secret_vars)


def test_the_core_and_the_client_name_only_the_shared_statuses():
    """Outside the rulesets the code serves them all: each status it sets or reads is a shared
    one, which every ruleset that gives it declares (above): the referee's mark and clear's
    (``core.rulesets.common.STATUSES``; ``hidden``, which the core reads, is ``core.log.state.HIDDEN``)
    or one a scenario file may start a piece with (``START_STATUSES``).  And a secret variable
    is named there only by its prefix, declared once (``core.log.state.SECRET_VARS``)."""
    files = [p for p in sorted(CORE.rglob("*.py")) if not p.is_relative_to(RULESETS)]
    files += sorted((ROOT / "tui").rglob("*.py"))
    statuses, secrets = used(files)
    shared = frozenset({*common.STATUSES, *START_STATUSES})
    assert {s: where for s, where in statuses.items() if not declared(s, shared)} == {}
    assert list(secrets) == ["secret."] and all(w.startswith("core/log/state.py:") for w in secrets["secret."])


def test_a_typo_in_a_status_or_a_secret_is_found(tmp_path):
    """The reading itself: what each kind of use looks like, misspelt, in a file outside
    the checkout (as a plugin's code may be)."""
    (tmp_path / "typos.py").write_text(
        "u.has('hiddne')\n"
        "'supressed' in unit.status\n"
        "ev.StatusChanged(unit=u.id, add=('pinnned',), remove=('wounded',))\n"
        "badges(ctx, vehicle, ('slowd',))\n"
        "u.has(f'abord-{v.id}')\n"
        "key = f'secret.deis.{u.id}'\n"
        "unit_var(state, u.id, 'wuond')\n"
        "u.has(Status.HIDDNE)\n",
        encoding="utf-8",
    )
    statuses, secrets = used([tmp_path / "typos.py"])
    assert statuses["hiddne"] == [f"{tmp_path / 'typos.py'}:1"]
    ruleset = get_ruleset("bassa-intensita")
    assert sorted(s for s in statuses if not declared(s, ruleset.statuses())) == [
        "HIDDNE",
        "abord-*",
        "hiddne",
        "pinnned",
        "slowd",
        "supressed",
    ]
    assert sorted(s for s in secrets if not declared(s, get_ruleset("breaking-news").secret_vars)) == [
        "secret.deis.*",
        "secret.wuond.*",
    ]


def test_the_interface_declares_none_by_default():
    class Least(Ruleset):
        id = name = version = "least"
        domain = CORE_DOMAIN
        phases = ()

        def commands(self):
            return ()

    assert Least().statuses() == frozenset() and Least.secret_vars == ()
