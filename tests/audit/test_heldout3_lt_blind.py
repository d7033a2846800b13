"""Linea di Tiro, third held-out audit: blind cases from the Italian book and the digest
alone, crossing the tables with each other and with the cards: the AT table with its two
die modifiers and the long-range note (C.6), the MG/HE table over every defence with the
ambush -1 (C.7, C.7.1), the morale bands at morale 2 with the +1 situations (C.8), the melee's
modifiers together (C.9), the close-assault rating with its two modifiers (C.9), the
overrun's branches (C.9), and which card lets which side act (C.2)."""

from __future__ import annotations

import pytest
from audit_lt_table import DEFENCES, add, at_book, game_with, has, mg_book, out, outcome, play, refused, turned


def letter(facts) -> str:
    """The table's letter in the log's outcome ("-" for no effect)."""
    text = outcome(facts).split("column", 1)[1].split(":", 1)[1].strip()
    return "-" if text.startswith("no effect") else text[0]


# --- C.6: AT fire, 2d6 --------------------------------------------------------------------

# (shooter's AT, target protection, dice, flags): the Sherman's AT 5 (long 4) at the Panzer
# (front 5, side 3), given its own numbers here
AT_CASES = [
    (5, 5, (3, 3), ""),  # 0, 6: T
    (5, 5, (3, 3), "hulldown"),  # 0, 7: -
    (5, 5, (2, 3), "close"),  # 0, 4: D
    (5, 3, (3, 4), "flank"),  # +2, 7: T
    (5, 3, (4, 4), "flank close"),  # +2, 7: T
    (4, 5, (3, 3), "long"),  # -1 at long range, 6: -
    (4, 3, (3, 3), "long flank hulldown"),  # +1, 7 at long range: no effect
    (4, 3, (3, 3), "long flank"),  # +1, 6: T
    (4, 3, (1, 1), "long flank close"),  # +1, 1: D
    (5, 5, (1, 2), "hulldown close"),  # 0, 3: D
]


@pytest.mark.audits("LT-R050", "LT-R050a", "LT-R050b", "LT-AMB-15", "LT-AMB-16")
@pytest.mark.parametrize(("attack", "protection", "dice", "flags"), AT_CASES)
def test_the_at_table_with_its_modifiers(tmp_path, attack, protection, dice, flags):
    g = game_with(tmp_path, ["7♥"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats={"at": 5, "at_long": 4})
    add(g, "t", "german", "pz4", team="Zug 1", stats={"front": 5, "side": 3, "morale": 4})
    play(g, "next", "@us activate s A2")
    facts = play(g, f"@us at s t {flags} dice={dice[0]},{dice[1]}")
    total = sum(dice) + ("hulldown" in flags) - ("close" in flags)
    assert letter(facts) == at_book(attack - protection, total, "long" in flags)


# --- C.7: MG & HE, 1d6 --------------------------------------------------------------------


@pytest.mark.audits("LT-R060", "LT-R060b")
@pytest.mark.parametrize("defence", sorted(DEFENCES))
@pytest.mark.parametrize("die", [1, 2, 3, 4])
def test_the_mg_table_over_the_infantry_defences(tmp_path, defence, die):
    """The grenadiers' MG 4 at the GIs in each of the book's infantry states."""
    g = turned(tmp_path, ["3♣"], "@german activate grenadiers A2")
    facts = play(g, f"@german mg grenadiers gis {defence} dice={die}")
    want = mg_book(4 - DEFENCES[defence], die)
    assert letter(facts) == want
    assert out(g, "gis") is (want == "D")
    assert has(g, "gis", "immobilised") is (want == "I")


# --- C.8: morale ----------------------------------------------------------------------------


@pytest.mark.audits("LT-R080", "LT-R081", "LT-AMB-01", "LT-AMB-02")
@pytest.mark.parametrize(
    ("die", "plus", "want"),
    [(2, 0, "steady"), (3, 0, "fall"), (4, 0, "flee"), (1, 1, "steady"), (2, 1, "fall"), (2, 2, "flee")],
)
def test_morale_2_with_its_situations(tmp_path, die, plus, want):
    """Morale 2: r <= 2 nothing, 3 falls back, r >= 4 flees; each situation +1."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "p", "us", "rifles", team="2nd Platoon", stats={"morale": 2})
    play(g, "next")
    assert want in outcome(play(g, f"@us morale p plus={plus} dice={die}"))


# --- C.9: melee -----------------------------------------------------------------------------


@pytest.mark.audits("LT-R102")
def test_melee_entrenched_and_from_behind_together(tmp_path):
    """GIs (3) against grenadiers (4) entrenched, attacked from behind: 4 + 3 = 7 against
    1 + 4 + 2 - 1 = 6: the GIs win."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2", "@us melee gis grenadiers rear entrenched dice=4,1")
    assert out(g, "grenadiers") and not out(g, "gis")


@pytest.mark.audits("LT-R102")
def test_melee_tie_with_modifiers_destroys_both(tmp_path):
    """GIs (3) roll 3 = 6; grenadiers (4) entrenched from behind roll 1: 1 + 4 + 2 - 1 = 6."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2", "@us melee gis grenadiers rear entrenched dice=3,1")
    assert out(g, "gis") and out(g, "grenadiers")


# --- C.9: close assault ---------------------------------------------------------------------


@pytest.mark.audits("LT-R101")
@pytest.mark.parametrize(
    ("roles", "die", "destroyed"),
    [((), 3, True), ((), 4, False), (("no-mg",), 4, True), (("protected",), 3, False), (("protected",), 2, True)],
)
def test_close_assault_rating_3_with_its_modifiers(tmp_path, roles, die, destroyed):
    """Trained infantry with adequate AT weapons: 1d6 <= 3; +1 at a tank without MGs, -1 at
    a specially protected tank."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "inf", "us", "bazooka-team", team="2nd Platoon", stats={"close_assault": 3})
    add(g, "tk", "german", "pz4", team="Zug 1", roles=roles)
    play(g, "next", "@us activate inf A2", f"@us closeassault inf tk flank dice={die}")
    assert out(g, "tk") is destroyed


# --- C.9: overrun ---------------------------------------------------------------------------


@pytest.mark.audits("LT-R100", "LT-AMB-23")
@pytest.mark.parametrize(("dice", "tank_out", "inf_out"), [((3, 3), True, False), ((3, 4, 4), False, True)])
def test_overrun_of_a_bazooka_team_in_cover(tmp_path, dice, tank_out, inf_out):
    """The bazooka team (morale 3, rating 3) passes its test on a 3 and strikes first: a 3
    destroys the Panzer; a 4 does not, and the Panzer's attack in cover follows: a 4 (<= 4)
    destroys the team."""
    g = turned(tmp_path, ["3♣"], "@german activate panzer A5")
    play(g, "@german overrun panzer bazooka dice=" + ",".join(map(str, dice)))
    assert out(g, "panzer") is tank_out and out(g, "bazooka") is inf_out


# --- C.2: the cards -------------------------------------------------------------------------


@pytest.mark.audits("LT-R010", "LT-AMB-06")
@pytest.mark.parametrize(("card", "side", "other"), [("A♠", "german", "us"), ("A♦", "us", "german")])
def test_an_ace_activates_one_piece_of_its_suits_side(tmp_path, card, side, other):
    g = game_with(tmp_path, [card])
    piece, enemy = ("grenadiers", "gis") if side == "german" else ("gis", "grenadiers")
    play(g, "next")
    refused(g, f"@{other} activate {enemy} A1", rule="LT-R010")
    play(g, f"@{side} activate {piece} A1")
    refused(g, f"@{side} activate {'panzer' if side == 'german' else 'sherman1'} A1", rule="LT-R010")


@pytest.mark.audits("LT-R010", "LT-AMB-04")
def test_a_jack_of_diamonds_activates_the_allied_platoon_each_once(tmp_path):
    g = turned(tmp_path, ["J♦"], "@us activate sherman1 A1", "@us activate sherman2 A1")
    refused(g, "@us activate sherman1 A1", rule="LT-R010")
    refused(g, "@us activate gis A1", rule="LT-R010")
