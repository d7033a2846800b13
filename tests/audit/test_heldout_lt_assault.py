"""A second, held-out audit of Linea di Tiro's assaults (C.9) and artillery (C.10) from the
book alone: an overrun in the open after a missed first strike, the first strike's
rating with the tank's modifiers, who may overrun and whom, the close assault's two
modifiers together and at 0, melee modifiers met two and three at once, who may take
an opportunity shot and at whom, and artillery that strikes every unit in its square."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from audit_lt_table import ALTERNATE, add, game_with, has, inject, moved, out, play, refused, rolled

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets"))
from linea_di_tiro_support import artillery  # noqa: E402

from core.refusal import TYPING


def _overrun(tmp_path, target_cls="grenadiers", target_roles=(), tank_roles=(), tank_mg: int = 3, name="o.ft"):
    """A US tank activated to move (A2); a German piece in its way (morale 4)."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "tank", "us", "sherman", team="X", roles=tank_roles, stats={"front": 5, "side": 3, "mg": tank_mg})
    add(g, "inf", "german", target_cls, team="Y", roles=target_roles, stats={"morale": 4})
    play(g, "next", "@us activate tank A2")
    return g


# --------------------------------------------------------------------------- overrun


@pytest.mark.audits("LT-R100", "LT-AMB-23")
def test_in_the_open_a_missed_first_strike_leaves_the_infantry_to_be_destroyed(tmp_path):
    """Passes (3 <= 4), strikes first and misses (4 > 3); the tank's attack follows, and
    in the open it destroys without a die."""
    g = _overrun(tmp_path)
    facts = play(g, "overrun tank inf open dice=3,4")
    assert len(rolled(facts)) == 2 and out(g, "inf") and not out(g, "tank")


@pytest.mark.audits("LT-R100", "LT-R101", "LT-AMB-23")
@pytest.mark.parametrize(("strike", "tank_lost"), [(4, True), (5, False)])
def test_tank_hunters_first_strike_at_a_protected_tank(tmp_path, strike, tank_lost):
    """The first strike is the close-assault roll: tank hunters 5, a specially protected
    tank -1: 4 or less."""
    g = _overrun(tmp_path, target_roles=("tank-hunters",), tank_roles=("protected",))
    play(g, "overrun tank inf dice=2,4" if tank_lost else "overrun tank inf dice=2,5,6")  # in cover 6 survives
    assert out(g, "tank") == tank_lost and not out(g, "inf")


@pytest.mark.audits("LT-R100", "LT-R001")
def test_a_gun_overrun_takes_no_test_and_no_first_strike(tmp_path):
    """Only infantry with portable AT weapons tests and strikes first; a gun (it has its
    opportunity shot instead) takes only the tank's attack: in cover, 4 or less."""
    g = _overrun(tmp_path, target_cls="pak40")
    facts = play(g, "overrun tank inf dice=4")
    assert len(rolled(facts)) == 1 and out(g, "inf")


@pytest.mark.audits("LT-R100")
def test_only_a_tank_overruns_and_only_infantry_or_guns(tmp_path):
    g = _overrun(tmp_path)
    add(g, "foot", "us", "rifles", team="X2")
    add(g, "other", "german", "pz4", team="Y2", stats={"front": 5, "side": 3})
    refused(g, "overrun tank other dice=1,1", rule="LT-R100")  # a tank is no position of infantry
    play(g, "next", "next", "@us activate foot A2")
    refused(g, "overrun foot inf dice=1,1", rule="LT-R100")  # infantry does not overrun


@pytest.mark.audits("LT-R100", "LT-R051")
def test_a_fleeing_tank_overruns_nobody(tmp_path):
    g = _overrun(tmp_path)
    play(g, "@us rout tank")
    refused(g, "overrun tank inf open dice=6", rule="LT-R051")
    assert not out(g, "inf")


# --------------------------------------------------------------------- close assault


def _assault(tmp_path, roles, tank_roles=(), tank_mg: int = 3, name="c.ft", option="A4 prepare=0"):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "inf", "us", "rifles", team="X", roles=roles, stats={"at": 0})
    add(g, "tank", "german", "pz4", team="Y", roles=tank_roles, stats={"front": 5, "side": 3, "mg": tank_mg})
    play(g, "next", f"@us activate inf {option}")
    return g


@pytest.mark.audits("LT-R101")
def test_improvised_weapons_against_a_protected_tank_never_destroy_it(tmp_path):
    """Rating 1, protected -1: the die must be 0 or less."""
    g = _assault(tmp_path, ("improvised-at",), ("protected",))
    play(g, "@us closeassault inf tank rear dice=1")
    assert not out(g, "tank")


@pytest.mark.audits("LT-R101")
@pytest.mark.parametrize(("die", "lost"), [(3, True), (4, False)])
def test_no_machine_guns_and_protected_cancel_out(tmp_path, die, lost):
    """Trained infantry (3) at a protected tank without MGs: 3 + 1 - 1."""
    g = _assault(tmp_path, ("trained-at",), ("protected",), tank_mg=0)
    play(g, f"@us closeassault inf tank flank dice={die}")
    assert out(g, "tank") == lost


@pytest.mark.audits("LT-R101")
def test_tank_hunters_at_a_tank_without_machine_guns_need_six_or_less(tmp_path):
    g = _assault(tmp_path, ("tank-hunters",), tank_mg=0)
    play(g, "@us closeassault inf tank flank dice=6")
    assert out(g, "tank")


@pytest.mark.audits("LT-R101", "LT-R020")
def test_a_move_at_speed_brings_no_close_assault(tmp_path):
    """A5 ("muoversi a piena velocità") executes no attack; the assault is one."""
    g = _assault(tmp_path, ("tank-hunters",), option="A5")
    refused(g, "@us closeassault inf tank flank dice=1", rule="LT-R020")
    assert not out(g, "tank")


# ----------------------------------------------------------------------------- melee


def _melee(tmp_path, dfn_cls="rifles", dfn_status=(), name="m.ft"):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "att", "us", "rifles", team="X", stats={"morale": 3})
    add(g, "dfn", "german", dfn_cls, team="Y", status=dfn_status, stats={"morale": 3})
    play(g, "next", "@us activate att A4 prepare=0")
    return g


@pytest.mark.audits("LT-R102")
@pytest.mark.parametrize(("faces", "want"), [("3,2", "tie"), ("3,1", "att")])
def test_an_entrenched_defender_attacked_from_behind(tmp_path, faces, want):
    """3 + 3 against 3 + die + 2 (entrenched) - 1 (from behind)."""
    g = _melee(tmp_path)
    play(g, f"@us melee att dfn rear entrenched dice={faces}")
    assert (out(g, "att"), out(g, "dfn")) == {"tie": (True, True), "att": (False, True)}[want]


@pytest.mark.audits("LT-R102")
@pytest.mark.parametrize(("faces", "want"), [("3,3", "tie"), ("3,4", "dfn")])
def test_an_entrenched_immobilised_defender(tmp_path, faces, want):
    """+2 entrenched and -2 immobilised: 3 + die; winning, it is no longer immobilised."""
    g = _melee(tmp_path, dfn_status=("immobilised",))
    play(g, f"@us melee att dfn entrenched dice={faces}")
    assert (out(g, "att"), out(g, "dfn")) == {"tie": (True, True), "dfn": (True, False)}[want]
    if want == "dfn":
        assert not has(g, "dfn", "immobilised")


@pytest.mark.audits("LT-R102", "LT-R103", "LT-AMB-26")
@pytest.mark.parametrize(("faces", "want"), [("1,3", "tie"), ("1,2", "att")])
def test_a_gun_entrenched_and_attacked_from_behind(tmp_path, faces, want):
    """The gun (morale 3): die + 3 - 3 + 2 - 1 against 1 + 3."""
    g = _melee(tmp_path, dfn_cls="pak40")
    play(g, f"@us melee att dfn rear entrenched dice={faces}")
    assert (out(g, "att"), out(g, "dfn")) == {"tie": (True, True), "att": (False, True)}[want]


# ----------------------------------------------------------------- opportunity shots


@pytest.mark.audits("LT-R102", "LT-AMB-25")
def test_no_opportunity_shot_at_a_piece_that_is_not_assaulting(lt):
    """ "Se attaccato frontalmente, il difensore può eseguire un tiro d'opportunità": a
    piece not activated on this card assaults nobody; no free shot at it (LT-AMB-25)."""
    add(lt, "att", "us", "rifles", team="X")
    add(lt, "idle", "us", "rifles", team="X2")
    add(lt, "dfn", "german", "rifles", team="Y", stats={"mg": 6})
    play(lt, "next", "@us activate att A4 prepare=0")
    refused(lt, "@german mg dfn idle defence=moving-open opportunity dice=1", rule="LT-R102")
    assert not out(lt, "idle")
    play(lt, "@german mg dfn att defence=moving-open opportunity dice=1")  # the one assaulting
    assert out(lt, "att")


@pytest.mark.audits("LT-R100", "LT-AMB-25")
def test_infantry_overrun_by_a_tank_has_its_test_not_an_opportunity_shot(tmp_path):
    """C.9, "carri vs fanteria": AT-armed infantry tests morale and may strike first;
    the opportunity shot is the guns' ("i cannoni assaltati frontalmente"; LT-AMB-25)."""
    g = _overrun(tmp_path)
    refused(g, "@german at inf tank opportunity dice=1,1", rule="LT-R100")
    assert not out(g, "tank")
    g = _overrun(tmp_path, target_cls="pak40", name="gun.ft")
    play(g, "@german at inf tank opportunity dice=1,1")
    assert out(g, "tank")


@pytest.mark.audits("LT-R101", "LT-AMB-25")
def test_a_tank_takes_no_opportunity_shot(tmp_path):
    """A tank is assaulted "solo sul fianco o sul retro", never frontally, so the
    opportunity shot of one "attaccato frontalmente" is never its own (LT-AMB-25)."""
    g = _assault(tmp_path, ("tank-hunters",))
    refused(g, "@german mg tank inf defence=moving-open opportunity dice=1", rule="LT-R101")
    assert not out(g, "inf")


# -------------------------------------------------------------------------- artillery


def _guns(tmp_path, cards=("3♣", "Q♠", "Joker", "4♣", "5♣"), name="a.ft"):
    g = game_with(tmp_path, list(cards), name)
    add(g, "captain", "german", "rifles", team="HQ", roles=("company-command",))
    add(g, "fo", "german", "rifles", team="FO", roles=("observer",))
    add(g, "own", "german", "rifles", team="G2")
    add(g, "a", "us", "rifles", team="X")
    inject(g, *artillery("german", 4))
    return g


g = pytest.fixture(_guns, name="g")


@pytest.mark.audits("LT-R090")
def test_another_specific_piece_may_call_it(g):
    """ "Un comando di compagnia o altro pezzo specifico": an observer named for it."""
    play(g, "next", "next", "@german unitmove call-artillery by=fo on the orchard", "next")
    play(g, "barrage german a defence=moving-open dice=6")


@pytest.mark.audits("LT-R090")
def test_every_unit_in_the_square_is_attacked_friend_or_foe(g):
    """ "Tutte le unità anche parzialmente nell'area battuta sono attaccate": a German
    half-squad under its own guns takes its attack (HE 4 - 0 = +4; 2: D)."""
    play(g, "next", "next", "@german unitmove call-artillery by=captain on the farm", "next")
    play(g, "barrage german own defence=moving-open dice=2")
    assert out(g, "own")


@pytest.mark.audits("LT-R090", "LT-R010")
def test_the_attack_goes_on_only_for_a_face_card_spent_on_it(g):
    """It continues "impiegando mosse di plotone": a number card gives no unit move."""
    play(g, "next", "next", "@german unitmove call-artillery by=captain on the farm", "next", "next")  # 4♣
    refused(g, "@german unitmove continue-artillery", rule="LT-R010")
    refused(g, "barrage german a defence=moving-open dice=6", rule="LT-R090")


@pytest.mark.audits("LT-R090", "LT-R010")
def test_a_face_card_that_activated_a_platoon_calls_no_artillery(g):
    """A face card: a platoon "o" other unit moves, not both."""
    play(g, "next", "next", "@german activate captain A5")
    refused(g, "@german unitmove call-artillery by=captain on the farm", rule="LT-R010")


# ------------------------------------------------ second batch: prepared attacks, routs


@pytest.mark.audits("LT-R020", "LT-R102", "LT-AMB-08")
def test_a_bound_and_a_prepared_attack_bring_no_melee(lt):
    """A1 is "un balzo e preparare un attacco": nothing executed; the prepared attack is
    kept for a reply (LT-R052) or an ambush (LT-R053), so it is no melee either (LT-AMB-08)."""
    add(lt, "att", "us", "rifles", team="X", stats={"morale": 3})
    add(lt, "dfn", "german", "rifles", team="Y", stats={"morale": 3})
    play(lt, "next", "@us activate att A1")
    refused(lt, "@us melee att dfn ready dice=6,1", rule=TYPING)
    assert not out(lt, "dfn") and has(lt, "att", "ready-1")


@pytest.mark.audits("LT-R020", "LT-R101", "LT-AMB-08")
def test_a_piece_not_activated_makes_no_close_assault_with_a_prepared_attack(lt):
    """Only an activated piece executes an attack (C.3); a prepared one answers an attack
    (LT-AMB-08)."""
    add(lt, "inf", "us", "rifles", team="X", roles=("tank-hunters",), status=("ready-1",), stats={"at": 0})
    add(lt, "tank", "german", "pz4", team="Y", stats={"front": 5, "side": 3, "mg": 3})
    play(lt, "next")
    refused(lt, "@us closeassault inf tank rear ready dice=1", rule=TYPING)
    assert not out(lt, "tank") and has(lt, "inf", "ready-1")


@pytest.mark.audits("LT-R082", "LT-R051", "LT-AMB-33")
def test_a_voluntary_rout_instead_of_the_test_a_t_calls_for(lt):
    """ "È sempre possibile andare in rotta volontariamente, per evitare un test": the tank
    given a T routs instead; no test is owed, and on its next card it fires again."""
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6, "front": 6, "side": 6})
    add(lt, "tank", "german", "pz4", team="Y", stats={"at": 6, "front": 6, "side": 1, "speed": 25})
    play(lt, "next", "@us activate gun A4 prepare=0", "@us at gun tank dice=3,3")  # 6 at 0: T
    assert moved(play(lt, "@german rout tank")) == [25]
    refused(lt, "@german at tank gun ready dice=6,6", rule="LT-R051")  # fleeing under this card: no reply (LT-R051)
    play(lt, "next", "@german activate tank A4 prepare=0", "@german at tank gun dice=6,6")


@pytest.mark.audits("LT-R090")
def test_only_the_side_whose_artillery_fires_uses_it(g):
    """The German guns fire on the joker; the Americans, with no artillery of their own
    called, have none to bring down."""
    inject(g, *artillery("us", 5))
    play(g, "next", "next", "@german unitmove call-artillery by=captain on the farm", "next")
    refused(g, "barrage us own defence=moving-open dice=1", rule="LT-R090")
    play(g, "barrage german a defence=moving-open dice=6")
