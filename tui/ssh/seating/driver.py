"""A Textual driver that draws on an SSH channel instead of the local terminal.

Textual's own drivers read ``sys.stdin`` and write ``sys.stderr`` of the
process; a server hosting many seats in one process needs one terminal per
app.  :class:`SSHDriver` writes each app's output to its seat's channel and
feeds the keys that come back through Textual's ``XTermParser`` (less its
removal of a paste's NULs: ``tui.terminal_parser``), exactly as the local
driver does with a tty, but without threads or signals: everything runs
in the server's event loop.  Input is bounded before it becomes events, and
handed to the app a few events at a time, each slice once the last was
handled, as the local client's is (``tui.input_limits``, with the server's
``Limits``): a flood, or a long paste, costs its own seat time and never the
other seats'.  The terminal size comes from the client's pty
request and window-change messages, the colours from the client's ``TERM``:
every app renders in true colour (Textual caches rendered lines process-wide,
so one process cannot render for several colour systems) and the driver
brings each colour down to what the client's terminal shows.

:func:`bind_app` prepares an app instance for such a terminal.  It also turns
off what makes no sense for a remote seat: opening a browser or saving a file
on the server, and Textual's per-app redirection of ``sys.stdout`` (several
apps in one process would otherwise swap the process's stdout under each
other).
"""

from __future__ import annotations

import asyncio
import io
import re
import sys
from collections.abc import Mapping
from functools import lru_cache, partial
from itertools import repeat
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, TextIO

from rich.color import Color, ColorSystem
from rich.console import COLOR_SYSTEMS, Console
from textual import events
from textual.constants import ESCAPE_DELAY
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from core.language.i18n import Text
from tui.input_limits import BoundedInput, TokenBucket
from tui.ssh.limits import Limits, input_limits
from tui.terminal_parser import TerminalParser
from tui.textual_internals import capture_output_into

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App

#: Terminal modes the Linux driver turns on, turned on for a remote seat the same way.
_MOUSE_ON = "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
_MOUSE_OFF = "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
_ALT_SCREEN_ON, _ALT_SCREEN_OFF = "\x1b[?1049h", "\x1b[?1049l"
_CURSOR_HIDE, _CURSOR_SHOW = "\x1b[?25l", "\x1b[?25h"
_FOCUS_EVENTS_ON, _FOCUS_EVENTS_OFF = "\x1b[?1004h", "\x1b[?1004l"
_PASTE_ON, _PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
_LINE_WRAP_ON, _LINE_WRAP_OFF = "\x1b[?7h", "\x1b[?7l"
_SYNC_OUTPUT_QUERY = "\x1b[?2026$p"
#: What Textual writes before and after a frame once the terminal said it draws a frame at once (mode 2026).
_SYNC_START = "\x1b[?2026h"
#: A terminal the server draws on without taking any input from it (a spectator's), and back.
SCREEN_ON = _ALT_SCREEN_ON + _CURSOR_HIDE + _LINE_WRAP_OFF
SCREEN_OFF = _LINE_WRAP_ON + _ALT_SCREEN_OFF + _CURSOR_SHOW


class Terminal(Protocol):
    """The remote end of one seat, as the driver needs it (see ``tui.ssh.host.session``)."""

    size: tuple[int, int]

    @property
    def limits(self) -> Limits: ...

    def write(self, data: str) -> None: ...

    def attach(self, driver: SSHDriver | None) -> None: ...

    def input_refused(self, why: Text) -> None:
        """Input over a limit was dropped (the terminal logs it in English and tells the seat in its language)."""


class SSHDriver(Driver):
    """Textual output to, and input from, one SSH channel."""

    def __init__(
        self,
        app: App[Any],
        *,
        terminal: Terminal,
        color_system: ColorSystem | None = ColorSystem.TRUECOLOR,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=False, mouse=mouse, size=size or terminal.size)
        self._terminal = terminal
        self._color_system = color_system
        self._parser = TerminalParser(max_paste=terminal.limits.line_length)
        #: The loop the seat's input is handled on (Textual's driver keeps its own, privately).
        self._input_loop = asyncio.get_running_loop()
        self._input_enabled = False
        self._escape_timer: asyncio.TimerHandle | None = None
        limits = terminal.limits
        self._limits = limits
        self._input = BoundedInput(
            app, input_limits(limits), deliver=self.process_message, refuse=terminal.input_refused
        )
        self._resize_timer: asyncio.TimerHandle | None = None
        #: The redraws window changes may cause: a client sending thousands a second redraws this often.
        self._redraws = TokenBucket(limits.resize_rate, limits.resize_burst)
        #: The frame being written, held until Textual flushes it (see :meth:`write`).
        self._frame: list[str] | None = None

    # ------------------------------------------------------------------ output

    def write(self, data: str) -> None:
        data = colors_for(data, self._color_system)
        if data == _SYNC_START and self._frame is None:
            # A frame for a terminal that draws it at once: Textual writes its start, the
            # frame and its end, then flushes.  Sent as one write: one SSH packet instead of
            # three (each encrypted, sent and read apart), for every seat, after every command.
            self._frame = [data]
            self._input_loop.call_soon(self.flush)  # should Textual ever not flush it
        elif self._frame is not None:
            self._frame.append(data)
        else:
            self._terminal.write(data)

    def flush(self) -> None:
        frame, self._frame = self._frame, None
        if frame:
            self._terminal.write("".join(frame))

    def start_application_mode(self) -> None:
        self._terminal.attach(self)
        self._input_enabled = True
        self.write(_ALT_SCREEN_ON)
        if self._mouse:
            self.write(_MOUSE_ON)
        self.write(_CURSOR_HIDE + _FOCUS_EVENTS_ON + _PASTE_ON + _LINE_WRAP_OFF + _SYNC_OUTPUT_QUERY)
        self._post_size()

    def stop_application_mode(self) -> None:
        self.flush()
        self.disable_input()
        self.write(_PASTE_OFF + _LINE_WRAP_ON)
        if self._mouse:
            self.write(_MOUSE_OFF)
        self.write(_ALT_SCREEN_OFF + _CURSOR_SHOW + _FOCUS_EVENTS_OFF)

    def disable_input(self) -> None:
        self._input_enabled = False
        for timer in (self._escape_timer, self._resize_timer):
            if timer is not None:
                timer.cancel()
        self._escape_timer = self._resize_timer = None
        self._input.close()
        self._terminal.attach(None)

    # ------------------------------------------------------------------- input

    def feed(self, data: str) -> None:
        """Keys, mouse and terminal replies typed at the remote end."""
        if not self._input_enabled:
            return
        admitted = self._input.admit(data)
        messages = list(self._parser.feed(admitted.text)) if admitted.text else []
        self._input.queue([*messages, *admitted.kept], dropped=admitted.dropped, cut_paste=admitted.cut_paste)
        # A lone ESC is a key only once no sequence follows it in time
        # (the Linux driver polls the parser for that every 0.1 s).
        if self._escape_timer is not None:
            self._escape_timer.cancel()
        self._escape_timer = self._input_loop.call_later(ESCAPE_DELAY + 0.01, self._tick)

    def _tick(self) -> None:
        self._escape_timer = None
        if self._input_enabled:
            self._input.queue(self._parser.tick())

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size: redraw at the size last given, once per ``resize_delay_s``
        at most, and no more than ``resize_rate`` times a second (the last size always wins)."""
        self._size = self._limits.clamped(width, height)
        if self._resize_timer is None:
            self._resize_timer = self._input_loop.call_later(self._limits.resize_delay_s, self._resized)

    def _resized(self) -> None:
        self._resize_timer = None
        if not self._input_enabled:
            return
        if self._redraws.take(1):
            self._post_size()
        else:  # over the rate: the size waits for the next redraw allowed (and may change meanwhile)
            self._resize_timer = self._input_loop.call_later(1 / self._redraws.rate, self._resized)

    def _post_size(self) -> None:
        width, height = self._size or self._terminal.size
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))

    def send_message(self, message: Message) -> None:
        # Same thread, same loop: no need for the base class's thread hop.
        self._app.post_message(message)

    # ------------------------------------------------------- server-side effects

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """A browser would open on the server, not in front of the player: do nothing."""

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Screenshots and other files would land on the server's disk: refuse."""
        binary.close()
        error = PermissionError("files cannot be saved from a remote seat")
        self._app.post_message(events.DeliveryFailed(key=delivery_key, exception=error, name=name))


_SGR = re.compile(r"\x1b\[([0-9;]*)m")
#: A cursor move: what Textual writes before every piece of a row it draws.
_MOVE = re.compile(r"(\x1b\[[0-9]+;[0-9]+H)")
#: The longest piece kept downgraded (a row's, with its colours); a whole screen is one piece.
_PIECE_KEPT = 4096


def colors_for(data: str, system: ColorSystem | None) -> str:
    """``data`` for a terminal of ``system``: as it is for one with every colour, else brought down."""
    return data if system == ColorSystem.TRUECOLOR else downgrade_colors(data, system)


def downgrade_colors(data: str, system: ColorSystem | None) -> str:
    """``data`` with every colour of its SGR sequences brought down to ``system`` (None: no colour)."""
    # A frame is the pieces of rows Textual draws again, each after a cursor move; the same
    # rows come back frame after frame (the log scrolls by one) and seat after seat: each
    # piece is brought down once and kept, for every seat of the process.
    parts = _MOVE.split(data)
    parts[0::2] = [
        _downgraded_piece(piece, system) if len(piece) <= _PIECE_KEPT else _downgraded(piece, system)
        for piece in parts[0::2]
    ]
    return "".join(parts)


def _downgraded(data: str, system: ColorSystem | None) -> str:
    # Split at the sequences (their parameters at the odd places) and bring each down
    # through the cache; ``re.sub`` with a function would make a Python call of each.
    parts = _SGR.split(data)
    parts[1::2] = map(_sgr, parts[1::2], repeat(system))
    return "".join(parts)


#: About a screen of rows for each of a few roles, and what every seat shows alike.
_downgraded_piece = lru_cache(maxsize=256)(_downgraded)


@lru_cache(maxsize=4096)
def _sgr(params: str, system: ColorSystem | None) -> str:
    parts = params.split(";")
    out: list[str] = []
    i = 0
    while i < len(parts):
        code = parts[i]
        kind = parts[i + 1] if code in ("38", "48") and i + 1 < len(parts) else ""
        if kind == "2" and i + 4 < len(parts):
            color = Color.from_rgb(*(int(v) for v in parts[i + 2 : i + 5]))
            i += 5
        elif kind == "5" and i + 2 < len(parts):
            color = Color.from_ansi(int(parts[i + 2]))
            i += 3
        else:
            out.append(code)
            i += 1
            continue
        if system is not None:
            out.extend(color.downgrade(system).get_ansi_codes(foreground=code == "38"))
    if params and not out:
        return ""  # only colours, and no colour to show: an empty SGR would reset bold and the rest
    return f"\x1b[{';'.join(out)}m"


def color_system_for(env: Mapping[str, str]) -> ColorSystem | None:
    """The colour system of a client terminal, from its TERM (and COLORTERM if sent).

    Rich's own rules, applied to the client's variables instead of the server's.
    """
    probe = Console(file=io.StringIO(), force_terminal=True, color_system="auto", _environ=dict(env))
    return COLOR_SYSTEMS.get(probe.color_system or "")


def bind_app(app: App[Any], terminal: Terminal, env: Mapping[str, str]) -> io.StringIO:
    """Make ``app`` run on ``terminal``; return where its crash report will be written."""
    # (Textual types driver_class as a Driver class; it only ever calls it with the app and keywords, as a factory)
    app.driver_class = partial(  # type: ignore[assignment]
        SSHDriver, terminal=terminal, color_system=color_system_for(env)
    )
    old = app.console
    app.console = Console(
        color_system="truecolor",
        file=old.file,
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )
    # Textual swaps sys.stdout/stderr for its own capture while an app runs;
    # with many apps interleaving that would leave the process's stdout
    # pointing at a finished app.  Capturing "into" the current streams makes
    # every swap a no-op.
    capture_output_into(app, sys.stdout, sys.stderr)
    report = io.StringIO()
    app.error_console = Console(file=report, width=100, force_terminal=False, color_system=None)
    return report
