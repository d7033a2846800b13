# ruff: noqa: F811  (pytest fixtures imported from the reader's tests)
"""The helper process that reads a big save's lines itself, checks them and hands
the reader each chunk of them as the JSON array it decodes (``savefile._Chunks``,
``linecheck.good_chunks``): every load it takes part in ends exactly as a load
without it, the reader reads on by itself from where the helper stopped, and none
is left behind, whatever the helper does.

A helper is started for saves of ``savefile.CHUNKS_FROM`` bytes and more; these
tests lower that to 0 and shrink the store's chunks, so that the small saves of the
reader's tests are cut into many chunks by one."""

from __future__ import annotations

import io
import os
import select
import signal
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace

import pytest
from coretests_support import file_lines, helper_replaced, skirmish_registered, spawned_by_loads, tiny_chunks
from test_core_save_reader import _damaged_saves, _outcome, save  # noqa: F401  (save: a fixture)

import core.storage.savefile as savefile
from core.game import Game
from core.storage import linecheck
from core.storage.savefile import SaveError

CHUNK = 4


@pytest.fixture
def chunks(monkeypatch):
    """Every load is offered a chunking helper (the other helper is never started);
    the helpers started, and the reader's reads, to look at afterwards."""
    monkeypatch.setattr(savefile, "CHUNKS_FROM", 0)
    monkeypatch.setattr(savefile, "HELPER_FROM", 1 << 40)
    monkeypatch.setattr(savefile, "_spare_core", lambda: True)
    started = spawned_by_loads(monkeypatch)
    with tiny_chunks(CHUNK):
        yield started


def _alone(monkeypatch, path: Path) -> tuple:
    with monkeypatch.context() as m:
        m.setattr(savefile, "CHUNKS_FROM", 1 << 40)
        return _outcome(path)


def _reads(monkeypatch) -> list[tuple[int, int]]:
    """The (start, size) of every read the reader makes of a save from now on."""
    seen: list[tuple[int, int]] = []
    read = savefile._Reads._read

    def spy(self):
        chunk = read(self)
        seen.append((self.end - len(chunk), len(chunk)))
        return chunk

    monkeypatch.setattr(savefile._Reads, "_read", spy)
    return seen


def _damaged_everywhere(lines: list[bytes]) -> dict[str, bytes]:
    """The save with one record damaged, each in turn; and cut or torn after each line."""
    saves = {
        f"line {at + 1} damaged": b"".join([*lines[:at], lines[at][:12] + b"X" + lines[at][13:], *lines[at + 1 :]])
        for at in range(1, len(lines))
    }
    saves |= {f"torn after line {at}": b"".join(lines[:at]) + lines[at][:20] for at in range(1, len(lines))}
    saves |= {name: data for name, (data, _at) in _damaged_saves(lines).items()}
    return saves


def test_a_chunking_helper_takes_the_lines_and_every_load_ends_as_without_it(save, chunks, monkeypatch):
    lines = file_lines(save)
    assert len(lines) > 5 * CHUNK
    saves = _damaged_everywhere(lines)
    for name, data in saves.items():
        save.write_bytes(data)
        monkeypatch.setattr(savefile, "_CHUNK", 64)
        alone = _alone(monkeypatch, save)
        for read in (64, 8 << 20):
            monkeypatch.setattr(savefile, "_CHUNK", read)
            assert _outcome(save) == alone, (name, read)
    assert len(chunks) == 2 * len(saves)
    assert all(child.returncode is not None for child in chunks)  # each ended and waited for


def test_the_reader_reads_nothing_the_helper_took(save, chunks, monkeypatch):
    """The whole save: the reader reads its first block (the header) and, after the
    last whole chunk the helper sent, the lines left; nothing between."""
    lines = file_lines(save)
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    reads = _reads(monkeypatch)
    took = []
    take = savefile._Intake.take_chunk
    monkeypatch.setattr(savefile._Intake, "take_chunk", lambda self, *a: took.append(a[2]) or take(self, *a))
    loaded = savefile.load(save)
    events = len(lines) - 1
    whole = events - events % CHUNK
    assert len(loaded.history.store) == events and loaded.good_bytes == save.stat().st_size
    after = sum(map(len, lines[: whole + 1]))
    assert took == [sum(map(len, lines[: k + 1])) for k in range(CHUNK, whole + 1, CHUNK)]
    assert took[-1] == after
    header = [start for start, _size in reads if start < len(lines[0])]  # the reads up to the header's end
    assert header == list(range(0, len(lines[0]), 64))
    assert [start for start, _size in reads[len(header) :]] == [
        *range(after, save.stat().st_size, 64),
        save.stat().st_size,
    ]


def test_a_game_opens_with_a_chunking_helper_and_its_state_is_the_same(save, chunks, monkeypatch):
    with skirmish_registered():
        helped = Game.open(save, writable=False)
        monkeypatch.setattr(savefile, "CHUNKS_FROM", 1 << 40)
        alone = Game.open(save, writable=False)
    assert helped.state == alone.state and helped.history.eff_cmds == alone.history.eff_cmds
    assert len(chunks) == 1 and chunks[0].returncode is not None


def test_the_progress_goes_on_with_each_chunk(save, chunks, monkeypatch):
    lines = file_lines(save)
    told: list[tuple[int, int]] = []
    savefile.load(save, progress=lambda done, total: told.append((done, total)))
    size = save.stat().st_size
    ends = [sum(map(len, lines[: k + 1])) for k in range(CHUNK, len(lines), CHUNK)]
    assert told[: len(ends)] == [(end, size) for end in ends]
    assert told[-1] == (size, size)
    assert [done for done, _ in told] == sorted(done for done, _ in told)


@pytest.mark.parametrize(
    "program",
    [
        "echo",  # answers with what it is sent, which fits no chunk
        "ends",  # ends before answering
        "dies",  # sends one chunk, then ends
        "half",  # sends half a chunk, then ends
        "short",  # says a chunk is shorter than a chunk can be
        "long",  # says a chunk is longer than the file
        "past",  # says its second chunk ends past the file's end (a whole array, with spaces after it)
        "garbage",  # sends bytes that are no JSON array of events
        "fewer",  # sends an array of fewer events than a chunk
    ],
)
def test_a_chunking_helper_that_fails_leaves_the_rest_to_the_reader(save, chunks, monkeypatch, tmp_path, program):
    def sending(body: str) -> str:
        return (
            "import os, sys, runpy, struct\n"
            f"m = runpy.run_path({linecheck.__file__!r})\n"
            "opening = m['read_exactly'](sys.stdin.buffer.raw, m['CHUNKS_OPENING'].size)\n"
            "check, chained, longest, chunk, start, end = m['CHUNKS_OPENING'].unpack(opening)\n"
            "chunks = m['good_chunks'](int(sys.argv[1]), check, bool(chained), longest, chunk, start, end)\n"
            "size, last, flagged, joined = next(chunks)\n"
            "head = m['CHUNK_HEAD']\n"
            f"{body}\n"
        )

    scripts = {
        "echo": "import os\nwhile data := os.read(0, 1 << 16):\n    os.write(1, data)",
        "ends": "pass",
        "dies": sending("os.write(1, head.pack(size, last, 0) + joined)"),
        "half": sending("os.write(1, head.pack(size, last, 0) + joined[: len(joined) // 2])"),
        "short": sending("os.write(1, head.pack(10 * chunk - 1, last, 0) + joined)"),
        "long": sending("os.write(1, head.pack(end - start + 1, last, 0) + joined)"),
        "past": sending(
            "os.write(1, head.pack(size, last, 0) + joined)\n"
            "size2, last2, flagged2, joined2 = next(chunks)\n"
            "extra = end - start - size - size2 + 1\n"
            "os.write(1, head.pack(size2 + extra, last2, 0) + joined2 + b' ' * extra)"
        ),
        "garbage": sending("os.write(1, head.pack(size, last, 0) + b'[' + b'1' * (len(joined) - 2) + b']')"),
        "fewer": sending(
            "import json\n"
            "fewer = json.dumps(json.loads(joined)[1:], separators=(',', ':'), ensure_ascii=False).encode()\n"
            "os.write(1, head.pack(len(fewer) + 9 * chunk - 1, last, 0) + fewer)"
        ),
    }
    helper_replaced(monkeypatch, tmp_path / "helper.py", scripts[program])
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    lines = file_lines(save)
    damaged = b"".join([*lines[:-2], lines[-2][:15] + b"X" + lines[-2][16:], lines[-1]])
    for data in (b"".join(lines), damaged):
        save.write_bytes(data)
        alone = _alone(monkeypatch, save)
        assert _outcome(save) == alone
    assert alone[0] == "refused"
    # The progress told goes on from the last chunk taken, never back.
    save.write_bytes(b"".join(lines))
    monkeypatch.setattr(savefile, "_CHUNK", 8 << 20)  # the reader takes the rest in one read
    told: list[int] = []
    savefile.load(save, progress=lambda done, total: told.append(done))
    assert told == sorted(told) and told[-1] == save.stat().st_size
    assert chunks and all(child.returncode is not None for child in chunks)


@pytest.mark.parametrize(
    ("why", "started"),
    [("big", True), ("small", False), ("busy", False), ("hashed", False), ("resumed", False), ("unaligned", False)],
)
def test_a_chunking_helper_only_where_it_can_take_the_lines(save, chunks, monkeypatch, why, started):
    """Only for a save of ``CHUNKS_FROM`` bytes left after the header, on a machine
    with a core idle, read from its file with nothing else to hash, into an empty
    store (whose chunks it fills from their first event)."""
    left = save.stat().st_size - len(file_lines(save)[0])
    monkeypatch.setattr(savefile, "CHUNKS_FROM", left + (why == "small"))
    monkeypatch.setattr(savefile, "_spare_core", lambda: why != "busy")
    kwargs: dict = {}
    if why == "hashed":
        kwargs["hasher"] = zlib_hasher = _Crc()
    if why == "resumed":
        data = save.read_bytes()
        header = savefile._decode_header(save, file_lines(save)[0][9:])
        first = file_lines(save)[0]
        kwargs["resume"] = savefile.Resume(data, len(first), header, zlib.crc32(first[9:-1]), 1)
    if why == "unaligned":
        history = savefile.History()
        history.store.append([savefile._event_decoder.decode(file_lines(save)[1][9:])], [file_lines(save)[1][9:-1]])
        kwargs["history"] = history
    with monkeypatch.context():
        try:
            savefile.load(save, **kwargs)
        except SaveError:
            assert why == "unaligned"  # the event already there comes twice
    assert bool(chunks) == started
    if why == "hashed":
        assert zlib_hasher.crc == zlib.crc32(save.read_bytes())


class _Crc:
    def __init__(self) -> None:
        self.crc = 0

    def update(self, data: bytes) -> None:
        self.crc = zlib.crc32(data, self.crc)


def test_no_chunking_helper_for_an_older_format_upgraded_as_it_loads(save, chunks, monkeypatch):
    upcasters = {**savefile.UPCASTERS, savefile.FORMAT_VERSION - 1: {"never": lambda record: record}}
    lines = file_lines(save)
    header = savefile._any_decoder.decode(lines[0][9:-1])
    header["fireteam"] = savefile.FORMAT_VERSION - 1
    save.write_bytes(savefile.frame_header(savefile.msgspec.convert(header, savefile.Header)) + b"".join(lines[1:]))
    with pytest.raises(SaveError):
        savefile.load(save, upcasters=upcasters)  # the chain starts from the header's own check
    assert chunks == []


def test_a_save_of_whole_chunks_is_taken_by_the_helper_to_its_last_byte(save, chunks, monkeypatch):
    """The last chunk ends where the file does: taken too, and nothing is left to read."""
    lines = file_lines(save)
    whole = 1 + (len(lines) - 1) // CHUNK * CHUNK
    save.write_bytes(b"".join(lines[:whole]))
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    alone = _alone(monkeypatch, save)
    reads = _reads(monkeypatch)
    assert _outcome(save) == alone and alone[0] == "loaded"
    size = save.stat().st_size
    assert [start for start, _size in reads if start >= len(lines[0])] == [size]


def test_the_helpers_pipe_holds_ten_chunks_ahead(save, chunks, monkeypatch):
    """Room in the pipe for the helper to go on while the reader decodes (Linux's
    largest pipe an unprivileged process may ask for)."""
    asked = []
    fcntl = savefile.fcntl.fcntl

    def spy(fd, op, arg):
        asked.append((op, arg))
        return fcntl(fd, op, arg)

    monkeypatch.setattr(savefile.fcntl, "fcntl", spy)
    assert _outcome(save)[0] == "loaded"
    assert asked == [(savefile.fcntl.F_SETPIPE_SZ, 1 << 20)]


def test_the_chunking_helper_runs_isolated_unbuffered_and_its_complaints_are_not_shown(
    save, chunks, monkeypatch, tmp_path, capfd
):
    """``-I -S`` (a start in hundredths of a second, no user's environment); its
    pipes unbuffered on this side (a chunk waiting in a buffer would not wake a
    wait on the pipe); its error stream never reaches the player's terminal."""
    flags = tmp_path / "flags"
    helper_replaced(
        monkeypatch,
        tmp_path / "helper.py",
        "import sys, runpy\n"
        f"open({str(flags)!r}, 'w').write(f'{{sys.flags.isolated}} {{sys.flags.no_site}} {{sys.argv[2:]}}')\n"
        "sys.stderr.write('Traceback: the helper complains\\n')\n"
        "sys.stderr.flush()\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "m['serve_chunks'](int(sys.argv[1]), sys.stdin.buffer.raw, sys.stdout.buffer)\n",
    )
    alone = _alone(monkeypatch, save)
    capfd.readouterr()
    assert _outcome(save) == alone
    assert "complains" not in capfd.readouterr().err
    assert flags.read_text() == "1 1 ['chunks']"
    assert len(chunks) == 1
    assert type(chunks[0].stdin) is io.FileIO and type(chunks[0].stdout) is io.FileIO


@pytest.mark.parametrize("refusal", ["no such operation here", "refused"])
def test_a_pipe_that_cannot_be_made_bigger_changes_nothing(save, chunks, monkeypatch, refusal):
    """Not Linux (no ``F_SETPIPE_SZ``), or a system that refuses a pipe that big."""
    if refusal == "refused":

        def refuse(*args):
            raise PermissionError("pipe too big")

        monkeypatch.setattr(savefile.fcntl, "fcntl", refuse)
    else:
        monkeypatch.delattr(savefile.fcntl, "F_SETPIPE_SZ")
    alone = _alone(monkeypatch, save)
    took = []
    take = savefile._Intake.take_chunk
    monkeypatch.setattr(savefile._Intake, "take_chunk", lambda self, *a: took.append(a[2]) or take(self, *a))
    assert _outcome(save) == alone and alone[0] == "loaded"
    assert took and len(chunks) == 1


def test_a_helper_that_ended_before_its_opening_leaves_the_load_to_the_reader(save, chunks, monkeypatch):
    def broken(fd, data):
        raise BrokenPipeError("the helper has ended")

    monkeypatch.setattr(savefile, "_write_all", broken)
    alone = _alone(monkeypatch, save)
    assert _outcome(save) == alone and alone[0] == "loaded"
    assert len(chunks) == 1 and chunks[0].returncode is not None


@pytest.mark.parametrize("stops", ["inside the second chunk", "inside a chunk", "inside the lines named"])
def test_a_helper_gone_silent_is_waited_for_no_longer_than_helper_guard(save, chunks, monkeypatch, tmp_path, stops):
    """A helper that stops sending inside a chunk (its first, or one it has begun to
    send), without ending, is given up after ``HELPER_GUARD`` seconds of silence
    (here a tenth of one) and the reader reads on: nothing it sends after its
    silence (twenty seconds) is taken.  (One silent between two chunks is not
    waited for at all: see the tests of a helper behind, below.)"""
    flags = 2 if stops == "inside the lines named" else 0
    cuts = {
        "inside the second chunk": "len(first) + 20",
        "inside a chunk": "len(first) - 3",
        "inside the lines named": "20",
    }
    cut = cuts[stops]  # (20: the head, 16 bytes, and the first of two lines named)
    helper_replaced(
        monkeypatch,
        tmp_path / "helper.py",
        "import os, sys, runpy, time\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "opening = m['read_exactly'](sys.stdin.buffer.raw, m['CHUNKS_OPENING'].size)\n"
        "check, chained, longest, chunk, start, end = m['CHUNKS_OPENING'].unpack(opening)\n"
        "chunks = m['good_chunks'](int(sys.argv[1]), check, bool(chained), longest, chunk, start, end)\n"
        "size, last, flagged, joined = next(chunks)\n"
        f"first = m['CHUNK_HEAD'].pack(size, last, {flags}) + b'\\0' * 4 * {flags} + joined\n"
        "size, last, flagged, joined = next(chunks)\n"
        "second = m['CHUNK_HEAD'].pack(size, last, 0) + joined\n"
        f"os.write(1, (first + second)[: {cut}])\n"
        "time.sleep(20)\n"
        f"os.write(1, (first + second)[{cut} :])\n"
        "for size, last, flagged, joined in chunks:\n"
        "    os.write(1, m['CHUNK_HEAD'].pack(size, last, 0) + joined)\n",
    )
    monkeypatch.setattr(savefile, "HELPER_GUARD", 0.1)
    alone = _alone(monkeypatch, save)
    took = _took(monkeypatch)
    assert _outcome(save) == alone and alone[0] == "loaded"
    assert len(took) == (stops == "inside the second chunk")  # the first chunk, whole in the first write
    assert len(chunks) == 1 and chunks[0].returncode is not None


# ------------------------------------------------------------ a helper behind the reader


def _sending(then: str) -> str:
    """A helper that sends its first chunk at once, then does ``then`` (``send(n)``
    sends its next ``n`` chunks in one write)."""
    return (
        "import os, sys, runpy, time\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "opening = m['read_exactly'](sys.stdin.buffer.raw, m['CHUNKS_OPENING'].size)\n"
        "check, chained, longest, chunk, start, end = m['CHUNKS_OPENING'].unpack(opening)\n"
        "chunks = m['good_chunks'](int(sys.argv[1]), check, bool(chained), longest, chunk, start, end)\n"
        "def send(n):\n"
        "    data = b''\n"
        "    for _, (size, last, flagged, joined) in zip(range(n), chunks):\n"
        "        named = b''.join(map(m['FLAG'].pack, flagged))\n"
        "        data += m['CHUNK_HEAD'].pack(size, last, len(flagged)) + named + joined\n"
        "    if data:\n"
        "        os.write(1, data)\n"
        "send(1)\n"
        f"{then}\n"
    )


def _cut_here(monkeypatch, then=None) -> list[int]:
    """Where the file was read up to after each chunk the reader cut itself
    (``linecheck.good_chunks`` in its own process), from now on; ``then`` is called
    as each is cut, before the reader takes it.  It reads to the end of the file
    (as the load saw it), ``OWN_READ`` bytes at a time."""
    cut: list[int] = []
    good_chunks = linecheck.good_chunks

    def spy(fd, check, chained, longest, chunk, start, end, read=1 << 20):
        assert (end, read) == (os.fstat(fd).st_size, savefile.OWN_READ)
        for found in good_chunks(fd, check, chained, longest, chunk, start, end, read):
            start += found[0]
            cut.append(start)
            if then is not None:
                then()
            yield found

    monkeypatch.setattr(linecheck, "good_chunks", spy)
    return cut


def _chunk_ends(lines: list[bytes]) -> list[int]:
    """Where each whole chunk of the save ends."""
    events = len(lines) - 1
    return [sum(map(len, lines[: k + 1])) for k in range(CHUNK, events - events % CHUNK + 1, CHUNK)]


def _in_second_format(save: Path) -> None:
    """The save written again as format 2 (its checks are chained as today's)."""
    lines = file_lines(save)
    header = savefile._any_decoder.decode(lines[0][9:-1])
    header["fireteam"] = 2
    first = savefile.frame_header(savefile.msgspec.convert(header, savefile.Header))
    chain = savefile.Chain(int(first[:8], 16), 2)
    save.write_bytes(first + b"".join(chain.frame_payload(line[9:-1]) for line in lines[1:]))


@pytest.mark.parametrize("behind", ["ended", "ended, second format", "to the end"])
def test_a_chunking_helper_behind_is_not_waited_for(save, chunks, monkeypatch, tmp_path, behind):
    """A helper that sends its first chunk, then nothing for twenty seconds (another
    process took its core): past its first chunk the reader never waits for it, and
    cuts each chunk itself (the helper's own code, in the reader's process).  Once
    the helper is ``CHUNKS_BEHIND`` chunks behind, it is ended, and the reader reads
    on alone from the end of the last chunk it cut; allowed to be behind by more
    than the save holds, the reader cuts every chunk to the last whole one.  Nothing
    the helper sends after its silence is taken (a reader that waited would take it).
    A helper ended behind says the other core is taken: no helper checking the lines
    is started for the rest (one is, after a helper that was not behind).  The helper's
    pipe is only ever polled, without waiting, past its first chunk."""
    if behind == "ended, second format":
        _in_second_format(save)
    helper_replaced(monkeypatch, tmp_path / "helper.py", _sending("time.sleep(20)\nsend(1 << 20)"))
    monkeypatch.setattr(savefile, "CHUNKS_BEHIND", 1 << 20 if behind == "to the end" else 2)
    lines = file_lines(save)
    ends = _chunk_ends(lines)
    assert len(ends) >= 5  # (the first, two cut by the reader, two more at least)
    cut_by_reader = ends[1:] if behind == "to the end" else ends[1:3]
    polls: list[float] = []
    poll = savefile.select.select
    monkeypatch.setattr(savefile, "select", SimpleNamespace(select=lambda *a: polls.append(a[3]) or poll(*a)))
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    alone = _alone(monkeypatch, save)
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    took, cut, reads = _took(monkeypatch), _cut_here(monkeypatch), _reads(monkeypatch)
    assert _outcome(save) == alone and alone[0] == "loaded"
    assert took == [ends[0], *cut_by_reader]  # the helper's first chunk, then the reader's
    assert cut == cut_by_reader
    # The reader's own reads go on from the last chunk taken (the header's read before them).
    assert [start for start, _size in reads if start >= len(lines[0])][0] == cut_by_reader[-1]
    assert chunks[0].returncode == -signal.SIGKILL  # ended by the load, still silent
    assert len(chunks) == (2 if behind == "to the end" else 1) and all(child.returncode is not None for child in chunks)
    assert polls and set(polls) == {0}


@pytest.mark.parametrize("why", ["hashed", "no chunking helper starts"])
def test_a_load_no_chunking_helper_took_part_in_has_its_checking_helper(save, chunks, monkeypatch, why):
    """No chunking helper fell behind (none was started: the bytes are hashed as
    read, or it could not start): the helper that checks the lines is started as
    before (for a save of ``HELPER_FROM`` bytes left, here any)."""
    monkeypatch.setattr(savefile, "HELPER_FROM", 0)
    kwargs: dict = {}
    if why == "hashed":
        kwargs["hasher"] = _Crc()
    if why == "no chunking helper starts":

        def fails(*args):
            raise OSError("no process for it")

        monkeypatch.setattr(savefile._Chunks, "__init__", fails)
    loaded = savefile.load(save, **kwargs)
    assert len(loaded.history.store) == len(file_lines(save)) - 1
    assert len(chunks) == 1 and chunks[0].args[-1] != "chunks" and chunks[0].returncode is not None


def test_a_helper_that_catches_up_is_taken_from_again_and_its_late_chunks_passed_over(
    save, chunks, monkeypatch, tmp_path
):
    """A helper that sends its next two chunks each time the reader has cut one itself
    (a helper that was briefly behind, and is ahead again): each chunk the reader
    cut is passed over when the helper sends it, and the next is taken from the
    helper, every other chunk in turn; the reader's next chunk of its own is cut
    from where the helper's left off.  Every event is taken once, as alone."""
    fifo = tmp_path / "go"
    os.mkfifo(fifo)
    # (Told nothing for twenty seconds, it sends the rest: a reader that waited for it
    # takes them all from it, and fails, rather than wait for ever.)
    then = (
        "import select\n"
        f"go = os.open({str(fifo)!r}, os.O_RDONLY | os.O_NONBLOCK)\n"
        "while select.select([go], [], [], 20)[0] and os.read(go, 1):\n"
        "    send(2)\n"
        "send(1 << 20)"
    )
    helper_replaced(monkeypatch, tmp_path / "helper.py", _sending(then))
    lines = file_lines(save)
    ends = _chunk_ends(lines)
    assert len(ends) >= 5
    alone = _alone(monkeypatch, save)
    go: list = []

    def tell_helper() -> None:
        """The helper is told to go on, and what it sends is waited for (an event, no sleep)."""
        if not go:
            go.append(open(fifo, "wb", buffering=0))  # noqa: SIM115  (closed below)
        go[0].write(b"!")
        assert select.select([chunks[-1].stdout], [], [], 600)[0]

    took, cut = _took(monkeypatch), _cut_here(monkeypatch, tell_helper)
    try:
        assert _outcome(save) == alone and alone[0] == "loaded"
    finally:
        for f in go:
            f.close()
    assert took == ends
    assert cut == ends[1::2]
    assert len(chunks) == 1 and chunks[0].returncode is not None


def test_the_chunking_helpers_input_ends_once_it_is_told_where_to_read(save, chunks, monkeypatch, tmp_path):
    """Nothing is sent after the opening, and the helper's input is closed: a helper
    that reads on (one left interactive, say) sees it end rather than hold the load."""
    helper_replaced(
        monkeypatch,
        tmp_path / "helper.py",
        "import sys, runpy\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "opening = m['read_exactly'](sys.stdin.buffer.raw, m['CHUNKS_OPENING'].size)\n"
        "assert sys.stdin.buffer.raw.read() == b''\n"
        "m['serve_chunks'](int(sys.argv[1]), __import__('io').BytesIO(opening), sys.stdout.buffer)\n",
    )
    lines = file_lines(save)
    alone = _alone(monkeypatch, save)
    took = _took(monkeypatch)
    assert _outcome(save) == alone and alone[0] == "loaded"
    events = len(lines) - 1
    assert took == [sum(map(len, lines[: k + 1])) for k in range(CHUNK, events - events % CHUNK + 1, CHUNK)]


def test_no_chunking_helper_in_a_frozen_program(save, chunks, monkeypatch):
    """A frozen program's executable is the program itself, not a Python to run linecheck.py."""
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert _outcome(save)[0] == "loaded" and chunks == []


def test_a_line_too_long_after_the_helpers_chunks_is_refused_with_the_files_name(save, chunks, monkeypatch):
    lines = file_lines(save)
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 300)
    assert max(map(len, lines)) < 300
    save.write_bytes(b"".join(lines) + b"0" * 400)
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    alone = _alone(monkeypatch, save)
    assert _outcome(save) == alone
    assert alone[0] == "refused" and f"{save}:{len(lines) + 1}: line longer than 300 bytes" in alone[1]
    assert len(chunks) == 1


def test_a_save_of_the_second_format_is_cut_into_chunks_too(save, chunks, monkeypatch):
    """Its checks are chained as today's (from format 2 on)."""
    lines = file_lines(save)
    _in_second_format(save)
    alone = _alone(monkeypatch, save)
    took = []
    take = savefile._Intake.take_chunk
    monkeypatch.setattr(savefile._Intake, "take_chunk", lambda self, *a: took.append(a[2]) or take(self, *a))
    assert _outcome(save) == alone and alone[0] == "loaded"
    assert len(took) == (len(lines) - 1) // CHUNK


# ------------------------------------------------------------ runs of 16 digits (secrets' digests, say)


def _with_runs(lines: list[bytes], out_of_range: bool = False) -> list[bytes]:
    """The save with runs of 16 digits in three texts, in two chunks (lines 12, 14
    and 15: the last line of the third chunk, the second and third of the fourth);
    ``out_of_range``: and line 20 (the fourth of the fifth chunk) holding a number
    past ``MAX_RECORD_INT``.  The chain framed again from the first line changed."""
    texts = {12: (b"mark gunner suppressed", b"mark gunner 1234567890123456")}
    texts |= {14: (b"smoke drifts north", b"1234567890123456 rounds"), 15: (b"smoke drifts", b"98765432109876543")}
    payloads = [line[9:-1] for line in lines]
    for at, (old, new) in texts.items():
        assert old in payloads[at]
        payloads[at] = payloads[at].replace(old, new)
    if out_of_range:
        assert b'"at":2000' in payloads[20]
        payloads[20] = payloads[20].replace(b'"at":2000', b'"at":%d' % (savefile.MAX_RECORD_INT + 1))
    chain = savefile.Chain(int(lines[11][:8], 16))
    return [*lines[:12], *(chain.frame_payload(payload) for payload in payloads[12:])]


def _took(monkeypatch) -> list[int]:
    """Where the file was read up to after each chunk the helper's load took in, from now on."""
    took: list[int] = []
    take = savefile._Intake.take_chunk
    monkeypatch.setattr(savefile._Intake, "take_chunk", lambda self, *a: took.append(a[2]) or take(self, *a))
    return took


def test_a_save_with_runs_of_digits_is_taken_by_the_helper_to_its_last_whole_chunk(save, chunks, monkeypatch):
    """The helper names the lines holding a run of 16 digits and goes on: every whole
    chunk comes from it, and the load is the reader's own alone."""
    lines = _with_runs(file_lines(save))
    save.write_bytes(b"".join(lines))
    alone = _alone(monkeypatch, save)
    assert alone[0] == "loaded"
    took = _took(monkeypatch)
    assert _outcome(save) == alone
    events = len(lines) - 1
    assert events >= 5 * CHUNK
    assert took == [sum(map(len, lines[: k + 1])) for k in range(CHUNK, events - events % CHUNK + 1, CHUNK)]
    assert len(chunks) == 1 and chunks[0].returncode is not None


def test_the_lines_the_helper_names_are_looked_at_and_a_number_out_of_range_refused(save, chunks, monkeypatch):
    """A number past ``MAX_RECORD_INT`` on a line the helper names: refused with the
    reader's own words at its line, the chunks before it taken from the helper."""
    lines = _with_runs(file_lines(save), out_of_range=True)
    save.write_bytes(b"".join(lines))
    alone = _alone(monkeypatch, save)
    assert alone[0] == "refused"
    assert f"{save}:21: invalid event: the number 9007199254740992 is out of range" in alone[1]
    took = _took(monkeypatch)
    assert _outcome(save) == alone
    assert took == [sum(map(len, lines[: k + 1])) for k in (4, 8, 12, 16)]


@pytest.mark.parametrize("program", ["every", "many", "beyond"])
def test_the_lines_a_helper_names_are_checked_as_sent(save, chunks, monkeypatch, tmp_path, program):
    """A helper naming every line of a chunk (it may: each is looked at, in vain);
    more lines than a chunk holds, or a line past its end (it has failed: the reader
    reads on from the chunks before)."""
    flags = {
        "every": "list(range(chunk))",
        "many": "list(range(chunk)) + [0]",
        "beyond": "[0, chunk]",
    }[program]
    helper_replaced(
        monkeypatch,
        tmp_path / "helper.py",
        "import os, sys, runpy\n"
        f"m = runpy.run_path({linecheck.__file__!r})\n"
        "opening = m['read_exactly'](sys.stdin.buffer.raw, m['CHUNKS_OPENING'].size)\n"
        "check, chained, longest, chunk, start, end = m['CHUNKS_OPENING'].unpack(opening)\n"
        "chunks = m['good_chunks'](int(sys.argv[1]), check, bool(chained), longest, chunk, start, end)\n"
        "sent = b''\n"
        "for n, (size, last, flagged, joined) in enumerate(chunks):\n"
        f"    flagged = {flags} if n == 1 else flagged\n"
        "    named = b''.join(map(m['FLAG'].pack, flagged))\n"
        "    sent += m['CHUNK_HEAD'].pack(size, last, len(flagged)) + named + joined\n"
        "os.write(1, sent)\n",  # in one write: all there once the first chunk is (ahead of the reader)
    )
    lines = _with_runs(file_lines(save))
    save.write_bytes(b"".join(lines))
    alone = _alone(monkeypatch, save)
    took = _took(monkeypatch)
    assert _outcome(save) == alone and alone[0] == "loaded"
    events = len(lines) - 1
    every = [sum(map(len, lines[: k + 1])) for k in range(CHUNK, events - events % CHUNK + 1, CHUNK)]
    assert took == (every if program == "every" else every[:1])
