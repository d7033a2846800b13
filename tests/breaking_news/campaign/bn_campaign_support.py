"""Helpers for the Breaking News campaign tests (objectives, deployment, morale,
victory, army building): new games, command runs, and reading events back."""

from __future__ import annotations

from pathlib import Path

from english import english

from core.game import Game
from core.log import events as ev
from core.log.outcome import Outcome
from core.log.views import REFEREE
from core.rulesets.breaking_news.words import IT  # noqa: F401  (the campaign tests import it from here)

CLOCK = 1_700_000_000_000


def new_game(
    tmp_path: Path, scenario: str | None = "demo", *, variant: str = "", seed: int = 7, name: str = "g.ft"
) -> Game:
    game = Game.new(tmp_path / name, "breaking-news", variant, seed=seed, clock=lambda: CLOCK)
    if scenario:
        game.execute(f"scenario {scenario}", role=REFEREE)
    return game


def run(game: Game, *lines: str, role: str = "referee") -> list[Outcome]:
    return [game.execute(line, role=role) for line in lines]


def events(outcome: Outcome, kind: type) -> list:
    """The events of ``kind``, their words in English (tests/shared/words.py)."""
    return [english(e) for e in outcome.events if isinstance(e, kind)]


def rolls(outcome: Outcome) -> list[ev.Roll]:
    return [e.roll for e in events(outcome, ev.Rolled)]


def dp(game: Game, side: str) -> int:
    return game.state.sides[side].defeat_points


def to_activation(game: Game, dice: str) -> None:
    """From the deployment phase (set-up as it stands) to turn 1's activation."""
    game.execute("next", role=REFEREE)
    game.execute(f"next dice={dice}", role=REFEREE)


PLATOON = """
name = "Bersaglieri platoon"
army = "regular"
platoon = true
{units}
"""

UNIT = """
[[units]]
id = "{id}"
name = "{id}"
team = "{team}"
cls = "R3"
weapons = ["AR"]
leadership = {lead}
roles = [{roles}]
"""


def platoon_roster(path):
    """A Veteran platoon: Lt Moro (leadership 3) with three squads and an AT section."""
    units = [UNIT.format(id="moro", team="1st", lead=3, roles='"commander"')]
    for team in ("1st", "2nd", "3rd"):
        units.append(UNIT.format(id=f"sgt{team}", team=team, lead=1, roles='"leader"'))
        units += [UNIT.format(id=f"{team}{i}", team=team, lead=0, roles="") for i in range(2)]
    units.append(UNIT.format(id="at1", team="AT", lead=0, roles=""))
    units.append(UNIT.format(id="at2", team="AT", lead=0, roles=""))
    path.write_text(PLATOON.format(units="".join(units)))
    return path
