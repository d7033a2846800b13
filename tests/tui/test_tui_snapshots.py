"""Snapshots of the main screens (pytest-textual-snapshot).

The test ruleset, a fixed seed, a fixed clock and a fixed terminal size make
every picture the same on every run.  After an intended change of the screens:
``.venv/bin/pytest tests/tui/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from playing import opened
from skirmish import patrol_game
from textual.widgets import Input
from waiting import press, settled

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.bench import screenshots
from tui.themes import HIGH_CONTRAST

pytestmark = pytest.mark.long

OPENING = (
    "next",
    "next",
    "shoot cole ivan 40",
    "mark diaz wounded",
    "out park hit crossing the road",
    "dp blue 5 man out of action",
    'note "dust storm from the north"',
)


def live(tmp_path: Path, role: str = "referee") -> FireteamApp:
    return FireteamApp(patrol_game(tmp_path / "game.ft", commands=OPENING), role=role)


def live_it(tmp_path: Path) -> FireteamApp:
    """The same game shown in Italian (``fireteam --lang it``)."""
    return FireteamApp(patrol_game(tmp_path / "game.ft", commands=OPENING), role=REFEREE, lang="it")


def live_no_color(tmp_path: Path) -> FireteamApp:
    """The same game and a missed roll, with NO_COLOR set (Textual reads it as the app is made):
    every word black or white on its grey, the miss marked ✗ in the log and the dice pane
    (``tui.contrast``)."""
    os.environ["NO_COLOR"] = "1"
    try:
        return FireteamApp(patrol_game(tmp_path / "game.ft", commands=(*OPENING, "roll 1d6 target=4")), role=REFEREE)
    finally:
        del os.environ["NO_COLOR"]


def breaking_news(tmp_path: Path) -> FireteamApp:
    """The Breaking News demo at its first activation, fixed as the test ruleset's game is."""
    salts = (f"{n:032x}" for n in itertools.count(1))
    lines = ("scenario demo", "option wounded on", "next", "next dice=6,6,1,1")
    game = opened(tmp_path / "bn.ft", "breaking-news", *lines, seed=7, clock=lambda: 0, salt=lambda: next(salts))
    return FireteamApp(game, role=REFEREE)


async def fire_at_the_table(pilot) -> None:
    """Table dice, a fire whose hit is on the line: the prompt asks for the save, briefly (its
    command's dice in order on the help key)."""
    await press(pilot, "f3")
    await press(pilot, *[c if c != " " else "space" for c in "fire conti bashir range=40 dice=6"], "enter")


async def high_contrast(pilot) -> None:
    pilot.app.theme = HIGH_CONTRAST.name
    await settled(pilot)


def replay(tmp_path: Path) -> FireteamApp:
    patrol_game(tmp_path / "replay.ft", commands=OPENING).close()
    return FireteamApp(Game.open(tmp_path / "replay.ft", writable=False), role=REFEREE, replay=True)


SCENES = [
    ("game", live, (100, 30), (), None),
    ("game-80x24", live, (80, 24), (), None),
    ("game-wide", live, (160, 48), (), None),
    ("dice", live, (100, 30), (), screenshots._dice),
    ("side", lambda p: live(p, "blue"), (100, 30), (), None),
    ("replay", replay, (100, 30), ("less_than_sign", "right_curly_bracket", "right_square_bracket", "right"), None),
    ("new-game", live, (100, 30), (), screenshots._new_game),
    ("help", live, (100, 30), (), screenshots._help),
    ("report", live, (100, 30), ("f4",), None),
    ("game-it-80x24", live_it, (80, 24), (), None),
    ("game-it-wide", live_it, (160, 48), (), None),
    ("game-no-color", live_no_color, (100, 30), (), None),
    ("game-high-contrast", live, (100, 30), (), high_contrast),
    ("dice-prompt-step", breaking_news, (100, 30), (), fire_at_the_table),
]


def steady(before):
    """``before``, after stopping the text cursors' blink: a picture never catches one half-way."""

    async def still(pilot) -> None:
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await settled(pilot)

    async def run(pilot) -> None:
        await still(pilot)
        if before is not None:
            await before(pilot)
            await still(pilot)  # the boxes of the screen it opened (the help's search) too

    return run


@pytest.mark.parametrize(("build", "size", "press", "before"), [pytest.param(*s[1:], id=s[0]) for s in SCENES])
def test_screen(snap_compare, tmp_path, build, size, press, before):
    # A reader of its own: the Italian app sets its language there, not in the process's.
    with reading("en"):
        assert snap_compare(build(tmp_path), terminal_size=size, press=press, run_before=steady(before))
