"""A third look at Linea di Tiro, its second held-out audit, from the Italian book and the
digest alone: spotting at every distance's edge and with the observer's kind (C.4), the AT
table's extreme columns and rows with the modifiers crossed and the long-range note at its
edge (C.6), the MG/HE table's every defence value and its legend on a vehicle, the HE streak
and what ends it (C.7), and what an R, a T, a D or an I does to the piece hit."""

from __future__ import annotations

import re

import pytest
from audit_lt_table import (
    add,
    at_book,
    game_with,
    has,
    mg_book,
    moved,
    out,
    outcome,
    play,
    refused,
    rolled,
    said,
    scenario_game,
    spotted,
    turned,
)


def letter(facts) -> str:
    """The table's letter the last roll read: D, R, T, I or - (no effect)."""
    m = re.search(r"column [^:]+: ([A-Z])\b", outcome(facts))
    return m.group(1) if m else "-"


# --- C.4: spotting -----------------------------------------------------------------------


def _spot_game(tmp_path, observer_cls: str = "rifles", roles: tuple[str, ...] = (), target_cls: str = "rifles"):
    g = game_with(tmp_path, ["7♥", "3♣"])
    add(g, "obs", "german", observer_cls, team="Zug 2", roles=roles)
    add(g, "hid", "us", target_cls, team="2nd Platoon", status=("hidden",))
    play(g, "next")
    return g


@pytest.mark.audits("LT-R030", "LT-R032")
@pytest.mark.parametrize(
    ("state", "target_cls", "edge"),
    [
        ("moving-open", "rifles", 50),
        ("bound", "rifles", 20),
        ("still-cover", "rifles", 10),
        ("ambush", "rifles", 5),
        ("still-open", "sherman", 50),
        ("still-cover", "sherman", 20),
    ],
)
def test_spotting_distance_on_both_sides_of_its_edge(tmp_path, state, target_cls, edge):
    """C.4's list, seen by infantry: spotted at the distance, not half a cm beyond."""
    g = _spot_game(tmp_path, target_cls=target_cls)
    assert not spotted(play(g, f"spot hid by=obs at={edge + 0.5} {state}"))
    assert spotted(play(g, f"spot hid by=obs at={edge} {state}"))


@pytest.mark.audits("LT-R032", "LT-R034")
def test_a_tank_observer_halves_infantry_moving_in_the_open(tmp_path):
    """ "dimezzata se chi osserva è un mezzo": 50 becomes 25 for a Panzer IV."""
    g = _spot_game(tmp_path, observer_cls="pz4")
    assert not spotted(play(g, "spot hid by=obs at=25.5 moving-open"))
    assert spotted(play(g, "spot hid by=obs at=25 moving-open"))


@pytest.mark.audits("LT-R034")
def test_a_recon_vehicle_is_not_halved(tmp_path):
    """ "tranne mezzi da ricognizione": an armoured car sees infantry in bound at 20 cm."""
    g = _spot_game(tmp_path, observer_cls="pz4", roles=("recon",))
    assert spotted(play(g, "spot hid by=obs at=20 bound"))


@pytest.mark.audits("LT-R032", "LT-R034")
def test_a_vehicle_moving_in_the_open_is_seen_at_any_distance_even_by_a_tank(tmp_path):
    """ "mezzi in movimento all'aperto ∞": halved, it stays infinite."""
    g = _spot_game(tmp_path, observer_cls="pz4", target_cls="sherman")
    assert spotted(play(g, "spot hid by=obs at=900 moving-open"))


@pytest.mark.audits("LT-R033", "LT-AMB-12")
def test_an_unseen_piece_that_fired_twice_in_ambush_is_seen_at_twenty(tmp_path):
    """The visibility of a piece that fires doubles each time, spotted or not (LT-AMB-12):
    in ambush, 5 x 2 x 2 = 20 cm after two shots."""
    g = _spot_game(tmp_path)
    play(g, "@us activate hid A4 prepare=0")
    play(g, "@us mg hid grenadiers still-open dice=6", "@us mg hid grenadiers still-open dice=6")
    assert not spotted(play(g, "spot hid by=obs at=20.5 ambush"))
    assert spotted(play(g, "spot hid by=obs at=20 ambush"))


@pytest.mark.audits("LT-R033", "LT-R034")
def test_fired_once_and_seen_by_a_tank_cancel_out(tmp_path):
    """Doubled once and halved for a tank observer: infantry still in cover is 10 cm again."""
    g = _spot_game(tmp_path, observer_cls="pz4")
    play(g, "@us activate hid A2", "@us mg hid grenadiers still-open dice=6")
    assert not spotted(play(g, "spot hid by=obs at=10.5 still-cover"))
    assert spotted(play(g, "spot hid by=obs at=10 still-cover"))


@pytest.mark.audits("LT-R033")
def test_a_bound_on_a_later_card_ends_the_doubling(tmp_path):
    """ "per interrompere questa progressione è necessario riposizionare il pezzo attivandolo
    per un balzo": fired once (20 cm in cover), then a bound: 10 cm again."""
    g = game_with(tmp_path, ["7♥", "8♥"])
    add(g, "obs", "german", "rifles", team="Zug 2")
    add(g, "hid", "us", "rifles", team="2nd Platoon", status=("hidden",))
    play(g, "next", "@us activate hid A2", "@us mg hid grenadiers still-open dice=6")
    play(g, "next", "@us activate hid A1", "@us move hid 10")
    assert not spotted(play(g, "spot hid by=obs at=15 still-cover"))


@pytest.mark.audits("LT-R033")
def test_an_a3_without_a_bound_keeps_the_doubling(tmp_path):
    """A3 executes and prepares, with no bound: the piece that fired once stays at 20 cm."""
    g = game_with(tmp_path, ["7♥", "8♥"])
    add(g, "obs", "german", "rifles", team="Zug 2")
    add(g, "hid", "us", "rifles", team="2nd Platoon", status=("hidden",))
    play(g, "next", "@us activate hid A2", "@us mg hid grenadiers still-open dice=6", "next", "@us activate hid A3")
    assert spotted(play(g, "spot hid by=obs at=15 still-cover"))


@pytest.mark.audits("LT-R030")
def test_an_unseen_piece_cannot_be_shot_at(tmp_path):
    """ "Si può attaccare solo un pezzo visibile": neither AT nor MG fire at the hidden Pak."""
    g = turned(tmp_path, ["7♥"], "@us activate sherman1 A4 prepare=0")
    refused(g, "at sherman1 pak dice=3,3", rule="LT-R030")
    refused(g, "mg sherman1 pak dice=3", rule="LT-R030")


@pytest.mark.audits("LT-R052", "LT-AMB-10")
def test_no_reply_at_a_shooter_the_target_cannot_see(tmp_path):
    """LT-AMB-10: the reply is an attack, and only a visible piece may be attacked: the hidden
    Pak's shot misses the Sherman, whose ready attack has nothing to answer."""
    g = turned(tmp_path, ["7♥", "3♣"], "@us activate sherman1 A1", "next", "@german activate pak A2")
    play(g, "@german at pak sherman1 dice=6,6")
    assert has(g, "pak", "hidden")
    refused(g, "at sherman1 pak ready dice=3,3", rule="LT-R030")
    assert has(g, "sherman1", "ready-1")


# --- C.6: anti-tank fire -----------------------------------------------------------------


def _at_game(tmp_path, at: int, front: int, side: int = 3, at_long: int = 0):
    g = game_with(tmp_path, ["7♥"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats={"at": at, "at_long": at_long or at})
    add(g, "t", "german", "pz4", team="Zug 1", stats={"front": front, "side": side, "morale": 4})
    play(g, "next", "@us activate s A4 prepare=0")
    return g


@pytest.mark.audits("LT-R050", "LT-R050c")
@pytest.mark.parametrize(
    ("at", "front", "faces", "flags"),
    [
        (2, 6, (1, 1), ""),  # -4, 2: T
        (2, 6, (1, 1), "close"),  # -4, 1: R, the column's only row that moves it
        (3, 6, (1, 2), ""),  # -3, 3: no effect
        (4, 6, (1, 2), ""),  # -2, 3: T
        (4, 6, (2, 2), ""),  # -2, 4: no effect
        (5, 6, (1, 2), ""),  # -1, 3: R
        (5, 6, (2, 2), ""),  # -1, 4: T
        (5, 5, (2, 2), ""),  # 0, 4: R
        (5, 5, (3, 3), "hulldown close"),  # 0, 6 +1 -1: T
        (5, 5, (3, 4), ""),  # 0, 7: no effect
        (6, 5, (2, 3), ""),  # +1, 5: R
        (7, 5, (3, 3), ""),  # +2, 6: T
        (9, 5, (3, 4), ""),  # +4, 7: T
        (10, 5, (3, 4), ""),  # +5, 7: D
        (12, 5, (6, 6), ""),  # +7, 12: no effect
        (12, 5, (3, 4), "hulldown"),  # +7, 8: no effect
    ],
)
def test_the_at_table_cell_by_cell(tmp_path, at, front, faces, flags):
    """C.6: the letter in the column attack - protection and the row 2d6 + modifiers."""
    g = _at_game(tmp_path, at, front)
    facts = play(g, f"at s t {flags} dice={faces[0]},{faces[1]}")
    total = sum(faces) + ("hulldown" in flags) - ("close" in flags)
    assert letter(facts) == at_book(at - front, total)


@pytest.mark.audits("LT-R050c", "LT-AMB-22", "LT-R051")
def test_an_r_routs_the_tank_without_a_test(tmp_path):
    """R, "ritirata/rotta (senza test)": the Panzer flees its full move, rolls nothing more."""
    g = _at_game(tmp_path, 5, 6)
    facts = play(g, "at s t dice=1,2")
    assert len(rolled(facts)) == 1
    assert moved(facts) == [30]
    assert not out(g, "t")


@pytest.mark.audits("LT-R050c")
def test_a_d_destroys_the_tank(tmp_path):
    g = _at_game(tmp_path, 5, 5)
    play(g, "at s t dice=1,2")
    assert out(g, "t")


@pytest.mark.audits("LT-R050")
def test_a_shot_from_the_flank_uses_the_side_protection(tmp_path):
    """Protection "dipende dalla direzione di provenienza del tiro fronte/lato": 5 - 3 = +2,
    a 6 is T (against the front, 0, it would be T too; a 5 tells them apart: D against R)."""
    g = _at_game(tmp_path, 5, 5, side=3)
    play(g, "at s t flank dice=2,3")
    assert out(g, "t")


@pytest.mark.audits("LT-R050a", "LT-AMB-16", "LT-AMB-13")
@pytest.mark.parametrize(
    ("faces", "flags", "hit"), [((3, 3), "", True), ((3, 4), "", False), ((3, 3), "hulldown", False)]
)
def test_the_long_range_note_at_its_edge(tmp_path, faces, flags, hit):
    """ "alla lunga distanza nessun effetto con un risultato >6": long attack 7 at front 5
    (+2), a 6 is a T; a 7 (T at normal range) or 6 + 1 hull down is nothing."""
    g = _at_game(tmp_path, 9, 5, at_long=7)
    facts = play(g, f"at s t long {flags} dice={faces[0]},{faces[1]}")
    assert (letter(facts) == "T") is hit


@pytest.mark.audits("LT-R050", "LT-AMB-13")
def test_long_range_uses_the_long_attack_value(tmp_path):
    """The attack "dipende dalla distanza": long 4 at front 5 is -1, where 7 would be +2; a 3
    is R at -1 (at +2 it would be D)."""
    g = _at_game(tmp_path, 7, 5, at_long=4)
    facts = play(g, "at s t long dice=1,2")
    assert letter(facts) == "R"


@pytest.mark.audits("LT-R050")
def test_a_piece_with_no_at_weapon_fires_no_at_shot(tmp_path):
    """The rifle half-squad has no AT attack value: it has no AT fire at the Panzer."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2")
    refused(g, "@us at gis panzer close dice=1,1", rule="LT-R050")


@pytest.mark.audits("LT-R050c", "LT-AMB-17", "LT-R080")
def test_a_t_on_a_tank_then_its_test_falls_back_five(tmp_path):
    """T, then the tank's morale test (LT-AMB-17): morale 4, a 5 falls back 5 cm."""
    g = _at_game(tmp_path, 5, 5)
    play(g, "at s t dice=3,3")
    facts = play(g, "morale t dice=5")
    assert moved(facts) == [5]


@pytest.mark.audits("LT-R051", "LT-R050c")
def test_a_tank_that_owes_a_test_fires_nothing_until_it_takes_it(tmp_path):
    """Results apply "immediatamente": the Panzer owes its test; its ready reply waits."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate panzer A1", "next", "@us activate sherman1 A2")
    play(g, "@us at sherman1 panzer dice=3,3")
    refused(g, "@german at panzer sherman1 ready dice=6,6", rule="LT-R051")


# --- C.7: MG and HE ----------------------------------------------------------------------


def _mg_game(tmp_path, mg: int, target_cls: str = "rifles", roles: tuple[str, ...] = (), status: tuple[str, ...] = ()):
    g = game_with(tmp_path, ["7♥", "8♥", "9♥", "10♥"])
    add(g, "s", "us", "rifles", team="2nd Platoon", stats={"mg": mg})
    add(g, "t", "german", target_cls, team="Zug 2", roles=roles, status=status)
    play(g, "next", "@us activate s A4 prepare=0")
    return g


@pytest.mark.audits("LT-R060", "LT-R060b", "LT-R060a")
@pytest.mark.parametrize(
    ("defence", "value"),
    [
        ("moving-open", 0),
        ("bound-open", 2),
        ("bound-protected", 3),
        ("still-open", 3),
        ("prepared", 4),
        ("entrenched", 5),
    ],
)
@pytest.mark.parametrize("die", [1, 2, 3])
def test_each_infantry_defence_value_on_the_mg_table(tmp_path, defence, value, die):
    """C.7.1: the defence values; MG 4 against each, read on the MG/HE table's row."""
    g = _mg_game(tmp_path, 4)
    facts = play(g, f"mg s t {defence} dice={die}")
    expect = mg_book(4 - value, die)
    assert letter(facts) == expect
    assert out(g, "t") is (expect == "D")
    assert has(g, "t", "immobilised") is (expect == "I")


PROFILES = """
[[profiles]]
id = "mg"
name = "MG half-squad"
vehicle = false
morale = 3
mg = 5
[[profiles]]
id = "ac"
name = "Armoured car"
vehicle = true
morale = 3
front = 2
side = 1
mg = 2
defence = "light-tank"
[[profiles]]
id = "ht"
name = "Half-track"
vehicle = true
morale = 3
front = 1
side = 1
mg = 2
defence = "open-vehicle"
[[profiles]]
id = "bare"
name = "A vehicle whose profile names no defence"
vehicle = true
morale = 3
front = 1
side = 1
"""


def _vehicle_game(tmp_path, cls: str, roles: str = "[]"):
    units = (
        '[[units]]\nid = "s"\nname = "S"\nside = "us"\nteam = "A"\ncls = "mg"\n'
        f'[[units]]\nid = "t"\nname = "T"\nside = "german"\nteam = "B"\nkind = "vehicle"\ncls = "{cls}"\n'
        f"roles = {roles}\n"
    )
    g = scenario_game(tmp_path, PROFILES, units)
    play(g, "next", "@us activate s A4 prepare=0")
    return g


@pytest.mark.audits("LT-R060", "LT-R060a", "LT-R060b", "LT-AMB-31")
def test_an_i_on_an_armoured_car_is_a_morale_test_not_an_immobilisation(tmp_path):
    """ "carri leggeri, autoblindo +4"; the legend: "carri: test di morale". MG 5 against +4
    is +1: a 3 is I (at a tank's +5 it would be nothing)."""
    g = _vehicle_game(tmp_path, "ac")
    facts = play(g, "mg s t dice=3")
    assert letter(facts) == "I"
    assert not has(g, "t", "immobilised")
    assert "morale" in said(facts).lower()


@pytest.mark.audits("LT-R060", "LT-R060b")
def test_an_open_vehicle_defends_at_three(tmp_path):
    """ "mezzi aperti +3": MG 5 against a half-track is +2: a 1 destroys it (at +1, I)."""
    g = _vehicle_game(tmp_path, "ht")
    play(g, "mg s t dice=1")
    assert out(g, "t")


@pytest.mark.audits("LT-R060b")
@pytest.mark.parametrize(
    ("cls", "role", "die", "expect"), [("bare", "open", 1, "D"), ("bare", "light", 3, "I"), ("ac", "open", 1, "D")]
)
def test_a_vehicles_role_open_or_light_is_its_defence(tmp_path, cls, role, die, expect):
    """A scenario says a vehicle is open or a light tank with its role (docs/scenarios.md:
    ``open`` "open vehicle (C.7.1)", ``light`` "light tank or armoured car (C.7.1)"): it
    defends at +3 ("mezzi aperti") or +4 ("carri leggeri, autoblindo"). MG 5: at +3 a 1 is D,
    at +4 a 3 is I; the unit's role is its own data, over its profile's (as its stats are)."""
    g = _vehicle_game(tmp_path, cls, f'["{role}"]')
    facts = play(g, f"mg s t dice={die}")
    assert letter(facts) == expect


@pytest.mark.audits("LT-R060", "LT-R060b", "LT-AMB-31")
def test_another_tank_defends_at_five(tmp_path):
    """ "altri carri +5": MG 5 at a Panzer is 0: a 1 is I (a morale test), never D."""
    g = _mg_game(tmp_path, 5, target_cls="pz4")
    facts = play(g, "mg s t dice=1")
    assert letter(facts) == "I"
    assert not out(g, "t")


@pytest.mark.audits("LT-R060")
def test_a_six_is_no_effect_however_strong_the_attack(tmp_path):
    g = _mg_game(tmp_path, 9)
    facts = play(g, "mg s t moving-open dice=6")
    assert letter(facts) == "-"
    assert not out(g, "t") and not has(g, "t", "immobilised")


@pytest.mark.audits("LT-R060a", "LT-AMB-21")
def test_an_i_takes_both_ready_attacks(tmp_path):
    """I: "fanteria: immobilizzata, perde i colpi pronti": both of them."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate grenadiers A4 prepare=2", "next", "@us activate gis A2")
    play(g, "@us mg gis grenadiers moving-open dice=2")
    assert has(g, "grenadiers", "immobilised")
    assert not has(g, "grenadiers", "ready-2") and not has(g, "grenadiers", "ready-1")


@pytest.mark.audits("LT-R061", "LT-AMB-20")
def test_the_third_he_shot_in_a_row_at_immobilised_infantry_is_plus_two(tmp_path):
    """ "+1 al fattore d'attacco per ogni tiro consecutivo con proiettili HE contro fanteria
    immobilizzata" (cumulative, LT-AMB-20): HE 1 at entrenched (+5) immobilised infantry;
    the third shot's column is -4 + 2 = -2, still <0; the fifth's is 0, where a 2 is I."""
    g = _mg_game(tmp_path, 1, status=("immobilised",))
    play(g, "mg s t entrenched he dice=6", "mg s t entrenched he dice=6")
    play(g, "next", "@us activate s A4 prepare=0")
    play(g, "mg s t entrenched he dice=6", "mg s t entrenched he dice=6")
    play(g, "next", "@us activate s A4 prepare=0")
    facts = play(g, "mg s t entrenched he dice=2")
    assert letter(facts) == "I"  # column 0; at <0 a 2 is nothing


@pytest.mark.audits("LT-R061")
def test_machine_gun_fire_gets_no_he_bonus(tmp_path):
    """The +1 is for HE rounds only: MG 3 at immobilised infantry still in the open (+3), shot
    twice, stays at column 0, where a 3 is nothing."""
    g = _mg_game(tmp_path, 3, status=("immobilised",))
    play(g, "mg s t still-open dice=6")
    facts = play(g, "mg s t still-open dice=3")
    assert letter(facts) == "-"  # column 0; at +1 a 3 would be I


@pytest.mark.audits("LT-R061", "LT-AMB-20")
def test_the_he_streak_ends_when_the_infantry_recovers(tmp_path):
    """The streak resets when the target is no longer immobilised (LT-AMB-20): two HE shots,
    then the grenadiers remove their immobilisation (A7) and are immobilised again; the next
    HE shot starts over at +0."""
    g = game_with(tmp_path, ["7♥", "3♣", "8♥"])
    add(g, "s", "us", "rifles", team="2nd Platoon", stats={"mg": 2})
    add(g, "t", "german", "rifles", team="Zug 2", status=("immobilised",))
    play(g, "next", "@us activate s A4 prepare=0", "mg s t still-open he dice=6", "mg s t still-open he dice=6")
    play(g, "next", "@german activate t A7")
    assert not has(g, "t", "immobilised")
    play(g, "next", "@us activate s A4 prepare=0", "mg s t moving-open dice=2")
    assert has(g, "t", "immobilised")
    facts = play(g, "mg s t still-open he dice=2")
    assert letter(facts) == "-"  # 2 - 3 = -1, where a 2 is nothing; with a +1 it would be I


@pytest.mark.audits("LT-R053", "LT-AMB-18")
def test_an_mg_ambush_makes_a_one_a_zero_read_on_row_one(tmp_path):
    """The ambush's -1 on the MG table (LT-AMB-18): a 1 becomes 0, read as row 1: MG 4 at
    infantry moving in the open (+4) is D."""
    g = game_with(tmp_path, ["7♥", "3♣"])
    add(g, "amb", "german", "grenadiers", team="Zug 2", status=("hidden",))
    play(g, "next", "next", "@german activate amb A4 prepare=2")
    play(g, "spot amb by=gis at=4 ambush")
    play(g, "@german mg amb gis moving-open ready ambush dice=1")
    assert out(g, "gis")
