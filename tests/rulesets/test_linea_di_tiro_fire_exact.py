# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro fire and morale pinned exactly (commands/fire.py): given these faces, the
column, the modifiers with their sections, the result and what it does, and each refusal
in its words (issue #33: these tests kill the mutants that survived)."""

from __future__ import annotations

import pytest
from linea_di_tiro_support import game, inject, notes, piece, play, rolls  # noqa: F401  (fixtures)
from playing import names, refused

from core.language.i18n import plain
from core.log import events as ev
from core.log.outcome import DiceNeeded
from core.refusal import TYPING
from core.ruleset import Refused


def _said(roll: ev.Roll) -> tuple:
    return plain(roll.purpose), roll.faces, [(plain(m.label), m.value, m.rule) for m in roll.mods], plain(roll.outcome)


def _status(facts, unit: str) -> list[tuple]:
    return [(e.add, e.remove) for e in facts if isinstance(e, ev.StatusChanged) and e.unit == unit]


# ---------------------------------------------------------------- AT fire (LT-R050)


def test_an_anti_tank_shot_that_cannot_be_made_is_refused_in_words(game):
    play(game, "next", "@us activate sherman1 A2")  # 7♥: us
    assert refused(game, "@us at gis panzer", rule="LT-R001") == "GIs, first half has no anti-tank attack"
    assert (
        refused(game, "@us at bazooka panzer long", rule="LT-R050")
        == "GIs, bazooka half has no anti-tank attack at long range"
    )
    # A piece of a scenario's own making, whose anti-tank attack reaches only at long range.
    inject(game, piece("longgun", "us", "sherman", team="GIs", stats={"at": 0}))
    assert (
        refused(game, "@us at longgun panzer", rule="LT-R050") == "Longgun has an anti-tank attack only at long range"
    )
    assert (
        refused(game, "@us at sherman1 grenadiers", rule="LT-R060")
        == "Grenadiers has no armour: fire at it with mg (LT-R060)"
    )
    assert refused(game, "@us at sherman1 panzer ambush", rule="LT-R053") == (
        "Sherman Easy has no ambush to fire: it comes at once, under the card it was spotted on (LT-R053)"
    )


def test_a_close_shot_on_column_0_destroys_on_2(game):
    """LT-R050: Sherman 5 against the Panzer's front 5: column 0; 1 + 2 − 1 (5 cm or less) = 2: D."""
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer close dice=1,2")
    assert _said(rolls(facts)[0]) == (
        "AT fire at Panzer IV, attack 5 - protection 5 = +0",
        (1, 2),
        [("range 5 cm or less, or ambush", -1, "LT-R050")],
        "modified total 2, column 0: D: destroyed",
    )
    assert plain(game.state.units["panzer"].out) == "destroyed"
    assert _status(facts, "sherman1") == [((), ("attacks-1",)), (("fired-1",), ())]


def test_the_table_dice_prompt_says_what_each_total_means_on_column_0(game):
    """LT-R050 (issue #48): before the table rolls, the prompt reads the AT table's column 0
    for every total of 2d6: destroyed on 2-3, a rout on 4, a test on 5-6, nothing above."""
    play(game, "next", "@us activate sherman1 A2")
    asked = game.submit("at sherman1 panzer", role="us", faces=[])
    assert isinstance(asked, DiceNeeded)
    assert asked.request.meanings_text() == (
        "2–3: D: destroyed; 4: R: routs without a test; 5–6: T: morale test; 7–12: no effect"
    )
    assert asked.request.chance_text() == ""  # a row of a table: no chance of its own
    # one modifier moves the rows: 5 cm or less, -1
    close = game.submit("at sherman1 panzer close", role="us", faces=[])
    assert close.request.meanings_text().startswith("2–4: D: destroyed; 5: R: routs without a test; 6–7: T")


def test_a_long_flank_shot_uses_the_long_attack_and_the_side_and_above_6_does_nothing(game):
    """LT-R050: at long range the Sherman's 4 against the side's 3: column +1; 6 + 6 − 1 = 11."""
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer long flank close dice=6,6")
    assert _said(rolls(facts)[0])[0] == "AT fire at Panzer IV, attack 4 - protection 3 = +1"
    assert _said(rolls(facts)[0])[3] == "modified total 11, column +1: no effect"
    assert game.state.units["panzer"].in_play


def test_an_ambush_reply_spends_the_ready_attack_and_is_forgotten(game):
    """LT-R053: the piece spotted replies at its first spotter with a ready attack, −1 (the
    same modifier as a close shot, ruling LT-AT-MODS); hull down +1: 3 + 3 = 6, column 0: T."""
    play(game, "next", "@us activate sherman1 A2")
    inject(
        game,
        ev.VarSet(key="secret.ambush.sherman1", value="panzer", vis=("referee",)),
        ev.StatusChanged(unit="sherman1", add=("ready-1",)),
    )
    facts = play(game, "@us at sherman1 panzer ambush hulldown dice=3,3")
    assert _said(rolls(facts)[0])[2:] == (
        [("target hull down or in prepared cover", 1, "LT-R050"), ("range 5 cm or less, or ambush", -1, "LT-R050")],
        "modified total 6, column 0: T: morale test",
    )
    assert game.state.vars.get("secret.ambush.sherman1", "") == ""
    assert _status(facts, "sherman1") == [((), ("ready-1",)), (("fired-1",), ())]
    assert "Panzer IV must test morale: morale panzer" in notes(facts)


# ------------------------------------------------------------ MG/HE fire (LT-R060)


def test_mg_fire_needs_an_attack_and_a_defence(game):
    play(game, "next", "@us activate gis A2")
    assert refused(game, "@us mg gis grenadiers", rule="LT-R060b") == (
        "say what Grenadiers is doing: defence=moving-open|bound-open|bound-protected|still-open|open-vehicle|"
        "prepared|light-tank|entrenched|tank|still-protected|moving-protected (C.7.1)"
    )
    assert refused(game, "@us mg gis grenadiers defence=entrenched ambush", rule="LT-R053") == (
        "GIs, first half has no ambush to fire: it comes at once, under the card it was spotted on (LT-R053)"
    )


def test_mg_fire_immobilises_infantry_and_a_tank_tests_morale_instead(game):
    """LT-R060: the GIs' 3 against a tank's 5: column <0, a 1 is I, which for a tank is a
    morale test (C.7 legend)."""
    play(game, "next", "@us activate gis A2")
    facts = play(game, "@us mg gis panzer dice=1")
    assert _said(rolls(facts)[0]) == (
        "MG fire at Panzer IV, attack 3 - other tanks 5 = -2",
        (1,),
        [],
        "modified total 1, column <0: I: a tank tests morale",
    )
    assert notes(facts) == ["Panzer IV must test morale: morale panzer"]
    assert not game.state.units["panzer"].has("immobilised")


def test_mg_fire_on_infantry_moving_in_the_open(game):
    """LT-R060: 3 against 0: column +3; a 4 immobilises."""
    play(game, "next", "@us activate gis A2")
    facts = play(game, "@us mg gis grenadiers defence=moving-open dice=4")
    assert _said(rolls(facts)[0]) == (
        "MG fire at Grenadiers, attack 3 - infantry moving in the open 0 = +3",
        (4,),
        [],
        "modified total 4, column +3: I: immobilised, loses its ready attacks",
    )
    assert _status(facts, "grenadiers") == [(("immobilised",), ())]


def test_an_ambush_by_mg_takes_1_off_the_die(game):
    """LT-R053 (ruling LT-MG-MODS): the only modifier of the MG table: 2 − 1 = 1 on column +1: I."""
    play(game, "next")
    inject(
        game,
        ev.VarSet(key="secret.ambush.grenadiers", value="gis", vis=("referee",)),
        ev.StatusChanged(unit="grenadiers", add=("ready-1",)),
    )
    facts = play(game, "@german mg grenadiers gis ambush defence=still-open dice=2")
    assert _said(rolls(facts)[0]) == (
        "MG fire at GIs, first half, attack 4 - infantry stationary in the open 3 = +1",
        (2,),
        [("ambush by an unspotted piece", -1, "LT-R053")],
        "modified total 1, column +1: I: immobilised, loses its ready attacks",
    )
    assert _status(facts, "grenadiers") == [((), ("ready-1",)), (("fired-1",), ())]
    assert game.state.vars.get("secret.ambush.grenadiers", "") == ""


def test_an_opportunity_shot_spends_a_ready_attack_first_then_the_free_one(game):
    """Ruling LT-OPPORTUNITY: a ready attack if held; else one free shot a card, at a
    piece assaulting under the card."""
    play(game, "next", "@us activate gis A4 prepare=0")
    inject(game, ev.StatusChanged(unit="grenadiers", add=("ready-1",)))
    facts = play(game, "@german mg grenadiers gis opportunity defence=still-open dice=6")
    assert _status(facts, "grenadiers") == [((), ("ready-1",)), (("fired-1",), ())]
    facts = play(game, "@german mg grenadiers gis opportunity defence=still-open dice=6")
    assert _status(facts, "grenadiers") == [(("opportunity",), ()), (("fired-2",), ("fired-1",))]
    assert refused(game, "@german mg grenadiers gis opportunity defence=still-open", rule="LT-AMB-25") == (
        "Grenadiers has had its free opportunity shot on this card (ruling LT-OPPORTUNITY)"
    )


# ---------------------------------------------------------------- morale (LT-R080)


def test_a_morale_test_with_its_modifiers_and_each_result(game):
    """LT-R080/R081: morale 3; immobilised +1, two situations +2: a 2 makes 5, fall back;
    immobilised alone, a 1 makes 2: steady."""
    inject(game, ev.StatusChanged(unit="gis", add=("immobilised",)))
    play(game, "next")
    facts = play(game, "@us morale gis plus=2 dice=2")
    assert _said(rolls(facts)[0]) == (
        "morale test, morale 3",
        (2,),
        [("immobilised", 1, "LT-R081"), ("situations", 2, "LT-R081")],
        "modified total 5: fall-back",
    )
    assert notes(facts) == ["GIs, first half falls back 5 cm, facing the enemy (LT-R080)"]
    facts = play(game, "@us morale gis dice=1")
    assert _said(rolls(facts)[0])[2:] == ([("immobilised", 1, "LT-R081")], "modified total 2: steady")
    assert notes(facts) == []


def test_a_voluntary_rout_flees_once(game):
    """LT-R082 (ruling LT-VOLUNTARY-ROUT)."""
    play(game, "next")
    facts = play(game, "@us rout gis")
    assert notes(facts) == ["GIs, first half flees 30 cm, back to the enemy, a voluntary rout (LT-R080)"]
    assert refused(game, "@us rout gis", rule="LT-R082") == "GIs, first half is already fleeing"


def test_situations_are_counted_up_never_down():
    """LT-R081: each situation makes the test harder; a negative count is refused in words."""
    from core.log.state import Unit
    from core.rulesets.linea_di_tiro.commands.fire import morale_mods

    with pytest.raises(Refused) as refused:
        morale_mods(Unit(id="g", name="G", side="us"), -1)
    names(refused.value, TYPING)
    assert str(refused.value) == "plus= counts situations that make the test harder (+1 each)"
    assert morale_mods(Unit(id="g", name="G", side="us"), 0) == []


def test_each_roll_is_the_firers_total_on_its_table(game):
    """LT-R050, LT-R060, LT-R080: each roll is the firer's (or the tested piece's), read as a
    total, a row of its table (the AT and MG tables) or a success on steady (morale)."""
    from core.rulesets.linea_di_tiro import rules

    play(game, "next", "@us activate sherman1 A4 prepare=0")  # two attacks
    facts = play(game, "@us at sherman1 panzer dice=6,6")
    facts += play(game, "@us mg sherman1 panzer dice=6")
    facts += play(game, "@us morale gis plus=1 dice=1")
    said = [(e.unit, e.side, e.roll.rule, e.roll.total, e.roll.check) for e in facts if isinstance(e, ev.Rolled)]
    assert said == [
        ("sherman1", "", "LT-R050", True, ev.Read()),
        ("sherman1", "", "LT-R060", True, ev.Read()),
        ("gis", "", "LT-R080", True, rules.steady_check(3, 1)),
    ]


def test_at_long_range_a_total_above_6_does_nothing(game):
    """LT-R050: at long range, column +1, 4 + 3 = 7 is no effect (at short range, T)."""
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer long flank dice=4,3")
    assert _said(rolls(facts)[0])[3] == "modified total 7, column +1: no effect"
    assert notes(facts) == []


def test_an_r_routs_the_tank_without_a_test(game):
    """LT-R050: column 0, 2 + 2 = 4: R; LT-R080: it flees its full move and says why."""
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer dice=2,2")
    assert _said(rolls(facts)[0])[3] == "modified total 4, column 0: R: routs without a test"
    assert notes(facts) == ["Panzer IV flees 30 cm, back to the enemy, routed without a test (LT-R080)"]


def test_an_at_attack_ends_an_he_streak(game):
    """LT-R061: any attack but HE at pinned infantry breaks the streak."""
    inject(game, ev.StatusChanged(unit="panzer", add=("immobilised", "he-2")))
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer dice=6,6")
    assert ((), ("he-2",)) in _status(facts, "panzer")


def test_an_i_takes_the_ready_attacks_and_immobilises_once(game):
    """LT-R060 legend: I: immobilised, loses its ready attacks; already immobilised, it is
    not immobilised again.  An ambush's −1 is taken off the die: 4 − 1 = 3 on column +1: I."""
    play(game, "next")  # the ambush is fired under the card the piece was spotted on
    inject(
        game,
        ev.VarSet(key="secret.ambush.grenadiers", value="gis", vis=("referee",)),
        ev.StatusChanged(unit="grenadiers", add=("ready-1",)),
        ev.StatusChanged(unit="gis", add=("ready-2", "immobilised")),
    )
    facts = play(game, "@german mg grenadiers gis ambush defence=still-open dice=4")
    assert _status(facts, "gis") == [((), ("ready-2",))]
    cleared = [e for e in facts if isinstance(e, ev.VarSet) and e.key == "secret.ambush.grenadiers"]
    assert [(e.value, e.vis) for e in cleared] == [("", ("referee",))]


def test_the_he_bonus_is_only_for_he_at_pinned_infantry(game):
    """LT-R061: an MG attack at immobilised infantry gets no streak bonus, nor does HE at
    infantry not immobilised; HE that does not pin starts no streak."""
    inject(game, ev.StatusChanged(unit="grenadiers", add=("immobilised", "he-2")))
    play(game, "next", "@us activate sherman1 A4 prepare=0")
    facts = play(game, "@us mg sherman1 grenadiers defence=still-open dice=6")
    assert _said(rolls(facts)[0])[0] == "MG fire at Grenadiers, attack 3 - infantry stationary in the open 3 = +0"
    inject(game, ev.StatusChanged(unit="grenadiers", remove=("immobilised",), add=("he-2",)))
    facts = play(game, "@us mg sherman1 grenadiers he defence=still-open dice=6")
    assert _said(rolls(facts)[0])[0] == "HE fire at Grenadiers, attack 3 - infantry stationary in the open 3 = +0"
    assert not any(b.startswith("he-") for b in game.state.units["grenadiers"].status)


def test_a_flag_is_an_optional_keyword_off_unless_named():
    from core.rulesets.linea_di_tiro.commands.fire import flag

    f = flag("long", "long range")
    assert (f.name, f.kind, f.help, f.optional, f.default, f.choices, f.keyword) == (
        "long",
        "choice",
        "long range",
        True,
        False,
        ("long",),
        True,
    )


def test_a_piece_without_an_mg_attack_is_refused_in_words(game):
    """LT-R060: a piece whose profile gives no MG/HE factor cannot fire on that table."""
    from linea_di_tiro_support import piece

    inject(game, piece("porters", "us", "rifles", team="GIs", stats={"mg": 0}))
    play(game, "next", "@us activate porters A2")
    assert (
        refused(game, "@us mg porters grenadiers defence=still-open", rule="LT-R001") == "Porters has no MG/HE attack"
    )


def test_a_shot_at_a_spotted_hidden_piece_is_the_firers_roll_told_to_all(game):
    """LT-R030: a hidden piece once spotted may be fired at; the shot is the firer's, seen
    by everyone who sees him (only a roll no piece makes, artillery, is as private as its
    target)."""
    inject(game, ev.Spotted(unit="pak", by_side="us"))
    play(game, "next", "@us activate gis A2")
    facts = play(game, "@us mg gis pak dice=6")
    assert [(e.unit, e.vis) for e in facts if isinstance(e, ev.Rolled)] == [("gis", ())]


def test_an_opportunity_shot_answers_an_assault_or_is_refused_in_words(game):
    """LT-R100/R101/R102 (ruling LT-OPPORTUNITY): the shot is at a piece of the side whose
    card it is, activated on it and not fleeing; a tank shoots none (it is assaulted only
    on the flank or rear); of what a moving tank overruns only a gun shoots first."""
    play(game, "next", "@us activate gis A4 prepare=0")  # 7♥: the GIs assault
    assert refused(game, "@german mg panzer gis opportunity defence=moving-open", rule="LT-R101") == (
        "Panzer IV is a tank: it is assaulted only on the flank or rear, so it has no opportunity shot (LT-R101)"
    )
    assert refused(game, "@german mg grenadiers bazooka opportunity defence=moving-open", rule="LT-R100") == (
        "GIs, bazooka half is assaulting nobody under this card: an opportunity shot answers an assault "
        "(LT-R100, LT-R102)"
    )
    play(game, "@us rout gis")  # fleeing, it assaults nobody
    assert refused(game, "@german mg grenadiers gis opportunity defence=moving-open", rule="LT-R100") == (
        "GIs, first half is assaulting nobody under this card: an opportunity shot answers an assault "
        "(LT-R100, LT-R102)"
    )
    play(game, "next", "next", "next", "next")  # K♦: the 1st Platoon, both Shermans
    play(game, "@us activate sherman1 A4 prepare=0", "@us activate sherman2 A1")  # one prepares, one moves
    assert refused(game, "@german at pak sherman1 opportunity", rule="LT-R100") == (
        "Sherman Easy is not moving under this card: a tank assaults in the course of its move (LT-R100)"
    )
    assert refused(game, "@german at grenadiers sherman2 opportunity", rule="LT-R100") == (
        "Grenadiers is overrun as infantry: it tests morale and may strike first (overrun); "
        "the opportunity shot is a gun's (LT-R100)"
    )
    # the Pak, a gun (a vehicle without armour, LT-R001), shoots first: 7 against the side's 3
    facts = play(game, "@german at pak sherman2 opportunity flank dice=6,6")
    assert _said(rolls(facts)[0])[::3] == (
        "AT fire at Sherman Fox, attack 7 - protection 3 = +4",
        "modified total 12, column +3,+4: no effect",
    )
    assert _status(facts, "pak") == [(("opportunity",), ()), (("fired-1",), ())]


def _last_attack(facts) -> list[tuple]:
    return [(e.value, e.vis) for e in facts if isinstance(e, ev.VarSet) and e.key == "secret.last-attack"]


def test_a_reply_answers_the_attack_just_survived_once_and_in_words(game):
    """LT-R052 (ruling LT-REPLY): the record of an attack survived names its attacker, its
    target and its card, for the referee alone; a ready attack answers it, at its attacker,
    under that card, once."""
    play(game, "next", "next", "@german activate panzer A4")  # Q♠: the Panzer prepares 2
    play(game, "next", "next", "next")  # K♦: us
    play(game, "@us activate sherman1 A4 prepare=0", "@us activate sherman2 A4 prepare=0")
    assert refused(game, "@german at panzer sherman1 ready", rule="LT-R052") == (
        "Panzer IV may spend a ready attack only to answer the attack it has just survived (LT-R052)"
    )
    facts = play(game, "@us at sherman1 panzer dice=6,6")  # 12: no effect
    card = game.state.turn
    assert _last_attack(facts) == [(f"sherman1:panzer:{card}", ("referee",))]
    assert refused(game, "@german at panzer sherman2 ready", rule="LT-R052") == (
        "Panzer IV answers only the piece that has just attacked it (LT-R052)"
    )
    inject(game, ev.StatusChanged(unit="pak", add=("ready-1",)))
    assert refused(game, "@german at pak sherman1 ready", rule="LT-R052") == (
        "Pak 40 may spend a ready attack only to answer the attack it has just survived (LT-R052)"
    )
    facts = play(game, "@german at panzer sherman1 ready dice=6,6")  # the reply, 12: no effect
    assert _last_attack(facts) == [("", ("referee",)), (f"panzer:sherman1:{card}", ("referee",))]
    assert _status(facts, "panzer")[0] == (("ready-1",), ("ready-2",))
    play(game, "@us at sherman2 panzer dice=6,6")  # survived: the Panzer may answer it under K♦ alone
    play(game, "next")  # 2♥: a new card; the attack of the last is no longer answered
    assert refused(game, "@german at panzer sherman2 ready", rule="LT-R052") == (
        "Panzer IV may spend a ready attack only to answer the attack it has just survived (LT-R052)"
    )


def test_an_attack_that_destroys_its_target_leaves_nothing_to_answer(game):
    """LT-R052: only a target that survives may answer; its record is emptied."""
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer dice=1,1")  # 2 on column 0: D
    assert _last_attack(facts) == [("", ("referee",))]


def test_an_attack_that_routs_its_target_leaves_nothing_to_answer_and_one_it_survives_does(game):
    """LT-R052 with LT-R051: a target the attack routs flees and fires no more, so nothing
    waits for its reply (no "may answer"); a 3 on the same column (no effect) leaves one."""
    play(game, "next", "@us activate sherman1 A2")
    facts = play(game, "@us at sherman1 panzer dice=2,2")  # 4 on column 0: R, it flees
    assert _last_attack(facts) == [("", ("referee",))]
    assert "may answer" not in " ".join(game.describe(e, "referee") for e in facts)
    play(game, "undo")
    facts = play(game, "@us at sherman1 panzer dice=6,6")  # 12: no effect, it stands
    assert _last_attack(facts) == [(f"sherman1:panzer:{game.state.turn}", ("referee",))]


def test_a_vehicles_defence_is_its_roles_before_its_profiles_and_the_referees_before_both(game):
    """C.7.1: an open-topped vehicle defends at 3 and a light tank at 4 by their roles,
    above their profile's "tank" (5); a defence the referee names comes first."""
    inject(
        game,
        piece("halftrack", "german", "pz4", roles=("open",)),
        piece("lynx", "german", "pz4", roles=("light",)),
    )
    play(game, "next", "@us activate sherman1 A4 prepare=0")  # two attacks
    facts = play(game, "@us mg sherman1 halftrack dice=6")
    assert _said(rolls(facts)[0])[0] == "MG fire at Halftrack, attack 3 - open-topped vehicle 3 = +0"
    facts = play(game, "@us mg sherman1 lynx defence=entrenched dice=6")
    assert _said(rolls(facts)[0])[0] == "MG fire at Lynx, attack 3 - entrenched infantry 5 = -2"
    play(game, "next", "next", "next", "next", "@us activate sherman1 A2")  # K♦
    facts = play(game, "@us mg sherman1 lynx dice=6")
    assert _said(rolls(facts)[0])[0] == "MG fire at Lynx, attack 3 - light tank or armoured car 4 = -1"


def test_an_ambush_answers_its_first_spotter_and_a_free_shot_waits_for_a_test(game):
    """LT-R053: the ambush reply is at the first enemy that spotted the piece; ruling
    LT-OPPORTUNITY with LT-R051: a piece whose morale test is pending takes no free shot."""
    play(game, "next", "@us activate gis A4 prepare=0")  # 7♥: the GIs assault
    inject(
        game,
        ev.VarSet(key="secret.ambush.grenadiers", value="bazooka", vis=("referee",)),
        ev.StatusChanged(unit="grenadiers", add=("ready-1",)),
    )
    assert refused(game, "@german mg grenadiers gis ambush defence=moving-open", rule="LT-R053") == (
        "Grenadiers may reply with -1 only at the first enemy that spotted it (LT-R053)"
    )
    inject(
        game,
        ev.StatusChanged(unit="grenadiers", remove=("ready-1",)),
        ev.VarSet(key="morale_due.grenadiers", value=1),  # as a T result leaves it
    )
    assert refused(game, "@german mg grenadiers gis opportunity defence=moving-open", rule="LT-R051") == (
        "Grenadiers must first take the morale test its result calls for: morale grenadiers (LT-R051)"
    )


def test_a_morale_test_settles_the_one_due_and_records_nothing_when_none_was(game):
    """LT-R051: a T result makes the test due; taking it settles it, once; a test the
    referee calls for when none was due leaves the record as it was."""
    play(game, "next", "@us activate sherman1 A2")
    play(game, "@us at sherman1 panzer dice=3,3")  # 6 on column 0: T
    assert game.state.vars.get("morale_due.panzer") == 1
    play(game, "next")  # Q♠: german
    facts = play(game, "@german morale panzer dice=1")
    assert [e.value for e in facts if isinstance(e, ev.VarSet) and e.key == "morale_due.panzer"] == [0]
    facts = play(game, "@german morale panzer dice=1")
    assert [e for e in facts if isinstance(e, ev.VarSet)] == []


def test_the_defences_a_refusal_offers_are_named_as_the_reader_types_them(game):
    """C.7.1: the choices of ``defence=`` are offered in the reader's language (in Italian
    the catalogue's typable names, from the ruleset's domain)."""
    from core.language.reader import reading

    play(game, "next", "@us activate gis A2")
    with reading("it"):
        said = refused(game, "@us mg gis grenadiers", rule="LT-R060b")
    assert said == (
        "di' cosa sta facendo Grenadiers: difesa=movimento-scoperto|balzo-scoperto|balzo-protetto|fermo-scoperto|"
        "mezzo-aperto|preparata|carro-leggero|trincerata|carro|fermo-protetto|movimento-protetto (C.7.1)"
    )


def test_the_prompts_of_a_long_shot_and_of_mg_fire_say_what_each_total_means(game):
    """LT-R050: at long range a total above 6 does nothing, so the rows stop at 6; LT-R060:
    the MG/HE prompt reads the table's column for each face (issue #48)."""
    play(game, "next", "@us activate sherman1 A2")
    long = game.submit("at sherman1 panzer long flank", role="us", faces=[])  # column +1
    assert (
        long.request.meanings_text()
        == "2–4: D: destroyed; 5: R: routs without a test; 6: T: morale test; 7–12: no effect"
    )
    mg = game.submit("mg sherman1 grenadiers defence=still-open", role="us", faces=[])
    assert mg.request.meanings_text() == "1–2: I: immobilised, loses its ready attacks; 3–6: no effect"


def test_a_ready_attack_not_held_is_refused_in_words(game):
    """LT-R052: only a piece holding a prepared attack may spend one."""
    play(game, "next", "@us activate sherman1 A2")
    assert refused(game, "@us at sherman1 panzer ready", rule="LT-R052") == "Sherman Easy holds no ready attack"
