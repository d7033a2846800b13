"""A fourth look at Bassa Intensità (issue #46), a third held-out audit: morale,
observation, night and smoke, and the digest's proposed interpretations where they pick
(A.13, A.14, A.17), each case written from the book ("MORALE", "EFFETTI DEL MORALE",
"OSSERVAZIONE") and its digest alone.  The earlier rounds checked each modifier, each
effect and each cell of the day's matrix; these cases aim where they did not: a chance
at zero or below, the flight of a wounded man and of a vehicle, what "si butta a terra
(solo fanteria)" leaves a vehicle, a shocked vehicle's move, when in the turn a side may
look and at whom, and the matrix's every cell at night and after the target fired."""

from __future__ import annotations

from decimal import Decimal

import pytest
from audit_bi_early import goto, new_game, outcomes, play, refused, rolls, table, vehicle

#: An "open" carrier (A.14.1: an open vehicle, or a tank with its commander out of the
#: hatch) and a Red armoured car, beside the audit's table.
EXTRA = (
    vehicle("scout", "blue", "regular", "mg", roles=("wheeled-apc", "open")),
    vehicle("btr", "red", "regular", "mg", roles=("armoured-car",)),
)


game = table(extra=EXTRA)
dark = table("dark", night="dark", extra=EXTRA)


def _fled(facts) -> list[Decimal]:
    return [Decimal(str(e.cm)) for e in facts if type(e).__name__ == "Moved"]


def _morale(facts) -> list[int | None]:
    return [r.target for r in rolls(facts, "A.13.2")]


# ------------------------------------------------------- A.13 morale


@pytest.mark.audits("BI-R181", "BI-R003", "BI-AMB-03")
def test_a_pass_chance_below_one_always_fails(game):
    """A.13.2: Rabble 2 + 3 = 5; wounded -3, isolated -2, under automatic fire -2: -2.  A.2
    (BI-R003): a chance of 0 or less never succeeds, a 1 fails too."""
    play(game, "mark marmo wounded")
    facts = play(game, "morale marmo m7 isolated fire dice=1,1")
    assert "fail" in outcomes(facts, "A.13.2")[0]


@pytest.mark.audits("BI-R181")
def test_each_seriously_wounded_friend_within_10_cm_counts(game):
    """A.13.2: "Ogni ferito grave entro cm.10 : -1": three of them, -3: Regular 7 - 3 = 4,
    in light cover +1: 5."""
    facts = play(game, "morale carlo m7 light near=3 dice=5")
    assert _morale(facts) == [5] and "fail" not in outcomes(facts, "A.13.2")[0]


@pytest.mark.audits("BI-R182", "BI-R042", "BI-AMB-45")
def test_a_wounded_man_in_panic_flees_half_of_a_run(game):
    """A.13.3: Panic, "Fugge alla massima velocità"; at a run, 24 cm, and a wounded man moves
    at -50% (A.6.1, BI-AMB-45 "modified by BI-R042"): he flees 12 cm, then is Shocked."""
    play(game, "mark bruno wounded")
    facts = play(game, "morale bruno m7 dice=10,4")
    assert _fled(facts) == [12]
    assert game.state.units["bruno"].has("shocked")


@pytest.mark.audits("BI-R182", "BI-R183", "BI-AMB-45")
def test_an_undamaged_tank_in_panic_flees_its_full_allowance_and_never_surrenders(game):
    """A.13.3: an undamaged armoured crew's die is -2, so a 6 is a 4: Panic, not surrender;
    it flees "alla massima velocità", a tank's 60 cm (A.6.2), and its crew stays aboard."""
    facts = play(game, "morale ariete m7 dice=10,6")
    assert outcomes(facts, "A.13.3") == ["panic"]
    assert _fled(facts) == [60]
    assert game.state.units["ariete"].in_play


@pytest.mark.audits("BI-R182", "BI-AMB-43")
def test_a_shocked_tank_does_not_lie_down(game):
    """A.13.3: Shocked "Si butta a terra (solo fanteria)": the tank's crew is shocked and the
    tank is not prone; a shocked man is."""
    play(game, "morale tank2 m7 dice=10,1", "morale carlo m7 dice=10,1")
    assert game.state.units["tank2"].has("shocked") and not game.state.units["tank2"].has("prone")
    assert game.state.units["carlo"].has("shocked") and game.state.units["carlo"].has("prone")


@pytest.mark.audits("BI-R182", "BI-AMB-20")
def test_a_shocked_tank_moves_only_away_from_the_enemy(game):
    """A.13.3: "nessun movimento verso il nemico ... il prossimo turno": the shocked tank may
    back away (its full 60 cm; it has no ground to stand up from) but not advance."""
    play(game, "morale tank2 m7 dice=10,1")
    goto(game, "move-first", 2)
    refused(game, "@blue move tank2 30", rule="BI-R182")
    assert _fled(play(game, "@blue move tank2 60 away")) == [60]


@pytest.mark.audits("BI-R182", "BI-AMB-20")
def test_a_man_in_panic_counts_as_shocked_through_the_next_turn(game):
    """A.13.3: after his flight "si considera Shoccato": panicked in turn 1's fire phase, he
    neither fires in turn 2 nor makes opportunity fire in it; in turn 3 he fires."""
    goto(game, "fire-elite", 1)
    play(game, "morale carlo m7 dice=10,5")
    goto(game, "move-first", 2)
    goto(game, "move-second", 2)
    play(game, "@red move omar 5")
    refused(game, "@blue fire carlo omar range=30", rule="BI-R182")
    goto(game, "fire-regular", 2)
    refused(game, "fire carlo tariq range=30", rule="BI-R182")
    goto(game, "fire-regular", 3)
    assert rolls(play(game, "fire carlo tariq range=30 dice=10"), "A.9.4")


@pytest.mark.audits("BI-R182", "BI-R184")
def test_a_shocked_man_who_passes_a_later_check_stays_shocked(game):
    """A.13.3: passing a check takes nothing away: Carlo, shocked, passes his next check and
    is still shocked (his shock lasts to the end of the next turn)."""
    play(game, "morale carlo m7 dice=10,2", "morale carlo m7 dice=1")
    assert game.state.units["carlo"].has("shocked")


@pytest.mark.audits("BI-R182", "BI-R184")
def test_a_vehicle_crew_shocked_again_panics(game):
    """A.13.3: "Unità già Shoccate che subiscono un ulteriore risultato di Shoccato si
    considerano in Panico": the truck (unarmoured: no -2) shocked on a 2 and again on a 3
    flees: its crew's Panic, at its full speed."""
    play(game, "morale camion m7 dice=10,2")
    facts = play(game, "morale camion m7 dice=10,3")
    assert _fled(facts) and game.state.units["camion"].has("shocked")


@pytest.mark.audits("BI-R180", "BI-R181")
def test_a_vehicle_checks_at_its_crews_quality(game):
    """A.13.2: base + 3 of the crew: the Ariete (Veteran) 8, the truck (Regular) 7; one roll
    each for the whole crew (A.13.2 "collettivamente")."""
    assert _morale(play(game, "morale ariete m7 dice=1")) == [8]
    assert _morale(play(game, "morale camion m7 dice=1")) == [7]


# ------------------------------------------------------- A.14 when and whom to observe


@pytest.mark.parametrize("phase", ["cover", "fire-elite", "fire-regular"])
@pytest.mark.audits("BI-R160")
def test_no_observation_of_a_still_man_inside_a_phase(game, phase):
    """A.14.1: "Alla fine della fase di movimento ed alla fine della fase di tiro": not
    before the movement nor in the middle of the fire phase."""
    play(game, "mark tariq hidden")
    goto(game, phase, 1)
    refused(game, "observe bruno tariq dice=1", rule="ENG-2")


@pytest.mark.parametrize("phase", ["observe", "end"])
@pytest.mark.audits("BI-R160")
def test_observation_at_the_end_of_either_phase(game, phase):
    """A.14.1: at the end of the movement and at the end of the fire phase a side looks:
    a man still in the open is Normal for infantry, 4."""
    play(game, "mark tariq hidden")
    goto(game, phase, 1)
    assert [r.target for r in rolls(play(game, "observe bruno tariq dice=5"))] == [4]


@pytest.mark.audits("BI-R162", "BI-R160")
def test_during_the_movement_only_a_mover_is_observed(game):
    """A.14.1: "durante la fase di movimento ... osservare tutte le unità nemiche che muovono":
    in Red's movement Bruno may look at Omar, who moves (in the open, Very Easy), not at
    Tariq, who stays hidden and still."""
    play(game, "mark tariq hidden", "mark omar hidden")
    goto(game, "move-second", 1)
    refused(game, "observe bruno tariq dice=1", rule="BI-R162")
    play(game, "@red move omar 5")
    facts = play(game, "observe bruno omar")
    assert rolls(facts) == [] and "blue" in game.state.units["omar"].spotted_by


# ------------------------------------------------------- A.14 the matrix at night and after fire

NIGHT_INFANTRY = [
    # (target, moves, cover, chance) an infantry observer (Regular, 4) at night: one level
    # harder than by day (Very Easy 8 = Easy, Easy 4 = Normal, Normal 2 = Difficult, NO)
    ("tariq", True, False, 8),
    ("tariq", True, True, 4),
    ("tariq", False, False, 2),
    ("tariq", False, True, None),
    ("btr", True, False, 8),
    ("btr", True, True, 4),
    ("btr", False, False, 4),
    ("btr", False, True, 2),
]
NIGHT_OPEN = [
    # the same, seen from an "open" vehicle (the Scout's Regular crew)
    ("tariq", True, False, 4),
    ("tariq", True, True, None),
    ("tariq", False, False, 2),
    ("tariq", False, True, None),
    ("btr", True, False, 8),
    ("btr", True, True, 4),
    ("btr", False, False, 4),
    ("btr", False, True, 2),
]


def _label(row) -> str:
    target, moves, cover, _ = row
    return f"{target}-{'moving' if moves else 'still'}-{'cover' if cover else 'open'}"


def _look(g, observer: str, target: str, moves: bool, cover: bool, chance: int | None, face: int = 1):
    play(g, f"mark {target} hidden")
    goto(g, "move-second", 1)
    if moves:
        play(g, f"@red move {target} 5")
    goto(g, "observe", 1)
    line = f"observe {observer} {target}{' cover' if cover else ''}"
    if chance is None:
        refused(g, f"{line} dice={face}", rule="BI-R165")
        return
    facts = play(g, line if chance >= 10 else f"{line} dice={min(chance, 10)}")
    assert [r.target for r in rolls(facts)] == ([] if chance >= 10 else [chance])
    assert outcomes(facts) in ([], ["spotted"])


@pytest.mark.parametrize(
    ("target", "moves", "cover", "chance"), NIGHT_INFANTRY, ids=[_label(r) for r in NIGHT_INFANTRY]
)
@pytest.mark.audits("BI-R165", "BI-R069")
def test_the_infantry_column_at_night(dark, target, moves, cover, chance):
    """A.14.1: the table "peggiorata di un livello se di notte": infantry observing, each row
    one level harder; NO stays NO (impossible)."""
    _look(dark, "carlo", target, moves, cover, chance)


@pytest.mark.parametrize(("target", "moves", "cover", "chance"), NIGHT_OPEN, ids=[_label(r) for r in NIGHT_OPEN])
@pytest.mark.audits("BI-R165", "BI-R069", "BI-R167")
def test_the_open_vehicle_column_at_night(dark, target, moves, cover, chance):
    """A.14.1: an "open" vehicle observing at night: Easy -> Normal, Difficult -> NO, Normal
    -> Difficult, NO; a vehicle moving in the open Very Easy -> Easy; Easy -> Normal;
    Normal -> Difficult."""
    _look(dark, "scout", target, moves, cover, chance)


FIRED_CLOSED = [
    # (target, cover, chance) a closed vehicle (the Veteran Ariete, 5) at a still target that
    # fired in the fire phase: one level easier (Difficult 3 -> Normal 5, NO -> Difficult 3,
    # Normal -> Easy 10, Difficult -> Normal 5)
    ("tariq", False, 5),
    ("tariq", True, 3),
    ("btr", False, 10),
    ("btr", True, 5),
]


@pytest.mark.parametrize(
    ("target", "cover", "chance"), FIRED_CLOSED, ids=[f"{t}-{'cover' if c else 'open'}" for t, c, _ in FIRED_CLOSED]
)
@pytest.mark.audits("BI-R165", "BI-R069", "BI-R002")
def test_the_closed_vehicle_column_at_a_target_that_fired(game, target, cover, chance):
    """A.14.1: "migliorata di un livello se il bersaglio da osservare ha sparato nella fase":
    a still target that fired in the fire phase, seen from a closed tank at the end of it;
    ½ x 5 = 2.5 rounds up to 3 (A.2), 2 x 5 = 10 can never fail and rolls no die."""
    play(game, f"mark {target} hidden")
    goto(game, "fire-regular", 1)
    misses = "10,10,10" if target == "btr" else "10,10"  # the BTR's MG fires 3 shots, the rifle 2
    play(game, f"@red fire {target} bruno range=30 dice={misses}")
    goto(game, "end", 1)
    line = f"observe ariete {target}{' cover' if cover else ''}"
    facts = play(game, line if chance >= 10 else f"{line} dice={chance}")
    assert [r.target for r in rolls(facts)] == ([] if chance >= 10 else [chance])
    assert outcomes(facts) in ([], ["spotted"])


# ------------------------------------------------------- crossings


@pytest.mark.audits("BI-R165", "BI-R050", "BI-R160")
def test_opportunity_fire_makes_the_firer_easier_to_see_at_the_end_of_the_movement(game):
    """A.14.1: one level easier "se il bersaglio da osservare ha sparato nella fase"; A.7:
    opportunity fire is fire in the movement phase: Tariq, hidden and still in the open, fires
    at Bruno as he moves; at the end of that phase Carlo finds him Easy, 2 x 4 = 8 (Normal by
    day, 4, had he not fired)."""
    play(game, "mark tariq hidden")
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5", "@red fire tariq bruno range=30 dice=10,10")
    goto(game, "observe", 1)
    assert [r.target for r in rolls(play(game, "observe carlo tariq dice=8"))] == [8]


@pytest.mark.audits("BI-R183", "BI-R182")
def test_a_damaged_elite_tank_in_panic_on_a_six(tmp_path, monkeypatch):
    """A.13.3: a damaged armoured vehicle's crew loses the -2, an Elite one keeps its -1: a 6
    is a 5, Panic: it flees, and its crew does not abandon it."""
    g = new_game(tmp_path, monkeypatch, extra=(vehicle("leo", "blue", "elite", "gun-heavy", roles=("tank",)),))
    play(g, "mark leo damaged")
    facts = play(g, "morale leo m7 dice=10,6")
    assert outcomes(facts, "A.13.3") == ["panic"] and g.state.units["leo"].in_play


@pytest.mark.audits("BI-R182", "BI-R183")
def test_a_damaged_regular_tank_abandoned_on_a_six(game):
    """A.13.3: "Se è un veicolo l'equipaggio abbandona il mezzo e va in panico": a damaged
    tank (no -2) of a Regular crew on a 6 is given up."""
    play(game, "mark tank2 damaged")
    facts = play(game, "morale tank2 m7 dice=10,6")
    assert len(outcomes(facts, "A.13.3")) == 1
    assert not game.state.units["tank2"].in_play


# ------------------------------------------------------- a third batch: flight, what a side sees, one flag


@pytest.mark.parametrize(("wounded", "fled"), [(False, 18), (True, 6)], ids=["prone-18", "prone-and-wounded-6"])
@pytest.mark.audits("BI-R182", "BI-R042", "BI-AMB-45", "BI-AMB-12")
def test_a_man_lying_down_in_panic_stands_up_to_flee(game, wounded, fled):
    """A.13.3 and BI-AMB-45: the flight is the man's maximum allowance "modified per
    BI-R042": running 24, standing up -25%: 18; wounded too, -75%: 6."""
    play(game, "mark carlo prone", *(("mark carlo wounded",) if wounded else ()))
    facts = play(game, "morale carlo m7 dice=10,4")
    assert outcomes(facts, "A.13.3") == ["panic"] and _fled(facts) == [fled]


@pytest.mark.audits("BI-R161", "BI-R052")
def test_a_man_seen_at_the_end_of_the_fire_phase_may_be_given_covering_fire_next_turn(game):
    """A.14.1: seen at the end of the fire phase, he may be fired at "dalla fase di movimento
    del turno successivo"; covering fire at a visible enemy is declared as that phase begins
    and is opportunity fire (A.7): at ½, 4 / 2 = 2, twice for the assault rifle."""
    play(game, "mark tariq hidden")
    goto(game, "end", 1)
    play(game, "observe carlo tariq dice=1")
    goto(game, "cover", 2)
    facts = play(game, "@blue fire bruno tariq range=30 dice=10,10")
    assert [r.target for r in rolls(facts, "A.9.4")] == [2, 2]


@pytest.mark.audits("BI-R165", "BI-R052", "BI-R160")
def test_covering_fire_is_fire_in_the_movement_phase_for_the_firers_observation(game):
    """A.5: covering fire is declared in the movement phase ("2. MOVIMENTO: ... indicano quali
    delle loro unità effettuano tiri di copertura"); A.14.1: a target that "ha sparato nella
    fase" is one level easier: Tariq, hidden and still in the open, puts covering fire on
    Bruno, and at the end of the movement Carlo finds him Easy, 8."""
    play(game, "mark tariq hidden")
    goto(game, "cover", 1)
    play(game, "@red fire tariq bruno range=30 dice=10,10")
    goto(game, "observe", 1)
    assert [r.target for r in rolls(play(game, "observe carlo tariq dice=8"))] == [8]


@pytest.mark.audits("BI-R027", "BI-R140", "BI-R181", "BI-AMB-40")
def test_a_combat_vehicle_whose_radio_is_lost_is_isolated_once(game):
    """A.4 and A.12.4: a combat vehicle made of an armed transport is always isolated for
    morale, and so is one whose radio is destroyed: it is one state, -2 once: 7 - 2 = 5."""
    play(game, "@blue combat puma", "mark puma radio-out")
    assert _morale(play(game, "morale puma m7 dice=1")) == [5]


@pytest.mark.audits("BI-R030", "BI-R171", "BI-AMB-48")
def test_a_vehicle_that_fires_its_dischargers_in_the_movement_does_not_move(tmp_path, monkeypatch):
    """A.14.2 and BI-AMB-48: smoke is its fire; a vehicle that fired its dischargers in the
    movement phase (A.5: "lanciano fumo" while moving) has had its one activity (A.5): it
    neither moves nor fires after."""
    g = new_game(
        tmp_path, monkeypatch, extra=(vehicle("leo", "blue", "regular", "gun-heavy", roles=("tank", "dischargers")),)
    )
    goto(g, "move-first", 1)
    play(g, "@blue smoke leo dice=2")
    refused(g, "@blue move leo 30", rule="BI-R030")
    goto(g, "fire-regular", 1)
    refused(g, "fire leo tariq range=30", rule="BI-R030")


@pytest.mark.audits("BI-R163", "BI-R161")
def test_a_man_seen_stays_seen_into_the_next_turn(game):
    """A.14.1: "Una volta osservata una unità resterà tale finché non sparirà dietro un
    ostacolo": spotted at the end of turn 1's movement, Tariq is fired at in turn 2's fire
    phase with no new observation."""
    play(game, "mark tariq hidden")
    goto(game, "observe", 1)
    play(game, "observe carlo tariq dice=1")
    goto(game, "fire-regular", 2)
    assert rolls(play(game, "fire bruno tariq range=30 dice=10,10"), "A.9.4")
