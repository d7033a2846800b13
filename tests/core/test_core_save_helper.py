# ruff: noqa: F811  (pytest fixtures imported from the reader's tests)
"""The helper process that checks a big save's lines while the reader decodes them
(``core.storage.linecheck``, ``savefile._Helper``): every load it takes part in
ends exactly as a load without it, and none is left behind, whatever it does.

A helper is started for saves of ``savefile.HELPER_FROM`` bytes and more; these
tests lower that to 0, so that the small saves of the reader's tests are checked
by one."""

from __future__ import annotations

import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from coretests_support import file_lines, helper_replaced, skirmish_registered, spawned_by_loads, tiny_chunks
from test_core_save_reader import _damaged_saves, _outcome, save  # noqa: F401  (save: a fixture)

import core.storage.savefile as savefile
from core.game import Game
from core.storage import linecheck
from core.storage.savefile import SaveError


@pytest.fixture
def helpers(monkeypatch) -> list[subprocess.Popen]:
    """Every load uses a helper, whose verdicts are waited for; the helpers started,
    to look at afterwards."""
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile, "_spare_core", lambda: True)
    monkeypatch.setattr(savefile, "HELPER_PATIENCE", 600.0)
    return spawned_by_loads(monkeypatch)


def _no_judging_here(monkeypatch) -> None:
    """The reader works out no verdict itself: any it needs must come from the helper."""

    def refuse(*args, **kwargs):
        raise AssertionError("a verdict worked out by the reader, not by its helper")

    monkeypatch.setattr(savefile.linecheck, "judge", refuse)


def _outcomes(save: Path, saves: dict[str, tuple[bytes, int]], monkeypatch, chunks) -> dict:
    found = {}
    for name, (data, _at) in saves.items():
        save.write_bytes(data)
        for chunk in chunks:
            monkeypatch.setattr(savefile, "_CHUNK", chunk)
            found[name, chunk] = _outcome(save)
    return found


def test_a_helper_checks_every_line_and_every_load_ends_as_without_it(save, helpers, monkeypatch):
    """The reader's damaged saves, read in one read and in reads ending all over
    them (a batch of lines sent to the helper at each): loaded, cut or refused with
    the same words, with the helper's verdicts alone."""
    saves = _damaged_saves(file_lines(save))
    chunks = (8 << 20, 64, 7)
    monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)  # no helper: what the reader finds alone
    alone = _outcomes(save, saves, monkeypatch, chunks)
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    with monkeypatch.context() as m:
        _no_judging_here(m)
        helped = _outcomes(save, saves, m, chunks)
    assert helped == alone
    assert {outcome[0] for outcome in alone.values()} == {"loaded", "refused"}
    assert len(helpers) == len(alone)
    assert all(child.returncode is not None for child in helpers)  # each ended and waited for


def test_a_line_too_long_read_ahead_is_refused_where_the_reader_alone_refuses_it(save, helpers, monkeypatch):
    """The reader reads one batch ahead for the helper: a line too long found there
    is refused only when reached, after a bad line before it is (or is not) found."""
    lines = file_lines(save)
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 300)
    longest = max(map(len, lines))
    assert longest < 300
    cases = {
        "too long at the end": b"".join(lines) + b"0" * 400,
        "a bad line, then one too long": b"".join([*lines[:4], lines[4][:12] + b"\n", *lines[5:]]) + b"0" * 400,
        "too long, then more": b"".join([*lines[:4], b"0" * 400 + b"\n", *lines[4:]]),
    }
    for name, data in cases.items():
        save.write_bytes(data)
        for chunk in (64, 256, 8 << 20):
            monkeypatch.setattr(savefile, "_CHUNK", chunk)
            monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
            alone = _outcome(save)
            monkeypatch.setattr(savefile, "HELPER_FROM", 0)
            assert _outcome(save) == alone, (name, chunk)
            assert alone[0] == "refused"


@pytest.mark.parametrize(
    "program",
    [
        "echo",  # answers with what it is sent, which fits no batch
        "ends",  # ends before answering
        "dies",  # answers the first batch, then ends
        "silent",  # never answers (and is not waited for, as in a load outside these tests)
        "elsewhere",  # checks other bytes than those read (the file changed between the two reads)
    ],
)
def test_a_helper_that_fails_leaves_the_checks_to_the_reader(save, helpers, monkeypatch, tmp_path, program):
    scripts = {
        "echo": "import os\nwhile data := os.read(0, 1 << 16):\n    os.write(1, data)",
        "ends": "pass",
        "dies": (
            "import os, sys, runpy\n"
            f"m = runpy.run_path({linecheck.__file__!r})\n"
            "class Once:\n"
            "    def write(self, data):\n"
            "        os.write(1, data)\n"
            "        os._exit(0)\n"
            "    def flush(self):\n"
            "        pass\n"
            "m['serve'](int(sys.argv[1]), sys.stdin.buffer.raw, Once())\n"
        ),
        "silent": "import time; time.sleep(600)",
        "elsewhere": (
            "import os, sys, runpy\n"
            f"m = runpy.run_path({linecheck.__file__!r})\n"
            f"other = os.open({str(tmp_path / 'other.ft')!r}, os.O_RDONLY)\n"
            "m['serve'](other, sys.stdin.buffer.raw, sys.stdout.buffer)\n"
        ),
    }
    helper_replaced(monkeypatch, tmp_path / "helper.py", scripts[program])
    if program == "silent":
        monkeypatch.setattr(savefile, "HELPER_PATIENCE", 0.0)
    lines = file_lines(save)
    whole = b"".join(lines)
    damaged = b"".join([*lines[:-2], lines[-2][:15] + b"X" + lines[-2][16:], lines[-1]])
    (tmp_path / "other.ft").write_bytes(b"".join([*lines[:3], lines[3][:15] + b"X" + lines[3][16:], *lines[4:]]))
    for data in (whole, damaged):
        save.write_bytes(data)
        monkeypatch.setattr(savefile, "_CHUNK", 64)
        monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
        alone = _outcome(save)
        monkeypatch.setattr(savefile, "HELPER_FROM", 0)
        assert _outcome(save) == alone
    assert alone[0] == "refused"
    assert helpers and all(child.returncode is not None for child in helpers)


def _spawned(monkeypatch) -> list[subprocess.Popen]:
    """The helpers the loads start from now on (each a real one)."""
    spawned: list[subprocess.Popen] = []
    popen = subprocess.Popen
    monkeypatch.setattr(savefile.subprocess, "Popen", lambda *a, **k: spawned.append(popen(*a, **k)) or spawned[-1])
    return spawned


@pytest.mark.parametrize(("load", "started"), [(0.2, True), (1.4, True), (1.6, False), (7.0, False)])
def test_a_helper_is_started_only_when_a_core_is_idle(save, monkeypatch, load, started):
    """On a machine of two cores, a helper only while less than one and a half is busy."""
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(savefile.os, "getloadavg", lambda: (load, 0.0, 0.0))
    spawned = _spawned(monkeypatch)
    assert _outcome(save)[0] == "loaded"
    assert bool(spawned) == started
    assert all(child.returncode is not None for child in spawned)


def test_a_helper_that_cannot_start_leaves_the_checks_to_the_reader(save, monkeypatch):
    def cannot(*args, **kwargs):
        raise OSError("no processes left")

    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile, "_spare_core", lambda: True)
    monkeypatch.setattr(savefile.subprocess, "Popen", cannot)
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    assert _outcome(save)[0] == "loaded"


def test_a_game_opens_with_a_helper_and_its_state_is_the_same(save, helpers, monkeypatch):
    with skirmish_registered():
        monkeypatch.setattr(savefile, "_CHUNK", 128)
        helped = Game.open(save, writable=False)
        monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
        alone = Game.open(save, writable=False)
    assert helped.state == alone.state and helped.history.eff_cmds == alone.history.eff_cmds
    assert len(helpers) == 1 and helpers[0].returncode is not None


def test_the_helper_runs_without_the_rest_of_fireteam():
    """It is started with ``-I -S``: nothing but the standard library may be imported."""
    code = "import sys, runpy; runpy.run_path(sys.argv[1]); print(sorted(m for m in sys.modules if 'core' in m))"
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, linecheck.__file__],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    assert out.stdout.strip() == "[]"


def test_a_number_out_of_range_is_found_when_the_helper_saw_a_long_run(save, helpers, monkeypatch):
    """The helper says which batches hold a run of 16 digits; the reader looks closely
    at those only, and still refuses the number with its line."""
    lines = file_lines(save)
    at = next(i for i, line in enumerate(lines) if b'"at":' in line and i > 1)
    record = lines[at][9:-1]
    big = re.sub(rb'"at":\d+', b'"at":%d' % (savefile.MAX_RECORD_INT + 1), record)
    check = int(lines[at - 1][:8], 16)
    edited = b"%08x %b\n" % (zlib.crc32(big, check), big)
    rest = savefile.Chain(zlib.crc32(big, check))
    after = [rest.frame_payload(line[9:-1]) for line in lines[at + 1 :]]
    save.write_bytes(b"".join([*lines[:at], edited, *after]))
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    with pytest.raises(
        SaveError, match=rf"game.ft:{at + 1}: invalid event: the number 9007199254740992 is out of range"
    ):
        savefile.load(save)


# ------------------------------------------------------------ when a helper is started


@pytest.mark.parametrize(("cores", "load", "started"), [(2, 1.5, False), (None, 0.4, True), (None, 0.6, False)])
def test_a_core_is_idle_only_while_the_load_leaves_more_than_half_of_one(save, monkeypatch, cores, load, started):
    """Exactly half a core left is not enough; a machine that cannot count its cores has one."""
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(savefile.os, "getloadavg", lambda: (load, 0.0, 0.0))
    spawned = _spawned(monkeypatch)
    assert _outcome(save)[0] == "loaded"
    assert bool(spawned) == started and all(child.returncode is not None for child in spawned)


def test_no_helper_where_the_load_of_the_machine_cannot_be_read(save, monkeypatch):
    def unknown():
        raise OSError("no load average here")

    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile.os, "getloadavg", unknown)
    spawned = _spawned(monkeypatch)
    assert _outcome(save)[0] == "loaded" and spawned == []


def test_no_helper_in_a_frozen_program(save, monkeypatch):
    """A frozen program's executable is the program itself, not a Python to run linecheck.py."""
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile, "_spare_core", lambda: True)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    spawned = _spawned(monkeypatch)
    assert _outcome(save)[0] == "loaded" and spawned == []


def test_a_helper_from_exactly_helper_from_bytes_left_after_the_header(save, monkeypatch):
    """What counts is what is left to read once the header is read, from ``HELPER_FROM`` on."""
    lines = file_lines(save)
    left = save.stat().st_size - len(lines[0])
    monkeypatch.setattr(savefile, "_spare_core", lambda: True)
    spawned = _spawned(monkeypatch)
    for helper_from, started in ((left, 1), (left + 1, 0), (left - 1, 1)):
        monkeypatch.setattr(savefile, "HELPER_FROM", helper_from)
        before = len(spawned)
        assert _outcome(save)[0] == "loaded"
        assert len(spawned) - before == started, helper_from
    assert all(child.returncode is not None for child in spawned)


# ------------------------------------------------------------ how the helper is run


def test_the_helper_runs_isolated_without_site_and_its_complaints_are_not_shown(
    save, helpers, monkeypatch, tmp_path, capfd
):
    """``-I -S``: no user's environment, no site-packages (a start in hundredths of a
    second); and what it writes on its error stream never reaches the player's terminal."""
    flags = tmp_path / "flags"
    helper_replaced(
        monkeypatch,
        tmp_path / "helper.py",
        "import os, sys, runpy\n"
        f"open({str(flags)!r}, 'w').write(f'{{sys.flags.isolated}} {{sys.flags.no_site}}')\n"
        "sys.stderr.write('Traceback: the helper complains\\n')\n"
        "sys.stderr.flush()\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "m['serve'](int(sys.argv[1]), sys.stdin.buffer.raw, sys.stdout.buffer)\n",
    )
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    capfd.readouterr()
    with monkeypatch.context() as m:
        _no_judging_here(m)  # every verdict is the helper's: it ran, and wrote its complaint first
        assert _outcome(save)[0] == "loaded"
    assert flags.read_text() == "1 1"
    assert "complains" not in capfd.readouterr().err


# ------------------------------------------------------------ which of its answers are believed


def _lying(tmp_path, change: str) -> Path:
    """A helper that judges as linecheck does, but answers with ``change`` made to each verdict."""
    script = tmp_path / "liar.py"
    script.write_text(
        "import sys, runpy\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "V = m['VERDICT']\n"
        "class Liar:\n"
        "    def write(self, data):\n"
        "        read, start, lines, bad, too_long, last, good, long = V.unpack(data)\n"
        f"        {change}\n"
        "        sys.stdout.buffer.write(V.pack(read, start, lines, bad, too_long, last, good, long))\n"
        "    def flush(self):\n"
        "        sys.stdout.buffer.flush()\n"
        "m['serve'](int(sys.argv[1]), sys.stdin.buffer.raw, Liar())\n",
        encoding="utf-8",
    )
    return script


@pytest.mark.parametrize(
    "change",
    [
        "bad = -2 if bad >= 0 else bad",  # a bad line answered as no line at all
        "bad = lines if bad >= 0 else bad",  # a bad line answered past the batch's last
    ],
)
def test_an_answer_naming_no_line_of_the_batch_is_not_believed(save, helpers, monkeypatch, tmp_path, change):
    monkeypatch.setattr(savefile.linecheck, "__file__", str(_lying(tmp_path, change)))
    saves = _damaged_saves(file_lines(save))
    chunks = (8 << 20, 64)
    monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
    alone = _outcomes(save, saves, monkeypatch, chunks)
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    assert _outcomes(save, saves, monkeypatch, chunks) == alone
    assert len(helpers) == len(alone) and all(child.returncode is not None for child in helpers)


def test_a_verdict_broken_off_halfway_is_not_waited_for_past_the_guard(save, helpers, monkeypatch, tmp_path):
    """A helper that writes part of an answer and then nothing: after ``HELPER_GUARD``
    seconds it is ended, and the reader checks the lines itself."""
    helper_replaced(monkeypatch, tmp_path / "half.py", "import os, time\nos.write(1, b'0123456789')\ntime.sleep(600)\n")
    monkeypatch.setattr(savefile, "HELPER_GUARD", 0.0)
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
    alone = _outcome(save)
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    assert _outcome(save) == alone and alone[0] == "loaded"
    assert len(helpers) == 1 and helpers[0].returncode is not None


def test_a_helper_behind_by_a_verdict_is_still_heard_for_the_next(save, helpers, monkeypatch):
    """The first verdict has not come when it is wanted (the reader works it out
    itself); when it comes, it is passed over, and every later verdict is the helper's."""
    waits = []
    select = savefile.select.select

    def first_not_yet(*args):
        waits.append(args)
        return ([], [], []) if len(waits) == 1 else select(*args)

    judged = []
    judge = savefile.linecheck.judge

    def counted(*args, **kwargs):
        judged.append(args[0])
        return judge(*args, **kwargs)

    monkeypatch.setattr(savefile, "_CHUNK", 64)
    monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
    alone = _outcome(save)
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    monkeypatch.setattr(savefile.select, "select", first_not_yet)
    monkeypatch.setattr(savefile.linecheck, "judge", counted)
    assert _outcome(save) == alone and alone[0] == "loaded"
    lines = file_lines(save)
    assert len(judged) == 1 and judged[0] and all(line + b"\n" in lines for line in judged[0])
    assert len(helpers) == 1 and helpers[0].returncode is not None


# ------------------------------------------------------------ the runs of digits it finds


def _rewritten(lines: list[bytes], at: int, payload: bytes) -> list[bytes]:
    """``lines`` with line ``at``'s payload made ``payload``, the chain framed again from it."""
    chain = savefile.Chain(int(lines[at - 1][:8], 16))
    return [*lines[:at], chain.frame_payload(payload), *(chain.frame_payload(line[9:-1]) for line in lines[at + 1 :])]


def test_the_runs_of_digits_the_helper_finds_are_looked_at_wherever_the_chunks_fall(save, helpers, monkeypatch):
    """The helper says which batches hold a run of 16 digits, and only those are looked
    at closely as the events are decoded, a chunk at a time: an out-of-range number is
    refused, and a run of digits in a text loaded, however the reads and the chunks fall."""
    lines = file_lines(save)
    note = next(i for i, line in enumerate(lines) if b"smoke drifts north" in line)
    digits = _rewritten(lines, note, lines[note][9:-1].replace(b"smoke drifts north", b"1234567890123456 rounds"))
    late = max(i for i, line in enumerate(digits) if b'"at":' in line)
    big = re.sub(rb'"at":\d+', b'"at":%d' % (savefile.MAX_RECORD_INT + 1), digits[late][9:-1])
    refusal = f"{save}:{late + 1}: invalid event: the number 9007199254740992 is out of range"
    out_of_range = b"".join(_rewritten(digits, late, big))
    cases = {"digits in a text": b"".join(digits), "then a number out of range": out_of_range}
    for name, data in cases.items():
        save.write_bytes(data)
        for events in (1, 2, 3):
            with tiny_chunks(events):
                for chunk in (64, 200, 400, 8 << 20):
                    monkeypatch.setattr(savefile, "_CHUNK", chunk)
                    monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
                    alone = _outcome(save)
                    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
                    assert _outcome(save) == alone, (name, events, chunk)
                    if name == "digits in a text":
                        assert alone[0] == "loaded"
                    else:
                        assert alone[0] == "refused" and alone[1].startswith(refusal), (events, chunk)
