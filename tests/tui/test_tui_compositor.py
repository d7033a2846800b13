"""The game screen's compositor renders for a partial update only the rows it sends (``tui.compositor``),
and sends exactly what Textual's own would: the same escape codes, byte for byte."""

from __future__ import annotations

import random
from functools import partial

import pytest
from skirmish import patrol_game
from textual._compositor import Compositor
from textual.geometry import Region
from waiting import piloted, press, settled

from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.compositor import RowsCompositor
from tui.screens.game import GameScreen

SIZE = (100, 30)
#: The rows compositor's own update, taken before any test's spy replaces it.
ROWS_UPDATE = RowsCompositor.render_partial_update


def partial_update(compositor: Compositor, regions: set[Region], console, *, textuals: bool) -> str:
    """The escape codes of the partial update of ``regions``, by ``compositor`` (or by Textual's own code)."""
    compositor._dirty_regions.clear()
    compositor._dirty_regions.update(regions)
    if textuals:
        compositor._get_renders = partial(Compositor._get_renders, compositor)  # type: ignore[method-assign]
    try:
        update = (Compositor.render_partial_update if textuals else ROWS_UPDATE)(compositor)
    finally:
        if textuals:
            del compositor._get_renders
    return "" if update is None else update.render_segments(console)


@pytest.mark.long
async def test_the_game_screen_draws_with_the_rows_compositor(tmp_path):
    game = patrol_game(tmp_path / "shared.ft")
    async with piloted(game, role="blue", seat="anna", settle=True) as (app, pilot):
        assert isinstance(app.screen, GameScreen)
        assert type(app.screen._compositor) is RowsCompositor


async def test_after_commands_each_partial_update_is_textuals_own(tmp_path, monkeypatch):
    """The updates another seat's commands cause (the log scrolls, the dice and the phase change), each drawn
    twice: by the rows compositor, as the seat does, and by Textual's compositor, for the same changed regions."""
    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    app = FireteamApp(game, role="blue", seat="anna")
    checked: list[tuple[str, str]] = []
    ours = RowsCompositor.render_partial_update

    def both(self):
        regions = set(self._dirty_regions)
        update = ours(self)
        if regions:
            mine = "" if update is None else update.render_segments(app.console)
            checked.append((mine, partial_update(self, regions, app.console, textuals=True)))
        return update

    monkeypatch.setattr(RowsCompositor, "render_partial_update", both)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        for command in ("note smoke drifts north", "next", "mark ivan suppressed", "note a second note"):
            game.execute(command, role=REFEREE)
            await settled(pilot)
        game.undo(role=REFEREE)
        await settled(pilot)
        await press(pilot, "tab", "down", "down")  # focus moves, a cursor row changes
    assert len(checked) >= 5
    assert all(mine for mine, _ in checked), "every update drew something"
    for mine, textuals in checked:
        assert mine == textuals


@pytest.mark.long
async def test_any_changed_regions_draw_as_textuals_compositor_would(tmp_path):
    """Changed regions of any shape and place on the screen: across widget edges, over borders."""
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "next"))
    async with piloted(game, role="blue", seat="anna", settle=True) as (app, pilot):
        compositor = app.screen._compositor
        assert isinstance(compositor, RowsCompositor)
        width, height = SIZE
        draw = random.Random(30)
        cases = [{w.region} for w in compositor.visible_widgets] + [{Region(0, 0, width, height)}]
        for _ in range(150):
            regions = set()
            for _ in range(draw.randint(1, 4)):
                x, y = draw.randrange(width), draw.randrange(height)
                # Within the screen, as Textual clips every widget's changed region to what is visible of it.
                regions.add(Region(x, y, draw.randint(1, width - x), draw.randint(1, height - y)))
            cases.append(regions)
        for regions in cases:
            mine = partial_update(compositor, regions, app.console, textuals=False)
            assert mine, regions
            assert mine == partial_update(compositor, regions, app.console, textuals=True), regions


async def test_a_change_under_a_front_widget_asks_no_widget_behind_it(tmp_path, monkeypatch):
    """Another seat's note scrolls the log: only the log is asked for rows, not its pane, the
    container under it or the screen, whose pieces of those rows the log fills (and the bytes
    sent are Textual's own, as the tests above check)."""
    game = patrol_game(tmp_path / "shared.ft")
    app = FireteamApp(game, role="blue", seat="anna")
    asked: list[str] = []
    ours = RowsCompositor._get_renders

    def spy(self, crop=None):
        for region, clip, strips in ours(self, crop):
            widget = next(w for w, (r, _) in self.visible_widgets.items() if r == region)
            asked.append(type(widget).__name__)
            yield region, clip, strips

    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        monkeypatch.setattr(RowsCompositor, "_get_renders", spy)
        game.execute("note smoke drifts north", role=REFEREE)
        await settled(pilot)
    assert "LogView" in asked
    assert not {"LogPane", "GameScreen", "Container"} & set(asked), asked


def full_update(compositor: Compositor, console, *, textuals: bool) -> str:
    """The escape codes of a full update (the first frame's kind), by ``compositor`` or by Textual's own code."""
    if textuals:
        compositor._get_renders = partial(Compositor._get_renders, compositor)  # type: ignore[method-assign]
    try:
        update = (Compositor.render_full_update if textuals else RowsCompositor.render_full_update)(compositor)
    finally:
        if textuals:
            del compositor._get_renders
    return update.render_segments(console)


@pytest.mark.long
@pytest.mark.parametrize("size", [(100, 30), (80, 24), (160, 48), (60, 16)])
async def test_a_full_update_is_textuals_own_and_asks_no_widget_for_a_row_others_fill(tmp_path, monkeypatch, size):
    """The first frame is a full update: the same escape codes as Textual's compositor's (with a
    dialog over the screen too), and the screen, which every pane covers, is asked only for what shows of it."""
    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    app = FireteamApp(game, role="blue", seat="anna")
    asked: dict[str, int] = {}
    ours = RowsCompositor._get_renders

    def spy(self, crop=None):
        for region, clip, strips in ours(self, crop):
            widget = next(w for w, (r, _) in self.visible_widgets.items() if r == region)
            asked[type(widget).__name__] = asked.get(type(widget).__name__, 0) + len(strips)
            yield region, clip, strips

    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        compositor = app.screen._compositor
        monkeypatch.setattr(RowsCompositor, "_get_renders", spy)
        mine = full_update(compositor, app.console, textuals=False)
        monkeypatch.undo()
        assert mine == full_update(compositor, app.console, textuals=True)
        assert asked.get("GameScreen", 0) < size[1] // 2, asked  # Textual's asks it for every row
        await press(pilot, "ctrl+z")  # the undo box, over the panes
        assert full_update(compositor, app.console, textuals=False) == full_update(
            compositor, app.console, textuals=True
        )
