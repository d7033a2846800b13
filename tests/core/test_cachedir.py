"""A cache entry is read only if it is a regular file the user owns and not everybody may
write (``core.cachedir.open_entry``): its digests guard against damage, not another writer."""

from __future__ import annotations

import os

import pytest

from core import cachedir
from core.cachedir import open_entry


@pytest.fixture
def entry(tmp_path):
    path = tmp_path / "entry"
    path.write_bytes(b"kept")
    path.chmod(0o600)
    return path


def read(entry) -> bytes | None:
    opened = open_entry(entry)
    if opened is None:
        return None
    fd, _info = opened
    with os.fdopen(fd, "rb") as f:
        return f.read()


def test_the_users_own_entry_is_read(entry):
    assert read(entry) == b"kept"


def test_an_entry_everybody_may_write_is_not_read(entry):
    entry.chmod(0o666)
    assert read(entry) is None


def test_an_entry_another_user_owns_is_not_read(entry, monkeypatch):
    me = os.geteuid()
    monkeypatch.setattr(cachedir.os, "geteuid", lambda: me + 1)
    assert read(entry) is None
