"""Audit of Bassa Intensità A.14, observation, night and smoke, written from the rulebook
and its digest alone: the observation matrix cell by cell at the edge of its chance, its
shifts (fired, night), when observation may be tried and what it allows, smoke's duration
and size."""

from __future__ import annotations

import pytest
from audit_bi_late import goto, late_table, outcomes, play, refused, unit

from core.log.views import unit_visible
from core.refusal import TYPING

game = late_table()
moon = late_table("moon", night="moon")
long_game = late_table("long_game", turns=0)


def seen(g, uid, side="blue") -> bool:
    return unit_visible(unit(g, uid), side)


def edge(g, observer, target, chance, how="", side="blue"):
    """Observe at one above the chance (nothing seen), then at the chance (spotted)."""
    if chance < 10:
        facts = play(g, f"observe {observer} {target}{how} dice={chance + 1}")
        assert outcomes(facts) == [("BI-R165", chance, "nothing seen")] and not seen(g, target, side)
        play(g, "undo")  # one attempt at him at the end of the phase (BI-R164)
    facts = play(g, f"observe {observer} {target}{how} dice={chance}")
    assert outcomes(facts) == [("BI-R165", chance, "spotted")] and seen(g, target, side)


# ------------------------------------------------------------------ A.14.1 the matrix


@pytest.mark.audits("BI-R164", "BI-R165", "BI-R167")
@pytest.mark.parametrize(
    ("observer", "target", "cover", "chance"),
    [
        ("capo", "omar", "", 4),  # infantry still in the open, by infantry: Normal, Regular 4
        ("capo", "omar", " cover", 2),  # ... in cover: Difficult, ½ × 4
        ("lince", "omar", "", 4),  # by an "open" vehicle: Normal
        ("ariete", "omar", "", 3),  # by a closed vehicle: Difficult, ½ × 5 rounded up
        ("capo", "tecnica", " cover", 4),  # vehicle still in cover, by infantry: Normal
        ("lince", "tecnica", " cover", 4),  # by an open vehicle: Normal
        ("ariete", "tecnica", " cover", 3),  # by a closed vehicle: Difficult
        ("capo", "tecnica", "", 8),  # vehicle still in the open, by infantry: Easy, 2 × 4
        ("ariete", "tecnica", "", 5),  # by a closed vehicle: Normal, Veteran 5
        ("lince", "tecnica", "", 8),  # by an open vehicle: Easy, 2 × 4
    ],
)
def test_the_observation_matrix_still_targets(game, observer, target, cover, chance):
    """BI-R165 (stationary rows), as an Action of BI-R066 (BI-R164): Easy 2 × Quality,
    Normal Quality, Difficult ½ × Quality rounded up; the chance spots, one more does not.
    BI-R167: an "open" vehicle observes better than a closed one."""
    play(game, f"mark {target} hidden")
    goto(game, "observe")
    edge(game, observer, target, chance, cover)


@pytest.mark.audits("BI-R165")
@pytest.mark.parametrize(("observer", "cover"), [("lince", " cover"), ("ariete", " cover")])
def test_no_observation_of_infantry_still_in_cover_from_a_vehicle(game, observer, cover):
    """BI-R165: infantry stationary in cover: NO for an open and for a closed vehicle."""
    play(game, "mark omar hidden")
    goto(game, "observe")
    refused(game, f"observe {observer} omar{cover}", match="NO", rule="BI-R165")


@pytest.mark.audits("BI-R165", "BI-R162")
@pytest.mark.parametrize(
    ("observer", "target", "cover", "chance"),
    [
        ("capo", "hassan", "", 10),  # infantry moving in the open, by infantry: Very Easy
        ("capo", "hassan", " cover", 8),  # moving in cover: Easy
        ("lince", "hassan", "", 8),  # by an open vehicle, in the open: Easy
        ("lince", "hassan", " cover", 2),  # in cover: Difficult
        ("ariete", "hassan", "", 5),  # by a closed vehicle, in the open: Normal
        ("capo", "bmp", " cover", 8),  # vehicle moving in cover, by infantry: Easy
        ("ariete", "bmp", "", 10),  # vehicle moving in the open, by a closed one: Easy (2 × 5)
        ("ariete", "bmp", " cover", 5),  # moving in cover, by a closed one: Normal
        ("capo", "bmp", "", 10),  # vehicle moving in the open, by infantry: Very Easy
        ("lince", "bmp", "", 10),  # by an open vehicle: Very Easy
        ("lince", "bmp", " cover", 8),  # moving in cover, by an open vehicle: Easy
    ],
)
def test_the_observation_matrix_moving_targets(game, observer, target, cover, chance):
    """BI-R165 (moving rows); BI-R162: a moving enemy may be observed during the
    movement phase, at any moment."""
    play(game, f"mark {target} hidden")
    goto(game, "move-second")  # red moves second
    play(game, f"@red move {target} 4")
    if chance >= 10:
        facts = play(game, f"observe {observer} {target}{cover}")
        assert outcomes(facts) == [] and seen(game, target)  # very easy: no roll
    else:
        edge(game, observer, target, chance, cover)


@pytest.mark.audits("BI-R165")
def test_infantry_moving_in_cover_is_not_seen_from_a_closed_vehicle(game):
    """BI-R165: infantry moving in cover, by a closed vehicle: NO."""
    play(game, "mark hassan hidden")
    goto(game, "move-second")
    play(game, "@red move hassan 4")
    refused(game, "observe ariete hassan cover", match="NO", rule="BI-R165")


@pytest.mark.audits("BI-R165")
def test_a_target_that_fired_is_one_level_easier(game):
    """BI-R165: improve one level if the target fired during the phase: NO → Difficult
    (a closed vehicle, infantry still in cover: ½ × 5 = 3); Difficult → Normal."""
    play(game, "mark omar hidden", "mark ali hidden")
    goto(game, "fire-regular")
    play(game, "@red fire omar capo range=20 dice=9,9")
    goto(game, "end")
    edge(game, "ariete", "omar", 3, " cover")
    edge(game, "capo", "ali", 2, " cover")  # Ali did not fire: Difficult, ½ × 4


@pytest.mark.audits("BI-R165")
@pytest.mark.parametrize(
    ("observer", "cover", "chance"),
    [("capo", "", 2), ("ariete", "", 0), ("capo", " cover", 0), ("leo", "", 3)],
)
def test_night_is_one_level_harder(moon, observer, cover, chance):
    """BI-R165: worsen one level at night: Normal → Difficult (Regular 2, Elite 3);
    Difficult → NO."""
    play(moon, "mark omar hidden")
    goto(moon, "observe")
    if chance == 0:
        refused(moon, f"observe {observer} omar{cover}", match="NO", rule="BI-R165")
    else:
        edge(moon, observer, "omar", chance, cover)


# ------------------------------------------------------------- A.14.1 when, and then


@pytest.mark.audits("BI-R160", "BI-R161", "BI-R166", "BI-AMB-63")
def test_observed_at_the_end_of_the_movement_he_is_fired_at_in_the_fire_phase(game):
    """BI-AMB-63: a hidden unit is not visible to the enemy until observed; BI-R160: the
    attempt is made at the end of the movement phase (and of the fire phase); BI-R161:
    seen at the end of the movement, he may be fired at from the fire phase; BI-R166: the
    observer who moved still observes, and observing costs him nothing: he fires after."""
    play(game, "mark omar hidden")
    assert not seen(game, "omar") and seen(game, "omar", "red")
    goto(game, "move-first")
    play(game, "@blue move capo 10")
    refused(
        game, "observe capo omar dice=1", "only moving enemies", rule="BI-R162"
    )  # during movement only movers (BI-R162)
    goto(game, "observe")
    play(game, "observe capo omar dice=5")  # he moved, and still observes: Normal, 4
    assert not seen(game, "omar")
    play(game, "undo")  # one attempt at him at the end of the phase (BI-R164): Bruno's instead
    play(game, "observe bruno omar dice=4")
    assert seen(game, "omar")
    goto(game, "fire-regular")
    facts = play(game, "@blue fire bruno omar range=20 dice=9,9")
    assert [o for _, _, o in outcomes(facts, "A.9.4")] == ["miss", "miss"]


@pytest.mark.audits("BI-R161", "BI-R160")
def test_a_hidden_man_is_not_fired_at_and_one_seen_at_the_end_of_the_fire_phase_waits(game):
    """BI-R161: a unit observed at the end of the fire phase can be fired at only from the
    movement phase of the next turn: no fire phase of this turn follows the end."""
    play(game, "mark omar hidden")
    goto(game, "fire-regular")
    refused(game, "@blue fire bruno omar range=20 dice=9,9", match="no unit 'omar'", rule=TYPING)
    goto(game, "end")
    play(game, "observe carlo omar dice=4")
    assert seen(game, "omar")
    play(game, "next")
    assert game.state.phase == "initiative" and game.state.turn == 2
    # from the movement of the next turn: opportunity fire as he moves
    goto(game, "move-second", 2)
    play(game, "@red move omar 4")
    facts = play(game, "@blue fire capo omar range=20 dice=9,9")
    assert [t for _, t, _ in outcomes(facts, "A.9.4")] == [2, 2]


@pytest.mark.audits("BI-R166")
def test_a_man_who_fired_still_observes_at_the_end_of_the_fire_phase(game):
    """BI-R166: observation is not an Action: a man who fired observes at the end of the
    fire phase all the same."""
    play(game, "mark omar hidden")
    goto(game, "fire-regular")
    play(game, "@blue fire bruno hassan range=20 dice=9,9")
    goto(game, "end")
    facts = play(game, "observe bruno omar dice=4")
    assert outcomes(facts) == [("BI-R165", 4, "spotted")]


@pytest.mark.audits("BI-R165")
def test_having_fired_helps_only_in_the_phase_it_fired(game):
    """BI-R165: "if the target fired during the phase": Omar fired in turn 1; at the end of
    the movement of turn 2 he has not, and a closed vehicle cannot see him in cover (NO)."""
    play(game, "mark omar hidden")
    goto(game, "fire-regular")
    play(game, "@red fire omar capo range=20 dice=9,9")
    goto(game, "end")
    play(game, "observe ariete omar cover dice=4")  # Difficult: 3; a 4 fails
    goto(game, "observe", 2)
    refused(game, "observe ariete omar cover dice=1", match="NO", rule="BI-R165")


@pytest.mark.audits("BI-R162")
def test_a_mover_observed_during_the_movement_is_engaged_at_once(game):
    """BI-R162: a moving enemy observed during the movement phase is engaged at once with
    opportunity fire (halved)."""
    play(game, "mark hassan hidden")
    goto(game, "move-second")
    play(game, "@red move hassan 4")
    play(game, "observe capo hassan")  # in the open: very easy
    facts = play(game, "@blue fire capo hassan range=20 dice=9,9")
    assert [t for _, t, _ in outcomes(facts, "A.9.4")] == [2, 2]  # 4, halved for opportunity fire


@pytest.mark.audits("BI-R163")
def test_once_observed_he_stays_observed(game):
    """BI-R163: once observed, a unit stays observed until it disappears from every enemy
    (the referee hides him again): a second attempt is refused; after the referee hides
    him, he must be observed again."""
    play(game, "mark omar hidden")
    goto(game, "observe")
    play(game, "observe bruno omar dice=4")
    refused(game, "observe capo omar dice=1", match="already seen", rule="BI-R163")
    goto(game, "end")
    assert seen(game, "omar")
    play(game, "clear omar hidden", "mark omar hidden")
    assert not seen(game, "omar")
    play(game, "observe capo omar dice=4")
    assert seen(game, "omar")


@pytest.mark.audits("BI-R258")
def test_a_helicopter_is_heard_even_when_still(game):
    """BI-R258: a helicopter counts as a moving vehicle for observation even when still:
    vehicle moving in the open, by a closed vehicle: Easy, 2 × 2 = 4 for the Rabble
    technical (still, it would be Normal: 2)."""
    play(game, "mark lynx hidden")
    goto(game, "observe")
    edge(game, "tecnica", "lynx", 4, "", side="red")


# --------------------------------------------------------------------- A.14.2 smoke


@pytest.mark.audits("BI-R170", "BI-R171", "BI-AMB-48")
def test_a_smoke_grenade_lasts_six_turns_and_a_d6(long_game):
    """BI-R171: all smoke lasts 6 turns + 1d6; a hand grenade's is 5 × 20 cm; BI-AMB-48:
    thrown as the thrower's fire, no hit roll, counted from the turn it takes effect: thrown
    in turn 1 with a 1, it lasts turns 1 to 7 and lifts at the end of turn 7."""
    game = long_game
    goto(game, "fire-regular")
    facts = play(game, "@blue smoke capo dice=1")
    assert outcomes(facts) == [("BI-R171", None, "7 turns")]
    assert unit(game, "capo").has("fired")
    refused(game, "@blue fire capo omar range=20 dice=9,9", "already", rule="BI-R030")  # the smoke was his fire
    (smoke,) = [v for k, v in game.state.vars.items() if k.startswith("smoke.") and v]
    assert smoke.startswith("grenade|5 x 20|")
    goto(game, "end", 6)
    play(game, "next")
    assert any(k.startswith("smoke.") and v for k, v in game.state.vars.items())
    goto(game, "end", 7)
    play(game, "next")
    assert not any(k.startswith("smoke.") and v for k, v in game.state.vars.items())


@pytest.mark.audits("BI-R171")
def test_a_vehicles_smoke_dischargers_make_a_horseshoe(long_game):
    """BI-R171: vehicle smoke dischargers: a horseshoe 5 cm deep at 10 cm from the vehicle
    across its frontal 180°, lasting 6 + 1d6 turns (a 2: turns 1 to 8)."""
    game = long_game
    goto(game, "fire-regular")
    facts = play(game, "@blue smoke leopard dice=2")
    assert outcomes(facts) == [("BI-R171", None, "8 turns")]
    (smoke,) = [v for k, v in game.state.vars.items() if k.startswith("smoke.") and v]
    kind, size, _who, last = smoke.split("|")
    assert (kind, last) == ("dischargers", "8")
    assert "5 cm deep" in size and "10 cm" in size and "180" in size
    refused(game, "@blue smoke lince", match="no smoke dischargers", rule="BI-R170")


@pytest.mark.audits("BI-R171", "BI-AMB-47", "BI-R170")
@pytest.mark.parametrize(("mm", "size"), [(102, "5 x 60 cm"), (103, "8 x 90 cm")])
def test_smoke_shells_are_the_short_distance_by_six_long_distances(long_game, mm, size):
    """BI-AMB-47: a shell's smoke is the Short area distance deep and 6 × the Long long:
    a mortar under 103 mm 5 × 60 cm, one of 103 mm or more 8 × 90 cm; BI-R170: shells
    fired as fire for effect; 6 + 1d6 turns (a 6: twelve)."""
    game = long_game
    goto(game, "fire-veteran")
    play(game, f"@blue call fo dedicated mm={mm} dice=1")
    goto(game, "fire-veteran", 2)
    play(game, "@blue ranging fo dice=1,1")
    goto(game, "fire-veteran", 3)
    facts = play(game, "@blue ffe fo smoke dice=6")
    assert outcomes(facts, "BI-R171") == [("BI-R171", None, "12 turns")]
    (smoke,) = [v for k, v in game.state.vars.items() if k.startswith("smoke.") and v]
    assert smoke.startswith(f"shells|{size}|") and smoke.endswith("|14")
