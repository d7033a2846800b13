"""``fireteam relay --port PORT``: the venue's tables watched over SSH, from a relay.

A venue's audience is public, as the relay's pages are: a watcher logs in with no password and
no key (``ssh -p PORT TABLE@relay``), and is shown only what the relay serves browsers, the
tables' spectators' screens (``tui.ssh.venue.screens``), drawn at the tables.  The user name
picks the table; any other name is shown the venue's tables, and picks one by its number or
its name and Enter.  The screen is the widest shared size that fits his terminal, in his
``LANG``'s language if Fireteam speaks it; a resize picks again.

Nothing he types reaches a table: while watching, Ctrl+Q, Ctrl+C or q leaves, and any other
key is dropped; at the picker, a line of at most ``MAX_PICK`` characters.  He counts among
the relay's watchers (``MAX_WATCHERS``, browsers and terminals together), and has
``Limits.login_grace_s`` to pick a table.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

import asyncssh
from rich.color import ColorSystem

from core.language.reader import LANGUAGES, SOURCE
from core.venue import NAME, VenueError
from tui.ssh.host.algorithms import terminal_options
from tui.ssh.language import _
from tui.ssh.limits import PerAddress
from tui.ssh.seating.driver import SCREEN_OFF, SCREEN_ON, color_system_for
from tui.ssh.seating.stands import shared_size
from tui.ssh.venue.frames import Screen, checked_screen
from tui.ssh.venue.relay import MAX_WATCHERS, Relay

if TYPE_CHECKING:
    from tui.ssh.venue.screens import RelayScreen

#: The longest line the picker takes (a table's name is at most 64 characters).
MAX_PICK = 64
#: What a watcher types to leave: Ctrl+Q, Ctrl+C, Ctrl+D, q.
LEAVE_KEYS = ("\x11", "\x03", "\x04", "q", "Q")
#: The SSH connections one address may hold open at once.
PER_ADDRESS = 200
#: Seconds between keepalives, and how many may go unanswered before a silent watcher is dropped.
KEEPALIVE_S, KEEPALIVE_MISSES = 30.0, 3


def ssh_options(relay: Relay, key: asyncssh.SSHKey) -> dict[str, Any]:
    """asyncssh's server options for a relay's watchers: no authentication, a terminal and nothing else."""
    return terminal_options(key, relay.limits, KEEPALIVE_S, KEEPALIVE_MISSES)


async def start_ssh(relay: Relay, host: str, port: int, key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
    """Listen for watchers' terminals on ``host``:``port`` (0: any free port)."""
    open_now = PerAddress()
    return await asyncssh.create_server(lambda: _Door(relay, open_now), host, port, **ssh_options(relay, key))


class _Door(asyncssh.SSHServer):
    """A watcher's connection: no authentication (the relay serves only what spectators see).

    Connections are counted from their first byte, before any session: at most
    ``MAX_WATCHERS`` in all and ``PER_ADDRESS`` from one address (a hall's phones share
    one Wi-Fi's address, so the bound is wide), the rest closed at once."""

    def __init__(self, relay: Relay, open_now: PerAddress) -> None:
        self.relay = relay
        self._open = open_now
        self.username = ""
        self.peer = "?"
        self._address = ""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        address = peer[0] if peer else "?"
        if self._open.total() >= MAX_WATCHERS or self._open[address] >= PER_ADDRESS:
            self.relay.log.info("ssh watcher refused from=%s: too many connections", self.peer)
            conn.abort()
            return
        self._address = address
        self._open[address] += 1

    def connection_lost(self, exc: Exception | None) -> None:
        if self._address:
            self._open.release(self._address)
            self._address = ""

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return False  # nothing to prove: he is let in as a spectator

    def session_requested(self) -> asyncssh.SSHServerSession[str]:
        return WatchSession(self.relay, self.username, self.peer)


class WatchSession(asyncssh.SSHServerSession[str]):
    """One watcher's terminal: the picker, then a table's screen until he leaves."""

    def __init__(self, relay: Relay, username: str, peer: str) -> None:
        self.relay = relay
        self.username = username
        self.peer = peer
        self.size = (80, 24)
        self.term = ""
        self._chan: Any = None
        self._typed = ""
        self._picked: asyncio.Future[str] | None = None
        self._left: asyncio.Future[None] | None = None
        self._held: RelayScreen | None = None
        self._screen: Screen | None = None
        self._task: asyncio.Task[None] | None = None
        self._counted = False
        self._why = ""  # why the screen was taken from him, if it was
        self.color_system: ColorSystem | None = ColorSystem.STANDARD

    # ------------------------------------------------------------ asyncssh

    def connection_made(self, chan: Any) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type[:64]
        self.size = _cells(term_size)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False  # a watcher runs nothing here

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"ssh watcher {self.peer}")

    def data_received(self, data: str, datatype: Any) -> None:
        if self._left is not None:  # watching: only the keys that leave
            if any(key in data for key in LEAVE_KEYS) and not self._left.done():
                self._left.set_result(None)
        elif self._picked is not None and not self._picked.done():
            self._pick_keys(data)

    def eof_received(self) -> bool:
        self._leave()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._leave()
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = _cells((width, height, pixwidth, pixheight))
        held, screen = self._held, self._screen
        if held is None or screen is None or self._left is None or self._left.done():
            return
        wanted = shared_size(*self.size)
        if wanted == screen.size:
            return
        held.leave(self)
        self._held = None
        self.send("\x1b[0m\x1b[2J")
        task = asyncio.get_running_loop().create_task(self._watch(Screen(screen.table, screen.lang, wanted)))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    # ------------------------------------------------------------ the viewer (tui.ssh.seating.sharedscreen.Viewer)

    def buffered(self) -> int:
        return self._chan.get_write_buffer_size() if self._chan is not None else 0

    def send(self, data: str) -> None:
        if self._chan is not None and not self._chan.is_closing():
            self._chan.write(data)

    def fell_behind(self, seconds: float) -> None:
        self._held = None
        self._end(f"your terminal took none of the screen for {seconds:.0f} s")

    def screen_ended(self, failed: bool) -> None:
        self._held = None
        self._end("the screen closed")

    # ------------------------------------------------------------ the picker and the watching

    async def _run(self) -> None:
        env = dict(self._chan.get_environment())
        self.color_system = color_system_for({**env, "TERM": self.term or env.get("TERM", "")})
        lang = _language(env)
        if self.relay.watchers >= MAX_WATCHERS:
            self._close_with("this relay is full; another will have room")
            return
        self.relay.watchers += 1
        self._counted = True
        try:
            table = self.username if self._known(self.username) else await self._pick()
            if table is None:
                return
            try:
                screen = checked_screen(table, lang, shared_size(*self.size))
            except VenueError:
                self._close_with("no such table at this venue")
                return
            self._left = asyncio.get_running_loop().create_future()
            self.send(SCREEN_ON)
            if not await self._watch(screen):
                self.send(SCREEN_OFF)
                self._close_with("this relay follows as many screens as it can; another will have room")
                return
            await self._left
            self._stop_watching()
            self.send(SCREEN_OFF)
            self._close_with(self._why or "")
        finally:
            self._uncount()

    async def _watch(self, screen: Screen) -> bool:
        held = await self.relay.watch_screen(self, f"ssh {self.peer}", screen)
        if held is None:
            return False
        self._held, self._screen = held, screen
        self.relay.log.info("ssh watcher from=%s table=%s size=%dx%d", self.peer, screen.table, *screen.size)
        return True

    def _known(self, name: str) -> bool:
        w = self.relay.tables.get(name) if NAME.fullmatch(name) else None
        return w is not None and w.summary is not None

    async def _pick(self) -> str | None:
        """The table he picks from the list (None: he left, or did not pick in time)."""
        self._picked = asyncio.get_running_loop().create_future()
        self.send(self._listing())
        try:
            async with asyncio.timeout(self.relay.limits.login_grace_s):
                while True:
                    said = (await self._picked).strip()
                    self._picked = asyncio.get_running_loop().create_future()
                    table = self._table_for(said)
                    if table is not None:
                        return table
                    if said:
                        self.send(f"\r\nno table {said!r} at this venue\r\n")
                    self.send(self._listing())
        except TimeoutError:
            self._close_with("no table picked in time")
        except _Left:
            self._close_with("")
        finally:
            # No question is open any more: his keys go to the screen, and leaving tells no one.
            self._picked = None
        return None

    def _names(self) -> list[str]:
        return [name for name, w in sorted(self.relay.tables.items()) if w.summary is not None]

    def _listing(self) -> str:
        lines = ["\r\nThe tables of this venue:"]
        for n, name in enumerate(self._names(), 1):
            s = self.relay.tables[name].summary
            assert s is not None
            scores = ", ".join(f"{score.side} {score.score}" for score in s.scores)
            state = s.result or f"turn {s.turn}"
            lines.append(f"  {n:>3}  {name}: {s.ruleset}, {s.scenario}, {state}" + (f" ({scores})" if scores else ""))
            lines.append("       " + _("signed by {key}").format(key=s.key))
            if s.key_warning:
                lines.append("       " + s.key_warning)
        if len(lines) == 1:
            lines.append("  none yet: Enter looks again")
        lines.append("Type a table's number or name, then Enter (Ctrl+C leaves): ")
        # Every name is the relay's own checked form (letters, digits, - and _), every other field a
        # table's own words: shown as text, never as a terminal's commands.
        return _printable("\r\n".join(lines))

    def _table_for(self, said: str) -> str | None:
        names = self._names()
        if said.isdigit() and 1 <= int(said) <= len(names):
            return names[int(said) - 1]
        return said if said in names else None

    def _pick_keys(self, data: str) -> None:
        assert self._picked is not None
        for ch in data:
            if ch in ("\x03", "\x04", "\x11"):
                self._picked.set_exception(_Left())
                return
            if ch in ("\r", "\n"):
                self._picked.set_result(self._typed)
                self._typed = ""
                return
            if ch in ("\x7f", "\b"):
                if self._typed:
                    self._typed = self._typed[:-1]
                    self.send("\b \b")
            elif ch.isprintable() and len(self._typed) < MAX_PICK:
                self._typed += ch
                self.send(ch)

    def _end(self, why: str) -> None:
        self._why = why
        if self._left is not None and not self._left.done():
            self._left.set_result(None)

    def _stop_watching(self) -> None:
        if self._held is not None:
            self._held.leave(self)
            self._held = None

    def _leave(self) -> None:
        self._stop_watching()
        if self._left is not None and not self._left.done():
            self._left.set_result(None)
        if self._picked is not None and not self._picked.done():
            self._picked.set_exception(_Left())
        self._uncount()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.relay.watchers -= 1

    def _close_with(self, why: str) -> None:
        if why:
            self.send(f"\r\n{why}.\r\n")
        with contextlib.suppress(OSError, asyncssh.Error):
            self._chan.exit(0)


class _Left(Exception):
    """He left at the picker."""


def _cells(term_size: tuple[int, int, int, int]) -> tuple[int, int]:
    cols, rows = term_size[0], term_size[1]
    return (max(1, min(cols, 1000)) if cols else 80, max(1, min(rows, 1000)) if rows else 24)


def _language(env: dict[str, str]) -> str:
    """The language of his ``LANG`` (or ``LC_ALL``, ``LC_MESSAGES``) if Fireteam speaks it, else the source's."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")[:2].lower()
        if value:
            return value if value in LANGUAGES else SOURCE
    return SOURCE


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() or c in "\r\n" else "?" for c in text)
