"""Shared helpers for the Linea di Tiro tests: the rulebook, a game on the demo
with a deck of known order, commands as a side, and pieces added directly."""

from __future__ import annotations

from pathlib import Path

import pytest
from playing import play  # noqa: F401  (re-exported)

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.rulesets.linea_di_tiro.tables import deck

BOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "linea-di-tiro-1.0-it.md"


@pytest.fixture(scope="module")
def book() -> str:
    if not BOOK.exists():
        pytest.skip(f"rulebook not found at {BOOK}")
    return BOOK.read_text(encoding="utf-8")


def faces_for(order: list[str], cards: list[str] | None = None) -> list[int]:
    """The faces that make Dice.shuffle put ``cards`` (default: the whole deck) in ``order``."""
    work = list(deck().cards() if cards is None else cards)
    faces = []
    for i in range(len(work) - 1, 0, -1):
        k = next(j for j in range(i + 1) if work[j] == order[i])
        faces.append(k + 1)
        work[i], work[k] = work[k], work[i]
    return faces


FIRST = ["7♥", "Q♠", "Joker", "3♣", "K♦", "2♥"]


def stacked(first: list[str] = FIRST) -> list[str]:
    rest = [c for c in deck().cards() if c not in first or c == "Joker"]
    for c in first:
        if c == "Joker":
            rest.remove("Joker")
    return first + rest


@pytest.fixture
def game(tmp_path):
    g = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=5)
    g.execute("scenario demo dice=" + ",".join(map(str, faces_for(stacked()))), role=REFEREE)
    yield g
    g.close()


def rolls(events: list[ev.Event]) -> list[ev.Roll]:
    return [e.roll for e in events if isinstance(e, ev.Rolled)]


def notes(events: list[ev.Event]) -> list[str]:
    return [plain(e.text) for e in events if isinstance(e, ev.Noted)]


def inject(g: Game, *facts: ev.Event) -> None:
    """Put facts straight into the game (pieces and scenario variables the demo lacks),
    as a scenario file would at set-up."""
    cmd = g.history.next_cmd
    group = [ev.Issued(cmd=cmd, n=len(facts), by="referee", text="(test set-up)"), *facts]
    g._append(cmd, group, [g.describe(e, role="referee") for e in group])


def piece(
    uid: str,
    side: str,
    cls: str,
    *,
    team: str = "T",
    roles: tuple[str, ...] = (),
    status: tuple[str, ...] = (),
    stats: dict[str, int] | None = None,
) -> ev.UnitAdded:
    """A piece of the demo's profiles (``cls``), added directly."""
    spec = ev.UnitSpec(
        id=uid, name=uid.title(), side=side, team=team, cls=cls, roles=roles, status=status, stats=stats or {}
    )
    return ev.UnitAdded(unit=spec, vis=(side,) if "hidden" in status else ())


def new_game(path: Path, first: list[str]) -> Game:
    """A demo game whose deck starts with the cards ``first``."""
    g = Game.new(path, "linea-di-tiro", seed=5)
    g.execute("scenario demo dice=" + ",".join(map(str, faces_for(stacked(first)))), role=REFEREE)
    return g


def artillery(side: str, he: int, sections: int = 1) -> list[ev.VarSet]:
    """A side's artillery support as the scenario file sets it (docs/scenarios.md)."""
    key = f"support.{side}-guns"
    return [
        ev.VarSet(key=key, value=f"{side}'s guns", vis=(side,)),
        ev.VarSet(key=f"{key}.side", value=side, vis=(side,)),
        ev.VarSet(key=f"{key}.kind", value="artillery", vis=(side,)),
        ev.VarSet(key=f"{key}.count", value=sections, vis=(side,)),
        ev.VarSet(key=f"{key}.he", value=he, vis=(side,)),
    ]
