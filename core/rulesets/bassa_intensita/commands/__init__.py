"""Every Bassa Intensità command, in the order the help lists them, one module per group."""

from __future__ import annotations

from core.ruleset import CommandSpec
from core.rulesets.bassa_intensita.commands import (
    actions,
    air,
    casualties,
    cover,
    end,
    fire,
    morale,
    special,
    support,
    vehicles,
)

COMMANDS: tuple[CommandSpec, ...] = (
    *actions.COMMANDS,
    *fire.COMMANDS,
    *cover.COMMANDS,
    *casualties.COMMANDS,
    *morale.COMMANDS,
    *support.COMMANDS,
    *air.COMMANDS,
    *vehicles.COMMANDS,
    *special.COMMANDS,
    *end.COMMANDS,
)
