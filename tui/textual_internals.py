"""What the client takes from Textual that Textual does not make public, in one place.

Textual has no public API for these, and the client needs them:

* ``XTermParser``: the parser Textual's own drivers turn a terminal's bytes into
  key, mouse and paste events with. An SSH seat's driver (``tui.ssh.seating.driver``),
  the local one (``tui.local_driver``) and the keys typed before the game screen
  is up (``tui.typeahead``) must read input exactly as a local terminal's is
  read; ``tui.terminal_parser`` refines it (it reads a bracketed paste itself, with
  a new ``parse`` generator after it) with the parser's protocol (``Read1``,
  ``Peek1``, ``ParseError``, ``TokenCallback``) and the paste's brackets.
* ``FooterKey``: the widget ``Footer.compose`` yields per key; the client's footer
  (``tui.panes.footer``) puts each key's description in the reader's language.
* ``Compositor``: the screen's compositor, which ``tui.compositor.RowsCompositor``
  refines to render only the rows a partial update sends (pinned by
  ``tests/tui/test_tui_compositor.py``: the same escape codes as Textual's own);
  ``changed_regions``, the regions its next partial update draws, tell it which;
  ``ChopsUpdate``, the partial update it returns, whose escape codes it writes
  with the cursor moves made more cheaply;
  ``LayoutUpdate`` and ``visible_screen_stack``, with which an SSH table draws a
  shared screen once for its spectators (``tui.ssh.seating.sharedscreen``), reading the
  screen's own compositor (``screen_compositor``; ``use_compositor`` gives the game
  screen its ``RowsCompositor``).
* ``css_variables``: the variables a stylesheet substitutes into the CSS it parses,
  which ``tui.stylesheet`` keys its shared parsed rules by; ``ParsingStylesheet``,
  Textual's ``Stylesheet`` with the step that parses one piece of CSS (private:
  ``_parse_rules``) open to a subclass as ``parse_rules``, and its ``reparse`` done
  in a fresh stylesheet of the subclass's own class (Textual's makes a plain one,
  which would parse around that step), so that ``tui.stylesheet`` shares what it
  parses.
* ``background_screens``: the screens below the current one that show through it
  (up to the first opaque one), which a screen paints its background over; an SSH
  table's shared screen sets them in ``visible_screen_stack`` before it renders,
  as Textual's compositor does.
* ``key_bindings``: the bindings a widget has for a key (its class's, or those it
  inherits, with the keys the app's keymap gives their ids), which the command line
  runs in order with the characters typed around them (``tui.commandline``).
* ``unshown``: a node's binding kept working but no longer shown in the footer, for that node
  alone (its own copy of its class's bindings, ``DOMNode._bindings``): a side's game screen
  keeps Ctrl+T, which tells whose choice table dice is, off its key bar (``tui.screens.game``).
* ``keymap``: the keys the app's keymap gives binding ids now (``App.set_keymap``'s,
  which has no getter), which every key named in words is read with (``tui.keymap``),
  and none for a node no app runs (Textual's ``NoActiveAppError``).
* ``suggestion_shown`` and ``dismiss_suggestion``: the greyed suggestion an ``Input`` shows
  after its text (``Input._suggestion``), which the command line's Esc puts away (``tui.commandline``).
* ``get_time``: the clock Textual stamps its messages with (``Message.time``), which
  the command line compares a key's time against (``tui.commandline``).
* ``styles_key``: a key that changes whenever the styles of a widget or of one of its
  ancestors change (Textual counts every change of a node's styles, its CSS's and its
  inline ones, for its own caches), which the log keeps what it draws every row with
  by (``tui.panes.log``): working it out walked the ancestors' styles several times a frame.
* ``hide_overlay``: a widget that covers others from a layer of its own (the undo
  and redo box, ``tui.screens.dialogs.ConfirmBox``) hidden without laying its
  screen out: taken out of the compositor's map as Textual's layout would take
  it out, and what it covered drawn again at the next update.
* ``overlays_later`` and ``mount_overlays``: the overlays Textual composes first
  among every screen's children (the notifications' rack and the tooltip, each when
  the app allows it: ``Screen._extend_compose``) left out of a screen's compose and
  mounted when asked, with the notifications sent meanwhile shown then
  (``App._refresh_notifications``). The game screen mounts them once its first frame
  is drawn: two widgets fewer to compose and style before it, one fewer to lay out.
* ``switchable``: a screen made the app's first one (``App.get_default_screen``: the
  game screen, ``tui.app``) given the result callback Textual gives a screen that
  takes another's place (``App.switch_screen``), which a switch takes off the screen
  it replaces: without it the first screen could not be switched for another game's.
* ``option_line``: the row of an ``OptionList``'s content on which an option begins (an
  option may take several rows), where the terminal's cursor is put when the option is
  highlighted (``tui.focus_cursor``).
* ``withdraw_notices``: the notices of a title still shown, taken back (``App._unnotify``):
  an odds notice once its command's dice prompt is up, which it would cover for its 20 s.
* ``RepaintsAfterBatch``: an app whose screens look again at what they have to draw when its
  last batch update ends (``App._end_batch``). A screen resumes its update timer on idle only
  when no batch is open (``Screen._on_idle``), and Textual's end of a batch prompts the app
  alone: a screen that went idle while another widget recomposed (``Widget.recompose`` runs in
  a batch: a footer's, after a screen is pushed) kept its changes undrawn until the next event
  reached it, a key at the earliest, and maybe never on a spectator's screen.
* ``capture_output_into``: an app swaps ``sys.stdout``/``sys.stderr`` for its own
  capture while it runs; an SSH server runs many apps in one process, whose swaps
  interleave, so each seat's app "captures" into the streams as they are (a no-op).

Each is pinned by ``tests/tui/test_tui_textual_internals.py`` (the terminal parser by
``tests/tui/test_tui_textual_parser.py``): a Textual upgrade that changes what is relied
on here fails a test, not a game.  Nothing else in the client imports a private Textual
module or reads or sets a private attribute of Textual's that is named here (the same
test scans for them).
"""

from __future__ import annotations

from dataclasses import replace
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
    from textual._context import visible_screen_stack
    from textual._parser import ParseError, Peek1, Read1, TokenCallback
    from textual._time import get_time
    from textual._xterm_parser import BRACKETED_PASTE_END, BRACKETED_PASTE_START, XTermParser
    from textual.app import App
    from textual.binding import Binding
    from textual.css.model import RuleSet
    from textual.css.stylesheet import CSSLocation, Stylesheet
    from textual.dom import DOMNode
    from textual.geometry import Region
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Input, OptionList
    from textual.widgets._footer import FooterKey

    class ParsingStylesheet(Stylesheet):
        """The class ``_parsing_stylesheet`` makes, as the type checker sees it (made when first asked
        for: importing Textual's stylesheet takes a while), so that a subclass may refine ``parse_rules``."""

        def parse_rules(
            self,
            css: str,
            read_from: CSSLocation,
            is_default_rules: bool = False,
            tie_breaker: int = 0,
            scope: str = "",
        ) -> list[RuleSet]: ...

    _App = App[Any]
else:
    _App = object  # a mixin's base: Textual's App is imported by the class it is mixed into

_S = TypeVar("_S", bound="Screen[Any]")


class InApp(Protocol):
    """Whatever runs in an app: a widget, a screen, or what a part of the game screen knows of it
    (``tui.screens.seat.SeatScreen``); its app's keymap is read."""

    @property
    def app(self) -> App[Any]: ...


#: Where each name lives.  They are imported when first asked for, not with this module:
#: the client's start imports only what its first frame needs (the footer comes after it).
_HOMES = {
    "ChopsUpdate": "textual._compositor",
    "Compositor": "textual._compositor",
    "LayoutUpdate": "textual._compositor",
    "visible_screen_stack": "textual._context",
    "get_time": "textual._time",
    "XTermParser": "textual._xterm_parser",
    "BRACKETED_PASTE_START": "textual._xterm_parser",
    "BRACKETED_PASTE_END": "textual._xterm_parser",
    "ParseError": "textual._parser",
    "Peek1": "textual._parser",
    "Read1": "textual._parser",
    "TokenCallback": "textual._parser",
    "FooterKey": "textual.widgets._footer",
}

__all__ = [
    "BRACKETED_PASTE_END",
    "BRACKETED_PASTE_START",
    "ChopsUpdate",
    "Compositor",
    "FooterKey",
    "LayoutUpdate",
    "ParseError",
    "ParsingStylesheet",
    "Peek1",
    "Read1",
    "RepaintsAfterBatch",
    "TokenCallback",
    "XTermParser",
    "background_screens",
    "capture_output_into",
    "changed_regions",
    "css_variables",
    "hide_overlay",
    "mount_overlays",
    "option_line",
    "overlays_later",
    "screen_compositor",
    "styles_key",
    "switchable",
    "use_compositor",
    "get_time",
    "key_bindings",
    "unshown",
    "suggestion_shown",
    "dismiss_suggestion",
    "visible_screen_stack",
]


class RepaintsAfterBatch(_App):
    """Put first among an ``App`` subclass's bases: when its last batch update ends, every screen
    of the stack is prompted to look again at what it has to draw (see the module's notes)."""

    def _end_batch(self) -> None:
        super()._end_batch()
        if not self._batch_count:
            for screen in self.screen_stack:
                screen.check_idle()  # an idle screen resumes its update timer if it has something to draw


def capture_output_into(app: App[Any], stdout: TextIO, stderr: TextIO) -> None:
    """Make ``app``'s capture of ``sys.stdout`` and ``sys.stderr`` while it runs these streams."""
    # (Textual types these private attributes as its own capture; it only redirects sys.stdout and stderr to them.)
    app._capture_stdout = stdout  # type: ignore[assignment]
    app._capture_stderr = stderr  # type: ignore[assignment]


def option_line(option_list: OptionList, index: int) -> int | None:
    """The row of ``option_list``'s content on which its option ``index`` begins, or None if it has none."""
    return option_list._index_to_line.get(index)


def screen_compositor(screen: Screen[Any]) -> Compositor:
    """The compositor ``screen`` lays out and renders its widgets with."""
    return screen._compositor


def changed_regions(compositor: Compositor) -> set[Region]:
    """The screen regions ``compositor`` will draw again at its next partial update (not a copy)."""
    return compositor._dirty_regions


def hide_overlay(widget: Widget) -> None:
    """Hide ``widget`` (``display`` none) without laying its screen out; it must be on a layer of its own,
    where nothing's place depends on it (docked on an otherwise empty layer, say).

    Textual lays out the whole screen when a widget's ``display`` changes (0.8-1.1 ms of an undo
    through its box, issue #32), only to find that nothing but the widget moved.  Here the widget
    and its children leave the compositor's maps, its caches of them are dropped, as a layout
    would, and the region it covered is drawn again at the screen's next update, with whatever
    else changed.  (The widgets are not sent ``Hide``: nothing of the box's listens for it.)
    A widget not placed yet is hidden as Textual hides one.  Placed first among its siblings, it
    leaves the others' drawing order as a layout without it gives them (else Textual's next layout
    finds them changed, and draws them again: the same rows).
    """
    screen = widget.screen
    compositor: Any = screen._compositor
    maps = [m for m in (compositor._full_map, compositor._visible_map) if m]
    geometry = next((m[widget] for m in maps if widget in m), None)
    if geometry is None:
        widget.display = False
        return
    widget.styles.set_rule("display", "none")  # set as Textual's ``display`` sets it, with no refresh
    widget._nodes.updated()  # the screen's list of displayed children is made again (Textual's setter does this)
    for placed in maps:
        for gone in [w for w in placed if widget in w.ancestors_with_self]:
            del placed[gone]
            compositor.widgets.discard(gone)
    compositor._cuts = compositor._layers = compositor._layers_visible = compositor._visible_widgets = None
    covered = geometry.clip.intersection(geometry.region)
    if covered:
        compositor._dirty_regions.add(covered)
    # The screen itself is marked for an update (it has nothing of its own to repaint):
    # the compositor then draws the changed regions, the one added here with the others.
    screen._dirty_widgets.add(screen)
    screen.check_idle()


def overlays_later(screen_class: type[_S]) -> type[_S]:
    """``screen_class`` (a class decorator), composed without the overlays Textual puts first among every
    screen's children: the notifications' rack and the tooltip, which ``mount_overlays`` mounts."""

    def _extend_compose(self: Screen[Any], widgets: list[Widget]) -> None:
        pass

    screen_class._extend_compose = _extend_compose  # type: ignore[method-assign]  # (a private step, replaced)
    return screen_class


async def mount_overlays(screen: Screen[Any]) -> None:
    """Mount, first among ``screen``'s children as Textual composes them, the overlays ``overlays_later``
    left out (those the app allows), and show the notifications sent until then."""
    from textual.screen import Screen

    if not screen.is_attached:
        return
    overlays: list[Widget] = []
    Screen._extend_compose(screen, overlays)
    if overlays:
        if screen.children:
            await screen.mount_all(overlays, before=0)
        else:
            await screen.mount_all(overlays)
    screen.app._refresh_notifications()


def switchable(screen: _S) -> _S:
    """``screen``, to be the app's first (``App.get_default_screen``), with the result callback
    ``App.switch_screen`` gives a screen that takes another's place and takes off the one it replaces."""
    screen._push_result_callback(screen, None)
    return screen


def use_compositor(screen: Screen[Any], compositor: Compositor) -> None:
    """Make ``compositor`` the one ``screen`` lays out and renders with (called in its ``__init__``)."""
    screen._compositor = compositor


def css_variables(stylesheet: Stylesheet) -> dict[str, str]:
    """The variables ``stylesheet`` substitutes into the CSS it parses (not a copy: do not change it)."""
    return stylesheet._variables


def unshown(node: DOMNode, binding_id: str) -> None:
    """Keep ``node``'s binding ``binding_id`` working, but out of the footer (``show=False``), on
    ``node`` alone: the lists of its own bindings map are replaced, never its class's changed."""
    bindings = node._bindings.key_to_bindings
    for key, key_bindings in bindings.items():
        bindings[key] = [replace(b, show=False) if b.id == binding_id else b for b in key_bindings]


def key_bindings(node: DOMNode, key: str, keymap: Mapping[str, str] | None = None) -> list[Binding]:
    """The bindings ``node`` has for ``key``: its class's own, or those of the nearest class it inherits
    from, with ``keymap``'s keys for an id it rebinds (an app's: :func:`keymap`), as Textual applies it."""
    bindings = node._bindings
    if keymap:
        bindings = bindings.copy()
        bindings.apply_keymap(dict(keymap))
    return bindings.key_to_bindings.get(key, [])


def suggestion_shown(box: Input) -> str:
    """The suggestion ``box`` shows greyed after its text ("" if none)."""
    shown = box._suggestion
    return shown if len(shown) > len(box.value) else ""


def dismiss_suggestion(box: Input) -> None:
    """Put ``box``'s greyed suggestion away (the next change of its text may bring another)."""
    box._suggestion = ""


def keymap(node: InApp) -> Mapping[str, str]:
    """The keys the keymap of ``node``'s app gives binding ids now (``App.set_keymap``'s, in Textual's
    key names); none where no app runs (a screen made to be read, never shown)."""
    from textual._context import NoActiveAppError

    try:
        return node.app._keymap
    except NoActiveAppError:
        return {}


def withdraw_notices(app: App[Any], title: str) -> None:
    """Take back the notices titled ``title`` that are still shown."""
    for notice in [n for n in app._notifications if n.title == title]:
        app._unnotify(notice)


def background_screens(app: App[Any]) -> list[Screen[Any]]:
    """The screens below ``app``'s current one that show through it, bottom first (a new list each time:
    a screen painting its background takes the last one off it)."""
    return app._background_screens


def _parsing_stylesheet() -> type[Stylesheet]:
    from textual.css.stylesheet import Stylesheet

    class ParsingStylesheet(Stylesheet):
        """Textual's stylesheet, each piece of CSS parsed by ``parse_rules``, which a subclass may refine."""

        def parse_rules(
            self,
            css: str,
            read_from: CSSLocation,
            is_default_rules: bool = False,
            tie_breaker: int = 0,
            scope: str = "",
        ) -> list[RuleSet]:
            """The rule sets of one piece of CSS, as Textual parses them (with this stylesheet's variables)."""
            return Stylesheet._parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)

        def _parse_rules(self, *args: Any, **kwargs: Any) -> list[RuleSet]:
            return self.parse_rules(*args, **kwargs)  # (Textual's private step, as it is called)

        def reparse(self) -> None:
            # Textual's ``Stylesheet.reparse``, in a fresh stylesheet of this class rather than a plain one.
            stylesheet = type(self)(variables=self._variables)
            for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
                stylesheet.add_source(
                    css, read_from=read_from, is_default_css=is_defaults, tie_breaker=tie_breaker, scope=scope
                )
            try:
                stylesheet.parse()
            except Exception:
                self._invalid_css.update(stylesheet._invalid_css)  # not parsed again before the app quits
                raise
            self._rules = stylesheet.rules
            self._rules_map = None
            self.source = stylesheet.source
            self._require_parse = False

    return ParsingStylesheet


#: What is made (not imported) the first time it is asked for.
_MADE = {"ParsingStylesheet": _parsing_stylesheet}


def __getattr__(name: str) -> Any:
    """One of Textual's private names, imported from its home (or made) the first time it is asked for."""
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(import_module(home), name)
    elif name in _MADE:
        value = _MADE[name]()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def styles_key(node: DOMNode) -> tuple[int, ...]:
    """A key that changes whenever the styles of ``node`` or of one of its ancestors change."""
    return tuple(n.styles._cache_key for n in node.ancestors_with_self)
