"""What the client remembers (settings, each save's command history), where
screenshots go, and what a player sees of the save and the table dice mode."""

from __future__ import annotations

import os

import msgspec
import pytest
from playing import opened
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import piloted, press, screen_lines, screen_of, settled, told, type_text, until

from core.game import Game
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.commandline import CommandInput, CommandLine
from tui.panes.roster import RosterPane
from tui.userdata import HISTORY_LINE_CHARS, HISTORY_LINES, MAX_FILE_BYTES, UserStore, write_atomic

SIZES = [(80, 24), (160, 48)]


@pytest.fixture(name="store")
def store_fixture(tmp_path):
    return UserStore(tmp_path / "config", tmp_path / "data")


async def type_line(pilot, text: str) -> None:
    await type_text(pilot, text, "enter")


# ------------------------------------------------------------- 6. remembered


@pytest.mark.long
@pytest.mark.parametrize("size", SIZES)
async def test_history_theme_and_table_dice_survive_a_restart(game, store, size):
    async with piloted(game, size, store=store) as (app, pilot):
        await type_line(pilot, "mark ivan suppressed")
        await type_line(pilot, "note the well is dry")
        await press(pilot, "ctrl+t")
        app.theme = "nord"
        await settled(pilot)
    assert store.history_path(game.path).exists() and store.settings_path.exists()
    other = opened(game.path.with_name("other.ft"), game.ruleset.id, "scenario patrol", seed=1)
    async with piloted(game, size, store=store) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press(pilot, "up")
        assert box.value == "note the well is dry"
        await press(pilot, "up")
        assert box.value == "mark ivan suppressed"
        assert app.theme == "nord" and app.screen.table_dice
        assert "TABLE DICE" in screen_lines(app)[0]
    async with piloted(other, size, store=store) as (app, pilot):  # another save: another history
        await press(pilot, "up")
        assert app.screen.query_one(CommandInput).value == ""
    other.close()


@pytest.mark.long
@pytest.mark.parametrize(
    "settings, history",
    [
        (b"{not json", b"\x00\xff garbage"),
        (b'{"theme": 42}', b'{"save": 1, "lines": "x"}'),
        (b'{"replay_speed": 999999}', b"[]"),
        (b'{"theme": "no-such-theme"}', None),
        (b" " * (MAX_FILE_BYTES + 1), b" " * (MAX_FILE_BYTES + 1)),
    ],
)
async def test_a_corrupt_or_hostile_file_is_ignored_with_a_notice(game, store, settings, history):
    store.settings_path.parent.mkdir(parents=True)
    store.settings_path.write_bytes(settings)
    if history is not None:
        store.history_path(game.path).parent.mkdir(parents=True)
        store.history_path(game.path).write_bytes(history)
    async with piloted(game, (80, 24), store=store, settle=True) as (app, pilot):
        notes = told(app)
        assert any("settings" in n for n in notes)
        if history is not None:
            assert any("history ignored" in n for n in notes)
        assert app.theme == "textual-dark" and not app.screen.table_dice
        await type_line(pilot, "next")  # the game goes on, and the files are written afresh
        await settled(pilot)
    assert msgspec.json.decode(store.history_path(game.path).read_bytes())["lines"] == ["next"]


@pytest.mark.long
async def test_hostile_history_lines_are_left_out_and_the_history_is_bounded(game, store):
    path = store.history_path(game.path)
    lines = [f"note {i}" for i in range(HISTORY_LINES + 50)] + ["note \x1b[31mred", "x" * (HISTORY_LINE_CHARS + 1)]
    write_atomic(path, msgspec.json.encode({"save": str(game.path.resolve()), "lines": lines}))
    async with piloted(game, (80, 24), store=store) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        assert len(box.history) == HISTORY_LINES and box.history[-1] == f"note {HISTORY_LINES + 49}"
        assert not any("\x1b" in h or len(h) > HISTORY_LINE_CHARS for h in box.history)
        await type_line(pilot, "note " + "y" * (HISTORY_LINE_CHARS + 10))  # run, but too long to keep
        await type_line(pilot, "note kept")
        await settled(pilot)
    saved = msgspec.json.decode(path.read_bytes())["lines"]
    # The newest thousand, less the one too long to keep.
    assert len(saved) == HISTORY_LINES - 1 and saved[-1] == "note kept"
    assert all(len(s) <= HISTORY_LINE_CHARS for s in saved)


def test_writes_are_atomic_and_private(tmp_path, monkeypatch):
    path = tmp_path / "deep" / "settings.json"
    write_atomic(path, b"old")
    calls = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd) or real_fsync(fd))

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"  # the old file whole, no temporary left behind
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
    assert calls  # the data reached the disk before the rename was tried
    monkeypatch.undo()
    write_atomic(path, b"new")
    assert path.read_bytes() == b"new"
    assert path.stat().st_mode & 0o077 == 0


@pytest.mark.long
async def test_a_remote_seat_remembers_nothing(game, store):
    async with piloted(game, (80, 24), store=store, remote=True) as (app, pilot):
        await type_line(pilot, "next")
        await settled(pilot)
    assert not store.config.exists() and not store.state.exists()


# ------------------------------------------------------- 5. state to see


@pytest.mark.parametrize("size", SIZES)
async def test_the_save_name_and_table_dice_are_on_screen(game, size):
    async with piloted(game, size) as (app, pilot):
        assert app.sub_title == "patrol.ft"
        assert "patrol.ft" in screen_lines(app)[0]  # the phase pane's title, on every size
        assert "TABLE DICE" not in screen_lines(app)[0]
        await press(pilot, "f3")
        assert "TABLE DICE" in screen_lines(app)[0]
        await press(pilot, "ctrl+t")
        assert "TABLE DICE" not in screen_lines(app)[0]


# ------------------------------------------------- 7. figure ids, screenshots


@pytest.mark.parametrize(
    "typed, after",
    [
        ("mark ", "mark kemal "),  # where a figure goes
        ("mark ke", "mark kemal "),  # the start of its name
        ("shoot cole target=", "shoot cole target=kemal "),  # a keyword that takes a figure
        ("", ""),  # no command yet
        ("move cole 1", "move cole 1"),  # in the middle of a number
        ("move cole ", "move cole "),  # a number goes here
        ("roll 2d6 target=", "roll 2d6 target="),  # a keyword value that is not a figure
        ("dp blue ", "dp blue "),
    ],
)
async def test_a_chosen_figure_goes_only_where_a_figure_belongs(game, typed, after):
    async with piloted(game, (80, 24)) as (app, pilot):
        line = app.screen.query_one(CommandLine)
        line.input.value = typed
        # Typed, then chosen: the line has taken in what was typed (its hint says so)
        # before the figure comes, as when a player types and then clicks.
        await settled(pilot)
        app.screen.post_message(RosterPane.UnitChosen("kemal"))
        await settled(pilot)
        assert line.input.value == after
        if after == typed:
            assert "does not go here" in str(app.screen.query_one("#cmd-hint").render())


@pytest.mark.parametrize("key", ["f12", "ctrl+backslash"])
async def test_screenshots_go_to_the_data_folder(game, store, tmp_path, monkeypatch, key):
    monkeypatch.chdir(tmp_path)
    async with piloted(game, (80, 24), store=store) as (app, pilot):
        await press(pilot, key)
        shots = list(store.screenshots.glob("*.svg"))
        assert len(shots) == 1
        assert not list(tmp_path.glob("*.svg"))
        assert any(str(store.screenshots) in n for n in told(app))


async def test_the_screenshot_action_takes_textual_s_name_for_the_file(game, store, tmp_path, monkeypatch):
    """Textual's screenshot action takes a file's name (and folder); ours took neither, and
    ``screenshot('turn-3.svg')`` saved under a name of Textual's (mypy: an override that drops its parameters)."""
    monkeypatch.chdir(tmp_path)
    async with piloted(game, (80, 24), store=store) as (app, pilot):
        await settled(pilot)  # the first frame drawn: a screenshot of a screen not yet drawn has no lines
        await app.run_action("screenshot('turn-3.svg')")
        await settled(pilot)
        assert [p.name for p in store.screenshots.glob("*.svg")] == ["turn-3.svg"]


# ----------------------------------------------------- 5. a big save loading


@pytest.mark.long
def test_the_loader_reports_its_progress(tmp_path, monkeypatch):
    import core.storage.savefile
    from tui.bench.engine import generate_save

    path = tmp_path / "long.ft"
    events = generate_save(path, 20_000)
    size = path.stat().st_size
    monkeypatch.setattr(core.storage.savefile, "_CHUNK", 64 << 10)  # many reads, as a big save has
    told: list[tuple[int, int]] = []
    Game.open(path, writable=False, progress=lambda done, total: told.append((done, total))).close()
    assert len(told) >= min(size // (64 << 10), events // 1024) > 5  # after each read and each batch
    assert [d for d, _ in told] == sorted(d for d, _ in told) and told[-1] == (size, size)
    assert {t for _, t in told} == {size}


@pytest.mark.parametrize("size", SIZES)
async def test_a_big_save_loads_behind_a_progress_bar(game, store, size):
    import threading

    from textual.widgets import ProgressBar

    from tui.opening import open_or_follow
    from tui.screens.game import GameScreen
    from tui.screens.loading import LoadingScreen

    game.close()
    halfway, go_on = threading.Event(), threading.Event()

    def opener(progress):
        def slow(done: int, total: int) -> None:
            progress(done // 2, total)  # the first half is told, then the loader waits
            halfway.set()
            assert go_on.wait(60)
            progress(done, total)

        return open_or_follow(game.path, False, slow)

    async with piloted(None, size, store=store, opener=opener, opening="patrol.ft") as (app, pilot):
        await until(pilot, halfway.is_set, "the load halfway")
        await settled(pilot, workers=False)  # (the load waits for go_on)
        screen = screen_of(app, LoadingScreen)
        bar = screen.query_one(ProgressBar)
        assert 0.45 <= bar.percentage <= 0.55
        assert any("patrol.ft" in line for line in screen_lines(app))
        go_on.set()
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert app.game is not None and app.game.writable and app.owns_game
        await settled(pilot)
        assert isinstance(app.focused, CommandInput), app.focused
        await type_line(pilot, "next")
        assert app.game.state.phase == "initiative"


async def test_a_save_that_cannot_be_opened_in_the_client_says_why(tmp_path, store):
    from tui.opening import open_or_follow

    bad = tmp_path / "bad.ft"
    bad.write_text("this is not a save\n")
    app = FireteamApp(None, role=REFEREE, store=store, opener=lambda progress: open_or_follow(bad, False, progress))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.load_error, "the load's error")
    assert app.return_code == 2 and "cannot open the save" in app.load_error
