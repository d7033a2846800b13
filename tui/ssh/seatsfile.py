"""The seats file of ``fireteam serve``: who may sit at the table, under which name and role.

A seat is a name, a role (``referee``, a side id, or ``spectator``) and the
public keys (OpenSSH one-line format) of the people who sit in it::

    [[seat]]
    name = "anna"
    role = "referee"
    keys = ["ssh-ed25519 AAAAC3Nza... anna@laptop"]
    lang = "it"              # optional: the seat's language (else the client's locale)
    plain = true             # optional: the seat sits as plain lines, never a screen
    tables = ["day-r2-t3"]   # optional: the only games it may sit at (an event's round)

A seat may have no key yet: its player comes with an invitation, which binds
his key (below) or lets his browser in.  A key belongs to exactly one seat.
The server reads a seat's role from this
file and from nothing the client sends (environment variables, the SSH user
name), so a player cannot promote himself.  The file is read again when it
changes, so the host can add a player without restarting the server.

A key a player bound to his seat through an invitation (``ssh join-TOKEN@host``,
``tui.ssh.invitations.store``) is appended to the file as a record of its own, after
the organiser's lines, which are never rewritten::

    # bound by invitation 3fa9c1 on 2026-11-21 23:42 UTC, from 192.168.1.23
    [[key]]
    seat = "bruno"
    public = "ssh-ed25519 AAAAC3Nza..."
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import msgspec

from core.language.i18n import M, Msg
from core.language.reader import LANGUAGES
from core.log.views import REFEREE, SPECTATOR
from core.scenarios.files import MAX_BYTES, ScenarioError, decode

#: Names and roles are single words: they appear in logs and in ``by`` of the save.
_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
#: A game's name in a seat's ``tables`` (a save's name as served), and how many a seat names at most.
_GAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
MAX_TABLES = 64


class SeatsError(ValueError):
    """The seats file cannot be used; the message names the file and the problem."""


class _SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    role: str
    #: None yet for a seat whose player comes by invitation (``fireteam invite``).
    keys: tuple[str, ...] = ()
    lang: str = ""
    plain: bool = False
    tables: tuple[str, ...] = ()


class _KeySpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A key bound to a seat by an invitation (appended to the file, see the module's doc)."""

    seat: str
    public: str


class _SeatsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: tuple[_SeatSpec, ...] = ()
    key: tuple[_KeySpec, ...] = ()


@dataclass(frozen=True)
class Seat:
    name: str
    role: str
    #: The language the seat reads (``core.language.reader.LANGUAGES``), or "" to follow the client's locale.
    lang: str = ""
    #: The seat sits as plain lines, never a screen (``tui.ssh.seating.plain``): a screen reader's, a bot's.
    plain: bool = False
    #: The only games (tables, by name) it may sit at; empty: any (an event's player sits at his
    #: table of the round alone: ``tui.ssh.host.eventtables``).
    tables: tuple[str, ...] = ()

    @property
    def is_side(self) -> bool:
        return self.role not in (REFEREE, SPECTATOR)

    def may_sit(self, table: str) -> bool:
        return not self.tables or table in self.tables


class Seats:
    """The seats of one seats file, looked up by public key."""

    def __init__(self, by_key: dict[bytes, Seat], by_name: dict[str, Seat] | None = None) -> None:
        self._by_key = by_key
        #: Every seat, a seat with no key yet too (its player comes by invitation).
        self._by_name = {seat.name: seat for seat in by_key.values()} if by_name is None else by_name

    @classmethod
    def parse(cls, text: str, source: str = "seats file", roles: frozenset[str] | None = None) -> Seats:
        """``roles``: every role a seat may have (the referee, the spectator and the
        games' sides); None while a game has no sides yet, when only the two
        fixed roles are checked for spelling."""
        try:
            # Read as a scenario file is: within the TOML parser's bounds, every
            # refusal at its line.
            spec = decode(text, _SeatsFile, source)
        except ScenarioError as e:
            raise SeatsError(str(e)) from None
        by_key: dict[bytes, Seat] = {}
        names: dict[str, Seat] = {}
        for number, entry in enumerate(spec.seat, start=1):
            where = f"{source}: seat {number} ({entry.name!r})"
            if not _WORD.match(entry.name):
                raise SeatsError(f"{where}: a name is one word of letters, digits, '.', '_' or '-'")
            if entry.name in names:
                raise SeatsError(f"{where}: the name is used by another seat")
            if not _WORD.match(entry.role):
                raise SeatsError(f"{where}: role must be referee, spectator or a side id, not {entry.role!r}")
            misspelt = entry.role.lower() in (REFEREE, SPECTATOR) and entry.role not in (REFEREE, SPECTATOR)
            if misspelt or (roles is not None and entry.role not in roles):
                # A seat whose role matches nothing would sit at the table seeing nothing, or be turned away.
                valid = ", ".join(
                    sorted(roles or (REFEREE, SPECTATOR), key=lambda r: (r != REFEREE, r == SPECTATOR, r))
                )
                raise SeatsError(f"{where}: unknown role {entry.role!r}; the roles are: {valid}")
            if entry.lang and entry.lang not in LANGUAGES:
                raise SeatsError(f"{where}: unknown language {entry.lang!r}; the languages are: {', '.join(LANGUAGES)}")
            if len(entry.tables) > MAX_TABLES or not all(_GAME.fullmatch(t) for t in entry.tables):
                raise SeatsError(f"{where}: tables: at most {MAX_TABLES} games' names, each one word of up to 64")
            seat = Seat(entry.name, entry.role, entry.lang, entry.plain, tuple(entry.tables))
            names[entry.name] = seat
            for text_key in entry.keys:
                _add_key(by_key, seat, text_key, where)
        for number, bound in enumerate(spec.key, start=1):
            # A key bound to a seat the organiser has since taken out goes with it.
            if (kept := names.get(bound.seat)) is not None:
                _add_key(by_key, kept, bound.public, f"{source}: key {number} (seat {bound.seat!r})")
        return cls(by_key, names)

    @classmethod
    def load(cls, path: Path, roles: frozenset[str] | None = None) -> Seats:
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise SeatsError(f"{path}: cannot read the seats file: {e}") from None
        if len(raw) > MAX_BYTES:
            raise SeatsError(f"{path}:0: larger than the limit of {MAX_BYTES // 1024} KB for a seats file")
        return cls.parse(text, str(path), roles)

    def seat_for(self, key: asyncssh.SSHKey) -> Seat | None:
        return self._by_key.get(key.public_data)

    def seat_of(self, public_data: bytes) -> Seat | None:
        """The seat of a key, by the key's public data (what a session keeps of it)."""
        return self._by_key.get(public_data)

    def by_name(self, name: str) -> Seat | None:
        return self._by_name.get(name)

    def __len__(self) -> int:
        return len(self._by_name)


def _add_key(by_key: dict[bytes, Seat], seat: Seat, text_key: str, where: str) -> None:
    try:
        key = asyncssh.import_public_key(text_key)
    except (asyncssh.KeyImportError, ValueError) as e:
        raise SeatsError(f"{where}: not an OpenSSH public key ({e}): {text_key[:40]!r}") from None
    data = key.public_data
    if data in by_key and by_key[data] != seat:
        raise SeatsError(f"{where}: this key already belongs to seat {by_key[data].name!r}")
    by_key[data] = seat


def seats_text(seats: list[tuple[Seat, list[str]]], bound: list[tuple[str, str]], heading: str) -> str:
    """A seats file's text: each seat with its keys (``KEYTYPE BASE64``), then the keys invitations
    bound (seat, key), under ``heading`` (a comment): what a server writes for an event's round."""
    out = [f"# {line}" for line in heading.splitlines()]
    for seat, keys in seats:
        out += ["", "[[seat]]", f"name = {_toml(seat.name)}", f"role = {_toml(seat.role)}"]
        out.append("keys = [" + ", ".join(_toml(k) for k in keys) + "]")
        if seat.tables:
            out.append("tables = [" + ", ".join(_toml(t) for t in seat.tables) + "]")
    for name, public in bound:
        out += ["", "[[key]]", f"seat = {_toml(name)}", f"public = {_toml(public)}"]
    return "\n".join(out) + "\n"


def _toml(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these)."""
    return msgspec.json.encode(text).decode()


def bound_keys(path: Path) -> list[tuple[str, str]]:
    """The keys invitations bound in the seats file at ``path`` (seat, key), none if it cannot be read."""
    try:
        spec = decode(path.read_text(encoding="utf-8"), _SeatsFile, str(path))
    except (OSError, UnicodeDecodeError, ScenarioError):
        return []
    return [(k.seat, k.public) for k in spec.key]


def public_line(key: asyncssh.SSHKey) -> str:
    """A key's one OpenSSH line without a comment: the seats file's format, and nothing the client chose."""
    kind, data = key.convert_to_public().export_public_key("openssh").decode("ascii").split()[:2]
    return f"{kind} {data}"


def append_key(path: Path, seat: str, key: asyncssh.SSHKey, note: str) -> None:
    """Bind ``key`` to ``seat`` by appending a ``[[key]]`` record to the seats file (the organiser's lines stay as
    they are), with ``note`` as its comment; synced before it returns.

    Raises ``SeatsError`` if the file would grow past its limit, or if ``seat`` or ``note`` could break the TOML.
    """
    if not _WORD.match(seat) or not note.isprintable():
        raise SeatsError(f"{path}: cannot bind a key to seat {seat!r}")
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        last = b"\n"
        if size:
            f.seek(size - 1)
            last = f.read(1)
    start = "\n" if last == b"\n" else "\n\n"  # a blank line between the organiser's lines and the record
    record = f'{start}# {note}\n[[key]]\nseat = "{seat}"\npublic = "{public_line(key)}"\n'
    data = record.encode("utf-8")
    if size + len(data) > MAX_BYTES:
        raise SeatsError(f"{path}: the seats file would grow past its limit of {MAX_BYTES // 1024} KB")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


class SeatsFile:
    """A seats file that is read again whenever it changes on disk.

    A change that breaks the file is logged and the seats read before stay in
    force, so a typo never locks everybody out (nor lets anybody new in).
    """

    def __init__(self, path: Path, log: logging.Logger, roles: frozenset[str] | None = None) -> None:
        self.path = path
        self._log = log
        self._roles = roles
        self._stamp = self._stat()
        self._seats = Seats.load(path, roles)
        self._warn_if_empty()

    def _warn_if_empty(self) -> None:
        if not len(self._seats):
            self._log.warning("the seats file %s has no seats: nobody can log in until one is added", self.path)

    def _stat(self) -> tuple[int, int]:
        try:
            st = self.path.stat()
        except OSError:
            return (0, 0)
        return (st.st_mtime_ns, st.st_size)

    @property
    def seats(self) -> Seats:
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self._seats = Seats.load(self.path, self._roles)
            except SeatsError as e:
                self._log.error("seats file not reloaded, the previous seats stay: %s", e)
            else:
                self._log.info("seats file reloaded: %d seats", len(self._seats))
                self._warn_if_empty()
        return self._seats

    def as_on_disk(self) -> Seats:
        """The file as it is now, read afresh: ``SeatsError`` if it has a mistake (before a key is appended to it)."""
        return Seats.load(self.path, self._roles)


def seat_change(seat: Seat, now: Seat | None) -> Msg | None:
    """Why a session of ``seat`` may not go on, given the seat its key (or name) has in the seats file ``now``."""
    if now is None or now.name != seat.name:
        return M("the host removed your seat from the seats file")
    if now.tables and now.tables != seat.tables:  # (an event's next round: another table, maybe another side)
        return M("your seat is at {games} now: connect again to sit there", games=", ".join(now.tables))
    if now.role != seat.role:
        return M("the host changed your seat's role to {role}: connect again to sit as {role}", role=now.role)
    if now.tables != seat.tables:
        return M("the host changed the games your seat may sit at: connect again")
    return None


def table_roles(sides: list[list[str]]) -> frozenset[str] | None:
    """The roles a seat may have at games with these sides (None if a game has none yet)."""
    if not sides or any(not s for s in sides):
        return None
    return frozenset({REFEREE, SPECTATOR}.union(*sides))


def seats_in_force(source: SeatsFile | Seats) -> Seats:
    """The seats that count now: a seats file's latest good reading, or seats given as they are (tests)."""
    return source.seats if isinstance(source, SeatsFile) else source
