# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Each failure the fault-injection runs (tests/faults) found, pinned by a test of its own:
what a write that fails, or a file that is not a save's, leaves behind and what it is told."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from coretests_support import demo, file_events  # noqa: F401
from playing import refused

import core.storage.salvage
import core.storage.writer
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.secrets import sidecopy
from core.storage.errors import SaveError
from core.storage.salvage import salvage
from core.storage.savefile import load
from core.storage.writer import SaveWriter
from tui.main import main as fireteam


def _os_error(code: int):
    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


# ------------------------------------------------------------ an append not taken back


def test_a_command_whose_sync_and_cut_fail_is_never_said_unrecorded_and_the_game_stops(demo, monkeypatch):
    demo.execute("note before", role=REFEREE)
    monkeypatch.setattr(core.storage.writer.os, "fsync", _os_error(errno.EIO))
    monkeypatch.setattr(core.storage.writer.os, "ftruncate", _os_error(errno.EIO))
    said = refused(demo, "note maybe", rule="ENG-4")
    assert "nothing was recorded" not in said
    assert "a write failed and could not be taken back" in said and "close the game and open it again" in said
    monkeypatch.undo()
    # The whole command is on disk: the next open keeps it, so this game must take no other.
    refused(demo, "note maybe", "could not be taken back.*open it again", rule="ENG-4")
    demo.close()
    notes = [e.text for e in file_events(demo.path) if isinstance(e, ev.Noted)]
    assert notes[-2:] == ["before", "maybe"]  # kept once, never twice
    again = Game.open(demo.path)
    again.execute("note after", role=REFEREE)
    again.close()
    assert [e.text for e in file_events(demo.path) if isinstance(e, ev.Noted)][-3:] == ["before", "maybe", "after"]


# ------------------------------------------------------------ a FIFO named like a save


def _returns_at_once(call):
    """What ``call`` returns or raises; if it waits on the FIFO (as it did), the FIFO is
    opened at its other end to let it go, and the test fails saying so."""
    box: dict[str, object] = {}

    def run():
        try:
            box["value"] = call()
        except BaseException as e:  # noqa: BLE001  (handed to the test)
            box["error"] = e

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)  # a last guard: the fixed code never waits at all
    if worker.is_alive():
        for fifo in _FIFOS:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        worker.join(60)
        pytest.fail("waited on a FIFO")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


_FIFOS: list[Path] = []


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.ft"
    os.mkfifo(path)
    _FIFOS.append(path)
    yield path
    _FIFOS.remove(path)


NOT_REGULAR = "not a regular file"


@pytest.mark.parametrize(
    "reading",
    [
        pytest.param(lambda p: load(p), id="load"),
        pytest.param(lambda p: Game.open(p), id="open"),
        pytest.param(lambda p: Game.open(p, writable=False), id="open-read-only"),
        pytest.param(lambda p: sidecopy.open_to_read(p), id="open_to_read"),
        pytest.param(lambda p: salvage(p), id="salvage"),
        pytest.param(lambda p: SaveWriter.lock(p), id="lock"),
        pytest.param(lambda p: Game.new(p, "breaking-news"), id="new-over-it"),
        pytest.param(lambda p: sidecopy.read(p), id="side-copy"),
    ],
)
def test_a_fifo_named_like_a_save_is_refused_at_once(fifo, reading):
    with pytest.raises(SaveError, match=NOT_REGULAR if "new" not in str(reading) else ""):
        _returns_at_once(lambda: reading(fifo))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # left as it was


def test_a_fifo_read_by_a_process_is_still_refused_for_writing(fifo):
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # someone reads it: a writer's open would succeed
    try:
        with pytest.raises(SaveError, match=NOT_REGULAR):
            _returns_at_once(lambda: SaveWriter.lock(fifo))
    finally:
        os.close(reader)


def test_a_fifo_is_not_a_side_copy_and_is_told_apart_at_once(fifo):
    assert _returns_at_once(lambda: sidecopy.looks_like_side_copy(fifo)) is False


def test_the_list_of_saves_says_a_fifo_is_not_one_without_waiting(fifo):
    from tui.screens.loadgame import summarise

    summary = _returns_at_once(lambda: summarise(fifo))
    assert not summary.ok and NOT_REGULAR in summary.text


def test_the_command_line_refuses_a_fifo_in_one_line(fifo, capsys):
    for words in (
        ["replay", str(fifo)],
        ["log", str(fifo)],
        ["salvage", str(fifo)],
        ["export", str(fifo), "--as", "referee"],
    ):
        assert _returns_at_once(lambda words=words: fireteam(words)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and NOT_REGULAR in err and "Traceback" not in err


# ------------------------------------------------------------ salvage, bounded like the reader

UNIT_START = b'01234567 {"t":"cmd","cmd":9,"n":0,"by":"referee","text":"x","at":1}\n'


def _damaged_demo(demo) -> tuple[Path, int]:
    """The demo save, closed, a command more, then a damaged line; and the damaged line's number."""
    demo.execute("note kept", role=REFEREE)
    demo.close()
    with open(demo.path, "ab") as f:
        f.write(b"00000000 damaged\n")
    return demo.path, demo.path.read_bytes().count(b"\n")


def _notes(path: Path) -> list[str]:
    return [e.text for e in file_events(path) if isinstance(e, ev.Noted) and isinstance(e.text, str)]


def test_salvage_counts_a_hole_of_empty_lines_without_reading_them_one_by_one(demo, monkeypatch):
    path, damaged = _damaged_demo(demo)
    with open(path, "ab") as f:
        f.write(b"\n" * 2_000_000 + UNIT_START)
    decoded = []
    real = core.storage.salvage._is_unit_start
    monkeypatch.setattr(core.storage.salvage, "_is_unit_start", lambda line: decoded.append(line) or real(line))
    done = salvage(path)
    assert (done.first_dropped, done.dropped_lines, done.dropped_units) == (damaged, 1 + 2_000_000 + 1, 1)
    assert len(decoded) <= 2  # the damaged line and the one that begins a command; never an empty line
    assert _notes(done.to) == ["kept"]


@pytest.mark.subprocess
@pytest.mark.parametrize("tail", [b"", b"\n" + UNIT_START, b"\n" + UNIT_START[:-1]])
def test_salvage_never_holds_a_line_longer_than_a_saves_whole(demo, tmp_path, tail):
    """A hole with no line feed in it (a sparse file, 384 MiB of zero bytes) is skipped by
    chunks, as the reader refuses it: salvage runs in a process allowed far less memory
    (256 MiB; the hole is no bigger than that needs, for each of its bytes is read)."""
    path, damaged = _damaged_demo(demo)
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size + (3 << 27))
        f.seek(0, os.SEEK_END)
        f.write(tail)
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 28, 1 << 28))\n"
        "from core.storage.salvage import salvage\n"
        "done = salvage(sys.argv[1])\n"
        "print(done.first_dropped, done.dropped_lines, done.dropped_units)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=Path(__file__).parents[2]
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = 2 if tail.startswith(b"\n") else 1  # the hole's line, and the one after it
    assert run.stdout.split() == [str(damaged), str(1 + lines), str(int(bool(tail)))]
    assert _notes(path.with_name(path.stem + ".salvaged" + path.suffix)) == ["kept"]


# ------------------------------------------------------------ a side's copy, bounded on its own


def test_a_side_copy_larger_than_a_copy_can_be_is_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.write(b'{"fireteam_copy":1,')
        f.truncate(sidecopy.MAX_COPY_BYTES + 1)
    with pytest.raises(SaveError, match=f"larger than a copy can be \\({sidecopy.MAX_COPY_BYTES} bytes\\)"):
        sidecopy.open_to_read(path)


def test_a_copy_too_big_to_read_back_is_not_written(demo, tmp_path, monkeypatch):
    copy = sidecopy.export(demo, "referee")
    monkeypatch.setattr(sidecopy, "MAX_COPY_BYTES", 100)
    with pytest.raises(SaveError, match="larger than a copy can be"):
        sidecopy.write(copy, tmp_path / "copy.json")
    assert not (tmp_path / "copy.json").exists()


# ------------------------------------------------------------ when the disk fills or goes away


@contextlib.contextmanager
def _failing(*calls: str, code: int = errno.ENOSPC):
    """A context in which every one of ``calls`` of ``os`` fails with ``code``."""
    with pytest.MonkeyPatch.context() as patch:
        for call in calls:
            patch.setattr(os, call, _os_error(code))
        yield


def test_a_report_on_a_full_disk_says_so_in_one_line_and_leaves_no_temporary_file(tmp_path, capsys):
    save = tmp_path / "demo.ft"
    game = Game.new(save, "breaking-news", seed=7, clock=lambda: 1_000)
    game.execute("scenario demo", role=REFEREE)
    game.close()
    out = tmp_path / "r.md"
    with _failing("fsync"):
        assert fireteam(["report", str(save), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"{out}: cannot write: No space left on device; free some space or choose another place with -o\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.ft"]


@pytest.mark.parametrize("command", ["script", "fork", "salvage", "export"])
def test_when_every_write_and_removal_fails_the_clean_up_raises_nothing(demo, tmp_path, capsys, command):
    demo.execute("note kept", role=REFEREE)
    demo.close()
    script = tmp_path / "moves.txt"
    script.write_text("note one\n")
    new = tmp_path / "new.ft"
    words = {
        "script": ["script", str(script), "--save", str(new)],
        "fork": ["fork", str(demo.path), "--step", "0", "--save", str(new)],
        "salvage": ["salvage", str(demo.path), "--to", str(new)],
        "export": ["export", str(demo.path), "--as", "referee", "-o", str(new)],
    }[command]
    before = sorted(tmp_path.iterdir())
    with _failing("fsync", "unlink", code=errno.EIO):
        code = fireteam(words)
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "Input/output error" in err and "Traceback" not in err
    # What could not be removed is at most the new file (its lock label never outlives it), and it opens
    # as a new game would start again, or is the header alone.
    left = set(tmp_path.iterdir()) - set(before)
    assert left <= {new, new.with_name("new.ft.lock")}  # (a label left is ignored: the lock is the truth)
    if left and command != "export":
        with contextlib.suppress(SaveError):
            Game.open(new, writable=False).close()


def test_when_every_write_fails_the_new_files_are_removed(demo, tmp_path, capsys):
    demo.close()
    script = tmp_path / "moves.txt"
    script.write_text("note one\n")
    before = sorted(tmp_path.iterdir())
    for words in (
        ["script", str(script), "--save", str(tmp_path / "s.ft")],
        ["fork", str(demo.path), "--step", "0", "--save", str(tmp_path / "f.ft")],
        ["salvage", str(demo.path), "--to", str(tmp_path / "v.ft")],
        ["export", str(demo.path), "--as", "referee", "-o", str(tmp_path / "e.json")],
    ):
        with _failing("fsync", code=errno.EIO):
            assert fireteam(words) != 0
        assert capsys.readouterr().err.count("\n") == 1
        assert sorted(tmp_path.iterdir()) == before


# ------------------------------------------------------------ a save started again, opened, synced


def test_a_torn_header_started_again_whose_sync_fails_is_left_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "torn.ft"
    path.write_bytes(b'0badcafe {"firet')
    real_fsync = os.fsync

    def save_fails(fd):  # (the copy of the torn bytes set aside is synced; the new header is not)
        if Path(os.readlink(f"/proc/self/fd/{fd}")) == path:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(fd)

    monkeypatch.setattr(core.storage.writer.os, "fsync", save_fails)
    with pytest.raises(SaveError, match="cannot write the new save: Input/output error"):
        Game.new(path, "breaking-news")
    monkeypatch.undo()
    assert path.read_bytes() == b'0badcafe {"firet'
    # The bytes put back could not be synced either: their copy set aside stays, holding them too.
    assert [p.read_bytes() for p in tmp_path.glob("torn.ft.torn-*")] == [b'0badcafe {"firet']


def test_an_io_error_opening_a_save_to_start_it_again_is_not_a_name_taken(tmp_path, monkeypatch):
    path = tmp_path / "torn.ft"
    path.write_bytes(b"0badcafe {")
    real_open = os.open

    def failing_open(where, flags, *rest):
        if Path(where) == path and not flags & os.O_CREAT:  # (the open of a file found there)
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_open(where, flags, *rest)

    monkeypatch.setattr(os, "open", failing_open)
    with pytest.raises(SaveError) as refused:
        Game.new(path, "breaking-news")
    assert "already exists" not in str(refused.value) and "Input/output error" in str(refused.value)


def test_a_failed_sync_of_the_folder_is_reported(tmp_path, monkeypatch):
    real_fsync = os.fsync

    def folder_fails(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", folder_fails)
    with pytest.raises(SaveError, match="cannot write the new save: Input/output error"):
        Game.new(tmp_path / "new.ft", "breaking-news")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    game = Game.new(tmp_path / "new.ft", "breaking-news")
    game.close()
    monkeypatch.setattr(os, "fsync", folder_fails)
    game = Game.open(tmp_path / "new.ft")  # the folder's sync runs beside the open; the first command says it failed
    refused(game, "scenario demo", "cannot sync the save: Input/output error", rule="ENG-4")
    game.close()
