# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Each failure the fault-injection runs (tests/faults) found, pinned by a test of its own:
what a write that fails, or a file that is not a save's, leaves behind and what it is told."""

from __future__ import annotations

import errno
import os

import pytest
from coretests_support import demo, file_events  # noqa: F401

import core.storage.writer
from core import events as ev
from core.game import Game
from core.ruleset import Refused


def _os_error(code: int):
    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


# ------------------------------------------------------------ an append not taken back


def test_a_command_whose_sync_and_cut_fail_is_never_said_unrecorded_and_the_game_stops(demo, monkeypatch):
    demo.execute("note before")
    monkeypatch.setattr(core.storage.writer.os, "fsync", _os_error(errno.EIO))
    monkeypatch.setattr(core.storage.writer.os, "ftruncate", _os_error(errno.EIO))
    with pytest.raises(Refused) as refused:
        demo.execute("note maybe")
    said = str(refused.value)
    assert "nothing was recorded" not in said
    assert "a write failed and could not be taken back" in said and "close the game and open it again" in said
    monkeypatch.undo()
    # The whole command is on disk: the next open keeps it, so this game must take no other.
    with pytest.raises(Refused, match="could not be taken back.*open it again"):
        demo.execute("note maybe")
    demo.close()
    notes = [e.text for e in file_events(demo.path) if isinstance(e, ev.Noted)]
    assert notes[-2:] == ["before", "maybe"]  # kept once, never twice
    again = Game.open(demo.path)
    again.execute("note after")
    again.close()
    assert [e.text for e in file_events(demo.path) if isinstance(e, ev.Noted)][-3:] == ["before", "maybe", "after"]
