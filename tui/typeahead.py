"""Keys typed while the client starts: none lost, no echo left behind, the terminal left as it was.

A referee who runs ``fireteam SAVE`` and types at once types into a terminal
that nobody reads yet, in the mode the shell left it in (cooked: each key is
echoed at once, Enter is turned into a line feed), for the half second until
Textual's driver takes it (raw mode), and then into an app whose game screen
is not up yet.  Three pieces see to it that those keys reach the command
line, in order, as if typed once it was up:

* :class:`QuietTerminal`, the first thing the ``fireteam`` command does, turns
  off echo and line editing right away (the modes Textual sets later, less
  its raw input: Ctrl+C still interrupts a start), takes in what was typed
  before that (during the interpreter's own start, some 40 ms) and wipes its
  echo; on the way out, by any path, it puts back the modes it found (and
  what it took, when the command is not the client after all).  On Windows
  (no ``termios``) it does nothing: the console's input is Textual's to read.
* :func:`keys` turns those early bytes into the key events Textual would have
  made of them.
* :class:`Typeahead`, in the app, holds every key from the first until the
  game screen has drawn its first frame and focused its command line, then
  hands them on in the order they were typed.
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
import unicodedata

#: The most bytes taken in from before the terminal was quieted (a tty holds 4 KiB at most).
EARLY_LIMIT = 1 << 16
#: A terminal's tab stops.
TAB = 8
#: The most keys held while the client starts (a bracketed paste is one); past it, keys are dropped.
HELD_LIMIT = 4096


class QuietTerminal:
    """The terminal on stdin without echo and line editing, from :meth:`quiet` to :meth:`restore`.

    Nothing is done when stdin is not a terminal.
    """

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        #: The modes found (None: not a terminal, or already restored).
        self.modes: list | None = None
        #: What was typed before :meth:`quiet`, as the terminal passed it on.
        self.early = b""
        #: Whether it passed Enter on as a line feed (ICRNL, a shell's usual mode).
        self.enter_as_line_feed = False

    def quiet(self) -> None:
        try:
            # POSIX only, and imported here: a Windows console has neither (then nothing is quieted).
            import termios
            from fcntl import ioctl
        except ImportError:
            return
        try:
            self.modes = termios.tcgetattr(self.fd)
        except (termios.error, OSError):  # not a terminal (a pipe, a file): nothing to quiet
            return
        quiet = termios.tcgetattr(self.fd)
        # As Textual's driver will (``LinuxDriver._patch_lflag``, ``_patch_iflag``), but for
        # ISIG: until the client is up, Ctrl+C is still the interrupt (tui.main exits quietly).
        quiet[0] &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON | termios.IXOFF)
        quiet[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN)
        quiet[6] = list(quiet[6])
        quiet[6][termios.VMIN] = 0  # a read returns what there is, at once
        quiet[6][termios.VTIME] = 0
        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, quiet)
            # What was typed before is readable now, half a line included (a tty hands the
            # pending line on when line editing stops): it is read (only it: what is typed
            # from now on is left for Textual's driver) and its echo wiped at once.
            waiting = int.from_bytes(ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0"), sys.byteorder)
            while len(self.early) < min(waiting, EARLY_LIMIT):
                chunk = os.read(self.fd, min(waiting, EARLY_LIMIT) - len(self.early))
                if not chunk:
                    break
                self.early += chunk
        except (termios.error, OSError):
            self.restore()
            return
        self.enter_as_line_feed = bool(self.modes[0] & termios.ICRNL)
        if self.early and self.modes[3] & termios.ECHO:
            self._unecho(self.early.decode("utf-8", "replace"))

    def take_typed(self) -> str:
        """What was typed before :meth:`quiet`, as the raw terminal would have passed it on (the client's)."""
        text = self.early.decode("utf-8", "replace")
        self.early = b""
        # The line discipline turned Enter into a line feed: it is put back, as the
        # raw terminal would have passed it (Enter, not Ctrl+J).
        return text.replace("\n", "\r") if self.enter_as_line_feed else text

    def give_back(self) -> None:
        """Put what was typed before :meth:`quiet` back in the terminal's input, for whatever
        reads it next (a headless command's shell), where the system lets a program do so
        (``TIOCSTI``; Linux may forbid it, and then it is lost).  Call after :meth:`restore`."""
        early, self.early = self.early, b""
        if not early:
            return  # (and nothing was quieted: there may be no termios)
        import termios
        from fcntl import ioctl

        with contextlib.suppress(OSError):
            for byte in early:
                ioctl(self.fd, termios.TIOCSTI, bytes((byte,)))

    def _unecho(self, typed: str) -> None:
        """Wipe the echo of ``typed`` from the terminal (it started on a line of its own:
        the shell's, after the Enter that ran the command)."""
        import termios  # (only after :meth:`quiet` found them)
        from fcntl import ioctl

        try:
            cols = struct.unpack("HHHH", ioctl(self.fd, termios.TIOCGWINSZ, b"\0" * 8))[1]
        except OSError:
            cols = 0
        cols = cols or 80
        *lines, last = typed.split("\n")
        # Rows the echo went down: each ended line's (wrapped at the width), and the wraps of the last.
        up = sum(max(1, -(-_width(line) // cols)) for line in lines) + max(0, _width(last) - 1) // cols
        with contextlib.suppress(OSError):
            os.write(self.fd, b"\r" + (b"\x1b[%dA" % up if up else b"") + b"\x1b[J")

    def restore(self) -> None:
        """The modes found, back (at once: what is typed meanwhile stays to be read)."""
        if self.modes is not None:
            import termios  # (modes were found: it is there)

            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSANOW, self.modes)
            self.modes = None


def _width(line: str) -> int:
    """The columns a line takes once echoed (a control character as ^X, a tab to its stop)."""
    col = 0
    for ch in line:
        if ch == "\t":
            col += TAB - col % TAB
        elif ch < " " or ch == "\x7f":
            col += 2
        elif unicodedata.combining(ch):
            continue
        else:
            col += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return col


def keys(typed: str) -> list:
    """The key events the client's driver makes of ``typed`` (its parser's, ``tui.terminal_parser``)."""
    from textual import events

    from tui.terminal_parser import TerminalParser

    parser = TerminalParser()
    made = [*parser.feed(typed), *parser.feed("")]  # the empty feed ends a lone Esc
    return [event for event in made if isinstance(event, events.Key | events.Paste)]


class Typeahead:
    """The keys (and pastes) an app holds until its game screen is up, in the order typed."""

    def __init__(self, typed: str = "") -> None:
        #: None once released: keys go their usual way from then on.
        self.held: list | None = keys(typed) if typed else []

    def hold(self, event) -> bool:
        """Whether ``event`` is held (or dropped past the limit) rather than handled now."""
        if self.held is None:
            return False
        if len(self.held) < HELD_LIMIT:
            self.held.append(event)
        return True

    def release(self) -> list:
        """The keys held so far; from now on none is."""
        held, self.held = self.held or [], None
        return held
