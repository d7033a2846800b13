"""The report of every ruleset's recorded game: its figures are the game's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.game import Game
from core.language.i18n import plain, render
from core.log import events as ev
from core.log.narrate import result_of
from core.log.views import REFEREE, SPECTATOR
from core.report import account, build, render_html, render_md

SAVES = Path(__file__).resolve().parents[2] / "saves"
GAMES = sorted(p.name for p in SAVES.glob("*.ft"))


def test_every_ruleset_has_a_recorded_game_here():
    rulesets = {Game.open(SAVES / name, writable=False).header.ruleset for name in GAMES}
    assert rulesets == {"breaking-news", "bassa-intensita", "linea-di-tiro", "ludonet"}


@pytest.mark.parametrize("name", GAMES)
def test_the_referees_report_adds_up_to_the_final_state(name):
    game = Game.open(SAVES / name, writable=False)
    report = build(game, REFEREE)
    f, state = report.facts, game.state
    # the report holds the result as every reader is told it: who won and the scores, then its words
    assert f.scenario == state.scenario and f.result == result_of(state, game.ruleset.domain)
    assert render(state.result, game.ruleset.domain) in f.result
    for side in state.sides.values():
        out = sum(1 for u in state.units_of(side.id) if u.out)
        assert sum(f.losses_by_turn[side.id]) == out
        final = side.defeat_points if f.score_name == "defeat points" else out
        assert f.score_by_turn[side.id][-1] == final
    assert {u.id for u in f.units} == set(state.units)
    assert f.turns[-1].turn == state.turn
    # Every roll with a target was judged for a side or left out, none twice.
    seen = sum(len(t.rolls) for t in f.turns)
    judged = sum(len(s.rolls) for s in report.luck.sides)
    assert judged + report.luck.unjudged == seen
    assert seen == sum(1 for e in game.history.timeline() if isinstance(e, ev.Rolled))
    # Each format says the same things.
    text = render_md.render(report)
    page = render_html.render(report)
    for s in report.luck.sides:
        assert f.side_name(s.side) in text and f.side_name(s.side) in page


def test_the_demo_game_in_figures():
    report = build(Game.open(SAVES / "demo-game.ft", writable=False), REFEREE)
    f = report.facts
    assert f.score_name == "defeat points"
    assert f.score_by_turn == {"regulars": [0, 10, 15, 15, 25, 25, 30], "irregulars": [0, 0, 10, 10, 15, 20, 20]}
    assert f.losses_by_turn == {"regulars": [0, 0, 0, 0, 1, 0, 0], "irregulars": [0, 0, 2, 0, 1, 1, 0]}
    assert [u.name for u in f.units if u.out] == [
        "Cpl Bianchi",
        "Ahmed Noor",
        "Bashir Ali",
        "Dahir Omar",
        "Faysal Abdi",
    ]
    turn2 = f.turns[2]
    assert turn2.active == ["regulars"]
    assert [loss.unit for loss in turn2.losses] == ["Dahir Omar", "Ahmed Noor"]
    assert ("Dahir Omar", "regulars") in turn2.spotted
    # The narration is the `note` commands', not the rules' explanations.
    assert f.turns[0].notes[0].startswith("Afgooye, 06:10.")
    assert not any("negotiate at level" in n for t in f.turns for n in t.notes)
    # The decisive moments: the three biggest swings of defeat points, in order.
    assert [(m.turn, m.change, m.favours, m.swing) for m in f.moments] == [
        (1, {"regulars": 10, "irregulars": 0}, "irregulars", 10),
        (2, {"regulars": 5, "irregulars": 10}, "regulars", 5),
        (4, {"regulars": 10, "irregulars": 5}, "irregulars", 5),
    ]
    # Turn 6's final count (+15 media, -10 negotiation, both the Bersaglieri's) is a
    # swing of 5 too: ties go to the earlier moments.
    regulars, irregulars = report.luck.sides
    # Each roll counted as its check reads it (issue #26): a save needing every die
    # is one success or none, whatever its dice.
    # A roll naming its side counts for it (#48): the Bersaglieri's negotiation roll, typed by the referee.
    assert (regulars.successes, len(regulars.rolls)) == (16, 28)
    assert (irregulars.successes, len(irregulars.rolls)) == (14, 26)
    assert regulars.p_at_least == pytest.approx(0.903, abs=5e-4)
    worst = report.luck.unluckiest[0]
    assert worst.fact.unit == "Cpl Bianchi" and worst.fact.roll.faces == (1, 2, 1, 1)


def test_a_roll_against_a_vehicle_is_luck_for_the_side_that_attacks_it():
    # Bassa Intensità A.12.3: "armour penetration" names the Puma; a success is the militia's.
    report = build(Game.open(SAVES / "bassa-intensita-game.ft", writable=False), REFEREE)
    rolls = [r for t in report.facts.turns for r in t.rolls if plain(r.roll.purpose) == "armour penetration"]
    assert [(r.unit, r.side) for r in rolls] == [("Puma armoured car", "militia")]
    # A.10.3: "whether the HE catches him" names the militiaman the convoy's mortars fell on.
    caught = [r for t in report.facts.turns for r in t.rolls if plain(r.roll.purpose) == "whether the HE catches him"]
    assert [(r.unit, r.side) for r in caught] == [("Abdi the gunner", "convoy"), ("Farah", "convoy")]


def test_a_report_up_to_a_step_knows_nothing_after_it():
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    start_of_turn_3 = game.timeline.turn_start(3)
    report = build(game, REFEREE, start_of_turn_3)
    assert report.facts.result == "" and report.facts.step == start_of_turn_3
    assert report.facts.turns[-1].turn == 3
    assert [u.name for u in report.facts.units if u.out] == ["Ahmed Noor", "Dahir Omar"]
    assert "Up to step" in " ".join(account.summary(report))
    with pytest.raises(ValueError):
        build(game, REFEREE, game.timeline.length + 1)


def test_a_spectators_report_of_every_game_builds():
    for name in GAMES:
        report = build(Game.open(SAVES / name, writable=False), SPECTATOR)
        assert report.facts.role == SPECTATOR
