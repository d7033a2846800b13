"""The Ludonet audit's table: a game on the demo farm with the pieces the demo lacks
(tests/rulesets/ludonet/ln_support.py), pieces of the audit's own added as a scenario
would add them, moving the game to a phase, and reading what the dice decided."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from core import events as ev
from core.game import Game
from core.language.i18n import plain

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets" / "ludonet"))
from ln_support import ludonet_game, play, to_phase  # noqa: E402, F401  (re-exported)


@pytest.fixture
def ln(tmp_path, monkeypatch):
    """The demo farm and its extra pieces, still in deployment."""
    g = ludonet_game(tmp_path, monkeypatch)
    yield g
    g.close()


def inject(g: Game, *facts: ev.Event) -> None:
    """Facts put straight into the game, as a scenario file would at set-up."""
    cmd = g.history.next_cmd
    group = [ev.Issued(cmd=cmd, n=len(facts), by="referee", text="(test set-up)"), *facts]
    g._append(cmd, group, [g.describe(e, "referee") for e in group])


def add(g: Game, uid: str, side: str, *, kind: str = "man", team: str = "Audit", **spec) -> None:
    """A piece of the audit's own, put on the table as the scenario would."""
    inject(g, ev.UnitAdded(unit=ev.UnitSpec(id=uid, name=uid.title(), side=side, team=team, kind=kind, **spec)))


def rolled(facts: list[ev.Event]) -> list[ev.Roll]:
    return [e.roll for e in facts if isinstance(e, ev.Rolled)]


def outcomes(facts: list[ev.Event]) -> list[str]:
    return [plain(r.outcome) for r in rolled(facts)]


def said(facts: list[ev.Event]) -> str:
    return " | ".join(plain(e.text) for e in facts if isinstance(e, ev.Noted))


def out(g: Game, uid: str) -> bool:
    return not g.state.units[uid].in_play


def has(g: Game, uid: str, badge: str) -> bool:
    return g.state.units[uid].has(badge)


def after_fire(g: Game) -> None:
    """Leave the fire phase: the held hits take effect together (LN-R021)."""
    assert g.state.phase == "fire"
    play(g, "next")
