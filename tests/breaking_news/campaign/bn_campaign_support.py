"""Helpers for the Breaking News campaign tests (objectives, deployment, morale,
victory, army building): new games, command runs, and reading events back."""

from __future__ import annotations

from pathlib import Path

from core import events as ev
from core.game import Game, Outcome

IT = "it-2009-12-09"
CLOCK = 1_700_000_000_000


def new_game(
    tmp_path: Path, scenario: str | None = "demo", *, variant: str = "", seed: int = 7, name: str = "g.ft"
) -> Game:
    game = Game.new(tmp_path / name, "breaking-news", variant, seed=seed, clock=lambda: CLOCK)
    if scenario:
        game.execute(f"scenario {scenario}")
    return game


def run(game: Game, *lines: str, role: str = "referee") -> list[Outcome]:
    return [game.execute(line, role=role) for line in lines]


def events(outcome: Outcome, kind: type) -> list:
    return [e for e in outcome.events if isinstance(e, kind)]


def rolls(outcome: Outcome) -> list[ev.Roll]:
    return [e.roll for e in events(outcome, ev.Rolled)]


def dp(game: Game, side: str) -> int:
    return game.state.sides[side].defeat_points


def to_activation(game: Game, dice: str) -> None:
    """From the deployment phase (set-up as it stands) to turn 1's activation."""
    game.execute("next")
    game.execute(f"next dice={dice}")
