"""A command that fails on a bug is said as an error of the program, never as a refusal (issue 33).

The line says so (``⚠``, not the refusal's ``✗``) and comes back to be tried
again; a notice says where the traceback went: the client's ``errors.log``,
made at the first error and readable by the user only, or the host's log for a
seat of a server.  The save is untouched.
"""

from __future__ import annotations

import logging
import stat

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import hint, piloted, press, until

from core.errorlog import ErrorLog
from core.game import Game
from core.log.views import REFEREE
from core.refusal import LOG
from core.ruleset import CommandSpec
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.userdata import UserStore

pytestmark = pytest.mark.long

SIZE = (100, 30)
FAILED = "the command failed on an error of the program; nothing was recorded"


def broken(ctx, args):
    raise KeyError("aden")


def with_bug(game: Game) -> Game:
    game.commands.append(CommandSpec("broken", "a command with a bug", broken, who="referee"))
    return game


def notices(app) -> list[tuple[str, str, str]]:
    said: list[tuple[str, str, str]] = []
    notify = app.notify

    def recording(message, *, title="", severity="information", **kwargs):
        said.append((str(message), str(title), severity))
        return notify(message, title=title, severity=severity, **kwargs)

    app.notify = recording
    return said


async def test_a_bug_is_an_error_with_its_traceback_in_the_client_s_error_log(game, tmp_path):
    store = UserStore(tmp_path / "config", tmp_path / "data")
    app = FireteamApp(with_bug(game), role=REFEREE, store=store)
    before = game.path.read_bytes()
    async with app.run_test(size=SIZE) as pilot:
        said = notices(app)
        assert not store.error_log.exists()  # made at the first error only
        await until(pilot, lambda: isinstance(app.focused, CommandInput), "the command line")
        await press(pilot, *"broken", "enter")
        assert hint(app).startswith(f"⚠ {FAILED}") and "✗" not in hint(app)
        assert app.screen.query_one(CommandInput).value == "broken"  # given back
        assert said == [(f"the details are in {store.error_log}", FAILED, "error")]
        assert game.path.read_bytes() == before
    logged = store.error_log.read_text(encoding="utf-8")
    assert "command failed, nothing recorded: 'broken' as referee" in logged
    assert "Traceback" in logged and "KeyError: 'aden'" in logged
    assert stat.S_IMODE(store.error_log.stat().st_mode) == 0o600
    assert not any(isinstance(h, ErrorLog) for h in LOG.handlers)  # the app's handler went with it


async def test_a_seat_s_bug_is_in_the_host_s_log(game):
    async with piloted(with_bug(game)) as (app, pilot):  # no store: a seat of a server
        said = notices(app)
        await until(pilot, lambda: isinstance(app.focused, CommandInput), "the command line")
        await press(pilot, *"broken", "enter")
        assert hint(app).startswith(f"⚠ {FAILED}")
        assert said == [("the host has the details in its log", FAILED, "error")]


def test_the_error_log_is_private_and_bounded(tmp_path):
    path = tmp_path / "data" / "errors.log"
    handler = ErrorLog(path)
    try:
        assert not path.parent.exists()
        record = logging.LogRecord("fireteam.core", logging.ERROR, __file__, 1, "x" * 400_000, None, None)
        for _ in range(6):
            handler.emit(record)
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        backup = path.with_name("errors.log.1")
        assert backup.exists() and stat.S_IMODE(backup.stat().st_mode) == 0o600
        assert path.stat().st_size <= 1_000_000 and not path.with_name("errors.log.2").exists()
    finally:
        handler.close()
