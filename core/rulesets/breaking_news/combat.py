"""Breaking News combat commands: movement, hiding and spotting, fire, saves,
suppression and melee (§6–§11)."""

from __future__ import annotations

from core.ruleset import CommandSpec, Context

COMMANDS: tuple[CommandSpec, ...] = ()


def start_of_turn(ctx: Context) -> None:
    """Start-of-turn upkeep before initiative (§5.0): bombardments called last turn, smoke drift."""


def end_of_turn(ctx: Context) -> None:
    """End-of-turn upkeep (§5.0): wounded timers and the like."""
