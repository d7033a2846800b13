"""The Ludonet phases the commands check, and the fatigue a piece carries from turn to
turn (LN-R012): what the commands and the turn machine (turn.py) both read, so the
commands need not import the machine that runs their end-of-phase steps."""

from __future__ import annotations

from core.rulesets.ludonet.tables import movement

MOVE_PHASES = ("move-first", "move-second")
#: ``tired-3`` … ``tired-1``: turns left without running after a run (LN-R012).
TIRED = tuple(f"tired-{n}" for n in range(1, movement().tired_turns + 1))


def tired(unit) -> int:
    """The turns a piece has left without running (0: rested)."""
    return next((n for n in range(len(TIRED), 0, -1) if unit.has(f"tired-{n}")), 0)
