"""Breaking News commands around the fight: army building, objectives and
deployment (§4), platoon activation (§13), morale (§12–13), victory and defeat
points (§14) and the EXTRAS."""

from __future__ import annotations

from core.ruleset import CommandSpec
from core.rulesets.breaking_news import turn
from core.rulesets.breaking_news.campaign import (
    army,
    captures,
    civilians,
    defeat,
    deployment,
    extras,
    media,
    morale,
    negotiation,
    objectives,
    victory,
)

COMMANDS: tuple[CommandSpec, ...] = (
    *army.COMMANDS,
    *objectives.COMMANDS,
    *deployment.COMMANDS,
    *extras.COMMANDS,
    *negotiation.COMMANDS,
    *turn.COMMANDS,
    *civilians.COMMANDS,
    *media.COMMANDS,
    *morale.COMMANDS,
    *captures.COMMANDS,
    *defeat.COMMANDS,
    *victory.COMMANDS,
)
