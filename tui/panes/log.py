"""The action log pane: every event in plain words, newest at the bottom.

Virtual: only the rows on screen are ever fetched, by ``Game.log_lines(role,
start, end)`` over the few file positions they cover, so a 100,000-event game
costs what a 10-event one does.  Rows map to file positions through a
:class:`tui.logindex.RowIndex` (or a :class:`FilteredIndex` while a filter is
on).  Phase changes stand out as headers, undone events are struck through,
the row under the cursor is sent to the dice pane, Enter opens its details.
"""

from __future__ import annotations

import asyncio
from typing import NamedTuple

import msgspec
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Vertical
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input

from core.game import Game, LogLine
from core.language.i18n import CORE_DOMAIN, Names
from core.language.reader import lang
from core.log import events as ev
from core.log.narrate import sides_of
from tui import odds
from tui.i18n import N_, _, ngettext
from tui.keymap import key_label
from tui.logindex import FilteredIndex, LogFilter, RowIndex
from tui.loglines import outcome_first, summary
from tui.panes.barview import BarView
from tui.plain import Plain, PlainInput, visible_text
from tui.textual_internals import styles_key
from tui.viewpoint import Viewpoint, struck_commands

FETCH_AROUND = 64
CACHE_LIMIT = 4096
STRIP_CACHE_LIMIT = 512  # a few screens of rows
SEARCH_WINDOW = 2048

__all__ = ["LogPane", "LogView", "line_text", "outcome_first", "summary"]


def outcome_style(roll: ev.Roll) -> str:
    ok = odds.succeeded(roll)
    return "bold green" if ok else "bold red" if ok is False else "bold"


def line_text(line: LogLine, domain: str = CORE_DOMAIN, names: Names | None = None, signs: bool = False) -> Text:
    """One log row as styled text (without the cursor); a roll's outcome comes first
    (``signs``: marked ✓ or ✗, for a screen without colour: ``tui.contrast``)."""
    e = line.event
    text = Text(no_wrap=True, overflow="ellipsis")
    split = outcome_first(line, domain, names)
    if split is not None:
        assert isinstance(e, ev.Rolled)
        text.append("  ", style="dim")
        text.append((odds.sign(e.roll) if signs else "") + split[0], style=outcome_style(e.roll))
        text.append(" · ", style="dim")
        text.append(split[1], style="green")
    elif isinstance(e, ev.PhaseBegan):
        text.append(f"━━ {line.text} ━━", style="bold white on blue")
    elif isinstance(e, ev.Issued):
        if line.number:  # (a command hidden from the role has none: Reading.hidden_header)
            text.append(f"#{line.number} ", style="dim")
        text.append(line.text, style="bold cyan")
    elif isinstance(e, (ev.Undone, ev.Redone)):
        text.append(line.text, style="bold magenta")
    else:
        style = {
            ev.Rolled: "green",
            ev.DefeatPoints: "red",
            ev.UnitOut: "bold red",
            ev.StatusChanged: "yellow",
            ev.Noted: "italic",
            ev.GameEnded: "bold red",
            ev.Revealed: "bold magenta",
        }.get(type(e), "")
        text.append("  ", style="dim")  # its own segment: the indent survives SVG export
        text.append(line.text, style=style)
    if line.undone:
        text.stylize("strike dim")
        text.append("  " + _("(undone)"), style="dim italic")
    return visible_text(text, lines=False)


#: Rows as drawn, for every log of the process, by all that draws them (``_drawn``).
_DRAWN: dict[tuple, Strip] = {}
#: A few screens of rows for each of a few roles and languages.
DRAWN_LIMIT = 1024


def _drawn(
    line: LogLine, game: Game | None, signs: bool, mark: str, width: int, base: Style, console: Console
) -> Strip:
    """``line`` drawn as a row of the log, ``width`` cells wide, the cursor's ``mark`` on it.

    The seats of a side (and of a language) in one process draw the same new rows after
    every command: each row is drawn once for all of them.  It is found by everything it
    is drawn from, the line whole (the role's own words, its event, its number, whether
    it was undone) among them: a row is only ever shared by logs that would each have
    drawn it the same, and no seat is shown a row another seat's line made.
    """
    if game is not None:
        domain, names = game.ruleset.domain, sides_of(game.state)
    else:
        domain, names = CORE_DOMAIN, None
    said = msgspec.msgpack.encode((line, dict(names.sides) if names is not None else None))
    key = (said, domain, lang(), signs, mark, width, base)
    strip = _DRAWN.get(key)
    if strip is None:
        text = line_text(line, domain, names, signs)
        text.truncate(width, overflow="ellipsis")  # a row cut at the edge says so
        if mark:
            text.stylize(mark)
        strip = Strip(list(text.render(console))).crop_extend(0, width, base).apply_style(base)
        if len(_DRAWN) >= DRAWN_LIMIT:
            _DRAWN.clear()
        _DRAWN[key] = strip
    return strip


def restyled_by_textual(widget: Widget) -> bool:
    """Whether Textual's style pass changes the widget's lines (a border, padding,
    an outline, a hatch, a tint, opacity) rather than only copying them."""
    styles = widget.styles
    return bool(
        styles.gutter
        or any(edge for edge, _ in styles.outline)
        or (styles.has_rule("hatch") and styles.hatch != "none")
        or styles.tint.a
        or styles.text_opacity != 1
        or widget.opacity != 1
    )


class _Pass(msgspec.Struct, frozen=True):
    """What drawing every row of one repaint of the log needs."""

    top: int  # the row at the top of the view
    width: int  # for the text (the scroll bar takes the last column when shown)
    base: Style
    bar: tuple[int, int] | None  # the thumb as rows of the view
    cells: tuple[Style, Style]  # the bar's track and thumb
    mark: str  # how the cursor's row is marked


class _Styled(NamedTuple):
    """What the log's styles make of its rows, and the styles' key (``styles_key``) it was made for."""

    key: tuple[int, ...]
    base: Style
    background: Color  # what the line filters blend with
    cells: tuple[Style, Style]
    restyled: bool  # by Textual's own style pass (``restyled_by_textual``)


class LogView(BarView, can_focus=True):
    """The scrolling list itself; :class:`LogPane` adds search and filter around it."""

    BINDINGS = [
        Binding("up", "move(-1)", N_("Up"), show=False),
        Binding("down", "move(1)", N_("Down"), show=False),
        Binding("pageup", "page(-1)", N_("Page up"), show=False),
        Binding("pagedown", "page(1)", N_("Page down"), show=False),
        Binding("home", "edge(-1)", N_("Oldest"), show=False),
        Binding("end", "edge(1)", N_("Newest"), show=False),
        Binding("enter", "choose", N_("Details"), show=False),  # the footer keeps to 80 columns; F1 lists it
    ]

    # No Textual scrollbar: the view draws its own in its last column (``BarView``).
    DEFAULT_CSS = """
    LogView { overflow-x: hidden; overflow-y: hidden; height: 1fr; }
    """

    cursor: reactive[int] = reactive(-1, repaint=False)

    class LineHighlighted(Message):
        def __init__(self, line: LogLine | None) -> None:
            super().__init__()
            self.line = line

    class LineChosen(Message):
        def __init__(self, line: LogLine) -> None:
            super().__init__()
            self.line = line

    class Newer(Message):
        """How many rows lie below the view (0 when none, or when the log follows)."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.vp: Viewpoint | None = None
        self.index: RowIndex | FilteredIndex | None = None
        self.base: RowIndex | None = None
        self.rows = 0
        self.follow = True
        self._cache: dict[int, LogLine] = {}
        #: Rows as drawn, by (file position, cursor mark, width, style), and with
        #: their scroll bar cell by (that key, the cell's style).
        self._strips: dict[tuple, Strip] = {}
        self._pass = _Pass(0, 0, Style(), None, (Style(), Style()), "")
        self._styled: _Styled | None = None
        self._synced_length = 0  # the file's length at the last sync
        self._shown: tuple[object, int, int] | None = None  # (index, rows, cursor) at the last sync
        self._newer = 0  # the rows below the view, as last told
        self._focusing_click = False  # the button down now gave the log the focus

    # ------------------------------------------------------------------ data

    def bind(self, vp: Viewpoint) -> None:
        self.vp = vp
        self.base = RowIndex(vp.game, vp.role)
        self.index = self.base
        self.follow = True
        self._cache.clear()
        self._strips.clear()
        self._shown = None
        # No line is fetched yet, so none is to be struck through again: the undos and
        # redos already in the save are not looked for (a 100,000-event save has ~1,000,
        # each read from the file: most of what its start cost over the demo's).
        self._synced_length = vp.game.log_length
        self.sync()

    def forget_lines(self) -> None:
        """Draw every row again, from lines fetched again (their words are the reader's)."""
        self._cache.clear()
        self._strips.clear()
        self.refresh()
        self.post_message(self.LineHighlighted(self.line_at(self.cursor)))

    def use_index(self, index: RowIndex | FilteredIndex) -> None:
        self.index = index
        self.follow = True
        self.sync()

    def sync(self) -> None:
        """Take in a change of the game, of the replay step, or of the filter.

        Repaints only if the rows changed; the lines already fetched are kept,
        but for those of the commands an undo or a redo came in for (it strikes
        their rows through, or restores them): those are fetched and drawn again.
        """
        if self.vp is None or self.index is None:
            return
        assert self.base is not None
        game = self.vp.game
        restruck = struck_commands(game, self._synced_length, game.log_length)
        self._synced_length = game.log_length
        if restruck:
            self._forget(restruck)
        self.base.extend()
        if isinstance(self.index, RowIndex):
            self.index.extend()
        rows = self.index.rows(self.vp.limit())
        cursor = rows - 1 if self.follow or not self.vp.live or self.cursor >= rows else self.cursor
        shown = (self.index, rows, cursor)
        if shown == self._shown and not restruck:
            return
        self._shown = shown
        self._set_rows(rows)
        self.cursor = cursor
        # Fewer rows (a replay stepped back, a narrower filter): the last row stays at the
        # view's foot, never over blank rows while rows above it are out of view.
        last_top = max(0, rows - self.scrollable_content_region.height)
        if self.scroll_y > last_top:
            self.scroll_to(y=last_top, animate=False, immediate=True)
        self._reveal_cursor()
        self.refresh()
        if not self.follow:
            # A log that follows its newest line has no line chosen (the dice pane shows the
            # latest rolls): after every command, on every seat, the message bubbled up five
            # widgets for nothing.  Moving the cursor off the newest line says which it is.
            self.post_message(self.LineHighlighted(self.line_at(self.cursor)))
        self._tell_below()

    def _forget(self, commands: frozenset[int]) -> None:
        """Drop the fetched lines of ``commands``, and their rows as drawn (kept apart from the lines)."""
        assert self.vp is not None
        history = self.vp.game.history
        gone = {pos for cmd in commands for pos in range(history.group_start[cmd], history.group_end[cmd])}
        for pos in gone:
            self._cache.pop(pos, None)
        # A row's key starts with its file position; with its scroll bar cell, the row's key does.
        self._strips = {
            key: strip
            for key, strip in self._strips.items()
            if (key[0][0] if isinstance(key[0], tuple) else key[0]) not in gone
        }

    def follow_end(self) -> None:
        """Follow the newest line again (after this seat's own command): the next sync moves there."""
        self.follow = True

    def _tell_below(self) -> None:
        count = 0 if self.follow else self._rows_below()
        if count != self._newer:
            self._newer = count
            self.post_message(self.Newer(count))

    def line_at(self, row: int) -> LogLine | None:
        if self.vp is None or self.index is None or not 0 <= row < self.rows:
            return None
        pos = self.index.position(row)
        line = self._cache.get(pos)
        if line is None:
            self._fetch(row)
            line = self._cache.get(pos)
        return line

    def _fetch(self, row: int) -> None:
        assert self.vp is not None and self.index is not None
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        # The rows above are fetched ahead for a scroll up, but not by the first fetch
        # (nothing cached yet: the first frame's, from its top row, which follows the
        # newest line): it describes only the rows it shows.
        first = max(0, row - FETCH_AROUND // 2) if self._cache else row
        last = min(self.rows - 1, row + FETCH_AROUND)
        position, cached = self.index.position, self._cache
        while first < row and position(first) in cached:  # e.g. following the log: only the new lines
            first += 1
        while last > row and position(last) in cached:
            last -= 1
        a, b = position(first), position(last) + 1
        game, role = self.vp.game, self.vp.role
        if b - a <= 4 * (last - first + 1):
            for line in game.log_lines(role, a, b):
                self._cache[line.index] = line
        else:  # a sparse filter: fetch the rows one by one
            for r in range(first, last + 1):
                p = position(r)
                for line in game.log_lines(role, p, p + 1):
                    self._cache[line.index] = line

    # -------------------------------------------------------------- rendering

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every row needs, found once per repaint rather than once per row, and
        # what comes of the styles kept until they change: working it out walks the
        # ancestors' styles (a tenth of a seat's frame after every command).
        size = self.size
        key = styles_key(self)
        styled = self._styled
        if styled is None or styled[0] != key:
            base_background, background = self.background_colors
            styled = self._styled = _Styled(
                key, self.rich_style, background, self._bar_cells(base_background), restyled_by_textual(self)
            )
        bar = self._bar(size.height)
        self._pass = _Pass(
            top=int(self.scroll_y),
            width=size.width - (1 if bar else 0),
            base=styled.base,
            bar=bar,
            cells=styled.cells,
            mark="reverse" if self.has_focus else "underline",
        )
        if styled.restyled:
            return super().render_lines(crop)
        background = styled.background
        # Textual's style pass would copy every row into a new strip on every
        # repaint, and the screen would then cut it, filter it and turn it into
        # escape codes again.  With no border, padding, outline, hatch, tint or
        # opacity that pass leaves the row as it is: hand over the rows drawn
        # before, which keep their filtered copies and escape codes with them.
        strips = [self.render_line(y) for y in crop.line_range]
        for line_filter in self.get_line_filters():
            strips = [strip.apply_filter(line_filter, background) for strip in strips]
        if crop.column_span != (0, size.width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def render_line(self, y: int) -> Strip:
        p = self._pass
        row = p.top + y
        cell = None if p.bar is None else p.cells[p.bar[0] <= y < p.bar[1]]
        line = self.line_at(row)
        mark = p.mark if row == self.cursor else ""
        # A new line scrolls the others up one row: each is drawn once, then reused.
        key = (-1 if line is None else line.index, mark, p.width, p.base)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) > STRIP_CACHE_LIMIT:
                self._strips.clear()
            if line is None:
                strip = Strip.blank(p.width, p.base)
            else:
                game = self.vp.game if self.vp is not None else None
                signs = self.app.no_color  # what the colours say, in signs too (tui.contrast)
                strip = _drawn(line, game, signs, mark, p.width, p.base, self.app.console)
            self._strips[key] = strip
        if cell is None:
            return strip
        # The row again with its scroll bar cell: a row that crosses the end of
        # the thumb as the log scrolls is not drawn again for it.
        barred = self._strips.get((key, cell))
        if barred is None:
            barred = self._strips[(key, cell)] = self._with_cell(strip, cell)
        return barred

    def set_cursor(self, row: int) -> None:
        if self.rows == 0:
            return
        row = max(0, min(self.rows - 1, row))
        self.cursor = row
        self.follow = row == self.rows - 1
        self._reveal_cursor()
        self.refresh()
        self.post_message(self.LineHighlighted(self.line_at(row)))
        self._tell_below()

    # ---------------------------------------------------------------- actions

    def action_move(self, delta: int) -> None:
        self.set_cursor(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.set_cursor(self.cursor + direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, direction: int) -> None:
        self.set_cursor(0 if direction < 0 else self.rows - 1)

    def action_choose(self) -> None:
        line = self.line_at(self.cursor)
        if line is not None:
            self.post_message(self.LineChosen(line))

    def focus_on_click(self) -> bool:
        # Asked by the screen as a button goes down over the log, before it gives the focus.
        self._focusing_click = not self.has_focus
        return super().focus_on_click()

    def on_click(self, event: events.Click) -> None:
        # A click that brings the focus here only does that: on a phone, the tap that raises the
        # keyboard lands in the log, and picked a line (the dice pane showed its roll, #61).  A
        # click in the log that has the focus picks the line under it.
        if not self._on_bar(event.x) and not self._focusing_click:
            self.set_cursor(int(self.scroll_y) + event.y)
        self._focusing_click = False


class LogPane(Vertical):
    """The log with its search and filter boxes and a status line."""

    # No printable key: one typed here goes to the command line (GameScreen.on_key, #61).
    BINDINGS = [
        Binding("ctrl+e", "search", N_("Search"), show=True),
        Binding("shift+up", "search_again(-1)", N_("Older match"), show=False),
        Binding("shift+down", "search_again(1)", N_("Newer match"), show=False),
        Binding("ctrl+k", "filter", N_("Filter"), show=True),
        Binding("escape", "clear", N_("Clear filter"), show=False),
    ]

    DEFAULT_CSS = """
    LogPane #log-query { display: none; height: 1; border: none; padding: 0 1; }
    LogPane.-asking #log-query { display: block; }
    LogPane #log-status { display: none; height: 1; color: $text-muted; }
    LogPane.-status #log-status { display: block; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._asking = ""  # "search" or "filter"
        self._search = ""
        self.filter = LogFilter()
        self._newer_count = 0  # rows below the view, as the border says

    def compose(self) -> ComposeResult:
        yield LogView(id="log-view")
        # The status line and the search box are hidden until used: mounted after
        # the first frame (``add_hidden``), or when first needed, whichever comes first.

    def add_hidden(self) -> None:
        self._status_line()
        self._query_box()

    def _status_line(self) -> Plain:
        found = self.query_children("#log-status")
        if found:
            return found.first(Plain)
        line = Plain("", id="log-status")
        self.mount(line, after=self.view)
        return line

    def _query_box(self) -> Input:
        found = self.query_children("#log-query")
        if found:
            return found.first(Input)
        box = PlainInput(id="log-query")
        self.mount(box)
        return box

    @property
    def view(self) -> LogView:
        return self.query_one(LogView)

    def bind(self, vp: Viewpoint) -> None:
        self.filter = LogFilter()
        self._set_status("")
        self.view.bind(vp)

    def retranslate(self) -> None:
        """The reader's language changed: the rows, the border and the status line say it again."""
        self.view.forget_lines()
        self._show_newer()
        if self.filter:
            self._set_status(self._filter_status())
        if self._asking:
            self._query_box().placeholder = self._placeholder(self._asking)

    def sync(self) -> None:
        view = self.view
        if isinstance(view.index, FilteredIndex):
            view.index.extend()
        view.sync()

    # --------------------------------------------------------------- asking

    def _ask(self, what: str, placeholder: str, value: str = "") -> None:
        self._asking = what
        box = self._query_box()
        box.placeholder = placeholder
        box.value = value
        self.add_class("-asking")
        box.focus()

    @staticmethod
    def _placeholder(what: str) -> str:
        if what == "search":
            return _("search the log (Enter: older match, then {older} older / {newer} newer)").format(
                older=key_label("shift+up"), newer=key_label("shift+down")
            )
        return _("filter: unit:NAME side:ID kind:roll|move|status|dp|cmd|phase|… words")

    def action_search(self) -> None:
        self._ask("search", self._placeholder("search"), self._search)

    def action_filter(self) -> None:
        self._ask("filter", self._placeholder("filter"), self.filter.describe())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear":  # Esc falls through to the screen when there is nothing to clear
            return bool(self.filter) or self.has_class("-asking")
        return True

    def action_clear(self) -> None:
        self.remove_class("-asking")
        if self.filter:
            self.apply_filter("")
        self.view.focus()

    @on(Input.Submitted, "#log-query")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.remove_class("-asking")
        self.view.focus()
        if self._asking == "search":
            self._search = event.value.strip()
            if self._search:
                self.action_search_again(-1)
        else:
            self.apply_filter(event.value)

    @on(LogView.Newer)
    def _newer(self, event: LogView.Newer) -> None:
        self._newer_count = event.count
        self._show_newer()

    def _show_newer(self) -> None:
        # In the border, so that it costs the log no row.
        count = self._newer_count
        self.border_subtitle = (
            ngettext("▼ {count} newer (End)", "▼ {count} newer (End)", count).format(count=count) if count else ""
        )

    def _set_status(self, text: str) -> None:
        if text or self.query_children("#log-status"):  # nothing to say: no need to make the line yet
            self._status_line().update(text)
        self.set_class(bool(text), "-status")

    # --------------------------------------------------------------- search

    def action_search_again(self, direction: int) -> None:
        if self._search:
            self.find(self._search, direction)

    @work(exclusive=True, group="log-search")
    async def find(self, words: str, direction: int) -> None:
        """Move the cursor to the nearest row before (-1) or after (1) it whose text holds ``words``."""
        view = self.view
        if view.vp is None or view.index is None:
            return
        needle = words.lower()
        row = view.cursor + direction
        step = SEARCH_WINDOW
        self._set_status(_("searching for “{words}”…").format(words=words))
        while 0 <= row < view.rows:
            lo, hi = (max(0, row - step + 1), row + 1) if direction < 0 else (row, min(view.rows, row + step))
            a, b = view.index.position(lo), view.index.position(hi - 1) + 1
            hits = [line.index for line in view.vp.game.log_lines(view.vp.role, a, b) if needle in line.text.lower()]
            rows = sorted(
                r for r in (view.index.row_of(p) for p in hits) if lo <= r < hi and view.index.position(r) in hits
            )
            if rows:
                view.set_cursor(rows[-1] if direction < 0 else rows[0])
                self._set_status(self._filter_status())
                return
            row = lo - 1 if direction < 0 else hi
            await asyncio.sleep(0)
        said = _("no older line holds “{words}”") if direction < 0 else _("no newer line holds “{words}”")
        self._set_status(said.format(words=words))

    # --------------------------------------------------------------- filter

    def apply_filter(self, text: str) -> None:
        view = self.view
        if view.vp is None or view.base is None:
            return
        self.filter = LogFilter.parse(text)
        if not self.filter:
            view.use_index(view.base)
            self._set_status("")
            return
        # A unit's side as this role knows it (units it cannot see have none).
        sides = {uid: u.side for uid, u in view.vp.state().units.items()}
        index = FilteredIndex(view.vp.game, view.vp.role, self.filter, lambda uid: sides.get(uid, ""))
        view.use_index(index)
        self._scan(index)

    @work(exclusive=True, group="log-filter")
    async def _scan(self, index: FilteredIndex) -> None:
        view = self.view
        while not index.done and view.index is index:
            index.scan()
            view.sync()
            total = max(1, view.vp.game.log_length if view.vp else 1)
            self._set_status(
                _("filter {filter}: {count} lines, scanning {percent}%").format(
                    filter=self.filter.describe(), count=index.rows(), percent=100 * index.scanned // total
                )
            )
            await asyncio.sleep(0)
        if view.index is index:
            self._set_status(self._filter_status())

    def _filter_status(self) -> str:
        if not self.filter:
            return ""
        return _("filter {filter}: {count} lines (Esc clears)").format(
            filter=self.filter.describe(), count=self.view.rows
        )
