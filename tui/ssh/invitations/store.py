"""Invitations: a link (and an SSH user name) that seats a player with no key registered.

``fireteam invite bruno`` makes an invitation to the seat ``bruno`` of the
seats file, and prints its token once, in a browser link
(``http://host:8080/join/TOKEN``) and an SSH command (``ssh -p 2222
join-TOKEN@host``).  ``fireteam invite --spectators`` makes a spectator link,
which seats whoever opens it as a spectator, under a guest name of its own.

* A token is 192 random bits from ``secrets``; the store keeps only its SHA-256,
  and a token is compared with every stored hash in constant time
  (``hmac.compare_digest``, no early exit).  Nothing writes a token anywhere
  else: not the log, not a seat's screen.
* Each invitation has an expiry and a number of uses.  A *use* is a browser
  that exchanged the token for its own cookie (that browser opening the link
  again uses nothing), or an SSH key bound to the seat (``tui.ssh.seatsfile``:
  appended to the seats file).  Revoking an invitation, or its expiry, ends the
  browsers it let in; a key it bound stays the seat's until the organiser takes
  it out of the seats file, like any other key.
* A browser's cookie is another 256-bit secret, also kept hashed.

The store is ``invitations.json`` in the data folder, its owner's only.  Two
kinds of process write it: ``fireteam invite`` (new invitations, revoking)
and the table process of ``fireteam serve`` (uses, browsers, bound keys); each
write takes the lock file ``invitations.lock``, reads the store afresh, and
replaces it whole (a new file, synced, renamed over the old one), so a reader
sees the old store or the new one, never half of one.  Seat workers only read
it; what they would write they ask of the table process (``wire.Redeem``).
A store that cannot be read is never written over: every token is refused
until the organiser mends or removes it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec

if TYPE_CHECKING:
    import asyncssh

_T = TypeVar("_T")

STORE_NAME = "invitations.json"
LOCK_NAME = "invitations.lock"
#: Bytes of random in a token (192 bits) and in a browser's cookie (256 bits).
TOKEN_BYTES, COOKIE_BYTES = 24, 32
#: What a token looks like (``secrets.token_urlsafe(TOKEN_BYTES)``): anything else is refused unread.
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
COOKIE = re.compile(r"[A-Za-z0-9_-]{43}")
#: The SSH user name that carries a token: ``join-TOKEN``.
SSH_PREFIX = "join-"
#: Defaults and bounds of an invitation's life.
DEFAULT_EXPIRES_S = 12 * 3600.0
MAX_EXPIRES_S = 30 * 24 * 3600.0
DEFAULT_SEAT_USES, DEFAULT_SPECTATOR_USES, MAX_USES = 4, 100, 500
#: Open invitations at once, and browsers let in over all of them: the store stays small.
MAX_OPEN, MAX_BROWSERS = 200, 2000
#: The store's largest size; a bigger file is not read.
MAX_STORE_BYTES = 2 << 20
#: Invitations ended (expired or revoked) longer ago than this are dropped from the store.
KEEP_ENDED_S = 7 * 24 * 3600.0


class InvitationsError(Exception):
    """The store cannot be read or written (the message says which file and why)."""


class InvitationRefused(Exception):
    """A token, or a cookie, lets nobody in; the message is for the organiser's log, never for the client."""


class Invitation(msgspec.Struct, kw_only=True):
    #: A public name for ``--list``, ``--revoke`` and the log (not derived from the token).
    id: str
    #: SHA-256 of the token, in hex.
    hash: str
    #: The seat's name in the seats file; "" for a spectator link.
    seat: str
    #: The game it seats the player at; "" to let him choose (or the only one).
    game: str = ""
    created: float
    expires: float
    uses: int
    used: int = 0
    #: When it was revoked (0: it was not).
    revoked: float = 0.0
    #: Fingerprints of the SSH keys it bound to the seat.
    keys: list[str] = msgspec.field(default_factory=list)

    @property
    def spectators(self) -> bool:
        return not self.seat

    def state(self, now: float) -> str:
        """``open``, ``used up``, ``expired`` or ``revoked`` (English: the organiser's words)."""
        if self.revoked:
            return "revoked"
        if now >= self.expires:
            return "expired"
        if self.used >= self.uses:
            return "used up"
        return "open"

    def admits_browsers(self, now: float) -> bool:
        """Browsers already let in stay in while it is neither revoked nor expired (used up is fine)."""
        return not self.revoked and now < self.expires


class Browser(msgspec.Struct, kw_only=True):
    """A browser that exchanged an invitation's token for a cookie."""

    #: Public, for the log and a spectator's guest name.
    id: str
    #: SHA-256 of its cookie, in hex.
    hash: str
    invitation: str
    created: float
    #: SHA-256 of its finder, in hex ("" for a browser let in before there were finders): the second,
    #: ``SameSite=Lax`` cookie, sent when the link is opened again from another site (a chat app), where the
    #: ``Strict`` one is not; it only finds the seat the browser holds (no use spent again), and seats nobody.
    finder: str = ""


class _Store(msgspec.Struct):
    version: int = 1
    invitations: list[Invitation] = msgspec.field(default_factory=list)
    browsers: list[Browser] = msgspec.field(default_factory=list)


class Grant(msgspec.Struct, frozen=True, kw_only=True):
    """Who an invitation seats: what a door needs (and what crosses the wire to a seat worker)."""

    invitation: str
    #: The seat's name; for a spectator link, the browser's guest name.
    seat: str
    spectators: bool
    game: str
    expires: float
    #: A new browser's cookie (only from :meth:`Invitations.join`, and only the first time), and its finder.
    cookie: str = ""
    finder: str = ""
    #: The browser this grant is for ("" for an SSH key).
    browser: str = ""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _matching(items: Iterable[_T], stored: Callable[[_T], str], secret: str) -> _T | None:
    """The item whose stored hash is ``secret``'s: every one compared in constant time, with no early exit."""
    wanted = digest(secret)
    found = None
    for item in items:
        if hmac.compare_digest(stored(item), wanted):
            found = item
    return found


#: How the seat name of a spectator let in by a link starts.
GUEST_PREFIX = "watch-"


def guest_name(browser: str) -> str:
    """The seat name of a spectator let in by a link (one word: it is written in the log and ``who``)."""
    return GUEST_PREFIX + browser


def token_in(username: str) -> str | None:
    """The token an SSH user name ``join-TOKEN`` carries, if it looks like one."""
    if username.startswith(SSH_PREFIX) and TOKEN.fullmatch(token := username[len(SSH_PREFIX) :]):
        return token
    return None


def loggable_user(username: str) -> str:
    """An SSH user name as the log may show it: a ``join-`` name's token is never written."""
    return SSH_PREFIX + "…" if username.startswith(SSH_PREFIX) else username


def parse_duration(text: str) -> float:
    """``12h``, ``30m``, ``2d``, ``90s`` (or plain seconds) as seconds; ValueError if it is not one, or not
    within (0, 30 days]."""
    found = re.fullmatch(r"\s*(\d{1,7})\s*([smhd]?)\s*", text)
    if not found:
        raise ValueError(f"not a duration: {text!r} (e.g. 12h, 30m, 2d)")
    seconds = int(found[1]) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[found[2]]
    if not 0 < seconds <= MAX_EXPIRES_S:
        raise ValueError(f"a duration from 1 s to {MAX_EXPIRES_S / 86400:.0f} days, not {text!r}")
    return float(seconds)


@dataclass
class _Stamp:
    ino: int
    mtime_ns: int
    size: int


class Invitations:
    """The invitations store of a data folder (see the module's doc)."""

    def __init__(self, folder: Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = folder / STORE_NAME
        self.lock_path = folder / LOCK_NAME
        self._clock = clock
        self._stamp: _Stamp | None = None
        self._store = _Store()

    # ------------------------------------------------------------- reading

    def _read(self) -> _Store:
        """The store as it is on disk now (read again only when the file changed)."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._store = None, _Store()
            return self._store
        except OSError as e:
            raise InvitationsError(f"{self.path}: cannot read the invitations: {e}") from None
        stamp = _Stamp(st.st_ino, st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return self._store
        if st.st_size > MAX_STORE_BYTES:
            raise InvitationsError(f"{self.path}: larger than {MAX_STORE_BYTES >> 20} MB: not an invitations store")
        try:
            raw = self.path.read_bytes()
            store = msgspec.json.decode(raw, type=_Store)
        except (OSError, msgspec.DecodeError) as e:
            raise InvitationsError(
                f"{self.path}: cannot read the invitations ({e}); mend or remove the file (every token is refused "
                "meanwhile)"
            ) from None
        if store.version != 1:
            raise InvitationsError(f"{self.path}: an invitations store of version {store.version}, not 1")
        self._stamp, self._store = stamp, store
        return store

    def all(self) -> list[Invitation]:
        return list(self._read().invitations)

    def browsers_by_invitation(self) -> dict[str, int]:
        """How many browsers each invitation has let in."""
        counts: dict[str, int] = {}
        for b in self._read().browsers:
            counts[b.invitation] = counts.get(b.invitation, 0) + 1
        return counts

    def _find(self, store: _Store, token: str) -> Invitation | None:
        """The invitation of ``token``."""
        if not TOKEN.fullmatch(token):
            return None
        return _matching(store.invitations, lambda inv: inv.hash, token)

    def check(self, token: str) -> Invitation:
        """The open invitation of ``token`` (without using it); else ``InvitationRefused``, saying why (for the log)."""
        inv = self._find(self._read(), token)
        if inv is None:
            raise InvitationRefused("no such invitation")
        state = inv.state(self._clock())
        if state != "open":
            raise InvitationRefused(f"invitation {inv.id} is {state}")
        return inv

    def admitting(self, token: str) -> Invitation:
        """The invitation of ``token`` if it still lets browsers in (a used up one does: those it let in stay);
        else ``InvitationRefused``."""
        inv = self._find(self._read(), token)
        if inv is None:
            raise InvitationRefused("no such invitation")
        if not inv.admits_browsers(self._clock()):
            raise InvitationRefused(f"invitation {inv.id} is {inv.state(self._clock())}")
        return inv

    def browser(self, cookie: str) -> Grant:
        """Who the browser holding ``cookie`` is; ``InvitationRefused`` if nobody (any more)."""
        store = self._read()
        if not COOKIE.fullmatch(cookie):
            raise InvitationRefused("no such browser")
        found = _matching(store.browsers, lambda b: b.hash, cookie)
        if found is None:
            raise InvitationRefused("no such browser")
        inv = next((i for i in store.invitations if i.id == found.invitation), None)
        if inv is None or not inv.admits_browsers(self._clock()):
            state = inv.state(self._clock()) if inv is not None else "gone"
            raise InvitationRefused(f"browser {found.id}: invitation {found.invitation} is {state}")
        return _grant(inv, found)

    def found(self, finder: str) -> Grant:
        """The seat of the browser whose finder is ``finder`` (``InvitationRefused`` if none, or not any more).
        Only to find a seat the browser holds already: the finder lets nobody in."""
        if not COOKIE.fullmatch(finder):
            raise InvitationRefused("no such browser")
        store = self._read()
        found = _matching(store.browsers, lambda b: b.finder, finder)  # (one with no finder matches none)
        inv = None if found is None else next((i for i in store.invitations if i.id == found.invitation), None)
        if found is None or inv is None or not inv.admits_browsers(self._clock()):
            raise InvitationRefused("no such browser")
        return _grant(inv, found)

    def state_of(self, invitation: str) -> str:
        """``open``, ``used up``, ``expired``, ``revoked``, or ``gone`` (no such invitation any more)."""
        inv = next((i for i in self._read().invitations if i.id == invitation), None)
        return "gone" if inv is None else inv.state(self._clock())

    # ------------------------------------------------------------- writing

    @contextlib.contextmanager
    def _writing(self) -> Iterator[_Store]:
        """The store, read afresh under the lock; what the block changed is written back when it ends well.

        A lock or a store that cannot be written (a full disk, a folder made read-only, a directory in
        the lock's place) is an ``InvitationsError`` saying so, as one that cannot be read is: the
        token is refused and the organiser told why, never a server's error."""
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise InvitationsError(f"{self.lock_path}: cannot lock the invitations: {e}") from None
        import fcntl  # here: the server is POSIX-only, and ``fireteam --help`` builds this command's parser

        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._stamp = None  # read afresh: another process may have written it
            store = self._read()
            try:
                yield store
                self._prune(store)
                self._write(store)
            except OSError as e:
                raise InvitationsError(f"{self.path}: cannot write the invitations: {e}") from None
            finally:
                # What the block changed in the store read is on disk now, or must be forgotten:
                # read afresh next time, never the changes of a write that failed.
                self._stamp = None
        finally:
            os.close(fd)  # and the lock with it

    def _write(self, store: _Store) -> None:
        data = msgspec.json.encode(store) + b"\n"
        if len(data) > MAX_STORE_BYTES:
            raise InvitationsError(f"{self.path}: the store would grow past {MAX_STORE_BYTES >> 20} MB")
        tmp = self.path.with_name(f"{STORE_NAME}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):  # a write that failed leaves no temporary file
                os.unlink(tmp)
            raise
        dir_fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        self._stamp = None

    def _prune(self, store: _Store) -> None:
        """Forget invitations ended long ago, and their browsers."""
        now = self._clock()
        keep = [i for i in store.invitations if (i.revoked or i.expires) > now - KEEP_ENDED_S]
        ids = {i.id for i in keep}
        store.invitations = keep
        store.browsers = [b for b in store.browsers if b.invitation in ids]

    def create(
        self, seat: str, *, game: str = "", expires_s: float = DEFAULT_EXPIRES_S, uses: int = 0
    ) -> tuple[str, Invitation]:
        """A new invitation to ``seat`` ("" for a spectator link): its token (shown once) and its record."""
        if not 0 < expires_s <= MAX_EXPIRES_S:
            raise ValueError(f"an invitation lasts from 1 s to {MAX_EXPIRES_S / 86400:.0f} days")
        uses = uses or (DEFAULT_SEAT_USES if seat else DEFAULT_SPECTATOR_USES)
        if not 0 < uses <= MAX_USES:
            raise ValueError(f"an invitation has from 1 to {MAX_USES} uses")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = self._clock()
        with self._writing() as store:
            if sum(i.state(now) == "open" for i in store.invitations) >= MAX_OPEN:
                raise InvitationsError(f"{MAX_OPEN} invitations are open already: revoke some first")
            taken = {i.id for i in store.invitations}
            inv = Invitation(
                id=_new_id(taken),
                hash=digest(token),
                seat=seat,
                game=game,
                created=now,
                expires=now + expires_s,
                uses=uses,
            )
            store.invitations.append(inv)
        return token, inv

    def revoke(self, what: str) -> list[Invitation]:
        """Revoke the invitation named ``what`` (its id), or every open one of the seat ``what``
        (``spectators``: every spectator link); the ones revoked."""
        now = self._clock()
        with self._writing() as store:
            hit = [
                i
                for i in store.invitations
                if not i.revoked
                and (i.id == what or (i.seat == what and i.seat) or (what == "spectators" and i.spectators))
            ]
            for inv in hit:
                inv.revoked = now
        return hit

    def join(self, token: str) -> Grant:
        """A browser opens the link: the grant, with a new cookie (the web door lets a browser this invitation let
        in already back in itself, using nothing).  ``InvitationRefused`` if the token lets nobody in."""
        self.admitting(token)  # unlocked first: a forged token costs no lock and no write
        now = self._clock()
        with self._writing() as store:
            inv = self._find(store, token)
            if inv is None or not inv.admits_browsers(now):
                raise InvitationRefused(
                    "no such invitation" if inv is None else f"invitation {inv.id} is {inv.state(now)}"
                )
            if inv.used >= inv.uses:
                raise InvitationRefused(f"invitation {inv.id} is used up ({inv.uses} uses)")
            if len(store.browsers) >= MAX_BROWSERS:
                raise InvitationRefused(f"{MAX_BROWSERS} browsers have been let in already")
            fresh, finder = secrets.token_urlsafe(COOKIE_BYTES), secrets.token_urlsafe(COOKIE_BYTES)
            browser = Browser(
                id=_new_id({b.id for b in store.browsers}),
                hash=digest(fresh),
                invitation=inv.id,
                created=now,
                finder=digest(finder),
            )
            store.browsers.append(browser)
            inv.used += 1
            grant = _grant(inv, browser)
        return msgspec.structs.replace(grant, cookie=fresh, finder=finder)

    def bind(
        self,
        token: str,
        key: asyncssh.SSHKey,
        can_bind: Callable[[Invitation], None],
        bind_key: Callable[[Invitation], None],
    ) -> Grant:
        """An SSH client logged in as ``join-TOKEN`` with ``key``: ``can_bind`` says whether the key may be
        bound to the invitation's seat (``InvitationRefused`` if not: nothing is used); then the use is
        counted, and only once that is on disk does ``bind_key`` bind it (append it to the seats file).  A
        failure between spends a use and binds no key, never the reverse: a key bound, its use not counted,
        would let the invitation bind one more than its uses.  A bind that fails gives the use back if it can.
        ``InvitationRefused`` if the token lets nobody in, or is a spectator link (which binds no key)."""
        self.check(token)
        now = self._clock()
        fingerprint = key.get_fingerprint()
        with self._writing() as store:
            inv = self._find(store, token)
            if inv is None or inv.state(now) != "open":
                raise InvitationRefused(
                    "no such invitation" if inv is None else f"invitation {inv.id} is {inv.state(now)}"
                )
            if inv.spectators:
                raise InvitationRefused(f"invitation {inv.id} is a spectator link: it binds no key")
            can_bind(inv)
            inv.used += 1
            inv.keys.append(fingerprint)
            grant = _grant(inv, None)
        try:
            bind_key(inv)
        except InvitationRefused:
            with contextlib.suppress(InvitationsError), self._writing() as store:
                for given in store.invitations:
                    if given.id == inv.id and fingerprint in given.keys:
                        given.used -= 1
                        given.keys.remove(fingerprint)
            raise
        return grant


def _grant(inv: Invitation, browser: Browser | None) -> Grant:
    seat = inv.seat or guest_name(browser.id if browser is not None else "ssh")
    return Grant(
        invitation=inv.id,
        seat=seat,
        spectators=inv.spectators,
        game=inv.game,
        expires=inv.expires,
        browser=browser.id if browser is not None else "",
    )


def _new_id(taken: set[str]) -> str:
    while (new := secrets.token_hex(3)) in taken:
        pass
    return new
