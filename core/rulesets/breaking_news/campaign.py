"""Breaking News commands around the fight: objectives and deployment (§4.0),
morale (§12–13), victory and defeat points (§14), army building and extras."""

from __future__ import annotations

from core.ruleset import CommandSpec

COMMANDS: tuple[CommandSpec, ...] = ()
