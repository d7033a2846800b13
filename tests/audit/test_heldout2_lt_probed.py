"""A third look at Linea di Tiro, its second held-out audit: cases written from the book and
the digest after trying the engine by hand where the blind cases pointed (the scenario's
own data): a scenario's visibility, which the book lets vary ("La visibilità può variare da
scenario a scenario", C.4), a scenario whose jokers call no guns (C.2, LT-AMB-05), the HE
streak across the guns and the machine guns (C.7, C.10), and the ambush's one target and
its -1 met by the 5 cm -1 (C.6); and a status met in the middle of an activation or carried
into the next (immobilised, owing a test, fled, aboard a vehicle) against what it must refuse
and what it must leave (C.3, C.6, C.8), a close assault answered (C.9) and a second joker (C.10)."""

from __future__ import annotations

from pathlib import Path

import audit_common
import pytest
from audit_lt_table import (
    RIFLES,
    add,
    game_with,
    has,
    immobilised,
    moved,
    out,
    outcome,
    play,
    refused,
    rolled,
    spotted,
    turned,
)
from linea_di_tiro_support import artillery, faces_for, inject, stacked
from playing import names

from core.game import Game
from core.log.views import REFEREE
from core.ruleset import Refused

PIECES = (
    """
[[sides]]
id = "us"
name = "US"
army = "allied"
[[sides]]
id = "german"
name = "German"
army = "axis"
"""
    + RIFLES
    + """[[profiles]]
id = "tank"
name = "Tank"
vehicle = true
morale = 4
at = 5
front = 5
side = 3
mg = 3
defence = "tank"
[[units]]
id = "obs"
name = "Obs"
side = "german"
team = "B"
cls = "rifles"
[[units]]
id = "tk"
name = "Tk"
side = "us"
team = "A"
kind = "vehicle"
cls = "tank"
status = ["hidden"]
[[units]]
id = "inf"
name = "Inf"
side = "us"
team = "A"
cls = "rifles"
status = ["hidden"]
"""
)


def scenario_with(tmp_path: Path, top: str, more: str = "", first: tuple[str, ...] = ("7♥",)) -> Game:
    """A game on a scenario of the test's own, with top-level lines ``top`` (visibility, ...)."""
    text = f'ruleset = "linea-di-tiro"\nid = "probe"\ntitle = "Probe"\n{top}\n{PIECES}{more}'
    path = tmp_path / "probe.toml"
    path.write_text(text, encoding="utf-8")
    g = Game.new(tmp_path / "probe.ft", "linea-di-tiro", seed=5)
    audit_common.OPEN.append(g)
    g.execute(f"scenario {path} dice=" + ",".join(map(str, faces_for(stacked(list(first))))), role=REFEREE)
    play(g, "next")
    return g


# --- C.4: the scenario's visibility ------------------------------------------------------


@pytest.mark.audits("LT-R032")
def test_a_scenario_visibility_of_30_hides_infantry_moving_at_40(tmp_path):
    """ "La visibilità può variare da scenario a scenario, ma in generale ... 50 cm": a night
    scenario that sees 30 cm spots infantry moving in the open at 30, not at 30.5 (LT-R032)."""
    g = scenario_with(tmp_path, "night = true\nvisibility = 30")
    assert not spotted(play(g, "spot inf by=obs at=30.5 moving-open"))
    assert spotted(play(g, "spot inf by=obs at=30 moving-open"))


@pytest.mark.audits("LT-R032")
def test_a_scenario_visibility_bounds_even_a_vehicle_moving_in_the_open(tmp_path):
    """The table's ∞ is the general value; a scenario that sees 30 cm sees no further."""
    g = scenario_with(tmp_path, "visibility = 30")
    assert not spotted(play(g, "spot tk by=obs at=31 moving-open"))


@pytest.mark.audits("LT-R032")
def test_a_scenario_visibility_leaves_the_shorter_distances_alone(tmp_path):
    """Visibility 30 caps the table, it does not stretch it: infantry still in cover is
    seen at 10 cm, not 10.5."""
    g = scenario_with(tmp_path, "visibility = 30")
    assert not spotted(play(g, "spot inf by=obs at=10.5 still-cover"))
    assert spotted(play(g, "spot inf by=obs at=10 still-cover"))


@pytest.mark.audits("LT-R032")
def test_no_visibility_given_is_the_general_table(tmp_path):
    """Without a visibility, the general values: a vehicle moving in the open at 500 cm."""
    g = scenario_with(tmp_path, "")
    assert spotted(play(g, "spot tk by=obs at=500 moving-open"))


# --- C.2: jokers -------------------------------------------------------------------------


@pytest.mark.audits("LT-R010", "LT-R090", "LT-AMB-05")
def test_a_scenario_whose_jokers_start_no_guns(tmp_path):
    """ "i jolly sono carte speciali, il cui effetto dipende dallo scenario": a scenario whose
    joker is a flare (``artillery = false``) starts no guns: none fire on it."""
    more = '[jokers]\neffect = "a flare"\nartillery = false\n'
    g = scenario_with(tmp_path, "", more, first=("K♥", "Joker"))
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 5))
    refused(g, "@us unitmove call-artillery by=cmd", rule="LT-R090")  # nothing would ever start it
    play(g, "next")
    refused(g, "barrage us obs still-open dice=6", rule="LT-R090")


# --- C.7 with C.10: the HE streak --------------------------------------------------------


def _streak_game(tmp_path, first: list[str]):
    g = game_with(tmp_path, first)
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 2))
    add(g, "t", "german", "rifles", team="Zug 2", status=("immobilised",))
    return g


@pytest.mark.audits("LT-R061", "LT-R090")
def test_the_guns_shells_are_he_and_count_in_the_streak(tmp_path):
    """ "tiro consecutivo con proiettili HE": the guns fire HE ("consultare la tabella altri
    tiri"); their second attack on the same immobilised piece has the +1: HE 2 at +3 is 0,
    where a 2 is I (at -1, nothing)."""
    g = _streak_game(tmp_path, ["K♥", "Joker", "K♦"])
    play(g, "next", "@us unitmove call-artillery by=cmd", "next", "barrage us t still-open dice=6")
    play(g, "next", "@us unitmove continue-artillery")
    facts = play(g, "barrage us t still-open dice=2")
    assert "I" in outcome(facts).split("column", 1)[1][:8]


@pytest.mark.audits("LT-R061", "LT-AMB-20")
def test_a_machine_gun_shot_between_breaks_the_streak(tmp_path):
    """The shots must be consecutive HE shots: HE, then MG, then HE: the last has no +1."""
    g = game_with(tmp_path, ["7♥", "8♥"])
    add(g, "s", "us", "rifles", team="2nd Platoon", stats={"mg": 2})
    add(g, "t", "german", "rifles", team="Zug 2", status=("immobilised",))
    play(g, "next", "@us activate s A4 prepare=0", "mg s t still-open he dice=6", "mg s t still-open dice=6")
    play(g, "next", "@us activate s A4 prepare=0")
    facts = play(g, "mg s t still-open he dice=2")
    assert "no effect" in outcome(facts)  # 2 - 3 = -1: a 2 is nothing; with +1 it would be I


@pytest.mark.audits("LT-R061")
def test_two_shooters_make_one_streak(tmp_path):
    """The streak is the target's ("contro fanteria immobilizzata"): HE from the GIs, then
    HE from another squad: the second has the +1 (HE 2 at +3: a 2 is I at column 0)."""
    g = game_with(tmp_path, ["A♥", "2♦"])
    add(g, "s1", "us", "rifles", team="2nd Platoon", stats={"mg": 2})
    add(g, "s2", "us", "rifles", team="2nd Platoon", stats={"mg": 2})
    add(g, "t", "german", "rifles", team="Zug 2", status=("immobilised",))
    play(g, "next", "@us activate s1 A2", "mg s1 t still-open he dice=6", "next", "@us activate s2 A2")
    facts = play(g, "mg s2 t still-open he dice=2")
    assert "column 0" in outcome(facts)


# --- C.6: the ambush ---------------------------------------------------------------------


def _ambush(tmp_path):
    g = game_with(tmp_path, ["3♣", "7♥"])
    add(g, "amb", "german", "grenadiers", team="Zug 2", status=("hidden",))
    play(g, "next", "@german activate amb A4 prepare=2", "next", "spot amb by=gis at=4 ambush")
    return g


@pytest.mark.audits("LT-R053")
def test_the_ambush_is_at_the_first_enemy_that_spots_it_only(tmp_path):
    """ "contro il primo nemico che lo avvista": spotted by the GIs, the grenadiers' ambush
    may not go to the bazooka half-squad."""
    g = _ambush(tmp_path)
    refused(g, "@german mg amb bazooka moving-open ready ambush dice=6", rule="LT-R053")
    assert len(rolled(play(g, "@german mg amb gis moving-open ready ambush dice=6"))) == 1


@pytest.mark.audits("LT-R053", "LT-R050b", "LT-AMB-15")
def test_an_ambush_at_five_cm_is_minus_one_not_two(tmp_path):
    """ "distanza ≤5 cm o imboscata -1" is one line (LT-AMB-15): the grenadiers' Panzerfaust
    (AT 5) at the Sherman spotting it from 2 cm (a tank halves 5), front 5: 3 + 3 - 1 = 5 is T; at -2 a 4
    would be R."""
    g = game_with(tmp_path, ["3♣", "7♥"])
    add(g, "amb", "german", "grenadiers", team="Zug 2", status=("hidden",))
    play(g, "next", "@german activate amb A4 prepare=2", "next", "spot amb by=sherman1 at=2 ambush")
    facts = play(g, "@german at amb sherman1 ready ambush close dice=3,3")
    assert "T" in outcome(facts).split("column", 1)[1][:8]


# --- C.3 with C.7: an immobilised piece's options, carried out in part -------------------


@pytest.mark.audits("LT-R020", "LT-AMB-09", "LT-AMB-21")
def test_an_immobilised_piece_takes_a2_without_its_bound(tmp_path):
    """C.3: an activated piece carries out its option "anche parzialmente" (LT-AMB-09); an
    immobilised piece cannot move but "may still execute attacks" (LT-AMB-21): A2 with its
    bound left out is an attack, and the bound alone is refused."""
    g = immobilised(tmp_path, "p")
    play(g, "next", "@us activate p A2")
    refused(g, "@us move p 10", rule="LT-AMB-21")
    assert len(rolled(play(g, "@us mg p grenadiers still-open dice=6"))) == 1


@pytest.mark.audits("LT-R020", "LT-AMB-09", "LT-AMB-21")
def test_an_immobilised_piece_takes_a1_to_prepare_only(tmp_path):
    """A1 in part: the attack prepared, the bound not made (it cannot move)."""
    g = immobilised(tmp_path, "p")
    play(g, "next", "@us activate p A1")
    assert has(g, "p", "ready-1")
    refused(g, "@us move p 0", rule="LT-AMB-21")


@pytest.mark.audits("LT-R020", "LT-AMB-21")
def test_an_immobilised_piece_still_may_not_take_a5(tmp_path):
    """A5 is nothing but a move: an immobilised piece has nothing of it to carry out."""
    g = immobilised(tmp_path, "p")
    play(g, "next")
    refused(g, "@us activate p A5", rule="LT-AMB-21")


@pytest.mark.audits("LT-R020", "LT-R052", "LT-AMB-21")
def test_a_piece_immobilised_by_a_reply_makes_no_bound_after_it(tmp_path):
    """A2 "o v.v.": the GIs fire first; the grenadiers' ready reply immobilises them (MG 4 at
    +3 still in the open, a 3 is I); the bound they meant to make after is refused."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate grenadiers A1", "next", "@us activate gis A2")
    play(g, "@us mg gis grenadiers still-open dice=6", "@german mg grenadiers gis still-open ready dice=3")
    assert has(g, "gis", "immobilised")
    refused(g, "@us move gis 10", rule="LT-AMB-21")


@pytest.mark.audits("LT-R051", "LT-R050c", "LT-AMB-17")
def test_a_tank_that_owes_a_test_bounds_only_after_it(tmp_path):
    """ "I risultati di combattimento sono applicati immediatamente": the Sherman (A2) fires
    first; the Panzer's ready reply is a T; the Sherman's test comes before its bound, which
    waits for it: steady (a 4 at morale 4), it then bounds."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate panzer A1", "next", "@us activate sherman1 A2")
    play(g, "@us at sherman1 panzer dice=6,6", "@german at panzer sherman1 ready dice=3,3")
    refused(g, "@us move sherman1 10", rule="LT-R051")
    play(g, "morale sherman1 dice=4")
    assert moved(play(g, "@us move sherman1 10")) == [10]


@pytest.mark.audits("LT-R080", "LT-R051", "LT-AMB-33")
def test_a_piece_that_fled_makes_no_bound_after_its_flight(tmp_path):
    """C.8: a flight is "immediatamente" the piece's whole move, "spalle al nemico": the
    Sherman, activated with A2, routs before its bound, and its bound is not made after."""
    g = turned(tmp_path, ["7♥"], "@us activate sherman1 A2", "@us rout sherman1")
    refused(g, "@us move sherman1 10", rule="LT-R080")


@pytest.mark.audits("LT-R051", "LT-R060a", "LT-R100")
def test_a_tank_that_owes_a_test_overruns_nobody_before_it(tmp_path):
    """The GIs' MG gives the Panzer an I ("carri: test di morale"); the result applies at
    once, so on the next card its overrun waits for the test: steady (a 2), it overruns."""
    g = turned(
        tmp_path, ["7♥", "3♣"], "@us activate gis A2", "@us mg gis panzer dice=1", "next", "@german activate panzer A5"
    )
    refused(g, "@german overrun panzer gis open", rule="LT-R051")
    assert not out(g, "gis")
    play(g, "morale panzer dice=2", "@german overrun panzer gis open")
    assert out(g, "gis")


@pytest.mark.audits("LT-R052", "LT-R101", "LT-AMB-24")
def test_a_tank_that_survives_a_close_assault_answers_with_its_ready_attack(tmp_path):
    """C.6: "Il bersaglio appena attaccato, se sopravvive, può immediatamente rispondere, se
    ha un attacco preparato" (the digest's R1: the target of an attack); the close assault
    is an attack of the bazooka team's A2, and its failure has no effect (LT-AMB-24): the
    Panzer, holding a ready attack, answers with its MG (3 at +3 is 0: a 2 is I)."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate panzer A1", "next", "@us activate bazooka A2")
    play(g, "@us closeassault bazooka panzer rear dice=6", "@german mg panzer bazooka still-open ready dice=2")
    assert has(g, "bazooka", "immobilised")
    assert not has(g, "panzer", "ready-1")


@pytest.mark.audits("LT-R090", "LT-AMB-27", "LT-AMB-05")
def test_every_joker_fires_the_guns_called(tmp_path):
    """C.10: the attack "inizia quando esce una carta speciale (jolly)"; the digest reads
    each joker or face card spent on it as one attack (LT-AMB-27), and a joker as starting
    every side's called artillery (LT-AMB-05): the guns fire on the first joker, not on the
    7♥, and again on the second joker."""
    g = _streak_game(tmp_path, ["K♥", "Joker", "7♥", "Joker"])
    play(g, "next", "@us unitmove call-artillery by=cmd", "next", "barrage us grenadiers still-open dice=6", "next")
    refused(g, "barrage us grenadiers still-open dice=6", rule="LT-R090")
    play(g, "next")
    assert len(rolled(play(g, "barrage us grenadiers still-open dice=6"))) == 1


@pytest.mark.audits("LT-R020", "LT-AMB-30")
@pytest.mark.parametrize(("option", "cm"), [("A1", 10), ("A5", 30)])
def test_a_piece_aboard_moves_on_foot_only_after_it_dismounts(tmp_path, option, cm):
    """A6 "montare o smontare sui/dai mezzi" is an activation of its own: the bazooka team
    aboard the Sherman makes no bound or move at speed of its own until it has dismounted."""
    g = turned(tmp_path, ["7♥", "8♥", "9♥"], "@us activate bazooka A6 into=sherman1", "next")
    with pytest.raises(Refused) as no:
        play(g, f"@us activate bazooka {option}")  # A1 in part (its attack prepared), A5 not at all
        play(g, f"@us move bazooka {cm}")
    names(no.value, "LT-R020")
    play(g, "next", "@us activate bazooka A6")
    assert not has(g, "bazooka", "in-vehicle")
