"""A seat at a table as plain lines: the line client (``tui.lines``) hosted by an SSH seat, no screen drawn.

A seat sits this way when its seats-file entry says ``plain = true``, when its
player asks for it as he connects (``ssh -t host plain``, or ``plain GAME``),
or when his terminal is ``dumb`` (it could not show a screen anyway).  It is a
:class:`tui.ssh.seating.seat.SeatSession` like any other (the same checks before
sitting down, the same end when kicked or removed, the same cut-off of a
client that stops reading), hosting a :class:`tui.lines.client.LineClient`
instead of a Textual app.

* **With a terminal**, the line is edited by :class:`tui.lines.editor.LineEditor`
  (the server's channels give raw keys: asyncssh's own line editor is off):
  the editing keys, ↑ and ↓ through the seat's command lines (those of its
  earlier sessions too, kept by the server: ``tui.ssh.seating.history``), Tab
  to complete as ``fireteam --plain`` does (``tui.lines.completion``: a second
  Tab lists the candidates), Ctrl+U, Ctrl+C, Ctrl+D on an empty line to leave;
  a key is echoed alone, whatever the terminal.  What the other seats do while
  a line is typed is written on new lines, then the prompt and what was typed
  so far again after them (the editor takes the half-typed line off the
  screen with backspaces and spaces, and puts it back).
* **Without a terminal** (``ssh host plain < moves.txt``, a bot), each line
  received is a line fed, no prompt is written, a question is written as a
  line of its own, and lines end with a bare line feed.  The end of the input
  ends the seat once every line before it is answered, with the exit status
  ``fireteam --plain`` gives (``plain --strict``: 1 if a line was refused).

Whatever the client sends while the seat opens is kept for it (as a screen
seat's keys are) and taken, in order, once it is open: a bot's whole input
often arrives with its request for the seat, its end too.

Colour only where the client's ``TERM`` can show it and it sent no
``NO_COLOR`` (``tui.lines.ink``); input is held to the seat's limits as a
screen seat's is (its rate and burst, the length of a line), and what is
dropped is said, in a line, now and then.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from core.dice.faces import shares_given
from core.language.i18n import M, Text, plain
from core.language.reader import reading, use_reader
from tui.lines.client import LineClient
from tui.lines.completion import candidates, completed, in_rows, with_names
from tui.lines.editor import Entered, LineEditor
from tui.lines.ink import colour_wanted
from tui.ssh.language import _, told
from tui.ssh.limits import TokenBucket
from tui.ssh.seating import notice as table_notice
from tui.ssh.seating.history import KEPT
from tui.ssh.seating.seat import REFUSED_NOTICE_S, SeatSession, Table

#: Why a seat ends when its input does (the pipe closed, or Ctrl+D on an empty line).
END_OF_INPUT = "end of input"


class PlainSeat(SeatSession):
    """One seat as plain lines (see the module's doc); ``terminal``: the client asked for a pty;
    ``strict``: the exit status at the end of the input is 1 if a line was refused (``--strict``)."""

    def __init__(self, *args: Any, terminal: bool, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A spectator too reads his own lines: the table's shared screen (tui.ssh.seating.sharedscreen) is a screen.
        self.watching = False
        self.terminal = terminal
        self.strict = strict
        self.client: LineClient | None = None
        self._editor: LineEditor | None = None
        self._partial = ""  # without a terminal: what came of a line not ended yet
        self._skip = False  # without a terminal: input was dropped inside a line, whose rest goes too
        self._dropped_ahead: str | None = None  # the last input dropped while the seat opened
        self._bucket = TokenBucket(self.limits.input_rate, self.limits.input_burst)
        self._done = asyncio.Event()
        self._input_ended = False  # the input ended before the seat was open
        self._untold: Text | None = None  # input dropped before the seat was open, said once it is
        self._answering = False  # a line is being answered: what is written is its answer
        #: The seat's command lines, its earlier sessions' first (kept when the session ends).
        self._typed: list[str] = []
        self._tabbed: tuple[str, int] | None = None  # the line and cursor a Tab took nothing from

    # ------------------------------------------------------------ the seat

    @property
    def remembers(self) -> bool:
        """Whether the seat's lines come back with ↑ (a terminal's line editor; a browser's page): kept
        between its sessions.  A seat without either (a bot's pipe) types no line twice."""
        return self.terminal

    def _recalled(self, lines: list[str]) -> None:
        """The seat's command lines (its earlier sessions' first), to bring back with ↑, oldest first."""
        if self._editor is not None:
            self._editor.set_history(lines)

    async def _run(self, table: Table) -> None:
        use_reader(self.reader)
        log, seat = self.host.log, self.seat
        if self.terminal:
            self._editor = LineEditor(width=self.size[0], max_length=self.limits.line_length, complete=self._complete)
        histories = self.host.seat_history
        if self.remembers and histories is not None:
            self._typed = histories.load(seat.name)
            self._recalled(self._typed)
        loop = asyncio.get_running_loop()
        self.client = LineClient(
            table.game,
            role=seat.role,
            seat=seat.name,
            reader=self.reader,
            write=self._out,
            colour=colour_wanted(self.env, self.terminal),
            schedule=loop.call_soon,  # another seat's command is answered first, then this seat's news
            table=table.name,
            keep_copy=self.keep_copy,  # (the browser's page downloads it; a terminal is told the command)
        )
        self.host.session_started(self)
        log.info(
            "seated seat=%s role=%s game=%s from=%s term=%s plain",
            seat.name,
            seat.role,
            table.name,
            self.peer,
            self.env.get("TERM", "") if self.terminal else "(none)",
        )
        stop_notice = table_notice.nothing
        try:
            self._answering = True  # the greeting and the status, before the first prompt
            try:
                self.client.start()
                stop_notice = table_notice.at_plain(table, self.client, self.reader)  # an event's round clock
                if self._untold is not None:  # input dropped while the seat opened
                    self._tell_refused(self._untold)
            finally:
                self._answering = False
            self._prompt()
            self._take_typed_ahead()
            await self._done.wait()
        finally:
            stop_notice()
            if self._resize_timer is not None:
                self._resize_timer.cancel()
            self.client.end()
            self.host.session_ended(self)
            if self.remembers and self.host.seat_history is not None:
                self.host.seat_history.save(seat.name, self._typed)
        status = 1 if self.strict and self.client.refusals else 0
        if self._ended:
            self.say("\n" + _("Your session was closed: {why}.").format(why=told(self._ended, self.reader)) + "\n")
            status = 1
        log.info("left seat=%s role=%s game=%s status=%d", seat.name, seat.role, table.name, status)
        self.finish(status)

    @property
    def sitting(self) -> bool:
        return self.client is not None  # its lines, not an app

    def _take_typed_ahead(self) -> None:
        """What came while the seat opened, taken now in order (and the input's end, if it came too)."""
        data = "".join(self._typed_ahead)
        self._typed_ahead.clear()
        self._typed_ahead_chars = 0
        if data:
            self.feed(data)
        if self._dropped_ahead is not None and not self.terminal:
            self._line_cut(self._dropped_ahead)
        if self._input_ended:
            self.left(END_OF_INPUT)

    def _type_ahead(self, data: str) -> None:
        """Kept while the seat opens, as much as one burst holds (what is dropped is said once it is open)."""
        room = self.limits.input_burst - self._typed_ahead_chars
        super()._type_ahead(data)
        if len(data) > room:
            self._dropped_ahead = data[room:]

    def input_ended(self) -> None:
        """The client's input has ended (its pipe closed): the seat ends, once what came before is answered
        (all of it is, by now, unless the seat is not open yet)."""
        if self.client is None and self._task is not None:
            self._input_ended = True
        else:
            self.left(END_OF_INPUT)

    def left(self, why: Text) -> None:
        """The client has gone, or is sent away, or left (``quit``, Ctrl+D, its input's end): the seat ends."""
        if self._task is None or self._done.is_set():
            return
        self.host.log.info("leaving seat=%s role=%s from=%s: %s", self.seat.name, self.seat.role, self.peer, plain(why))
        self._done.set()

    # ------------------------------------------------------------ input

    def feed(self, data: str) -> None:
        """What the client sent: keys to the line editor, or lines (without a terminal); kept while the seat opens."""
        if self._done.is_set():
            return
        if self.client is None:
            if self._task is not None:
                self._type_ahead(data)
            return
        granted = self._bucket.take(len(data))
        if granted < len(data):
            self.input_refused(
                M(
                    "{count} characters of input dropped: more than {rate} a second (bursts of {burst})",
                    count=len(data) - granted,
                    rate=f"{self.limits.input_rate:.0f}",
                    burst=self.limits.input_burst,
                )
            )
            data, dropped = data[:granted], data[granted:]
            if self._editor is None:
                self._lines(data)
                self._line_cut(dropped)
                return
        if self._editor is not None:
            if data:
                with reading(self.reader):
                    self._keys(data)
            return
        self._lines(data)

    def _keys(self, data: str) -> None:
        """Keys to the line editor: its echo written, each line it gives answered before the keys after it."""
        assert self._editor is not None
        for said in self._editor.keys(data):
            if isinstance(said, str):
                self.write(said)
            elif isinstance(said, Entered):
                self.line(said.line)
            else:
                self.left(END_OF_INPUT)  # Ctrl+D on an empty line
            if self._done.is_set():
                return

    def _lines(self, data: str) -> None:
        """Lines from a pipe: each one ended is a line fed (a line the input limits cut into is dropped whole)."""
        if self._skip:
            end = data.find("\n")
            if end < 0:
                return
            data, self._skip = data[end + 1 :], False
        lines = (self._partial + data).split("\n")
        self._partial = lines.pop()
        if len(self._partial) > self.limits.line_length:
            self.input_refused(M("a line of more than {limit} characters was dropped", limit=self.limits.line_length))
            self._partial, self._skip = "", True
        for line in lines:
            self.line(line.removesuffix("\r"))
            if self._done.is_set():
                return

    def _line_cut(self, dropped: str) -> None:
        """Without a terminal, input was dropped (``dropped``, up to now): the line it cut is not taken,
        neither what came of it nor its rest, lest a command be given in part."""
        self._partial, self._skip = "", not dropped.endswith("\n")

    def line(self, text: str) -> None:
        """A whole line from the player: to the line client, then the next prompt."""
        client = self.client
        if client is None or self._done.is_set():
            return
        if len(text) > self.limits.line_length:
            self.input_refused(M("a line of more than {limit} characters was dropped", limit=self.limits.line_length))
            self._prompt()
            return
        if text.strip() and not client.asking:  # a command or a reading word, not an answer to a question
            self._typed = [*self._typed[-(KEPT - 1) :], text]
            if self._editor is not None:
                self._editor.set_history(self._typed)
        self._answering = True
        try:
            # Its line comes in its door's task, not the seat's: its page's share goes with it from here.
            with shares_given(self._take_contribution):
                client.feed(text)
        finally:
            self._answering = False
        if client.done:
            self.left("quit")
        else:
            self._prompt()

    def _complete(self, line: str, pos: int) -> tuple[str, int] | bool:
        """Tab at the line editor: the word before the cursor completed; a Tab that takes nothing
        rings the bell, and a second one lists the candidates on lines of their own, then the
        prompt and the line typed (as ``fireteam --plain`` does, through readline)."""
        client = self.client
        if client is None:
            return False
        with reading(self.reader):
            found = candidates(client, line[:pos])
        taken = completed(line, pos, found)
        if taken is not None:
            self._tabbed = None
            return taken
        if not found or self._tabbed != (line, pos):
            self._tabbed = (line, pos)
            return False
        self._list(found)
        return True

    def _list(self, found: list[str]) -> None:
        """A second Tab's candidates: listed once the key is done with, as news are (the line put back after them)."""
        assert self.client is not None
        listed = in_rows(with_names(self.client, found), self.size[0])
        asyncio.get_running_loop().call_soon(self._to_editor, "\n" + listed + self.client.prompt)

    def resize(self, width: int, height: int) -> None:
        """The terminal's new size, given to the line editor once the window changes stop coming (a window
        dragged sends dozens, and a long line may be written again for one)."""
        self.size = (width, height)
        if self._editor is not None and self._resize_timer is None:
            self._resize_timer = asyncio.get_running_loop().call_later(self.limits.resize_delay_s, self._resized)

    def _resized(self) -> None:
        self._resize_timer = None
        if self._editor is not None and not self._done.is_set():
            self.write(self._editor.resize(self.size[0]))

    def input_refused(self, why: Text) -> None:
        """Input over a limit was dropped: said to the seat in a line, and logged (neither more than now and then)."""
        seat = self.seat
        self._refused_log.warning(
            "input", "input refused seat=%s role=%s from=%s: %s", seat.name, seat.role, self.peer, plain(why)
        )
        if self.client is None:
            self._untold = why  # said as the seat opens
        elif time.monotonic() >= self._refused_notice:
            self._tell_refused(why)

    def _tell_refused(self, why: Text) -> None:
        assert self.client is not None
        self._untold = None
        self._refused_notice = time.monotonic() + REFUSED_NOTICE_S
        self.client.refuse(told(why, self.reader))

    # ----------------------------------------------------------- output

    def _prompt(self) -> None:
        client = self.client
        if client is None:
            return
        if self._editor is not None:
            self._to_editor(client.prompt)
        elif client.asking:
            self.write(client.prompt.rstrip() + "\n")

    def _out(self, text: str) -> None:
        """The line client's lines: an answer, or (while the player types) what happened meanwhile."""
        if self._editor is None:
            self.write(text)
        elif self._answering:
            self._to_editor(text)
        else:
            # The prompt (and the half-typed line after it) stays where it is; the
            # news go on new lines, and the prompt again after them.
            self._to_editor("\n" + text + (self.client.prompt if self.client is not None else ""))

    def _to_editor(self, text: str) -> None:
        assert self._editor is not None
        self.write(self._editor.show(text))  # each line feed written as CR LF: the terminal is raw
