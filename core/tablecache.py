"""Rule tables decoded from their TOML kept between runs, so a start parses no TOML.

A ruleset's tables are TOML files (``core.ruleset.Tables``), decoded by msgspec
into typed structs.  The TOML parser is Python's ``tomllib``, in Python: a
client's first frame reads two of Breaking News' tables (its extras, for the
log's words; its troop classes, for the roster), 3.5 ms of the start with
``tomllib``'s import.  So a table decoded once is kept, as msgspec's JSON of the
decoded struct, in the ``tables`` folder of Fireteam's cache (``core.cachedir``),
and a later process decodes that JSON instead (a few microseconds).

**Never stale.**  An entry is named by a digest of everything its value depends
on: the TOML file's bytes, the struct it is decoded into (its JSON schema: every
field, type and default), this format, msgspec's version and Python's.  An
edited table or a changed struct is another name; the old entry is never read
again (entries are few and small; a folder grown past :data:`MAX_ENTRIES` is
emptied of the oldest).  An entry is written only if its JSON decodes back to
exactly the value the TOML gave.

**Hostile input.**  An entry is read only if it is a regular file (links are
not followed) of at most :data:`MAX_BYTES`, starting with :data:`MAGIC` and the
SHA-256 of the JSON that follows, which msgspec decodes into the struct (every
field's type checked).  Anything else, and any error reading or writing, and the
TOML is decoded as before, the entry written afresh.  (The digest guards
against damage, not against a writer with the user's own rights, who could edit
the tables themselves too.)  The tables are not user data: the cache may be
deleted at will.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
from pathlib import Path
from typing import TypeVar

import msgspec

from core.cachedir import cache_root, read_entry_bytes, write_entry_bytes

T = TypeVar("T")

SUBFOLDER = "tables"
#: The first bytes of an entry; the number changes with the entry's layout.
MAGIC = b"FTTB\x00\x00\x00\x01"
DIGEST_SIZE = 32
#: The largest entry read or written (the largest table's JSON is some tens of KB).
MAX_BYTES = 4 << 20
#: Entries kept: past this, the oldest are removed as one is written.
MAX_ENTRIES = 256
_SUFFIX = ".table"


def decode(toml: bytes, kind: type[T]) -> T:
    """``toml`` decoded into ``kind``: from the cache's entry for exactly these bytes and
    this struct if a sound one is there, else decoded now and kept for the next process."""
    try:
        path = cache_root() / SUBFOLDER / entry_name(toml, kind)
    except (OSError, TypeError, ValueError):  # no cache folder; a type msgspec has no schema for
        return msgspec.toml.decode(toml, type=kind)
    kept = read_entry(path, kind)
    if kept is not None:
        return kept
    value = msgspec.toml.decode(toml, type=kind)
    with contextlib.suppress(Exception):  # best effort: a table is never refused for its cache
        body = msgspec.json.encode(value)
        if msgspec.json.decode(body, type=kind) == value:  # what cannot be read back as it is is not kept
            write_entry(path, body)
    return value


def entry_name(toml: bytes, kind: type) -> str:
    """The entry's name: a digest of the TOML's bytes, the struct's schema and what decodes them."""
    key = hashlib.sha256()
    schema = msgspec.json.encode(msgspec.json.schema(kind))
    made_by = f"{MAGIC!r} {sys.version} {msgspec.__version__} {kind!r}".encode()
    for part in (made_by, schema, toml):
        key.update(len(part).to_bytes(8, "big") + part)
    return key.hexdigest()[:40] + _SUFFIX


def read_entry(path: Path, kind: type[T]) -> T | None:
    """The value an entry holds, or None unless every check passes."""
    data = read_entry_bytes(path, MAX_BYTES)
    if data is None:
        return None
    head = len(MAGIC) + DIGEST_SIZE
    if not data.startswith(MAGIC):
        return None
    body = data[head:]
    if hashlib.sha256(body).digest() != data[len(MAGIC) : head]:
        return None
    try:
        return msgspec.json.decode(body, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def write_entry(path: Path, body: bytes) -> bool:
    """Leave ``body`` at ``path`` whole or not at all; False if the folder refused."""
    data = MAGIC + hashlib.sha256(body).digest() + body
    if len(data) > MAX_BYTES or not write_entry_bytes(path, data, _SUFFIX):
        return False
    _remove_oldest(path.parent)
    return True


def _remove_oldest(folder: Path) -> None:
    entries = []
    for entry in folder.iterdir():
        with contextlib.suppress(OSError):
            entries.append((entry.lstat().st_mtime_ns, entry))
    entries.sort(reverse=True)
    for _when, old in entries[MAX_ENTRIES:]:
        with contextlib.suppress(OSError):
            old.unlink()
