"""What a terminal may type, bounded: the local client's keys and an SSH seat's alike.

Keys reach an app from a terminal as fast as the terminal sends them: a paste
without bracketed paste (a terminal that does not bracket, a slow paste, a
macro) is thousands of keys, each handled as if typed, and Textual queues
them all at once.  Unbounded, 170 KB of them froze the client for minutes
while it grew to gigabytes, and Ctrl+Q waited behind them.  So what a
terminal types passes these bounds before it becomes events, in the same
way for both drivers (``tui.local_driver``, ``tui.ssh.seating.driver``):

* a token bucket on the characters read (``rate`` a second on average,
  ``burst`` at once): the rest is dropped before it is even parsed;
* the longest line: printable keys typed since the last line end (Enter,
  Esc, Ctrl+C, Ctrl+U) past ``line_length`` are dropped, and so is a paste
  that would take the line past it;
* a backlog: at most ``backlog`` events waiting to be handled;
* the events are handed to the app a slice at a time, each slice once the
  app (and the widget its keys go to) has handled the last: a flood costs
  its own terminal time, never the loop's turns (an SSH seat's neighbours').
  A slice ends at Enter, so that what is typed after a command goes to the
  box the command opened (its dice), not to the line behind it.

Ctrl+Q and Esc always answer: found in input dropped by the bucket they are
kept (one of each a read: a flood of them answers as one would), and no
backlog drops them (past a full one, Escs in a row wait as one); Ctrl+Q is
handed to the app at once (it quits), Esc in its turn (it ends what was being
typed).  A bracketed paste
cut by the bucket is dropped whole, never put in cut.  What is dropped is
said, with the words below (``Input dropped: …``), to the terminal that
typed it, at most every few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from core.language.i18n import N_, M, Msg

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message

#: Keys that end a line (a command) or throw it away: the line length counts from there.
LINE_ENDS = frozenset({"enter", "escape", "ctrl+c", "ctrl+u"})
#: Keys that always answer, whatever was typed before them: to leave, and to stop.
QUIT_KEY, STOP_KEY = "ctrl+q", "escape"
#: Input events handed to the app at once, before waiting for it to handle them: small
#: enough that a slice takes a few milliseconds, large enough that a paste is not slowed
#: to one key per redraw.
SLICE = 16
#: The longest wait for the app to handle one slice before the next is given anyway
#: (only ever reached if the app lost the callback, e.g. its screen closed meanwhile).
HANDLED_WAIT_S = 2.0
#: Seconds between two notices to a terminal that its input was dropped.
NOTICE_EVERY_S = 3.0

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
#: Ctrl+Q as terminals send it: plain, kitty's keyboard protocol, xterm's modifyOtherKeys.
#: It answers even inside a bracketed paste (``tui.terminal_parser``): no paste holds it.
QUIT_SEQUENCES = ("\x11", "\x1b[113;5u", "\x1b[27;5;113~")
_QUIT = re.compile("|".join(map(re.escape, QUIT_SEQUENCES)))
#: In input the bucket drops: a bracketed paste (skipped whole, but for a Ctrl+Q in it), and Esc as
#: terminals send it (kitty's, or an ESC that starts no sequence: under a flood the next character may
#: follow it at once).
_PASTE_OR_STOP = re.compile(
    re.escape(PASTE_START) + ".*?(?:" + re.escape(PASTE_END) + r"|\Z)|(\x1b\[27u|\x1b(?![\[O]))",
    re.DOTALL,
)

#: What a terminal is told when its input is dropped (the title, and the sentence around the reason).
NOTICE_TITLE = N_("Too much input")
NOTICE = N_("Input dropped: {why}.")


#: Characters typed on one line (a command) before the rest of the line is dropped: a local client's bound.
LINE_LENGTH = 1000


class InputLimits(msgspec.Struct, frozen=True):
    """The bounds on typed input (an SSH seat's are the server's ``Limits``; a local client's the defaults)."""

    #: Characters a second a terminal may send on average, and at once.
    rate: float = 2000.0
    burst: int = 8192
    #: Events read but not yet handled by the app; more are dropped.
    backlog: int = 2048
    #: Characters typed on one line (a command) before the rest of the line is dropped.
    line_length: int = LINE_LENGTH


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; ``take`` says how many of those asked for are granted."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self, n: int) -> int:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        granted = min(n, int(self._tokens))
        self._tokens -= granted
        return granted


class Admitted(NamedTuple):
    """What of a chunk of input goes on to the parser, and what was kept of the rest."""

    #: The characters to parse.
    text: str
    #: Ctrl+Q and Esc found in what was dropped, as key events.
    kept: list[Any]
    #: Characters dropped.
    dropped: int
    #: ``text`` ends a bracketed paste the bucket cut: the last paste it makes is dropped whole.
    cut_paste: bool


class BoundedInput:
    """One terminal's input between its reader and its app, within :class:`InputLimits`.

    :meth:`admit` takes what was read (in whichever thread reads it) and says
    what of it to parse; :meth:`queue`, in the app's loop, takes the parsed
    events and hands them to ``deliver`` a slice at a time.  ``refuse`` is
    told, in the app's loop, each time input is dropped, and why.
    """

    def __init__(
        self,
        app: App[Any],
        limits: InputLimits,
        *,
        deliver: Callable[[Message], None],
        refuse: Callable[[Msg], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._app = app
        self.limits = limits
        self._deliver = deliver
        self._refuse = refuse
        self._bucket = TokenBucket(limits.rate, limits.burst, clock)
        #: Whether the text let through so far leaves the parser inside a bracketed paste.
        self._in_paste = False
        #: Whether input is skipped up to the end of a bracketed paste the bucket cut.
        self._skipping_paste = False
        self._line = 0  # characters typed since the last line end
        self._backlog: deque[Message] = deque()
        self._pump: asyncio.Task[None] | None = None
        self.closed = False

    # ------------------------------------------------------------- the reader's side

    def admit(self, data: str) -> Admitted:
        """What of ``data``, just read, goes on to the parser (and what was kept of the rest)."""
        dropped = 0
        kept: list[Any] = []
        if self._skipping_paste:  # (a Ctrl+Q in what is skipped is still the key)
            end = data.find(PASTE_END)
            if end < 0:
                return Admitted("", _quits(data), len(data), False)
            kept = _quits(data[:end])
            dropped, data = end + len(PASTE_END), data[end + len(PASTE_END) :]
            self._skipping_paste = False
        granted = self._bucket.take(len(data))
        if granted == len(data):
            self._follow_paste(data)
            return Admitted(data, kept, dropped, False)
        text, rest = data[:granted], data[granted:]
        self._follow_paste(text)
        cut_paste = self._in_paste
        if cut_paste:  # the rest of this paste is dropped, up to its end, and the paste with it
            text += PASTE_END
            self._in_paste = False
            end = rest.find(PASTE_END)
            if end < 0:
                self._skipping_paste = True
                kept += _quits(rest)
                rest = ""
            else:
                kept += _quits(rest[:end])
                rest = rest[end + len(PASTE_END) :]
        # One Ctrl+Q and one Esc answer as a flood of them would: at most one of each is kept (a key
        # event for each ESC of a megabyte dropped was a million events, and seconds of the loop).
        kept += _quits(rest)  # in a paste or out of one: a Ctrl+Q is never a paste's
        for found in _PASTE_OR_STOP.finditer(rest):
            if found.group(1):  # an Esc, outside any paste
                kept.append(_key(STOP_KEY, "\x1b"))
                # The rest ends inside a paste if its last start bracket has no end bracket after it.
                tail = rest[found.end() :]
                self._skipping_paste = tail.rfind(PASTE_START) > tail.rfind(PASTE_END)
                break
            if not found.group().endswith(PASTE_END):
                self._skipping_paste = True  # a paste that starts in what is dropped, and goes on
        return Admitted(text, kept, dropped + len(data) - granted, cut_paste)

    def _follow_paste(self, text: str) -> None:
        start, end = text.rfind(PASTE_START), text.rfind(PASTE_END)
        if start != end:  # one of them is there: the later one says where the parser is
            self._in_paste = start > end

    # ------------------------------------------------------------ the app's side

    def queue(self, messages: Iterable[Message], *, dropped: int = 0, cut_paste: bool = False) -> None:
        """Keep what is within the limits, for the pump to hand to the app (in the app's loop)."""
        from textual import events  # here, not at the top: the limits are read without Textual

        if self.closed:
            return
        if dropped:
            self._refuse(
                M(
                    "{count} characters of input dropped: more than {rate} a second (bursts of {burst})",
                    count=dropped,
                    rate=f"{self.limits.rate:.0f}",
                    burst=self.limits.burst,
                )
            )
        messages = list(messages)
        if cut_paste:
            last = max((n for n, m in enumerate(messages) if isinstance(m, events.Paste)), default=None)
            if last is not None:
                del messages[last]
        long_line = backlog_full = 0
        for message in messages:
            if isinstance(message, events.Key):
                if message.key == QUIT_KEY:
                    self._deliver(message)  # at once: it leaves, whatever is still waiting
                    continue
                if message.key in LINE_ENDS:
                    self._line = 0
                elif message.is_printable:
                    if self._line >= self.limits.line_length:
                        long_line += 1
                        continue
                    self._line += 1
                if message.key == STOP_KEY:  # in its turn, never dropped (past a full backlog, Escs in a row are one)
                    if len(self._backlog) < self.limits.backlog or getattr(self._backlog[-1], "key", None) != STOP_KEY:
                        self._backlog.append(message)
                    continue
            elif isinstance(message, events.Paste) and self._line + len(message.text) > self.limits.line_length:
                long_line += len(message.text)
                continue
            if len(self._backlog) >= self.limits.backlog:
                backlog_full += 1
                continue
            self._backlog.append(message)
        if long_line:
            self._refuse(
                M(
                    "a line longer than {limit} characters: {count} characters dropped",
                    limit=self.limits.line_length,
                    count=long_line,
                )
            )
        if backlog_full:
            self._refuse(
                M(
                    "{count} keys dropped: {limit} were still waiting to be handled",
                    count=backlog_full,
                    limit=self.limits.backlog,
                )
            )
        if cut_paste:
            self._refuse(M("a paste of more than {burst} characters, dropped whole", burst=self.limits.burst))
        if self._backlog and self._pump is None:
            self._pump = asyncio.get_running_loop().create_task(self._hand_on(), name="typed input")

    def close(self) -> None:
        """No more input: what waits is dropped."""
        self.closed = True
        self._backlog.clear()
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None

    async def _hand_on(self) -> None:
        """Hand the app a few events at a time, each slice once the last was handled.

        Textual handles queued messages back to back without yielding to the
        loop, so a backlog given at once would hold everything else up until
        it is all handled.
        """
        try:
            while self._backlog and not self.closed:
                for _ in range(min(SLICE, len(self._backlog))):
                    message = self._backlog.popleft()
                    self._deliver(message)
                    if getattr(message, "key", None) == "enter":
                        # What Enter does may open a box (the dice the command needs):
                        # the keys typed after it are for that box, once it is there.
                        break
                await self._handled()
        finally:
            self._pump = None

    async def _handled(self) -> None:
        """Return once the app, and the widget its keys go to, have handled what was given them."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not done.done():
                done.set_result(None)

        def forwarded() -> None:
            # The app has forwarded the events: wait for its target too, and for the redraw.
            try:
                screen = self._app.screen
            except Exception:  # no screen (the app is closing)
                settle()
                return
            target = screen.focused or screen
            if not target.call_after_refresh(settle):
                settle()

        if not self._app.call_later(forwarded):
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done, HANDLED_WAIT_S)


def _quits(text: str) -> list[Any]:
    """A Ctrl+Q key if ``text`` (dropped, or skipped as a paste's) holds one: one leaves as well as many."""
    return [_key(QUIT_KEY, "\x11")] if _QUIT.search(text) else []


def _key(key: str, character: str) -> Any:
    from textual import events

    return events.Key(key, character)


class Notices:
    """Tells a terminal that its input was dropped, at most every :data:`NOTICE_EVERY_S` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next = 0.0

    def due(self) -> bool:
        """Whether a notice may be shown now (and then the next one only after the pause)."""
        now = self._clock()
        if now < self._next:
            return False
        self._next = now + NOTICE_EVERY_S
        return True
