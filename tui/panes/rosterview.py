"""The roster's rows: sides, their teams and figures, then the hidden markers, as a tree of lines.

Textual's ``Tree`` was the costliest widget of the client's first frame (its
CSS, its mount and styling, its first render: issue #15); the roster needs
three levels of rows, each relabelled in place as the game moves.  So, as the
log does (``tui/panes/log.py``), the roster draws its own lines: Tree's looks
(guides, ``▼``/``▶`` on a group, the cursor's and the mouse's highlight) and
Tree's keys, its own one-column scroll bar (``BarView``).

The rows come from :class:`tui.panes.roster.RosterPane` as a list of
:class:`Item` in order, each at its depth; a group (a side, a team, the
markers) folds and unfolds.  The cursor is a row, or -1 until a key first moves
it (as Tree's): it stays on its item when the rows are replaced or relabelled.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from tui.i18n import N_
from tui.panes.barview import BarView

NodeKey = tuple[str, ...]  # ("side", id) / ("team", side, team) / ("unit", id) / ("markers",) / ("marker", label)

#: Tree's guides, two cells a level: (an ancestor's sibling follows, none follows, the last child, a child).
GUIDES = ("│ ", "  ", "└ ", "├ ")
FOLDED, UNFOLDED = "▶ ", "▼ "


class Item:
    """One row of the roster: its key, its label, its depth (0 for a side or the
    markers), and whether it is a group that folds.  The view links the rest."""

    __slots__ = ("depth", "group", "key", "label", "last", "parent")

    def __init__(self, key: NodeKey, label: Text, depth: int, group: bool = False) -> None:
        self.key, self.label, self.depth, self.group = key, label, depth, group
        self.parent: Item | None = None
        self.last = True  # the last of its parent's children: its guide ends there

    def path(self) -> list[Item]:
        """Its ancestors, the topmost first, then itself."""
        out: list[Item] = []
        node: Item | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out[::-1]


def link(items: list[Item]) -> None:
    """Give each item its parent (the nearest item above it one level up) and its ``last`` flag."""
    open_: list[Item] = []  # the latest item at each depth
    for item in items:
        del open_[item.depth :]
        item.parent = open_[-1] if open_ else None
        open_.append(item)
    parents: set[int] = set()  # those of the items below, met bottom up
    for item in reversed(items):
        item.last = id(item.parent) not in parents
        parents.add(id(item.parent))


class RosterView(BarView, can_focus=True):
    """The roster's rows, a cursor over them, and Tree's keys."""

    BINDINGS = [
        Binding("up", "move(-1)", N_("Up"), show=False),
        Binding("down", "move(1)", N_("Down"), show=False),
        Binding("pageup", "page(-1)", N_("Page up"), show=False),
        Binding("pagedown", "page(1)", N_("Page down"), show=False),
        Binding("home", "edge(-1)", N_("First row"), show=False),
        Binding("end", "edge(1)", N_("Last row"), show=False),
        # Enter on a group folds it, as it did in Textual's Tree.  No printable key (Space
        # folded too): one typed here goes to the command line (GameScreen.on_key, #61).
        Binding(
            "enter",
            "choose",
            N_("A figure's id to the command line; a side, a team or the markers folded or unfolded"),
            show=False,
        ),
        # Ctrl+Space, as terminals send it (NUL); Shift+Space most send as a Space.
        Binding("ctrl+@", "fold_siblings", N_("Fold or unfold the row's group and those beside it"), show=False),
        Binding("shift+left", "parent", N_("Cursor to the row's group"), show=False),
        Binding("shift+right", "parent_next", N_("Cursor to the next group"), show=False),
        Binding("shift+up", "sibling(-1)", N_("Cursor to the previous row of the same level"), show=False),
        Binding("shift+down", "sibling(1)", N_("Cursor to the next row of the same level"), show=False),
    ]

    COMPONENT_CLASSES = {"roster--cursor", "roster--guides", "roster--guides-selected", "roster--hover"}

    # Tree's colours, by the theme's variables: the guides below the cursor's row
    # in the cursor's colour while the roster has the focus.
    DEFAULT_CSS = """
    RosterView {
        height: 1fr; overflow-x: hidden; overflow-y: hidden;
        background: $surface; color: $foreground;
        & > .roster--guides { color: $surface-lighten-2; }
        & > .roster--guides-selected { color: $block-cursor-blurred-background; }
        & > .roster--cursor {
            text-style: $block-cursor-blurred-text-style; background: $block-cursor-blurred-background;
        }
        & > .roster--hover { background: $block-hover-background; }
        &:focus {
            background-tint: $foreground 5%;
            & > .roster--cursor {
                color: $block-cursor-foreground; background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
            & > .roster--guides { color: $surface-lighten-3; }
            & > .roster--guides-selected { color: $block-cursor-background; }
        }
        &:light > .roster--guides { color: $surface-darken-1; }
        &:light > .roster--guides-selected { color: $block-cursor-background; }
    }
    RosterView:ansi {
        color: ansi_default;
        & > .roster--guides { color: $ansi-background; }
        &:nocolor > .roster--cursor { text-style: reverse; }
    }
    """

    class Highlighted(Message):
        """The cursor is on another item (None: on none)."""

        def __init__(self, key: NodeKey | None) -> None:
            super().__init__()
            self.key = key

    class Chosen(Message):
        """Enter, or a click, on a row that is not a group."""

        def __init__(self, key: NodeKey) -> None:
            super().__init__()
            self.key = key

    class Below(Message):
        """How many rows lie below the view (0 when every row down to the last shows)."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._items: list[Item] = []
        self._shown: list[Item] = []  # the rows: the items no folded group hides
        self._folded: set[NodeKey] = set()
        self.cursor = -1
        self._hover = -1  # the row under the mouse
        self._told: NodeKey | None = None  # the item last said highlighted
        # What drawing every row of one repaint needs (see ``render_lines``).
        self._width, self._focused = 0, False
        self._styles: dict[str, Style] = {}
        self._styled_for: tuple | None = None  # what ``_styles`` were found for
        self._bar_now: tuple[int, int] | None = None
        self._cells = (Style(), Style())
        self._below = 0  # the rows below the view, as last told

    # ------------------------------------------------------------------ data

    @property
    def cursor_key(self) -> NodeKey | None:
        return self._shown[self.cursor].key if 0 <= self.cursor < len(self._shown) else None

    def item_keys(self) -> list[NodeKey]:
        """Every item's key in order, folded away or not."""
        return [item.key for item in self._items]

    def rows_text(self) -> list[str]:
        """The rows as shown, as plain text (the guides, the fold marks, the labels)."""
        return [self._row_text(item).plain for item in self._shown]

    def label(self, key: NodeKey) -> Text | None:
        return next((item.label for item in self._items if item.key == key), None)

    def show(self, items: list[Item], first: NodeKey | None = None) -> None:
        """Take new rows.  The cursor goes to ``first`` if given and there, else stays on its
        item, else (the item gone) on its row; a folded group stays folded."""
        keep, row = self.cursor_key, self.cursor
        link(items)
        self._items = items
        present = {item.key for item in items}
        self._folded &= present
        self._layout_rows()
        target = first if first in present else keep if keep in present else None
        if target is not None:
            self.move_to(target)
        elif row >= 0:
            self._set_cursor(min(row, len(self._shown) - 1))
        self.refresh()

    def relabel(self, labels: dict[NodeKey, Text]) -> None:
        """New labels for some items (the rows are the same): only the rows whose label changed are drawn again."""
        rows = {id(item): row for row, item in enumerate(self._shown)}  # (those folded away have none)
        for item in self._items:
            label = labels.get(item.key)
            if label is not None and label != item.label:
                item.label = label
                if id(item) in rows:
                    self._refresh_rows(rows[id(item)], 1)

    def move_to(self, key: NodeKey) -> None:
        """Put the cursor on the item ``key``, unfolding the groups it is in."""
        item = next((i for i in self._items if i.key == key), None)
        if item is None:
            return
        hidden = [a.key for a in item.path()[:-1] if a.key in self._folded]
        if hidden:
            self._folded.difference_update(hidden)
            self._layout_rows()
            self.refresh()
        self._set_cursor(self._shown.index(item))

    def _layout_rows(self) -> None:
        shown, folded_at = [], None
        for item in self._items:
            if folded_at is not None and item.depth > folded_at:
                continue
            folded_at = item.depth if item.key in self._folded else None
            shown.append(item)
        self._shown = shown
        self._set_rows(len(shown))
        if self.scroll_y > self.max_scroll_y:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
        self._tell_below()

    def _tell_below(self) -> None:
        """Say how many rows the view does not show below it: at 80x24 the enemy's figures
        may all be there, and the pane's border says so (``RosterPane``)."""
        count = self._rows_below()
        if count != self._below:
            self._below = count
            self.post_message(self.Below(count))

    # -------------------------------------------------------------- the cursor

    def _set_cursor(self, row: int) -> None:
        row = max(0, min(len(self._shown) - 1, row)) if self._shown else -1
        if row != self.cursor:
            for old in (self.cursor, row):  # its row and the guides below it change
                if 0 <= old < len(self._shown):  # (the rows may just have shrunk under the old)
                    self._refresh_rows(old, 1 + self._descendants(old))
            self.cursor = row
        self._reveal_cursor()
        key = self.cursor_key
        if key != self._told:
            self._told = key
            self.post_message(self.Highlighted(key))

    def _descendants(self, row: int) -> int:
        depth, count = self._shown[row].depth, 0
        for item in self._shown[row + 1 :]:
            if item.depth <= depth:
                break
            count += 1
        return count

    def _refresh_rows(self, row: int, count: int) -> None:
        self.refresh(Region(0, row - int(self.scroll_y), self.size.width, count))

    # -------------------------------------------------------------- drawing

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every row needs, found once per repaint rather than once per row.
        base_background, _ = self.background_colors
        self._bar_now = self._bar()
        self._cells = self._bar_cells(base_background)
        self._width = self.size.width - (1 if self._bar_now else 0)
        self._focused = self.has_focus
        # The rows' styles walk the CSS: found again when the focus or the styles changed.
        base = self.rich_style
        if self._styled_for != (self._focused, base):
            self._styled_for = (self._focused, base)
            self._styles = {
                "base": base,
                "cursor": self.get_component_rich_style("roster--cursor", partial=False),
                "hover": self.get_component_rich_style("roster--hover", partial=False),
                "guides": self.get_component_rich_style("roster--guides", partial=True),
                "selected": self.get_component_rich_style("roster--guides-selected", partial=True),
            }
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        row = int(self.scroll_y) + y
        base = self._styles["base"]
        if 0 <= row < len(self._shown):
            item = self._shown[row]
            hovered = 0 <= self._hover < len(self._shown) and self._shown[self._hover] in item.path()
            line = self._styles["hover"] if hovered else base
            text = self._row_text(item, row == self.cursor, line)
            text.truncate(self._width, overflow="ellipsis")  # a row cut at the edge says so
            strip = Strip(list(text.render(self.app.console))).crop_extend(0, self._width, line)
        else:
            strip = Strip.blank(self._width, base)
        bar = self._bar_now
        if bar is None:
            return strip
        return self._with_cell(strip, self._cells[bar[0] <= y < bar[1]])

    def _row_text(self, item: Item, at_cursor: bool = False, line: Style | None = None) -> Text:
        """A row: its guides (in the cursor's colour below the cursor's row, while
        focused), its group's fold mark, then its label."""
        styles, cursor = self._styles, self.cursor_key
        text = Text(style=line or Style())
        path = item.path()
        selected = False
        for level in range(1, len(path)):
            selected = selected or (self._focused and path[level - 1].key == cursor)
            style = styles.get("selected" if selected else "guides")
            if level < len(path) - 1:
                text.append(GUIDES[1 if path[level].last else 0], style=style)
            else:
                text.append(GUIDES[2 if item.last else 3], style=style)
        if item.group:
            text.append(FOLDED if item.key in self._folded else UNFOLDED)
        label = item.label
        if at_cursor:
            label = label.copy()
            label.stylize(styles["cursor"])
        text.append_text(label)
        return text

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styled_for = None  # a new theme, or a pseudo-class: their colours
        self.refresh()

    def on_focus(self) -> None:
        # (BarView's draws the view again too.)  The border's hint names the key only when needed.
        self.post_message(self.Below(self._below))

    def on_blur(self) -> None:
        self.post_message(self.Below(self._below))

    # -------------------------------------------------------------- keys

    def action_move(self, delta: int) -> None:
        if self.cursor < 0:  # as Tree's: the first key down goes to the top, up to the bottom
            self._set_cursor(0 if delta > 0 else len(self._shown) - 1)
        else:
            self._set_cursor(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        start = self.cursor if self.cursor >= 0 else 0 if direction > 0 else len(self._shown) - 1
        self._set_cursor(start + direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, direction: int) -> None:
        self._set_cursor(0 if direction < 0 else len(self._shown) - 1)

    def action_choose(self) -> None:
        key = self.cursor_key
        if key is None:
            return
        if self._shown[self.cursor].group:
            self.action_fold()
        else:
            self.post_message(self.Chosen(key))

    def action_fold(self) -> None:
        if 0 <= self.cursor < len(self._shown) and self._shown[self.cursor].group:
            self._fold([self._shown[self.cursor]], self._shown[self.cursor].key not in self._folded)

    def action_fold_siblings(self) -> None:
        """Unfold the cursor's group and those beside it if all are folded, else fold them all."""
        if self.cursor < 0:
            return
        parent = self._shown[self.cursor].parent
        groups = [i for i in self._items if i.parent is parent and i.group]
        if groups:
            self._fold(groups, not all(g.key in self._folded for g in groups))

    def _fold(self, groups: list[Item], fold: bool) -> None:
        keep = self.cursor_key
        for group in groups:
            if fold:
                self._folded.add(group.key)
            else:
                self._folded.discard(group.key)
        self._layout_rows()
        if keep is not None:
            self._set_cursor(next(r for r, i in enumerate(self._shown) if i.key == keep))
        self.refresh()

    def _siblings(self, item: Item) -> list[Item]:
        return [i for i in self._items if i.parent is item.parent and i.depth == item.depth]

    def _go(self, item: Item | None) -> None:
        if item is not None:
            self._set_cursor(self._shown.index(item))

    def action_parent(self) -> None:
        if self.cursor >= 0:
            self._go(self._shown[self.cursor].parent)

    def action_parent_next(self) -> None:
        parent = self._shown[self.cursor].parent if self.cursor >= 0 else None
        if parent is not None:
            self._go(self._next(parent, 1))

    def action_sibling(self, direction: int) -> None:
        """The previous (-1) or next (1) row of the same group; past the first, its group;
        past the last, the group after its own."""
        if self.cursor < 0:
            return
        item = self._shown[self.cursor]
        found = self._next(item, direction)
        if found is None and item.parent is not None:
            found = item.parent if direction < 0 else self._next(item.parent, 1)
        self._go(found)

    def _next(self, item: Item, direction: int) -> Item | None:
        siblings = self._siblings(item)
        at = siblings.index(item) + direction
        return siblings[at] if 0 <= at < len(siblings) else None

    # -------------------------------------------------------------- the mouse

    def on_click(self, event: events.Click) -> None:
        row = int(self.scroll_y) + event.y
        if not self._on_bar(event.x) and 0 <= row < len(self._shown):
            self._set_cursor(row)
            self.action_choose()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = int(self.scroll_y) + event.y
        self._hover_on(row if 0 <= row < len(self._shown) and not self._on_bar(event.x) else -1)

    def on_leave(self) -> None:
        self._hover_on(-1)

    def _hover_on(self, row: int) -> None:
        if row != self._hover:
            self._hover = row  # its row and those below it in its group are highlighted
            self.refresh()
