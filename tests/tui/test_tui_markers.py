"""The roster lists the hidden enemies' markers a side sees, by label only (issue 10),
and Enter on one puts its label on the command line, as on a figure its id."""

from __future__ import annotations

import pytest
from playing import opened
from waiting import piloted, press, settled

from core.game import Game
from tui.commandline import CommandInput
from tui.panes.roster import RosterPane

pytestmark = pytest.mark.long


def _demo(tmp_path) -> Game:
    return opened(tmp_path / "g.ft", "breaking-news", "scenario demo", "next", "next", seed=7, clock=lambda: 1_000)


def _tree_lines(app) -> list[str]:
    view = app.screen.query_one(RosterPane).view
    return [view.label(key).plain for key in view.item_keys()]


async def test_the_roster_shows_a_sides_markers_by_label_and_names_one(tmp_path):
    game = _demo(tmp_path)
    labels = game.view("regulars").markers
    assert len(labels) == 2
    async with piloted(game, (100, 40), role="regulars", seat="reg", settle=True) as (app, pilot):
        lines = _tree_lines(app)
        at = lines.index("Hidden markers 2 on the table")
        assert lines[at + 1 :] == list(labels)  # in label order, and nothing else about them
        assert not any("Dahir" in line or "Egal" in line for line in lines)
        roster = app.screen.query_one(RosterPane)
        await press(pilot, "f6")
        roster.view.move_to(("marker", labels[1]))
        await settled(pilot)
        assert f"marker {labels[1]}: a hidden enemy on the table" in roster._details.plain
        spotter = next(u.id for u in game.state.units.values() if u.side == "regulars" and u.in_play)
        line = app.screen.query_one(CommandInput)
        line.value = f"react-spot {spotter} "  # a marker goes where the command takes a hidden figure
        await press(pilot, "enter")
        assert line.value == f"react-spot {spotter} {labels[1]} "
    game.close()


async def test_the_referee_and_the_hidden_side_see_the_figure_with_its_label(tmp_path):
    game = _demo(tmp_path)
    label = game.state.units["dahir"].marker
    for role in ("referee", "irregulars"):
        async with piloted(game, (100, 40), role=role, seat="x", settle=True) as (app, pilot):
            lines = _tree_lines(app)
            assert any(line.startswith("Dahir Omar") and line.endswith(f"marker {label}") for line in lines)
            assert not any(line.startswith("Hidden markers") for line in lines)
    game.close()
