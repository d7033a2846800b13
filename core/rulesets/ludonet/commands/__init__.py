"""Every Ludonet command, in the order the help lists them: movement, fire and
grenades, aircraft, support from off the table, melee, the unit's morale and reinforcements, the result."""

from __future__ import annotations

from core.ruleset import CommandSpec
from core.rulesets.ludonet.commands import air, end, fire, melee, move, support, unit

COMMANDS: tuple[CommandSpec, ...] = (
    *move.COMMANDS,
    *fire.COMMANDS,
    *air.COMMANDS,
    *support.COMMANDS,
    *melee.COMMANDS,
    *unit.COMMANDS,
    *end.COMMANDS,
)
