# ruff: noqa: F811  (a pytest fixture imported from coretests_support)
"""The open cache (core.storage.opencache): a game restored from it is the game a full load
makes, and an entry that does not hold for the save's bytes is never used."""

from __future__ import annotations

import builtins
import errno
import os
import shutil
import stat
from pathlib import Path

import msgspec
import pytest
from coretests_support import big_save, tiny_chunks  # noqa: F401  (big_save: a fixture)

import core
import core.storage.opencache as oc
from core.cli.main import state_json
from core.game import Game
from core.log import events as ev
from core.log.replay import visible_steps
from core.log.state import encode_state
from core.log.views import REFEREE
from core.storage.errors import SaveError, SaveLocked
from core.storage.opencache import NotCached, OpenCache
from core.storage.store import CHUNK, FACT, ISSUED, PHASE, VAR, RestoreMismatch

SAVES = Path(__file__).resolve().parents[2] / "saves"
RECORDED = sorted(SAVES.glob("*.ft"))


@pytest.fixture
def restores(monkeypatch) -> list[bool]:
    """Whether each open with a cache was restored from an entry (True) or not."""
    seen: list[bool] = []
    real = OpenCache.opening

    def spy(self, path):
        opening = real(self, path)
        seen.append(opening is not None and opening.hit is not None)
        return opening

    monkeypatch.setattr(OpenCache, "opening", spy)
    return seen


def _copy(src: Path, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, folder / name)
    return folder / name


def _open(path: Path, cache: OpenCache | None = None, **kw) -> Game:
    return Game.open(path, cache=cache, clock=lambda: 1_000, **kw)


def _seen(game: Game) -> dict:
    """Everything a reader of the game sees: the replay's JSON for each role at several
    steps, the state, the history's arrays, the timeline's phases and the log."""
    h, t = game.history, game.timeline
    steps = sorted({0, 1, h.length // 3, h.length // 2, max(0, h.length - 1), h.length})
    roles = [REFEREE, *game.state.sides]
    return {
        "replay": {
            role: [state_json(game.view(role, s), s, h.length) for s in steps]
            + [list(visible_steps(h, role, h.length))]
            for role in roles
        },
        "state": encode_state(game.state),
        "state_at": [encode_state(t.state_at(s)) for s in steps],
        "arrays": [bytes(getattr(h, name)) for name in ("group_start", "group_end", "live", "eff_cmds", "redoable")],
        "runs": (list(h.run_step), list(h.run_store), h.length, dict(h.undone_at), h.next_cmd),
        "kinds": bytes(h.store.kinds),
        "events": msgspec.json.encode(h.store.slice(0, len(h.store))),
        "timeline": msgspec.json.encode(h.timeline()),
        "phases": msgspec.json.encode(t.phases),
        "log": [(line.text, line.undone, line.number) for line in game.log_lines(REFEREE, max(0, len(h.store) - 40))],
        "undo": (game.undoing.undo_preview(role="referee"), game.undoing.redo_preview(role="referee")),
        "saved": (game.saved_bytes, game.saved_check, game.notes),
    }


def _play(game: Game) -> list[str]:
    """The same commands, undo and redo on a game; what each did (or why it was refused)."""
    game.salt = lambda: "5a17" * 8  # commitments' salts, the same on both
    said = []
    for act in (
        lambda: game.execute('note "first"', role=REFEREE),
        lambda: game.undo(role=REFEREE),
        lambda: game.redo(role=REFEREE),
        lambda: game.undo(role=REFEREE),
        lambda: game.execute('note "second"', role=REFEREE),
        lambda: game.execute("next", role=REFEREE),
        lambda: game.undo(role=REFEREE),
    ):
        try:
            said.append(str(act().lines))
        except Exception as e:  # refused the same way on both, or the test fails on the comparison
            said.append(f"{type(e).__name__}: {e}")
    return said


@pytest.mark.parametrize("save", [*RECORDED, "big"], ids=[*(p.stem for p in RECORDED), "generated"])
def test_a_restored_game_is_the_loaded_game(save, big_save, tmp_path, restores):
    src = big_save if save == "big" else save
    full = _copy(src, tmp_path / "full", "game.ft")
    cached = _copy(src, tmp_path / "cached", "game.ft")
    cache = OpenCache(tmp_path / "cache")

    first = _open(cached, cache, writable=False)  # a full load, which writes the entry
    assert restores == [False] and len(list((tmp_path / "cache").iterdir())) == 1
    first.close()
    game = _open(cached, cache)
    assert restores == [False, True]
    loaded = _open(full)
    assert _seen(game) == _seen(loaded)
    if save == "big":
        assert len(game.history.store) > 4 * CHUNK and game.history.store._framed == 4

    # Played on, both write the same bytes; the restored game's entry then covers its new end.
    assert _play(game) == _play(loaded)
    assert _seen(game) == _seen(loaded)
    game.close()
    loaded.close()
    assert cached.read_bytes() == full.read_bytes()
    assert _entry(cache).size == cached.stat().st_size
    again = _open(cached, cache, writable=False)
    assert restores[-1] is True and again.history.store is not game.history.store
    assert _seen(again) == _seen(_open(full, writable=False))


def test_a_restored_game_reads_its_sealed_chunks_from_the_save(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    game = _open(path, cache, writable=False)
    assert restores == [False, True]
    # No event is in the entry: its size is a fraction of the events' JSON.
    (entry,) = (tmp_path / "cache").iterdir()
    assert b'"t":"cmd"' not in entry.read_bytes()
    full = _open(path, writable=False)
    for index in (0, CHUNK - 1, CHUNK, 3 * CHUNK + 7, len(full.history.store) - 1):
        assert game.history.store[index] == full.history.store[index]


def test_which_chunks_hold_a_variable_and_the_versions_claimed_are_told_alike_restored_or_loaded(
    big_save, tmp_path, restores
):
    """A variable set has a kind of its own: the kinds tell the chunks that hold one, restored
    chunks too, without decoding them.  The store keeps where each command naming its version
    stands (``claims``), a restored store as its entry says."""
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    game = _open(path, cache, writable=False)
    full = _open(path, writable=False)
    restored, loaded = game.history.store, full.history.store
    assert restores == [False, True] and restored._framed == 4 and not loaded._framed
    chunks = [(c * CHUNK, (c + 1) * CHUNK) for c in range(len(loaded) // CHUNK + 1)]
    decoded = set(restored._cache)
    holds = [restored.kinds.find(VAR, a, b) >= 0 for a, b in chunks]
    assert set(restored._cache) == decoded  # none decoded to tell
    assert holds == [loaded.kinds.find(VAR, a, b) >= 0 for a, b in chunks] == [True, False, False, False, False]
    assert holds == [any(type(e) is ev.VarSet for e in loaded.slice(a, b)) for a, b in chunks]
    assert restored.claims == loaded.claims == [(0, core.__version__)]  # the generator's one session
    assert restored.last_claimed == loaded.last_claimed == core.__version__


def test_a_newer_session_is_found_past_the_entry_and_in_it(tmp_path, restores, monkeypatch):
    """A Fireteam newer than this one writes a second session after the entry: a restore finds
    its claim as a full load does, past the entry, then in the entry made after it (in a sealed
    chunk, not decoded to tell), and refuses to write the save."""
    with tiny_chunks(8, every=oc.SNAPSHOT_EVERY):  # the entry's snapshots as the cache spaces them
        monkeypatch.setattr(oc, "CHUNK", 8)
        cache = OpenCache(tmp_path / "cache")
        path = _copy(SAVES / "demo-game.ft", tmp_path, "game.ft")
        _open(path, cache, writable=False).close()  # a full load, which writes the entry
        with monkeypatch.context() as newer:
            newer.setattr(core, "__version__", "9.9.0")
            other = _open(path)  # a newer Fireteam, with no cache, appends
            for i in range(6):
                other.execute(f'note "more {i}"', role=REFEREE)
            other.close()
        loaded = _open(path, writable=False).history.store
        first = len(loaded) - 12  # its first command
        mine = [claim for claim in loaded.claims if claim[0] < first]
        assert loaded.claims == [*mine, (first, "9.9.0")] and loaded.last_claimed == "9.9.0"
        past = _open(path, cache, writable=False)  # restored; writes an entry covering it all
        again = _open(path, cache, writable=False, cached_only=True)
        assert restores == [False, True, True]
        for store in (past.history.store, again.history.store):
            assert store.claims == loaded.claims and store.last_claimed == "9.9.0"
            assert store.kinds == loaded.kinds
        assert first // 8 < again.history.store._framed and first // 8 not in again.history.store._cache
        with pytest.raises(SaveError, match=r"written by Fireteam 9\.9\.0, newer than this one"):
            _open(path, cache)
        assert restores[-1] is True


def test_an_entry_of_the_format_before_variables_had_their_kind_is_not_used(big_save, tmp_path, restores):
    """Its kinds said ``FACT`` for a variable set and it held no claims: it is loaded in full, and replaced."""
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    entry = _entry(cache)
    old = msgspec.structs.asdict(entry)
    del old["claims"]
    before = bytearray(range(256))  # the kinds as they were numbered: no VAR, so a phase's one lower
    before[VAR], before[PHASE] = FACT, PHASE - 1
    old["kinds"] = entry.kinds.translate(before)
    assert VAR in entry.kinds and old["kinds"] != entry.kinds
    body = msgspec.msgpack.encode(old)
    envelope = oc.Envelope(oc.FORMAT - 1, oc.fingerprint(), oc._digest(body), msgspec.Raw(body))
    _entry_file(cache).write_bytes(msgspec.msgpack.encode(envelope))
    game = _open(path, cache, writable=False)
    assert restores == [False, False]
    assert _seen(game) == _seen(_open(path, writable=False))
    assert _entry(cache).kinds == entry.kinds and _entry(cache).claims == entry.claims
    _open(path, cache, writable=False)
    assert restores[-1] is True


def test_another_writers_commands_are_taken_in_after_the_entry(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    other = _open(path)  # another Fireteam, with no cache, appends
    _play(other)
    other.close()
    game = _open(path, cache, writable=False)
    assert restores == [False, True]
    assert _seen(game) == _seen(_open(path, writable=False))
    # The entry now covers the appended commands too.
    assert _entry(cache).size == path.stat().st_size


def _entry(cache: OpenCache) -> oc.Entry:
    return _decoded(_entry_file(cache))


def _decoded(path: Path) -> oc.Entry:
    envelope = msgspec.msgpack.decode(path.read_bytes(), type=oc.Envelope)
    return msgspec.msgpack.decode(envelope.body, type=oc.Entry)


def test_a_torn_tail_after_the_entry_is_cut_off_as_in_a_full_load(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    with open(path, "ab") as f:
        f.write(b'0badc0de {"t":"note","tex')
    game = _open(path, cache, writable=False)
    full = _open(path, writable=False)
    assert restores == [False, True]
    assert game.notes == full.notes and game.notes and "torn" in game.notes[0]
    assert _seen(game) == _seen(full)
    # Writable: the torn bytes are set aside as a full load does, and play goes on.
    game = _open(path, cache)
    assert restores[-1] is True and any("kept in" in note for note in game.notes)
    game.execute('note "after"', role=REFEREE)
    game.close()
    assert _seen(_open(path, cache, writable=False)) == _seen(_open(path, writable=False))


def test_damage_after_the_entry_is_refused_as_in_a_full_load(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    other = _open(path)
    _play(other)
    other.close()
    data = bytearray(path.read_bytes())
    data[-20] ^= 1  # inside the last line, which the entry does not cover
    data += b"deadbeef {}\n"  # and one more line, so that it is not the last
    path.write_bytes(bytes(data))
    with pytest.raises(SaveError) as full:
        _open(path, writable=False)
    with pytest.raises(SaveError) as cached:
        _open(path, cache, writable=False)
    assert str(cached.value) == str(full.value) and ":" in str(full.value)
    assert restores == [False, True]


def test_a_save_changed_inside_the_entrys_prefix_is_loaded_in_full_and_refused(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    data = bytearray(path.read_bytes())
    lines = data.split(b"\n")
    at = sum(len(line) + 1 for line in lines[:2000]) + 20  # inside line 2001, same length
    data[at] = ord("7") if data[at] != ord("7") else ord("8")
    path.write_bytes(bytes(data))
    with pytest.raises(SaveError) as refused:
        _open(path, cache, writable=False)
    assert restores == [False, False]
    assert f"{path}:2001:" in str(refused.value)
    with pytest.raises(NotCached):
        _open(path, cache, cached_only=True)
    with pytest.raises(SaveError) as again:  # damaged, not locked: NotCached let the lock go
        _open(path)
    assert not isinstance(again.value, SaveLocked)


# ------------------------------------------------------------------ hostile entries


def _entry_file(cache: OpenCache) -> Path:
    (entry,) = [p for p in cache.folder.iterdir() if p.suffix == ".open"]
    return entry


def _changed(**fields):
    """An attack that rewrites an entry with ``fields`` changed (each a function of the old
    value, or the new value) and a valid digest of its own: what only someone who writes
    the user's cache folder could make."""

    def attack(path: Path) -> None:
        envelope = msgspec.msgpack.decode(path.read_bytes(), type=oc.Envelope)
        entry = msgspec.msgpack.decode(envelope.body, type=oc.Entry)
        new = {k: v(getattr(entry, k)) if callable(v) else v for k, v in fields.items()}
        body = msgspec.msgpack.encode(msgspec.structs.replace(entry, **new))
        envelope = oc.Envelope(envelope.format, envelope.fingerprint, oc._digest(body), msgspec.Raw(body))
        path.write_bytes(msgspec.msgpack.encode(envelope))

    return attack


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))


def _stale(path: Path) -> None:
    envelope = msgspec.msgpack.decode(path.read_bytes(), type=oc.Envelope)
    stale = msgspec.structs.replace(envelope, fingerprint=bytes(16))
    path.write_bytes(msgspec.msgpack.encode(stale))


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(5000))


def _huge(path: Path) -> None:
    with open(path, "r+b") as f:
        f.truncate(oc.MAX_ENTRY_BYTES + 1)


HOSTILE = {
    "truncated": _truncate,
    "bit-flipped": _flip,
    "stale fingerprint": _stale,
    "garbage": _garbage,
    "too big": _huge,
    "empty": lambda p: p.write_bytes(b""),
    "offsets past the end": _changed(offsets=lambda o: [*o[:-1], 10**12]),
    "offsets not on lines": _changed(offsets=lambda o: [o[0], *(x + 3 for x in o[1:])]),
    "size past the end": _changed(size=10**12),
    "size short of the digest": _changed(size=lambda size: size - 1),
    "huge counts": _changed(lines=10**15, length=10**15),
    "negative length": _changed(length=-5),
    "kinds of another save": _changed(kinds=lambda k: k[:-1] + b"\x07"),
    "arrays cut short": _changed(group_start=lambda a: a[:-3]),
    "commands past the end": _changed(eff_cmds=lambda a: a + (10**9).to_bytes(8, "little")),
    "a negative start": _changed(group_start=lambda a: a[:40] + (-1).to_bytes(8, "little", signed=True) + a[48:]),
    "a redo of command 0": _changed(redoable=bytes(8)),
    "an undo past the events": _changed(undone_at={1: 10**6}),
    "a phase at step 0": _changed(phases=lambda phases: [(0, phases[0][1]), *phases[1:]]),
    "snapshots missing": _changed(snapshots=lambda snapshots: snapshots[:1]),
    "state not a state": _changed(state=b"\x93\x01\x02\x03"),
    "wrong check": _changed(check=lambda check: check ^ 1),
    "digest of nothing": _changed(digest=bytes(oc.DIGEST_BYTES)),
    "phases past the end": _changed(phases=lambda phases: [(10**9, phases[0][1])]),
    "claims out of order": _changed(claims=lambda claims: [*claims, *claims]),
    "a claim on a fact": _changed(claims=[(1, "9.9.0")]),
    "a claim past the events": _changed(claims=lambda claims: [*claims, (10**9, "9.9.0")]),
    "a claim the tail does not make": lambda path: _changed(
        claims=lambda claims: [*claims, (_decoded(path).kinds.rindex(ISSUED), "9.9.0")]
    )(path),
}


def test_an_entry_rewritten_with_nothing_changed_is_used(big_save, tmp_path, restores):
    # So each attack of ``_changed`` is refused for what it changed, not for how it was written.
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False).close()
    _changed()(_entry_file(cache))
    game = _open(path, cache, writable=False, cached_only=True)
    assert restores == [False, True]
    assert _seen(game) == _seen(_open(path, writable=False))


@pytest.mark.parametrize("attack", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_or_damaged_entry_is_never_used(attack, big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False).close()
    HOSTILE[attack](_entry_file(cache))
    with pytest.raises(NotCached):
        _open(path, cache, writable=False, cached_only=True)
    game = _open(path, cache, writable=False)  # loaded in full, and a fresh entry written
    assert _seen(game) == _seen(_open(path, writable=False))
    assert _open(path, cache, writable=False, cached_only=True).timeline.state == game.state
    assert restores[-1] is True and True not in restores[:-1]


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _linked(path: Path) -> None:
    # A link to a sound entry (another place's copy of it): not followed, like every cache's.
    real = path.with_name("elsewhere")
    path.rename(real)
    path.symlink_to(real)


def _everybodys(path: Path) -> None:
    path.chmod(0o666)


@pytest.mark.parametrize("planted", [_fifo, _linked, _everybodys], ids=["a FIFO", "a link", "world-writable"])
def test_something_planted_in_an_entrys_place_never_holds_an_open_up_and_is_not_used(
    planted, big_save, tmp_path, restores
):
    # Opened as a file, a FIFO waits for a writer: the client would never start.
    import threading

    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False).close()
    planted(_entry_file(cache) if planted is not _linked else next(cache.folder.glob("*.open")))
    said: list[object] = []

    def open_it() -> None:
        try:
            _open(path, cache, writable=False, cached_only=True)
        except NotCached as e:
            said.append(e)

    opening = threading.Thread(target=open_it, daemon=True)
    opening.start()
    opening.join(timeout=120)  # (it answers at once; the wait only bounds a failure)
    assert not opening.is_alive(), "the open waited on what was planted in the cache"
    assert len(said) == 1  # not used
    game = _open(path, cache, writable=False)  # loaded in full, an entry written afresh in its place
    assert _seen(game) == _seen(_open(path, writable=False))
    assert _open(path, cache, writable=False, cached_only=True).timeline.state == game.state


def test_an_entry_another_user_owns_is_not_used(big_save, tmp_path, restores, monkeypatch):
    # Its digests would hold (they guard against damage): only the user is trusted to write his cache.
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False).close()
    me = os.geteuid()
    monkeypatch.setattr(os, "geteuid", lambda: me + 1)  # the entry is then another user's
    with pytest.raises(NotCached):
        _open(path, cache, writable=False, cached_only=True)
    monkeypatch.setattr(os, "geteuid", lambda: me)
    assert _open(path, cache, writable=False, cached_only=True).timeline.state is not None
    assert restores == [False, False, True]


def test_an_entry_of_another_save_is_not_used(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    other = _copy(SAVES / "demo-game.ft", tmp_path, "demo.ft")
    _open(path, cache, writable=False)
    head = other.read_bytes().split(b"\n", 1)[0]
    shutil.copyfile(_entry_file(cache), cache.path_of(head))  # under the other save's name
    with pytest.raises(NotCached):
        _open(other, cache, writable=False, cached_only=True)
    # A divergent copy (same header, other commands) does not use it either.
    fork = _copy(big_save, tmp_path / "fork", "big.ft")
    with open(fork, "r+b") as f:
        f.truncate(fork.stat().st_size - 1000)
    game = _open(fork, cache, writable=False)
    assert _seen(game) == _seen(_open(fork, writable=False))
    assert restores == [False, False, False]


def test_a_cache_that_cannot_be_written_changes_nothing(big_save, tmp_path, restores):
    path = _copy(big_save, tmp_path, "big.ft")
    before = path.read_bytes()
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    read_only.chmod(stat.S_IRUSR | stat.S_IXUSR)
    for folder in (a_file, a_file / "open", read_only / "open", read_only):
        game = _open(path, OpenCache(folder))
        assert _seen(game) == _seen(_open(path, writable=False))
        game.execute('note "x"', role=REFEREE)
        game.close()
    read_only.chmod(stat.S_IRWXU)
    assert a_file.read_text() == "not a folder"
    assert path.read_bytes().startswith(before)
    if os.geteuid() != 0:  # root writes anywhere
        assert not list(read_only.iterdir())
    assert True not in restores


def test_a_fireteam_whose_sources_cannot_be_read_opens_saves_and_keeps_no_entry(big_save, tmp_path, monkeypatch):
    # A frozen build's modules may have no readable source: the fingerprint cannot be
    # taken, and the cache steps aside instead of failing the open.
    def unreadable() -> bytes:
        raise FileNotFoundError("core/log/events.py")

    monkeypatch.setattr(oc, "fingerprint", unreadable)
    path = _copy(big_save, tmp_path, "big.ft")
    folder = tmp_path / "open"
    game = _open(path, OpenCache(folder))
    assert _seen(game) == _seen(_open(path, writable=False))
    game.execute('note "x"', role=REFEREE)
    game.close()
    assert not folder.exists() or not list(folder.iterdir())


def test_a_save_that_fails_to_read_beside_its_entry_is_opened_as_without_a_cache(
    big_save, tmp_path, monkeypatch, restores
):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False).close()

    class FailingRead:
        """The save's file, whose reads of its bytes fail (a disk's error)."""

        def __init__(self, f) -> None:
            self._f = f

        def __getattr__(self, name):
            return getattr(self._f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self._f.close()

        def read(self, size: int = -1) -> bytes:
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(oc, "open", lambda *a, **k: FailingRead(builtins.open(*a, **k)), raising=False)
    game = _open(path, cache, writable=False)
    assert restores == [False, False]  # no entry used: the load read the save itself
    assert _seen(game) == _seen(_open(path, writable=False))


def test_a_missing_cache_folder_is_made(big_save, tmp_path, restores):
    folder = tmp_path / "deep" / "er" / "open"
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, OpenCache(folder), writable=False)
    assert len(list(folder.iterdir())) == 1
    _open(path, OpenCache(folder), writable=False)
    assert restores == [False, True]


def test_the_least_recently_used_entries_are_evicted(tmp_path):
    cache = OpenCache(tmp_path / "cache", max_entries=2)
    paths = [_copy(save, tmp_path, f"{i}.ft") for i, save in enumerate(RECORDED[:3])]
    entries = [cache.path_of(path.read_bytes().split(b"\n", 1)[0]) for path in paths]
    for used, (path, entry) in enumerate(zip(paths[:2], entries, strict=False)):
        _open(path, cache, writable=False)
        os.utime(entry, (1000 + used, 1000 + used))
    _open(paths[0], cache, writable=False, cached_only=True)  # used again: now the most recent
    _open(paths[2], cache, writable=False)
    assert sorted(cache.folder.iterdir()) == sorted([entries[0], entries[2]])


def test_a_save_in_a_format_that_needs_upcasting_gets_no_entry(tmp_path, monkeypatch):
    import core.storage.savefile

    # The demo save is in format 3: as a later Fireteam with an upcaster from 3 would see it.
    path = _copy(SAVES / "demo-game.ft", tmp_path, "demo.ft")
    monkeypatch.setattr(core.storage.savefile, "FORMAT_VERSION", 4)
    monkeypatch.setattr(oc, "FORMAT_VERSION", 4)
    monkeypatch.setitem(core.storage.savefile.UPCASTERS, 3, {"note": lambda r: r})
    _open(path, OpenCache(tmp_path / "cache"), writable=False)
    assert not (tmp_path / "cache").exists()


def _line_before(data: bytes, at: int) -> int:
    return data.rindex(b"\n", 0, at - 1) + 1


def _kinds_swapped_in_chunk(kinds: bytes) -> bytes:
    """Chunk 1's first command marker and the fact before it swapped: as many of each kind."""
    at = kinds.index(ISSUED, CHUNK + 1, 2 * CHUNK)
    swapped = bytearray(kinds)
    swapped[at - 1 : at + 1] = kinds[at : at + 1] + kinds[at - 1 : at]
    assert swapped != kinds
    return bytes(swapped)


def _claim_added_in_chunk(data: bytes):
    """A claim of a newer Fireteam on chunk 2's first command."""
    lines = data.split(b"\n")[1:]  # event k on line k + 1, its payload past the check and a space
    first = next(k for k in range(2 * CHUNK, 3 * CHUNK) if lines[k][9:].startswith(b'{"t":"cmd"'))
    return _changed(claims=lambda claims: [*claims, (first, "9.9.0")])


# Entries that fit the save's bytes as a restore checks them, and lie about where
# the events of its sealed chunks are, or of what kind they are (what the store
# checks as each chunk is first used): (the attack, the chunk that lies, the chunk
# first read, the chunks that fail, the chunks that do not).
LYING_CHUNKS = {
    # Every boundary a line early: chunk 0 is a line short, the last a line long.
    "every chunk a line early": (
        lambda data: _changed(offsets=lambda o: [o[0], *(_line_before(data, x) for x in o[1:-1]), o[-1]]),
        0,
        3,
        [0, 1, 3],
        [],
    ),
    # Chunk 2 a line early at both ends: its own count is right, chunk 1's is not.
    "one chunk a line early": (
        lambda data: _changed(offsets=lambda o: [*o[:2], *(_line_before(data, x) for x in o[2:4]), *o[4:]]),
        1,
        2,
        [1, 2, 3],
        [0],
    ),
    "kinds of a chunk swapped": (lambda data: _changed(kinds=_kinds_swapped_in_chunk), 1, 1, [1], [0, 2, 3]),
    # The session's claim (on its first command) left out: this Fireteam would take the save for one
    # whose commands name no version, until chunk 0 is read.
    "a claim left out": (lambda data: _changed(claims=[]), 0, 0, [0], [1, 2, 3]),
    "a claim made up": (_claim_added_in_chunk, 2, 2, [2], [0, 1, 3]),
}


@pytest.mark.parametrize("lie", LYING_CHUNKS, ids=list(LYING_CHUNKS))
def test_an_entry_that_lies_about_its_chunks_shows_no_wrong_event_and_is_forgotten(lie, big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    attack, bad, first, failing, good = LYING_CHUNKS[lie]
    attack(path.read_bytes())(_entry_file(cache))
    game = _open(path, cache, writable=False, cached_only=True)
    full = _open(path, writable=False)
    store, events = game.history.store, full.history.store
    assert restores == [False, True] and len(store) > 4 * CHUNK
    with pytest.raises(RestoreMismatch, match=f"events {bad * CHUNK + 1} to {(bad + 1) * CHUNK} "):
        store[first * CHUNK + 3]
    assert not list(cache.folder.iterdir())  # the entry is gone: the next open loads in full
    for chunk in failing:
        with pytest.raises(RestoreMismatch):
            store.slice(chunk * CHUNK, chunk * CHUNK + 2)
    for index in (*(k * CHUNK + 5 for k in good), len(store) - 1):
        assert store[index] == events[index]
    with pytest.raises(NotCached):
        _open(path, cache, writable=False, cached_only=True)
    assert _seen(_open(path, cache, writable=False)) == _seen(full)
    assert restores[-1] is False


def _flip_byte(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] = ord("1") if data[at] != ord("1") else ord("2")
    path.write_bytes(bytes(data))


def test_a_save_changed_behind_a_games_back_is_not_cached_as_it_closes(big_save, tmp_path, restores):
    cache = OpenCache(tmp_path / "cache")
    path = _copy(big_save, tmp_path, "big.ft")
    _open(path, cache, writable=False)
    covered = _entry(cache).size
    # Another program changes what this game appended, while it is open.
    game = _open(path, cache)
    game.execute('note "mine"', role=REFEREE)
    _flip_byte(path, path.stat().st_size - 5)
    game.close()
    assert _entry(cache).size == covered
    with pytest.raises(SaveError) as refused:
        _open(path, cache, writable=False)
    assert restores == [False, True, True]
    # Or what it had loaded: the new entry is of the bytes as they were, which no longer match.
    path.write_bytes(big_save.read_bytes())
    game = _open(path, cache)
    game.execute('note "mine"', role=REFEREE)
    _flip_byte(path, 3000)
    game.close()
    with pytest.raises(SaveError) as refused:
        _open(path, cache, writable=False)
    assert restores[-1] is False and f"{path}:" in str(refused.value)


def test_more_than_a_chunk_written_after_an_entry_that_ends_inside_a_chunk_is_taken_in(tmp_path, restores, monkeypatch):
    """The load goes on from the entry in the middle of a chunk (the demo game's events are not
    a whole number of chunks of 8) and takes in more than a chunk of another writer's events
    in one go: the same game as a full load, not a store that takes a whole chunk where half
    of one is still open."""
    with tiny_chunks(8, every=oc.SNAPSHOT_EVERY):  # the entry's snapshots as the cache spaces them
        monkeypatch.setattr(oc, "CHUNK", 8)
        cache = OpenCache(tmp_path / "cache")
        path = _copy(SAVES / "demo-game.ft", tmp_path, "game.ft")
        first = _open(path, cache, writable=False)  # a full load, which writes the entry
        cached = len(first.history.store)
        first.close()
        other = _open(path)  # another Fireteam, with no cache, appends
        for i in range(6):
            other.execute(f'note "more {i}"', role=REFEREE)
        other.close()
        game = _open(path, cache, writable=False)
        assert restores == [False, True]
        assert cached % 8 != 0 and len(game.history.store) - cached == 12  # inside a chunk; then more than one
        assert _seen(game) == _seen(_open(path, writable=False))
