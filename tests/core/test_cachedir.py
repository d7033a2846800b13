"""A cache entry is read only if it is a regular file the user owns and not everybody may
write (``core.cachedir.open_entry``): its digests guard against damage, not another writer."""

from __future__ import annotations

import hashlib
import os

import msgspec
import pytest

from core import cachedir, tablecache
from core.cachedir import CACHE_DIR_ENV, read_entry_bytes


@pytest.fixture
def entry(tmp_path):
    path = tmp_path / "entry"
    path.write_bytes(b"kept")
    path.chmod(0o600)
    return path


def test_the_users_own_entry_is_read(entry):
    assert read_entry_bytes(entry, 100) == b"kept"


def test_an_entry_everybody_may_write_is_not_read(entry):
    entry.chmod(0o666)
    assert read_entry_bytes(entry, 100) is None


def test_an_entry_another_user_owns_is_not_read(entry, monkeypatch):
    me = os.geteuid()
    monkeypatch.setattr(cachedir.os, "geteuid", lambda: me + 1)
    assert read_entry_bytes(entry, 100) is None


def test_a_table_whose_entry_another_user_wrote_is_decoded_from_its_toml_and_kept_afresh(tmp_path, monkeypatch):
    class Row(msgspec.Struct):
        cost: int

    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    tablecache.decode(b"cost = 5\n", Row)
    (path,) = (tmp_path / "cache" / tablecache.SUBFOLDER).iterdir()
    body = b'{"cost":7}'  # sound, digest and all: what another user's writer would leave
    path.write_bytes(tablecache.MAGIC + hashlib.sha256(body).digest() + body)
    path.chmod(0o646)
    assert tablecache.decode(b"cost = 5\n", Row) == Row(5)
    assert tablecache.decode(b"cost = 5\n", Row) == Row(5)  # the entry written in its place is the user's own
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_sealed_entry_is_read_back_only_whole_and_with_its_magic(tmp_path):
    path = tmp_path / "a.kept"
    assert cachedir.write_sealed(path, b"MAGIC", b"body", 100, others_kept=1)
    assert cachedir.read_sealed(path, b"MAGIC", 100) == b"body"
    assert cachedir.read_sealed(path, b"OTHER", 100) is None  # another layout
    assert cachedir.read_sealed(path, b"MAGIC", 10) is None  # over the limit
    data = path.read_bytes()
    path.write_bytes(data[:-1] + b"Y")  # damaged: the digest does not match
    assert cachedir.read_sealed(path, b"MAGIC", 100) is None
    assert not cachedir.write_sealed(path, b"MAGIC", b"x" * 100, 100, others_kept=1)  # too big to write
    assert path.read_bytes() == data[:-1] + b"Y"


def test_a_sealed_entry_written_leaves_only_the_newest_others_beside_it(tmp_path):
    for n, name in enumerate(["old.kept", "older.kept", "newer.kept", "other.txt"]):
        (tmp_path / name).write_bytes(b"")
        os.utime(tmp_path / name, (1000 + n, [3000, 1000, 4000, 0][n]))
    assert cachedir.write_sealed(tmp_path / "mine.kept", b"M", b"body", 100, others_kept=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.kept", "newer.kept", "old.kept", "other.txt"]
