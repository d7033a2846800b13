"""``fireteam verify`` writes its verdict whole, or says it could not with a status of its own
(issue #75): a reader must never take half a verdict, half its JSON, for the whole one."""

from __future__ import annotations

import io
import os
import sys

import pytest
from coretests_support import new_skirmish, skirmish_registered

from core.cli.output import UNWRITTEN
from core.log.views import REFEREE
from core.secrets.verify import RULES_CHANGED
from tui.main import main as fireteam


@pytest.fixture
def save(tmp_path):
    with skirmish_registered():
        game = new_skirmish(tmp_path / "g.ft")
        game.execute("shoot alpha gunner", role=REFEREE)
        game.close()
        yield game.path


class _Short(io.StringIO):
    """A standard output that takes the first ``room`` characters, then fails as a full disk does."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        if self.tell() + len(text) > self.room:
            super().write(text[: self.room - self.tell()])
            raise OSError(28, "No space left on device")
        return super().write(text)

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no file")


def test_a_verdict_written_whole_exits_with_the_checks_status(save, capsys):
    assert fireteam(["verify", "--json", str(save)]) == 0
    assert capsys.readouterr().out.endswith("}\n")


def test_a_verdict_cut_short_is_not_a_pass_and_says_so(save, monkeypatch, capsys):
    """A stdout that takes half the JSON and fails: not 0 (nor 1, a failed check), but its own status."""
    short = _Short(room=40)
    monkeypatch.setattr(sys, "stdout", short)
    assert fireteam(["verify", "--json", str(save)]) == UNWRITTEN
    assert UNWRITTEN not in (0, 1, 2, RULES_CHANGED)  # no verdict of verify's own
    assert len(short.getvalue()) == 40  # half a verdict went: the status and standard error tell it
    assert "could not be written whole" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["full disk", "closed pipe"])
def test_a_stdout_that_fails_gives_no_traceback_and_its_own_status(save, monkeypatch, capsys, where):
    if where == "full disk":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full here")
        out = open("/dev/full", "w")  # noqa: SIM115 (closed below)
    else:
        read, write = os.pipe()
        os.close(read)  # the reader has gone: every write fails (EPIPE)
        out = os.fdopen(write, "w")
    monkeypatch.setattr(sys, "stdout", out)
    try:
        assert fireteam(["verify", "--json", str(save)]) == UNWRITTEN
        out.close()  # what it still held went nowhere: no second failure at exit
    finally:
        monkeypatch.undo()
    err = capsys.readouterr().err
    assert "could not be written whole" in err
    assert "Traceback" not in err
