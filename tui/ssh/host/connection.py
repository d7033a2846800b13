"""One SSH client connection to the server: authentication by public key (or an invitation's
token as the user name), then its sessions, each the door to a seat."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

import asyncssh

from tui.ssh.host.algorithms import refuse_sha1_signatures
from tui.ssh.host.session import TableSession
from tui.ssh.invitations.store import Grant, InvitationRefused, loggable_user, token_in
from tui.ssh.language import _
from tui.ssh.limits import Limits, QuietLog, TokenBucket
from tui.ssh.seating.seat import Host
from tui.ssh.seatsfile import Seat, Seats


class Server(Host, Protocol):
    """What a connection needs of the server (``tui.ssh.host.server.FireteamServer``), besides a seat's."""

    quiet_log: QuietLog
    limits: Limits
    log: logging.Logger

    @property
    def seats(self) -> Seats: ...

    def arrived(self, peer: str, close: Callable[[], None]) -> bool: ...

    def authenticating(self, peer: str) -> None: ...

    def logged_in(self, peer: str) -> None: ...

    def closed(self, peer: str) -> None: ...

    def misbehaved(self, peer: str) -> None: ...

    def redeem(self, token: str, peer: str, *, key: asyncssh.SSHKey | None = None) -> Grant: ...

    def invitation_open(self, token: str) -> bool: ...


class SSHConnection(asyncssh.SSHServer):
    """One client connection: authentication by public key, then its sessions."""

    def __init__(self, server: Server) -> None:
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
        refuse_sha1_signatures(conn, self._server.limits, self._server.quiet_log)

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
