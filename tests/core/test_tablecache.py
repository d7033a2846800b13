"""Rule tables kept decoded between runs (core/tablecache.py): a table read from the cache
is exactly the one its TOML gives, an edited table or a changed struct is never served
stale, and a damaged or hostile entry is never believed: the TOML is decoded again and
the entry healed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from core import tablecache
from core.cachedir import CACHE_DIR_ENV
from core.tablecache import MAGIC, MAX_BYTES, entry_name, read_entry


class Row(msgspec.Struct, frozen=True):
    id: str
    cost: int
    per: str = ""
    tags: tuple[str, ...] = ()
    weight: float = 1.0


class Table(msgspec.Struct, frozen=True):
    rows: tuple[Row, ...]


class Wider(msgspec.Struct, frozen=True):
    """The same table with a field more: another struct, another entry."""

    rows: tuple[Row, ...]
    note: str = ""


TOML = b"""
[[rows]]
id = "motivation"
cost = 5
per = "squad"
tags = ["a", "b"]

[[rows]]
id = "negotiation"
cost = 10
weight = 0.5
"""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))


def _entry(toml: bytes = TOML, kind: type = Table) -> Path:
    return Path(os.environ[CACHE_DIR_ENV]) / tablecache.SUBFOLDER / entry_name(toml, kind)


def test_a_table_from_the_cache_is_the_one_its_toml_gives(monkeypatch):
    fresh = msgspec.toml.decode(TOML, type=Table)
    assert tablecache.decode(TOML, Table) == fresh  # decoded, and kept
    assert _entry().is_file()

    def no_toml(*args, **kwargs):
        raise AssertionError("the TOML was decoded again although the cache holds it")

    monkeypatch.setattr(msgspec.toml, "decode", no_toml)
    assert tablecache.decode(TOML, Table) == fresh
    assert read_entry(_entry(), Table) == fresh


def test_an_edited_table_or_a_changed_struct_is_another_entry():
    assert tablecache.decode(TOML, Table).rows[0].cost == 5
    edited = TOML.replace(b"cost = 5", b"cost = 6")
    assert entry_name(edited, Table) != entry_name(TOML, Table)
    assert tablecache.decode(edited, Table).rows[0].cost == 6
    assert tablecache.decode(TOML, Table).rows[0].cost == 5
    assert entry_name(TOML, Wider) != entry_name(TOML, Table)
    assert tablecache.decode(TOML, Wider) == msgspec.toml.decode(TOML, type=Wider)


def test_every_builtin_table_read_at_a_start_is_the_same_from_the_cache():
    from core.rulesets.breaking_news import tables

    raw = {name: (tables.TABLES.folder / name).read_bytes() for name in ("extras.toml", "troops.toml")}
    kinds = {"extras.toml": tables._Extras, "troops.toml": tables._Troops}
    for name, toml in raw.items():
        fresh = msgspec.toml.decode(toml, type=kinds[name])
        assert tablecache.decode(toml, kinds[name]) == fresh  # kept
        assert read_entry(_entry(toml, kinds[name]), kinds[name]) == fresh, name


def test_a_start_that_finds_its_tables_kept_imports_no_toml_parser(tmp_path):
    code = (
        "import sys\n"
        "from core.rulesets.breaking_news import tables\n"
        "tables.extras(); tables.troop_classes()\n"
        "print('tomllib' in sys.modules)\n"
    )
    env = {**os.environ, CACHE_DIR_ENV: str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env) for _ in (1, 2)]
    assert [r.stdout.strip() for r in runs] == ["True", "False"], [r.stderr for r in runs]


def _flip(at: int) -> Callable[[bytes], bytes]:
    def flip(entry: bytes) -> bytes:
        b = bytearray(entry)
        b[at] ^= 0x10
        return bytes(b)

    return flip


def _sealed(body: bytes) -> bytes:
    import hashlib

    return MAGIC + hashlib.sha256(body).digest() + body


#: What may lie where an entry should be: a function of the sound entry's bytes.
DAMAGED: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda e: b"",
    "truncated": lambda e: e[: len(e) // 2],
    "a bit flipped in the table": _flip(-5),
    "a bit flipped in the digest": _flip(len(MAGIC) + 3),
    "wrong magic": lambda e: b"XXXX" + e[4:],
    "not JSON, its digest right": lambda e: _sealed(b"\x00" * 64),
    "a cost that is no number, its digest right": lambda e: _sealed(e[len(MAGIC) + 32 :].replace(b"5", b'"5"', 1)),
    "another table, its digest right": lambda e: _sealed(b'{"other": 1}'),
    "larger than the limit": lambda e: e + b" " * (MAX_BYTES + 1 - len(e)),
}


@pytest.mark.parametrize("damage", DAMAGED, ids=list(DAMAGED))
def test_a_damaged_entry_is_not_believed_and_is_healed(damage):
    fresh = tablecache.decode(TOML, Table)
    path = _entry()
    sound = path.read_bytes()
    path.write_bytes(DAMAGED[damage](sound))
    assert read_entry(path, Table) is None
    assert tablecache.decode(TOML, Table) == fresh
    assert path.read_bytes() == sound  # healed


def test_a_changed_value_with_its_digest_right_is_believed_as_the_users_own_writer_could_edit_the_toml():
    # (What the digest is for: damage.  A writer with the user's rights is out of its reach.)
    tablecache.decode(TOML, Table)
    body = _entry().read_bytes()[len(MAGIC) + 32 :]
    _entry().write_bytes(_sealed(body.replace(b'"cost":5', b'"cost":7')))
    assert tablecache.decode(TOML, Table).rows[0].cost == 7


@pytest.mark.parametrize("thing", ["directory", "fifo", "link"])
def test_something_else_in_an_entrys_place_is_not_read(thing, tmp_path):
    path = _entry()
    path.parent.mkdir(parents=True)
    if thing == "directory":
        path.mkdir()
    elif thing == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    assert read_entry(path, Table) is None
    assert tablecache.decode(TOML, Table) == msgspec.toml.decode(TOML, type=Table)


def test_the_folder_holds_at_most_max_entries(monkeypatch):
    monkeypatch.setattr(tablecache, "MAX_ENTRIES", 3)
    for cost in range(6):
        tablecache.decode(TOML.replace(b"cost = 5", b"cost = %d" % cost), Table)
    assert len(list(_entry().parent.iterdir())) == 3


def test_a_folder_that_cannot_be_written_leaves_every_table_decoded_from_its_toml(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "file"))
    assert tablecache.decode(TOML, Table) == msgspec.toml.decode(TOML, type=Table)
