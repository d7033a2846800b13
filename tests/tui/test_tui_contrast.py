"""Every word of the client readable on its background: under ``NO_COLOR`` (at least 4.5 to 1,
WCAG's AA) and in the high-contrast theme (7 to 1, AAA); what colour alone said, said in
signs too (``tui.contrast``).

The screens are measured cell by cell as drawn, after every filter the client applies:
for each character that is not a frame's line, the contrast of its colour (its background's,
when reversed) with what is behind it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from skirmish import patrol_game
from textual.color import Color
from waiting import press, settled

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.bench import screenshots
from tui.contrast import AA, AAA, contrast
from tui.themes import HIGH_CONTRAST
from tui.userdata import Settings, UserStore

pytestmark = pytest.mark.long

#: The recorded Breaking News demo, played to its end: the phase pane says "Game over".
ENDED = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"
OPENING = ("next", "next", "shoot cole ivan 40", "mark diaz wounded", "dp blue 5 x", "roll 1d6 target=4")
#: Frames, rules, scroll bars and tree guides: lines, not words.
LINES = set("─│╭╮╰╯├└┤┬┴┼▏▕━┃┏┓┗┛▁▔▎▌▐▀▄█▇▆▅▃▂╍┅ ")


@pytest.fixture(autouse=True)
def english():
    """Every screen measured as an English reader sees it."""
    with reading("en"):
        yield


def low_contrast(app: FireteamApp, least: float) -> list[str]:
    """Each run of characters drawn at less than ``least`` to 1 on its background, with its ratio."""
    found = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        for segment in strip:
            text, style = segment.text, segment.style
            if style is None or set(text) <= LINES:
                continue
            fg = Color.from_rich_color(style.color) if style.color else Color(255, 255, 255)
            bg = Color.from_rich_color(style.bgcolor) if style.bgcolor else Color(0, 0, 0)
            ratio = contrast(fg, bg)
            if ratio < least:
                found.append(f"row {y}: {text.strip()!r} at {ratio:.2f} ({fg.hex} on {bg.hex})")
    return found


async def measured(pilot, no_color: bool) -> None:
    """The app as a test measures it: under NO_COLOR (made so), or in the high-contrast theme."""
    if not no_color:
        pilot.app.theme = HIGH_CONTRAST.name
    await settled(pilot)


def app_of(tmp_path: Path, *, no_color: bool = False, role: str = "referee", ended: bool = False) -> FireteamApp:
    if ended:
        shutil.copyfile(ENDED, tmp_path / "ended.ft")
        game = Game.open(tmp_path / "ended.ft")
    else:
        game = patrol_game(tmp_path / "game.ft", commands=OPENING)
    if not no_color:
        return FireteamApp(game, role=role)
    os.environ["NO_COLOR"] = "1"  # Textual reads it as the app is made
    try:
        return FireteamApp(game, role=role)
    finally:
        del os.environ["NO_COLOR"]


@pytest.mark.parametrize("role", ["referee", "blue"])
@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_under_no_color_every_word_reads_at_aa(tmp_path, role, size):
    app = app_of(tmp_path, no_color=True, role=role)
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        assert app.no_color
        assert low_contrast(app, AA) == []
        await press(pilot, "f1")  # the help screen
        assert low_contrast(app, AA) == []


@pytest.mark.parametrize("no_color", [True, False], ids=["no-color", "high-contrast"])
async def test_game_over_reads_under_no_color_and_in_high_contrast(tmp_path, no_color):
    # The issue's own example: under NO_COLOR "Game over" was grey 237 on 233 (1.1 to 1).
    app = app_of(tmp_path, no_color=no_color, ended=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await measured(pilot, no_color)
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "Game over: Somali militia won" in screen
        assert low_contrast(app, AA if no_color else AAA) == []


async def test_under_no_color_an_outcome_is_marked_as_well_as_coloured(tmp_path):
    app = app_of(tmp_path, no_color=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        # The free roll's 3 missed its 4+: a cross before its outcome, in the log and the dice pane.
        log, dice = screen.split("Action log")[1].split("Last roll")
        assert "  ✗ 0 successes · free roll: 1d6 needing 4+: 3" in log
        assert " ✗ 0 successes · free roll 1d6" in dice
        assert "1 hit · Sgt Cole's fire" in log  # hits counted: no single success, no sign
    (tmp_path / "colour").mkdir()
    coloured = app_of(tmp_path / "colour")
    async with coloured.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        screen = "\n".join(strip.text for strip in coloured.screen._compositor.render_strips())
        assert "0 successes · free roll" in screen and "✗" not in screen


@pytest.mark.parametrize("role", ["referee", "blue"])
async def test_the_high_contrast_theme_reads_at_aaa(tmp_path, role):
    app = app_of(tmp_path, role=role)
    async with app.run_test(size=(100, 30)) as pilot:
        app.theme = HIGH_CONTRAST.name
        await settled(pilot)
        assert low_contrast(app, AAA) == []
        await press(pilot, "f1")
        assert low_contrast(app, AAA) == []


async def test_the_high_contrast_theme_is_offered_and_remembered(tmp_path):
    store = UserStore(tmp_path / "config", tmp_path / "data")
    store.save_settings(Settings(theme=HIGH_CONTRAST.name))
    app = FireteamApp(patrol_game(tmp_path / "game.ft", commands=OPENING), role=REFEREE, store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        assert HIGH_CONTRAST.name in app.available_themes
        assert app.theme == HIGH_CONTRAST.name  # as the settings said
        app.theme = "textual-dark"
        await settled(pilot)
        await app.workers.wait_for_complete()
    assert store.load_settings().theme == "textual-dark"


async def _refused(pilot) -> None:
    await press(pilot, *"nxet", "enter")  # a refusal on the command line: ✗ and why


async def _replay(pilot) -> None:
    await press(pilot, "less_than_sign", "right_curly_bracket", "right")


#: The other screens, each as a user reaches it from the game: (name, keys or a step).
SCREENS = [
    ("refused", _refused),
    ("actions", lambda pilot: press(pilot, "f2")),
    ("report", lambda pilot: press(pilot, "f4")),
    ("new-game", screenshots._new_game),
]


@pytest.mark.parametrize("no_color", [True, False], ids=["no-color", "high-contrast"])
@pytest.mark.parametrize(("name", "step"), SCREENS, ids=[s[0] for s in SCREENS])
async def test_every_screen_reads_under_no_color_and_in_high_contrast(tmp_path, no_color, name, step):
    app = app_of(tmp_path, no_color=no_color)
    async with app.run_test(size=(100, 30)) as pilot:
        await measured(pilot, no_color)
        await step(pilot)
        await settled(pilot)
        assert low_contrast(app, AA if no_color else AAA) == [], name


@pytest.mark.parametrize("no_color", [True, False], ids=["no-color", "high-contrast"])
async def test_the_replay_reads_under_no_color_and_in_high_contrast(tmp_path, no_color):
    patrol_game(tmp_path / "replay.ft", commands=OPENING).close()
    game = Game.open(tmp_path / "replay.ft", writable=False)
    if no_color:
        os.environ["NO_COLOR"] = "1"
    try:
        app = FireteamApp(game, role=REFEREE, replay=True)
    finally:
        os.environ.pop("NO_COLOR", None)
    async with app.run_test(size=(100, 30)) as pilot:
        await measured(pilot, no_color)
        await _replay(pilot)
        await settled(pilot)
        assert low_contrast(app, AA if no_color else AAA) == []


@pytest.mark.parametrize("no_color", [True, False], ids=["no-color", "high-contrast"])
async def test_the_start_screen_reads_under_no_color_and_in_high_contrast(tmp_path, monkeypatch, no_color):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path))  # saves/ is the data folder's (core.folders)
    (tmp_path / "saves").mkdir()
    patrol_game(tmp_path / "saves" / "patrol.ft", commands=OPENING).close()
    (tmp_path / "saves" / "broken.ft").write_text("garbage\n")  # marked corrupt on the list
    store = UserStore(tmp_path / "config", tmp_path / "data")
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = FireteamApp(None, role=REFEREE, store=store, start=True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await measured(pilot, no_color)
        await settled(pilot)
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "patrol.ft" in screen and "corrupt" in screen
        assert low_contrast(app, AA if no_color else AAA) == []
