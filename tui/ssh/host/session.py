"""One SSH session of ``fireteam serve``: the SSH door to a seat.

A session with a terminal picks a game (by the SSH user name, the command, or
a menu) and sits the player there: from then on a ``tui.ssh.seating.seat.SeatSession``
runs the seat (its app, its input, its end), drawing on this session's
channel.  A session with a command and no terminal gets a plain-text reply
(``tui.ssh.host.replies``).  Whatever the client does — closes the window, stops
reading, sends garbage — only its own session ends: the game and the other
seats go on.

Each session reads its own language (``tui.ssh.language``), chosen as it
starts from the seats file and the variables its client sent: its
:class:`Reader` is the context of every word the session says and of its
seat's app.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import asyncssh

from core.language.reader import Reader, reading
from core.log.views import REFEREE
from tui.ssh.host import replies
from tui.ssh.host.asyncssh_internals import unsent
from tui.ssh.language import _, seat_language
from tui.ssh.seating.chooser import GameChooser
from tui.ssh.seating.plain import PlainSeat
from tui.ssh.seating.seat import Door, Host, SeatSession, Table
from tui.ssh.seatsfile import Seat

#: What a terminal is assumed to be when the client says nothing.
_DEFAULT_SIZE = (80, 24)
#: What a TERM may look like (it picks the colours); anything else is taken for "xterm".
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: The command that asks for the game as plain lines (``tui.ssh.seating.plain``): ``plain`` or ``plain GAME``.
PLAIN = "plain"
#: After ``plain``: the exit status at the end of the input is 1 if a line was refused (``fireteam --plain --strict``).
STRICT = "--strict"


class _Channel:
    """An asyncssh channel as a seat's :class:`tui.ssh.seating.seat.Channel`."""

    def __init__(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self._chan = chan

    def write(self, data: str) -> None:
        self._chan.write(data)

    def buffered(self) -> int:
        # What the channel holds back (the client's SSH window is full), and what the
        # connection has not yet handed to its socket: asyncssh writes on without pausing
        # when the socket is full, so a client on a slow network piles up there.
        return self._chan.get_write_buffer_size() + unsent(self._chan.get_extra_info("connection"))

    def abort(self) -> None:
        # Closing the channel would wait for the unsent bytes; drop the connection instead.
        self._chan.get_extra_info("connection").abort()

    def exit(self, status: int) -> None:
        self._chan.exit(status)


class TableSession(asyncssh.SSHServerSession[str]):
    def __init__(
        self,
        host: Host,
        seat: Seat,
        username: str,
        peer: str,
        key: bytes = b"",
        game: str = "",
        window_change: Callable[[], bool] = lambda: True,
    ) -> None:
        self.host = host
        #: The game the player's invitation named, if he came by one (``tui.ssh.invitations.store``).
        self.game = game
        self.seat = seat
        self.key = key  # the public data of the key it logged in with
        self.username = username
        self.peer = peer
        self.size = _DEFAULT_SIZE
        self.term = ""
        #: The seat, once the player sits at a table.
        self.seated: SeatSession | None = None
        self._chan: asyncssh.SSHServerChannel[str] | None = None
        self._pty = False
        self._command: str | None = None
        self._chooser: GameChooser | None = None  # the menu of games, while it is shown
        #: The seat sits as plain lines: its seats-file entry says so, its player asked, or its terminal is dumb.
        self.plain = seat.plain
        self._strict = False  # ``plain --strict``
        self._closed = False
        self.gone = False  # the channel has closed
        #: The seat's language, chosen when the session starts (``tui.ssh.language``).
        self.reader = Reader(seat.lang or host.lang)
        #: Counts a window change against the connection's budget: False once over it (and the
        #: connection is being closed, in this session's language).
        self._window_change = window_change

    # ------------------------------------------------------------- asyncssh side

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self._pty = True
        if _TERM.fullmatch(term_type):
            self.term = term_type
        else:
            self.host.log.warning(
                "odd TERM taken for xterm seat=%s from=%s term=%r", self.seat.name, self.peer, term_type
            )
            self.term = "xterm"
        width, height = term_size[0], term_size[1]
        if width > 0 and height > 0:
            self.size = self.host.limits.clamped(width, height)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command
        return True

    def session_started(self) -> None:
        env = self._chan.get_environment() if self._chan is not None else {}
        self.reader.set(seat_language(self.seat.lang, env, self.host.lang))
        with reading(self.reader):
            self._start()

    def _start(self) -> None:
        command = (self._command or "").strip()
        limit = self.host.limits.line_length
        if len(command) > limit:
            seat = self.seat
            self.host.log.warning(
                "refused seat=%s role=%s from=%s: a command of %d characters (limit %d): %r...",
                seat.name,
                seat.role,
                self.peer,
                len(command),
                limit,
                command[:40],
            )
            self._send(
                _("That command is {length} characters long; at most {limit}.").format(length=len(command), limit=limit)
                + "\n"
            )
            self._finish(1)
            return
        word = command.split()[0] if command else ""
        if word == PLAIN:
            words = command.split()[1:]
            self.plain, self._strict = True, STRICT in words
            command = " ".join(w for w in words if w != STRICT)
        self.plain = self.plain or self.term == "dumb"
        if self._command is not None and word != PLAIN and (not self._pty or word in replies.COMMANDS):
            self._reply(command)
        elif not self._pty and not self.plain:
            self.host.log.info("no terminal seat=%s role=%s from=%s", self.seat.name, self.seat.role, self.peer)
            self._send(replies.needs_terminal())
            self._finish(1)
        elif command:
            self._open_named(command)
        else:
            self._open_default()

    def data_received(self, data: str, datatype: Any) -> None:
        if self.seated is not None:
            self.seated.feed(data)
        elif self._chooser is not None and self._chooser.open:
            with reading(self.reader):
                rest = self._chooser.feed(data)
            if rest and self.seated is not None:
                self.seated.feed(rest)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        with reading(self.reader):
            if not self._window_change():
                return
        if width > 0 and height > 0:
            self.size = self.host.limits.clamped(width, height)
            if self.seated is not None:
                self.seated.resize(*self.size)

    def eof_received(self) -> bool:
        # The channel stays open for the answers to what came before the input's end (a bot's last
        # lines), until the seat ends it with its exit status.
        if isinstance(self.seated, PlainSeat):
            self.seated.input_ended()
        elif self.seated is not None:
            self.seated.left("end of input")
        elif self._chooser is not None and self._chooser.open:
            self._chooser.close()
            self._finish(0)  # as q leaves the menu
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self.gone = True
        if self.seated is not None:
            self.seated.gone()
        self._leave(f"connection lost: {exc}" if exc else "disconnected")

    def _leave(self, why: str) -> None:
        if self._chooser is not None:
            self._chooser.close()
        if self.seated is not None:
            self.seated.left(why)

    # ------------------------------------------------- words before a seat opens

    def _send(self, text: str) -> None:
        chan = self._chan
        if self._closed or chan is None:
            return
        if self._pty:
            text = text.replace("\n", "\r\n")  # the client's terminal is raw: no newline translation
        try:
            chan.write(text)
        except (BrokenPipeError, OSError):
            self._closed = True

    def _finish(self, status: int) -> None:
        if self._closed or self._chan is None:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._chan.exit(status)

    # ---------------------------------------------------------- choosing a game

    def _reply(self, command: str) -> None:
        words = command.split()
        if words and words[0] == "kick":
            text, status = self._kick(words[1:])
        else:
            text, status = replies.answer(command, self.seat, self.host.tables, self.host.seated())
        seat = self.seat
        self.host.log.info("query seat=%s role=%s from=%s command=%r", seat.name, seat.role, self.peer, command)
        self._send(text)
        self._finish(status)

    def _kick(self, names: list[str]) -> tuple[str, int]:
        if self.seat.role != REFEREE:
            return _("only the referee may kick a seat") + "\n", 1
        if len(names) != 1:
            return _("kick NAME: close every session of the seat NAME") + "\n", 1
        count = self.host.kick(names[0], self.seat.name)
        return replies.sessions_closed(names[0], count) + "\n", 0

    def _table(self, name: str) -> Table | None:
        return next((t for t in self.host.tables if t.name == name), None)

    def _open_named(self, name: str) -> None:
        table = self._table(name)
        if table is None:
            names = ", ".join(t.name for t in self.host.tables)
            self._send(_("There is no game {name} here. Games: {games}").format(name=repr(name), games=names) + "\n")
            self._finish(1)
        else:
            self._open(table)

    def _open_default(self) -> None:
        tables = [t for t in self.host.tables if self.seat.may_sit(t.name)]
        # The SSH user name is free (the key says who you are), so it may name the game.
        table = self._table(self.game or self.username)
        if table is None or not self.seat.may_sit(table.name):
            table = None
        if table is None and len(tables) == 1:
            table = tables[0]
        if table is not None:
            self._open(table)
            return
        self._chooser = GameChooser(
            tables, self.seat, send=self._send, sit=self._chosen, leave=lambda: self._finish(0), plain=self.plain
        )
        self._chooser.show()

    def _chosen(self, table: Table) -> None:
        if self.plain:
            self._send("\n")  # the seat's lines start on a line of their own, not after the number typed
        self._open(table)

    # ---------------------------------------------------------------- the seat

    def _open(self, table: Table) -> None:
        assert self._chan is not None
        env = {"TERM": self.term or "xterm"}
        sent = self._chan.get_environment()
        if colorterm := sent.get("COLORTERM"):
            env["COLORTERM"] = colorterm  # the client's own colour claim: only ever used for colours
        if sent.get("NO_COLOR"):
            env["NO_COLOR"] = "1"  # no colour, as asked: a plain seat's none (tui.lines.ink), a screen's greys
        sock = self._chan.get_extra_info("sockname")  # the server's end: what the player reached
        reached = (str(sock[0]), int(sock[1])) if sock else None
        door = Door(peer=self.peer, reader=self.reader, size=self.size, env=env, key=self.key, reached=reached)
        if self.plain:
            seat: SeatSession = PlainSeat(
                self.host, self.seat, _Channel(self._chan), terminal=self._pty, strict=self._strict, **door
            )
        else:
            seat = SeatSession(self.host, self.seat, _Channel(self._chan), **door)
        self._closed = True  # from here on the seat writes, and finishes, the channel
        if seat.open(table):
            self.seated = seat
