"""What the client takes from Textual that Textual does not make public, in one place.

Textual has no public API for these, and the client needs them:

* ``XTermParser``: the parser Textual's own drivers turn a terminal's bytes into
  key, mouse and paste events with. An SSH seat's driver (``tui.ssh.driver``)
  and the keys typed before the game screen is up (``tui.typeahead``) must read
  input exactly as a local terminal's is read.
* ``FooterKey``: the widget ``Footer.compose`` yields per key; the client's footer
  (``tui.panes.footer``) puts each key's description in the reader's language.
* ``Compositor``: the screen's compositor, which ``tui.compositor.RowsCompositor``
  refines to render only the rows a partial update sends (pinned by
  ``tests/tui/test_tui_compositor.py``: the same escape codes as Textual's own);
  ``LayoutUpdate`` and ``visible_screen_stack``, with which an SSH table draws a
  shared screen once for its spectators (``tui.ssh.sharedscreen``).
* ``get_time``: the clock Textual stamps its messages with (``Message.time``), which
  the command line compares a key's time against (``tui.commandline``).
* ``capture_output_into``: an app swaps ``sys.stdout``/``sys.stderr`` for its own
  capture while it runs; an SSH server runs many apps in one process, whose swaps
  interleave, so each seat's app "captures" into the streams as they are (a no-op).

Each is pinned by ``tests/tui/test_tui_textual_internals.py``: a Textual upgrade
that changes what is relied on here fails a test, not a game.  Nothing else in the
client imports a private Textual module or sets a private attribute of Textual's.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from textual._compositor import Compositor, LayoutUpdate
    from textual._context import visible_screen_stack
    from textual._time import get_time
    from textual._xterm_parser import XTermParser
    from textual.app import App
    from textual.widgets._footer import FooterKey

#: Where each name lives.  They are imported when first asked for, not with this module:
#: the client's start imports only what its first frame needs (the footer comes after it).
_HOMES = {
    "Compositor": "textual._compositor",
    "LayoutUpdate": "textual._compositor",
    "visible_screen_stack": "textual._context",
    "get_time": "textual._time",
    "XTermParser": "textual._xterm_parser",
    "FooterKey": "textual.widgets._footer",
}

__all__ = [
    "Compositor",
    "FooterKey",
    "LayoutUpdate",
    "XTermParser",
    "capture_output_into",
    "get_time",
    "visible_screen_stack",
]


def capture_output_into(app: App[Any], stdout: TextIO, stderr: TextIO) -> None:
    """Make ``app``'s capture of ``sys.stdout`` and ``sys.stderr`` while it runs these streams."""
    app._capture_stdout = stdout  # type: ignore[assignment]
    app._capture_stderr = stderr  # type: ignore[assignment]


def __getattr__(name: str) -> Any:
    """One of Textual's private names, imported from its home the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
