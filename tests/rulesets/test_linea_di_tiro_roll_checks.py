"""Issue #26: each kind of Linea di Tiro roll records how its outcome is decided, and
the chance the dice pane and the report's luck show is the rule's own over every face."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from core.log import events as ev
from core.report.luck import judge
from core.report.model import RollFact
from core.rulesets.linea_di_tiro import rules
from core.rulesets.linea_di_tiro.rules import assault
from tui import odds


def exact(passes) -> Fraction:
    return Fraction(sum(1 for f in range(1, 7) if passes(f)), 6)


def shown_chance(check: ev.Check) -> Fraction:
    roll = ev.Roll("test", (1,), check=check)
    assert judge(RollFact(1, "a", "", roll)).chances[-1] == odds.chance(roll)
    return odds.chance(roll)


def test_a_morale_test_succeeds_when_steady():
    """LT-R080: steady at the morale or less, 1d6 plus the modifiers (the overrun's
    morale test of LT-R100 reads it the same way)."""
    for value, modifier in product(range(0, 9), range(-3, 4)):
        check = rules.steady_check(value, modifier)
        assert check.base == value
        assert shown_chance(check) == exact(lambda f, v=value, m=modifier: rules.morale_result(f + m, v) == "steady")


def test_close_assault_and_overrun_in_cover():
    """LT-R101: at or under the rating with its modifiers; LT-R100: 4 or less in cover."""
    for need in range(-1, 9):
        check = ev.AtLeast(face=need, under=True)
        assert shown_chance(check) == exact(lambda f, n=need: assault.close_assault_destroys(f, n))
    cover = ev.AtLeast(face=assault.assault().overrun_cover_max, under=True)
    assert shown_chance(cover) == exact(lambda f: assault.overrun_destroys(False, f)) == Fraction(4, 6)
