"""Regenerate the SVG screenshots in ``screenshots/``: ``python -m tui.bench.screenshots``.

Each scene builds a game with a fixed seed and a fixed clock in a scratch
folder, drives the app with Textual's Pilot at a fixed terminal size, and saves
what the screen shows.  The snapshot tests (tests/tui/test_tui_snapshots.py)
use the same scenes, so the pictures in the README are the tested screens.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from core.ruleset import Refused
from tui.app import FireteamApp
from tui.screens.help import HelpScreen
from tui.screens.loadgame import LoadGameScreen
from tui.screens.newgame import NewGameScreen

SEED = 7
OUT = Path("screenshots")
RECORDED = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"

#: A short game of the Breaking News demo: initiative, two bursts of fire, the
#: referee's marks.  The rules grow while the client does: a command the
#: ruleset refuses today is skipped with a warning rather than failing the run.
OPENING = (
    "next",
    "next",
    "fire rossi ahmed range=30",
    "fire bianchi ahmed range=20 burst",
    "mark ahmed suppressed",
    "mark conti wounded",
    'note "smoke drifts north over the market"',
)


def demo_game(path: Path, commands: tuple[str, ...] = OPENING) -> Game:
    # The secrets' salts counted, not drawn: a commitment a scene shows is the same at every run.
    salts = (f"{n:032x}" for n in itertools.count(1))
    game = Game.new(path, "breaking-news", seed=SEED, clock=lambda: 0, salt=lambda: next(salts))
    game.execute("scenario demo", role=REFEREE)
    for text in commands:
        try:
            game.execute(text, role=REFEREE)
        except Refused as e:
            print(f"screenshots: skipped {text!r}: {e}", file=sys.stderr)
    return game


Before = Callable[[Pilot], Awaitable[None]]


@dataclass(frozen=True)
class Scene:
    name: str
    about: str
    build: Callable[[Path], FireteamApp]
    size: tuple[int, int] = (100, 30)
    press: tuple[str, ...] = ()
    before: Before | None = field(default=None)


def _game(work: Path) -> FireteamApp:
    return FireteamApp(demo_game(work / "game.ft"), role=REFEREE)


def _game_it(work: Path) -> FireteamApp:
    """The game screen in Italian: ``fireteam --lang it``."""
    return FireteamApp(demo_game(work / "partita.ft"), role=REFEREE, lang="it")


def _replay(work: Path) -> FireteamApp:
    demo_game(work / "replay.ft").close()
    return FireteamApp(Game.open(work / "replay.ft", writable=False), role=REFEREE, replay=True)


def _recorded_replay(work: Path) -> FireteamApp:
    """The recorded demo game (saves/demo-game.ft), in replay at its end."""
    shutil.copy(RECORDED, work / "demo-game.ft")
    return FireteamApp(Game.open(work / "demo-game.ft", writable=False), role=REFEREE, replay=True)


def _side(work: Path) -> FireteamApp:
    return FireteamApp(demo_game(work / "side.ft"), role="regulars", seat="anna")


async def _dice(pilot: Pilot) -> None:
    await pilot.press("f7", "ctrl+e", *"2d6", "enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _game_of(pilot: Pilot) -> Game:
    """The game the scene's app shows (every scene's app is Fireteam's, with a game)."""
    app = pilot.app
    assert isinstance(app, FireteamApp) and app.game is not None
    return app.game


async def _new_game(pilot: Pilot) -> None:
    game = _game_of(pilot)
    await pilot.app.push_screen(NewGameScreen(saves=Path(game.path).parent, ruleset=game.ruleset.id))
    await pilot.pause()
    pilot.app.screen.query_one("#save-name", Input).value = "breaking-news-demo.ft"
    await pilot.pause()


async def _help(pilot: Pilot) -> None:
    await pilot.press("f1")
    await pilot.pause()
    assert isinstance(pilot.app.screen, HelpScreen)


async def _rules(pilot: Pilot) -> None:
    await _help(pilot)
    await pilot.press("f2", "tab", "tab", "tab", "tab")  # the rules the Italian draft changes
    await pilot.pause()


async def _load_game(pilot: Pilot) -> None:
    game = Path(_game_of(pilot).path)
    saves = game.parent / "saves"
    saves.mkdir(exist_ok=True)
    shutil.copy(game, saves / game.name)
    (saves / "torn-and-broken.ft").write_text("not a save at all\n")
    # Show the folder as a player sees it (saves/), not the temporary folder the scene plays in.
    here = os.getcwd()
    os.chdir(game.parent)
    try:
        await pilot.app.push_screen(LoadGameScreen(saves=Path("saves")))
        await pilot.pause(0.5)
    finally:
        os.chdir(here)


SCENES: tuple[Scene, ...] = (
    Scene("game", "the game screen after the first initiative (referee, 100x30)", _game),
    Scene("game-80x24", "the game screen in an 80x24 terminal", _game, size=(80, 24)),
    Scene(
        "game-wide",
        "a wide terminal gives the log the room, recent rolls beside the dice (160x48)",
        _game,
        size=(160, 48),
    ),
    Scene("dice", "an initiative roll picked in the log: dice, modifiers with rules, outcome", _game, before=_dice),
    Scene("side", "what the Bersaglieri player sees: no hidden militia, his own objective markers", _side),
    Scene(
        "replay",
        "replay mode, stepped back to the start of turn 1's activation",
        _replay,
        press=("less_than_sign", "right_curly_bracket", "right_square_bracket", "right", "right"),
    ),
    Scene("new-game", "the new game screen", _game, before=_new_game),
    Scene("help", "the help screen: every key, then every command", _game, before=_help),
    Scene(
        "rules",
        "the Rules screen (F1, F2): each rule of the book and what Fireteam does with it, here the variant's",
        _game,
        size=(120, 36),
        before=_rules,
    ),
    Scene("load-game", "the load game screen with a corrupt save", _game, before=_load_game),
    Scene("report", "the Report screen (F4) of the recorded demo game", _recorded_replay, press=("f4",)),
    Scene("game-it", "the game screen in Italian (fireteam --lang it)", _game_it),
)


async def take(scene: Scene, out: Path, work: Path) -> Path:
    with reading("en"):  # a reader of the scene's own: a scene in Italian leaves the next in English
        return await _take(scene, out, work)


async def _take(scene: Scene, out: Path, work: Path) -> Path:
    app = scene.build(work)
    async with app.run_test(size=scene.size) as pilot:
        await pilot.pause()
        if scene.before is not None:
            await scene.before(pilot)
        if scene.press:
            await pilot.press(*scene.press)
        # The text boxes' cursors held on, as the snapshot tests hold them (tests/tui/test_tui_snapshots.py):
        # a picture caught the rules' search box's cursor on or off, as its blink went.
        for box in app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        path = app.save_screenshot(f"{scene.name}.svg", str(out))
    if app.game is not None:
        app.game.close()
    return Path(path)


async def take_all(out: Path, names: list[str]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    done = []
    for scene in SCENES:
        if names and scene.name not in names:
            continue
        with tempfile.TemporaryDirectory() as work:
            done.append(await take(scene, out, Path(work)))
    return done


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tui.bench.screenshots", description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", help="scenes to take (default: all): " + ", ".join(s.name for s in SCENES))
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    for path in asyncio.run(take_all(args.out, args.names)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
