"""A built-in command that needs the game is a hook of its ``CommandSpec`` (``game_handler``,
``log_step``, ``reseals``: core/ruleset.py), never a check of its name in the engine (issue
#93; docs/architecture.md, "How to add a built-in command").  The engine's modules compare
no command's name, and no ruleset's command has a hook: a rule is a function of the state.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import core
from core.game.builtins import builtin_commands
from core.registry import BUILTIN, get_ruleset

#: The engine: a game and its concerns.
ENGINE = Path(core.__file__).parent / "game"


def names_compared(root: Path) -> list[str]:
    """Every comparison, in ``root``'s modules, of a command's name (``parsed.spec.name ==
    "undo"``, ``spec.name != CONFIRM``, ``spec.name in (...)``): where and what."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                ast.unparse(side).endswith("spec.name") for side in (node.left, *node.comparators)
            ):
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_engine_dispatches_no_command_by_its_name():
    assert names_compared(ENGINE) == [], "give the built-in a hook of its CommandSpec: game_handler, log_step, reseals"


def test_a_command_dispatched_by_its_name_is_found(tmp_path):
    """So that the test above can fail."""
    (tmp_path / "engine.py").write_text(
        'def handle(parsed):\n    if parsed.spec.name == "bookmark":\n        return 1\n'
    )
    assert names_compared(tmp_path) == ["engine.py:2: parsed.spec.name == 'bookmark'"]


def test_the_built_ins_that_need_the_game_have_their_hooks():
    specs = {s.name: s for s in builtin_commands(get_ruleset("breaking-news"))}
    assert specs["undo"].log_step is not None and specs["redo"].log_step is not None
    assert specs["confirm"].game_handler is not None
    assert specs["dice-key"].reseals
    hooked = {n for n, s in specs.items() if s.log_step or s.game_handler or s.reseals}
    assert hooked == {"undo", "redo", "confirm", "dice-key"}


@pytest.mark.parametrize("ruleset_id", BUILTIN)
def test_no_rulesets_command_has_a_hook_of_the_game(ruleset_id):
    for variant in get_ruleset(ruleset_id).variants:
        for spec in get_ruleset(ruleset_id, variant).commands():
            assert (spec.game_handler, spec.log_step, spec.reseals) == (None, None, False), spec.name
