# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""One writer per save (the lock), salvage, and faults while writing: a process
killed at any moment, a full disk, a read-only disk (issue #13)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import pytest
from coretests_support import builtins, demo, file_events, file_lines, new_demo, sha, unit_ends  # noqa: F401
from playing import refused
from waiting import IN_CHILD

import core.storage.writer
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.storage.decoding import FORMAT_VERSION
from core.storage.errors import SaveError, SaveLocked
from core.storage.lock import label_path
from core.storage.salvage import salvage
from core.storage.savefile import Chain
from tui.main import main as fireteam

FIRETEAM = Path(sys.executable).with_name("fireteam")
#: Generous: CI shares two cores; only ever an upper bound on a wait for an event.
PATIENCE_S = 120


def _wait_for(predicate, what: str) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.01)


# ------------------------------------------------------------------------ the lock


def test_a_second_writer_in_the_same_process_is_refused_and_told_who(demo):
    demo.execute("note first", role=REFEREE)
    with pytest.raises(SaveLocked) as locked:
        Game.open(demo.path)
    assert f"process {os.getpid()}" in str(locked.value)
    assert "read-only" in str(locked.value)
    reader = Game.open(demo.path, writable=False)  # readers never wait
    assert reader.log_length == demo.log_length
    demo.close()
    assert not label_path(demo.path).exists()
    again = Game.open(demo.path)
    again.execute("note second", role=REFEREE)
    again.close()


@pytest.mark.long
def test_a_game_dropped_without_closing_gives_its_save_and_descriptor_back(tmp_path):
    """A front end's error path that loses its game without ``close``: once the game is gone
    the save opens for writing again in the same process, and no descriptor is left open."""
    import gc

    path = tmp_path / "dropped.ft"
    game = Game.new(path, "breaking-news", seed=1)
    game.execute("note kept", role=REFEREE)
    proc = Path("/proc/self/fd")

    def open_on_save() -> list[str]:
        """Descriptors open on the save, by name (others come and go as earlier tests' garbage is collected)."""
        found = []
        for fd in os.listdir(proc):
            with contextlib.suppress(OSError):  # (the listing's own descriptor, closed by now)
                if os.readlink(proc / fd) == str(path.resolve()):
                    found.append(fd)
        return found

    if proc.is_dir():
        assert len(open_on_save()) == 1
    del game
    gc.collect()
    if proc.is_dir():
        assert open_on_save() == []
    again = Game.open(path)
    again.execute("note again", role=REFEREE)
    again.close()
    assert [e.text for e in file_events(path) if isinstance(e, ev.Noted)][-2:] == ["kept", "again"]


_HOLDER = textwrap.dedent(
    """
    import sys
    from core.game import Game
    game = Game.open(sys.argv[1])
    game.execute("note held", role="referee")
    print("locked", flush=True)
    sys.stdin.read()
    """
)


def _holder(path: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline() == "locked\n"
    return proc


@pytest.mark.subprocess
def test_another_process_holding_the_save_is_named_and_a_dead_one_never_blocks(demo, capsys, tmp_path):
    demo.close()
    proc = _holder(demo.path)
    try:
        with pytest.raises(SaveLocked) as locked:
            Game.open(demo.path)
        assert locked.value.holder is not None and locked.value.holder.pid == proc.pid
        assert f"process {proc.pid}" in str(locked.value)
        script = tmp_path / "more.txt"
        script.write_text("note from the second terminal\n")
        before = sha(demo.path)
        assert fireteam(["script", str(script), "--save", str(demo.path)]) == 2
        err = capsys.readouterr().err
        assert f"process {proc.pid}" in err and str(demo.path) in err
        assert sha(demo.path) == before
        # A reader follows the writer meanwhile.
        follower = Game.open(demo.path, writable=False)
        assert follower.history.timeline()[-1].text == "held"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert label_path(demo.path).exists()  # the dead holder's label stays: it is only a label
    game = Game.open(demo.path)  # and blocks nothing
    game.execute("note after the holder died", role=REFEREE)
    game.close()
    assert fireteam(["script", str(script), "--save", str(demo.path)]) == 0


@pytest.mark.subprocess
def test_two_scripts_on_one_save_never_both_write(tmp_path):
    """Two ``fireteam script`` at once on the same save: one writes, the other is refused."""
    save = tmp_path / "race.ft"
    assert fireteam(["script", str(_script(tmp_path, 1)), "--save", str(save)]) == 0
    long = _script(tmp_path, 400)
    procs = [
        subprocess.Popen([str(FIRETEAM), "script", str(long), "--save", str(save)], stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    results = [(p.wait(timeout=PATIENCE_S), p.stderr.read()) for p in procs]
    codes = sorted(code for code, _ in results)
    loaded = Game.open(save, writable=False)
    if codes == [0, 2]:
        assert any("another Fireteam is writing" in err for _, err in results)
        assert loaded.history.next_cmd - 1 == 2 + 400
    else:  # one finished before the other began: then both wrote, one after the other
        assert codes == [0, 0]
        assert loaded.history.next_cmd - 1 == 2 + 800


def _script(folder: Path, notes: int) -> Path:
    path = folder / f"notes-{notes}.txt"
    path.write_text(("scenario demo\n" if notes == 1 else "") + "".join(f"note n{i}\n" for i in range(notes)))
    return path


# ----------------------------------------------------------------------- salvage


def test_salvage_copies_the_valid_prefix_and_never_touches_the_original(demo, tmp_path, capsys):
    for line in ("note a", "note b", "undo", "redo", "roll 2d6", "note c"):
        demo.execute(line, role=REFEREE)
    demo.close()
    lines = file_lines(demo.path)
    bad_at = len(lines) - 4  # a line inside the last commands
    damaged = tmp_path / "damaged.ft"
    damaged.write_bytes(b"".join([*lines[:bad_at], lines[bad_at + 1], lines[bad_at], *lines[bad_at + 2 :]]))
    before = sha(damaged)
    assert fireteam(["replay", str(damaged)]) == 2
    err = capsys.readouterr().err
    assert f"damaged.ft:{bad_at + 1}:" in err and "fireteam salvage" in err

    assert fireteam(["salvage", str(damaged)]) == 0
    out = capsys.readouterr().out
    target = tmp_path / "damaged.salvaged.ft"
    assert sha(damaged) == before
    events = file_events(demo.path)
    kept = max(n for n in unit_ends(events) if n <= bad_at - 1)
    salvaged = Game.open(target, writable=False)
    assert salvaged.history.store.slice(0, len(events)) == events[:kept]
    dropped = len(lines) - (kept + 1)
    assert f"dropped {dropped} lines from line {kept + 2}" in out
    assert str(target) in out and "was not changed" in out
    # Never overwritten: a second salvage picks a new name, and --to an existing file is refused.
    assert fireteam(["salvage", str(damaged)]) == 0
    assert (tmp_path / "damaged.salvaged-2.ft").read_bytes() == target.read_bytes()
    assert fireteam(["salvage", str(damaged), "--to", str(target)]) == 2
    assert "already exists" in capsys.readouterr().err
    # The salvaged save is a save like any other: it takes new commands.
    game = Game.open(target)
    game.execute("note carried on", role=REFEREE)
    game.close()


def _chained(payloads: list[bytes]) -> bytes:
    """A file of today's format holding ``payloads`` (the header first), every check right."""
    chain = Chain(zlib.crc32(payloads[0]))
    return b"%08x %b\n" % (zlib.crc32(payloads[0]), payloads[0]) + b"".join(
        chain.frame_payload(p) for p in payloads[1:]
    )


DAMAGE = {
    # name: (what replaces the record at the damaged index, the reason salvage names)
    "not json": (lambda r: b"{not json", "invalid event"),
    "unknown tag": (lambda r: b'{"t":"warp"}', "invalid event"),
    "huge number": (lambda r: r.replace(b'"at":1000', b'"at":99999999999999999999'), "Expected `int` <= "),
    "undo of another command": (lambda r: b'{"t":"undo","cmd":1,"by":"referee"}', "undo of command 1"),
    "unknown unit": (lambda r: b'{"t":"move","unit":"nobody","cm":3}', "nobody"),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_salvage_stops_at_every_kind_of_damage_and_keeps_whole_commands(demo, tmp_path, kind):
    for line in ("note a", "note b", "roll 2d6", "note c"):
        demo.execute(line, role=REFEREE)
    demo.close()
    payloads = [line[9:-1] for line in file_lines(demo.path)]
    events = file_events(demo.path)
    # The fact of "note b" (an Issued marker, then its one fact).
    at = next(i for i, p in enumerate(payloads) if p == b'{"t":"note","text":"b"}')
    if kind in ("huge number", "undo of another command"):
        at -= 1  # the marker itself
    replace, reason = DAMAGE[kind]
    damaged = tmp_path / "damaged.ft"
    damaged.write_bytes(_chained([*payloads[:at], replace(payloads[at]), *payloads[at + 1 :]]))
    before = sha(damaged)
    with pytest.raises(SaveError, match="fireteam salvage"):
        Game.open(damaged, writable=False)
    done = salvage(damaged)
    assert sha(damaged) == before
    assert reason in done.reason
    kept = max(n for n in unit_ends(events) if n <= at - 1)  # every whole command before the damage
    assert done.kept_lines == kept + 1 and done.first_dropped == kept + 2
    assert done.dropped_lines == len(payloads) - kept - 1
    got = Game.open(done.to, writable=False)
    assert got.history.store.slice(0, got.log_length) == events[:kept]


def test_salvage_converts_a_format_1_save(demo, tmp_path):
    demo.execute("note old", role=REFEREE)
    demo.close()
    lines = file_lines(demo.path)
    header = json.loads(lines[0][9:]) | {"fireteam": 1}
    payloads = [json.dumps(header, separators=(",", ":")).encode()] + [line[9:-1] for line in lines[1:]]
    old = tmp_path / "old.ft"
    old.write_bytes(b"".join(b"%08x %b\n" % (zlib.crc32(p), p) for p in payloads))
    done = salvage(old)
    assert done.dropped_lines == 0
    new = Game.open(done.to, writable=False)
    assert new.header.fireteam == FORMAT_VERSION
    assert builtins(new.state) == builtins(Game.open(old, writable=False).state)


def test_salvage_of_a_whole_save_says_nothing_was_dropped(demo, tmp_path, capsys):
    demo.close()
    assert fireteam(["salvage", str(demo.path), "--to", str(tmp_path / "copy.ft")]) == 0
    assert "nothing was dropped" in capsys.readouterr().out
    assert builtins(Game.open(tmp_path / "copy.ft", writable=False).state) == builtins(
        Game.open(demo.path, writable=False).state
    )


def test_salvage_errors_exit_2_naming_the_file(tmp_path, capsys):
    assert fireteam(["salvage", str(tmp_path / "nope.ft")]) == 2
    assert "nope.ft: no such save file" in capsys.readouterr().err
    (tmp_path / "junk.ft").write_bytes(b"junk\n")
    assert fireteam(["salvage", str(tmp_path / "junk.ft")]) == 2
    assert "junk.ft:1: no whole header" in capsys.readouterr().err


# ------------------------------------------------------------------------ faults


def _os_error(code: int):
    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize(
    ("call", "code"),
    [("write", errno.ENOSPC), ("fsync", errno.ENOSPC), ("write", errno.EROFS), ("fsync", errno.EIO)],
)
def test_a_failed_append_is_refused_with_the_reason_and_leaves_a_valid_save(demo, monkeypatch, call, code):
    demo.execute("note before", role=REFEREE)
    before = demo.path.read_bytes()
    state, length = builtins(demo.state), demo.log_length
    real_write = os.write
    if call == "write":
        # Half of the command reaches the disk, then the disk is full.
        def half_then_fail(fd, data):
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(core.storage.writer.os, "write", half_then_fail)
    else:
        monkeypatch.setattr(core.storage.writer.os, "fsync", _os_error(code))
    refused(demo, "note lost", rf"{demo.path.name}: {os.strerror(code)}; nothing was recorded", rule="ENG-4")
    monkeypatch.undo()
    assert demo.path.read_bytes() == before  # what was written of it was taken back
    assert builtins(demo.state) == state and demo.log_length == length  # nothing half-applied
    demo.execute("note after", role=REFEREE)  # the game goes on once the disk is back
    demo.close()
    notes = [e.text for e in Game.open(demo.path, writable=False).history.timeline() if isinstance(e, ev.Noted)]
    assert notes[-2:] == ["before", "after"]


def test_a_write_that_cannot_be_taken_back_stops_the_writer_but_not_the_save(demo, monkeypatch):
    demo.execute("note before", role=REFEREE)
    size = demo.path.stat().st_size
    real_write = os.write
    monkeypatch.setattr(
        core.storage.writer.os, "write", lambda fd, data: real_write(fd, bytes(data[:20])) and _os_error(errno.EIO)()
    )
    monkeypatch.setattr(core.storage.writer.os, "ftruncate", _os_error(errno.EIO))
    refused(demo, "note lost", "Input/output error", rule="ENG-4")
    monkeypatch.undo()
    refused(demo, "note refused", "could not be taken back.*open it again", rule="ENG-4")
    assert demo.path.stat().st_size == size + 20
    demo.close()
    again = Game.open(demo.path)  # the torn end is set aside as after a crash
    assert again.saved_bytes == size and any("torn" in note for note in again.notes)
    again.close()


def test_a_read_only_save_or_folder_is_refused_for_writing_with_what_to_do(demo, tmp_path, monkeypatch):
    demo.close()
    if os.geteuid() != 0:
        os.chmod(demo.path, 0o444)
    else:  # root writes through permissions: refuse the open as a read-only disk would
        real_open = os.open
        monkeypatch.setattr(
            core.storage.writer.os,
            "open",
            lambda p, flags, *a: _os_error(errno.EROFS)() if flags & os.O_WRONLY else real_open(p, flags, *a),
        )
    with pytest.raises(SaveError, match=r"cannot open the save for writing: .*; open it read-only"):
        Game.open(demo.path)
    assert fireteam(["script", str(_script(tmp_path, 2)), "--save", str(demo.path)]) == 2
    monkeypatch.undo()
    os.chmod(demo.path, 0o644)
    Game.open(demo.path).close()


# --------------------------------------------------------- kill -9 at any moment


def _kill_when_grown(proc: subprocess.Popen, path: Path, threshold: int) -> None:
    _wait_for(
        lambda: (path.exists() and path.stat().st_size >= threshold) or proc.poll() is not None, "the save to grow"
    )
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def _assert_whole_commands_and_resume(path: Path, tmp_path: Path) -> None:
    replay = Game.open(path, writable=False)
    events = replay.history.store.slice(0, replay.log_length)
    assert len(events) in unit_ends(events)
    game = Game.open(path)  # the lock died with the writer
    game.execute("note resumed", role=REFEREE)
    game.close()
    assert Game.open(path, writable=False).history.timeline()[-1].text == "resumed"


@pytest.mark.subprocess
def test_kill_9_during_a_script_always_leaves_whole_commands_and_a_free_lock(tmp_path):
    rng = random.Random(13)
    script = tmp_path / "long.txt"
    script.write_text("scenario demo\n" + "".join(f"note n{i}\nroll 2d6\nundo\nredo\n" for i in range(300)))
    for trial in range(6):
        save = tmp_path / f"kill-{trial}.ft"
        proc = subprocess.Popen([str(FIRETEAM), "script", str(script), "--save", str(save)], stdout=subprocess.DEVNULL)
        _kill_when_grown(proc, save, rng.randrange(200, 60_000))
        _assert_whole_commands_and_resume(save, tmp_path)


_CLIENT = textwrap.dedent(
    """
    import asyncio, sys
    from core.game import Game
    from tui.app import FireteamApp

    async def main():
        app = FireteamApp(Game.open(sys.argv[1]), role="referee")
        app.owns_game = True
        async with app.run_test() as pilot:
            for i in range(10_000):
                await press(pilot, *f"note c{i}", "enter")

    asyncio.run(main())
    """
)


@pytest.mark.subprocess
def test_kill_9_during_client_use_leaves_whole_commands_and_a_free_lock(tmp_path):
    """Once, some commands in: the client writes through the same writer as a script, and
    the moments of a kill are the script's test's to vary (a client's start costs seconds)."""
    save = tmp_path / "client.ft"
    new_demo(save).close()
    size = save.stat().st_size
    proc = subprocess.Popen([sys.executable, "-c", IN_CHILD + _CLIENT, str(save)], stdout=subprocess.DEVNULL)
    # Killed as the client writes its third note (111 bytes each): some commands in is the claim (fourteen of
    # them, 1,500 bytes, took 8 s typed with Pilot's press, which waits for the CPU to be still after each key).
    _kill_when_grown(proc, save, size + 300)
    assert proc.returncode == -signal.SIGKILL  # killed in its use, not ended on its own
    _assert_whole_commands_and_resume(save, tmp_path)


def test_a_hostile_label_is_shown_as_text_and_never_followed(demo, tmp_path):
    """The label is only a file in the saves folder: a link, a pipe or control
    characters in it neither redirect a write, block an opener, nor reach the terminal."""
    label = label_path(demo.path)
    demo.close()
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    label.symlink_to(target)
    game = Game.open(demo.path)  # a link in the label's place: the label is not written through it
    assert target.read_text() == "keep me"
    with pytest.raises(SaveLocked, match="left no label"):
        Game.open(demo.path)
    game.close()
    label.unlink()
    os.mkfifo(label)
    game = Game.open(demo.path)  # a pipe: not written to, not waited on
    with pytest.raises(SaveLocked, match="left no label"):
        Game.open(demo.path)
    game.close()
    label.unlink()
    game = Game.open(demo.path)
    label.write_text('{"pid":1,"host":"\\u001b]0;pwned\\u0007","since":"now\\u001b[2J","command":"x\\ny"}')
    with pytest.raises(SaveLocked) as locked:
        Game.open(demo.path)
    assert "\x1b" not in str(locked.value) and "\x07" not in str(locked.value) and "x?y" in str(locked.value)
    game.close()
