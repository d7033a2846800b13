"""Linea di Tiro, third held-out audit: the digest's list of ambiguities (C.11, LT-AMB-01..33)
against the product, a case for each proposal the earlier audits had not pinned down: the
flight at exactly twice the morale, a reply at an attacker still hidden, the doubling of a
hidden piece, an ambush -1 below row 1, the HE run after the shot that pins, the immobilised
+1 to a test, a gun defending a melee, a free opportunity shot once a card, a rout declared
at the piece's activation, and the unlisted defence of infantry moving in protection."""

from __future__ import annotations

import pytest
from audit_lt_table import add, game_with, has, out, outcome, play, refused, rolled, turned

from core.refusal import TYPING


def _column_letter(facts) -> str:
    return outcome(facts).split(":", 1)[1].strip()[:1]


@pytest.mark.audits("LT-R080", "LT-AMB-01")
@pytest.mark.parametrize(("die", "fled"), [(5, False), (6, True)])
def test_morale_3_flees_at_exactly_6(tmp_path, die, fled):
    """LT-AMB-01: r >= 2M flees; M < r < 2M falls back: the GIs (morale 3) fall back on a 5
    and flee on a 6."""
    g = turned(tmp_path, ["7♥"])
    facts = play(g, f"@us morale gis dice={die}")
    assert ("flee" in outcome(facts)) is fled
    assert has(g, "gis", "retreating") is fled


@pytest.mark.audits("LT-R052", "LT-R030", "LT-AMB-10")
def test_no_reply_at_a_hidden_attacker(tmp_path):
    """LT-AMB-10: only a visible piece may be attacked (LT-R030): the Sherman, fired at by the
    Pak 40 still unspotted, may not answer it with its ready attack."""
    g = turned(tmp_path, ["7♥", "3♣"], "@us activate sherman1 A1", "next", "@german activate pak A2")
    play(g, "@german at pak sherman1 dice=6,6")  # 12: no effect
    assert not out(g, "sherman1")
    refused(g, "@us at sherman1 pak ready dice=6,6", rule=TYPING)


@pytest.mark.audits("LT-R033", "LT-AMB-12")
def test_a_hidden_piece_that_fires_is_seen_twice_as_far(tmp_path):
    """LT-AMB-12: the doubling holds for a piece not yet spotted: the Pak 40 (a large gun,
    a vehicle, stationary in cover 20 cm) fires once, and is spotted by the GIs at 40 cm."""
    g = turned(tmp_path, ["3♣"], "@german activate pak A2", "@german at pak sherman1 dice=6,6")
    facts = play(g, "spot pak by=gis at=40 still-cover")
    assert any(type(e).__name__ == "Spotted" for e in facts)


@pytest.mark.audits("LT-R053", "LT-AMB-18")
def test_an_ambush_on_the_mg_table_below_1_reads_row_1(tmp_path):
    """LT-AMB-18: the ambush -1 applies on the MG/HE table; a 1 - 1 = 0 reads row 1: the
    grenadiers' MG 4 at the GIs moving in the open (+4), row 1: D."""
    g = game_with(tmp_path, ["3♣", "7♥"])
    add(g, "amb", "german", "grenadiers", team="Zug 2", status=("hidden",))
    play(g, "next", "@german activate amb A4 prepare=2", "next", "spot amb by=gis at=4 ambush")
    play(g, "@german mg amb gis moving-open ready ambush dice=1")
    assert out(g, "gis")


@pytest.mark.audits("LT-R061", "LT-AMB-20")
def test_the_he_shot_after_the_one_that_pins_has_plus_1(tmp_path):
    """LT-AMB-20 (ruling LT-HE-STREAK): the grenadiers' HE 4 pins the GIs (still in the open,
    +1, a 1 is I); the next HE shot at them is consecutive, against immobilised infantry:
    +1, column +2."""
    g = turned(tmp_path, ["3♣"], "@german activate grenadiers A4 prepare=0")
    play(g, "@german mg grenadiers gis still-open he dice=1")
    assert has(g, "gis", "immobilised")
    facts = play(g, "@german mg grenadiers gis still-open he dice=3")
    assert "column +2" in outcome(facts)


@pytest.mark.audits("LT-R081", "LT-AMB-21")
def test_an_immobilised_piece_tests_at_plus_1(tmp_path):
    """LT-R081: "+1 al dado da situazioni come l'essere ... immobilizzati": the immobilised
    GIs (morale 3) fall back on a 3 (3 + 1 = 4 > 3)."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "p", "us", "rifles", team="2nd Platoon", status=("immobilised",), stats={"morale": 3})
    play(g, "next")
    assert "fall" in outcome(play(g, "@us morale p dice=3"))


@pytest.mark.audits("LT-R103", "LT-AMB-26")
def test_a_gun_defending_a_melee_fights_at_minus_3(tmp_path):
    """LT-AMB-26: the gun's -3 is on its 1d6 + morale: the GIs (3) roll 2, 5; a Pak 40
    in sight (morale 4) rolls 3, 7 - 3 = 4: the GIs win; without the -3 the gun would."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "gun", "german", "pak40", team="Zug 1")
    play(g, "next", "@us activate gis A2", "@us melee gis gun flank dice=2,3")
    assert out(g, "gun") and not out(g, "gis")


@pytest.mark.audits("LT-R102", "LT-AMB-25")
def test_a_free_opportunity_shot_once_a_card(tmp_path):
    """LT-AMB-25: with no prepared attack the defender's opportunity shot is free, once: the
    grenadiers, assaulted from the front by the GIs, shoot once, not twice."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2")
    assert len(rolled(play(g, "@german mg grenadiers gis moving-open opportunity dice=6"))) == 1
    refused(g, "@german mg grenadiers gis moving-open opportunity dice=6", rule="LT-AMB-25")


@pytest.mark.audits("LT-R082", "LT-AMB-33")
def test_a_rout_declared_at_the_pieces_activation(tmp_path):
    """LT-AMB-33: a voluntary rout may be declared at the piece's activation: the GIs,
    activated, rout: they flee their full move (30 cm) and fire nothing after."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2")
    play(g, "@us rout gis")
    refused(g, "@us mg gis grenadiers still-open dice=6", rule="LT-R051")


@pytest.mark.audits("LT-R060b", "LT-AMB-19")
def test_infantry_moving_in_protection_defends_at_1(tmp_path):
    """LT-AMB-19 (proposed +1): the grenadiers' MG 4 at the GIs moving in protection: +3,
    a 4 is I (at +4 it would be I too, so a 5: at +3 nothing, at +4 I)."""
    g = turned(tmp_path, ["3♣"], "@german activate grenadiers A2")
    facts = play(g, "@german mg grenadiers gis moving-protected dice=5")
    assert "column +3" in outcome(facts) and not has(g, "gis", "immobilised")
