"""The roster's own line view (tui/panes/rosterview.py): Tree's rows, keys and looks,
a cursor that keeps its item, and only the rows that changed drawn again."""

from __future__ import annotations

import pytest
from skirmish import game_fixture, patrol_game  # noqa: F401  (a fixture)
from textual import events
from textual.geometry import Region
from waiting import piloted, press, settled

from core.log.views import REFEREE
from tui.commandline import CommandInput
from tui.panes.roster import RosterPane
from tui.panes.rosterview import Item, RosterView, link

PATROL = [
    "▼ Blue Patrol DP 0 · 4/4",
    "├ ▼ Alpha 2/2",
    "│ ├ Sgt Cole ★ Vet rifle",
    "│ └ Pte Diaz Vet LMG",
    "├ ▼ Bravo 1/1",
    "│ └ Pte Park Reg rifle",
    "└ ▼ Press 1/1",
    "  └ Ann Lee (press) journalist",
    "▼ Red Cell DP 0 · 4/4",
    "├ ▼ Cell 2/2",
    "│ ├ Ivan Petrov ★ Mil AK",
    "│ └ Kemal Aydin Mil RPG",
    "└ ▼ Well 2/2",
    "  ├ Omar Haddad  hidden  Mil AK",
    "  └ Yusuf Demir  hidden  Mil AK",
]


def view_of(app) -> RosterView:
    return app.screen.query_one(RosterPane).view


def details(app) -> str:
    return app.screen.query_one(RosterPane)._details.plain


def test_link_gives_each_item_its_parent_and_whether_it_is_the_last_of_them():
    from rich.text import Text

    items = [Item(k, Text(), d) for k, d in [(("a",), 0), (("a1",), 1), (("a2",), 1), (("b",), 0), (("b1",), 1)]]
    link(items)
    assert [i.parent.key if i.parent else None for i in items] == [None, ("a",), ("a",), None, ("b",)]
    assert [i.last for i in items] == [False, False, True, True, True]


@pytest.mark.long
async def test_the_rows_are_the_trees_sides_teams_and_figures_with_its_guides(game):
    async with piloted(game, settle=True) as (app, pilot):
        view = view_of(app)
        assert view.rows_text() == PATROL
        assert view.cursor == -1 and details(app) == ""  # as Tree's: no cursor until a key moves it
        screen = [strip.text for strip in app.screen._compositor.render_strips()]
        region = view.region
        assert [line[region.x : region.right].rstrip() for line in screen[region.y : region.y + 15]] == PATROL


@pytest.mark.long
async def test_the_keys_move_the_cursor_and_the_details_follow(game):
    async with piloted(game) as (app, pilot):
        view = view_of(app)
        await press(pilot, "f6", "down")
        assert view.cursor_key == ("side", "blue") and details(app).startswith("Blue Patrol (blue, ")
        await press(pilot, "down", "down")
        assert view.cursor_key == ("unit", "cole") and details(app).startswith("Sgt Cole (cole) · Vet")
        await press(pilot, "end")
        assert view.cursor_key == ("unit", "yusuf")
        await press(pilot, "home", "pagedown")  # 15 rows in 16: to the last
        assert view.cursor == 14
        await press(pilot, "pageup", "up")
        assert view.cursor == 0
        await press(pilot, "shift+down")  # the next side
        assert view.cursor_key == ("side", "red")
        await press(pilot, "down", "shift+down", "shift+up")  # team Well, back to team Cell
        assert view.cursor_key == ("team", "red", "Cell")
        await press(pilot, "shift+up")  # no team before it: its side
        assert view.cursor_key == ("side", "red")
        await press(pilot, "down", "down", "shift+right")  # from Ivan to the team after his
        assert view.cursor_key == ("team", "red", "Well")
        await press(pilot, "down", "shift+left")  # from Omar to his team
        assert view.cursor_key == ("team", "red", "Well")
        await press(pilot, "up", "shift+down", "shift+down")  # Kemal: the last of Cell, then the team after
        assert view.cursor_key == ("team", "red", "Well")


@pytest.mark.long
async def test_enter_folds_a_group_and_names_a_figure_and_ctrl_space_folds_the_groups_beside(game):
    async with piloted(game) as (app, pilot):
        view = view_of(app)
        await press(pilot, "f6", "down", "down", "enter")  # team Alpha folded
        assert view.rows_text()[:3] == ["▼ Blue Patrol DP 0 · 4/4", "├ ▶ Alpha 2/2", "├ ▼ Bravo 1/1"]
        assert view.cursor_key == ("team", "blue", "Alpha")
        await press(pilot, "enter")
        assert view.rows_text() == PATROL
        await press(pilot, "up", "enter")  # a side folded: the other stays
        assert view.rows_text() == ["▶ Blue Patrol DP 0 · 4/4", *PATROL[8:]]
        await press(pilot, "ctrl+@")  # Ctrl+Space: Blue folded, not all: every side folded
        assert view.rows_text() == ["▶ Blue Patrol DP 0 · 4/4", "▶ Red Cell DP 0 · 4/4"]
        await press(pilot, "ctrl+@")  # all folded: all unfolded
        assert view.rows_text() == PATROL
        line = app.screen.query_one(CommandInput)
        line.value = "mark "
        await press(pilot, "down", "down", "enter")
        assert line.value == "mark cole "


@pytest.mark.long
async def test_a_click_chooses_a_figure_or_folds_a_group(game):
    async with piloted(game) as (app, pilot):
        view = view_of(app)
        line = app.screen.query_one(CommandInput)
        line.value = "mark "
        await pilot.click(view, offset=(4, 5))  # Pte Park
        await settled(pilot)
        assert view.cursor_key == ("unit", "park") and line.value == "mark park "
        await pilot.click(view, offset=(4, 9))  # team Cell
        await settled(pilot)
        assert view.rows_text()[9] == "├ ▶ Cell 2/2" and view.cursor_key == ("team", "red", "Cell")


async def test_the_cursor_keeps_its_item_across_a_relabel_and_a_rebuild(tmp_path):
    game = patrol_game(tmp_path / "g.ft")
    async with piloted(game, role="blue", seat="anna") as (app, pilot):
        view = view_of(app)
        await press(pilot, "f6", *["down"] * 5, "enter", "down")  # Bravo folded, then Press
        assert view.cursor_key == ("team", "blue", "Press")
        game.execute("mark diaz wounded", role=REFEREE)  # a relabel
        await settled(pilot)
        assert view.cursor_key == ("team", "blue", "Press") and "wounded" in view.rows_text()[3]
        await press(pilot, "end")
        assert view.cursor_key == ("unit", "kemal")  # the hidden two are not this side's to see
        rows = view.rows
        game.execute("clear omar hidden", role=REFEREE)  # a new row above the cursor: a rebuild
        await settled(pilot)
        assert view.rows == rows + 2 and view.cursor_key == ("unit", "kemal")  # his team's row, and Omar
        assert view.rows_text()[4] == "├ ▶ Bravo 1/1"  # still folded
        assert details(app).startswith("Kemal Aydin (kemal)")


@pytest.mark.long
async def test_a_filter_puts_the_cursor_on_the_first_match_and_clearing_it_keeps_the_item(game):
    async with piloted(game) as (app, pilot):
        view = view_of(app)
        await press(pilot, "f6", "down", "enter")  # Blue folded
        await press(pilot, "ctrl+k", *"rifle")
        assert view.cursor_key == ("unit", "cole")  # the first match, its side unfolded to show it
        assert view.rows_text()[:3] == ["▼ Blue Patrol DP 0 · 4/4", "├ ▼ Alpha 1/1", "│ └ Sgt Cole ★ Vet rifle"]
        assert details(app).startswith("Sgt Cole (cole)")
        await press(pilot, "enter", "down", "down")  # to the list: Bravo, then Park
        assert view.cursor_key == ("unit", "park")
        await press(pilot, "escape")
        assert view.rows_text() == PATROL and view.cursor_key == ("unit", "park")


async def test_a_relabel_draws_again_only_the_rows_that_changed(tmp_path, monkeypatch):
    game = patrol_game(tmp_path / "g.ft")
    async with piloted(game) as (app, pilot):
        view = view_of(app)
        await settled(pilot)
        drawn = []
        refresh = view.refresh
        monkeypatch.setattr(view, "refresh", lambda *regions, **kw: (drawn.append(regions), refresh(*regions, **kw)))
        game.execute("mark ivan suppressed", role=REFEREE)  # his row, and his team's count of the suppressed
        await settled(pilot)
        width = view.size.width
        assert sorted(drawn) == [(Region(0, 9, width, 1),), (Region(0, 10, width, 1),)]
        assert view.rows_text()[9] == "├ ▼ Cell 2/2 1 sup"


async def test_page_keys_and_the_mouse_wheel_scroll_the_roster(tmp_path):
    from tui.bench.screenshots import demo_game

    async with piloted(demo_game(tmp_path / "demo.ft"), (80, 24)) as (app, pilot):
        view = view_of(app)
        await settled(pilot)
        assert view.rows > view.size.height and view.scroll_y == 0
        await press(pilot, "f6", "home", "pagedown")  # a page less a row down: the last row on screen
        assert view.cursor == view.size.height - 1 and view.scroll_y == 0
        await press(pilot, "pagedown")
        assert view.cursor == min(view.rows - 1, 2 * (view.size.height - 1))
        assert view.cursor == int(view.scroll_y) + view.size.height - 1  # scrolled to show it at the bottom
        await press(pilot, "home")
        assert view.scroll_y == 0
        # Pilot has no wheel: the event the terminal sends.
        view.post_message(events.MouseScrollDown(view, 2, 2, 0, 1, 0, False, False, False))
        await settled(pilot)
        assert view.scroll_y > 0


@pytest.mark.long
async def test_the_cursors_colours_follow_the_focus_and_the_theme(game):
    async with piloted(game) as (app, pilot):
        view = view_of(app)

        def cursor_style():
            strip = view.render_lines(view.size.region)[view.cursor]
            return next(seg.style for seg in strip if seg.text.strip() and seg.text.strip() not in "│├└▼▶")

        await press(pilot, "f6", "down")
        focused = cursor_style()
        assert focused.bgcolor == view.get_component_rich_style("roster--cursor", partial=False).bgcolor
        await press(pilot, "f7")
        blurred = cursor_style()
        assert blurred.bgcolor != focused.bgcolor
        assert blurred.bgcolor == view.get_component_rich_style("roster--cursor", partial=False).bgcolor
        app.theme = "textual-light"
        await settled(pilot)
        assert cursor_style().bgcolor == view.get_component_rich_style("roster--cursor", partial=False).bgcolor
        assert cursor_style().bgcolor != blurred.bgcolor


async def test_a_cursor_whose_item_goes_stays_on_its_row_or_the_last(tmp_path):
    game = patrol_game(tmp_path / "g.ft")
    async with piloted(game, role="blue", seat="anna") as (app, pilot):
        view = view_of(app)
        await settled(pilot)
        rows = view.rows
        game.execute("clear yusuf hidden", role=REFEREE)
        await settled(pilot)
        await press(pilot, "f6", "end")
        assert view.cursor_key == ("unit", "yusuf") and view.rows == rows + 2  # his team's row and his
        game.execute("mark yusuf hidden", role=REFEREE)  # out of this side's sight again
        await settled(pilot)
        assert view.rows == rows and view.cursor == rows - 1 and view.cursor_key == ("unit", "kemal")
        assert details(app).startswith("Kemal Aydin (kemal)")


async def test_hostile_names_are_shown_as_text_never_as_markup_or_escapes():
    from textual.app import App

    from core.log.state import Unit
    from tui.panes.roster import markers_label, team_label, unit_label
    from tui.plain import plain

    bad = "[b]Bad[/b] [@click=app.quit]x[/] \x1b[2J"
    unit = Unit(id="u", name=bad, side="s", team=bad, weapons=(bad,))
    items = [
        Item(("team", "s", bad), team_label(bad, [unit], None), 0, group=True),
        Item(("unit", "u"), unit_label(unit), 1),
        Item(("markers",), markers_label((bad,)), 0, group=True),
        Item(("marker", bad), plain(bad), 1),
    ]

    class One(App):
        def compose(self):
            yield RosterView()

    app = One()
    async with app.run_test(size=(120, 10)) as pilot:
        view = app.query_one(RosterView)
        view.show(items)
        await settled(pilot)
        shown = [strip.text for strip in app.screen._compositor.render_strips()]
        escaped = "[b]Bad[/b] [@click=app.quit]x[/] \\x1b[2J"
        assert shown[0].startswith(f"▼ {escaped} 1/1") and shown[1].startswith(f"└ {escaped} {escaped}")
        assert shown[3].startswith(f"└ {escaped}")
        assert app.is_running


@pytest.mark.parametrize(
    ("cls", "english", "italian"),
    [
        ("veteran", "Abdi veteran", "Abdi veterano"),
        ("rabble", "Abdi rabble", "Abdi marmaglia"),
        ("R3", "Abdi R3", "Abdi R3"),
    ],
)
def test_a_figures_class_is_in_the_readers_words_and_a_books_code_as_written(cls, english, italian):
    """Bassa Intensità's qualities are words (A.3, BI-R010: veteran, rabble), shown in the reader's
    language; Breaking News' classes are the book's codes (R3), the same in every language."""
    from core.language.reader import reading
    from core.log.state import Unit
    from tui.panes.roster import unit_label

    unit = Unit(id="abdi", name="Abdi", side="militia", cls=cls)
    for language, said in (("en", english), ("it", italian)):
        with reading(language):
            assert unit_label(unit, "bassa_intensita").plain == said
