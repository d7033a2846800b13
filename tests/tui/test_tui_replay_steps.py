"""One numbering of replay steps: the client's ``--as SIDE`` replay bar and
``fireteam replay --as SIDE --step N`` name the same moment by the same number."""

from __future__ import annotations

import json

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import press

from core.game import Game
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.main import main as fireteam
from tui.screens.replay_bar import ReplayBar

pytestmark = pytest.mark.long

SIZES = [(80, 24), (160, 48)]


def bar_step(app) -> tuple[int, int]:
    text = str(app.screen.query_one(ReplayBar).render())
    word = text.split("step ", 1)[1].split()[0]
    shown, total = word.split("/")
    return int(shown), int(total)


def cli_replay(capsys, path, role: str, step: int | None = None) -> dict:
    args = ["replay", str(path), "--as", role, "--json"] + ([] if step is None else ["--step", str(step)])
    assert fireteam(args) == 0
    return json.loads(capsys.readouterr().out)


def as_seen(state) -> tuple:
    return state.turn, state.phase, sorted(state.units), {u.id: tuple(u.status) for u in state.units.values()}


def data_seen(data: dict) -> tuple:
    units = {u["id"]: tuple(u.get("status", ())) for s in data["sides"] for u in s["units"]}
    return data["turn"], data["phase"], sorted(units), units


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("role", ["blue", "referee"])
async def test_the_client_and_the_cli_number_a_sides_steps_alike(game, capsys, size, role):
    for text in ("next", "next", "mark ivan suppressed", "next", "next"):
        game.execute(text, role=REFEREE)
    game.close()
    replay = Game.open(game.path, writable=False)
    hidden = [e for e in replay.history.timeline() if e.vis and role not in e.vis and role != "referee"]
    assert hidden or role == "referee"  # the side really has events hidden from it
    app = FireteamApp(replay, role=role, replay=True)
    seen: list[tuple[tuple[int, int], tuple]] = []  # (the bar's step/total, what the panes show)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await press(pilot, "less_than_sign")
        while True:
            seen.append((bar_step(app), as_seen(screen.vp.state())))
            if screen.vp.step >= replay.timeline.length:
                break
            await press(pilot, "right")
            assert len(seen) <= replay.timeline.length + 1
    replay.close()
    # Textual holds stdout while the app runs: the command is asked afterwards.
    end = cli_replay(capsys, game.path, role)
    assert [bar for bar, _ in seen] == [(n, end["total_events"]) for n in range(len(seen))]
    assert end["event_count"] == end["total_events"] == len(seen) - 1
    if role != "referee":
        assert end["total_events"] == replay.timeline.length - len(hidden)
    for (shown, _), state in seen:
        data = cli_replay(capsys, game.path, role, shown)
        assert data["event_count"] == shown
        assert data_seen(data) == state
