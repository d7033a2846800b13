"""A second, held-out audit of Linea di Tiro's activation, movement and spotting (C.2-C.5)
and morale (C.8) from the book alone: the order of an option's two parts ("o v.v."),
what an immobilised piece may still do, a fleeing piece on its next card, a move that
is not a bound and so does not reposition, an activation whose bound is skipped,
doubling and halving together at a vehicle's edge, and only a visible piece assaulted."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, game_with, has, moved, out, outcome, play, refused
from playing import names

from core.refusal import TYPING
from core.ruleset import Refused


def _pair(tmp_path, status=(), name: str = "p.ft"):
    """A US rifle half-squad (MG 3) and a German target, on the US card."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "p", "us", "rifles", team="X", status=status, stats={"mg": 3, "morale": 3})
    add(g, "e", "german", "rifles", team="Y")
    add(g, "car", "us", "sherman", team="Z")
    play(g, "next")
    return g


g = pytest.fixture(_pair, name="g")


def _fire(g) -> None:
    play(g, "@us mg p e defence=entrenched dice=6")


# ------------------------------------------------------------------------- activation


@pytest.mark.audits("LT-R020", "LT-R041", "LT-AMB-09")
def test_a2_may_execute_first_and_bound_after_but_only_once_each(g):
    """A2: "effettuare un balzo ed eseguire un attacco o v.v.": the attack, then the
    bound; neither twice."""
    play(g, "@us activate p A2")
    _fire(g)
    assert moved(play(g, "@us move p 10")) == [10]
    with pytest.raises(Refused) as no:
        _fire(g)
    names(no.value, "LT-R020")
    refused(g, "@us move p 1", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-AMB-21")
@pytest.mark.parametrize(("option", "shots"), [("A3", 1), ("A4 prepare=0", 2)])
def test_an_immobilised_piece_still_attacks(tmp_path, option, shots):
    """Immobilised infantry cannot move, but the options without a move are open to it:
    A3 executes one attack, A4 two."""
    g = _pair(tmp_path, status=("immobilised",))
    play(g, f"@us activate p {option}")
    for _ in range(shots):
        _fire(g)
    with pytest.raises(Refused) as no:
        _fire(g)
    names(no.value, "LT-R020")
    assert has(g, "p", "immobilised")


@pytest.mark.audits("LT-R020", "LT-R051", "LT-R082")
def test_a_piece_that_fled_is_activated_again_on_its_next_card(g):
    """It fled under one card (no activation, no fire then); the book has no rally, and on
    the next card of its side it is activated like any other."""
    play(g, "@us rout p")
    refused(g, "@us activate p A4 prepare=0", rule="LT-R051")
    play(g, "next", "next", "@us activate p A4 prepare=0")
    _fire(g)


@pytest.mark.audits("LT-R020")
def test_mounting_is_the_whole_activation(g):
    """A6 "montare o smontare": no attack executed with it."""
    play(g, "@us activate p A6 into=car")
    with pytest.raises(Refused) as no:
        _fire(g)
    names(no.value, "LT-R020")
    refused(g, "@us move p 5", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-R010")
def test_a_number_card_of_the_other_side_activates_nothing_of_this_one(g):
    """The German card (3♣) is the Axis player's: the US piece cannot be activated, and a
    German piece is, once."""
    play(g, "next")
    refused(g, "@us activate p A4", rule="LT-R010")
    play(g, "@german activate e A5")
    refused(g, "@german activate e A1", rule="LT-R010")


# -------------------------------------------------------------------------- spotting


def _shooter_hidden(tmp_path, name: str = "s.ft"):
    """A hidden German half-squad in ambush that fired once since its last bound."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "target", "us", "sherman", team="X", stats={"front": 9, "side": 9})
    add(g, "obs", "us", "rifles", team="X2")
    add(g, "hid", "german", "rifles", team="Y", status=("hidden", "fired-1"), stats={"at": 3})
    play(g, "next", "next")  # the German card
    return g


@pytest.mark.audits("LT-R033", "LT-R042", "LT-AMB-12")
def test_a_move_at_speed_is_not_a_bound_and_does_not_reposition(tmp_path):
    """ "Per interrompere questa progressione è necessario riposizionare il pezzo
    attivandolo per un balzo": A5 is no bound; in ambush (5 cm) doubled once it is
    still seen at 10."""
    g = _shooter_hidden(tmp_path)
    play(g, "@german activate hid A5", "@german move hid 30", "spot hid by=obs at=10 state=ambush")
    assert "hid" in g.view("us").units


@pytest.mark.audits("LT-R033", "LT-AMB-09")
def test_an_activation_for_a_bound_whose_bound_is_skipped_does_not_reposition(tmp_path):
    """Activated with A1 but not moved ("anche parzialmente"): no bound made, so it is still
    doubled."""
    g = _shooter_hidden(tmp_path)
    play(g, "@german activate hid A1", "spot hid by=obs at=10 state=ambush")
    assert "hid" in g.view("us").units


@pytest.mark.audits("LT-R033", "LT-R034", "LT-R032")
@pytest.mark.parametrize(("cm", "seen"), [(40, True), (40.5, False)])
def test_a_vehicle_in_cover_that_fired_twice_seen_from_a_tank(lt, cm, seen):
    """20 cm in cover, doubled twice (80), halved for a tank observer: 40."""
    add(lt, "obs", "us", "sherman", team="X")
    add(lt, "hid", "german", "pz4", team="Y", status=("hidden", "fired-2"))
    play(lt, "next", f"spot hid by=obs at={cm:g} state=still-cover")
    assert ("hid" in lt.view("us").units) == seen


@pytest.mark.audits("LT-R034", "LT-R032")
@pytest.mark.parametrize(("cm", "seen"), [(25, True), (25.5, False)])
def test_a_stationary_vehicle_in_the_open_seen_from_a_tank(lt, cm, seen):
    add(lt, "obs", "us", "sherman", team="X")
    add(lt, "hid", "german", "pz4", team="Y", status=("hidden",))
    play(lt, "next", f"spot hid by=obs at={cm:g} state=still-open")
    assert ("hid" in lt.view("us").units) == seen


@pytest.mark.audits("LT-R030")
def test_a_hidden_piece_is_neither_meleed_nor_close_assaulted(lt):
    """ "Si può attaccare solo un pezzo visibile": an assault is an attack too."""
    add(lt, "inf", "us", "rifles", team="X", roles=("tank-hunters",))
    add(lt, "men", "german", "rifles", team="Y", status=("hidden",))
    add(lt, "tank", "german", "pz4", team="Y2", status=("hidden",), stats={"front": 5, "side": 3})
    play(lt, "next", "@us activate inf A4 prepare=0")
    for line in ("@us melee inf men dice=6,1", "@us closeassault inf tank rear dice=1"):
        refused(lt, line, rule=TYPING)
    assert not out(lt, "men") and not out(lt, "tank")


# ---------------------------------------------------------------------------- morale


@pytest.mark.audits("LT-R080", "LT-R081")
@pytest.mark.parametrize(("die", "plus", "want"), [(1, 1, "steady"), (2, 1, "fall-back"), (3, 2, "flee")])
def test_morale_two_with_situations(lt, die, plus, want):
    """Morale 2, immobilised (+1) and ``plus`` other situations: r <= 2 nothing, 3 falls
    back, 4 or more (2 x 2) flees."""
    add(lt, "p", "us", "rifles", team="X", status=("immobilised",), stats={"morale": 2})
    play(lt, "next")
    facts = play(lt, f"@us morale p plus={plus - 1} dice={die}")
    assert outcome(facts) == f"modified total {die + plus}: {want}"


# --------------------------------------------------------------------- second batch


@pytest.mark.audits("LT-R033", "LT-R102")
def test_a_melee_is_no_fire_and_does_not_double_the_distance(lt):
    """ "La visibilità di un pezzo che tira raddoppia ogni volta che si fa fuoco": a hidden
    half-squad that wins a melee has not fired; in ambush it is still seen only within 5 cm
    (LT-R033)."""
    add(lt, "hid", "us", "rifles", team="X", status=("hidden",), stats={"morale": 4})
    add(lt, "dfn", "german", "rifles", team="Y", stats={"morale": 3})
    add(lt, "obs", "german", "rifles", team="Y2")
    play(lt, "next", "@us activate hid A4 prepare=0", "@us melee hid dfn dice=6,1")
    assert out(lt, "dfn")
    play(lt, "spot hid by=obs at=10 state=ambush")
    assert "hid" not in lt.view("german").units
    play(lt, "spot hid by=obs at=5 state=ambush")
    assert "hid" in lt.view("german").units
