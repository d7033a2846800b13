"""Issue #26: every roll records how its outcome is decided (``core.log.events.Check``),
and the chance the dice pane, the odds before a roll and the report's luck show is
the exact chance of that outcome over every face of the dice."""

from __future__ import annotations

import ast
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from core.dice.probability import check_chance, check_distribution, check_met, check_successes, die_meets
from core.log import events as ev
from core.report.luck import judge
from core.report.model import RollFact
from core.storage import decoding, savefile
from tui import odds

RULESETS = Path(__file__).parents[2] / "core" / "rulesets"


def brute(check: ev.Check, dice: int, sides: int = 6) -> Fraction:
    """The chance of passing ``check``, counted over every face of every die."""
    faces = list(product(range(1, sides + 1), repeat=dice))
    return Fraction(sum(1 for f in faces if check_met(check, f)), len(faces))


def shown(check: ev.Check, faces: tuple[int, ...], sides: int = 6) -> tuple:
    """What the dice pane and the report's luck make of a roll with this check."""
    roll = ev.Roll("test", faces, sides, check=check)
    luck = judge(RollFact(1, "a", "", roll))
    return odds.chance(roll), odds.succeeded(roll), luck


@pytest.mark.long
def test_every_roll_of_every_ruleset_records_its_check():
    """Each ``ctx.roll`` call in the rulesets passes ``check=`` (the dice pane shows
    none for a roll without it, rather than guess)."""
    missing = []
    for path in sorted(RULESETS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "roll"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "ctx"
                and not any(k.arg == "check" for k in node.keywords)
            ):
                missing.append(f"{path.relative_to(RULESETS)}:{node.lineno}")
    assert missing == []


CHECKS = [
    ev.AtLeast(face=5),
    ev.AtLeast(face=4, need=2),
    ev.AtLeast(face=3, need=3),
    ev.AtLeast(face=2, under=True),
    ev.AtLeast(face=7),
    ev.AtLeast(face=0),
    ev.All(face=5),
    ev.All(face=3, under=True),
    ev.Each(face=4),
    ev.Each(face=2, under=True),
    ev.Sum(total=7),
    ev.Sum(total=5, under=True),
    ev.Sum(total=13),
]


@pytest.mark.parametrize("check", CHECKS, ids=repr)
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_the_chance_shown_is_the_chance_of_the_recorded_outcome(check, dice):
    exact = brute(check, dice) if not isinstance(check, ev.Each) else None
    if exact is not None:
        assert check_chance(check, dice) == exact
    faces_all = list(product(range(1, 7), repeat=dice))
    counts: dict[int, int] = {}
    for faces in faces_all:
        chance, passed, luck = shown(check, faces)
        assert chance == exact and passed == check_met(check, faces)
        counts[luck.successes] = counts.get(luck.successes, 0) + 1
        assert luck.successes == check_successes(check, faces)
    # the luck's distribution is the count of successes over every face
    dist = check_distribution(check, dice)
    assert {k: Fraction(n, len(faces_all)) for k, n in counts.items()} == {k: p for k, p in enumerate(dist) if p}


def test_opposed_and_table_rolls_and_old_saves_show_no_chance():
    for check in (ev.Opposed(), ev.Read(), None):
        chance, passed, luck = shown(check, (5, 3))
        assert (chance, passed, luck) == (None, None, None)
        assert die_meets(check, 6) is None
    # a save from before checks: its target cannot say how the dice were read
    old = ev.Roll("save", (5, 3), target=5, outcome="failed: out of action")
    assert (odds.chance(old), odds.chance_text(old), odds.need(old)) == (None, "", "")


def test_a_roll_from_a_save_made_before_checks_reads_and_shows_no_chance():
    """A two-die save as engine 0.1 wrote it: no check, so no chance, no die coloured,
    no luck, rather than "55.6% for at least one 5+" for a save that needed both."""
    line = (
        b'{"t":"roll","roll":{"purpose":["save",{}],"faces":[5,3],"target":5,'
        b'"outcome":["failed: out of action",{}],"rule":"\xc2\xa79.0"},"unit":"kalash"}'
    )
    rolled = decoding._event_decoder.decode(line)
    roll = rolled.roll
    assert roll.check is None and roll.faces == (5, 3)
    assert (odds.chance(roll), odds.chance_text(roll), odds.succeeded(roll), odds.die_succeeds(roll, 5)) == (
        None,
        "",
        None,
        None,
    )
    assert judge(RollFact(1, "irregulars", "kalash", roll)) is None
    assert savefile.encoder.encode(rolled) == line  # and it is written back as it was
