"""What the game screen says, and what it does not (issue #61): the defeat points only for a
ruleset that scores them; a side's own figures first in its roster."""

from __future__ import annotations

import pytest
from playing import opened
from registry_walk import RULESETS, set_up
from textual.widgets import SelectionList
from waiting import piloted, press, screen_of, settled, type_text, until

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from tui.panes.phase import PhasePane
from tui.panes.phase import phase_text as phase_lines
from tui.panes.roster import RosterPane
from tui.screens.newgame import NewGameScreen


def phase_text(app) -> str:
    return str(app.screen.query_one(PhasePane).render())


def roster_rows(app) -> list[str]:
    return app.screen.query_one(RosterPane).view.rows_text()


@pytest.mark.parametrize(
    ("ruleset", "scores"),
    [("breaking-news", True), ("bassa-intensita", False), ("linea-di-tiro", False), ("ludonet", False)],
)
async def test_defeat_points_are_shown_only_where_the_ruleset_scores_them(tmp_path, ruleset, scores):
    game = opened(tmp_path / "g.ft", ruleset, "scenario demo", seed=3)
    first = next(iter(game.state.sides))
    async with piloted(game, settle=True) as (app, pilot):
        assert ("Defeat points" in phase_text(app)) is scores
        assert any(" DP 0 " in row for row in roster_rows(app)) is scores
        if scores:  # where the book keeps none, dp is refused (tests/core/test_no_defeat_points.py, #61)
            await type_text(pilot, f"dp {first} 5 a ruling", "enter")
            await until(pilot, lambda: any(" DP 5 " in row for row in roster_rows(app)), "the defeat points shown")
    game.close()


def side_rows(app) -> list[str]:
    view = app.screen.query_one(RosterPane).view
    return [key[1] for key in view.item_keys() if key[0] == "side"]


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_sides_seat_lists_its_own_side_first_and_the_referees_the_scenarios_order(tmp_path, size):
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", seed=3)
    first, second = list(game.state.sides)
    for role, order in ((REFEREE, [first, second]), (second, [second, first]), (first, [first, second])):
        async with piloted(game, size, role=role, settle=True) as (app, pilot):
            assert side_rows(app) == order, role
            assert game.state.sides[order[0]].name in roster_rows(app)[0]  # the top row shown
    game.close()


def box_rows(widget) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.option_count)]


async def test_an_optional_rule_reads_ticked_only_when_it_is_on(tmp_path):
    """``[ ]`` and ``[x]``, not Textual's ``▐X▌`` in both states, its colour alone differing."""
    game = Game.new(tmp_path / "g.ft", "breaking-news", "it-2009-12-09", seed=3)
    game.execute("scenario demo", role=REFEREE)
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+n")
        screen = screen_of(app, NewGameScreen)
        await until(pilot, lambda: screen.query("#setup-options"), "the optional rules offered")
        options = screen.query_one("#setup-options", SelectionList)
        await settled(pilot)
        rows = box_rows(options)
        assert [row[:4] for row in rows] == ["[ ] "] * 3 and "§9.3" in rows[2], rows
        options.focus()
        await press(pilot, "down", "down", "space")  # §9.3 on
        await until(pilot, lambda: box_rows(options)[2].startswith("[x] "), "§9.3 ticked")
        assert [row[:4] for row in box_rows(options)] == ["[ ] ", "[ ] ", "[x] "]
        assert "option wounded on" in screen.setup_lines()
    game.close()


@pytest.mark.parametrize(
    ("ruleset", "setup", "said"),
    [
        ("breaking-news", ("option wounded on",), "Optional rules: §9.3"),
        ("breaking-news", ("option wounded on", "option deviation on"), "Optional rules: §8.0.2 §9.3"),
        ("breaking-news", (), None),  # none in force: the line keeps its room for the undo's hint
        ("ludonet", (), None),
    ],
)
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_game_screen_names_the_optional_rules_in_force(tmp_path, ruleset, setup, said, size):
    variant = "it-2009-12-09" if ruleset == "breaking-news" else ""
    game = opened(tmp_path / "g.ft", ruleset, "scenario demo", *setup, variant=variant, seed=3)
    async with piloted(game, size, role=next(iter(game.state.sides)), settle=True) as (app, pilot):
        shown = " ".join(phase_text(app).split())  # as wrapped at the pane's width
        if said is None:
            assert "Optional rules" not in shown
        else:
            assert said in shown, shown
    game.close()


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_phase_pane_names_every_phase_as_a_heading_in_both_languages(tmp_path, ruleset, language):
    """#61: Ludonet's bar read "… › corpo a corpo › Morale › fine del turno" in Italian (the book's
    words, and a title where the word is the id) and "Set-up › … › first movement › Reveal" in English."""
    game = set_up(Game.new(tmp_path / "g.ft", ruleset, seed=3))
    with reading(language):
        bar = phase_lines(game.ruleset, game.state).plain.split("\n")[1]  # the turn's line, then the phases'
    names = bar.split(" › ")
    assert len(names) == len(game.ruleset.phases)
    assert [name for name in names if not name[:1].isupper()] == [], bar
    game.close()
