"""A fifth look at Bassa Intensità (issue #46), a fourth held-out audit of dice, quality,
command and isolation, the sequence of play, movement, opportunity and covering fire,
actions, morale, observation and smoke, aircraft and helicopters (A.2-A.8, A.13-A.15, and
the digest's A.17 proposals for them), each case written from the book ("DADI", "QUALITA'",
"UNITA' e DISTANZE DI COMANDO", "SEQUENZA DI GIOCO", "MOVIMENTO", "TIRI DI OPPORTUNITA'",
"TIRI DI COPERTURA", "AZIONI", "MORALE", "OSSERVAZIONE", "AEREI ed ELICOTTERI") and its
digest alone, or after trying the engine by hand.  Earlier rounds checked each table cell;
these cases cross them: a leader replaced, and the distance his lower ability gives; a wound
inside an action's difficulty; an isolated man's one test across the phases of a turn; who
may still look, fire or act after what; the morale check of a squad whose leader fell."""

from __future__ import annotations

import pytest
from audit_bi_early import goto, has_moved, man, new_game, outcomes, play, refused, rolls, table, vehicle
from audit_common import moved as _fled

#: Beside the audit's table: an Elite squad led by a Rabble-ability leader, a Rabble squad
#: led by an Elite-ability one, an Elite section (A.4: "qualsiasi combinazione"), and an
#: Elite tank (A.13.3: the effects die of an undamaged armoured Elite crew).
EXTRA = (
    man("capo", "blue", "elite", "assault-rifle", team="EL", roles=("leader",), ability=2),
    man("ely", "blue", "elite", "assault-rifle", team="EL"),
    man("ely2", "blue", "elite", "assault-rifle", team="EL"),
    man("boss", "blue", "rabble", "pistol", team="RB", roles=("leader",), ability=6),
    man("ragtag", "blue", "rabble", "pistol", team="RB"),
    man("ragtag2", "blue", "rabble", "pistol", team="RB"),
    man("esl", "blue", "elite", "assault-rifle", team="ES", roles=("section-leader",)),
    man("esm", "blue", "elite", "assault-rifle", team="ES"),
    man("esn", "blue", "elite", "assault-rifle", team="ES"),
    vehicle("leo", "blue", "elite", "gun-heavy", roles=("tank",)),
)


game = table(extra=EXTRA)


def _targets(facts, rule: str = "") -> list[int | None]:
    return [r.target for r in rolls(facts, rule)]


def _replace(game, dead: str, face: str) -> list:
    """``dead`` is killed in turn 1; as turn 2 begins his squad rolls for a new leader."""
    play(game, f"out {dead}")
    goto(game, "end", 1)
    return play(game, f"next dice={face}")


# ======================================================================= part 1: blind


# ------------------------------------------------------- A.4 a leader replaced


@pytest.mark.parametrize(
    ("dead", "quality", "mover", "edge"),
    [
        ("sarge", 4, "carlo", 6),  # Regular squad leader: a Recruit takes over, 6 cm
        ("capo", 6, "ely2", 4),  # a Rabble-ability leader: a Rabble again, 4 cm (BI-AMB-09)
        ("boss", 2, "ragtag2", 12),  # an Elite-ability leader of Rabble: a Veteran, 12 cm
        ("esl", 6, "esn", 6),  # an Elite section leader: a Veteran section leader, 6 cm
        ("cpl", 5, "vasco", 4),  # a Veteran section leader: a Regular one, 4 cm
    ],
    ids=["regular-squad", "rabble-leader-of-elite", "elite-leader-of-rabble", "elite-section", "veteran-section"],
)
@pytest.mark.audits("BI-R028", "BI-R021", "BI-R022", "BI-R024", "BI-AMB-09")
def test_the_new_leader_commands_one_level_below_the_dead_one(game, dead, quality, mover, edge):
    """A.4: "lanciare 1d10 all'inizio di ogni turno: se uguale o inferiore alla Qualità della
    squadra/sezione uno dei superstiti assume il ruolo ... con una abilità inferiore di un
    livello": the roll is under the squad's Quality (not the dead leader's ability); the new
    man's command distance is the row one below the dead leader's.  At its edge a man moves
    with no test; half a cm beyond it he tests."""
    facts = _replace(game, dead, str(quality))
    assert _targets(facts, "BI-R028") == [quality]
    goto(game, "move-first", 2)
    facts = play(game, f"@blue move {mover} 2 lead={edge}")
    assert _targets(facts, "BI-R024") == [] and has_moved(facts)
    goto(game, "move-first", 3)
    assert len(_targets(play(game, f"@blue move {mover} 2 lead={edge + 0.5} dice=1"), "BI-R024")) == 1


@pytest.mark.audits("BI-R028", "BI-R024")
def test_a_failed_replacement_roll_leaves_the_squad_isolated(game):
    """A.4: one over the squad's Quality and nobody takes over this turn: Carlo, a cm from
    where Sarge fell, is still isolated and tests (4) before he moves."""
    facts = _replace(game, "sarge", "5")
    assert _targets(facts, "BI-R028") == [4]
    goto(game, "move-first", 2)
    facts = play(game, "@blue move carlo 2 dice=5")
    assert _targets(facts, "BI-R024") == [4] and not has_moved(facts)


@pytest.mark.audits("BI-R028", "BI-R181", "BI-AMB-42")
def test_once_replaced_the_squad_checks_morale_with_no_leader_penalties(game):
    """A.4 and A.13.2: while Sarge is dead and not replaced Carlo checks at 7 - 2 (isolated)
    - 1 (commander killed) = 4; once Bruno has taken over, at 7 again."""
    play(game, "out sarge")
    assert _targets(play(game, "morale carlo m5 dice=1")) == [4]
    goto(game, "end", 1)
    play(game, "next dice=4")
    assert _targets(play(game, "morale carlo m5 dice=1")) == [7]


@pytest.mark.audits("BI-R028", "BI-AMB-10", "BI-R181")
def test_a_wounded_leader_leaves_his_squad_in_command(game):
    """A.4 names only "ucciso"; BI-AMB-10: a wounded leader does not make his squad
    isolated: Carlo moves with no test and checks morale (M6) at 7, no -2, no -1."""
    play(game, "mark sarge wounded")
    assert _targets(play(game, "morale carlo m6 dice=1")) == [7]
    goto(game, "move-first", 1)
    facts = play(game, "@blue move carlo 5 lead=5")
    assert _targets(facts, "BI-R024") == [] and has_moved(facts)


# ------------------------------------------------------- A.4 one isolation test a turn


@pytest.mark.audits("BI-R024", "BI-AMB-07")
def test_a_man_who_failed_his_isolation_test_in_the_movement_does_not_fire(game):
    """A.4 and BI-AMB-07: a failed isolation test costs the man his turn: Carlo fails it
    before moving (5 over 4) and may not fire in the fire phase."""
    play(game, "out sarge")
    goto(game, "move-first", 1)
    play(game, "@blue move carlo 5 dice=5")
    goto(game, "fire-regular", 1)
    refused(game, "fire carlo tariq range=30 dice=1", rule="BI-R024")


@pytest.mark.audits("BI-R024", "BI-R166", "BI-AMB-07")
def test_an_isolated_man_looks_with_no_test(game):
    """A.14.1: observation "non è un'Azione"; BI-AMB-07: it needs no isolation test: Carlo,
    his leader dead, rolls only the observation (Normal, 4)."""
    play(game, "out sarge", "mark fares hidden")
    goto(game, "observe", 1)
    facts = play(game, "observe carlo fares dice=4")
    assert _targets(facts, "BI-R024") == [] and _targets(facts) == [4]


@pytest.mark.audits("BI-R024", "BI-R050")
def test_an_isolated_man_tests_before_his_opportunity_fire(game):
    """A.4: "prima di poter ... sparare": opportunity fire too: the test (4) comes first,
    then his ½ chance (rifle 4 / 2 = 2)."""
    play(game, "out sarge")
    goto(game, "move-second", 1)
    play(game, "@red move tariq 5")
    facts = play(game, "@blue fire carlo tariq range=30 dice=4,10")
    assert _targets(facts, "BI-R024") == [4] and _targets(facts, "A.9.4") == [2]


@pytest.mark.audits("BI-R024", "BI-R182", "BI-AMB-45")
def test_an_isolated_man_in_panic_flees_with_no_test(game):
    """A.13.3: Panic "fugge alla massima velocità": it is not a move he chooses; no
    isolation test comes before it: 24 cm at once."""
    play(game, "out sarge")
    facts = play(game, "morale carlo m7 dice=10,4")
    assert _targets(facts, "BI-R024") == [] and _fled(facts) == [24]


# ------------------------------------------------------- A.8 actions crossed with a wound


@pytest.mark.parametrize(
    ("who", "difficulty", "chance"),
    [
        ("bruno", "very-easy", 8),  # Very Easy -> Easy: 2 x 4
        ("bruno", "easy", 4),  # Easy -> Normal: 4
        ("bruno", "normal", 2),  # Normal -> Difficult: 4 / 2
        ("elia", "easy", 6),  # Elite Easy -> Normal: 6
        ("valerio", "normal", 3),  # Veteran Normal -> Difficult: 5 / 2 = 2.5 -> 3
        ("remo", "very-easy", 6),  # Recruit Very Easy -> Easy: 2 x 3
    ],
)
@pytest.mark.audits("BI-R066", "BI-R069", "BI-R110", "BI-R002")
def test_a_wound_makes_each_action_one_level_harder(game, who, difficulty, chance):
    """A.12.1, Ferito: "peggiora di un livello la difficoltà delle azioni (esempio: da Facile a
    Normale)"; A.8.1: Easy 2 x Quality, Normal Quality, Difficult ½ rounded up (A.2)."""
    play(game, f"mark {who} wounded")
    goto(game, f"fire-{game.state.units[who].cls}", 1)
    facts = play(game, f"act {who} {difficulty} dice={chance}")
    assert _targets(facts) == [chance] and "fail" not in " ".join(outcomes(facts))


@pytest.mark.audits("BI-R069", "BI-AMB-18", "BI-R110")
def test_a_wounded_man_cannot_do_a_difficult_action(game):
    """BI-AMB-18: a Difficult action made one level harder is NO: refused, and Bruno keeps
    his activity: he may still fire."""
    play(game, "mark bruno wounded")
    goto(game, "fire-regular", 1)
    refused(game, "act bruno difficult dice=1", rule="BI-R069")
    assert rolls(play(game, "fire bruno tariq range=30 dice=10,10"), "A.9.4")


@pytest.mark.audits("BI-R068", "BI-R030", "BI-R062")
def test_an_emplaced_weapon_fires_next_turn_not_this_one(game):
    """A.8.1: emplacing a weapon is Very Easy (no roll) but it is the man's action for the
    turn: Dario emplaces his MG and fires it only in the next turn."""
    goto(game, "fire-regular", 1)
    assert rolls(play(game, "emplace dario")) == []
    refused(game, "fire dario tariq range=30 dice=10", rule="BI-R030")
    goto(game, "fire-regular", 2)
    assert rolls(play(game, "fire dario tariq range=30 dice=10,10,10"), "A.9.4")


@pytest.mark.audits("BI-R030", "BI-R166")
def test_a_man_who_acted_still_looks_at_the_end_of_the_fire_phase(game):
    """A.14.1: "l'Osservazione non è un'Azione, per cui un'unità può muovere o sparare e
    tentare di osservare": one who did an action also looks."""
    play(game, "mark fares hidden")
    goto(game, "fire-regular", 1)
    play(game, "act bruno normal dice=1")
    goto(game, "end", 1)
    assert _targets(play(game, "observe bruno fares dice=4")) == [4]


# ------------------------------------------------------- A.5 and A.7 who may do what


@pytest.mark.audits("BI-R050", "BI-R054", "BI-R030")
def test_no_opportunity_fire_at_a_man_who_cannot_move_this_turn(game):
    """A.7: opportunity fire is "contro le unità nemiche in movimento": Carlo gave covering
    fire as the movement began, so he will not move this turn (BI-R054): in Blue's movement
    Red may fire at Bruno as he moves, not at Carlo."""
    goto(game, "cover", 1)
    play(game, "@blue fire carlo yusuf range=30 dice=10")
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5")
    refused(game, "@red fire tariq carlo range=30 dice=10,10", rule="BI-R050")
    assert rolls(play(game, "@red fire tariq bruno range=30 dice=10,10"), "A.9.4")


@pytest.mark.audits("BI-R050", "BI-R030")
def test_a_man_who_made_opportunity_fire_does_not_move_in_his_own_movement(game):
    """A.7: "non potranno sparare nuovamente durante la successiva fase di tiro, e non
    potranno muovere": Tariq fired at Bruno in Blue's movement; in Red's own he stays put."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5", "@red fire tariq bruno range=30 dice=10,10")
    goto(game, "move-second", 1)
    refused(game, "@red move tariq 5", rule="BI-R030")


@pytest.mark.audits("BI-R050", "BI-R030")
def test_a_man_who_moved_first_makes_no_opportunity_fire_later(game):
    """A.5: one move, fire or action a turn: Bruno moved in Blue's movement; when Tariq moves
    in Red's, Bruno may not fire at him."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5")
    goto(game, "move-second", 1)
    play(game, "@red move tariq 5")
    refused(game, "@blue fire bruno tariq range=30 dice=10,10", rule="BI-R030")


@pytest.mark.audits("BI-R050", "BI-AMB-03", "BI-R002")
def test_a_veterans_opportunity_fire_is_half_rounded_up(game):
    """A.7: opportunity fire at reduced chance, ½ (digest), rounded up (A.2): Vito, Veteran,
    5 / 2 = 2.5 -> 3 for each of his assault rifle's two shots."""
    goto(game, "move-second", 1)
    play(game, "@red move tariq 5")
    assert _targets(play(game, "@blue fire vito tariq range=30 dice=10,10"), "A.9.4") == [3, 3]


@pytest.mark.audits("BI-R061", "BI-R060")
def test_a_regular_killed_by_elite_fire_does_not_fire_in_his_tier(game):
    """A.5: "Le unità di livello inferiore potranno sparare/compiere azioni solo dopo aver
    subito le eventuali perdite": Zaki (Elite, Red) kills Bruno in the Elite tier; in the
    Regular tier Bruno fires no more."""
    goto(game, "fire-elite", 1)
    play(game, "@red fire zaki bruno range=30 dice=1,10")
    assert not game.state.units["bruno"].in_play
    goto(game, "fire-regular", 1)
    refused(game, "fire bruno zaki range=30 dice=10,10", rule="BI-R110")


@pytest.mark.audits("BI-R061")
def test_two_regulars_fire_at_each_other_in_the_same_tier(game):
    """A.8: fire is simultaneous within a tier: Bruno kills Tariq in the Regular tier and
    Tariq, in the same tier, still fires back."""
    goto(game, "fire-regular", 1)
    play(game, "fire bruno tariq range=30 dice=1,10")
    assert rolls(play(game, "@red fire tariq bruno range=30 dice=10,10"), "A.9.4")


@pytest.mark.audits("BI-R040", "BI-R041")
def test_after_a_run_a_walk_and_then_a_run_again(game):
    """A.6.1: "di Corsa cm. 24 (non 2 turni consecutivi)": after a run in turn 1 Carlo may
    not run in turn 2 but may walk 16; in turn 3 he runs 24 again."""
    goto(game, "move-first", 1)
    play(game, "@blue move carlo 20 running")
    goto(game, "move-first", 2)
    refused(game, "@blue move carlo 17 running", rule="BI-R041")
    assert has_moved(play(game, "@blue move carlo 16 normal"))
    goto(game, "move-first", 3)
    assert has_moved(play(game, "@blue move carlo 24 running"))


@pytest.mark.audits("BI-R041", "BI-R182", "BI-AMB-45")
def test_panic_the_turn_after_a_run_is_still_a_full_run(game):
    """BI-AMB-45: a man in panic flees at "massima velocità", running, whatever he did last
    turn: Carlo ran in turn 1; in turn 2 he panics and flees 24."""
    goto(game, "move-first", 1)
    play(game, "@blue move carlo 20 running")
    goto(game, "move-first", 2)
    assert _fled(play(game, "morale carlo m7 dice=10,4")) == [24]


# ------------------------------------------------------- A.13 morale


@pytest.mark.audits("BI-R181", "BI-R028", "BI-AMB-40", "BI-AMB-41", "BI-AMB-42")
def test_the_squad_of_a_leader_shot_dead_by_a_rifle_checks_at_two(game):
    """A.13.1 M5/M6: Omar, Red's leader, shot dead by Bruno's assault rifle: Ali and Yusuf
    each check once (BI-AMB-40) at 7 - 2 (isolated: their leader is dead) - 1 (commander
    killed) - 2 (under automatic fire) = 2."""
    goto(game, "fire-regular", 1)
    play(game, "fire bruno omar range=30 dice=1,10")
    facts = play(game, "next dice=2,3,1")
    assert _targets(facts, "A.13.2") == [2, 2]


@pytest.mark.parametrize(
    ("who", "face", "effect"),
    [
        ("zaki", "1", "shocked"),  # Elite: 1 - 1 = 0, Shocked (BI-AMB-43)
        ("zaki", "4", "shocked"),  # 4 - 1 = 3
        ("zaki", "5", "panic"),  # 5 - 1 = 4
        ("zaki", "6", "panic"),  # 6 - 1 = 5: an Elite man on foot never surrenders
        ("leo", "5", "shocked"),  # an undamaged Elite tank: 5 - 3 = 2
        ("leo", "6", "shocked"),  # 6 - 3 = 3
    ],
)
@pytest.mark.audits("BI-R182", "BI-R183", "BI-AMB-43")
def test_the_effects_die_of_elite_men_and_elite_crews(game, who, face, effect):
    """A.13.3: "Gli equipaggi di veicoli blindati non danneggiati hanno un modificatore al
    dado di -2, le unità di qualità Elite di -1"; BI-AMB-43: they stack, 0 or less is
    Shocked."""
    facts = play(game, f"morale {who} m7 dice=10,{face}")
    assert outcomes(facts, "A.13.3") == [effect]


@pytest.mark.audits("BI-R182", "BI-R184")
def test_a_man_shocked_and_shocked_again_panics(game):
    """A.13.3: "Unità già Shoccate che subiscono un ulteriore risultato di Shoccato si
    considerano in Panico": a second Shocked flees; the first laid him down ("si butta a
    terra"), so he stands up to run, -25% (A.6.1): 18 cm."""
    play(game, "morale carlo m7 dice=10,1")
    facts = play(game, "morale carlo m7 dice=10,2")
    assert outcomes(facts, "A.13.3") == ["panic"] and _fled(facts) == [18]


@pytest.mark.audits("BI-R182", "BI-R030", "BI-AMB-20")
def test_a_man_shocked_in_the_movement_makes_no_opportunity_fire_next_turn(game):
    """A.13.3: Shocked: "nessun combattimento ... nel turno successivo": shocked in turn 1,
    Carlo may not fire at Tariq moving in turn 2's movement."""
    play(game, "morale carlo m7 dice=10,1")
    goto(game, "move-second", 2)
    play(game, "@red move tariq 5")
    refused(game, "@blue fire carlo tariq range=30 dice=10", rule="BI-R182")


@pytest.mark.audits("BI-R182", "BI-R166")
def test_a_shocked_man_still_looks(game):
    """A.13.3 bars a shocked man from moving towards the enemy, combat and actions; A.14.1:
    observation is none of them: shocked Carlo looks at the end of the movement."""
    play(game, "morale carlo m7 dice=10,1", "mark fares hidden")
    goto(game, "observe", 1)
    assert _targets(play(game, "observe carlo fares dice=4")) == [4]


@pytest.mark.audits("BI-R182", "BI-AMB-20")
def test_shocked_in_turn_one_he_fires_again_in_turn_three(game):
    """BI-AMB-20: shocked from the result to the end of the next turn: Carlo, shocked in turn
    1, does not fire in turn 2 and fires in turn 3."""
    goto(game, "fire-elite", 1)
    play(game, "morale carlo m7 dice=10,1")
    goto(game, "fire-regular", 2)
    refused(game, "fire carlo tariq range=30 dice=10", rule="BI-R182")
    goto(game, "fire-regular", 3)
    assert rolls(play(game, "fire carlo tariq range=30 dice=10"), "A.9.4")


@pytest.mark.audits("BI-R182")
def test_surrender_with_no_enemy_near_drops_the_heavy_weapon(game):
    """A.13.3: "se non ci sono nemici conta come Panico, abbandonando eventuali armi
    pesanti": Dario flees 24 cm without his MG; with an enemy within 12 cm he surrenders."""
    facts = play(game, "morale dario m7 dice=10,6")
    assert _fled(facts) == [24] and game.state.units["dario"].has("weapon-lost-mg")
    play(game, "morale lino m7 enemy dice=10,6")
    assert not game.state.units["lino"].in_play


@pytest.mark.parametrize(
    ("line", "chance"),
    [
        ("morale carlo m5 cover=heavy", 9),
        ("morale carlo m5 cover=light", 8),
        ("morale carlo m5 cover=heavy isolated fire", 5),
        ("morale carlo m5 near=2", 5),
    ],
)
@pytest.mark.audits("BI-R181")
def test_the_pass_chance_modifiers_crossed(game, line, chance):
    """A.13.2: Regular 4 + 3 = 7; heavy cover +2, light +1, isolated -2, under automatic or
    HE fire -2, each seriously wounded friend within 10 cm -1."""
    assert _targets(play(game, f"{line} dice={chance}"), "A.13.2") == [chance]


@pytest.mark.audits("BI-R181", "BI-R011")
def test_a_wounded_demotivated_recruit_needs_a_two(game):
    """A.3 and A.13.2: Recruit 3, the referee's -1: 2; +3 = 5; wounded -3: 2."""
    play(game, "motivation remo -1", "mark remo wounded")
    assert _targets(play(game, "morale remo m7 dice=3,1"), "A.13.2") == [2]


# ======================================================================= part 3: the digest's A.17 proposals


@pytest.mark.audits("BI-R181", "BI-AMB-41")
def test_a_man_under_automatic_fire_this_phase_checks_at_minus_two_whatever_the_trigger(game):
    """A.13.2: "Sotto tiro di AE o armi automatiche -2"; BI-AMB-41: it applies when the check
    is caused by, or the man was targeted in this phase by, HE or automatic fire: Nabil's
    assault rifle misses Carlo twice, then Rafi's rifle (single shots) kills Bruno: Carlo's
    M5 check is 7 - 2 = 5.  Sarge, not fired at, checks at 7."""
    goto(game, "fire-regular", 1)
    play(game, "@red fire nabil carlo range=30 dice=10,10", "@red fire rafi bruno range=30 dice=1,10")
    assert _targets(play(game, "morale carlo m5 dice=1"), "A.13.2") == [5]
    assert _targets(play(game, "morale sarge m5 dice=1"), "A.13.2") == [7]


@pytest.mark.audits("BI-R184", "BI-AMB-44")
def test_a_damage_tables_shocked_on_a_shocked_man_is_no_panic(game):
    """BI-AMB-44: "Shocked + Shocked -> Panic" is for morale results only: Carlo, shocked by
    a failed check, is shocked again by a rifle's hit (3): he checks morale, passes, and does
    not flee."""
    play(game, "morale carlo m7 dice=10,1", "hit carlo weapon=rifle dice=3")
    facts = play(game, "morale carlo dice=1")
    assert _targets(facts, "A.13.2") == [7] and _fled(facts) == []


@pytest.mark.audits("BI-R061", "BI-R180")
def test_a_man_whose_leader_fell_in_his_own_tier_fires_before_his_check(game):
    """A.5.2 (digest): a tier's rolls are resolved, then its results applied together; a
    morale check follows the result: Ali, whose leader Omar Bruno kills in the Regular tier,
    still fires in it (isolated now, he tests first, A.4), then checks."""
    goto(game, "fire-regular", 1)
    play(game, "fire bruno omar range=30 dice=1,10")
    facts = play(game, "@red fire ali bruno range=30 dice=1,10,10")
    assert _targets(facts, "BI-R024") == [4] and _targets(facts, "A.9.4") == [4, 4]
    assert game.state.units["ali"].has("morale-due")


@pytest.mark.audits("BI-R165", "BI-R167")
def test_at_night_a_man_who_fired_from_cover_is_still_no_target_for_an_open_vehicle(tmp_path, monkeypatch):
    """A.14.1 and the digest's order (base, fired, night, clamped): infantry still in cover
    seen from an open vehicle is NO; having fired makes it Difficult; night makes it NO
    again: refused."""
    g = new_game(
        tmp_path,
        monkeypatch,
        night="dark",
        extra=(vehicle("scout", "blue", "regular", "mg", roles=("wheeled-apc", "open")),),
    )
    play(g, "mark tariq hidden")
    goto(g, "move-first", 1)
    play(g, "@blue move bruno 5", "@red fire tariq bruno range=10 dice=10,10")
    goto(g, "observe", 1)
    refused(g, "observe scout tariq cover dice=1", rule="BI-R165")


@pytest.mark.audits("BI-R021", "BI-R028", "BI-AMB-09")
def test_a_section_whose_new_leader_would_be_a_recruit_stays_isolated(game):
    """A.4: a Recruit may not lead a section ("Non consentito"); BI-AMB-09: a Regular section
    leader's successor would be a Recruit, so the section stays isolated: Rsn, a cm from Rsm
    who took over, tests (4) before he moves."""
    facts = _replace(game, "rsl", "1")
    assert _targets(facts, "BI-R028") == [4]
    goto(game, "move-first", 2)
    assert _targets(play(game, "@blue move rsn 2 lead=1 dice=4"), "BI-R024") == [4]


# ======================================================================= part 2: probed


@pytest.mark.audits("BI-R042", "BI-R053")
def test_covering_fire_at_his_wood_slows_a_hidden_man_next_turn(game):
    """A.7: covering fire at a terrain feature is automatic fire ("solo da armi automatiche"),
    resolved at the hidden man when he tries to fire; A.6.1: "Sotto fuoco automatico ... nella
    fase precedente -25%": Sam's SAW misses Tariq (two 9s) in the fire phase, Tariq fires,
    and in turn 2's movement he walks 12 cm of his 16, not 12.5."""
    goto(game, "cover", 1)
    play(game, '@blue screen sam feature="the wood"', "mark tariq hidden")
    goto(game, "fire-regular", 1)
    play(game, "screened sam tariq range=20 dice=9,9", "@red fire tariq bruno range=30 dice=10,10")
    goto(game, "move-second", 2)
    refused(game, "@red move tariq 12.5", rule="BI-R042")
    assert has_moved(play(game, "@red move tariq 12"))


@pytest.mark.audits("BI-R253", "BI-R042")
def test_a_man_the_strafing_pass_missed_moves_a_quarter_less(game):
    """A.15.1: the strafing pass fires "come Cannoncini automatici 20/35mm", automatic
    weapons; A.6.1: under automatic fire in the previous phase -25%: Tariq, missed by it in
    turn 2's fire phase, walks 12 cm of his 16 in turn 3."""
    goto(game, "fire-veteran", 1)
    play(game, "@blue call fo air bomb=ap dice=1")
    goto(game, "fire-veteran", 2)
    play(game, "@blue ffe fo strafe dice=5,1,5,1", "strafe tariq pilot=regular dice=10")
    goto(game, "move-second", 3)
    refused(game, "@red move tariq 12.5", rule="BI-R042")
    assert has_moved(play(game, "@red move tariq 12"))


@pytest.mark.audits("BI-R165", "BI-R053", "BI-R051")
def test_a_hidden_man_who_put_covering_fire_on_a_wood_is_easier_to_see(game):
    """A.5: covering fire is declared as the movement phase begins; A.14.1: a target that
    "ha sparato nella fase" is one level easier: Sam, hidden and still in the open, fires
    his SAW at the wood; at the end of the movement Tariq finds him Easy, 2 x 4 = 8."""
    play(game, "mark sam hidden")
    goto(game, "cover", 1)
    play(game, '@blue screen sam feature="the wood"')
    goto(game, "observe", 1)
    assert _targets(play(game, "observe tariq sam dice=8")) == [8]


@pytest.mark.audits("BI-R024", "BI-R011", "BI-AMB-04")
def test_a_motivated_isolated_man_tests_under_his_chance_with_the_plus_one(game):
    """A.3: the referee's +1 is on the chance of success; A.4: an isolated man tests "uguale
    o inferiore alla propria Qualità": Carlo, Regular and motivated, passes on a 5."""
    play(game, "motivation carlo 1", "out sarge")
    goto(game, "move-first", 1)
    facts = play(game, "@blue move carlo 2 dice=5")
    assert _targets(facts, "BI-R024") == [5] and has_moved(facts)


@pytest.mark.audits("BI-R170", "BI-R061", "BI-R030")
def test_smoke_in_the_fire_phase_is_thrown_in_the_throwers_tier(game):
    """A.5: in the fire phase "i giocatori lanciano fumo", in the order of Quality: Bruno, a
    Regular, throws his in the Regular tier, not the Elite one; it is his fire (he fires no
    more) and lasts 6 + 2 = 8 turns."""
    goto(game, "fire-elite", 1)
    refused(game, "smoke bruno dice=2", rule="BI-R061")
    goto(game, "fire-regular", 1)
    facts = play(game, "smoke bruno dice=2")
    assert _targets(facts) == [None] and [list(r.faces) for r in rolls(facts)] == [[2]]
    refused(game, "fire bruno tariq range=30 dice=10,10", rule="BI-R030")


@pytest.mark.audits("BI-R255", "BI-R030")
def test_a_helicopter_that_flew_does_not_fire_in_the_fire_phase(game):
    """A.15.2: helicopters are "normali veicoli" but for their 2d6 x 10 cm; A.5: a unit that
    moved does not fire: Lynx flies 50 of its 60 cm and may not fire; unmoved, it does."""
    goto(game, "move-first", 1)
    play(game, "@blue move lynx 50 dice=3,3")
    goto(game, "fire-veteran", 1)
    refused(game, "fire lynx tariq range=30 dice=10,10,10", rule="BI-R030")
    goto(game, "fire-veteran", 2)
    assert rolls(play(game, "fire lynx tariq range=30 dice=10,10,10"), "A.9.4")


@pytest.mark.parametrize(
    ("gunner", "chance"),
    [("aav", 1), ("aar", 1)],
    ids=["veteran-aa-mg-1", "recruit-aa-cannon-half-of-one"],
)
@pytest.mark.audits("BI-R260", "BI-R261", "BI-AMB-53")
def test_anti_aircraft_fire_at_a_helicopter_in_its_movement(tmp_path, monkeypatch, gunner, chance):
    """A.15.3: AA machine gun 1 against helicopters, +1 Veteran: 2, halved in the movement
    phase: 1; AA autocannon 2, -1 Recruit: 1, halved: 0.5, rounded up (A.2): 1."""
    g = new_game(
        tmp_path,
        monkeypatch,
        extra=(man("aav", "red", "veteran", "aa-mg"), man("aar", "red", "recruit", "aa-cannon")),
    )
    goto(g, "move-first", 1)
    play(g, "@blue move lynx 50 dice=3,3")
    assert _targets(play(g, f"@red aa {gunner} lynx range=50 dice=2"), "BI-R260") == [chance]


@pytest.mark.audits("BI-R182", "BI-R042", "BI-AMB-45")
def test_a_man_under_fire_in_the_phase_before_flees_a_quarter_less(game):
    """BI-AMB-45: panic flight is the man's maximum allowance "modified by BI-R042"; A.6.1:
    "Sotto fuoco automatico o Alto Esplosivo nella fase precedente -25%": Bruno's assault
    rifle misses Tariq in turn 1's fire phase; in turn 2's movement Tariq fails an M4 check,
    panics, and runs 18 cm of his 24."""
    goto(game, "fire-regular", 1)
    play(game, "fire bruno tariq range=30 dice=10,10")
    goto(game, "move-first", 2)
    facts = play(game, "morale tariq m4 dice=10,4")
    assert outcomes(facts, "A.13.3") == ["panic"] and _fled(facts) == [18]


@pytest.mark.audits("BI-R164")
def test_one_attempt_at_a_hidden_man_at_the_end_of_a_phase(game):
    """A.14.1 (BI-R164): "Massimo un tentativo per ogni elemento di terreno ... indipendentemente dal
    numero di unità proprie che potrebbero osservare"; BI-AMB-46: an unseen enemy not in a
    feature gets one attempt: Carlo fails to see Fares at the end of the movement; neither
    Bruno nor Carlo may try again there; at the end of the fire phase Blue looks again."""
    play(game, "mark fares hidden")
    goto(game, "observe", 1)
    play(game, "observe carlo fares dice=10")
    refused(game, "observe bruno fares dice=1", rule="BI-R164")
    refused(game, "observe carlo fares dice=1", rule="BI-R164")
    goto(game, "end", 1)
    assert _targets(play(game, "observe bruno fares dice=4")) == [4]


@pytest.mark.audits("BI-R025", "BI-R028", "BI-AMB-08", "BI-AMB-42")
def test_a_tank_of_a_squad_whose_leader_fell_checks_morale_isolated(game):
    """A.4: combat vehicles are free of the command radius for moving and firing "ma possono
    essere considerati isolati per i test di morale", and a dead leader isolates "tutta la sua
    squadra" (ruling BI-ISOLATED): Tank2, of Sarge's squad, checks at 7 - 2 - 1 = 4 while
    Sarge is dead and not replaced; Ariete, of no squad, at 5 + 3 = 8."""
    play(game, "out sarge")
    assert _targets(play(game, "morale tank2 m7 dice=1"), "A.13.2") == [4]
    assert _targets(play(game, "morale ariete m7 dice=1"), "A.13.2") == [8]


@pytest.mark.audits("BI-R180", "BI-R050")
def test_a_man_whose_check_fell_due_in_the_movement_takes_it_before_he_moves(game):
    """A.13.1: a unit "dovrà controllare il morale" when a man of its squad is killed; the
    digest (A.5.2, BI-R180) has the check made at once, after the result: Tariq's opportunity
    fire kills Bruno as he moves; Carlo may not move before his check; once he has passed it,
    he moves."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5", "@red fire tariq bruno range=30 dice=1,10")
    refused(game, "@blue move carlo 5", rule="BI-R180")
    play(game, "morale carlo dice=1")
    assert has_moved(play(game, "@blue move carlo 5"))
