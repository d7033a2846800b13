"""Issue #26: each kind of Bassa Intensità roll records how its outcome is decided,
and the chance the dice pane and the report's luck show is the rule's own over every face."""

from __future__ import annotations

from fractions import Fraction

from core.log import events as ev
from core.report.luck import judge
from core.report.model import RollFact
from core.rulesets.bassa_intensita import rules
from core.rulesets.bassa_intensita.tables import air, special
from tui import odds


def exact(passes, sides: int) -> Fraction:
    return Fraction(sum(1 for f in range(1, sides + 1) if passes(f)), sides)


def shown_chance(check: ev.Check, sides: int) -> Fraction:
    roll = ev.Roll("test", (1,), sides, check=check)
    assert judge(RollFact(1, "a", "", roll)).chances[-1] == odds.chance(roll)
    return odds.chance(roll)


def test_every_quality_check_is_a_d10_at_or_under_its_chance():
    """BI-R003: success on the chance or less; 10 or more cannot fail, 0 or less cannot
    succeed (ruling BI-HALVES): morale, penetration, HE, anti-aircraft, dressing, search,
    isolation, taking over; the d10 reads 1 to 10 (BI-R001)."""
    for chance in range(-2, 13):
        check = ev.AtLeast(face=chance, under=True)
        assert shown_chance(check, rules.D10) == exact(lambda f, c=chance: rules.succeeds(f, c), rules.D10)


def test_the_d6_rolls_with_a_success():
    """BI-R263, BI-R264: the helicopter holds over the rotor's failing faces; BI-R262: a
    damaged aircraft comes back on a 6; BI-R263: a passenger is hit at or under his number;
    BI-AMB-58: a hidden sniper fires at or under 2, 3 or 4."""
    fails = air().rotor_fails
    assert shown_chance(ev.AtLeast(face=fails + 1), 6) == exact(lambda f: not f <= fails, 6)
    back = air().aircraft.return_on
    assert shown_chance(ev.AtLeast(face=back), 6) == exact(lambda f: f >= back, 6) == Fraction(1, 6)
    hit = air().passenger_hit
    assert shown_chance(ev.AtLeast(face=hit, under=True), rules.D10) == exact(lambda f: f <= hit, rules.D10)
    sniper = special().sniper
    for need in (sniper.fires_on, sniper.fires_on + sniper.veteran, sniper.fires_on + sniper.elite):
        assert shown_chance(ev.AtLeast(face=need, under=True), 6) == exact(lambda f, n=need: f <= n, 6)
