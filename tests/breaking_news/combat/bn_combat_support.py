"""Helpers for the Breaking News combat tests."""

from __future__ import annotations

from pathlib import Path

from english import english

import core.rulesets.breaking_news as bn
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE

HERE = Path(__file__).parent


def new_game(
    tmp_path: Path,
    scenario: str,
    *,
    variant: str = "",
    active: str = "regulars",
    monkeypatch=None,
    options: tuple[str, ...] = (),
) -> Game:
    """A game at turn 1's activation with ``active`` as the active player."""
    g = at_initiative(tmp_path, scenario, variant=variant, monkeypatch=monkeypatch, options=options)
    to_activation(g, active)
    return g


def at_initiative(
    tmp_path: Path, scenario: str, *, variant: str = "", monkeypatch=None, options: tuple[str, ...] = ()
) -> Game:
    """A game in turn 1's initiative phase, every figure placed as the scenario sets it."""
    if scenario != "demo":
        monkeypatch.setattr(bn, "SCENARIOS", HERE / "scenarios")
    g = Game.new(tmp_path / "g.ftlog", "breaking-news", variant, seed=7)
    g.execute(f"scenario {scenario}", role=REFEREE)
    for name in options:
        g.execute(f"option {name} on", role=REFEREE)
    g.execute("next", role=REFEREE)  # deployment -> initiative
    return g


def to_activation(g: Game, active: str) -> None:
    """Leave the initiative phase with ``active`` winning: the first side listed rolls
    first, so 6,6 then 1,1 gives it to the first side and 1,1 then 6,6 to the second."""
    first = list(g.state.sides)[0]
    faces = "6,6,1,1" if active == first else "1,1,6,6"
    g.execute(f"next dice={faces}", role=REFEREE)
    assert g.state.phase == "activation" and g.state.active_side == active


def next_turn(g: Game, active: str) -> None:
    """From a turn's activation through its end to the next turn's, ``active`` winning its initiative."""
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    to_activation(g, active)


def facts(outcome, kind: type) -> list:
    """The events of ``kind``, their words in English (tests/shared/words.py)."""
    return [english(e) for e in outcome.events if isinstance(e, kind)]


def rolls(outcome) -> list[ev.Roll]:
    return [e.roll for e in facts(outcome, ev.Rolled)]


def status(g: Game, unit: str) -> tuple[str, ...]:
    return g.state.units[unit].status
