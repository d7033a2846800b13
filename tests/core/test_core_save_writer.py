"""The save writer, exactly: the bytes it writes and their chain, what it syncs and in
which order (a record is synced before it is counted; a torn tail's copy is synced
before the save is cut), what it refuses and in which words, and what a failure leaves
behind.  Without a ruleset: a header and hand-made records are enough."""

from __future__ import annotations

import errno
import gc
import json
import os
import threading
import zlib
from pathlib import Path

import pytest

import core.storage.savefile
import core.storage.writer
from core.log import events as ev
from core.storage import lock as savelock
from core.storage.decoding import FORMAT_VERSION, Header
from core.storage.errors import SaveError, SaveLocked
from core.storage.savefile import load
from core.storage.writer import SaveWriter, write_new

HEADER = Header(
    fireteam=FORMAT_VERSION, ruleset="breaking-news", ruleset_version="1.5.1", engine="0", created="then", seed=3
)
HEADER_PAYLOAD = (
    b'{"fireteam":%d,"ruleset":"breaking-news","ruleset_version":"1.5.1","engine":"0","created":"then","seed":3}'
    % FORMAT_VERSION
)
HEADER_LINE = b"%08x %b\n" % (zlib.crc32(HEADER_PAYLOAD), HEADER_PAYLOAD)


def _named(fd: int) -> str:
    """The name of the file or folder open on ``fd``."""
    return Path(os.readlink(f"/proc/self/fd/{fd}")).name


def _command(number: int, *notes: str) -> list[ev.Event]:
    return [ev.Issued(cmd=number, n=len(notes), by="referee", text="note", at=5), *(ev.Noted(text=t) for t in notes)]


def _payloads(events: list[ev.Event]) -> list[bytes]:
    out = []
    for e in events:
        if isinstance(e, ev.Issued):
            out.append(b'{"t":"cmd","cmd":%d,"n":%d,"by":"referee","text":"note","at":5}' % (e.cmd, e.n))
        else:
            out.append(b'{"t":"note","text":%b}' % json.dumps(e.text).encode())
    return out


def _chained(check: int, payloads: list[bytes]) -> bytes:
    """``payloads`` framed by hand, each check continuing the one before, from ``check``."""
    out = b""
    for p in payloads:
        check = zlib.crc32(p, check)
        out += b"%08x %b\n" % (check, p)
    return out


# ------------------------------------------------------------------------ create


def test_a_new_save_holds_its_header_synced_and_the_chain_starts_from_it(tmp_path):
    path = tmp_path / "deep" / "er" / "new.ft"  # folders made as needed
    w = SaveWriter.create(path, HEADER)
    try:
        assert path.read_bytes() == HEADER_LINE
        assert w.size == len(HEADER_LINE) and w.check == zlib.crc32(HEADER_PAYLOAD)
        assert w.chain.chained and not w.broken
        assert savelock.holder(path).pid == os.getpid()
        payloads = w.append(_command(1, "a", "b"))
        assert payloads == _payloads(_command(1, "a", "b"))
        body = _chained(zlib.crc32(HEADER_PAYLOAD), payloads)
        assert path.read_bytes() == HEADER_LINE + body
        assert w.size == len(HEADER_LINE + body) and w.check == int(body.splitlines()[-1][:8], 16)
    finally:
        w.close()
    assert savelock.holder(path) is None
    w.close()  # twice is harmless
    loaded = load(path)
    assert loaded.good_bytes == len(HEADER_LINE + body) and loaded.check == w.check


def test_a_new_save_is_created_for_reading_and_writing_by_its_owner(tmp_path):
    old = os.umask(0o022)
    try:
        SaveWriter.create(tmp_path / "s.ft", HEADER).close()
    finally:
        os.umask(old)
    assert (tmp_path / "s.ft").stat().st_mode & 0o777 == 0o600  # its owner's only, whatever the umask (#60)


def test_create_syncs_the_header_then_the_folder(tmp_path, monkeypatch):
    done: list[str] = []
    real_fsync, real_write = os.fsync, os.write
    monkeypatch.setattr(
        core.storage.writer.os, "write", lambda fd, d: done.append(f"write {_named(fd)}") or real_write(fd, d)
    )
    monkeypatch.setattr(
        core.storage.writer.os, "fsync", lambda fd: done.append(f"fsync {_named(fd)}") or real_fsync(fd)
    )
    w = SaveWriter.create(tmp_path / "s.ft", HEADER)
    w.close()
    assert done == ["write s.ft.lock", "write s.ft", "fsync s.ft", f"fsync {tmp_path.name}"]


def test_an_existing_game_is_never_overwritten(tmp_path):
    path = tmp_path / "s.ft"
    SaveWriter.create(path, HEADER).close()
    before = path.read_bytes()
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(path, HEADER)
    assert str(refused.value) == f"{path}: already exists; choose another name (saves are never overwritten)"
    assert path.read_bytes() == before and savelock.holder(path) is None
    SaveWriter.lock(path).close()  # the lock was let go


def test_a_file_that_is_not_a_save_is_never_overwritten(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"shopping list\n")
    with pytest.raises(SaveError, match="already exists"):
        SaveWriter.create(path, HEADER)
    assert path.read_bytes() == b"shopping list\n" and list(tmp_path.iterdir()) == [path]
    SaveWriter.lock(path).close()  # the lock was let go


@pytest.mark.parametrize("torn", [b"", HEADER_LINE[:30]])
def test_a_save_a_crash_left_without_its_header_is_started_again_its_bytes_kept(tmp_path, torn, monkeypatch):
    monkeypatch.setattr(core.storage.writer.time, "time", lambda: 1234.9)
    path = tmp_path / "s.ft"
    path.write_bytes(torn)
    w = SaveWriter.create(path, HEADER)
    w.close()
    assert path.read_bytes() == HEADER_LINE and w.size == len(HEADER_LINE)
    kept = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p != path}
    assert kept == ({"s.ft.torn-1234": torn} if torn else {})


def test_a_started_again_save_whose_header_cannot_be_written_gets_its_bytes_back(tmp_path, monkeypatch):
    path = tmp_path / "s.ft"
    path.write_bytes(HEADER_LINE[:30])
    real_write = os.write

    def header_fails(fd, data):
        if bytes(data) == HEADER_LINE:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(core.storage.writer.os, "write", header_fails)
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(path, HEADER)
    assert (
        str(refused.value)
        == f"{path}: cannot write the new save: No space left on device; free some space and try again"
    )
    assert list(tmp_path.iterdir()) == [path] and path.read_bytes() == HEADER_LINE[:30]
    assert savelock.holder(path) is None


def test_a_new_save_that_cannot_be_made_says_why(tmp_path, monkeypatch):
    def refused_open(*args):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(core.storage.writer.os, "open", refused_open)
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(tmp_path / "s.ft", HEADER)
    assert (
        str(refused.value)
        == f"{tmp_path / 's.ft'}: cannot create the save: Permission denied; choose a writable folder"
    )
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_two_crashes_in_one_second_keep_both_tails(tmp_path, monkeypatch):
    monkeypatch.setattr(core.storage.writer.time, "time", lambda: 77.0)
    path = tmp_path / "s.ft"
    for n in range(3):
        path.write_bytes(HEADER_LINE[: 10 + n])
        SaveWriter.create(path, HEADER).close()
        path.unlink()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {
        "s.ft.torn-77": HEADER_LINE[:10],
        "s.ft.torn-77-2": HEADER_LINE[:11],
        "s.ft.torn-77-3": HEADER_LINE[:12],
    }


def test_a_crash_lefts_bytes_are_set_aside_for_their_owner_only(tmp_path):
    path = tmp_path / "s.ft"
    path.write_bytes(HEADER_LINE[:30])
    old = os.umask(0o022)
    try:
        SaveWriter.create(path, HEADER).close()
    finally:
        os.umask(old)
    (torn,) = tmp_path.glob("s.ft.torn-*")
    assert torn.read_bytes() == HEADER_LINE[:30]
    assert torn.stat().st_mode & 0o777 == 0o600  # the bytes of a save name what it hides (#60)


def test_an_existing_save_that_cannot_be_opened_says_why_not_that_it_exists(tmp_path, monkeypatch):
    """An I/O error opening the file found in the way is not a name taken."""
    path = tmp_path / "s.ft"
    path.write_bytes(HEADER_LINE[:30])

    def io_error(*args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(core.storage.writer, "open_regular", io_error)
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(path, HEADER)
    assert str(refused.value) == f"{path}: cannot create the save: Input/output error; choose a writable folder"
    assert list(tmp_path.iterdir()) == [path] and path.read_bytes() == HEADER_LINE[:30]


def test_a_folder_its_file_system_cannot_sync_is_passed_over_but_a_failed_sync_is_not(tmp_path, monkeypatch):
    real_fsync = os.fsync
    failure = [0]

    def fsync(fd):
        if failure[0] and _named(fd) == tmp_path.name:
            raise OSError(failure[0], os.strerror(failure[0]))
        return real_fsync(fd)

    monkeypatch.setattr(core.storage.writer.os, "fsync", fsync)
    for failure[0] in (errno.EINVAL, errno.ENOTSUP):  # a file system that syncs no folder
        SaveWriter.create(tmp_path / f"{failure[0]}.ft", HEADER).close()
        assert (tmp_path / f"{failure[0]}.ft").read_bytes() == HEADER_LINE
    failure[0] = errno.EIO
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(tmp_path / "io.ft", HEADER)
    assert str(refused.value) == (
        f"{tmp_path / 'io.ft'}: cannot write the new save: Input/output error; free some space and try again"
    )
    assert not (tmp_path / "io.ft").exists()


def test_a_writer_dropped_without_close_gives_its_save_back(tmp_path):
    path = tmp_path / "s.ft"
    w = SaveWriter.create(path, HEADER)
    w.append(_command(1, "a"))
    del w
    gc.collect()
    again = SaveWriter.lock(path)  # its descriptor was closed, and the lock went with it
    again.adopt(load(path))
    again.append(_command(2, "b"))
    again.close()
    assert load(path).torn_bytes == 0


# ------------------------------------------------------------- go on from a load


def _saved(tmp_path: Path, *commands: list[ev.Event]) -> Path:
    path = tmp_path / "s.ft"
    w = SaveWriter.create(path, HEADER)
    for c in commands:
        w.append(c)
    w.close()
    return path


def test_a_torn_tail_is_copied_aside_synced_then_cut_and_the_chain_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(core.storage.writer.time, "time", lambda: 99.5)
    path = _saved(tmp_path, _command(1, "a"))
    whole = path.read_bytes()
    path.write_bytes(whole + b'0123abcd {"t":"cm')
    done: list[str] = []
    real_fsync, real_ftruncate = os.fsync, os.ftruncate

    def fsync(fd):
        done.append(f"fsync {_named(fd)}")
        real_fsync(fd)

    def ftruncate(fd, size):
        done.append(f"cut {_named(fd)} to {size}")
        real_ftruncate(fd, size)

    w = SaveWriter.lock(path)
    loaded = load(path)
    monkeypatch.setattr(core.storage.writer.os, "fsync", fsync)
    monkeypatch.setattr(core.storage.writer.os, "ftruncate", ftruncate)
    w.adopt(loaded)
    # The copy is on disk before the save loses those bytes; then the cut, and the folder.
    assert done == ["fsync s.ft.torn-99", f"cut s.ft to {len(whole)}", "fsync s.ft", f"fsync {tmp_path.name}"]
    assert (tmp_path / "s.ft.torn-99").read_bytes() == b'0123abcd {"t":"cm'
    assert path.read_bytes() == whole
    assert loaded.notes[-1] == "torn bytes kept in s.ft.torn-99" and loaded.torn_bytes == 0
    assert w.size == len(whole) and w.check == loaded.check
    w.append(_command(2, "b"))
    w.close()
    assert path.read_bytes() == whole + _chained(loaded.check, _payloads(_command(2, "b")))
    assert load(path).torn_bytes == 0


def test_a_whole_save_is_adopted_as_it_is(tmp_path):
    path = _saved(tmp_path, _command(1, "a"))
    whole = path.read_bytes()
    w = SaveWriter.lock(path)
    loaded = load(path)
    w.adopt(loaded)
    assert w.size == len(whole) and w.check == loaded.check and loaded.notes == []
    w.close()
    assert list(tmp_path.iterdir()) == [path] and path.read_bytes() == whole


def test_a_torn_tail_that_cannot_be_copied_is_left_in_the_save(tmp_path, monkeypatch):
    path = _saved(tmp_path, _command(1, "a"))
    path.write_bytes(path.read_bytes() + b"0123abcd {")
    before = path.read_bytes()
    w = SaveWriter.lock(path)
    loaded = load(path)
    monkeypatch.setattr(core.storage.writer.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.EIO, "I/O")))
    with pytest.raises(SaveError) as refused:
        w.adopt(loaded)
    monkeypatch.undo()
    w.close()
    assert str(refused.value) == (
        f"{path}: cannot set aside the torn end of the save: I/O; "
        f"free some space, or open it read-only (`fireteam {path} --replay`)"
    )
    assert list(tmp_path.iterdir()) == [path] and path.read_bytes() == before


class _HeldSync:
    """``os.fsync`` for the writer's module, recording what it syncs; the first sync of
    the save waits for ``release``.  ``waiting`` records who waited for a writer's sync."""

    def __init__(self, fails: OSError | None = None) -> None:
        self.done: list[str] = []
        self.began, self.release = threading.Event(), threading.Event()
        self.fails = fails
        self._real = os.fsync

    def __call__(self, fd: int) -> None:
        name = _named(fd)
        if name.endswith(".ft") and not self.began.is_set():
            self.began.set()
            self.release.wait(timeout=120)  # (released at once by the test; the bound only ends a failure)
            self.done.append(f"synced {name}")
            if self.fails is not None:
                raise self.fails
            return self._real(fd)
        self.done.append(f"fsync {name}")
        return self._real(fd)

    def waited_by(self, writer: SaveWriter, who: str) -> threading.Event:
        """Set (and ``who`` recorded) as ``writer`` begins to wait for its sync."""
        reached = threading.Event()
        held, done = writer._settling, self.done

        class Watched:  # the writer's lock, told when it is waited for
            def __enter__(self):
                done.append(who)
                reached.set()
                return held.__enter__()  # type: ignore[union-attr]

            def __exit__(self, *exc):
                return held.__exit__(*exc)  # type: ignore[union-attr]

        writer._settling = Watched()  # type: ignore[assignment]
        return reached


def test_a_whole_save_is_synced_beside_the_open_and_its_first_append_waits_for_it(tmp_path, monkeypatch):
    path = _saved(tmp_path, _command(1, "a"))
    held = _HeldSync()
    monkeypatch.setattr(core.storage.writer.os, "fsync", held)
    w = SaveWriter.lock(path)
    loaded = load(path)
    w.adopt(loaded)  # back while the save's sync is still held: the open does not wait for it
    assert held.began.wait(timeout=120) and held.done == []
    monkeypatch.setattr(
        core.storage.writer.os, "write", lambda fd, data, real=os.write: held.done.append("write") or real(fd, data)
    )
    reached = held.waited_by(w, "the append waits")
    append = threading.Thread(target=w.append, args=(_command(2, "b"),))
    append.start()
    assert reached.wait(timeout=120)
    held.release.set()
    append.join(timeout=120)
    assert held.done == ["the append waits", "synced s.ft", f"fsync {tmp_path.name}", "write", "fsync s.ft"]
    w.close()
    assert path.read_bytes().endswith(_chained(loaded.check, _payloads(_command(2, "b"))))


def test_a_writer_closed_while_its_save_syncs_waits_for_the_sync(tmp_path, monkeypatch):
    # Its descriptor closed under the sync, the sync would fail, or sync another file opened meanwhile.
    path = _saved(tmp_path, _command(1, "a"))
    held = _HeldSync()
    monkeypatch.setattr(core.storage.writer.os, "fsync", held)
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    assert held.began.wait(timeout=120)
    reached = held.waited_by(w, "close waits")
    close = threading.Thread(target=w.close)
    close.start()
    assert reached.wait(timeout=120)
    held.release.set()
    close.join(timeout=120)
    assert held.done == ["close waits", "synced s.ft", f"fsync {tmp_path.name}"] and not w.broken


def test_a_save_whose_sync_fails_as_it_opens_is_never_appended_to(tmp_path, monkeypatch):
    path = _saved(tmp_path, _command(1, "a"))
    before = path.read_bytes()
    held = _HeldSync(fails=OSError(errno.EIO, "I/O"))
    held.release.set()
    monkeypatch.setattr(core.storage.writer.os, "fsync", held)
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    for number in (2, 3):
        with pytest.raises(SaveError) as refused:
            w.append(_command(number, "b"))
        assert str(refused.value) == (
            f"{path}: cannot sync the save: I/O; nothing more is written to it: close the game and open it again"
        )
    w.close()
    assert path.read_bytes() == before and held.done == ["synced s.ft"]  # nor the folder synced after it


def test_upcasters_of_formats_before_the_saves_own_do_not_stop_it(tmp_path, monkeypatch):
    monkeypatch.setitem(core.storage.writer.UPCASTERS, 1, {"note": lambda r: r})  # format 1's records changed
    path = _saved(tmp_path, _command(1, "a"))  # today's format
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    w.append(_command(2, "b"))
    w.close()


def test_a_save_created_in_an_older_format_is_written_in_it(tmp_path):
    old = Header(fireteam=1, ruleset="breaking-news", ruleset_version="1.5.1", engine="0", created="then", seed=3)
    w = SaveWriter.create(tmp_path / "old.ft", old)
    assert not w.chain.chained
    w.append(_command(1, "a"))
    w.close()
    lines = (tmp_path / "old.ft").read_bytes().splitlines()[1:]
    assert lines == [b"%08x %b" % (zlib.crc32(p), p) for p in _payloads(_command(1, "a"))]  # unchained


def test_an_older_save_goes_on_in_its_own_format(tmp_path):
    payload = HEADER_PAYLOAD.replace(b'"fireteam":%d' % FORMAT_VERSION, b'"fireteam":1')
    path = tmp_path / "old.ft"
    path.write_bytes(b"%08x %b\n" % (zlib.crc32(payload), payload))
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    assert not w.chain.chained
    w.append(_command(1, "a"))
    w.close()
    lines = path.read_bytes().splitlines()[1:]
    assert lines == [b"%08x %b" % (zlib.crc32(p), p) for p in _payloads(_command(1, "a"))]  # unchained
    assert load(path).version == 1


def test_an_older_save_whose_records_changed_is_not_appended_to(tmp_path, monkeypatch):
    monkeypatch.setitem(core.storage.writer.UPCASTERS, 2, {"note": lambda r: r})
    payload = HEADER_PAYLOAD.replace(b'"fireteam":%d' % FORMAT_VERSION, b'"fireteam":2')
    path = tmp_path / "old.ft"
    path.write_bytes(b"%08x %b\n" % (zlib.crc32(payload), payload))
    w = SaveWriter.lock(path)
    with pytest.raises(SaveError) as refused:
        w.adopt(load(path))
    w.close()
    assert str(refused.value) == (
        f"{path}: written in save format 2, which this Fireteam reads but no longer writes; open it read-only "
        f"(`fireteam {path} --replay`), or run `fireteam salvage {path}` to copy it into a new save in today's format"
    )


def test_lock_refuses_what_it_cannot_write_in_words(tmp_path):
    with pytest.raises(SaveError) as refused:
        SaveWriter.lock(tmp_path / "nope.ft")
    assert str(refused.value) == f"{tmp_path / 'nope.ft'}: no such save file; check the name"
    with pytest.raises(SaveError) as refused:
        SaveWriter.lock(tmp_path)
    assert str(refused.value) == f"{tmp_path}: cannot read: is a directory, not a save"
    path = _saved(tmp_path, _command(1, "a"))
    w = SaveWriter.lock(path)
    with pytest.raises(SaveLocked) as locked:
        SaveWriter.lock(path)
    assert locked.value.path == path and locked.value.holder.pid == os.getpid()
    assert locked.value.who == locked.value.holder.describe() and locked.value.who in str(locked.value)
    w.close()
    SaveWriter.lock(path).close()


def test_a_save_that_cannot_be_opened_for_writing_is_told_how_to_read_it(tmp_path, monkeypatch):
    path = _saved(tmp_path, _command(1, "a"))
    real_open = os.open

    def read_only_disk(name, flags, *args):
        if flags & os.O_WRONLY:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(name, flags, *args)

    monkeypatch.setattr(core.storage.writer.os, "open", read_only_disk)
    with pytest.raises(SaveError) as refused:
        SaveWriter.lock(path)
    assert str(refused.value) == (
        f"{path}: cannot open the save for writing: Read-only file system; "
        f"open it read-only (`fireteam {path} --replay`), or make the file and its folder writable"
    )


# ------------------------------------------------------------------------ append


def test_append_writes_each_command_in_one_write_synced_before_it_counts(tmp_path, monkeypatch):
    path = _saved(tmp_path)
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    w.settled()  # what it went on from is synced (on a thread of its own): not what is watched here
    done: list[tuple] = []
    real_write, real_fsync = os.write, os.fsync
    monkeypatch.setattr(
        core.storage.writer.os, "write", lambda fd, d: done.append(("write", bytes(d), w.size)) or real_write(fd, d)
    )
    monkeypatch.setattr(core.storage.writer.os, "fsync", lambda fd: done.append(("fsync", w.size)) or real_fsync(fd))
    start, check = w.size, w.check
    assert w.append([]) == [] and done == [] and w.size == start
    w.append(_command(1, "a", "b"))
    data = _chained(check, _payloads(_command(1, "a", "b")))
    assert done == [("write", data, start), ("fsync", start)]  # counted only after the sync
    assert w.size == start + len(data)
    w.close()


def test_a_command_too_big_or_a_line_too_long_or_a_number_too_big_is_refused_unwritten(tmp_path, monkeypatch):
    path = _saved(tmp_path)
    before = path.read_bytes()
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    monkeypatch.setattr(core.storage.writer, "MAX_COMMAND_EVENTS", 3)
    w.append(_command(1, "a", "b", "c"))  # three facts: the most
    with pytest.raises(SaveError) as refused:
        w.append(_command(2, "a", "b", "c", "d"))
    assert str(refused.value) == f"{path}: a command of 4 facts is too big (at most 3)"
    longest = 9 + len(b'{"t":"note","text":"%b"}' % (b"x" * 60))  # longer than the command's marker
    monkeypatch.setattr(core.storage.writer, "MAX_LINE_BYTES", longest)
    w.append(_command(2, "x" * 60))  # a line of exactly the longest length
    with pytest.raises(SaveError) as refused:
        w.append(_command(4, "x" * 61))
    assert str(refused.value) == f"{path}: a record of {longest + 1} bytes is too long (at most {longest})"
    monkeypatch.setattr(core.storage.writer, "MAX_LINE_BYTES", core.storage.savefile.MAX_LINE_BYTES)
    with pytest.raises(SaveError) as refused:
        w.append([ev.Issued(cmd=5, n=1, by="referee", text="note", at=2**53), ev.Noted(text="x")])
    assert str(refused.value) == f"{path}: Expected `int` <= {2**53 - 1} - at `$.at`"
    w.append([ev.Issued(cmd=3, n=1, by="referee", text="1234567890123456789", at=2**53 - 1), ev.Noted(text="ok")])
    size = w.size
    w.close()
    assert path.stat().st_size == size
    assert load(path).history.store.slice(0, 100)[-1] == ev.Noted(text="ok")
    assert path.read_bytes().startswith(before)


@pytest.mark.parametrize("fails", ["write", "fsync"])
def test_a_failed_write_is_taken_back_synced_and_the_writer_goes_on(tmp_path, monkeypatch, fails):
    path = _saved(tmp_path, _command(1, "a"))
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    w.settled()  # what it went on from is synced (on a thread of its own): not what is watched here
    before, check = path.read_bytes(), w.check
    real_write, real_fsync, real_ftruncate = os.write, os.fsync, os.ftruncate
    done: list[str] = []

    def write(fd, data):
        real_write(fd, bytes(data[:7]))
        if fails == "write":
            raise OSError(errno.ENOSPC, "full")
        return 7  # the rest is written by the next calls

    def fsync(fd):
        done.append("fsync")
        if fails == "fsync" and len(done) == 1:
            raise OSError(errno.EIO, "I/O")
        real_fsync(fd)

    monkeypatch.setattr(core.storage.writer.os, "write", write)
    monkeypatch.setattr(core.storage.writer.os, "fsync", fsync)
    monkeypatch.setattr(
        core.storage.writer.os, "ftruncate", lambda fd, n: done.append(f"cut {n}") or real_ftruncate(fd, n)
    )
    with pytest.raises(OSError):
        w.append(_command(2, "b"))
    assert path.read_bytes() == before and w.size == len(before) and w.check == check and not w.broken
    assert done == ([f"cut {len(before)}", "fsync"] if fails == "write" else ["fsync", f"cut {len(before)}", "fsync"])
    monkeypatch.undo()
    w.append(_command(2, "b"))
    w.close()
    assert path.read_bytes() == before + _chained(check, _payloads(_command(2, "b")))


def test_a_write_that_cannot_be_taken_back_breaks_the_writer(tmp_path, monkeypatch):
    path = _saved(tmp_path, _command(1, "a"))
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    w.settled()  # what it went on from is synced (on a thread of its own): not what is watched here
    size = w.size
    monkeypatch.setattr(core.storage.writer.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.EIO, "I/O")))
    monkeypatch.setattr(
        core.storage.writer.os, "ftruncate", lambda fd, n: (_ for _ in ()).throw(OSError(errno.EROFS, "gone"))
    )
    with pytest.raises(OSError):
        w.append(_command(2, "b"))
    said = (
        f"{path}: a write failed and could not be taken back (gone); "
        "close the game and open it again (a torn end is set aside then)"
    )
    assert w.broken == said and w.size == size
    monkeypatch.undo()
    with pytest.raises(SaveError) as refused:
        w.append(_command(3, "c"))
    assert str(refused.value) == said
    w.close()


# ---------------------------------------------------------------------- write_new


def test_closing_twice_closes_the_save_once(tmp_path, monkeypatch):
    w = SaveWriter.create(tmp_path / "s.ft", HEADER)
    closed: list[str] = []
    real_close = os.close
    monkeypatch.setattr(core.storage.writer.os, "close", lambda fd: closed.append(_named(fd)) or real_close(fd))
    w.close()
    w.close()
    assert closed == ["s.ft.lock", "s.ft"]  # the label read to let the lock go, then the save


def test_a_failed_sync_whose_cut_cannot_be_synced_either_leaves_the_writer_whole(tmp_path, monkeypatch):
    path = _saved(tmp_path, _command(1, "a"))
    w = SaveWriter.lock(path)
    w.adopt(load(path))
    w.settled()  # what it went on from is synced (on a thread of its own): not what is watched here
    before = path.read_bytes()

    def fsync(fd):
        raise OSError(errno.EIO, "I/O")

    monkeypatch.setattr(core.storage.writer.os, "fsync", fsync)
    with pytest.raises(OSError, match="I/O"):
        w.append(_command(2, "b"))
    monkeypatch.undo()
    assert path.read_bytes() == before and not w.broken  # the cut reaches the disk with the next sync
    w.append(_command(2, "b"))
    w.close()
    assert load(path).torn_bytes == 0


def test_a_new_save_on_a_full_disk_is_removed_even_if_it_cannot_be(tmp_path, monkeypatch):
    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(core.storage.writer.os, "write", full)
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(tmp_path / "s.ft", HEADER)
    said = f"{tmp_path / 's.ft'}: cannot write the new save: No space left on device; free some space and try again"
    assert str(refused.value) == said
    assert list(tmp_path.iterdir()) == []  # no empty save left behind
    monkeypatch.setattr(Path, "unlink", lambda self, missing_ok=False: full(0, b""))
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(tmp_path / "s.ft", HEADER)
    assert str(refused.value) == said  # the disk, not the failed removal, is what is said


def test_a_crash_left_header_that_cannot_be_set_aside_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "s.ft"
    path.write_bytes(HEADER_LINE[:30])

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(core.storage.writer.os, "fsync", fsync)
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(path, HEADER)
    assert str(refused.value) == (
        f"{path}: cannot set aside what a crash left in it: No space left on device; free some space and try again"
    )
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == [path] and path.read_bytes() == HEADER_LINE[:30]
    SaveWriter.create(path, HEADER).close()  # its lock was let go


def test_only_the_torn_bytes_the_load_found_are_set_aside(tmp_path, monkeypatch):
    monkeypatch.setattr(core.storage.writer.time, "time", lambda: 5.0)
    path = _saved(tmp_path, _command(1, "a"))
    whole = path.read_bytes()
    path.write_bytes(whole + b"0123abcd {")
    w = SaveWriter.lock(path)
    loaded = load(path)
    with open(path, "ab") as f:  # bytes some other program appended after the load
        f.write(b"later")
    w.adopt(loaded)
    w.close()
    assert (tmp_path / "s.ft.torn-5").read_bytes() == b"0123abcd {"
    assert path.read_bytes() == whole


def test_write_new_makes_a_chained_save_in_todays_format(tmp_path, monkeypatch):
    old = Header(fireteam=1, ruleset="breaking-news", ruleset_version="1.5.1", engine="0", created="then", seed=3)
    payloads = [b'{"t":"note","text":"%d"}' % i for i in range(4096 + 5)]  # more than one batch
    old_umask = os.umask(0o022)
    try:
        write_new(tmp_path / "new.ft", old, payloads, option="--to")
    finally:
        os.umask(old_umask)
    data = (tmp_path / "new.ft").read_bytes()
    assert data == HEADER_LINE + _chained(zlib.crc32(HEADER_PAYLOAD), payloads)
    assert (tmp_path / "new.ft").stat().st_mode & 0o777 == 0o600


def test_write_new_never_overwrites_and_names_the_option(tmp_path):
    (tmp_path / "there.ft").write_bytes(b"mine")
    with pytest.raises(SaveError) as refused:
        write_new(tmp_path / "there.ft", HEADER, [], option="--into")
    assert (
        str(refused.value)
        == f"{tmp_path / 'there.ft'}: already exists; choose another name with --into (saves are never overwritten)"
    )
    assert (tmp_path / "there.ft").read_bytes() == b"mine"
    with pytest.raises(SaveError) as refused:
        write_new(tmp_path / "no" / "x.ft", HEADER, [], option="--into")
    assert (
        str(refused.value)
        == f"{tmp_path / 'no' / 'x.ft'}: cannot create: No such file or directory; choose another place with --into"
    )


def test_write_new_on_a_full_disk_leaves_nothing(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "full")

    monkeypatch.setattr(core.storage.writer.os, "fsync", full)
    with pytest.raises(SaveError) as refused:
        write_new(tmp_path / "x.ft", HEADER, [b'{"t":"note","text":"a"}'], option="--to")
    assert (
        str(refused.value)
        == f"{tmp_path / 'x.ft'}: cannot write: full; free some space or choose another place with --to"
    )
    assert list(tmp_path.iterdir()) == []


def test_write_new_on_a_full_disk_says_the_disk_even_if_its_file_cannot_be_removed(tmp_path, monkeypatch):
    def fails(*args, **kwargs):
        raise OSError(errno.ENOSPC, "full")

    monkeypatch.setattr(core.storage.writer.os, "fsync", fails)
    monkeypatch.setattr(Path, "unlink", fails)
    with pytest.raises(SaveError) as refused:
        write_new(tmp_path / "x.ft", HEADER, [b'{"t":"note","text":"a"}'], option="--to")
    assert (
        str(refused.value)
        == f"{tmp_path / 'x.ft'}: cannot write: full; free some space or choose another place with --to"
    )


def test_a_new_save_under_a_file_is_not_called_an_existing_save(tmp_path):
    """A file where the save's folder should be: Python says FileExistsError, but the
    save does not exist, and the file in the way is left as it was."""
    (tmp_path / "games").write_text("notes", encoding="utf-8")
    path = tmp_path / "games" / "s.ft"
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(path, HEADER)
    assert str(refused.value) == (
        f"{path}: cannot create the save: a file is in the way of its folder; choose a writable folder"
    )
    assert (tmp_path / "games").read_text(encoding="utf-8") == "notes"
    deeper = tmp_path / "games" / "2026" / "s.ft"
    with pytest.raises(SaveError) as refused:
        SaveWriter.create(deeper, HEADER)
    assert str(refused.value) == f"{deeper}: cannot create the save: Not a directory; choose a writable folder"
