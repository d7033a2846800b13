"""Every write path under a failing disk (``faultshim``): for each path, its write-side calls
are counted, then each one in turn fails (EIO, ENOSPC, a short write; once, and from then
on) until the path completes, and after every run:

- a failure is said in one line, and nothing raises (no traceback);
- every command acknowledged is in the save, and one said unrecorded is not;
- what the save held before is still its start (nothing rewritten in place);
- no temporary file is left, nor any new file but the path's own product (a file whose
  removal the disk refused is the only exception);
- the save, or the path's product, opens.

docs/testing.md says how to add a path.  The paths are small (a few commands) so that the
whole suite stays within a few minutes of a busy machine.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import pytest
from faultshim import KINDS, Faults

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused
from core.storage.errors import NoGameYet, SaveError
from core.storage.savefile import load
from tui.main import main as fireteam

MODES = [(kind, lasting) for kind in KINDS for lasting in (False, True)]


@dataclass
class Run:
    """What a path said and did in one run."""

    code: int = 0  # 0: done
    said: str = ""  # what it said of a failure (stderr, or the error's words)
    #: Commands acknowledged; one said unrecorded; one whose fate is unknown (not taken back).
    acked: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


@dataclass
class Path_:
    name: str
    #: Makes what the path starts from in the folder (no fault).
    setup: Callable[[Path], None]
    #: Runs the path in the folder, under the faults.
    run: Callable[[Path], Run]
    #: The files the path may leave when it completes; when it fails, those it may still leave.
    product: tuple[str, ...] = ()
    left_on_failure: tuple[str, ...] = ()
    #: The save whose commands are checked (relative to the folder), if any.
    save: str = ""


# ---------------------------------------------------------------------- the starting files

_BASE: dict[str, bytes] = {}


def _demo_bytes() -> bytes:
    """A demo game with two notes: made once, copied into each run's folder."""
    if "demo" not in _BASE:
        import tempfile

        with tempfile.TemporaryDirectory() as where:
            game = Game.new(Path(where) / "g.ft", "breaking-news", seed=7, clock=lambda: 1_000)
            game.execute("scenario demo", role=REFEREE)
            game.execute("note one", role=REFEREE)
            game.execute("note two", role=REFEREE)
            game.close()
            _BASE["demo"] = (Path(where) / "g.ft").read_bytes()
    return _BASE["demo"]


def _with_demo(folder: Path) -> None:
    (folder / "g.ft").write_bytes(_demo_bytes())


def _with_torn_demo(folder: Path) -> None:
    (folder / "g.ft").write_bytes(_demo_bytes() + b'0123abcd {"t":"cmd","cm')


def _nothing(folder: Path) -> None:
    pass


def _cli(words: list[str]) -> Run:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = fireteam(words)
    return Run(code, err.getvalue())


def _notes(path: Path) -> list[str]:
    with closing(Game.open(path, writable=False)) as game:
        return [e.text for e in game.history.timeline() if isinstance(e, ev.Noted) and isinstance(e.text, str)]


# ---------------------------------------------------------------------- the paths


def _played(opening: Callable[[], Game], lines: list[str]) -> Run:
    """The game ``opening`` opens (or the error it is refused with), ``lines`` given in it until one is refused."""
    run = Run()
    try:
        game = opening()
    except SaveError as e:
        return Run(2, str(e))
    try:
        for line in lines:
            try:
                game.execute(line, role=REFEREE)
            except Refused as e:
                said = str(e)
                (run.unknown if "could not be taken back" in said else run.lost).append(line)
                run.code, run.said = 1, said
                break
            run.acked.append(line)
    finally:
        game.close()
    return run


def _new_game(folder: Path) -> Run:
    return _played(lambda: Game.new(folder / "new.ft", "ludonet", seed=3, clock=lambda: 1_000), ["note a"])


def _game_play(folder: Path) -> Run:
    """Open the demo, play, undo and redo."""
    return _played(lambda: Game.open(folder / "g.ft"), ["note three", "undo", "redo", "note four"])


def _open_torn(folder: Path) -> Run:
    """Open a save whose last command a crash tore: its tail is set aside, then one command."""
    return _played(lambda: Game.open(folder / "g.ft"), ["note three"])


def _with_script(folder: Path) -> None:
    (folder / "moves.txt").write_bytes(b"note a\nnote b\n")


def _script(folder: Path) -> Run:
    run = _cli(["script", str(folder / "moves.txt"), "--save", str(folder / "new.ft"), "--ruleset", "ludonet"])
    lines = ["note a", "note b"]
    stopped = re.match(r".*moves\.txt:(\d+): ", run.said)
    done = len(lines) if not run.code else int(stopped[1]) - 1 if stopped else 0
    run.acked = lines[:done]
    if stopped:
        (run.unknown if "could not be taken back" in run.said else run.lost).append(lines[done])
    return run


def _settings(folder: Path) -> Run:
    from tui.userdata import Settings, UserStore

    store = UserStore(folder / "config", folder / "data")
    try:
        store.save_settings(Settings(theme="nord"))
        store.save_history(folder / "g.ft", ["note a", "note b"])
    except OSError as e:
        return Run(2, f"{e.strerror}")
    return Run()


def _serve_folder(folder: Path) -> None:
    (folder / "serve").mkdir()


def _invitations(folder: Path) -> Run:
    from tui.ssh.invitations.store import Invitations, InvitationsError

    try:
        Invitations(folder / "serve").create("regulars")
    except InvitationsError as e:
        return Run(2, str(e))
    return Run()


def _host_key(folder: Path) -> Run:
    from tui.ssh.host.hostfiles import host_key

    try:
        host_key(folder / "serve")
    except OSError as e:
        return Run(2, f"{e.strerror}")
    return Run()


def _with_finished(folder: Path) -> None:
    """A finished game: Ludonet's recorded one."""
    shutil.copyfile(Path(__file__).parents[2] / "saves" / "ludonet-game.ft", folder / "g.ft")


def _with_signers(folder: Path) -> None:
    from tests.shared.keys import keygen, signer_line

    (folder / "allowed").write_text(signer_line(keygen(folder, "org"), "org") + "\n")


PATHS = [
    Path_("new game", _nothing, _new_game, ("new.ft",), save="new.ft"),
    Path_("play, undo, redo", _with_demo, _game_play, save="g.ft"),
    Path_("open a torn save", _with_torn_demo, _open_torn, save="g.ft"),
    Path_("script", _with_script, _script, ("new.ft",), save="new.ft"),
    Path_(
        "fork",
        _with_demo,
        lambda f: _cli(["fork", str(f / "g.ft"), "--step", "0", "--save", str(f / "k.ft")]),
        ("k.ft",),
    ),
    Path_("salvage", _with_torn_demo, lambda f: _cli(["salvage", str(f / "g.ft"), "--to", str(f / "s.ft")]), ("s.ft",)),
    Path_(
        "export",
        _with_demo,
        lambda f: _cli(["export", str(f / "g.ft"), "--as", "regulars", "-o", str(f / "c.json")]),
        ("c.json",),
    ),
    Path_("report", _with_demo, lambda f: _cli(["report", str(f / "g.ft"), "-o", str(f / "r.md")]), ("r.md", "*.svg")),
    Path_("certify", _with_finished, lambda f: _cli(["certify", str(f / "g.ft"), "-o", str(f / "g.t")]), ("g.t",)),
    Path_(
        "league new",
        _with_signers,
        lambda f: _cli(
            ["league", "new", str(f / "c.league"), "--signers", str(f / "allowed"), "--organiser", "org"]
            + ["--key", str(f / "org")]
        ),
        ("c.league",),
    ),
    Path_("settings and history", _nothing, _settings, ("config", "data")),
    Path_("invitations", _serve_folder, _invitations, ("serve",)),
    Path_("host key", _serve_folder, _host_key, ("serve",)),
]

#: Faulted runs made, by path (printed at the end of the suite: docs/testing.md).
COUNTS: dict[str, int] = {}


# ---------------------------------------------------------------------- the checks


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _allowed(name: str, patterns: tuple[str, ...]) -> bool:
    top = name.split("/")[0]
    return any(Path(top).match(p) for p in patterns)


def _check(path: Path_, folder: Path, before: dict[str, bytes], run: Run, faults: Faults) -> None:
    where = f"{path.name}, {faults.kind} at call {faults.nth}{' on' if faults.lasting else ''}"
    # One line, no traceback.
    if run.code:
        assert run.said.strip() and run.said.strip().count("\n") == 0, where + ": " + run.said
        assert "Traceback" not in run.said, where
    after = _files(folder)
    unremoved = {str(p.relative_to(folder.resolve())) for p in faults.unremoved if folder.resolve() in p.parents}
    # No temporary file; nothing new but the product (or what the disk refused to remove).
    for name in after:
        if name in before or name in unremoved:
            continue
        if name.endswith(".tmp") or ".tmp" in Path(name).name:
            pytest.fail(f"{where}: temporary file {name} left")
        if Path(name).name.endswith(".lock"):  # a writer's label, ignored once no process holds the lock
            continue
        if ".torn-" in name:  # a torn tail set aside, whole (the save's own words say so)
            continue
        allowed = path.product if not run.code else path.left_on_failure + path.product
        assert _allowed(name, allowed), f"{where}: {name} left ({run.said})"
    # Nothing rewritten in place: what the save held is still its start (a torn tail may be set aside).
    if path.save and path.save in before and path.save in after:
        old, new = before[path.save], after[path.save]
        whole = load_bytes_whole(old)
        assert new[: len(whole)] == whole, f"{where}: {path.save} rewritten"
    # The save opens, and holds exactly the commands acknowledged (and maybe the one not taken back).
    if path.save and (folder / path.save).exists():
        save = folder / path.save
        try:
            notes = _notes(save)
        except NoGameYet:
            assert path.save not in before and not run.acked, f"{where}: acknowledged commands in a save with no game"
            return
        except SaveError as e:
            pytest.fail(f"{where}: the save does not open: {e}")
        played = [t.removeprefix("note ") for t in run.acked if t.startswith("note ")]
        kept = notes[len(_old_notes(before.get(path.save))) :]
        unsure = [t.removeprefix("note ") for t in run.unknown if t.startswith("note ")]
        undone = _undone_tail(save)
        assert kept in (played, played + unsure) or undone, f"{where}: kept {kept}, acknowledged {played}"
        for lost in run.lost:
            assert lost.removeprefix("note ") not in kept[len(played) :], f"{where}: {lost} said lost, kept"
    elif path.save and path.save in before:
        pytest.fail(f"{where}: {path.save} is gone")
    # The product opens (a save, a copy) or is whole (the rest).
    if not run.code:
        for name in path.product:
            target = folder / name
            if target.suffix == ".ft" and target.exists():
                Game.open(target, writable=False).close()
            elif target.suffix == ".json" and target.exists():
                msgspec.json.decode(target.read_bytes())


def load_bytes_whole(data: bytes) -> bytes:
    """The whole lines of ``data`` (a torn last line may be set aside)."""
    return data[: data.rfind(b"\n") + 1]


def _old_notes(data: bytes | None) -> list[str]:
    return _notes_of(data) if data else []


def _notes_of(data: bytes) -> list[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as where:
        path = Path(where) / "x.ft"
        path.write_bytes(data)
        try:
            return _notes(path)
        except SaveError:
            return []


def _undone_tail(save: Path) -> bool:
    """Whether an undo is on the save's effective end (its notes then count one fewer)."""
    loaded = load(save)
    return any(isinstance(e, ev.Undone) for e in loaded.history.store.slice(0, len(loaded.history.store)))


# ---------------------------------------------------------------------- the runs


def _one(path: Path_, folder: Path, faults: Faults) -> Run:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    path.setup(folder)
    before = _files(folder)
    with faults:
        run = path.run(folder)
    _check(path, folder, before, run, faults)
    return run


#: The paths that start a process (``league new`` signs with ``ssh-keygen``): marked so (tests/conftest.py).
_STARTS_A_PROCESS = ("league new",)


@pytest.mark.long
@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=[pytest.mark.subprocess] if p.name in _STARTS_A_PROCESS else []) for p in PATHS],
    ids=[p.name for p in PATHS],
)
def test_every_write_of_the_path_fails_in_turn(path, tmp_path):
    counting = Faults(tmp_path / "run")
    clean = _one(path, tmp_path / "run", counting)
    assert clean.code == 0, clean.said
    calls = counting.calls
    assert calls > 0
    runs = 0
    for kind, lasting in MODES:
        for nth in range(1, calls + 1):
            faults = Faults(tmp_path / "run", kind, nth, lasting=lasting)
            _one(path, tmp_path / "run", faults)
            runs += 1
            if not faults.fired:
                break  # the path completed before its nth call: every later n is the same run
    COUNTS[path.name] = runs
    print(f"{path.name}: {calls} calls, {runs} faulted runs")
