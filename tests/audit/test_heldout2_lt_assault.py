"""A third look at Linea di Tiro, its second held-out audit, from the Italian book and the
digest alone: the overrun's every branch (no AT weapons, immobilised, test failed, first
strike), the close assault's adjacency edge and its rating with both modifiers at their
edges, the melee's modifiers at a tie, the artillery's call, start and continuation and its
reach to an unseen piece (C.9, C.10), the guns of C.1 as observers and as targets, and a
piece that flees under a reply firing no more (C.6)."""

from __future__ import annotations

import pytest
from audit_lt_table import (
    RIFLES,
    add,
    game_with,
    has,
    moved,
    out,
    play,
    refused,
    rolled,
    scenario_game,
    spotted,
    turned,
)
from linea_di_tiro_support import artillery, inject

# --- C.9: tanks against infantry ----------------------------------------------------------


def _overrun(tmp_path, cls: str = "rifles", roles: tuple[str, ...] = (), status: tuple[str, ...] = (), **stats):
    g = game_with(tmp_path, ["3♣"])
    add(g, "inf", "us", cls, team="2nd Platoon", roles=roles, status=status, stats=stats or None)
    play(g, "next", "@german activate panzer A5")
    return g


@pytest.mark.audits("LT-R100", "LT-AMB-23")
def test_infantry_without_at_weapons_in_the_open_is_destroyed_without_a_roll(tmp_path):
    """ "se la fanteria è allo scoperto viene automaticamente distrutta": rifles, no test."""
    g = _overrun(tmp_path)
    facts = play(g, "@german overrun panzer inf open")
    assert rolled(facts) == []
    assert out(g, "inf")


@pytest.mark.audits("LT-R100", "LT-AMB-23")
@pytest.mark.parametrize(("die", "dead"), [(4, True), (5, False)])
def test_infantry_in_cover_is_destroyed_on_four_or_less(tmp_path, die, dead):
    """ "altrimenti è distrutta con un risultato ≤ 4": rifles in cover, one die only."""
    g = _overrun(tmp_path)
    facts = play(g, f"@german overrun panzer inf dice={die}")
    assert len(rolled(facts)) == 1
    assert out(g, "inf") is dead


@pytest.mark.audits("LT-R100", "LT-AMB-21")
def test_immobilised_at_infantry_takes_no_test_and_strikes_nothing(tmp_path):
    """The test and the first strike are for AT infantry "non immobilizzata": immobilised
    grenadiers in cover only suffer the tank's die (a 5: they survive)."""
    g = _overrun(tmp_path, "grenadiers", roles=("trained-at",), status=("immobilised",))
    facts = play(g, "@german overrun panzer inf dice=5")
    assert len(rolled(facts)) == 1
    assert not out(g, "inf") and not out(g, "panzer")


@pytest.mark.audits("LT-R100", "LT-AMB-23", "LT-R081")
def test_at_infantry_that_fails_its_test_stays_and_is_overrun(tmp_path):
    """ "se non lo passa, rimane in posizione e subisce l'attacco del carro": morale 4, a 3
    with two situations is 5: failed; it does not fall back, and in the open it is gone."""
    g = _overrun(tmp_path, "grenadiers", roles=("trained-at",))
    facts = play(g, "@german overrun panzer inf open plus=2 dice=3")
    assert len(rolled(facts)) == 1
    assert moved(facts) == []
    assert out(g, "inf") and not out(g, "panzer")


@pytest.mark.audits("LT-R100", "LT-R101", "LT-AMB-23")
def test_at_infantry_that_passes_strikes_first_and_destroys_the_tank(tmp_path):
    """Passed (4 <= 4), it attacks first with its close-assault rating, 3: a 3 destroys the
    Panzer, whose attack never comes (no third die)."""
    g = _overrun(tmp_path, "grenadiers", roles=("trained-at",))
    facts = play(g, "@german overrun panzer inf dice=4,3")
    assert len(rolled(facts)) == 2
    assert out(g, "panzer") and not out(g, "inf")


@pytest.mark.audits("LT-R100", "LT-R101", "LT-AMB-23")
def test_the_first_strike_takes_the_no_machine_gun_bonus(tmp_path):
    """The first strike is the close-assault roll with its modifiers: rating 3, +1 for a tank
    without machine guns: a 4 destroys it."""
    g = game_with(tmp_path, ["3♣"])
    add(g, "inf", "us", "grenadiers", team="2nd Platoon", roles=("trained-at",))
    add(g, "nomg", "german", "pz4", team="Zug 1", roles=("no-mg",))
    play(g, "next", "@german activate nomg A5", "@german overrun nomg inf dice=1,4")
    assert out(g, "nomg")


# --- C.9: infantry against tanks ----------------------------------------------------------


def _close(tmp_path, roles: tuple[str, ...] = ("trained-at",), tank_roles: tuple[str, ...] = ()):
    g = game_with(tmp_path, ["7♥"])
    add(g, "inf", "us", "bazooka-team", team="2nd Platoon", roles=roles)
    add(g, "tk", "german", "pz4", team="Zug 1", roles=tank_roles)
    play(g, "next", "@us activate inf A2")
    return g


@pytest.mark.audits("LT-R101", "LT-AMB-24")
def test_a_tank_with_infantry_within_five_cm_cannot_be_assaulted(tmp_path):
    """ "se non ha fanteria amica adiacente" (adjacent: within 5 cm, LT-AMB-24): at 5 cm the
    grenadiers protect it; at 5.5 they do not."""
    g = _close(tmp_path)
    refused(g, "@us closeassault inf tk rear escort=5 dice=1", rule="LT-R101")
    play(g, "@us closeassault inf tk rear escort=5.5 dice=1")
    assert out(g, "tk")


@pytest.mark.audits("LT-R101")
def test_a_tank_is_not_assaulted_from_the_front(tmp_path):
    g = _close(tmp_path)
    refused(g, "@us closeassault inf tk front dice=1", rule="LT-R101")


@pytest.mark.audits("LT-R101", "LT-AMB-24")
@pytest.mark.parametrize(("die", "dead"), [(3, True), (4, False)])
def test_trained_infantry_destroys_on_three_or_less(tmp_path, die, dead):
    """ "il risultato deve essere uguale o minore del numero indicato": 3; failure no effect."""
    g = _close(tmp_path)
    play(g, f"@us closeassault inf tk flank dice={die}")
    assert out(g, "tk") is dead
    assert not out(g, "inf")


@pytest.mark.audits("LT-R101")
@pytest.mark.parametrize(("die", "dead"), [(5, True), (6, False)])
def test_tank_hunters_at_a_protected_tank_without_mgs(tmp_path, die, dead):
    """Tank hunters 5, +1 no MGs, -1 specially protected: 5 or less."""
    g = _close(tmp_path, roles=("tank-hunters",), tank_roles=("no-mg", "protected"))
    play(g, f"@us closeassault inf tk rear dice={die}")
    assert out(g, "tk") is dead


@pytest.mark.audits("LT-R101")
def test_only_infantry_assaults_a_tank(tmp_path):
    """ "fanteria vs carri": the Sherman makes no close assault on the Panzer."""
    g = turned(tmp_path, ["7♥"], "@us activate sherman1 A2")
    refused(g, "@us closeassault sherman1 panzer rear dice=1", rule="LT-R101")


# --- C.9: infantry against infantry -------------------------------------------------------


def _melee(tmp_path, att: dict, dfn: dict, att_status=(), dfn_status=()):
    g = game_with(tmp_path, ["7♥"])
    add(g, "att", "us", "rifles", team="2nd Platoon", status=att_status, stats=att)
    add(g, "dfn", "german", "rifles", team="Zug 2", status=dfn_status, stats=dfn)
    play(g, "next", "@us activate att A2")
    return g


@pytest.mark.audits("LT-R102")
def test_a_tie_destroys_both(tmp_path):
    """ "in caso di pareggio tutti distrutti": 3 + 3 against 4 + 2."""
    g = _melee(tmp_path, {"morale": 3}, {"morale": 4})
    play(g, "@us melee att dfn front dice=3,2")
    assert out(g, "att") and out(g, "dfn")


@pytest.mark.audits("LT-R102")
def test_the_higher_total_captures_the_other(tmp_path):
    """ "chi fa di più vince ... e cattura/distrugge l'avversario": 3 + 4 against 4 + 2."""
    g = _melee(tmp_path, {"morale": 3}, {"morale": 4})
    play(g, "@us melee att dfn front dice=4,2")
    assert out(g, "dfn") and not out(g, "att")


@pytest.mark.audits("LT-R102")
def test_entrenched_from_the_flank_is_plus_two_only(tmp_path):
    """+2 entrenched; -1 only "se attaccata da dietro", not from the flank: 3 + 1 + 2 = 6
    against 3 + 3 = 6, a tie."""
    g = _melee(tmp_path, {"morale": 3}, {"morale": 3})
    play(g, "@us melee att dfn flank entrenched dice=3,1")
    assert out(g, "att") and out(g, "dfn")


@pytest.mark.audits("LT-R102", "LT-AMB-21")
def test_an_immobilised_defender_that_wins_by_one_recovers(tmp_path):
    """-2 immobilised: 5 + 6 - 2 = 9 against 3 + 5 = 8: it wins, and "si riprende"."""
    g = _melee(tmp_path, {"morale": 3}, {"morale": 5}, dfn_status=("immobilised",))
    play(g, "@us melee att dfn front dice=5,6")
    assert out(g, "att") and not out(g, "dfn")
    assert not has(g, "dfn", "immobilised")


@pytest.mark.audits("LT-R102", "LT-AMB-21")
def test_an_immobilised_defender_that_loses_by_the_minus_two(tmp_path):
    """5 + 4 - 2 = 7 against 3 + 5 = 8: without the -2 it would have won."""
    g = _melee(tmp_path, {"morale": 3}, {"morale": 5}, dfn_status=("immobilised",))
    play(g, "@us melee att dfn front dice=5,4")
    assert out(g, "dfn") and not out(g, "att")


@pytest.mark.audits("LT-R102")
def test_no_melee_against_a_tank(tmp_path):
    """ "fanteria vs fanteria": a tank is assaulted by the close assault only."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2")
    refused(g, "@us melee gis panzer rear dice=6,1", rule="LT-R101")


@pytest.mark.audits("LT-R103", "LT-R001")
def test_a_gun_starts_no_melee(tmp_path):
    """ "i cannoni non possono iniziare una mischia": the Pak, once seen, attacks no one so."""
    g = turned(tmp_path, ["3♣"], "@german activate pak A2")
    refused(g, "@german melee pak gis front dice=6,1", rule="LT-R103")


# --- C.10: artillery ----------------------------------------------------------------------


def _guns(tmp_path, first: list[str]):
    g = game_with(tmp_path, first)
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 5))
    return g


@pytest.mark.audits("LT-R090")
def test_only_a_company_command_or_observer_calls_the_guns(tmp_path):
    """ "può essere richiesto solo da un comando di compagnia o altro pezzo specifico"."""
    g = _guns(tmp_path, ["K♥"])
    play(g, "next")
    refused(g, "@us unitmove call-artillery by=gis", rule="LT-R090")


@pytest.mark.audits("LT-R090", "LT-AMB-07")
def test_a_number_card_calls_no_guns(tmp_path):
    """The call takes "un'intera mossa speciale", a face card's unit move: not a 7♥."""
    g = _guns(tmp_path, ["7♥"])
    play(g, "next")
    refused(g, "@us unitmove call-artillery by=cmd", rule="LT-AMB-07")


@pytest.mark.audits("LT-R090")
def test_the_guns_fire_only_from_the_joker(tmp_path):
    """ "L'attacco ... inizia quando esce una carta speciale (jolly)": called on the K♥, no
    barrage on the 3♣; on the joker, the barrage."""
    g = _guns(tmp_path, ["K♥", "3♣", "Joker"])
    play(g, "next", "@us unitmove call-artillery by=cmd", "next")
    refused(g, "barrage us grenadiers still-open dice=6", rule="LT-R090")
    play(g, "next")
    assert len(rolled(play(g, "barrage us grenadiers still-open dice=6"))) == 1


@pytest.mark.audits("LT-R090", "LT-R030", "LT-R060")
def test_the_guns_strike_an_unseen_piece_in_their_square(tmp_path):
    """ "eccezione: supporto di artiglieria": the hidden Pak in the square is attacked too:
    HE 5 against a prepared position (+4) is +1: a 1 is I, a gun is a vehicle (C.1), so a test."""
    g = _guns(tmp_path, ["K♥", "Joker"])
    play(g, "next", "@us unitmove call-artillery by=cmd", "next")
    facts = play(g, "barrage us pak dice=1")
    assert len(rolled(facts)) == 1
    assert not out(g, "pak")


@pytest.mark.audits("LT-R090", "LT-R060", "LT-R060a")
def test_the_barrage_reads_the_mg_he_table(tmp_path):
    """ "consultare la tabella altri tiri": HE 5 against entrenched infantry (+5) is 0: a 2 is
    I, immobilised; a 3 would be nothing."""
    g = _guns(tmp_path, ["K♥", "Joker"])
    play(g, "next", "@us unitmove call-artillery by=cmd", "next", "barrage us grenadiers entrenched dice=2")
    assert has(g, "grenadiers", "immobilised")


@pytest.mark.audits("LT-R090", "LT-AMB-27")
def test_the_attack_goes_on_with_a_face_card_not_a_number_card(tmp_path):
    """It continues "impiegando mosse di plotone": after the joker, the K♦ spent on it fires
    again; the 7♥ after that does not."""
    g = _guns(tmp_path, ["K♥", "Joker", "K♦", "7♥"])
    play(g, "next", "@us unitmove call-artillery by=cmd", "next", "barrage us grenadiers still-open dice=6")
    play(g, "next", "@us unitmove continue-artillery")
    assert len(rolled(play(g, "barrage us grenadiers still-open dice=6"))) == 1
    play(g, "next")
    refused(g, "barrage us grenadiers still-open dice=6", rule="LT-R090")


# --- C.1: guns ------------------------------------------------------------------------------

GUNS = (
    "\n"
    + RIFLES
    + """[[profiles]]
id = "big"
name = "17-pdr"
vehicle = true
morale = 4
bound = 0
speed = 0
at = 8
mg = 1
defence = "prepared"
[[profiles]]
id = "small"
name = "57 mm"
vehicle = false
morale = 3
bound = 5
at = 4
mg = 1
"""
)


def _gun_game(tmp_path, gun_cls: str):
    units = (
        '[[units]]\nid = "gun"\nname = "Gun"\nside = "us"\nteam = "A"\nkind = "gun"\n'
        f'cls = "{gun_cls}"\n'
        '[[units]]\nid = "inf"\nname = "Inf"\nside = "german"\nteam = "B"\ncls = "rifles"\n'
        'status = ["hidden"]\n'
    )
    g = scenario_game(tmp_path, GUNS, units)
    play(g, "next")
    return g


@pytest.mark.audits("LT-R001", "LT-R034")
def test_a_large_gun_is_a_vehicle_and_halves_what_it_sees(tmp_path):
    """C.1: "i cannoni di grandi dimensioni contano come mezzi"; C.4: "dimezzata se chi
    osserva è un mezzo": infantry moving in the open, 50 halved to 25."""
    g = _gun_game(tmp_path, "big")
    assert not spotted(play(g, "spot inf by=gun at=25.5 moving-open"))
    assert spotted(play(g, "spot inf by=gun at=25 moving-open"))


@pytest.mark.audits("LT-R001", "LT-R034")
def test_a_small_gun_is_infantry_and_sees_the_whole_distance(tmp_path):
    """C.1: "il resto è fanteria": the 57 mm sees infantry moving in the open at 50 cm."""
    g = _gun_game(tmp_path, "small")
    assert spotted(play(g, "spot inf by=gun at=50 moving-open"))


# --- C.6: a piece that flees fires no more ------------------------------------------------


@pytest.mark.audits("LT-R051", "LT-R052", "LT-R080")
def test_a_tank_put_to_flight_by_a_reply_fires_no_second_shot(tmp_path):
    """ "chi scappa non spara!": the Sherman (morale 2) fires the first of its A4's two shots;
    the Panzer's ready reply is a T; the Sherman's 4 (= 2M) is a flight; its second shot is
    not fired."""
    g = game_with(tmp_path, ["3♣", "7♥"])
    add(g, "sh", "us", "sherman", team="1st Platoon", stats={"morale": 2})
    play(g, "next", "@german activate panzer A1", "next", "@us activate sh A4 prepare=0")
    play(g, "@us at sh panzer dice=6,6")
    play(g, "@german at panzer sh ready dice=3,3")
    assert moved(play(g, "morale sh dice=4")) == [30]
    refused(g, "@us at sh panzer dice=1,1", rule="LT-R051")


@pytest.mark.audits("LT-AMB-32")
def test_the_game_ends_with_its_result_and_draws_no_more_cards(tmp_path):
    """LT-AMB-32: the book has no victory conditions; the scenario's is recorded, and the
    game is over: no card is drawn after it."""
    g = turned(tmp_path, ["7♥", "3♣"], "result us the hamlet is taken")
    refused(g, "next", rule="LT-AMB-32")
