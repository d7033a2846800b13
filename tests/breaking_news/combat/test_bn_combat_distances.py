"""Distances as measured (issue 10): a tape reads half centimetres, or inches; the
§8.0 fire bands and §7.0 sighting bands compare the exact value, and a move with a
fraction is written to the save exactly and read back the same."""

from __future__ import annotations

from contextlib import closing
from decimal import Decimal

import pytest
from bn_combat_support import facts, rolls
from playing import names

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def _need(g: Game, line: str) -> tuple[int, str]:
    roll = rolls(g.execute(line, role="regulars"))[0]
    return roll.target, roll.purpose


@pytest.mark.parametrize(
    ("range_", "need", "said"),
    [
        # §8.0: an assault rifle aimed needs 3 up to 25 cm, 4 up to 50, 5 up to 100 (a band includes its upper value).
        ("24.9", 3, "24.9 cm"),
        ("25", 3, "25 cm"),
        ("25.0", 3, "25 cm"),
        ("25.01", 4, "25.01 cm"),
        ("25.5", 4, "25.5 cm"),
        ("50", 4, "50 cm"),
        ("50.5", 5, "50.5 cm"),
        # Inches, converted exactly: 9.84 in is 24.9936 cm, 9.85 in is 25.019 cm, 10 in 25.4 cm.
        ("9.84in", 3, "24.9936 cm"),
        ("9.85in", 4, "25.019 cm"),
        ('10"', 4, "25.4 cm"),
        ("25cm", 3, "25 cm"),
    ],
)
def test_fire_bands_compare_the_exact_distance(rng, range_, need, said):
    """§8.0: Sgt Stone's aimed AR needs 3 up to 25 cm and 4 from 25.01, as measured (inches converted
    exactly).

    Digest: AMB-01, FIRE-2.
    """
    target, purpose = _need(rng, f"fire sarge kalash range={range_} dice=1")
    assert target == need
    assert purpose.endswith(f", {said}")


@pytest.mark.parametrize(
    ("range_", "need"), [("5", 0), ("5.5", 3), ("20", 3), ("20.5", 5), ("7.87in", 3), ("7.88in", 5)]
)
def test_sighting_bands_compare_the_exact_distance(rng, range_, need):
    """§7.0 (digest T-07): up to 5 cm automatic, 3+ to 20 cm, 5+ to 50 cm; 7.87 in is 19.9898 cm,
    7.88 in 20.0152 cm.

    Digest: AMB-01.
    """
    out = rng.execute(f"react-spot sarge shadow range={range_}" + ("" if need == 0 else " dice=1"), role=REFEREE)
    got = rolls(out)
    if need == 0:
        assert got == [] and facts(out, ev.Spotted)
    else:
        assert got[0].target == need


@pytest.mark.parametrize(
    "word", ["1e9", "nan", "inf", "-3", "25,5", "25.", ".5", "25.555", "1001", "ten", "10ft", "10in5", "0x10", "١٢"]
)
def test_a_distance_that_is_not_one_is_refused_saying_what_is_accepted(rng, word):
    with pytest.raises(Refused) as e:
        rng.execute(f"fire sarge kalash range={word} dice=1", role="regulars")
    names(e.value, TYPING)
    why = str(e.value)
    assert why.startswith("range must be a distance from 0 to 1000 cm: ")
    assert "25.5" in why and "10in" in why and repr(word) in why


def test_a_move_with_a_fraction_is_saved_exactly(rng, tmp_path):
    out = rng.execute("move m4 4.5 cautious", role="regulars")
    (moved,) = facts(out, ev.Moved)
    assert moved.cm == Decimal("4.5")
    assert rng.state.units["m4"].moved_cm == Decimal("4.5")
    assert '"cm":"4.5"' in rng.path.read_text()  # the exact decimal, never a float
    assert any("moves 4.5 cm" in line.text for line in rng.log_lines("irregulars"))
    rng.close()
    with closing(Game.open(rng.path, writable=False)) as again:
        assert again.state.units["m4"].moved_cm == Decimal("4.5")
        assert again.state == rng.state
