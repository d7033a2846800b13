"""The client and the save: one writer (a second opener follows read-only), a corrupt
save points to salvage, and a full disk refuses the command but keeps the client up."""

from __future__ import annotations

import contextlib
import errno
import os

import pytest
from playing import opened
from skirmish import game_fixture, patrol_game  # noqa: F401  (a fixture)
from waiting import piloted, press, settled, until

import core.storage.writer
from core.game import Game
from core.log.state import encode_state
from core.log.views import REFEREE
from core.storage.opencache import NotCached, OpenCache
from tui.app import FireteamApp
from tui.opening import open_or_follow
from tui.panes.log import LogView
from tui.screens.dialogs import LockedScreen
from tui.screens.game import GameScreen
from tui.screens.loadgame import LoadGameScreen, summarise

SIZE = (100, 30)
#: Only ever an upper bound on waiting for something that happens (CI shares two cores).
PATIENCE_S = 60


def _shown(screen) -> str:
    return " ".join(str(w.render()) for w in screen.query("Static, Label"))


@pytest.mark.long
async def test_a_save_another_fireteam_writes_opens_read_only_and_follows_it(game):
    """``fireteam SAVE`` while another process (here: ``game``) writes it."""
    followed, who = open_or_follow(game.path, replay=False)
    assert not followed.writable and f"process {os.getpid()}" in who
    app = FireteamApp(followed, role=REFEREE, replay=True)
    app.owns_game = True
    app.locked_by = who
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LockedScreen), "the question")
        text = _shown(app.screen)
        assert "being written by another Fireteam" in text and f"process {os.getpid()}" in text
        assert "open read-only (follows the live game)" in text
        await press(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert app.screen.replay
        game.execute("note heard from the other terminal", role=REFEREE)
        await until(pilot, lambda: followed.log_length == game.log_length, "the follower to catch up")
        assert followed.history.timeline()[-1].text == "heard from the other terminal"
        assert game.path.read_bytes()  # the writer's file is untouched by the follower
    assert game.writer is not None  # and the writer still holds it


def test_a_save_another_fireteam_writes_is_followed_from_the_open_cache(game, tmp_path):
    """A big save (``run_app``) is first opened only if the cache holds it; locked, it is followed."""
    cache = OpenCache(tmp_path / "open")
    with pytest.raises(NotCached):
        open_or_follow(game.path, replay=False, cache=cache, cached_only=True)
    assert game.writer is not None  # the writer's lock is not disturbed
    loaded, _who = open_or_follow(game.path, replay=False, cache=cache)  # in full: the cache keeps it
    loaded.close()
    followed, who = open_or_follow(game.path, replay=False, cache=cache, cached_only=True)
    assert not followed.writable and f"process {os.getpid()}" in who
    game.execute("note heard from the other terminal", role=REFEREE)
    followed.follow()
    assert followed.history.timeline()[-1].text == "heard from the other terminal"
    assert encode_state(followed.state) == encode_state(game.state)


@pytest.mark.long
async def test_cancel_leaves_the_locked_save_alone(game):
    followed, who = open_or_follow(game.path, replay=False)
    app = FireteamApp(followed, role=REFEREE, replay=True)
    app.owns_game = True
    app.locked_by = who
    before = game.path.read_bytes()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LockedScreen), "the question")
        await press(pilot, "escape")
        await until(pilot, lambda: app.return_code is not None, "the app to close")
    assert app.return_code == 0
    assert game.path.read_bytes() == before


@pytest.mark.long
async def test_load_game_offers_the_follower_for_a_locked_save(game, tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    writer = patrol_game(saves / "busy.ft")
    try:
        async with piloted(game) as (app, pilot):
            await app.push_screen(LoadGameScreen(saves=saves))
            await settled(pilot)
            await press(pilot, "enter")
            await until(pilot, lambda: isinstance(app.screen, LockedScreen), "the question")
            await press(pilot, "enter")
            await until(pilot, lambda: app.game.path == writer.path, "the followed game")
            assert not app.game.writable
            writer.execute("next", role=REFEREE)
            await until(pilot, lambda: app.game.log_length == writer.log_length, "the follower to catch up")
    finally:
        writer.close()


@pytest.mark.long
async def test_the_locked_save_dialog_names_the_save_that_is_locked(game, tmp_path, monkeypatch):
    """Two saves: a referee started on alpha.ft, then loaded bravo.ft (so his command
    line names alpha).  Another client asking for bravo is told of bravo alone (issue #26)."""
    saves = tmp_path / "saves"
    saves.mkdir()
    monkeypatch.setattr("sys.argv", ["/usr/bin/fireteam", str(saves / "alpha.ft")])
    alpha = patrol_game(saves / "alpha.ft")
    bravo = patrol_game(saves / "bravo.ft")  # locked after the start, as the load game screen does
    monkeypatch.undo()
    try:
        async with piloted(game) as (app, pilot):
            screen = LoadGameScreen(saves=saves)
            await app.push_screen(screen)
            await settled(pilot)
            for path in (bravo.path, alpha.path):
                screen.query_one("OptionList").highlighted = screen.paths.index(path)
                await press(pilot, "enter")
                await until(pilot, lambda: isinstance(app.screen, LockedScreen), "the question")
                text = _shown(app.screen)
                other = alpha.path if path == bravo.path else bravo.path
                assert str(path) in text and other.name not in text, text
                await press(pilot, "escape")
                await until(pilot, lambda: app.screen is screen, "the load game screen")
    finally:
        alpha.close()
        bravo.close()


def test_a_corrupt_save_in_load_game_names_salvage(tmp_path):
    path = tmp_path / "broken.ft"
    good = patrol_game(tmp_path / "good.ft", commands=("next", "next"))
    good.close()
    lines = good.path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:3], lines[4], lines[3], *lines[5:]]))
    summary = summarise(path)
    assert not summary.ok and "broken.ft:4:" in summary.text and "fireteam salvage" in summary.text


@pytest.mark.long
async def test_a_full_disk_refuses_the_command_and_the_client_keeps_running(game, monkeypatch):
    async with piloted(game) as (app, pilot):
        before = game.path.read_bytes()
        length = game.log_length

        def full(fd, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(core.storage.writer.os, "write", full)
        await press(pilot, *"note lost", "enter")
        hint = str(app.screen.query_one("#cmd-hint").render())
        assert "No space left on device" in hint and "nothing was recorded" in hint
        assert game.log_length == length and game.path.read_bytes() == before
        monkeypatch.undo()
        await press(pilot, "ctrl+u")
        await press(pilot, *"note kept", "enter")
        await until(pilot, lambda: game.log_length > length, "the command once the disk is back")
    assert Game.open(game.path, writable=False).history.timeline()[-1].text == "kept"


def test_new_game_starts_again_in_a_save_whose_header_a_crash_cut_short(tmp_path):
    from skirmish import Skirmish

    from tui.screens.newgame import start_game

    path = tmp_path / "torn.ft"
    path.write_bytes(b'0badc0de {"fireteam":2,"rules')
    game = start_game(path, Skirmish.id, "", "patrol", 5)
    game.close()
    assert Game.open(path, writable=False).state.scenario == "Patrol at the well"
    assert [p.read_bytes() for p in tmp_path.glob("torn.ft.torn-*")] == [b'0badc0de {"fireteam":2,"rules']


async def test_a_cache_entry_that_lied_ends_the_client_with_a_message_not_a_traceback(tmp_path, capsys):
    # An entry rewritten (with a valid digest) by someone who writes the user's cache
    # folder, whose kinds lie about chunk 1: found as the log first reads it
    # (core.storage.store), it ends the client with what happened, as Textual's panic shows an
    # exception that renders itself, and the next open loads the save in full.  (Chunk 0,
    # which holds the scenario's variables, is read as the referee's log pane is first
    # filled: tui.logindex looks for the inner ones there.)
    import msgspec

    from core.storage import opencache as oc
    from core.storage.store import CHUNK, ISSUED, RestoreMismatch
    from tui.bench.engine import generate_save

    path = tmp_path / "big.ft"
    generate_save(path, 3 * CHUNK)
    cache = OpenCache(tmp_path / "open")
    Game.open(path, writable=False, cache=cache).close()
    (entry_file,) = cache.folder.iterdir()
    envelope = msgspec.msgpack.decode(entry_file.read_bytes(), type=oc.Envelope)
    entry = msgspec.msgpack.decode(envelope.body, type=oc.Entry)
    kinds = bytearray(entry.kinds)
    # chunk 1's first command marker after a fact, and that fact, swapped
    at = next(i for i in range(CHUNK + 1, 2 * CHUNK) if kinds[i] == ISSUED != kinds[i - 1])
    kinds[at - 1], kinds[at] = kinds[at], kinds[at - 1]
    body = msgspec.msgpack.encode(msgspec.structs.replace(entry, kinds=bytes(kinds)))
    entry_file.write_bytes(
        msgspec.msgpack.encode(oc.Envelope(envelope.format, envelope.fingerprint, oc._digest(body), msgspec.Raw(body)))
    )
    game = Game.open(path, writable=False, cache=cache, cached_only=True)
    app = FireteamApp(game, role=REFEREE, replay=True)
    with pytest.raises(RestoreMismatch):  # Pilot raises what ended the app, once it has ended
        async with app.run_test(size=(100, 30)) as pilot:
            log = app.screen.query_one(LogView)
            pages = CHUNK // max(1, log.scrollable_content_region.height - 1) + 2
            await press(pilot, "home", *["pagedown"] * pages)  # the log goes to the first events, then on
    game.close()
    assert app.return_code == 1
    said = " ".join(capsys.readouterr().err.split())  # what the terminal shows as it ends
    assert "fireteam: events 1025 to 2048 are not where the open cache's entry for this save said" in said
    assert "Traceback" not in said
    assert not list(cache.folder.iterdir())
    with pytest.raises(NotCached):
        Game.open(path, writable=False, cache=cache, cached_only=True)


async def test_a_save_holding_a_message_past_its_limits_is_refused_by_the_client_with_its_line(tmp_path):
    """A note that would render past ``MAX_RENDERED`` (two levels, each naming its
    argument 32 times: 32 × 32 × 1,100 characters) is corruption at its line, in
    replay too, not a crash screen (issue 28)."""
    from textual.worker import WorkerCancelled

    from core.language.i18n import MAX_RENDERED
    from core.storage.savefile import Chain, load

    save = tmp_path / "bomb.ft"
    game = opened(save, "breaking-news", "note a", seed=3)
    game.close()
    loaded = load(save)
    inner = b'["%b",{"a":"%b"}]' % (b"{a}" * 32, b"x" * 1100)
    note = b'["%b",{"a":%b}]' % (b"{a}" * 32, inner)
    assert MAX_RENDERED < 32 * 32 * 1100
    chain = Chain(loaded.check)
    marker = b'{"t":"cmd","cmd":%d,"n":1,"by":"referee","text":"note x"}' % loaded.history.next_cmd
    with open(save, "ab") as f:
        f.write(chain.frame_payload(marker) + chain.frame_payload(b'{"t":"note","text":%b}' % note))
    line = len(save.read_bytes().splitlines())
    async with piloted(None, (80, 24), opener=lambda progress: open_or_follow(save, True, progress)) as (app, pilot):
        # The loader says why before the app exits, which cancels the loader's worker.
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await settled(pilot)
    assert app.return_code == 2 and f"bomb.ft:{line}: invalid event" in app.load_error


@pytest.mark.parametrize(("commands", "said"), [((), "1 command,"), (("next",), "2 commands,")])
def test_load_game_counts_commands_in_the_singular_and_plural(tmp_path, commands, said):
    game = patrol_game(tmp_path / "game.ft", commands=commands)  # its scenario is the first command
    game.close()
    shown = summarise(game.path).text
    assert said in shown and "1 commands" not in shown, shown
