"""Every Ludonet command, in the order the help lists them: movement, fire and
grenades, aircraft, support from off the table, melee, the unit's morale and reinforcements, the result."""

from __future__ import annotations

from core.ruleset import CommandSpec
from core.rulesets.ludonet import cmd_air, cmd_fire, cmd_melee, cmd_move, cmd_support, cmd_unit, end

COMMANDS: tuple[CommandSpec, ...] = (
    *cmd_move.COMMANDS,
    *cmd_fire.COMMANDS,
    *cmd_air.COMMANDS,
    *cmd_support.COMMANDS,
    *cmd_melee.COMMANDS,
    *cmd_unit.COMMANDS,
    *end.COMMANDS,
)
