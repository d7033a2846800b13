"""The seats file of ``fireteam serve``: who may sit at the table, under which name and role.

A seat is a name, a role (``referee``, a side id, or ``spectator``) and the
public keys (OpenSSH one-line format) of the people who sit in it::

    [[seat]]
    name = "anna"
    role = "referee"
    keys = ["ssh-ed25519 AAAAC3Nza... anna@laptop"]
    lang = "it"              # optional: the seat's language (else the client's locale)
    plain = true             # optional: the seat sits as plain lines, never a screen

A key belongs to exactly one seat.  The server reads a seat's role from this
file and from nothing the client sends (environment variables, the SSH user
name), so a player cannot promote himself.  The file is read again when it
changes, so the host can add a player without restarting the server.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import msgspec

from core.language.reader import LANGUAGES
from core.scenarios.files import MAX_BYTES, ScenarioError, decode
from core.views import REFEREE, SPECTATOR

#: Names and roles are single words: they appear in logs and in ``by`` of the save.
_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class SeatsError(ValueError):
    """The seats file cannot be used; the message names the file and the problem."""


class _SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    role: str
    keys: tuple[str, ...]
    lang: str = ""
    plain: bool = False


class _SeatsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: tuple[_SeatSpec, ...] = ()


@dataclass(frozen=True)
class Seat:
    name: str
    role: str
    #: The language the seat reads (``core.language.reader.LANGUAGES``), or "" to follow the client's locale.
    lang: str = ""
    #: The seat sits as plain lines, never a screen (``tui.ssh.plainseat``): a screen reader's, a bot's.
    plain: bool = False

    @property
    def is_side(self) -> bool:
        return self.role not in (REFEREE, SPECTATOR)


class Seats:
    """The seats of one seats file, looked up by public key."""

    def __init__(self, by_key: dict[bytes, Seat]) -> None:
        self._by_key = by_key
        self._by_name = {seat.name: seat for seat in by_key.values()}

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
        names: set[str] = set()
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
            if not entry.keys:
                raise SeatsError(f"{where}: give at least one public key")
            names.add(entry.name)
            seat = Seat(entry.name, entry.role, entry.lang, entry.plain)
            for text_key in entry.keys:
                try:
                    key = asyncssh.import_public_key(text_key)
                except (asyncssh.KeyImportError, ValueError) as e:
                    raise SeatsError(f"{where}: not an OpenSSH public key ({e}): {text_key[:40]!r}") from None
                data = key.public_data
                if data in by_key and by_key[data] != seat:
                    raise SeatsError(f"{where}: this key already belongs to seat {by_key[data].name!r}")
                by_key[data] = seat
        return cls(by_key)

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


def table_roles(sides: list[list[str]]) -> frozenset[str] | None:
    """The roles a seat may have at games with these sides (None if a game has none yet)."""
    if not sides or any(not s for s in sides):
        return None
    return frozenset({REFEREE, SPECTATOR}.union(*sides))


def seats_in_force(source: SeatsFile | Seats) -> Seats:
    """The seats that count now: a seats file's latest good reading, or seats given as they are (tests)."""
    return source.seats if isinstance(source, SeatsFile) else source
