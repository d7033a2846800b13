"""Helpers shared by the core tests (imported by name: tests/core has no package)."""

from __future__ import annotations

import gc
import hashlib
from contextlib import closing, contextmanager
from pathlib import Path

import msgspec
import pytest

import core.storage.savefile
import core.storage.store
from core.game import Game
from core.log import events as ev
from core.log.replay import Timeline
from core.log.views import REFEREE
from core.storage.savefile import load

DEMO_HIDDEN_UNITS = ("dahir", "egal")
DEMO_HIDDEN_NAMES = ("Dahir", "Egal")
DEMO_SECRET_KEYS = tuple(f"marker.{i}" for i in range(1, 6))


def sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def new_demo(path: Path, seed: int = 7) -> Game:
    """A Breaking News game on the demo scenario, with a fixed clock so files are reproducible."""
    game = Game.new(path, "breaking-news", seed=seed, clock=lambda: 1_000)
    game.execute("scenario demo", role=REFEREE)
    return game


def builtins(obj) -> object:
    return msgspec.to_builtins(obj)


def file_events(path: Path) -> list[ev.Event]:
    """Every event of a save in file order (undone ones too)."""
    store = load(path).history.store
    return store.slice(0, len(store))


def write_anew(path: Path, data: bytes) -> None:
    """``path`` made to hold ``data`` as a new file: one cut to nothing and written again
    is flushed to the disk as it closes (ext4's auto_da_alloc), milliseconds a write in a
    test's loop."""
    path.unlink(missing_ok=True)
    path.write_bytes(data)


def file_lines(path: Path) -> list[bytes]:
    """The file's lines, each with its newline."""
    return Path(path).read_bytes().splitlines(keepends=True)


def unit_ends(events: list[ev.Event]) -> list[int]:
    """Event counts at which the file holds only whole units (commands, undo/redo markers).

    Worked out independently of ``History``: a command marker with ``n`` owns
    the ``n`` events after it.
    """
    ends = [0]
    i = 0
    while i < len(events):
        e = events[i]
        i += 1 + (e.n if isinstance(e, ev.Issued) else 0)
        ends.append(i)
    return ends


@contextmanager
def tiny_chunks(chunk: int = 8, cache: int = 2, every: int = 4):
    """Shrink the store's chunks, its cache and the snapshot spacing so a small game
    crosses every boundary a million-event game would (sealing, eviction, batches, snapshots)."""
    saved = (
        core.storage.store.CHUNK,
        core.storage.savefile.CHUNK,
        core.storage.store.CACHE_CHUNKS,
        Timeline.__init__.__defaults__,
    )
    core.storage.store.CHUNK = core.storage.savefile.CHUNK = chunk
    core.storage.store.CACHE_CHUNKS = cache
    Timeline.__init__.__defaults__ = (None, every, *saved[3][2:])  # the defaults after ``every`` as they are
    try:
        yield
    finally:
        (
            core.storage.store.CHUNK,
            core.storage.savefile.CHUNK,
            core.storage.store.CACHE_CHUNKS,
            Timeline.__init__.__defaults__,
        ) = saved


# ------------------------------------------------------------- a small test ruleset

from core.language.i18n import CORE_DOMAIN  # noqa: E402
from core.registry import register, unregister  # noqa: E402
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset  # noqa: E402
from core.rulesets.common import REFEREE_TOOLS  # noqa: E402

SKIRMISH_UNITS = (
    ev.UnitSpec(id="alpha", name="Alpha One", side="blue"),
    ev.UnitSpec(id="bravo", name="Bravo Two", side="blue"),
    ev.UnitSpec(id="ghost", name="Ghost Rider", side="red", status=("hidden",)),
    ev.UnitSpec(id="gunner", name="Gunner Grey", side="red"),
    ev.UnitSpec(id="grunt", name="Grunt Green", side="red"),
)


def _setup(ctx: Context, args: dict) -> None:
    ctx.emit(ev.GameSetUp(scenario="Skirmish", sides=(ev.SideSpec("blue", "Blue"), ev.SideSpec("red", "Red"))))
    for u in SKIRMISH_UNITS:
        ctx.emit(ev.UnitAdded(unit=u, vis=(u.side,) if "hidden" in u.status else ()))
    ctx.emit(ev.SecretSet(key="plan", owner="red", value="flank left", vis=("red",)))
    ctx.emit(ev.PhaseBegan(turn=1, phase="play"))


def _walk(ctx: Context, args: dict) -> None:
    ctx.emit(ev.Moved(unit=args["unit"], cm=args["cm"], how=args["how"]))


def _shoot(ctx: Context, args: dict) -> None:
    ctx.roll("shoot", 2, target=4, unit=args["shooter"], outcome=lambda f: f"{sum(x >= 4 for x in f)} hits")


def _peek(ctx: Context, args: dict) -> None:
    if args["key"] not in ctx.state.secrets:
        raise Refused(f"no secret {args['key']}")
    ctx.emit(ev.Revealed(key=args["key"], value=ctx.state.secrets[args["key"]].value))


class Skirmish(Ruleset):
    """Just enough of a game for the core's tests: players' commands that move,
    roll and reveal, a hidden unit, a secret, and the shared referee tools."""

    id = "test-skirmish"
    name = "Test skirmish"
    version = "0.1"
    domain = CORE_DOMAIN
    phases = (Phase("setup", "Set-up", "referee", "setup"), Phase("play", "Play", "both", "anything"))

    def commands(self):
        return [
            CommandSpec("setup", "Set the table.", _setup, who="referee", phases=("setup",)),
            CommandSpec(
                "walk",
                "Move one of your units.",
                _walk,
                params=(
                    Param("unit", "own"),
                    Param("cm", "int"),
                    Param("how", "choice", choices=("run", "crawl"), optional=True, keyword=True, default="walk"),
                ),
            ),
            CommandSpec(
                "shoot",
                "Fire at an enemy.",
                _shoot,
                params=(Param("shooter", "own"), Param("target", "enemy")),
                rolls=True,
            ),
            CommandSpec("peek", "Reveal a secret.", _peek, params=(Param("key", "text"),)),
            *REFEREE_TOOLS,
        ]


@contextmanager
def skirmish_registered():
    """The test ruleset in the registry only while a test needs it (others list the rulesets)."""
    register(Skirmish)
    try:
        yield
    finally:
        unregister(Skirmish.id)


def new_skirmish(path: Path, seed: int = 5) -> Game:
    game = Game.new(path, Skirmish.id, seed=seed, clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    return game


# ------------------------------------------------------------------------ fixtures
# Imported by the test modules that use them: tests/core has no conftest.py, so
# it adds no second module named "conftest" beside the other test folders'.


@pytest.fixture
def collector_off():
    """The cycle collector off, for a test whose loads read their save in several reads
    (a small ``savefile._CHUNK``): each such load collects first, as a big save's does
    (``_collector_paused``, tested on its own), and in a test run's heap that is most of
    a second per load, spent on nothing the test looks at."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@pytest.fixture
def demo(tmp_path):
    with closing(new_demo(tmp_path / "demo.ftlog")) as game:
        yield game


@pytest.fixture
def skirmish(tmp_path):
    with skirmish_registered():
        game = new_skirmish(tmp_path / "skirmish.ftlog")
        yield game
        game.close()


@pytest.fixture(scope="module")
def big_save(tmp_path_factory) -> Path:
    """A generated game of 5,000 events (several sealed chunks, undos and redos), once a module."""
    from tui.bench.engine import generate_save

    path = tmp_path_factory.mktemp("big") / "big.ft"
    generate_save(path, 5_000)
    return path
