"""Every command that can roll declares the order of its dice (``CommandSpec.dice``).

Found two ways: statically, every command whose handler reaches a roll in its
ruleset's code; and by playing every recorded game with table dice, every command
that asked for dice.  A referee rolling real dice reads the order before the first
face is asked for, in the prompt, in the help and in docs/commands.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from recorded import play_with_table_dice, recorded_games, without_digests
from registry_walk import RULESETS as WALKED
from registry_walk import sources

from core.game import Game
from core.game.builtins import builtin_commands
from core.registry import BUILTIN, get_ruleset
from core.rulesets import common

RULESETS = Path(common.__file__).parent
#: Each ruleset's code, wherever it is.
SOURCES = {r: sources(r) for r in WALKED}
COMMANDS_MD = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def rolling_functions(code: list[Path]) -> set[str]:
    """The names of the functions of ``code`` (and common.py) that can roll: those that
    call ``.roll(`` or ``.shuffle(`` on something, or call one that can.  By name only,
    so a name two modules share counts as rolling if either does: it may over-count,
    never miss one."""
    calls: dict[str, set[str]] = {}
    rolling: set[str] = set()
    for path in [*code, RULESETS / "common.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            called = calls.setdefault(node.name, set())
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call):
                    fn = sub.func
                    name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                    if isinstance(fn, ast.Attribute) and name in ("roll", "shuffle"):
                        rolling.add(node.name)
                    called.add(name)
    grown = True
    while grown:
        grown = False
        for fn, called in calls.items():
            if fn not in rolling and called & rolling:
                rolling.add(fn)
                grown = True
    return rolling


@pytest.mark.long
@pytest.mark.parametrize("ruleset", WALKED)
def test_every_command_whose_code_can_roll_declares_its_dice(ruleset):
    rs = get_ruleset(ruleset)
    rolling = rolling_functions(SOURCES[ruleset])
    for spec in [*rs.commands(), *builtin_commands(rs)]:
        name = getattr(spec.handler, "__name__", "")
        if name in rolling:
            assert spec.dice, f"{ruleset} {spec.name}: its handler {name} can roll; declare dice=(...)"
        # ``rolls`` (physical-dice entry) and the declaration go together
        assert spec.rolls == bool(spec.dice), f"{ruleset} {spec.name}: rolls={spec.rolls} but dice={spec.dice}"
        assert all(step.strip() == step and step for step in spec.dice), spec.name
    # ``next`` (Ruleset.advance) declares its dice (next_dice) if and only if it can roll: the
    # contract asks neither of a ruleset whose turns come round without dice.
    declared = "declares next_dice" if rs.next_dice else "declares no next_dice"
    can = "can roll" if "advance" in rolling else "cannot roll"
    assert bool(rs.next_dice) == ("advance" in rolling), f"{ruleset}: its advance {can} but it {declared}"


def test_the_static_check_finds_rolling_handlers():
    """It would fail: the handlers it must find are found (and a handler that never rolls is not)."""
    bn = rolling_functions(SOURCES["breaking-news"])
    assert {"_fire", "_rally", "_embark", "advance"} <= bn
    assert "_mark" not in bn and "_hide" not in bn


@pytest.mark.parametrize("game", recorded_games(), ids=lambda g: g.name)
def test_every_command_asking_for_dice_in_the_recorded_games_declares_its_order(game, tmp_path):
    g, asked = play_with_table_dice(game, tmp_path)
    try:
        specs = {s.name: s for s in g.commands}
        assert asked, f"{game.name} asked for no dice"
        for a in asked:
            spec = specs[a.command]
            assert spec.dice, f"{game.name}: {a.line!r} asked for dice but {a.command} declares no order"
            assert a.request.order == spec.dice
            words = a.request.text()
            assert a.request.whose and words.startswith(a.request.whose), words
            assert not words.startswith("Roll ") and " for " not in words.split(":")[0], words

        # the table's dice were the seeded ones: the game is the recorded one, typed
        # (but for the commitments' digests, salted afresh in every game)
        def words(lines) -> list[str]:
            return [without_digests(ln.text.removesuffix(" [table dice]")) for ln in lines]

        assert words(g.log_lines(role="referee")) == words(
            Game.open(game.save, writable=False).log_lines(role="referee")
        )
    finally:
        g.close()


def test_docs_commands_lists_every_dice_order():
    """docs/commands.md holds, per ruleset, every command's dice in order, as the specs say."""
    text = COMMANDS_MD.read_text()
    expected = dice_order_markdown()
    assert expected in text, "docs/commands.md's dice orders are stale; the section should read:\n\n" + expected


def dice_order_markdown() -> str:
    """The section of docs/commands.md listing every command's dice in order."""
    out = ["## The dice of each command, in order", ""]
    out.append(
        "With table dice, a command that rolls asks for one roll at a time, saying whose "
        "roll it is, what for and what it needs (`Sgt Rossi's save: 1d6, needs 2+ (base 3+, team leader +1)`). "
        "Before the first face, the prompt lists the command's dice in the order below, "
        "and at every roll it marks the step it asks for (`▸`, `now step 4 of 5`); "
        "`fireteam script` names the roll it stopped at, the order and its step, and the help (`F1`) shows it too."
    )
    for ruleset in BUILTIN:
        rs = get_ruleset(ruleset)
        out += ["", f"### {rs.name}", "", "| command | dice, in order |", "|---|---|"]
        rows = [(spec.name, spec.dice) for spec in rs.commands() if spec.dice] + [("next", rs.next_dice)]
        for name, dice in sorted(rows):
            out.append(f"| `{name}` | " + "; then ".join(dice).replace("|", "\\|") + " |")
    return "\n".join(out) + "\n"
