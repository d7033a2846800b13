"""One SSH session of ``fireteam serve``: a seat's terminal, its game choice and its app.

A session with a terminal gets its own app instance, built for the seat's
name and role, sharing the table's one ``Game`` with every other seat.  A
session with a command and no terminal gets a plain-text reply
(``tui.ssh.replies``).  Whatever the client does — closes the window, stops
reading, sends garbage — only its own session ends: the game and the other
seats go on.

Each session reads its own language (``tui.ssh.language``): its :class:`Reader`
is the context of its app's task and of every word the session says itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh
from textual.app import App

from core.language.i18n import M, Text, plain
from core.language.reader import Reader, reading, use_reader
from core.views import REFEREE
from tui.ssh import replies
from tui.ssh.driver import SSHDriver, bind_app
from tui.ssh.language import _, seat_language, told
from tui.ssh.limits import Limits, QuietLog
from tui.ssh.seats import Seat

if TYPE_CHECKING:
    from core.game import Game

#: What a terminal is assumed to be when the client says nothing.
_DEFAULT_SIZE = (80, 24)
#: How long a closing app may take before its task is cancelled.
_EXIT_GRACE_S = 5.0
#: What a TERM may look like (it picks the colours); anything else is taken for "xterm".
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: Seconds between two notices to a seat that its input was dropped.
_REFUSED_NOTICE_S = 3.0


class Table(Protocol):
    name: str
    game: Game


class Host(Protocol):
    """What a session needs from the server (see ``tui.ssh.server.FireteamServer``)."""

    log: logging.Logger
    output_limit: int
    limits: Limits
    #: The language of a seat whose seats-file entry and client name none.
    lang: str
    app_factory: Callable[[Game, Seat], App[Any]]

    @property
    def tables(self) -> Sequence[Table]: ...

    def seated(self) -> dict[str, list[Seat]]: ...

    def kick(self, seat: str, by: str) -> int: ...

    def session_started(self, session: TableSession) -> None: ...

    def session_ended(self, session: TableSession) -> None: ...


class TableSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    def __init__(self, host: Host, seat: Seat, username: str, peer: str, key: bytes = b"") -> None:
        self.host = host
        self.seat = seat
        self.key = key  # the public data of the key it logged in with
        self.username = username
        self.peer = peer
        self.table: Table | None = None
        self.app: App[Any] | None = None
        self.size = _DEFAULT_SIZE
        self.term = ""
        self._chan: asyncssh.SSHServerChannel[str] | None = None
        self._pty = False
        self._command: str | None = None
        self._driver: SSHDriver | None = None
        self._choice: str | None = None  # the digits typed at the game chooser, while it is shown
        #: Keys typed while the seat's app starts, handed to it once it takes input.
        self._typed_ahead: list[str] = []
        self._typed_ahead_chars = 0
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.gone = False  # the channel has closed
        self._refused_log = QuietLog(host.log)
        self._refused_notice = 0.0
        self._ended: Text | None = None  # why the host ended the session, if he did
        #: The seat's language, chosen when the session starts (``tui.ssh.language``).
        self.reader = Reader(seat.lang or host.lang)

    @property
    def limits(self) -> Limits:
        return self.host.limits

    def _clamped(self, width: int, height: int) -> tuple[int, int]:
        return min(width, self.limits.max_columns), min(height, self.limits.max_rows)

    # ------------------------------------------------------------- asyncssh side

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:  # type: ignore[override]
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
            self.size = self._clamped(width, height)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        env = self._chan.get_environment() if self._chan is not None else {}
        self.reader.set(seat_language(self.seat.lang, env, self.host.lang))
        with reading(self.reader):
            self._start()

    def _start(self) -> None:
        command = (self._command or "").strip()
        if len(command) > self.limits.line_length:
            seat = self.seat
            self.host.log.warning(
                "refused seat=%s role=%s from=%s: a command of %d characters (limit %d): %r...",
                seat.name,
                seat.role,
                self.peer,
                len(command),
                self.limits.line_length,
                command[:40],
            )
            self._send(
                _("That command is {length} characters long; at most {limit}.").format(
                    length=len(command), limit=self.limits.line_length
                )
                + "\n"
            )
            self._finish(1)
            return
        word = command.split()[0] if command else ""
        if self._command is not None and (not self._pty or word in replies.COMMANDS):
            self._reply(command)
        elif not self._pty:
            self.host.log.info("no terminal seat=%s role=%s from=%s", self.seat.name, self.seat.role, self.peer)
            self._send(replies.needs_terminal())
            self._finish(1)
        elif command:
            self._open_named(command)
        else:
            self._open_default()

    def data_received(self, data: str, datatype: Any) -> None:
        if self._driver is not None:
            self._driver.feed(data)
        elif self._choice is not None:
            with reading(self.reader):
                self._choose(data)
        elif self._task is not None:
            self._type_ahead(data)

    def _type_ahead(self, data: str) -> None:
        """Keep what a player types while his app starts (as much as one burst may
        hold), so that nothing he typed at once is lost."""
        room = self.limits.input_burst - self._typed_ahead_chars
        if len(data) > room:
            self.input_refused(M("{count} characters typed while the game opened were dropped", count=len(data) - room))
            data = data[:room]
        if data:
            self._typed_ahead.append(data)
            self._typed_ahead_chars += len(data)

    def _give_typed_ahead(self) -> None:
        data = "".join(self._typed_ahead)
        self._typed_ahead.clear()
        self._typed_ahead_chars = 0
        if data and self._driver is not None:
            self._driver.feed(data)  # the driver's own limits apply to it as to any input

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width > 0 and height > 0:
            self.size = self._clamped(width, height)
            if self._driver is not None:
                self._driver.resize(*self.size)

    def eof_received(self) -> bool:
        self._leave("end of input")
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self.gone = True
        self._leave(f"connection lost: {exc}" if exc else "disconnected")

    # ------------------------------------------------------------ the terminal

    def write(self, data: str) -> None:
        """Output of the app; a client that stops reading is cut off (not waited for)."""
        chan = self._chan
        if self._closed or chan is None:
            return
        try:
            chan.write(data)
        except (BrokenPipeError, OSError):
            self._closed = True
            return
        buffered = chan.get_write_buffer_size()
        if buffered > self.host.output_limit:
            self.host.log.warning(
                "slow reader cut off seat=%s role=%s from=%s: %d bytes waiting (limit %d)",
                self.seat.name,
                self.seat.role,
                self.peer,
                buffered,
                self.host.output_limit,
            )
            self._closed = True
            # Closing the channel would wait for the unsent bytes; drop the connection instead.
            chan.get_extra_info("connection").abort()
            self._leave("output buffer overflow")

    def attach(self, driver: SSHDriver | None) -> None:
        self._driver = driver
        # The driver attaches as the app starts, before it takes input: what was typed
        # until now goes to it next, ahead of anything typed later; the app holds it
        # all until its command line is up (``tui.typeahead``).
        if driver is not None and self._typed_ahead:
            asyncio.get_running_loop().call_soon(self._give_typed_ahead)

    def input_refused(self, why: Text) -> None:
        """Input over a limit was dropped: say so to the seat, and in the log (neither more than now and then)."""
        seat = self.seat
        self._refused_log.warning(
            "input", "input refused seat=%s role=%s from=%s: %s", seat.name, seat.role, self.peer, plain(why)
        )
        now = time.monotonic()
        if self.app is not None and now >= self._refused_notice:
            self._refused_notice = now + _REFUSED_NOTICE_S
            with reading(self.reader):
                self.app.notify(
                    _("Input dropped: {why}.").format(why=told(why, self.reader)),
                    title=_("Too much input"),
                    severity="warning",
                    markup=False,
                )

    def _send(self, text: str) -> None:
        if self._pty:
            text = text.replace("\n", "\r\n")  # the client's terminal is raw: no newline translation
        self.write(text)

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
        tables = self.host.tables
        # The SSH user name is free (the key says who you are), so it may name the game.
        table = self._table(self.username)
        if table is None and len(tables) == 1:
            table = tables[0]
        if table is not None:
            self._open(table)
            return
        self._choice = ""
        lines = [
            "\x1b[2J\x1b[H",
            _("Fireteam — {seat} ({role}). Games at this table:").format(seat=self.seat.name, role=self.seat.role),
            "",
        ]
        for number, t in enumerate(tables, start=1):
            lines.append(f"  {number}) {replies.game_line(t)}")
        lines += ["", _("Type a number (1-{count}) and Enter, or q to leave: ").format(count=len(tables))]
        self._send("\n".join(lines))

    def _choose(self, data: str) -> None:
        assert self._choice is not None
        for i, ch in enumerate(data):
            if ch in "\r\n":
                self._pick()
                if self._choice is None and self._task is not None:
                    rest = data[i + 1 :]
                    self._type_ahead(rest[1:] if ch == "\r" and rest.startswith("\n") else rest)
                return
            if ch in "qQ\x03\x04":
                self._send("\n")
                self._choice = None
                self._finish(0)
                return
            if ch in "\x7f\x08" and self._choice:
                self._choice = self._choice[:-1]
                self._send("\b \b")
            elif ch.isdigit() and len(self._choice) < 3:
                self._choice += ch
                self._send(ch)

    def _pick(self) -> None:
        assert self._choice is not None
        tables = self.host.tables
        number = int(self._choice) if self._choice else 0
        if 1 <= number <= len(tables):
            self._choice = None
            self._open(tables[number - 1])
        else:
            self._choice = ""
            self._send("\n" + _("No game {number}; type 1-{count}: ").format(number=number or "", count=len(tables)))

    # ----------------------------------------------------------------- the app

    def _open(self, table: Table) -> None:
        sides = table.game.state.sides
        if self.seat.is_side and sides and self.seat.role not in sides:
            self.host.log.warning(
                "refused seat=%s role=%s game=%s: not a side of this game", self.seat.name, self.seat.role, table.name
            )
            self._send(
                _(
                    "Your seat {seat} plays {role}, which is not a side of {game} (sides: {sides}). "
                    "Ask the host to fix the seats file."
                ).format(
                    seat=repr(self.seat.name), role=repr(self.seat.role), game=repr(table.name), sides=", ".join(sides)
                )
                + "\n"
            )
            self._finish(1)
            return
        open_here = sum(seat.name == self.seat.name for seats in self.host.seated().values() for seat in seats)
        if open_here >= self.limits.terminals_per_seat:
            self.host.log.warning(
                "refused seat=%s role=%s from=%s: %d terminals open already (limit %d)",
                self.seat.name,
                self.seat.role,
                self.peer,
                open_here,
                self.limits.terminals_per_seat,
            )
            self._send(
                _("Your seat {seat} has {count} terminals open already, the most it may; close one first.").format(
                    seat=repr(self.seat.name), count=open_here
                )
                + "\n"
            )
            self._finish(1)
            return
        self.table = table
        self._task = asyncio.get_running_loop().create_task(self._run(table), name=f"seat {self.seat.name}")

    async def _run(self, table: Table) -> None:
        # The seat's reader, for its app and every task the app starts (they inherit this task's context).
        use_reader(self.reader)
        log = self.host.log
        seat = self.seat
        try:
            app = self.host.app_factory(table.game, seat)
        except Exception:
            log.exception("could not build the app seat=%s role=%s game=%s", seat.name, seat.role, table.name)
            self._send(_("The server could not open your seat; the host has the details in the server log.") + "\n")
            self._finish(1)
            return
        env = {"TERM": self.term or "xterm"}
        if self._chan is not None and (colorterm := self._chan.get_environment().get("COLORTERM")):
            env["COLORTERM"] = colorterm  # the client's own colour claim: only ever used for colours
        report = bind_app(app, self, env)
        self.app = app
        self.host.session_started(self)
        log.info(
            "seated seat=%s role=%s game=%s from=%s term=%s size=%dx%d",
            seat.name,
            seat.role,
            table.name,
            self.peer,
            self.term,
            *self.size,
        )
        status = 0
        try:
            await app.run_async(size=self.size)
            status = app.return_code or 0
        except Exception:
            log.exception("session crashed seat=%s role=%s game=%s", seat.name, seat.role, table.name)
            status = 1
        finally:
            self._driver = None
            self.host.session_ended(self)
        crash = report.getvalue().strip()
        if crash:
            status = status or 1
            log.error("session crashed seat=%s role=%s game=%s:\n%s", seat.name, seat.role, table.name, crash)
        if self._ended and not self._closed:
            self._send("\n" + _("Your session was closed: {why}.").format(why=told(self._ended, self.reader)) + "\n")
            status = status or 1
        elif status and not self._closed:
            self._send("\n" + _("Your session failed and was closed; the game is safe. Connect again to go on.") + "\n")
        log.info("left seat=%s role=%s game=%s status=%d", seat.name, seat.role, table.name, status)
        self._finish(status)

    def end(self, why: Text) -> None:
        """The host ends this session (seat removed or changed, or kicked), telling the player why (in his language)."""
        if self._ended is not None:
            return
        self._ended = why
        self.host.log.warning(
            "closing seat=%s role=%s from=%s: %s", self.seat.name, self.seat.role, self.peer, plain(why)
        )
        self._leave(why)

    def _leave(self, why: Text) -> None:
        """The client has gone: end the app (if any) without waiting for it to say goodbye."""
        self._choice = None
        task = self._task
        if task is None or task.done():
            return
        self.host.log.info("leaving seat=%s role=%s from=%s: %s", self.seat.name, self.seat.role, self.peer, plain(why))
        if self.app is not None:
            self.app.exit()
        asyncio.get_running_loop().call_later(_EXIT_GRACE_S, self._cancel_if_stuck, task)

    def _cancel_if_stuck(self, task: asyncio.Task[None]) -> None:
        if not task.done():
            self.host.log.warning("app did not close in time, cancelled seat=%s", self.seat.name)
            task.cancel()
