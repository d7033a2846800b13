"""The game's words are types, not strings (issue 45).

Each ruleset declares its statuses, kinds of piece and phases once, as ``StrEnum`` members
(``core/rulesets/<ruleset>/terms.py``), and code compares the members: a reader jumps to the
declaration and a type checker reads it, where a misspelt string would never match.  This test
counts the comparisons still made against one of those words as a bare string — a ``Compare``
with a string constant that is a declared word on one side, or ``.has("...")`` — and holds
their rate in ``core/`` under one per 1,000 lines, so they cannot creep back.
"""

from __future__ import annotations

import ast
import importlib
from enum import StrEnum
from pathlib import Path

import pytest

import core
from core.registry import BUILTIN, get_ruleset

CORE = Path(core.__file__).parent
#: Each ruleset core/ ships (the registry's built-ins) and its package: a ruleset added
#: under core/rulesets is counted with the others, never left out for want of a line here.
PACKAGES = {ruleset_id: target.split(":")[0].split(".")[2] for ruleset_id, target in BUILTIN.items()}
#: At most this many comparisons against a bare game word per 1,000 lines of core/.
RATE_LIMIT = 1.0


def _terms(package: str) -> list[type[StrEnum]]:
    module = importlib.import_module(f"core.rulesets.{package}.terms")
    return [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, StrEnum) and v is not StrEnum]


def declared_words() -> frozenset[str]:
    """Every word a ruleset declares as a type."""
    return frozenset(m.value for package in PACKAGES.values() for enum in _terms(package) for m in enum)


def _is_has(node: ast.AST) -> bool:
    """``x.has(...)``: a piece asked whether it shows a status."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "has"
        and node.args != []
    )


def string_comparisons(source: str, words: frozenset[str]) -> list[tuple[int, str]]:
    """Where ``source`` compares a declared word as a bare string: ``(line, word)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and isinstance(side.value, str) and side.value in words:
                    found.append((node.lineno, side.value))
        elif _is_has(node) and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.append((node.lineno, node.args[0].value))
    return found


@pytest.mark.long
def test_string_comparisons_of_game_words_are_rare_in_core():
    words = declared_words()
    lines = 0
    found: list[str] = []
    for path in sorted(CORE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines += source.count("\n")
        found += [f"{path.relative_to(CORE.parent)}:{n} {w!r}" for n, w in string_comparisons(source, words)]
    rate = 1000 * len(found) / lines
    assert rate < RATE_LIMIT, f"{len(found)} in {lines} lines ({rate:.2f} per 1,000):\n" + "\n".join(found)


def test_the_count_sees_each_kind_of_comparison():
    words = frozenset({"hidden", "man", "setup"})
    source = (
        "u.has('hidden')\n"
        "u.kind == 'man'\n"
        "'setup' != state.phase\n"
        "'hidden' in u.status\n"
        "u.has(Status.HIDDEN)\n"  # a member: not counted
        "x == 'cm'\n"  # not a game word
    )
    assert string_comparisons(source, words) == [(1, "hidden"), (2, "man"), (3, "setup"), (4, "hidden")]


@pytest.mark.parametrize("ruleset_id", PACKAGES)
def test_the_types_hold_the_words_the_ruleset_declares(ruleset_id):
    """A ruleset's enums and its declarations name the same words: every status member is one it
    declares (``Ruleset.statuses``), and each declared status, kind and phase has its member."""
    ruleset = get_ruleset(ruleset_id)
    enums = {e.__name__: e for e in _terms(PACKAGES[ruleset_id])}
    statuses = {s for s in ruleset.statuses() if not s.endswith(("*", "-", "."))}
    assert {m.value for m in enums["Status"]} == statuses
    assert [m.value for m in enums["Kind"]] == list(ruleset.scenario_format.kinds)
    assert [m.value for m in enums["PhaseId"]] == [p.id for p in ruleset.phases]
