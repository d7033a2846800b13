"""Ludonet melee lines, leaving a melee, lying down, reinforcements and the end of the game."""

from __future__ import annotations

from contextlib import closing

from ln_support import ludonet_game, play, rolls, to_phase
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.refusal import TYPING
from core.rulesets.ludonet import rules
from core.rulesets.ludonet.commands import COMMANDS


def test_pure_rules_of_leaving_reinforcing_and_the_end():
    assert rules.leaves_melee(3, 3) and not rules.leaves_melee(3, 4)
    assert not rules.retreat_ends(5, 4) and rules.retreat_ends(5, 5) and rules.retreat_ends(5, 6)
    assert rules.last_standing({"a": 2, "b": 1}) is None
    assert rules.last_standing({"a": 2, "b": 0}) == ("a",)
    assert rules.last_standing({"a": 0, "b": 0}) == ()


def test_melee_lines_name_both_fighters(armoured):
    to_phase(armoured, 1, "melee")
    play(armoured, "@paras melee smith hans dice=2,5")
    text = [line.text for line in armoured.log_lines(role="referee")][-4:]
    assert any(t.startswith("Cpl Smith's melee against Uffz Hans Vogt: 1d6") for t in text)
    assert any(t.startswith("Uffz Hans Vogt's melee against Cpl Smith: 1d6") for t in text)
    assert plain(armoured.state.units["smith"].out) == "eliminated in melee by Uffz Hans Vogt"


def test_leaving_a_melee(armoured):
    """Rules: LN-AMB-13."""
    to_phase(armoured, 1, "melee")
    # Jones (expert) 3+1 = 4 against Fritz's last roll 2+2 = 4: not beaten, he gets away
    facts = play(armoured, "@paras leave jones fritz dice=3,2")
    leaver, opponent = rolls(facts)
    assert (plain(leaver.purpose), plain(opponent.purpose)) == (
        "leaving the melee with Gefr Fritz Lang",
        "last roll at Pte Jones leaving",
    )
    assert [m.value for m in opponent.mods] == [2] and opponent.rule == "LN-R052"
    assert opponent.target == 3  # 3 + 2 = 5 would have beaten Jones's 4
    assert any(isinstance(e, ev.Noted) and "breaks away" in plain(e.text) for e in facts)
    assert armoured.state.units["fritz"].in_play and armoured.state.units["jones"].in_play
    # Wood 1+1 = 2 against Kurt's 1+2 = 3: cut down; the leaver never harms the opponent
    play(armoured, "@paras leave wood kurt dice=1,1")
    assert plain(armoured.state.units["wood"].out) == "cut down by Schtz Kurt Bauer leaving the melee"
    to_phase(armoured, 2, "move-first")
    refused(armoured, "leave fritz jones", "own move", rule="LN-R052")
    play(armoured, "@paras move jones 10")
    refused(armoured, "@paras leave jones fritz", "leaves before it moves", rule="LN-R052")


def test_lying_down_without_crawling(armoured):
    """Rules: LN-R051."""
    to_phase(armoured, 1, "move-first")
    play(armoured, "@paras prone wood")
    wood = armoured.state.units["wood"]
    assert wood.has("prone") and not wood.has("moved") and wood.moved_cm == 0
    refused(armoured, "@paras prone wood", "already lying down", rule="LN-R031")
    refused(armoured, "@paras prone sherman", "not a figure", rule="LN-R031")
    play(armoured, "@paras next")
    refused(armoured, "prone jones", "cannot lie down: it is Farm garrison's move", rule="LN-AMB-01")
    to_phase(armoured, 1, "fire")
    facts = play(armoured, "@garrison fire hans wood full dice=4")  # 5+, -1 lying down: needs 6
    assert rolls(facts)[0].target == 6
    to_phase(armoured, 1, "melee")
    facts = play(armoured, "@garrison melee fritz wood dice=3,3")
    assert [m.value for m in rolls(facts)[1].mods] == [1, -1]  # expert, lying down
    to_phase(armoured, 2, "move-first")
    play(armoured, "@paras stand wood")
    assert not armoured.state.units["wood"].has("prone")


def test_morale_falls_due_at_half_losses_and_at_each_further_loss(armoured):
    """Rules: LN-AMB-16."""
    assert not rules.morale_due(5, 3, losses_tested=3) and rules.morale_due(5, 4, losses_tested=3)
    to_phase(armoured, 1, "melee")
    play(armoured, "out kurt", "out otto", "out mg42")
    facts = play(armoured, "next")
    (due,) = [e for e in facts if isinstance(e, ev.Noted)]
    assert (plain(due.text), due.vis) == ("morale tests due (LN-R070): Gruppe Vogt (3 of 5 lost)", ("garrison",))
    play(armoured, "@garrison morale gruppe vogt dice=4")
    refused(
        armoured,
        "@garrison morale gruppe vogt",
        "tested at 3 lost of 5: it tests again at its next loss",
        rule="LN-R070",
    )
    play(armoured, "out fritz")
    facts = play(armoured, "@garrison morale gruppe vogt dice=2")
    assert plain(rolls(facts)[0].outcome) == "shaken: falls back"
    to_phase(armoured, 2, "morale")
    assert not any("morale tests due" in line.text for line in armoured.log_lines("garrison")[-3:])
    play(armoured, "out hans")
    refused(armoured, "@garrison morale gruppe vogt", "nobody left in play", rule="LN-R070")


def test_reinforcements_end_a_retreat(armoured):
    to_phase(armoured, 1, "morale")
    play(armoured, "out kurt", "out otto", "out mg42")
    play(armoured, "@garrison morale gruppe vogt dice=1")
    assert armoured.state.units["fritz"].has("retreating") and armoured.state.units["hans"].has("retreating")
    to_phase(armoured, 2, "move-second")
    refused(armoured, "@garrison reinforce fritz hans", "already in Gruppe Vogt", rule="LN-R070")
    refused(armoured, "reinforce smith typhoon", "is an aircraft", rule="LN-R070")
    refused(armoured, "@garrison reinforce fritz smith", "no unit 'smith' on that side", rule=TYPING)
    facts = play(armoured, "@garrison reinforce fritz karl max")
    assert any(isinstance(e, ev.Noted) and "4 of 5: it keeps retreating" in plain(e.text) for e in facts)
    assert armoured.state.units["hans"].has("retreating")
    # LN-R070: the unit retreats, the men who joined it with it
    assert armoured.state.units["karl"].has("retreating") and armoured.state.units["max"].has("retreating")
    facts = play(armoured, "@garrison reinforce hans paul")
    assert any(isinstance(e, ev.Noted) and "back to 5 of 5: the retreat ends" in plain(e.text) for e in facts)
    s = armoured.state
    assert not any(s.units[u].has("retreating") for u in ("hans", "fritz", "karl", "max", "paul"))
    # the reserve gave all its men away: its strength is what counts (ruling LN-REINFORCE)
    to_phase(armoured, 2, "morale")
    refused(armoured, "@garrison morale reserve", "Reserve has nobody left in play to test", rule="LN-R070")


def test_the_last_turn_goes_to_the_final_count(tmp_path, monkeypatch):
    with closing(ludonet_game(tmp_path, monkeypatch, {"turns": 1, "victory": "hold the farm at the end"})) as game:
        refused(game, "victory paras", "has not started", rule="LN-AMB-01")
        to_phase(game, 1, "end")
        facts = play(game, "next")
        assert game.state.phase == "final"
        assert any(
            isinstance(e, ev.Noted) and plain(e.text).endswith("victory conditions: hold the farm at the end")
            for e in facts
        )
        refused(game, "next", "victory SIDE", rule="ENG-2")
        refused(game, "@paras victory paras", "referee", rule="ENG-1")
        play(game, "out hans")
        play(game, "victory garrison the farm is still held")
        assert plain(game.state.result) == (
            "Farm garrison win: the farm is still held; losses: 7th Parachute Battalion 0 of 8, Farm garrison 1 of 11"
        )
        assert (game.state.winner, game.state.draw, game.state.scores) == (
            "garrison",
            False,
            {"paras": 0, "garrison": 1},
        )
        assert game.state.phase == "ended"
        refused(game, "victory draw", "the game is over", rule="ENG-2")


def test_a_side_with_nothing_left_loses(armoured):
    to_phase(armoured, 1, "end")
    for u in armoured.state.units_of("garrison"):
        play(armoured, f"out {u.id}")
    play(armoured, "next")
    assert armoured.state.phase == "ended"
    assert plain(armoured.state.result).startswith(
        "7th Parachute Battalion win: Farm garrison have nothing left in play"
    )
    assert (armoured.state.winner, armoured.state.scores["garrison"]) == ("paras", 11)


def test_without_a_last_turn_the_game_goes_on_until_the_referee_ends_it(armoured):
    to_phase(armoured, 3, "move-first")
    play(armoured, "victory draw both sides withdraw")
    assert plain(armoured.state.result).startswith("a draw: both sides withdraw")
    assert (armoured.state.winner, armoured.state.draw) == ("", True)


def test_every_command_has_help_dice_and_examples():
    # that each example parses against a built-in scenario, as a player would type it:
    # tests/core/test_command_examples.py (not against this folder's own pieces)
    for spec in COMMANDS:
        assert spec.help and spec.rule and spec.examples, spec.name
        assert ("Dice:" in spec.help) == spec.rolls and ("No dice" in spec.help) != spec.rolls, spec.name
