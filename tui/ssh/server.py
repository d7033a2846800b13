"""``fireteam serve``: one shared table over SSH, a seat for each player.

The server is asyncssh in this process (no OpenSSH daemon).  Players log in
with a public key listed in the seats file (``tui.ssh.seatsfile``); the key, and
only the key, says who they are and which role they play.  Each game given on
the command line is one table: one in-memory ``Game`` shared by every seat at
it, each seat with its own app instance and its own view (``tui.ssh.seating.seat``).

Files, in the data folder (``FIRETEAM_DATA_DIR`` or platformdirs'
``user_data_dir("fireteam")``, ``core.folders``): ``ssh_host_ed25519_key`` (created
on first start) and ``seats.toml`` (the default seats file); ``serve.log`` in the state folder.
See docs/ssh.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import ssl
import stat
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh
from asyncssh.encryption import get_encryption_algs
from asyncssh.kex import get_kex_algs
from asyncssh.mac import get_mac_algs
from asyncssh.public_key import get_public_key_algs
from textual.app import App

from core import events as ev
from core.game import Game
from core.language import i18n
from core.language import reader as readers
from core.language.i18n import M, Msg
from core.outcome import Outcome, Refusal
from core.refusal import LOG as CORE_LOG
from core.storage.savefile import SaveError
from core.views import REFEREE, SPECTATOR
from tui.app import FireteamApp, new_demo_game
from tui.ssh.invitations.store import (
    Grant,
    Invitation,
    InvitationRefused,
    Invitations,
    InvitationsError,
    loggable_user,
    token_in,
)
from tui.ssh.language import _, carry_readers_into_threads
from tui.ssh.limits import Gate, Limits, QuietLog, TokenBucket
from tui.ssh.seating.seat import SeatSession
from tui.ssh.seating.stands import Stands
from tui.ssh.seatsfile import Seat, Seats, SeatsError, SeatsFile, append_key, seat_change, seats_in_force
from tui.ssh.session import TableSession
from tui.ssh.web.gate import WebGate
from tui.ssh.workers.heap import HeapSettler

if TYPE_CHECKING:
    from tui.ssh.seating.history import SeatHistories
    from tui.ssh.web.door import WebDoor

HOST_KEY_NAME = "ssh_host_ed25519_key"
SEATS_NAME = "seats.toml"
#: How often the seats file is looked at (one stat) while seats are open.
SEATS_POLL_S = 1.0
LOG_NAME = "serve.log"
#: How often the connections not logged in are looked over for idle ones (``Gate.sweep``).
SWEEP_S = 0.5
#: Bytes of output a seat may leave unread before it is cut off.
OUTPUT_LIMIT = 1 << 20
#: Seconds between keepalives, and how many may go unanswered before a silent client is dropped.
KEEPALIVE_S, KEEPALIVE_MISSES = 30.0, 4

AppFactory = Callable[[Game, Seat], App[Any]]
#: Who ``kick`` names when the organiser kicks a seat at the server's terminal.
ORGANISER = "the organiser"


def closed_by(by: str) -> Msg:
    """What a kicked seat is told: who closed it (a seat's name, or the organiser)."""
    return M("the organiser closed your seat") if by == ORGANISER else M("{by} closed your seat", by=by)


def fireteam_app(game: Game, seat: Seat) -> App[Any]:
    """The real client, built for a remote seat (a spectator's: the shared screen all spectators watch)."""
    return FireteamApp(game, role=seat.role, seat=seat.name, remote=True, watching=seat.role == SPECTATOR)


@dataclass
class Table:
    """One game and the seats at it."""

    name: str
    game: Game


# ------------------------------------------------------------------- files


def private_folder(folder: Path) -> Path:
    """``folder``, created if need be, readable by its owner only (the log names hidden units)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.stat().st_mode & 0o077:
        folder.chmod(0o700)
    return folder


def private_file(path: Path) -> Path:
    """``path``, created empty if need be, readable and writable by its owner only."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return path


def private_save(path: Path) -> str | None:
    """Make a served save readable by its owner only (it names hidden units); what to tell the host.

    A save the program makes is its owner's only (``core.storage.writer.OWNER_ONLY``); one
    an older Fireteam made, or one copied in under the usual umask ``022``, is readable
    by every account of the host while it is served.  Only
    its mode changes, never its bytes; one the host does not own is left as it
    is, and said to be readable by others.
    """
    mode = stat.S_IMODE(path.stat().st_mode)
    if not mode & 0o077:
        return None
    try:
        path.chmod(mode & 0o700)
    except OSError as e:
        said = _(
            "warning: {path} is readable by other accounts of this host and stays so ({error}): it names hidden units"
        )
        return said.format(path=path, error=e.strerror)
    said = _("{path} was readable by other accounts of this host: now by its owner only (it names hidden units)")
    return said.format(path=path)


def host_key(folder: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The server's host key, created (readable by its owner only) on first start."""
    path = folder / HOST_KEY_NAME
    if path.exists():
        return asyncssh.read_private_key(path), False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="fireteam serve")
    private_folder(folder)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        # Half a key would be read at the next start, and refused there: none is left.
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    return key, True


def escaped(text: str) -> str:
    """``text`` with every control character but newline (escape, carriage return...) written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


class OneLineFormatter(logging.Formatter):
    """No value a client chose can start a line of the log, or forge one.

    Control characters are escaped, and every line after a record's first (a
    traceback, or a newline in a client's TERM) is indented under it with
    ``    | ``: a line that begins with a time is always a record.
    """

    def format(self, record: logging.LogRecord) -> str:
        out = super().format(record)
        head, _, rest = escaped(out).partition("\n")
        return head + "".join(f"\n    | {line}" for line in rest.split("\n")) if rest else head


def server_log(folder: Path | None, *, to_stderr: bool = True, tag: str = "") -> logging.Logger:
    """``fireteam.serve``: every connection and command, with seat, role and time (UTC), and
    the core's errors (``core.refusal.LOG``: a command that failed, with its traceback).

    ``tag`` starts every message of a seat worker's (they share the file).  The
    file is its owner's only, as its folder is: it names hidden units.  The console
    (``to_stderr``) shows what the host must act on, the warnings and errors; the file
    keeps every line (a login, a command: INFO), which would bury them on screen (#77).
    """
    log = logging.getLogger("fireteam.serve")
    log.setLevel(logging.INFO)
    prefix = f"{tag} " if tag else ""
    formatter = OneLineFormatter(f"%(asctime)s.%(msecs)03dZ %(levelname)s {prefix}%(message)s", "%Y-%m-%dT%H:%M:%S")
    formatter.converter = time.gmtime
    handlers: list[logging.Handler] = []
    if folder is not None:
        handlers.append(logging.FileHandler(private_file(private_folder(folder) / LOG_NAME), encoding="utf-8"))
    if to_stderr:
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.WARNING)
        handlers.append(console)
    for handler in handlers:
        handler.setFormatter(formatter)
        log.addHandler(handler)
        CORE_LOG.addHandler(handler)  # a command that failed on an error of the program, with its traceback
    return log


def close_server_log(log: logging.Logger) -> None:
    """The server has stopped: ``server_log``'s handlers closed and taken off both logs it gave them to.
    One left on the core's log, closed (its file or its stream gone), would fail the next error
    logged in this process, whatever then logs it."""
    for handler in list(log.handlers):
        log.removeHandler(handler)
        CORE_LOG.removeHandler(handler)
        handler.close()


def open_tables(saves: Sequence[Path], saves_folder: Path | None = None) -> list[Table]:
    """A table per save; with none, a new demo game in ``saves_folder`` (default: the client's)."""
    if not saves:
        game = new_demo_game(saves_folder)
        return [Table(game.path.stem, game)]
    names = [p.stem for p in saves]
    for name in names:
        if names.count(name) > 1:
            raise SaveError(f"two saves are named {name!r}; a game is chosen by its file name, so rename one")
    tables: list[Table] = []
    try:
        for path in saves:
            if not path.exists():
                raise SaveError(f"{path}: no such save (run `fireteam serve` without SAVE for a new demo game)")
            tables.append(Table(path.stem, Game.open(path)))  # takes the save's lock until the server stops
    except BaseException:
        for t in tables:
            t.game.close()  # and lets go of the locks already taken
        raise
    return tables


def log_table(table: Table, seats: Callable[[], Seats], log: logging.Logger) -> Callable[[], None]:
    """Log every command recorded at ``table`` with the seat and role that gave it, and every one refused.

    Returns what stops it.
    """

    def recorded(outcome: Outcome) -> None:
        first = outcome.events[0]
        by = getattr(first, "by", "")
        seat = seats().by_name(by)
        role = seat.role if seat else "?"
        if isinstance(first, ev.Issued):
            log.info("command game=%s #%d seat=%s role=%s: %s", table.name, first.cmd, by, role, first.text)
        else:
            # An undo may carry hidden commands past it: name every marker, not only the first.
            markers = [
                line
                for line, e in zip(outcome.lines, outcome.events, strict=True)
                if isinstance(e, ev.Issued | ev.Undone | ev.Redone)
            ]
            log.info("command game=%s seat=%s role=%s: %s", table.name, by, role, "; ".join(markers))

    def refused(refusal: Refusal) -> None:
        log.info(
            "refused game=%s seat=%s role=%s: %s (%s)", table.name, refusal.by, refusal.role, refusal.text, refusal.why
        )

    stop_recorded = table.game.subscribe(recorded, role=REFEREE)  # every command, hidden ones too
    stop_refused = table.game.subscribe_refusals(refused)

    def stop() -> None:
        stop_recorded()
        stop_refused()

    return stop


def redeem_invitation(
    invitations: Invitations | None,
    seats: SeatsFile | Seats,
    log: logging.Logger,
    token: str,
    peer: str,
    *,
    key: asyncssh.SSHKey | None = None,
) -> Grant:
    """Use an invitation's token: a browser's or an SSH ``key``'s, which is bound to
    the seat in the seats file.  Only the table process calls this (it alone writes the store and the seats file).

    Raises ``InvitationRefused``, saying why for the log (the client is told nothing of it).
    """
    if invitations is None:
        raise InvitationRefused("this server takes no invitations")

    def can_bind(inv: Invitation) -> None:
        assert key is not None
        if not isinstance(seats, SeatsFile):
            raise InvitationRefused("there is no seats file to bind a key in")
        try:
            on_disk = seats.as_on_disk()
        except SeatsError as e:
            raise InvitationRefused(f"the seats file has a mistake, so no key is bound to it: {e}") from None
        if on_disk.by_name(inv.seat) is None:
            raise InvitationRefused(f"invitation {inv.id}: there is no seat {inv.seat!r} in the seats file")
        if (owner := on_disk.seat_of(key.public_data)) is not None:
            raise InvitationRefused(f"the key already belongs to seat {owner.name!r}")

    def bind(inv: Invitation) -> None:
        assert key is not None and isinstance(seats, SeatsFile)  # (``can_bind`` said so)
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        note = f"bound by invitation {inv.id} on {when}, from {escaped(peer)}"
        try:
            append_key(seats.path, inv.seat, key, note)
        except (SeatsError, OSError) as e:
            raise InvitationRefused(f"could not bind the key: {e}") from None

    try:
        if key is not None:
            grant = invitations.bind(token, key, can_bind, bind)
            log.info(
                "invitation %s bound a key to seat=%s from=%s key=%s",
                grant.invitation,
                grant.seat,
                peer,
                key.get_fingerprint(),
            )
        else:
            # A browser sits in the seat as the seats file has it: with no such seat there it could
            # not sit, so nothing of the invitation is used (an SSH key's bind checks the same).
            inv = invitations.admitting(token)
            if not inv.spectators and seats_in_force(seats).by_name(inv.seat) is None:
                raise InvitationRefused(f"invitation {inv.id}: there is no seat {inv.seat!r} in the seats file")
            grant = invitations.join(token)
            if grant.cookie:
                log.info(
                    "invitation %s let in browser %s seat=%s from=%s", grant.invitation, grant.browser, grant.seat, peer
                )
    except InvitationsError as e:
        log.error("invitation refused from=%s: %s", peer, e)
        raise InvitationRefused(str(e)) from None
    return grant


# -------------------------------------------------------------- algorithms

# What current OpenSSH (9.x) offers by default, strongest first; SHA-1 only
# where the organiser turns it on (``fireteam serve --sha1``), as OpenSSH left it.
_KEX = (
    "mlkem768x25519-sha256", "sntrup761x25519-sha512", "sntrup761x25519-sha512@openssh.com",
    "curve25519-sha256", "curve25519-sha256@libssh.org",
    "ecdh-sha2-nistp256", "ecdh-sha2-nistp384", "ecdh-sha2-nistp521",
    "diffie-hellman-group-exchange-sha256",
    "diffie-hellman-group16-sha512", "diffie-hellman-group18-sha512", "diffie-hellman-group14-sha256",
)  # fmt: skip
_CIPHERS = (
    "chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr",
    "aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
)  # fmt: skip
_MACS = (
    "umac-64-etm@openssh.com", "umac-128-etm@openssh.com",
    "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com",
    "umac-64@openssh.com", "umac-128@openssh.com", "hmac-sha2-256", "hmac-sha2-512",
)  # fmt: skip
_SIGNATURES = (
    "ssh-ed25519", "sk-ssh-ed25519@openssh.com",
    "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "sk-ecdsa-sha2-nistp256@openssh.com",
    "rsa-sha2-512", "rsa-sha2-256",
)  # fmt: skip
_SHA1_KEX, _SHA1_MACS, _SHA1_SIGNATURES = (
    ("diffie-hellman-group14-sha1",),
    ("hmac-sha1-etm@openssh.com", "hmac-sha1"),
    ("ssh-rsa",),
)


def algorithms(*, sha1: bool) -> dict[str, list[str]]:
    """asyncssh's options for the algorithms offered: OpenSSH's defaults that this asyncssh has."""

    def known(names: tuple[str, ...], extra: tuple[str, ...], have: list[bytes]) -> list[str]:
        return [n for n in names + (extra if sha1 else ()) if n.encode() in have]

    return dict(
        kex_algs=known(_KEX, _SHA1_KEX, get_kex_algs()),
        encryption_algs=known(_CIPHERS, (), get_encryption_algs()),
        mac_algs=known(_MACS, _SHA1_MACS, get_mac_algs()),
        signature_algs=known(_SIGNATURES, _SHA1_SIGNATURES, get_public_key_algs()),
        compression_algs=["none"],
    )


def terminal_options(key: asyncssh.SSHKey, limits: Limits, keepalive_s: float, misses: int) -> dict[str, Any]:
    """asyncssh's server options for a terminal and nothing else (no forwarding, no scp): a client
    silent for ``misses`` keepalives ``keepalive_s`` apart is dropped."""
    return dict(
        server_host_keys=[key],
        line_editor=False,
        encoding="utf-8",
        errors="replace",
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        keepalive_interval=keepalive_s,
        keepalive_count_max=misses,
        login_timeout=limits.login_grace_s,
        **algorithms(sha1=limits.sha1),
    )


async def accept_each(listener: socket.socket, log: logging.Logger, take: Callable[[socket.socket, str], None]) -> None:
    """Accept the connections on ``listener`` for ever, each given to ``take`` with its peer ``host:port``."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            sock, addr = await loop.sock_accept(listener)
        except OSError as e:  # out of descriptors, say: the next connection may fare better
            log.warning("could not accept a connection: %s", e)
            await asyncio.sleep(0.1)
            continue
        take(sock, f"{addr[0]}:{addr[1]}")


def signature_algorithm(signature: bytes) -> str:
    """The algorithm an SSH signature blob names (its first string)."""
    n = int.from_bytes(signature[:4], "big")
    return signature[4 : 4 + n].decode("ascii", "replace")


def refuse_sha1_signatures(conn: asyncssh.SSHServerConnection, server: FireteamServer) -> None:
    """Refuse a login signed with SHA-1 (``ssh-rsa``) unless the organiser allows SHA-1.

    asyncssh advertises ``signature_algs`` to the client but accepts any
    signature its key type can check; the check is added to this connection.
    """
    if server.limits.sha1:
        return
    allowed = set(algorithms(sha1=False)["signature_algs"])
    check = conn.validate_public_key

    async def validate(username: str, key_data: bytes, msg: bytes, signature: bytes) -> bool:
        if signature and (alg := signature_algorithm(signature)) not in allowed:
            peer = conn.get_extra_info("peername")
            server.quiet_log.warning(
                f"signature {peer[0] if peer else '?'}",
                "login refused from=%s user=%r: signed with %s (SHA-1 is off)",
                f"{peer[0]}:{peer[1]}" if peer else "?",
                loggable_user(username),
                alg,
            )
            return False
        return await check(username, key_data, msg, signature)

    conn.validate_public_key = validate  # type: ignore[method-assign]


# ------------------------------------------------------------------ server


class FireteamServer:
    """The SSH server: tables, seats, and the sessions seated at them."""

    def __init__(
        self,
        tables: Sequence[Table],
        seats: SeatsFile | Seats,
        key: asyncssh.SSHKey,
        *,
        app_factory: AppFactory = fireteam_app,
        log: logging.Logger | None = None,
        output_limit: int = OUTPUT_LIMIT,
        keepalive: float = KEEPALIVE_S,
        log_commands: bool = True,
        limits: Limits | None = None,
        lang: str | None = None,
        invitations: Invitations | None = None,
    ) -> None:
        self._tables = list(tables)
        #: The invitations store (``tui.ssh.invitations.store``), if this server takes invitations.
        self.invitations = invitations
        #: The language of a seat whose seats-file entry and client name none (default: this process's).
        self.lang = readers.checked(lang) if lang else readers.lang()
        self._seats = seats
        self.key = key
        self.app_factory = app_factory
        self.log = log or logging.getLogger("fireteam.serve")
        self.output_limit = output_limit
        self.keepalive = keepalive
        self.limits = limits or Limits()
        #: Counts the connections not logged in yet, when this process accepts them (not in a seat worker).
        self.gate: Gate | None = None
        #: ... and the browsers' not seats yet, counted apart (``tui.ssh.web.gate``).
        self.web_gate: WebGate | None = None
        self.quiet_log = QuietLog(self.log)
        self.sessions: list[SeatSession] = []
        #: Where this process's spectators watch: shared screens, drawn once for all of them.
        self.stands = Stands(self)
        #: Keeps the cycle collector off the seats' backs (``tui.ssh.workers.heap``); told of every write to a seat.
        self.heap = HeapSettler(self.log)
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._watcher: asyncio.Task[None] | None = None
        #: The browser door (``fireteam serve --web``), once opened; the listener, in the process that listens.
        self.web: WebDoor | None = None
        #: Where plain seats' command lines are kept between sessions (``tui.ssh.seating.history``; None: nowhere).
        self.seat_history: SeatHistories | None = None
        self._web_listener: socket.socket | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._web_tasks: set[asyncio.Task[None]] = set()
        self.seats_poll = SEATS_POLL_S
        self._unsubscribe = [log_table(t, lambda: self.seats, self.log) for t in self._tables] if log_commands else []
        # Before any seat's app listens: the collector waits from the moment a command arrives (tui.ssh.workers.heap).
        self._unsubscribe += [t.game.subscribe(self.heap.command, role=REFEREE) for t in self._tables]
        for t in self._tables:  # with table dice, each roll is asked at its owner's own screen (issue #61)
            t.game.seated = partial(self.asked_roles, t)

    @property
    def tables(self) -> Sequence[Table]:
        return self._tables

    @property
    def seats(self) -> Seats:
        return seats_in_force(self._seats)

    def seated(self) -> dict[str, list[Seat]]:
        out: dict[str, list[Seat]] = {}
        for s in self.sessions:
            if s.table is not None:
                out.setdefault(s.table.name, []).append(s.seat)
        return out

    def asked_roles(self, table: Table) -> set[str]:
        """The roles seated at ``table``, each of which can be asked for its own dice (a
        spectator's role is no roll's)."""
        return {s.seat.role for s in self.sessions if s.table is table}

    def session_started(self, session: SeatSession) -> None:
        self.sessions.append(session)
        self.heap.seat_arrived()
        if self._watcher is None and isinstance(self._seats, SeatsFile):
            self._watcher = asyncio.get_running_loop().create_task(self._watch_seats(), name="seats file")

    async def _watch_seats(self) -> None:
        """Read the seats file again whenever it changes, and apply it to the open sessions."""
        while True:
            await asyncio.sleep(self.seats_poll)
            self.check_seats()

    def check_seats(self) -> None:
        """End the sessions whose seat the seats file no longer gives their key, or gives another role.

        The role is read once, when a session opens; a changed one takes effect
        as the player connects again (his screen is built for one role).
        """
        seats = self.seats
        for session in list(self.sessions):
            if session.recheck is not None:
                ended = session.recheck(seats)
            else:
                now = seats.seat_of(session.key) if session.key else seats.by_name(session.seat.name)
                why = seat_change(session.seat, now)
                ended = None if why is None else (why, "seat")
            if ended is not None:
                session.end(*ended)

    def redeem(self, token: str, peer: str, *, key: asyncssh.SSHKey | None = None) -> Grant:
        """Use an invitation's token (see :func:`redeem_invitation`); ``InvitationRefused`` if it lets nobody in."""
        return redeem_invitation(self.invitations, self._seats, self.log, token, peer, key=key)

    def invitation_open(self, token: str) -> bool:
        """Whether ``token`` is an open invitation's (read only: nothing is used)."""
        if self.invitations is None:
            return False
        try:
            self.invitations.check(token)
        except InvitationRefused:
            return False
        except InvitationsError as e:
            self.quiet_log.warning("invitations", "every invitation refused: %s", e)
            return False
        return True

    def kick(self, seat: str, by: str) -> int:
        """Close every session of ``seat`` (the referee's ``kick``, the organiser's console)."""
        self.log.warning("kick seat=%s by=%s", seat, by)
        return self.close_seat(seat, closed_by(by))

    def close_seat(self, seat: str, why: i18n.Text) -> int:
        ended = [s for s in self.sessions if s.seat.name == seat]
        for session in ended:
            session.end(why, "kicked")
        return len(ended)

    def session_ended(self, session: SeatSession) -> None:
        if session in self.sessions:
            self.sessions.remove(session)
            if session.table is not None:
                session.table.game.seats_changed()
        self.heap.seat_left(len(self.sessions))

    def _ssh_options(self) -> dict[str, Any]:
        return dict(
            terminal_options(self.key, self.limits, self.keepalive, KEEPALIVE_MISSES),
            public_key_auth=True,
            password_auth=False,
            kbdint_auth=False,
            gss_host=None,
        )

    def arrived(self, peer: str, close: Callable[[], None] | None = None) -> bool:
        """An SSH connection this process accepted: whether it may stay (the unauthenticated limits);
        ``close`` closes it if it idles while others wait (None: never)."""
        return self.gate is None or self.gate.admit(peer, close)

    def authenticating(self, peer: str) -> None:
        """``peer``'s client finished the key exchange and asked for a user."""
        if self.gate is not None:
            self.gate.authenticating(peer)

    async def _sweep(self) -> None:
        """Clear idle connections not logged in while many wait (``Gate.sweep``), twice a second."""
        while self.gate is not None:
            await asyncio.sleep(SWEEP_S)
            self.gate.sweep()

    def logged_in(self, peer: str) -> None:
        """``peer`` logged in over SSH, or its browser's websocket is a seat now."""
        if self.gate is not None:
            self.gate.logged_in(peer)
        if self.web_gate is not None:
            self.web_gate.closed(peer)

    def closed(self, peer: str) -> None:
        if self.gate is not None:
            self.gate.closed(peer)
        if self.web_gate is not None:
            self.web_gate.closed(peer)

    def misbehaved(self, peer: str) -> None:
        """``peer``'s connection was closed for flooding after it logged in: its address counts a penalty."""
        if self.gate is not None:
            self.gate.penalise(peer)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen; return the port (useful with ``port=0``)."""
        carry_readers_into_threads(asyncio.get_running_loop())
        self.gate = Gate(self.limits, self.log)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._acceptor = await asyncssh.create_server(lambda: _Connection(self), host, port, **self._ssh_options())
        bound = self._acceptor.get_port()
        self.log.info("listening on %s:%d, host key %s", host, bound, self.key.get_fingerprint())
        return bound

    async def accept(self, sock: socket.socket, peer: str) -> None:
        """Serve one connection accepted elsewhere (by the table process, for a seat worker) until it closes."""
        carry_readers_into_threads(asyncio.get_running_loop())
        try:
            conn = await asyncssh.run_server(sock, server_factory=lambda: _Connection(self), **self._ssh_options())
        except (asyncssh.Error, OSError) as e:
            # A refused key is logged by _Connection: this only notes the connection's end.
            self.log.info("connection from=%s ended before login: %s", peer, e)
            return
        await conn.wait_closed()

    def open_web(self, *, port: int, public_url: str = "", tls: ssl.SSLContext | None = None) -> WebDoor:
        """Take browser seats too (``tui.ssh.web.door``): ``port`` is the one the browsers reach (it names the
        cookie)."""
        from tui.ssh.web.door import WebDoor  # aiohttp is imported only by a server that takes browsers

        self.web = WebDoor(self, port=port, public_url=public_url, tls=tls)
        return self.web

    async def start_web(self, host: str, port: int) -> int:
        """Listen for browsers (after :meth:`open_web`); return the port."""
        assert self.web is not None
        carry_readers_into_threads(asyncio.get_running_loop())
        if self.web_gate is None:
            self.web_gate = WebGate(self.limits, self.log)
        listener = socket.create_server((host, port))
        listener.setblocking(False)
        self._web_listener = listener
        self._track_web(accept_each(listener, self.log, self._take_web))
        bound = listener.getsockname()[1]
        self.web.port = self.web.port or bound
        self.log.info("browser seats on %s:%d", host, bound)
        return bound

    def _track_web(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._web_tasks.add(task)
        task.add_done_callback(self._web_tasks.discard)

    def _take_web(self, sock: socket.socket, peer: str) -> None:
        if self.web_gate is None or self.web_gate.admit(peer):
            self._track_web(self.serve_web(sock, peer))
        else:
            sock.close()

    async def serve_web(self, sock: socket.socket, peer: str) -> None:
        """Serve one browser's connection, accepted here or by the table process, until it closes."""
        assert self.web is not None
        carry_readers_into_threads(asyncio.get_running_loop())
        try:
            await self.web.serve(sock, peer)
        finally:
            self.closed(peer)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        if self._web_listener is not None:
            self._web_listener.close()
            self._web_listener = None
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
            self._acceptor = None
        for session in list(self.sessions):
            if session.sitting:  # a screen's or a plain seat's (the stands end their spectators with them)
                session.end(M("the server is stopping"), "stopped")
        await self.stands.close()  # their spectators' sessions end with them
        for _try in range(100):
            if not self.sessions:
                break
            await asyncio.sleep(0.05)
        if self.web is not None:
            await self.web.close()
        for task in list(self._web_tasks):
            task.cancel()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self.heap.close()
        self.log.info("server closed")


class _Connection(asyncssh.SSHServer):
    """One client connection: authentication by public key, then its sessions."""

    def __init__(self, server: FireteamServer) -> None:
        self._server = server
        self._candidate: Seat | None = None
        self._candidate_key: asyncssh.SSHKey | None = None
        self._candidate_token: str | None = None
        self._conn: asyncssh.SSHServerConnection | None = None
        self.seat: Seat | None = None
        #: The game the invitation that bound this connection's key named ("": none).
        self.game = ""
        self.key = b""  # the public data of the key that logged in
        self.username = ""
        self.peer = "?"
        self._sessions: list[TableSession] = []
        self._refused = False
        limits = server.limits
        #: The window-change requests its sessions may send (``Limits.window_change_rate``).
        self._window_changes = TokenBucket(limits.window_change_rate, limits.window_change_burst)
        self._flooded = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        if not self._server.arrived(self.peer, conn.abort):
            self._refused = True  # logged by the gate
            conn.abort()
            return
        refuse_sha1_signatures(conn, self._server)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._server.closed(self.peer)
        if self.seat is None:
            self._server.log.info(
                "connection closed before login from=%s user=%r", self.peer, loggable_user(self.username)
            )
        else:
            self._server.log.info(
                "disconnected seat=%s role=%s from=%s%s",
                self.seat.name,
                self.seat.role,
                self.peer,
                f": {exc}" if exc else "",
            )

    # Every auth callback yields once: under Python 3.12+ Textual switches the
    # loop to eager tasks, and a callback that never yields stalls the next login.

    async def begin_auth(self, username: str) -> bool:
        await asyncio.sleep(0)
        self._server.authenticating(self.peer)
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        await asyncio.sleep(0)
        seat = self._server.seats.seat_for(key)
        # A key nobody registered, with an invitation's token as the user name (``join-TOKEN``):
        # it is bound to the invitation's seat once its signature is checked (auth_completed).
        token = token_in(username) if seat is None else None
        if seat is None and not (token and self._server.invitation_open(token)):
            self._server.log.info(
                "unknown key refused from=%s user=%r key=%s%s",
                self.peer,
                loggable_user(username),
                key.get_fingerprint(),
                " (no open invitation has that token)" if token_in(username) else "",
            )
            return False
        # asyncssh checks the signature right after this returns, with no await
        # in between, and calls auth_completed() at once on success: the last
        # candidate is the key that logged in.
        self._candidate = seat
        self._candidate_key = key
        self._candidate_token = token
        return True

    async def auth_completed(self) -> None:
        self.seat = self._candidate  # before yielding: no later key attempt can change it
        key, token = self._candidate_key, self._candidate_token
        self._server.logged_in(self.peer)
        self.key = key.public_data if key is not None else b""
        await asyncio.sleep(0)
        if self.seat is None and token is not None and key is not None:
            self.seat = self._bind(token, key)
            if self.seat is None:
                return
        assert self.seat is not None
        self._server.log.info(
            "login seat=%s role=%s from=%s user=%r",
            self.seat.name,
            self.seat.role,
            self.peer,
            loggable_user(self.username),
        )

    def _bind(self, token: str, key: asyncssh.SSHKey) -> Seat | None:
        """Bind the key that just logged in as ``join-TOKEN`` to the invitation's seat; its seat, or None (and the
        connection closed) if the invitation no longer lets it in."""
        try:
            grant = self._server.redeem(token, self.peer, key=key)
        except InvitationRefused as e:
            self._server.log.warning("invitation refused from=%s key=%s: %s", self.peer, key.get_fingerprint(), e)
            self._close()
            return None
        seat = self._server.seats.seat_of(key.public_data)  # the seats file, read again with the key in it
        if seat is None or seat.name != grant.seat:
            self._server.log.error("the key bound to seat=%s is not in the seats file read again", grant.seat)
            self._close()
            return None
        self.game = grant.game
        return seat

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def session_requested(self) -> TableSession | bool:
        now = self._server.seats.seat_of(self.key)
        if self.seat is None or now is None or (now.name, now.role) != (self.seat.name, self.seat.role):
            # A seat removed (or changed) while its connection stays open opens nothing more.
            return False
        self._sessions = [s for s in self._sessions if not s.gone]
        limit = self._server.limits.sessions_per_connection
        if len(self._sessions) >= limit:
            self._server.quiet_log.warning(
                f"sessions {self.peer}",
                "session refused seat=%s from=%s: %d sessions open on this connection (limit %d)",
                self.seat.name,
                self.peer,
                len(self._sessions),
                limit,
            )
            return False
        # The seat as the file has it now: a language changed there counts from the next session.
        session = TableSession(
            self._server, now, self.username, self.peer, self.key, self.game, window_change=self._window_change
        )
        self._sessions.append(session)
        return session

    def _window_change(self) -> bool:
        """One of its sessions' clients sent a window change: whether it is within the connection's budget.

        Redraws are already held to ``resize_rate``, but receiving each request (its packet
        decrypted, in this worker's loop) is what a client sending thousands a second takes
        from the other seats: one over the budget is disconnected, saying why."""
        if self._window_changes.take(1):
            return True
        if not self._flooded and self._conn is not None:
            self._flooded = True
            limits = self._server.limits
            seat = self.seat
            self._server.log.warning(
                "disconnected seat=%s role=%s from=%s: more window changes than %d at once and %g a second",
                seat.name if seat else "?",
                seat.role if seat else "?",
                self.peer,
                limits.window_change_burst,
                limits.window_change_rate,
            )
            self._server.misbehaved(self.peer)
            reason = _("Too many window changes: at most {burst} at once and {rate:g} a second.")
            self._conn.disconnect(
                asyncssh.DISC_BY_APPLICATION,
                reason.format(burst=limits.window_change_burst, rate=limits.window_change_rate),
            )
        return False
