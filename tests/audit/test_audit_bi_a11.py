"""The audit of Bassa Intensità A.11 (indirect fire: the observer, the contact, the ranging
shot and where it lands, fire for effect, the 20 cm shift, smoke shells), written from the
book ("TIRO INDIRETTO") and its digest alone."""

from __future__ import annotations

import pytest
from audit_bi_early import goto, notes, outcomes, play, refused, rolls, table

game = table()


def _contact(g, kind: str = "dedicated", mm: int = 81) -> None:
    """Lt Fo (Veteran, 5) contacts a dedicated battery in turn 1 (Normal: a 5 passes)."""
    goto(g, "fire-veteran", 1)
    play(g, f"call fo {kind} mm={mm} dice=5")


@pytest.mark.audits("BI-R100")
def test_only_an_observer_or_a_commander_calls_indirect_fire(game):
    """A.11: the observer is a forward observer or a platoon or company commander; a
    private with a carbine cannot call the guns."""
    goto(game, "fire-veteran", 1)
    assert [r.rule for r in rolls(play(game, "call fo dedicated mm=81 dice=6"))] == ["BI-R102"]
    goto(game, "fire-recruit", 1)
    refused(game, "call remo dedicated mm=81", match="observer", rule="BI-R100")


@pytest.mark.audits("BI-R102", "BI-AMB-34")
@pytest.mark.parametrize(
    ("kind", "face", "outcome"),
    [("dedicated", 5, "done"), ("dedicated", 6, "failed"), ("general", 3, "done"), ("general", 4, "failed")],
)
def test_the_contact_is_an_action_by_how_the_fire_is_assigned(game, kind, face, outcome):
    """A.11: a dedicated battery is Normal (Quality: 5 passes, 6 fails), general support
    Difficult (1/2 x 5 = 2.5 -> 3: 3 passes, 4 fails); the contact is the observer's
    action: he may not fire that turn."""
    goto(game, "fire-veteran", 1)
    facts = play(game, f"call fo {kind} mm=81 dice={face}")
    assert [r.target for r in rolls(facts, "BI-R102")] == [{"dedicated": 5, "general": 3}[kind]]
    assert outcomes(facts, "BI-R102") == [outcome]
    refused(game, "fire fo tariq range=20", rule="BI-R030")


@pytest.mark.audits("BI-R102")
def test_a_light_mortar_of_the_platoon_is_an_easy_contact(game):
    """A.11: a light mortar on the table, of the observer's platoon: Easy, 2 x 5 = 10: it
    cannot fail, so no die is rolled."""
    goto(game, "fire-veteran", 1)
    facts = play(game, "call fo mortar mm=60")
    assert rolls(facts) == [] and any("is through" in n for n in notes(facts))


@pytest.mark.audits("BI-R103", "BI-AMB-33")
def test_the_ranging_shot_comes_in_the_next_turns_fire_phase_in_the_observers_tier(game):
    """A.11: once contacted, one ranging shot in the fire phase of the following turn, not
    in the turn of the call; in the observer's (Veteran) tier, not the Elites' before it."""
    _contact(game)
    refused(game, "ranging fo dice=5,1", rule="BI-R103")
    goto(game, "fire-elite", 2)
    refused(game, "ranging fo dice=5,1", rule="BI-R061")
    goto(game, "fire-veteran", 2)
    assert [r.rule for r in rolls(play(game, "ranging fo dice=5,1"))] == ["BI-R103", "A.11"]


#: A.11 PRECISE (2d6 offsets) and IMPRECISE (4d10) tables: face -> (words, offsets rolled)
PRECISE = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 1, 8: 1, 9: 2, 10: 2}
WAYS = {3: "long", 4: "long", 5: "long", 6: "long", 7: "short", 8: "short", 9: "short", 10: "short"}
SIDE = {5: "right", 6: "left", 9: "right", 10: "left"}


@pytest.mark.audits("BI-R103", "BI-AMB-29")
@pytest.mark.parametrize("face", range(1, 11))
def test_a_precise_ranging_shot_lands_by_the_precise_table_with_2d6_offsets(game, face):
    """A.11: the observer's 1d10 under his Quality (5) makes it precise; then 1-2 on
    target, 3-4 long, 5 long right, 6 long left, 7-8 short, 9 short right, 10 short left,
    each offset 2d6 cm (3 + 4 = 7 long, 1 + 1 = 2 to the side), rolled separately."""
    _contact(game)
    goto(game, "fire-veteran", 2)
    offsets = ["3,4", "1,1"][: PRECISE[face]]
    facts = play(game, "ranging fo dice=" + ",".join(["5", str(face), *offsets]))
    assert outcomes(facts, "BI-R103") == ["precise"]
    dice = [r for r in rolls(facts, "A.11")][1:]
    assert [(len(r.faces), r.sides) for r in dice] == [(2, 6)] * PRECISE[face]
    text = [n for n in notes(facts) if "the ranging shot lands" in n]
    if face <= 2:
        assert text == ["the ranging shot lands right on the target"]
    else:
        where = f"7 cm {WAYS[face]}" + (f" and 2 cm {SIDE[face]}" if face in SIDE else "")
        assert text == [f"the ranging shot lands {where}"]


@pytest.mark.audits("BI-R103", "BI-AMB-30")
@pytest.mark.parametrize("face", range(1, 11))
def test_an_imprecise_ranging_shot_lands_by_the_imprecise_table_with_4d10_offsets(game, face):
    """A.11: a 6 over the observer's 5 makes it imprecise: 1-2 "where are you shooting?"
    (the round is lost), then as the precise table with 4d10 offsets (1+2+3+4 = 10 long
    or short; 10+10+10+10 = 40 to the side)."""
    _contact(game)
    goto(game, "fire-veteran", 2)
    offsets = ["1,2,3,4", "10,10,10,10"][: PRECISE[face]]
    facts = play(game, "ranging fo dice=" + ",".join(["6", str(face), *offsets]))
    assert outcomes(facts, "BI-R103") == ["imprecise"]
    dice = [r for r in rolls(facts, "A.11")][1:]
    assert [(len(r.faces), r.sides) for r in dice] == [(4, 10)] * PRECISE[face]
    text = [n for n in notes(facts) if "the ranging shot lands" in n]
    if face <= 2:
        assert len(text) == 1 and "lost" in text[0]
    else:
        where = f"10 cm {WAYS[face]}" + (f" and 40 cm {SIDE[face]}" if face in SIDE else "")
        assert text == [f"the ranging shot lands {where}"]


@pytest.mark.audits("BI-AMB-30", "BI-AMB-31")
@pytest.mark.parametrize("how", ["lost", "unseen"])
def test_a_lost_or_unseen_ranging_shot_is_fired_again_next_turn_without_a_new_contact(game, how):
    """A.11: a round that went who knows where, or landed where the observer cannot see:
    no fire for effect; next turn another ranging shot, with deviation, and no contact."""
    _contact(game)
    goto(game, "fire-veteran", 2)
    play(game, "ranging fo dice=6,1" if how == "lost" else "ranging fo unseen dice=5,3,2,2")
    goto(game, "fire-veteran", 3)
    refused(game, "ffe fo", rule="BI-R103")
    facts = play(game, "ranging fo dice=5,1")
    assert [r.rule for r in rolls(facts)] == ["BI-R103", "A.11"]


@pytest.mark.audits("BI-R104", "BI-AMB-33", "BI-AMB-34")
def test_a_ranging_shot_he_sees_lets_him_order_fire_for_effect_next_turn_as_a_very_easy_action(game):
    """A.11: the shot landed where he sees it; the next turn he orders fire for effect: no
    die, no deviation, on the last ranging point with the area of the calibre (81 mm:
    5 and 10 cm); it is his activity (he may not fire after); he may order it again."""
    _contact(game)
    goto(game, "fire-veteran", 2)
    play(game, "ranging fo dice=5,1")
    refused(game, "ffe fo", rule="BI-R103")  # not in the turn of the ranging shot
    goto(game, "fire-veteran", 3)
    facts = play(game, "ffe fo")
    assert rolls(facts) == []
    assert any("ranging point" in n and "5 cm" in n and "10 cm" in n for n in notes(facts))
    refused(game, "fire fo tariq range=20", rule="BI-R030")
    goto(game, "fire-veteran", 4)
    assert rolls(play(game, "ffe fo")) == []


@pytest.mark.audits("BI-R104", "BI-AMB-32")
def test_the_fire_shifts_up_to_20_cm_with_a_ranging_shot_that_does_not_deviate(game):
    """A.11: instead of fire for effect he may shift the fire 20 cm with a new ranging shot
    that lands exactly: 20 cm yes, 20.5 no; then fire for effect the next turn."""
    _contact(game)
    goto(game, "fire-veteran", 2)
    play(game, "ranging fo dice=5,1")
    goto(game, "fire-veteran", 3)
    refused(game, "shift fo 20.5", rule="BI-R104")
    facts = play(game, "shift fo 20")
    assert rolls(facts) == [] and any("lands exactly 20 cm" in n for n in notes(facts))
    goto(game, "fire-veteran", 4)
    assert any("ranging point" in n for n in notes(play(game, "ffe fo")))


@pytest.mark.audits("BI-R105")
def test_smoke_shells_are_fired_as_fire_for_effect(game):
    """A.11 and A.14.2: fire for effect with smoke lays a cloud of the calibre's size
    (81 mm: 5 deep, 6 x 10 = 60 cm long) that lasts 6 + 1d6 turns (a 2: 8 turns)."""
    _contact(game)
    goto(game, "fire-veteran", 2)
    play(game, "ranging fo dice=5,1")
    goto(game, "fire-veteran", 3)
    facts = play(game, "ffe fo smoke dice=2")
    assert [r.faces for r in rolls(facts)] == [(2,)]
    clouds = [v for k, v in game.state.vars.items() if k.startswith("smoke.") and v]
    assert len(clouds) == 1 and "5 x 60" in str(clouds[0])
