"""Bassa Intensità — modern skirmish rules by Leonardo Tacconi, trial version 1.9 (2002).

Turn machine (digest A.5.2; book "SEQUENZA DI GIOCO")::

    setup → [initiative → cover → move-first → move-second → observe
             → fire-elite … fire-rabble → end] per turn

``next`` moves from one phase to the next; leaving ``initiative`` rolls it.
Every check is 1d10 rolled under the unit's Quality (tables.py, rules.py).
Rulings: docs/rulings.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core import events as ev
from core.ruleset import CommandSpec, Context, Phase, Ruleset, register
from core.rulesets.bassa_intensita import commands, turn
from core.rulesets.bassa_intensita.tables import tier_by_id, tiers
from core.rulesets.common import REFEREE_TOOLS, Scenario, emit_scenario, load_scenarios, scenario_command
from core.state import GameState

SCENARIOS = Path(__file__).parent / "scenarios"

PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "A.5.2"),
    Phase("initiative", "Initiative", "referee", "next rolls 1d6 each for initiative", "A.5.1"),
    Phase(
        "cover",
        "Covering fire",
        "both",
        "declare covering fire; the initiative winner may order second; then next",
        "BI-R051",
    ),
    Phase(
        "move-first",
        "First mover",
        "active",
        "the first mover moves; the other side may fire at movers; next",
        "A.5.1, BI-R050",
    ),
    Phase(
        "move-second",
        "Second mover",
        "active",
        "the second mover moves; the other side may fire at movers; next",
        "A.5.1, BI-R050",
    ),
    Phase("observe", "Observation", "both", "the referee rolls observation attempts; then next", "BI-R160"),
    *(
        Phase(
            f"fire-{t.id}",
            f"Fire and actions: {t.name}",
            "both",
            f"{t.name} units of both sides fire or act; then next",
            "BI-R061",
        )
        for t in tiers()
    ),
    Phase("end", "End of turn", "referee", "observation after fire; then next", "BI-R160, A.5.2"),
)


class BassaIntensita(Ruleset):
    id = "bassa-intensita"
    name = "Bassa Intensità"
    version = "1.9"
    phases = PHASES
    rule_source = "bassa-intensita-1.9-it.md"

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios: dict[str, Scenario] = load_scenarios(SCENARIOS)

    def commands(self) -> list[CommandSpec]:
        return [
            scenario_command(self.scenarios, self._scenario),
            *commands.COMMANDS,
            *REFEREE_TOOLS,
        ]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, self.scenarios[args["name"]])
        ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))

    def describe_var(self, key: str, value: int | str) -> str | None:
        return f"{value} moves first this turn (A.5.1)" if key == "first_mover" else None

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        turn.check_turn(self, state, parsed, role)

    def advance(self, ctx: Context) -> None:
        turn.advance(ctx)

    def class_name(self, cls: str) -> str:
        tier = tier_by_id().get(cls)
        return tier.name if tier else cls


register("bassa-intensita", BassaIntensita)
