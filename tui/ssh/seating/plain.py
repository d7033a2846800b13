"""A seat at a table as plain lines: the line client (``tui.lines``) hosted by an SSH seat, no screen drawn.

A seat sits this way when its seats-file entry says ``plain = true``, when its
player asks for it as he connects (``ssh -t host plain``, or ``plain GAME``),
or when his terminal is ``dumb`` (it could not show a screen anyway).  It is a
:class:`tui.ssh.seating.seat.SeatSession` like any other (the same checks before
sitting down, the same end when kicked or removed, the same cut-off of a
client that stops reading), hosting a :class:`tui.lines.client.LineClient`
instead of a Textual app.

* **With a terminal**, the lines are edited with asyncssh's own line editor
  (``asyncssh.editor.SSHLineEditor``, made for this seat alone, since the
  server's other seats take raw keys): the editing keys, ↑ and ↓ through the
  seat's lines (those of its earlier sessions too, kept by the server:
  ``tui.ssh.seating.history``), Tab to complete as ``fireteam --plain`` does
  (``tui.lines.completion``: a second Tab lists the candidates), Ctrl+U, Ctrl+D
  on an empty line to leave; a key is echoed alone, whatever the terminal
  (:class:`_AppendingEditor`).  What the other
  seats do while a line is typed is written on new lines, then the prompt and
  what was typed so far again after them (the editor takes the half-typed line
  off the screen with backspaces and spaces, and puts it back).
* **Without a terminal** (``ssh host plain < moves.txt``, a bot), each line
  received is a line fed, no prompt is written, a question is written as a
  line of its own, and lines end with a bare line feed.

Colour only where the client's ``TERM`` can show it and it sent no
``NO_COLOR`` (``tui.lines.ink``); input is held to the seat's limits as a
screen seat's is (its rate and burst, the length of a line), and what is
dropped is said, in a line, now and then.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from asyncssh.editor import SSHLineEditor

from core.dice import contributions_from
from core.language.i18n import M, Text, plain
from core.language.reader import reading, use_reader
from tui.lines.client import LineClient
from tui.lines.completion import candidates, completed, in_rows, with_names
from tui.lines.ink import colour_wanted
from tui.ssh.language import _, told
from tui.ssh.limits import TokenBucket
from tui.ssh.seating.seat import REFUSED_NOTICE_S, SeatSession, Table
from tui.ssh.seating.history import KEPT

#: Lines a seat's ↑ remembers (with its earlier sessions', when the server keeps them).
HISTORY_LINES = KEPT


class _EditorSession:
    """What asyncssh's line editor tells a session: a whole line, the end of input, Ctrl+C."""

    def __init__(self, seat: PlainSeat) -> None:
        self._seat = seat

    def data_received(self, data: str, datatype: Any) -> None:
        self._seat.line(data.removesuffix("\n"))

    def soft_eof_received(self) -> None:
        self._seat.left("end of input")

    def break_received(self, msec: int) -> bool:
        self._seat.interrupted()
        return True

    def signal_received(self, signal: str) -> None:  # no key is bound to one
        pass


class _AppendingEditor(SSHLineEditor):
    """asyncssh's line editor, writing as little as a screen reader needs to hear.

    asyncssh edits a line one of two ways, by the terminal's name: on the ANSI
    terminals it knows (``xterm``, ``vt100`` ...) a key typed at the end of the
    line is echoed alone; on any other (``dumb``, ``tmux-256color``, ``xterm-kitty``)
    it backs over the whole line and writes it again at every key ("n\\bno\\b\\bnot"),
    which a screen reader reads out and a braille display redraws each time.  So
    it is always made to edit the first way, and a move back along the row is
    written as backspaces, which every terminal knows, rather than an ANSI
    sequence: typing, Backspace and a line's end write only characters,
    backspaces and spaces.  Only a move to another row (a line longer than the
    terminal is wide) or forward over what is typed (→) writes a cursor
    sequence.  (It leans on two of the editor's own attributes, ``_cursor`` and
    ``_width``; ``tests/ssh/test_ssh_plain.py`` types at a dumb terminal and
    checks what is echoed.)
    """

    #: A terminal the editor edits on in place (``asyncssh.editor``'s list of ANSI ones).
    TERM = "vt100"

    def complete_with(self, complete: Callable[[str, int], tuple[str, int] | bool]) -> None:
        """Tab runs ``complete`` on the line and the cursor: a new line and cursor to take, or
        False to ring the bell (True: nothing to do).  What it adds at the cursor is echoed as
        typed characters are, alone (``_update_input`` would back over the line and write it again)."""

        def tab(editor: _AppendingEditor) -> None:  # called as the editor calls its own keys' handlers
            taken = complete(editor._line, editor._pos)
            if taken is False:
                editor._ring_bell()
            if not isinstance(taken, tuple):
                return
            line, pos = taken
            at = editor._pos
            added = line[at:pos]
            if line == editor._line[:at] + added + editor._line[at:]:
                editor._insert_printable(added)
            else:  # the word's own letters changed (typed in capitals): the line is written again
                editor._line = line
                editor._update_input(0, editor._start_column, pos)

        self._add_key("\t", tab)  # type: ignore[arg-type]
        self._build_printable()

    def remember(self, lines: list[str]) -> None:
        """Begin with ``lines`` to bring back with ↑ (the seat's earlier sessions'), oldest first.
        (asyncssh's editor has no way in for them: its own history list is set.)"""
        self._history = lines[-self._history_size :] if self._history_size else []
        self._history_index = len(self._history)

    def _move_cursor(self, column: int) -> None:
        cursor, width = self._cursor, self._width
        if column <= cursor and column // width == cursor // width:
            self._outbuf.append("\b" * (cursor - column))
            self._cursor = column
        else:
            super()._move_cursor(column)


class _Writer:
    """The editor's channel: what it writes goes to the seat's, through the seat's cut-off."""

    def __init__(self, seat: PlainSeat) -> None:
        self._seat = seat

    def write(self, data: str) -> None:
        self._seat.write(data)


class PlainSeat(SeatSession):
    """One seat as plain lines (see the module's doc); ``terminal``: the client asked for a pty."""

    def __init__(self, *args: Any, terminal: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A spectator too reads his own lines: the table's shared screen (tui.ssh.seating.sharedscreen) is a screen.
        self.watching = False
        self.terminal = terminal
        self.client: LineClient | None = None
        self._editor: SSHLineEditor | None = None
        self._partial = ""  # without a terminal: what came of a line not ended yet
        self._bucket = TokenBucket(self.limits.input_rate, self.limits.input_burst)
        self._done = asyncio.Event()
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
        """The seat's lines of its earlier sessions, to bring back with ↑, oldest first."""
        if self._editor is not None:
            self._editor.remember(lines)

    async def _run(self, table: Table) -> None:
        use_reader(self.reader)
        contributions_from(self._take_contribution)  # a browser's page sends its share of the dice
        log, seat = self.host.log, self.seat
        if self.terminal:
            self._editor = _AppendingEditor(
                chan=_Writer(self),
                session=_EditorSession(self),
                line_echo=True,
                history_size=HISTORY_LINES,
                max_line_length=self.limits.line_length,
                term_type=_AppendingEditor.TERM,  # whatever the client's: see the class
                width=self.size[0],
            )
            self._editor.complete_with(self._complete)
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
        try:
            self._answering = True  # the greeting and the status, before the first prompt
            try:
                self.client.start()
            finally:
                self._answering = False
            self._prompt()
            await self._done.wait()
        finally:
            self.client.end()
            self.host.session_ended(self)
            if self.remembers and self.host.seat_history is not None:
                self.host.seat_history.save(seat.name, self._typed)
        status = 0
        if self._ended:
            self.say("\n" + _("Your session was closed: {why}.").format(why=told(self._ended, self.reader)) + "\n")
            status = 1
        log.info("left seat=%s role=%s game=%s status=%d", seat.name, seat.role, table.name, status)
        self.finish(status)

    def left(self, why: Text) -> None:
        """The client has gone, or is sent away, or left (``quit``, Ctrl+D): the seat ends."""
        if self._task is None or self._done.is_set():
            return
        self.host.log.info("leaving seat=%s role=%s from=%s: %s", self.seat.name, self.seat.role, self.peer, plain(why))
        self._done.set()

    # ------------------------------------------------------------ input

    def feed(self, data: str) -> None:
        """What the client sent: keys to the line editor, or lines (without a terminal)."""
        if self.client is None or self._done.is_set():
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
            data = data[:granted]
        if not data:
            return
        if self._editor is not None:
            with reading(self.reader):
                self._editor.process_input(data, None)
            return
        lines = (self._partial + data).split("\n")
        self._partial = lines.pop()
        if len(self._partial) > self.limits.line_length:
            self.input_refused(M("a line of more than {limit} characters was dropped", limit=self.limits.line_length))
            self._partial = ""
        for line in lines:
            self.line(line.removesuffix("\r"))

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
        self._answering = True
        try:
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

    def interrupted(self) -> None:
        """Ctrl+C at the line editor: the line typed so far is dropped, as in a shell."""
        if self._editor is not None:
            self._editor.set_input("", 0)

    def resize(self, width: int, height: int) -> None:
        self.size = (width, height)
        if self._editor is not None:
            self._editor.set_width(width)

    def input_refused(self, why: Text) -> None:
        """Input over a limit was dropped: said to the seat in a line, and logged (neither more than now and then)."""
        seat = self.seat
        self._refused_log.warning(
            "input", "input refused seat=%s role=%s from=%s: %s", seat.name, seat.role, self.peer, plain(why)
        )
        now = time.monotonic()
        if self.client is not None and now >= self._refused_notice:
            self._refused_notice = now + REFUSED_NOTICE_S
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
        self._editor.process_output(text)  # it turns each line feed into CR LF: the terminal is raw
