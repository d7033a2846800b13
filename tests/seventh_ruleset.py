"""Bare, the seventh ruleset kept among the tests: what the contract (``core.ruleset.Ruleset``)
requires and nothing it leaves free: a scenario as a ready table (no files to read), no
referee's tools, no status, no dice, no turn machine of its own (``next`` is refused).

It is in no test session's registry but its own: tests/core/test_fifth_ruleset.py installs it
(an entry point) for a session that runs every guard test for it, to prove that none asks of a
ruleset more than the contract: each passes, or is skipped saying why.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import CORE_DOMAIN, M
from core.log import events as ev
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset
from core.rulesets.common import emit_scenario, scenario_command
from core.scenarios.schema import Scenario

#: Its one scenario, a table as it enters the game.
NOON = Scenario(
    id="noon",
    title="High noon",
    sides=(ev.SideSpec("east", "East"), ev.SideSpec("west", "West")),
    units=(ev.UnitSpec(id="ezra", name="Ezra", side="east"), ev.UnitSpec(id="wade", name="Wade", side="west")),
)


def _concede(ctx: Context, args: dict[str, Any]) -> None:
    if ctx.state.result:
        raise Refused("the game is over", rule="ENG-2")
    side = args["side"]
    # The other side wins; Bare keeps no score, so its end gives none.
    ctx.emit(
        ev.GameEnded(result=M("{side} concedes", side=ctx.state.sides[side].name), winner=ctx.state.other_side(side))
    )


class Bare(Ruleset):
    id = "bare"
    name = "Bare"
    version = "1"
    domain = CORE_DOMAIN
    phases = (
        Phase("setup", "Set-up", "referee", "scenario noon", commands=("scenario",)),
        Phase("standoff", "Standoff", "both", "a side concedes", commands=("concede",)),
    )
    scenarios = {NOON.id: NOON}

    def commands(self) -> list[CommandSpec]:
        return [
            scenario_command(self.scenarios, self._scenario),
            CommandSpec("concede", "A side concedes.", _concede, params=(Param("side", "side"),), phases=("standoff",)),
        ]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, args["name"])
        ctx.emit(ev.PhaseBegan(turn=1, phase="standoff"))
