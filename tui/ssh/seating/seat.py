"""A seat at a table, whatever door its player came in by: its terminal's life, its app, its end.

A player reaches a table through a *door*: an SSH session (``tui.ssh.host.session``)
or, later, a browser.  The door knows its protocol (authentication, the
terminal's size and type, how bytes travel); once the player is at a table, the
rest is the same for every door and lives here, in :class:`SeatSession`:

* the checks before sitting down (a side that plays this game; how many
  terminals the seat has open);
* the seat's app, built by the host for the seat's name and role, drawn on the
  door's :class:`Channel` by ``tui.ssh.seating.driver.SSHDriver`` (for which a
  :class:`SeatSession` is the ``Terminal``);
* the seat's input: what is typed while its app starts is kept for it, and
  input over a limit is refused with a notice (now and then) and a log line;
* output a client leaves unread: past the host's limit the connection is
  dropped, never waited for;
* the end: the host ends a seat (kicked, removed from the seats file) telling
  the player why, or the client goes, and the app is closed without waiting
  for it to say goodbye.

A spectator's seat has no app of its own: it watches the shared screen of the
host's stands (``tui.ssh.seating.stands``) that fits its terminal, drawn once for
every spectator of the table in its language (``tui.ssh.seating.sharedscreen``).  His
keys reach no app: Ctrl+Q or Ctrl+C leaves, and any other key is answered
with a line at the foot of his own terminal saying that spectators watch (or
that they cannot undo, for Ctrl+Z).

A door gives the seat a :class:`Channel` and forwards to it what the client
sends (:meth:`SeatSession.feed`, :meth:`SeatSession.resize`) and that the
client has gone (:meth:`SeatSession.left`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import ipaddress
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict
from urllib.parse import quote

from rich.color import ColorSystem
from textual.app import App

from core.dice.faces import Share, contributions_from
from core.language.i18n import M, Text, plain
from core.language.reader import Reader, reading, use_reader
from core.log.outcome import Outcome
from core.log.views import REFEREE, SPECTATOR
from tui.app import FireteamApp
from tui.input_limits import NOTICE, NOTICE_EVERY_S, NOTICE_TITLE
from tui.ssh.language import _, told
from tui.ssh.limits import Limits, QuietLog
from tui.ssh.seating import notice as table_notice
from tui.ssh.seating.driver import SCREEN_OFF, SCREEN_ON, SSHDriver, bind_app, color_system_for
from tui.ssh.seating.stands import Table as WatchedTable
from tui.ssh.seating.stands import shared_size
from tui.ssh.seatsfile import Seat, Seats

if TYPE_CHECKING:
    from core.game import Game
    from tui.ssh.seating.history import SeatHistories
    from tui.ssh.seating.sharedscreen import SharedScreen
    from tui.ssh.seating.stands import Stands
    from tui.ssh.workers.heap import HeapSettler

#: How long a closing app may take before its task is cancelled.
EXIT_GRACE_S = 5.0
#: Seconds between two notices to a seat that its input was dropped (or, to a spectator, that he only watches).
REFUSED_NOTICE_S = NOTICE_EVERY_S
#: Seconds a notice stays at the foot of a spectator's terminal before the shared screen is drawn over it.
SPECTATOR_NOTICE_S = 3.0
#: Keys that take a spectator away from the table: Ctrl+Q, as for every seat, and Ctrl+C.
_LEAVE_KEYS = ("\x11", "\x03")
_UNDO_KEY = "\x1a"  # Ctrl+Z


def fingerprint(public_data: bytes) -> str:
    """An SSH key's fingerprint as OpenSSH prints it (``ssh-keygen -l``): ``SHA256:`` and the
    unpadded base64 of the SHA-256 of its public data."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(public_data).digest()).decode("ascii").rstrip("=")


class Table(WatchedTable, table_notice.Noticed, Protocol):
    """A table as a seat sits at it: its name and game, as the stands show them, and its notice
    (an event's round clock: ``tui.ssh.seating.notice``)."""


class Host(Protocol):
    """What a seat needs from the server (see ``tui.ssh.host.server.FireteamServer``)."""

    log: logging.Logger
    output_limit: int
    limits: Limits
    #: The language of a seat whose seats-file entry and client name none.
    lang: str
    app_factory: Callable[[Game, Seat], App[Any]]
    #: Where the spectators watch (``tui.ssh.seating.stands``).
    stands: Stands
    #: Keeps the cycle collector off the seats' backs while a command's frames are written (``tui.ssh.workers.heap``).
    heap: HeapSettler
    #: Where plain seats' command lines are kept between sessions (None: nowhere).
    seat_history: SeatHistories | None

    @property
    def tables(self) -> Sequence[Table]: ...

    def seated(self) -> dict[str, list[Seat]]: ...

    def kick(self, seat: str, by: str) -> int: ...

    def session_started(self, session: SeatSession) -> None: ...

    def session_ended(self, session: SeatSession) -> None: ...


class Channel(Protocol):
    """A door's end of one seat's terminal: bytes out, and how the door closes."""

    def write(self, data: str) -> None:
        """Send terminal output (the door may raise ``OSError`` once the client has gone)."""

    def buffered(self) -> int:
        """Bytes written and not yet taken by the client."""

    def abort(self) -> None:
        """Drop the connection at once, unsent output and all (a client that stopped reading)."""

    def exit(self, status: int) -> None:
        """End the door's session with an exit status, once its output is sent."""


class Door(TypedDict):
    """What a door (SSH's, the browser's) says of a seat's connection: the keywords of :class:`SeatSession`
    that a door gives whichever kind of seat it opens (a screen, plain lines)."""

    peer: str
    reader: Reader
    size: tuple[int, int]
    env: Mapping[str, str]
    key: NotRequired[bytes]
    recheck: NotRequired[Callable[[Seats], tuple[Text, str] | None] | None]
    page: NotRequired[bool]
    download: NotRequired[Callable[[str], None] | None]
    reached: NotRequired[tuple[str, int] | None]


def ssh_host(address: str) -> str:
    """A socket's address as ``ssh`` takes it on its command line: an IPv4 address that came as
    IPv6 (``::ffff:192.168.1.5``, on a server listening on both) as IPv4."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    mapped = getattr(found, "ipv4_mapped", None)
    return str(mapped or found)


class SeatSession:
    """One seat's terminal at one table: its app, its input, its end (see the module's doc)."""

    def __init__(
        self,
        host: Host,
        seat: Seat,
        channel: Channel,
        *,
        peer: str,
        reader: Reader,
        size: tuple[int, int],
        env: Mapping[str, str],
        key: bytes = b"",
        recheck: Callable[[Seats], tuple[Text, str] | None] | None = None,
        watching_size: Callable[[tuple[int, int]], None] | None = None,
        page: bool = False,
        download: Callable[[str], None] | None = None,
        reached: tuple[str, int] | None = None,
    ) -> None:
        self.host = host
        #: The address and port the player's SSH connection reached (its socket's own end): what his
        #: own machine's ``ssh`` reaches the server by (``keep_copy``); None by another door.
        self.reached = reached
        #: The seat is at a browser's page (``tui.ssh.web.door``): a phone's keys, no Ctrl (its app is told).
        self.page = page
        self.seat = seat
        self.peer = peer
        #: The public data of the SSH key the player logged in with (empty by another door).
        self.key = key
        #: Whether the seat may still sit, given the seats file now: None if it may, else why not (for a door
        #: whose seat is not a key of the seats file, e.g. a browser's invitation); without it, the host looks the
        #: seat up by its key, or its name.
        self.recheck = recheck
        #: Told the size of each shared screen the spectator is about to watch, before its first byte (a
        #: browser's page draws its terminal at that size, to fit the page: ``tui.ssh.web.door``).
        self._watching_size = watching_size
        #: Has the door's page fetch a file of the server's by its address (a browser's download), if it can.
        self._download = download
        #: The seat's language, chosen by the door when the player arrived (``tui.ssh.language``).
        self.reader = reader
        self.size = size
        #: The client's ``TERM`` (and ``COLORTERM``, if it sent one): only ever used for colours.
        self.env = dict(env)
        self.table: Table | None = None
        self.app: App[Any] | None = None
        self._channel = channel
        self._driver: SSHDriver | None = None
        #: Keys typed while the seat's app starts, handed to it once it takes input.
        self._typed_ahead: list[str] = []
        self._typed_ahead_chars = 0
        self._task: asyncio.Task[None] | None = None
        self._closed = False  # nothing more may be written
        self._refused_log = QuietLog(host.log)
        self._refused_notice = 0.0
        self._ended: Text | None = None  # why the host ended the session, if he did
        self._failed = False  # it ended on an error of the server's
        self._end_reason = ""  # ... in one word (``tui.ssh.web.channel.END_REASONS``)
        self._door_gone = False  # the door's connection has closed
        #: A spectator watches a shared screen instead of running an app of his own.
        self.watching = seat.role == SPECTATOR
        #: The shared screen he watches, while he does.
        self.screen: SharedScreen | None = None
        self._watched: asyncio.Future[int] | None = None  # his exit status, once he stops watching
        self._resize_timer: asyncio.TimerHandle | None = None
        self._notice_timer: asyncio.TimerHandle | None = None
        self._notice = ""  # the last notice shown to a spectator
        self._notice_line = ""  # what draws it, while it shows
        #: The last contribution to the dice its browser sent, until a command takes it (``contributed``).
        self._contribution: Share | None = None

    @property
    def limits(self) -> Limits:
        return self.host.limits

    @property
    def started(self) -> bool:
        """The seat has sat down at a table (its app is starting or running)."""
        return self._task is not None

    def keep_copy(self) -> str:
        """The seat's copy of its game, for its player's own machine (``tui.copies``; docs/ssh.md): a
        browser's page downloads it (``/copy``); a terminal cannot receive a file, so its player is told
        the command his own machine runs.  What to tell him."""
        game = self.table.name if self.table is not None else ""
        if self._download is not None:
            self._download(f"/copy?game={quote(game, safe='')}")
            return _("your copy of the game so far is downloading: keep it to check the referee's save after the game")
        host, port = self.reached or ("HOST", "PORT")  # (an SSH door always gives it)
        command = f"ssh -p {port} {ssh_host(host)} copy {game} > {game}-{self.seat.role}.ft"
        return _("keep your copy of the game so far on your own machine, from another terminal: {command}").format(
            command=command
        )

    def record_seated(self, table: Table) -> None:
        """Who sits for a side, in the log (``Seated``, issue #74): a side's seat writes its player's name and
        his SSH key's fingerprint (``via=key``), or that he came by an invitation (a browser's), as the
        referee's ``players`` does, before the seat's task starts (so no share of its dice is taken for
        it); once for each name and key the log does not hold yet.  Written only where the game has sides."""
        seat, game = self.seat, table.game
        if not seat.is_side or seat.role not in game.state.sides:
            return
        key = fingerprint(self.key) if self.key else ""
        if any((s.side, s.name, s.key) == (seat.role, seat.name, key) for s in game.reading.players()):
            return
        line = f"players {seat.role}={seat.name} " + (f"key={key} via=key" if key else "via=invitation")
        result = game.submit(line, role=REFEREE, by=REFEREE)
        if not isinstance(result, Outcome):  # (a command held for a seat's dice: the next sitting writes it)
            self.host.log.warning(
                "seat not recorded seat=%s role=%s game=%s: %r", seat.name, seat.role, table.name, result
            )

    # ------------------------------------------------------------ sitting down

    def open(self, table: Table) -> bool:
        """Sit at ``table`` if the seat may; else tell the player why and end. Whether it sat."""
        sides = table.game.state.sides
        seat = self.seat
        if seat.is_side and sides and seat.role not in sides:
            self.host.log.warning(
                "refused seat=%s role=%s game=%s: not a side of this game", seat.name, seat.role, table.name
            )
            self.say(
                _(
                    "Your seat {seat} plays {role}, which is not a side of {game} (sides: {sides}). "
                    "Ask the host to fix the seats file."
                ).format(seat=repr(seat.name), role=repr(seat.role), game=repr(table.name), sides=", ".join(sides))
                + "\n"
            )
            self.finish(1)
            return False
        if not seat.may_sit(table.name):
            self.host.log.warning("refused seat=%s role=%s game=%s: not its table", seat.name, seat.role, table.name)
            said = _("Your seat {seat} sits at {games}, not at {game}.")
            self.say(said.format(seat=repr(seat.name), games=", ".join(seat.tables), game=repr(table.name)) + "\n")
            self.finish(1)
            return False
        open_here = sum(s.name == seat.name for seats in self.host.seated().values() for s in seats)
        if open_here >= self.limits.terminals_per_seat:
            self.host.log.warning(
                "refused seat=%s role=%s from=%s: %d terminals open already (limit %d)",
                seat.name,
                seat.role,
                self.peer,
                open_here,
                self.limits.terminals_per_seat,
            )
            self.say(
                _("Your seat {seat} has {count} terminals open already, the most it may; close one first.").format(
                    seat=repr(seat.name), count=open_here
                )
                + "\n"
            )
            self.finish(1)
            return False
        self.table = table
        self.record_seated(table)
        run = self._watch if self.watching else self._run
        if self.watching:  # before his task starts: he may leave at once
            self._watched = asyncio.get_running_loop().create_future()
        self._task = asyncio.get_running_loop().create_task(run(table), name=f"seat {seat.name}")
        return True

    async def _run(self, table: Table) -> None:
        # The seat's reader, for its app and every task the app starts (they inherit this task's context).
        use_reader(self.reader)
        # And where its commands take their share of the dice: what its browser sent, if any.
        contributions_from(self._take_contribution)
        log = self.host.log
        seat = self.seat
        try:
            app = self.host.app_factory(table.game, seat)
        except Exception:
            log.exception("could not build the app seat=%s role=%s game=%s", seat.name, seat.role, table.name)
            self.say(_("The server could not open your seat; the host has the details in the server log.") + "\n")
            self.finish(1)
            return
        if isinstance(app, FireteamApp):
            app.keep_copy_at_seat = self.keep_copy
            app.page = self.page  # what its screens say to press
        report = bind_app(app, self, self.env)
        if self.env.get("NO_COLOR"):
            app.no_color = True  # as the client asked: drawn in greys, every meaning in words too (tui.contrast)
        self.app = app
        stop_notice = table_notice.at_screen(table, app)  # an event's round clock, beside the game
        self.host.session_started(self)
        log.info(
            "seated seat=%s role=%s game=%s from=%s term=%s size=%dx%d",
            seat.name,
            seat.role,
            table.name,
            self.peer,
            self.env.get("TERM", ""),
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
            stop_notice()
            self._driver = None
            self.host.session_ended(self)
        crash = report.getvalue().strip()
        if crash:
            status = status or 1
            log.error("session crashed seat=%s role=%s game=%s:\n%s", seat.name, seat.role, table.name, crash)
        self._end_with(table, status)

    def _end_with(self, table: Table, status: int) -> None:
        """The seat's app (or watching) has ended with ``status``: tell the player why, if need be, and close."""
        log = self.host.log
        seat = self.seat
        if self._ended and not self._closed:
            self.say("\n" + _("Your session was closed: {why}.").format(why=told(self._ended, self.reader)) + "\n")
            status = status or 1
        elif status and not self._closed:
            self.say("\n" + _("Your session failed and was closed; the game is safe. Connect again to go on.") + "\n")
        log.info("left seat=%s role=%s game=%s status=%d", seat.name, seat.role, table.name, status)
        self._failed = status != 0
        self.finish(status)

    # --------------------------------------------------------------- watching

    async def _watch(self, table: Table) -> None:
        """A spectator's seat: he watches the shared screen that fits his terminal until he leaves."""
        use_reader(self.reader)
        log = self.host.log
        seat = self.seat
        assert self._watched is not None
        try:
            self.write(SCREEN_ON)
            self.screen = self._watch_screen(table)
        except Exception:
            log.exception("could not open the shared screen seat=%s game=%s", seat.name, table.name)
            self.write(SCREEN_OFF)
            self.say(_("The server could not open your seat; the host has the details in the server log.") + "\n")
            self.finish(1)
            return
        self.host.session_started(self)
        log.info(
            "seated seat=%s role=%s game=%s from=%s term=%s size=%dx%d watching=%dx%d",
            seat.name,
            seat.role,
            table.name,
            self.peer,
            self.env.get("TERM", ""),
            *self.size,
            *self.screen.size,
        )
        try:
            status = await self._watched
        finally:
            if self.screen is not None:
                self.screen.leave(self)
                self.screen = None
            for timer in (self._resize_timer, self._notice_timer):
                if timer is not None:
                    timer.cancel()
            self.host.session_ended(self)
        self.write(SCREEN_OFF)
        self._end_with(table, status)

    def _who(self) -> str:
        return f"seat={self.seat.name} from={self.peer}"

    def _stop_watching(self, status: int) -> None:
        if self._watched is not None and not self._watched.done():
            self._watched.set_result(status)

    # The shared screen's viewer (``tui.ssh.seating.sharedscreen.Viewer``).

    @cached_property
    def color_system(self) -> ColorSystem | None:
        return color_system_for(self.env)  # (worked out when first asked)

    def buffered(self) -> int:
        return self._channel.buffered()

    def send(self, data: str) -> None:
        self.write(data)
        if self._notice_line:
            self.write(self._notice_line)

    def fell_behind(self, seconds: float) -> None:
        self.screen = None
        self.end(M("your terminal took none of the table's output for {seconds} s", seconds=f"{seconds:.0f}"))
        # His terminal may read nothing of it: the connection goes anyway, soon.
        asyncio.get_running_loop().call_later(EXIT_GRACE_S, self._abort_if_open)

    def screen_ended(self, failed: bool) -> None:
        self.screen = None
        self._stop_watching(1 if failed else 0)

    def _abort_if_open(self) -> None:
        if not self._door_gone:
            with contextlib.suppress(OSError):
                self._channel.abort()

    def _spectator_keys(self, data: str) -> None:
        """A spectator's keys reach no app: Ctrl+Q or Ctrl+C leaves; any other key is told what he may do."""
        if any(key in data for key in _LEAVE_KEYS):
            self._stop_watching(0)
            return
        if self.screen is None:
            return
        with reading(self.reader):
            if _UNDO_KEY in data:
                text = _("Spectators cannot undo: they watch. Ctrl+Q leaves.")
            else:
                text = _("Spectators watch: they cannot give commands. Ctrl+Q leaves.")
        now = time.monotonic()
        if text == self._notice and now < self._refused_notice:
            return  # the same again: not more than now and then
        self._notice, self._refused_notice = text, now + REFUSED_NOTICE_S
        # On the last row of his screen (the watching line's), until the screen is sent again.
        width = min(self.screen.size[0], self.size[0])
        row = min(self.screen.size[1], self.size[1])
        # Written again after each frame while it shows, so that no frame draws over it.
        self._notice_line = f"\x1b[{row};1H\x1b[0;7m{text[:width].ljust(width)}\x1b[0m"
        self.write(self._notice_line)
        if self._notice_timer is not None:
            self._notice_timer.cancel()
        self._notice_timer = asyncio.get_running_loop().call_later(SPECTATOR_NOTICE_S, self._notice_over)

    def _notice_over(self) -> None:
        self._notice_timer = None
        self._notice_line = ""
        if self.screen is not None:
            self.screen.resend(self)

    def _resized(self) -> None:
        """A spectator's terminal changed size: the shared size that fits it now, sent whole."""
        self._resize_timer = None
        screen, table = self.screen, self.table
        if screen is None or table is None:
            return
        if shared_size(*self.size) == screen.size:
            screen.resend(self)  # his terminal may have moved or cleared what it showed
            return
        screen.leave(self)
        self.write("\x1b[0m\x1b[2J")
        self.screen = self._watch_screen(table)

    def _watch_screen(self, table: Table) -> SharedScreen:
        """The shared screen that fits the spectator's terminal, which he joins (its whole screen sent)."""
        if self._watching_size is not None:
            self._watching_size(shared_size(*self.size))
        return self.host.stands.watch(self, self._who(), table, self.reader.lang, self.size)

    # ------------------------------------------------------------------- input

    def feed(self, data: str) -> None:
        """What the client typed: to the app, or kept for it while it starts (a spectator's: ``_spectator_keys``)."""
        if self._driver is not None:
            self._driver.feed(data)
        elif self.watching:
            self._spectator_keys(data)
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

    def contributed(self, contribution: Share) -> None:
        """Random bytes the seat's own device drew for its next command's sealed dice, and the
        key's seal it saw then (a browser page sends them with each line it enters:
        docs/secrets.md); a newer one replaces it."""
        self._contribution = contribution

    def _take_contribution(self) -> Share | None:
        taken, self._contribution = self._contribution, None
        return taken

    def resize(self, width: int, height: int) -> None:
        """The client's terminal changed size (the door clamps it to the limits)."""
        self.size = (width, height)
        if self._driver is not None:
            self._driver.resize(width, height)
        elif self.watching and self._resize_timer is None and self.screen is not None:
            # A stream of window changes is one move.
            self._resize_timer = asyncio.get_running_loop().call_later(self.limits.resize_delay_s, self._resized)

    def input_refused(self, why: Text) -> None:
        """Input over a limit was dropped: say so to the seat, and in the log (neither more than now and then)."""
        seat = self.seat
        self._refused_log.warning(
            "input", "input refused seat=%s role=%s from=%s: %s", seat.name, seat.role, self.peer, plain(why)
        )
        now = time.monotonic()
        if self.app is not None and now >= self._refused_notice:
            self._refused_notice = now + REFUSED_NOTICE_S
            with reading(self.reader):
                self.app.notify(
                    _(NOTICE).format(why=told(why, self.reader)),
                    title=_(NOTICE_TITLE),
                    severity="warning",
                    markup=False,
                )

    # ----------------------------------------------------- the driver's terminal

    def attach(self, driver: SSHDriver | None) -> None:
        self._driver = driver
        # The driver attaches as the app starts, before it takes input: what was typed
        # until now goes to it next, ahead of anything typed later; the app holds it
        # all until its command line is up (``tui.typeahead``).
        if driver is not None and self._typed_ahead:
            asyncio.get_running_loop().call_soon(self._give_typed_ahead)

    def write(self, data: str) -> None:
        """Output of the app; a client that stops reading is cut off (not waited for)."""
        if self._closed:
            return
        try:
            self._channel.write(data)
        except OSError:
            self._closed = True
            return
        self.host.heap.wrote()
        self._check_backlog()

    def _check_backlog(self) -> None:
        """Cut off a client that has left more than the host's limit unread."""
        buffered = self._channel.buffered()
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
            self._channel.abort()
            self.left("output buffer overflow")

    def say(self, text: str) -> None:
        """Words of the server's to the player's terminal (raw: a newline is a carriage return too)."""
        self.write(text.replace("\n", "\r\n"))

    def finish(self, status: int) -> None:
        """Close the door's session with ``status``; nothing more is written."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._channel.exit(status)

    # --------------------------------------------------------------------- end

    def end(self, why: Text, reason: str = "seat") -> None:
        """The host ends this seat, telling the player why (in his language); ``reason``, in one word: ``seat``
        (removed or changed), ``kicked``, ``revoked``, ``expired`` or ``stopped`` (the server)."""
        if self._ended is not None:
            return
        self._ended = why
        self._end_reason = reason
        self.host.log.warning(
            "closing seat=%s role=%s from=%s: %s", self.seat.name, self.seat.role, self.peer, plain(why)
        )
        self.left(why)

    def left(self, why: Text) -> None:
        """The client has gone (or is sent away): end the app, if any, without waiting for it to say goodbye."""
        task = self._task
        if task is None or task.done():
            return
        self.host.log.info("leaving seat=%s role=%s from=%s: %s", self.seat.name, self.seat.role, self.peer, plain(why))
        self._stop_watching(0)
        if self.app is not None:
            self.app.exit()
        asyncio.get_running_loop().call_later(EXIT_GRACE_S, self._cancel_if_stuck, task)

    @property
    def sitting(self) -> bool:
        """Whether the seat shows the game its own way (its app: a spectator watches the stands' instead)."""
        return self.app is not None

    @property
    def end_reason(self) -> str:
        """Why the session ended, in one word: the host's reason (:meth:`end`), else ``left`` or ``failed``."""
        return self._end_reason or ("failed" if self._failed else "left")

    def gone(self) -> None:
        """The door's connection has closed: nothing more can be written."""
        self._closed = True
        self._door_gone = True

    def _cancel_if_stuck(self, task: asyncio.Task[None]) -> None:
        if not task.done():
            self.host.log.warning("app did not close in time, cancelled seat=%s", self.seat.name)
            task.cancel()
