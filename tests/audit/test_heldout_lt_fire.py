"""A second, held-out audit of Linea di Tiro's fire (C.6, C.7) from the book alone, where
mistakes hide: the order in which a result and a reply happen, replies that come too
late, ambushes one card late, two modifiers at once, the long-range note meeting the
side protection, a flight as far as three bounds, and the ambush's -1 on the MG table's
"no effect" row."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, game_with, has, moved, out, outcome, play, refused, rolled, scenario_game


def _duel(tmp_path, name: str = "d.ft", gun_status=(), tank_status=("ready-1",), tank_morale: int = 4):
    """A US gun (AT 6, armour 6) activated for two attacks, a German tank (front 6,
    morale ``tank_morale``) that may hold ready attacks."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "gun", "us", "sherman", team="X", status=gun_status, stats={"at": 6, "front": 6, "side": 6, "morale": 4})
    add(
        g,
        "tank",
        "german",
        "pz4",
        team="Y",
        status=tank_status,
        stats={"at": 6, "front": 6, "side": 1, "morale": tank_morale},
    )
    play(g, "next", "@us activate gun A4 prepare=0")
    return g


# ------------------------------------------------------------------ results, then replies


@pytest.mark.audits("LT-R051", "LT-R052", "LT-AMB-17")
def test_a_t_result_is_applied_before_the_target_may_reply(tmp_path):
    """C.6, LT-R051: "I risultati di combattimento sono applicati immediatamente: chi
    scappa non spara!" A T is a morale test: the tank takes it before it may answer;
    steady (4 <= 4), it answers with its prepared attack."""
    g = _duel(tmp_path)
    assert outcome(play(g, "@us at gun tank dice=3,3")).endswith("T: morale test")  # 6 at 0
    refused(g, "@german at tank gun ready dice=6,6", rule="LT-R051")
    assert has(g, "tank", "ready-1")
    play(g, "@german morale tank dice=4", "@german at tank gun ready dice=6,6")
    assert not has(g, "tank", "ready-1")


@pytest.mark.audits("LT-R052", "LT-R080", "LT-AMB-17")
def test_a_t_that_makes_the_target_fall_back_leaves_it_nothing_to_reply_with(tmp_path):
    """A fall back (4 < 5 < 8) "perde tutti i colpi pronti": no prepared attack, no reply."""
    g = _duel(tmp_path, tank_status=("ready-2",))
    play(g, "@us at gun tank dice=3,3")
    assert moved(play(g, "@german morale tank dice=5")) == [5]
    assert not has(g, "tank", "ready-1") and not has(g, "tank", "ready-2")
    refused(g, "@german at tank gun ready dice=6,6", rule="LT-R052")


@pytest.mark.audits("LT-R052")
def test_a_reply_is_an_attack_its_target_may_answer_in_turn(tmp_path):
    """The reply attacks the gun, which survives and "può immediatamente rispondere"
    with a prepared attack of its own; the tank, with nothing left, cannot answer that."""
    g = _duel(tmp_path, gun_status=("ready-1",))
    play(g, "@us at gun tank dice=6,6")  # 12: no effect
    play(g, "@german at tank gun ready dice=6,6")  # the reply: no effect
    facts = play(g, "@us at gun tank ready dice=6,5")  # the gun answers the reply
    assert outcome(facts).endswith("no effect") and not has(g, "gun", "ready-1")
    refused(g, "@german at tank gun ready dice=6,6", rule="LT-R052")


@pytest.mark.audits("LT-R052")
def test_only_the_target_just_attacked_may_reply(tmp_path):
    """ "Il bersaglio appena attaccato ... può immediatamente rispondere": the gun's second
    attack, at another tank, comes before the first tank answered; now only the second
    tank is the one just attacked."""
    g = _duel(tmp_path)
    add(g, "tank2", "german", "pz4", team="Y2", status=("ready-1",), stats={"front": 6, "side": 1, "at": 6})
    play(g, "@us at gun tank dice=6,6", "@us at gun tank2 dice=6,6")
    refused(g, "@german at tank gun ready dice=6,6", rule="LT-R052")
    play(g, "@german at tank2 gun ready dice=6,6")
    assert has(g, "tank", "ready-1") and not has(g, "tank2", "ready-1")


@pytest.mark.audits("LT-R052")
def test_no_reply_once_the_next_card_is_drawn(tmp_path):
    g = _duel(tmp_path)
    play(g, "@us at gun tank dice=6,6", "next")  # the German card: the moment is gone
    refused(g, "@german at tank gun ready dice=6,6", rule="LT-R052")
    assert has(g, "tank", "ready-1")


@pytest.mark.audits("LT-R052", "LT-R060", "LT-R060a")
@pytest.mark.parametrize(("die", "replies"), [(1, False), (4, True)])
def test_an_i_takes_the_prepared_attacks_so_the_infantry_cannot_answer(lt, die, replies):
    """C.7 legend: I = "immobilizzata, perde i colpi pronti"; MG 3 at infantry stationary
    in the open (3): column 0, 1 is I, 4 no effect; surviving with its attack, it answers."""
    add(lt, "mg", "us", "rifles", team="X", stats={"mg": 3})
    add(lt, "inf", "german", "rifles", team="Y", status=("ready-2",), stats={"mg": 3})
    play(lt, "next", "@us activate mg A4 prepare=0", f"@us mg mg inf defence=still-open dice={die}")
    assert has(lt, "inf", "immobilised") == (not replies)
    if replies:
        play(lt, "@german mg inf mg defence=still-open ready dice=6")
        assert has(lt, "inf", "ready-1")
    else:
        assert not has(lt, "inf", "ready-1") and not has(lt, "inf", "ready-2")
        refused(lt, "@german mg inf mg defence=still-open ready dice=6", rule="LT-R052")


@pytest.mark.audits("LT-R051", "LT-R052", "LT-R080")
def test_a_piece_that_only_falls_back_still_fires_its_activation(tmp_path):
    """Only a piece that flees does not fire (C.6): the gun, answered with a T, falls
    back 5 cm (morale 4: 5) and loses its prepared attack, yet still executes its
    second attack under its own card."""
    g = _duel(tmp_path, gun_status=("ready-1",))
    play(g, "@us at gun tank dice=6,6")
    assert outcome(play(g, "@german at tank gun ready dice=3,3")).endswith("T: morale test")
    assert moved(play(g, "@us morale gun dice=5")) == [5]
    assert not has(g, "gun", "ready-1")
    assert outcome(play(g, "@us at gun tank dice=6,6")).endswith("no effect")


# --------------------------------------------------------------------------- ambushes


def _hidden_hunter(tmp_path, status=("hidden", "ready-1"), spotter_status=(), name: str = "h.ft"):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "spotter", "us", "sherman", team="X", status=spotter_status, stats={"front": 6, "side": 6})
    add(g, "hunter", "german", "pz4", team="Y", status=status, stats={"at": 6, "front": 6})
    play(g, "next", "spot hunter by=spotter at=5 state=still-cover")
    return g


@pytest.mark.audits("LT-R053")
def test_the_ambush_is_immediate_not_a_card_later(tmp_path):
    """LT-R053: "ha la facoltà di eseguire immediatamente un attacco già pronto"; on the
    next card, even its own, the moment has passed (its ready attack stays)."""
    g = _hidden_hunter(tmp_path)
    play(g, "next")  # 3♣, the German card
    refused(g, "@german at hunter spotter ambush dice=3,3", rule="LT-R053")
    assert has(g, "hunter", "ready-1")


@pytest.mark.audits("LT-R053")
def test_no_ambush_without_an_attack_already_prepared(tmp_path):
    g = _hidden_hunter(tmp_path, status=("hidden",))
    assert "hunter" in g.view("us").units
    refused(g, "@german at hunter spotter ambush dice=3,3", rule="LT-R053")


@pytest.mark.audits("LT-R053", "LT-R050", "LT-R050b", "LT-AMB-15")
def test_an_ambush_at_a_hull_down_target_is_minus_one_and_plus_one(tmp_path):
    """The two AT die modifiers (LT-R050b) are different lines of the table: both apply,
    6 + 1 - 1."""
    g = _hidden_hunter(tmp_path)
    facts = play(g, "@german at hunter spotter ambush hulldown dice=3,3")
    assert sorted(m.value for m in rolled(facts)[0].mods) == [-1, 1]
    assert outcome(facts) == "modified total 6, column 0: T: morale test"


@pytest.mark.audits("LT-R053", "LT-R061", "LT-AMB-18", "LT-AMB-20")
def test_an_he_ambush_at_pinned_infantry_moves_the_column_and_the_die(lt):
    """HE (3) at immobilised infantry that took one HE attack in a row: +1 to the factor
    (4 - 3 = +1); the ambush: -1 to the die, 2 - 1 = 1: I."""
    add(lt, "spotter", "us", "rifles", team="X", status=("immobilised", "he-1"))
    add(lt, "hunter", "german", "rifles", team="Y", status=("hidden", "ready-1"), stats={"mg": 3})
    play(lt, "next", "spot hunter by=spotter at=5 state=ambush")
    facts = play(lt, "@german mg hunter spotter defence=still-open he ambush dice=2")
    assert [m.value for m in rolled(facts)[0].mods] == [-1]
    assert outcome(facts) == "modified total 1, column +1: I: immobilised, loses its ready attacks"


@pytest.mark.audits("LT-R053", "LT-R060", "LT-AMB-18")
def test_an_ambush_turns_the_mg_tables_6_into_a_5(lt):
    """Row 6 is "nessun effetto", but the die is modified: 6 - 1 = 5 at >+4 is I."""
    add(lt, "spotter", "us", "rifles", team="X")
    add(lt, "hunter", "german", "rifles", team="Y", status=("hidden", "ready-1"), stats={"mg": 6})
    play(lt, "next", "spot hunter by=spotter at=5 state=ambush")
    facts = play(lt, "@german mg hunter spotter defence=moving-open ambush dice=6")
    assert outcome(facts) == "modified total 5, column >+4: I: immobilised, loses its ready attacks"
    assert has(lt, "spotter", "immobilised")


# ------------------------------------------------------------------------- AT fire


@pytest.mark.audits("LT-R050", "LT-R050a", "LT-AMB-13", "LT-AMB-16")
@pytest.mark.parametrize(
    ("flags", "want"), [("long flank hulldown", "no effect"), ("flank hulldown", "T: morale test")]
)
def test_the_long_range_note_against_the_side_protection(lt, flags, want):
    """Long attack 6 at side protection 3: column +3,+4; 3 + 3 + 1 (hull down) = 7, a T in
    that column, but at long range "nessun effetto con un risultato >6"."""
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6, "at_long": 6})
    add(lt, "tank", "german", "pz4", team="Y", stats={"front": 8, "side": 3})
    play(lt, "next", "@us activate gun A4 prepare=0")
    facts = play(lt, f"@us at gun tank {flags} dice=3,3")
    assert outcome(facts) == f"modified total 7, column +3,+4: {want}"


@pytest.mark.audits("LT-R050", "LT-R050c", "LT-R042", "LT-R080", "LT-AMB-22")
def test_an_r_flees_the_full_move_of_a_piece_whose_data_give_only_its_bound(tmp_path):
    """R: flees "della sua massima capacità di movimento"; a 5 cm bound and no speed
    moves "normalmente il triplo" at speed: 15 cm, and its two ready attacks are lost."""
    profiles = (
        '[[profiles]]\nid = "slow"\nname = "Slow tank"\nvehicle = true\nmorale = 4\nfront = 6\nside = 3\nbound = 5\n'
        '[[profiles]]\nid = "gun"\nname = "Gun"\nvehicle = true\nmorale = 4\nat = 6\nfront = 6\nside = 6\n'
    )
    units = (
        '[[units]]\nid = "gun"\nname = "Gun"\nside = "us"\nteam = "A"\nkind = "vehicle"\ncls = "gun"\n'
        '[[units]]\nid = "tank"\nname = "Tank"\nside = "german"\nteam = "B"\nkind = "vehicle"\ncls = "slow"\n'
    )
    g = scenario_game(tmp_path, profiles, units)
    play(g, "next", "next", "@german activate tank A4")  # it prepares two attacks
    play(g, "next", "@us activate gun A4 prepare=0")
    facts = play(g, "@us at gun tank dice=2,2")  # 4 at 0: R
    assert outcome(facts).endswith("R: routs without a test")
    assert moved(facts) == [15] and has(g, "tank", "retreating") and not has(g, "tank", "ready-2")


@pytest.mark.audits("LT-R060")
def test_an_i_at_infantry_already_pinned_keeps_it_pinned_and_takes_its_new_ready_attack(lt):
    """An immobilised piece may still prepare attacks (LT-AMB-21); another I takes them."""
    add(lt, "mg", "us", "rifles", team="X", stats={"mg": 3})
    add(lt, "inf", "german", "rifles", team="Y", status=("immobilised",))
    play(lt, "next", "next", "@german activate inf A4 prepare=1")
    assert has(lt, "inf", "ready-1")
    play(lt, "next", "@us activate mg A4 prepare=0", "@us mg mg inf defence=still-open dice=2")  # 0: I
    assert has(lt, "inf", "immobilised") and not has(lt, "inf", "ready-1")


# ------------------------------------------- the tables' unnumbered notes (rows of their own)


@pytest.mark.audits("LT-R050a", "LT-R050b")
@pytest.mark.parametrize(("flags", "want"), [("long hulldown", "no effect"), ("hulldown", "D: destroyed")])
def test_at_long_range_a_7_has_no_effect_even_in_the_last_column(lt, flags, want):
    """LT-R050a, the AT table's note: "alla lunga distanza nessun effetto con un risultato
    >6"; LT-R050b, its die modifiers: hull down +1. Attack 11 at 6 (>= +5): 3 + 3 + 1 = 7,
    a D in that column, nothing at long range."""
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 11, "at_long": 11})
    add(lt, "tank", "german", "pz4", team="Y", stats={"front": 6, "side": 6})
    play(lt, "next", "@us activate gun A4 prepare=0")
    assert outcome(play(lt, f"@us at gun tank {flags} dice=3,3")) == f"modified total 7, column ≥+5: {want}"
    assert out(lt, "tank") == (want != "no effect")


@pytest.mark.audits("LT-R060a", "LT-R051")
def test_an_i_at_a_tank_is_a_morale_test_it_owes_before_it_fires(lt):
    """LT-R060a, the MG/HE legend: I is "fanteria: immobilizzata, perde i colpi pronti;
    carri: test di morale". MG 6 at a tank (+5): column +1, 1 is I: the tank is not
    immobilised and keeps its prepared attack, but owes its test before it answers."""
    add(lt, "mg", "us", "rifles", team="X", stats={"mg": 6})
    add(lt, "tank", "german", "pz4", team="Y", status=("ready-1",), stats={"front": 5, "side": 3, "mg": 3})
    play(lt, "next", "@us activate mg A4 prepare=0")
    assert (
        outcome(play(lt, "@us mg mg tank defence=tank dice=1")) == "modified total 1, column +1: I: a tank tests morale"
    )
    assert not has(lt, "tank", "immobilised") and has(lt, "tank", "ready-1")
    refused(lt, "@german mg tank mg defence=moving-open ready dice=6", rule="LT-R051")
    play(lt, "@german morale tank dice=2", "@german mg tank mg defence=moving-open ready dice=6")
    assert not has(lt, "tank", "ready-1")


@pytest.mark.audits("LT-R060b", "LT-R060a", "LT-AMB-31")
@pytest.mark.parametrize(
    ("mg", "die", "want"),
    [
        (8, 2, "D: destroyed"),
        (8, 3, "I: immobilised, loses its ready attacks"),
        (7, 2, "I: immobilised, loses its ready attacks"),
    ],
)
def test_a_gun_in_a_prepared_position_defends_at_4(lt, mg, die, want):
    """LT-R060b, the defence values: "fant. e art. in posizione preparata +4". The Pak 40,
    dug in, with no defence typed: MG 8 is column +4 (2: D, 3: I), MG 7 column +3 (2: I);
    an I immobilises a gun, which has no armour to test morale in (LT-R060a)."""
    add(lt, "mg", "us", "rifles", team="X", stats={"mg": mg})
    add(lt, "gun", "german", "pak40", team="Y")
    play(lt, "next", "@us activate mg A4 prepare=0")
    facts = play(lt, f"@us mg mg gun dice={die}")
    assert outcome(facts) == f"modified total {die}, column +{mg - 4}: {want}"
    assert out(lt, "gun") == want.startswith("D") and has(lt, "gun", "immobilised") == want.startswith("I")


@pytest.mark.audits("LT-R050c", "LT-R080")
def test_an_r_is_a_rout_with_no_test_and_a_t_rolls_only_when_taken(tmp_path):
    """LT-R050c, the AT legend: "R ritirata/rotta (senza test)", "T test di morale". The R
    rolls no die and the tank flees; a T rolls nothing until its test is taken."""
    g = _duel(tmp_path, tank_status=())
    add(g, "tank2", "german", "pz4", team="Y2", stats={"front": 6, "side": 1, "morale": 4})
    facts = play(g, "@us at gun tank dice=2,2")  # 4 at 0: R
    assert len(rolled(facts)) == 1 and has(g, "tank", "retreating")
    facts = play(g, "@us at gun tank2 dice=3,3")  # 6 at 0: T
    assert len(rolled(facts)) == 1 and not has(g, "tank2", "retreating")
