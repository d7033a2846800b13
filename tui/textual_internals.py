"""What the client takes from Textual that Textual does not make public, in one place.

Textual has no public API for these, and the client needs them:

* ``XTermParser``: the parser Textual's own drivers turn a terminal's bytes into
  key, mouse and paste events with. An SSH seat's driver (``tui.ssh.driver``),
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
  ``LayoutUpdate`` and ``visible_screen_stack``, with which an SSH table draws a
  shared screen once for its spectators (``tui.ssh.sharedscreen``), reading the
  screen's own compositor (``screen_compositor``; ``use_compositor`` gives the game
  screen its ``RowsCompositor``).
* ``css_variables``: the variables a stylesheet substitutes into the CSS it parses,
  which ``tui.stylesheet`` keys its shared parsed rules by.
* ``get_time``: the clock Textual stamps its messages with (``Message.time``), which
  the command line compares a key's time against (``tui.commandline``).
* ``capture_output_into``: an app swaps ``sys.stdout``/``sys.stderr`` for its own
  capture while it runs; an SSH server runs many apps in one process, whose swaps
  interleave, so each seat's app "captures" into the streams as they are (a no-op).

Each is pinned by ``tests/tui/test_tui_textual_internals.py``: a Textual upgrade
that changes what is relied on here fails a test, not a game.  Nothing else in the
client imports a private Textual module or reads or sets a private attribute of
Textual's that is named here (the same test scans for them).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from textual._compositor import Compositor, LayoutUpdate
    from textual._context import visible_screen_stack
    from textual._parser import ParseError, Peek1, Read1, TokenCallback
    from textual._time import get_time
    from textual._xterm_parser import BRACKETED_PASTE_END, BRACKETED_PASTE_START, XTermParser
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.geometry import Region
    from textual.screen import Screen
    from textual.widgets._footer import FooterKey

#: Where each name lives.  They are imported when first asked for, not with this module:
#: the client's start imports only what its first frame needs (the footer comes after it).
_HOMES = {
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
    "Compositor",
    "FooterKey",
    "LayoutUpdate",
    "ParseError",
    "Peek1",
    "Read1",
    "TokenCallback",
    "XTermParser",
    "capture_output_into",
    "changed_regions",
    "css_variables",
    "screen_compositor",
    "use_compositor",
    "get_time",
    "visible_screen_stack",
]


def capture_output_into(app: App[Any], stdout: TextIO, stderr: TextIO) -> None:
    """Make ``app``'s capture of ``sys.stdout`` and ``sys.stderr`` while it runs these streams."""
    app._capture_stdout = stdout  # type: ignore[assignment]
    app._capture_stderr = stderr  # type: ignore[assignment]


def screen_compositor(screen: Screen[Any]) -> Compositor:
    """The compositor ``screen`` lays out and renders its widgets with."""
    return screen._compositor


def changed_regions(compositor: Compositor) -> set[Region]:
    """The screen regions ``compositor`` will draw again at its next partial update (not a copy)."""
    return compositor._dirty_regions


def use_compositor(screen: Screen[Any], compositor: Compositor) -> None:
    """Make ``compositor`` the one ``screen`` lays out and renders with (called in its ``__init__``)."""
    screen._compositor = compositor


def css_variables(stylesheet: Stylesheet) -> dict[str, str]:
    """The variables ``stylesheet`` substitutes into the CSS it parses (not a copy: do not change it)."""
    return stylesheet._variables


def __getattr__(name: str) -> Any:
    """One of Textual's private names, imported from its home the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
