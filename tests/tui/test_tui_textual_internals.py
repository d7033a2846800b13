"""What the client relies on in Textual's private modules, pinned (issue 33).

``tui/textual_internals.py`` is the one module that takes anything Textual keeps
private (no public API offers it): these tests pin exactly the behaviour the
client relies on, so a Textual upgrade that changes it fails here rather than in
a game, and the last test keeps every other module on Textual's public API.
"""

from __future__ import annotations

import ast
import io
import sys
from contextvars import ContextVar
from pathlib import Path

import pytest
import textual._time
import textual.screen
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.stylesheet import Stylesheet, StylesheetParseError
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from waiting import busy, press, settled, until

import tui
from tui.textual_internals import (
    Compositor,
    FooterKey,
    ParsingStylesheet,
    RepaintsAfterBatch,
    background_screens,
    capture_output_into,
    changed_regions,
    css_variables,
    get_time,
    hide_overlay,
    key_bindings,
    keymap,
    mount_overlays,
    overlays_later,
    screen_compositor,
    styles_key,
    switchable,
    unshown,
    use_compositor,
    visible_screen_stack,
)

TUI = Path(tui.__file__).parent


# ------------------------------------------------------------------ FooterKey


class Keys(RepaintsAfterBatch, App):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("f1", "help", "Help"),
        Binding("x", "x", "Hidden", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Footer()


async def test_the_footer_yields_a_footer_key_per_shown_binding_with_its_description():
    """The client's footer translates each ``FooterKey``'s ``description`` as Footer.compose yields it."""
    app = Keys()
    async with app.run_test(size=(80, 10)) as pilot:
        await settled(pilot)
        keys = list(app.screen.query(FooterKey))
        assert [(k.key, k.description) for k in keys if k.key != "ctrl+p"] == [("ctrl+s", "Save"), ("f1", "Help")]
        footer = app.screen.query_one(Footer)
        assert all(k.parent is footer for k in keys)
        assert callable(footer.bindings_changed)  # what the client's footer overrides to skip a needless rebuild


async def test_a_footer_yields_nothing_before_its_screen_s_bindings_are_ready():
    """The client's footer remembers the keys it shows only when it shows some."""
    app = Keys()
    async with app.run_test(size=(80, 10)):
        footer = Footer()
        footer.set_reactive(Footer._bindings_ready, False)  # as a footer is born
        await app.screen.mount(footer)
        assert list(Footer.compose(footer)) == []


# ------------------------------------------------------------------ output capture


async def test_an_app_running_captures_into_the_streams_it_is_given():
    """An SSH server's apps interleave: each captures into the streams as they are, so none is left swapped."""
    out, err = io.StringIO(), io.StringIO()
    app = Keys()
    capture_output_into(app, out, err)
    before = sys.stdout, sys.stderr
    seen = []
    app.call_later(lambda: seen.append((sys.stdout, sys.stderr)))  # in the app's own handling of messages
    async with app.run_test(size=(80, 10)) as pilot:
        await settled(pilot)
    assert seen == [(out, err)]
    assert (sys.stdout, sys.stderr) == before


# ------------------------------------------------------------------ get_time


def test_a_message_is_stamped_with_get_time_s_clock(monkeypatch):
    """The command line compares a key's ``Message.time`` with ``get_time()`` taken when a command is given."""
    before = get_time()
    key = events.Key("a", "a")
    after = get_time()
    assert before <= key.time <= after
    assert textual._time.get_time is get_time
    monkeypatch.setattr(textual._time, "get_time", lambda: 1234.5)
    assert Message().time == 1234.5


# ------------------------------------------------------------------ the screen's compositor


class Marked(Compositor):
    pass


class Given(Screen):
    def __init__(self) -> None:
        super().__init__()
        use_compositor(self, Marked())

    def compose(self) -> ComposeResult:
        yield Static("here", id="here")


async def test_a_screen_lays_out_and_renders_with_the_compositor_it_is_given():
    """The game screen is given a ``RowsCompositor``; a shared screen renders from the screen's compositor."""
    app = Keys()
    async with app.run_test(size=(40, 6)) as pilot:
        await settled(pilot)
        assert type(screen_compositor(app.screen)) is Compositor  # every screen has one
        screen = Given()
        await app.push_screen(screen)
        await settled(pilot)
        compositor = screen_compositor(screen)
        assert isinstance(compositor, Marked)
        widget, _ = compositor.get_widget_at(0, 0)
        assert widget is screen.query_one("#here")
        assert len(compositor.render_strips()) == 6
        assert compositor.size.region == screen.region


async def test_changed_regions_are_those_the_next_partial_update_draws():
    """``RowsCompositor`` reads them as its partial update starts (Textual's empties them before it
    renders), to render only the rows they cover."""
    app = Keys()
    async with app.run_test(size=(40, 6)) as pilot:
        screen = Given()
        await app.push_screen(screen)
        await settled(pilot)
        compositor = screen_compositor(screen)
        here = screen.query_one("#here")
        assert not changed_regions(compositor)
        here.refresh()
        compositor.update_widgets({here})
        assert changed_regions(compositor) == {here.region}
        assert compositor.render_partial_update() is not None
        assert not changed_regions(compositor)


async def test_styles_key_changes_with_the_styles_of_a_widget_or_of_an_ancestor_and_only_then():
    """The log keeps what its styles make of its rows by it (``tui.panes.log``)."""
    app = Keys()
    async with app.run_test(size=(40, 6)) as pilot:
        screen = Given()
        await app.push_screen(screen)
        await settled(pilot)
        here = screen.query_one("#here")
        key = styles_key(here)
        here.refresh()
        await settled(pilot)
        assert styles_key(here) == key  # a repaint is no change of style
        for node, rule, value in ((here, "color", "red"), (screen, "background", "blue"), (here, "tint", "red 10%")):
            setattr(node.styles, rule, value)
            await settled(pilot)
            assert styles_key(here) != key, (node, rule)
            key = styles_key(here)


class Overlaid(Screen):
    """Two rows under a box docked at the bottom of a layer of its own, as the game screen's undo box."""

    DEFAULT_CSS = """
    Overlaid { layers: base top; }
    #box { layer: top; dock: bottom; height: auto; border: solid red; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):  # first, as the game screen mounts its box: the others' drawing order is its own
            yield Static("the box's question")
        for n in range(6):
            yield Static(f"under {n} " * 4, id=f"under{n}")


async def test_an_overlay_hidden_leaves_the_compositor_as_textual_s_layout_would_without_one(monkeypatch):
    """``hide_overlay`` takes the box and its line out of the compositor's map and draws what they
    covered, in the screen's next update: the same map and the same rows as Textual's layout gives."""
    app = Keys()
    layouts = []
    layout = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout", lambda self, *a, **k: layouts.append(self) or layout(self, *a, **k))
    async with app.run_test(size=(40, 8)) as pilot:
        screen = Overlaid()
        await app.push_screen(screen)
        await settled(pilot)
        compositor = screen_compositor(screen)
        box = screen.query_one("#box")
        covered = box.region
        assert covered.height == 3 and "the box's question" in "".join(s.text for s in compositor.render_strips())
        layouts.clear()
        hide_overlay(box)
        assert not box.display and covered in changed_regions(compositor)
        await settled(pilot)
        assert screen not in layouts  # not laid out: the next update drew the covered rows
        rows = [strip.text for strip in compositor.render_strips()]
        assert "under 5" in rows[5] and not any("question" in row for row in rows)
        placed = dict(compositor.full_map)
        assert box not in placed and not [w for w in placed if box in w.ancestors]
        # Textual's own layout now finds nothing to hide, show, resize or place anew.
        result = compositor.reflow(screen, screen.outer_size)
        assert not result.hidden and not result.shown and not result.resized
        assert dict(compositor.full_map) == placed
        assert [strip.text for strip in compositor.render_strips()] == rows
        # Shown again, it is laid out and drawn as Textual shows a widget.
        box.display = True
        await settled(pilot)
        assert box.region == covered and "the box's question" in "".join(s.text for s in compositor.render_strips())


async def test_an_overlay_not_placed_yet_is_hidden_as_textual_hides_one():
    app = Keys()
    async with app.run_test(size=(40, 8)) as pilot:
        screen = Overlaid()
        await app.push_screen(screen)
        box = Vertical(Static("late"), id="late")
        await screen.mount(box)
        hide_overlay(box)  # mounted, not laid out yet
        await settled(pilot)
        assert not box.display and box not in screen_compositor(screen).full_map


class Plain(Screen):
    def compose(self) -> ComposeResult:
        yield Static("mine", id="mine")


@overlays_later
class Later(Plain):
    pass


@pytest.mark.parametrize("allowed", [True, False])
async def test_overlays_left_out_of_a_compose_are_mounted_where_textual_composes_them(allowed):
    app = Keys()
    async with app.run_test(size=(40, 8), notifications=allowed, tooltips=allowed) as pilot:
        plain, later = Plain(), Later()
        await app.push_screen(plain)
        textual_s = [type(child) for child in plain.children]
        await app.push_screen(later)
        assert [child.id for child in later.children] == ["mine"]
        app.notify("meanwhile")
        await mount_overlays(later)
        await settled(pilot)
        assert [type(child) for child in later.children] == textual_s
        assert len(textual_s) == (3 if allowed else 1)
        assert len(later.query("Toast")) == (1 if allowed else 0)  # the notification sent meanwhile, shown


async def changed_in_a_batch(app: App, pilot) -> Static:
    """A widget of the current screen changed while a batch update is open, and the screen gone idle
    meanwhile (as it may while another widget recomposes); then the batch ended and the app has handled
    all it was prompted with."""
    await app.push_screen(Plain())
    await settled(pilot)
    screen = app.screen
    mine = screen.query_one("#mine", Static)
    with app.batch_update():
        mine.update("changed")
        await until(pilot, lambda: busy(app) == ["the screen's refresh"], "the screen idle in the batch")
        await until(pilot, lambda: not screen._update_timer._active.is_set(), "its update timer paused")
    return mine


async def test_textual_leaves_a_screen_undrawn_that_went_idle_in_a_batch():
    """Why ``RepaintsAfterBatch``: with Textual's own app, once the batch is over nothing is left to
    handle, the screen's update timer is paused, and the change is never drawn.  When this fails,
    Textual draws it itself and the mixin can go."""
    app = App()
    async with app.run_test(size=(20, 3)) as pilot:
        await changed_in_a_batch(app, pilot)
        # The batch's end prompted the app (its messages are listed until handled), and only the app.
        await until(pilot, lambda: busy(app) == ["the screen's refresh"], "the app done with the batch's end")
        assert not app.screen._update_timer._active.is_set()  # nothing left to run: it stays undrawn


async def test_an_app_that_repaints_after_batches_draws_what_changed_in_one():
    app = Keys()
    async with app.run_test(size=(20, 3)) as pilot:
        mine = await changed_in_a_batch(app, pilot)
        await settled(pilot)
        assert "changed" in "".join(strip.text for strip in screen_compositor(app.screen).render_strips())
        assert str(mine.render()) == "changed"


def test_visible_screen_stack_is_the_one_a_screen_reads_its_background_from():
    """A shared screen sets it before it renders the compositor's strips, as Textual does before a frame."""
    assert isinstance(visible_screen_stack, ContextVar)
    assert textual.screen.visible_screen_stack is visible_screen_stack


# ------------------------------------------------------------------ the stylesheet's variables


def test_css_variables_are_those_a_stylesheet_is_given_and_parses_with():
    """``tui.stylesheet`` keys the rules it shares by them: a stylesheet's rules depend on nothing else."""
    stylesheet = Stylesheet(variables={"tint": "red"})
    assert css_variables(stylesheet) == {"tint": "red"}
    stylesheet.set_variables({"tint": "blue"})
    assert css_variables(stylesheet) == {"tint": "blue"}

    def background(variables: dict[str, str]) -> str:
        sheet = Stylesheet(variables=variables)
        sheet.add_source("Static { background: $tint; }", read_from=("test", ""))
        sheet.parse()
        (rule,) = sheet.rules
        return str(rule.styles.background)

    assert background({"tint": "red"}) != background({"tint": "blue"})


def sheet(cls: type[Stylesheet], sources: dict[str, str], variables: dict[str, str]) -> Stylesheet:
    made = cls(variables=variables)
    for name, css in sources.items():
        made.add_source(css, read_from=(name, ""))
    return made


class Counted(ParsingStylesheet):
    """Records the pieces of CSS it is asked to parse."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.asked: list[tuple[str, tuple[str, str], bool, int, str]] = []

    def parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        self.asked.append((css, read_from, is_default_rules, tie_breaker, scope))
        return super().parse_rules(css, read_from, is_default_rules, tie_breaker, scope)


SOURCES = {"a": "Static { background: $tint; }", "b": "#here { color: $ink; } Label { width: 3; }"}


def test_a_stylesheet_parses_each_piece_of_css_through_its_parse_rules():
    """``tui.stylesheet`` caches what ``parse_rules`` returns: every rule the stylesheet holds comes through it,
    whether it is parsed at once or when its rules are first read."""
    counted = sheet(Counted, SOURCES, {"tint": "red", "ink": "blue"})
    counted.add_source("Label { height: 2; }", read_from=("c", ""), is_default_css=True, tie_breaker=-1, scope="Screen")
    rules = counted.rules  # parsed as they are first read
    assert counted.asked == [
        (SOURCES["a"], ("a", ""), False, 0, ""),
        (SOURCES["b"], ("b", ""), False, 0, ""),
        ("Label { height: 2; }", ("c", ""), True, -1, "Screen"),
    ]
    plain = sheet(Stylesheet, SOURCES, {"tint": "red", "ink": "blue"})
    plain.add_source("Label { height: 2; }", read_from=("c", ""), is_default_css=True, tie_breaker=-1, scope="Screen")
    assert [r.css for r in rules] == [r.css for r in plain.rules]
    counted.asked.clear()
    assert counted.rules is rules and counted.asked == []  # not parsed again until a source or the variables change


def test_a_stylesheet_reparses_in_a_fresh_one_of_its_class_as_textual_s_own_reparse_does():
    """The same rules, sources and selectors as Textual's ``Stylesheet.reparse`` with new variables,
    each piece parsed through ``parse_rules`` (Textual's own would parse in a plain stylesheet)."""
    counted, plain = (
        sheet(Counted, SOURCES, {"tint": "red", "ink": "blue"}),
        sheet(Stylesheet, SOURCES, {"tint": "red", "ink": "blue"}),
    )
    before = counted.rules
    for made in (counted, plain):
        made.set_variables({"tint": "green", "ink": "white"})
        made.reparse()
    assert counted.asked[-2:] == [(SOURCES["a"], ("a", ""), False, 0, ""), (SOURCES["b"], ("b", ""), False, 0, "")]
    assert [r.css for r in counted.rules] == [r.css for r in plain.rules] != [r.css for r in before]
    assert "background: #008000;" in counted.css  # green, the new tint
    assert counted.source == plain.source
    assert counted.rules_map.keys() == plain.rules_map.keys() == {"Static", "#here", "Label"}
    asked = len(counted.asked)
    counted.rules_map  # noqa: B018 -- read: nothing is parsed again after a reparse
    assert len(counted.asked) == asked


def test_a_failed_reparse_keeps_the_rules_and_skips_the_bad_css_from_then_on():
    """As Textual's own: the stylesheet keeps its rules, and parses the bad piece no more."""
    good = {"a": "Static { background: red; }"}
    results = []
    for cls in (Counted, Stylesheet):
        made = sheet(cls, good, {})
        kept = [r.css for r in made.rules]
        made.add_source("Static { nonsense: 3; }", read_from=("bad", ""))
        with pytest.raises(StylesheetParseError):
            made.reparse()
        assert [r.css for r in made.rules] == kept
        made.parse()  # the bad piece is passed over now
        results.append([r.css for r in made.rules])
    assert results[0] == results[1] == [r.css for r in sheet(Stylesheet, good, {}).rules]


# ------------------------------------------------------------------ the screens behind


class Opaque(Screen):
    def compose(self) -> ComposeResult:
        yield Static("opaque")


class SeeThrough(ModalScreen):
    def compose(self) -> ComposeResult:
        yield Static("modal")


async def test_background_screens_are_those_below_the_top_down_to_the_first_opaque_one():
    """What a shared screen puts in ``visible_screen_stack`` before it renders: a modal's background is
    painted over the screens it shows through."""
    app = Keys()
    async with app.run_test(size=(40, 6)) as pilot:
        base = app.screen
        assert app.screen_stack == [base] and background_screens(app) == []
        first, second = SeeThrough(), SeeThrough()
        await app.push_screen(first)
        await app.push_screen(second)
        await settled(pilot)
        assert background_screens(app) == [base, first]
        opaque, third = Opaque(), SeeThrough()
        await app.push_screen(opaque)
        await app.push_screen(third)
        await settled(pilot)
        assert background_screens(app) == [opaque]  # the screens under an opaque one never show
        taken = background_screens(app)
        taken.pop()  # a screen painting its background takes the last one off: the next call is whole again
        assert background_screens(app) == [opaque]


# ------------------------------------------------------------------ a widget's bindings


class Base(Widget):
    BINDINGS = [Binding("ctrl+u", "clear", "Clear"), Binding("tab", "complete", "Complete")]


class Line(Base):
    BINDINGS = [Binding("tab", "cycle", "Cycle"), Binding("enter", "submit", "Submit")]


def test_key_bindings_are_a_widget_s_own_or_those_it_inherits():
    """The command line runs the first of them in order with the characters typed around it."""
    line = Line()
    assert [b.action for b in key_bindings(line, "tab")] == ["cycle"]  # its own replace what it inherits
    assert [b.action for b in key_bindings(line, "enter")] == ["submit"]
    assert [b.action for b in key_bindings(line, "ctrl+u")] == ["clear"]
    assert key_bindings(line, "x") == []
    assert [b.action for b in key_bindings(Base(), "tab")] == ["complete"]


class Rebindable(Widget):
    BINDINGS = [Binding("ctrl+s,f6", "roster", "Roster", id="roster"), Binding("tab", "complete", "Complete")]


async def test_key_bindings_are_those_the_app_s_keymap_leaves():
    """A user's keymap moves a binding of the command line's too (its id's): the old key no longer runs it."""

    class Rebinding(App):
        def compose(self) -> ComposeResult:
            yield Rebindable()

    assert keymap(Rebindable()) == {}  # where no app runs (a screen made to be read): the bindings' own keys
    app = Rebinding()
    async with app.run_test():
        widget = app.query_one(Rebindable)
        assert keymap(app) == {}
        app.set_keymap({"roster": "f10,ctrl+e"})
        assert keymap(app) == {"roster": "f10,ctrl+e"}
        # (Textual keeps one for each key the binding had: the first is what runs)
        assert {b.action for b in key_bindings(widget, "f10", keymap(app))} == {"roster"}
        assert {b.action for b in key_bindings(widget, "ctrl+e", keymap(app))} == {"roster"}
        assert key_bindings(widget, "ctrl+s", keymap(app)) == key_bindings(widget, "f6", keymap(app)) == []
        assert [b.action for b in key_bindings(widget, "tab", keymap(app))] == ["complete"]
        assert [b.action for b in key_bindings(widget, "ctrl+s")] == ["roster"]  # the class's own, without it


# ------------------------------------------------------------------ a driver's state


class Quiet(Driver):
    def write(self, data: str) -> None:
        pass

    def start_application_mode(self) -> None:
        pass

    def disable_input(self) -> None:
        pass

    def stop_application_mode(self) -> None:
        pass


async def test_a_driver_keeps_its_app_mouse_and_size_for_its_subclass_and_the_app_reads_its_size():
    """``tui.ssh.seating.driver`` and ``tui.local_driver`` are Textual drivers: they read the app, whether the
    mouse is on, and set the terminal's size as ``Driver`` keeps them (``_app``, ``_mouse``, ``_size``),
    and the app takes its size from there, as it does from Textual's own drivers."""
    app = Keys()
    driver = Quiet(app, debug=False, mouse=False, size=(30, 7))
    assert driver._app is app and driver._mouse is False and driver._size == (30, 7)
    app._driver = driver
    assert app.size == Size(30, 7)
    driver._size = (50, 9)  # as a seat's window is resized
    assert app.size == Size(50, 9)


class FirstScreen(App):
    """An app whose first screen is its own (as the client's game screen is), switchable or not."""

    def __init__(self, first_switchable: bool) -> None:
        super().__init__()
        self.first_switchable = first_switchable

    def get_default_screen(self) -> Screen:
        first = Plain()
        return switchable(first) if self.first_switchable else first


async def test_a_switchable_first_screen_is_replaced_by_a_switch():
    app = FirstScreen(first_switchable=True)
    async with app.run_test(size=(40, 8)) as pilot:
        first = app.screen
        await app.push_screen(Screen())
        await app.pop_screen()
        second = Plain()
        await app.switch_screen(second)
        await settled(pilot)
        assert app.screen_stack == [second] and not first.is_attached
        third = Plain()
        await app.switch_screen(third)  # and the screen that replaced it, as any switched in
        await settled(pilot)
        assert app.screen_stack == [third]


async def test_textual_s_first_screen_alone_cannot_be_switched():
    """What ``switchable`` is for: Textual takes the replaced screen's result callback off it."""
    app = FirstScreen(first_switchable=False)
    with pytest.raises(IndexError):
        async with app.run_test(size=(40, 8)) as pilot:
            await app.switch_screen(Plain())
            await settled(pilot)


async def test_option_line_is_the_row_an_option_begins_on_options_of_several_rows_counted():
    from textual.app import App
    from textual.widgets import OptionList
    from textual.widgets.option_list import Option

    from tui.textual_internals import option_line

    class Listing(App):
        def compose(self):
            yield OptionList(Option("one"), Option("two\nrows"), Option("three"))

    app = Listing()
    async with app.run_test(size=(40, 10)):
        listing = app.query_one(OptionList)
        assert [option_line(listing, i) for i in range(3)] == [0, 1, 3]
        assert option_line(listing, 3) is None


async def test_an_input_s_suggestion_is_seen_and_put_away_until_its_text_changes():
    from textual.suggester import SuggestFromList
    from textual.widgets import Input

    from tui.textual_internals import dismiss_suggestion, suggestion_shown

    class Box(App):
        def compose(self):
            yield Input(suggester=SuggestFromList(["fire", "move"]))

    app = Box()
    async with app.run_test(size=(40, 5)) as pilot:
        box = app.query_one(Input)
        box.focus()
        await pilot.press("f")
        await until(pilot, lambda: suggestion_shown(box) == "fire", "the suggestion")
        dismiss_suggestion(box)
        assert suggestion_shown(box) == ""
        await pilot.press("i")  # the text changes: a suggestion comes again
        await until(pilot, lambda: suggestion_shown(box) == "fire", "the suggestion again")
        box.value = "fire"  # one no longer than the text is none shown
        await until(pilot, lambda: suggestion_shown(box) == "", "no suggestion")


async def test_notices_of_a_title_are_withdrawn_and_the_others_stay():
    from tui.textual_internals import withdraw_notices

    app = App()
    async with app.run_test(size=(60, 10)) as pilot:
        app.notify("3 or less: 30%", title="odds: fire", timeout=20)
        app.notify("saved", title="game", timeout=20)
        await until(pilot, lambda: len(list(app._notifications)) == 2, "both notices")
        withdraw_notices(app, "odds: fire")
        assert [n.title for n in app._notifications] == ["game"]


# ------------------------------------------------------------------ nothing else

#: Textual's private attributes the client relies on (read or set only in ``tui/textual_internals.py``).
PRIVATE_ATTRIBUTES = {
    "_batch_count",
    "_capture_stdout",
    "_capture_stderr",
    "_bindings_ready",
    "_bindings",
    "_compositor",
    "_dirty_regions",
    "_variables",
    "_loop",
    "_screen_stack",
    "_background_screens",
    "_rules",
    "_rules_map",
    "_require_parse",
    "_invalid_css",
    "_parse_rules",
    "_full_map",
    "_visible_map",
    "_cuts",
    "_layers",
    "_layers_visible",
    "_visible_widgets",
    "_nodes",
    "_dirty_widgets",
    "_push_result_callback",
    "_index_to_line",
    "_keymap",
    "_suggestion",
    "_notifications",
    "_unnotify",
}
#: Textual's private handlers and steps, which a subclass could override (a ``def`` of that name): Textual
#: calls a public handler (``on_key``, ``on_paste``) as it does its private one, before the base class's.
PRIVATE_METHODS = {
    "_end_batch",
    "_parse_rules",
    "_on_key",
    "_on_paste",
    "_on_mount",
    "_on_resize",
    "_on_focus",
    "_on_blur",
}


@pytest.mark.long
def test_no_other_client_module_reaches_into_textual_s_privates():
    """Private modules (``textual._x``, ``textual.widgets._x``) and the private attributes relied on."""
    found = []
    for path in sorted(TUI.rglob("*.py")):
        if path.name == "textual_internals.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.startswith("textual.") and any(part.startswith("_") for part in name.split(".")):
                    found.append(f"{path.relative_to(TUI)}:{node.lineno}: {name}")
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE_ATTRIBUTES:
                found.append(f"{path.relative_to(TUI)}:{node.lineno}: .{node.attr}")
            if isinstance(node, ast.Constant) and node.value in PRIVATE_ATTRIBUTES:  # getattr(x, "_loop")
                found.append(f"{path.relative_to(TUI)}:{node.lineno}: {node.value!r}")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in PRIVATE_METHODS:
                found.append(f"{path.relative_to(TUI)}:{node.lineno}: def {node.name}")
    assert found == []


async def test_unshown_keeps_a_binding_working_off_the_footer_of_that_node_alone():
    """A side's game screen keeps Ctrl+T (it says whose choice table dice is) off its key bar."""

    class Keys(Screen):
        BINDINGS = [Binding("ctrl+t,f3", "toggle", "Toggle", id="toggle"), Binding("ctrl+f", "help", "Help")]
        toggled = 0

        def action_toggle(self) -> None:
            self.toggled += 1

        def compose(self) -> ComposeResult:
            yield Footer()

    class KeysApp(RepaintsAfterBatch, App):
        def on_mount(self) -> None:
            self.push_screen(hidden)

    hidden, shown = Keys(), Keys()
    unshown(hidden, "toggle")
    assert {b.show for b in key_bindings(shown, "ctrl+t")} == {True}  # the class's bindings are left as they were
    app = KeysApp()
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.screen is hidden, "the screen is up")
        footer = {a.binding.action for a in hidden.active_bindings.values() if a.binding.show}
        assert "help" in footer and "toggle" not in footer
        await press(pilot, "f3")
        await until(pilot, lambda: hidden.toggled == 1, "the key still runs its action")
