"""Bassa Intensità — modern skirmish rules by Leonardo Tacconi, trial version 1.9 (2002).

Turn machine (digest A.5.2; book "SEQUENZA DI GIOCO")::

    setup → [initiative → cover → move-first → move-second → observe
             → fire-elite … fire-rabble → end] per turn

``next`` moves from one phase to the next; leaving ``initiative`` rolls it.
Every check is 1d10 rolled under the unit's Quality (tables.py, rules.py).
A hit goes on to its damage (damage.py, casualties.py); losses make morale checks
due (cmd_morale.py); the game ends as ending.py says.
Rulings: docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from core import events as ev
from core.ruleset import CommandSpec, Param, Phase, possessive, register
from core.rulesets.bassa_intensita import (
    casualties,
    cmd_air,
    cmd_casualties,
    cmd_cover,
    cmd_fire,
    cmd_morale,
    cmd_special,
    cmd_support,
    cmd_vehicles,
    commands,
    ending,
    turn,
)
from core.rulesets.bassa_intensita.scenario_format import FORMAT
from core.rulesets.bassa_intensita.tables import tier_by_id, tiers
from core.rulesets.common import STATUSES, ScenarioRuleset

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
    Phase("final", "Last turn over", "referee", "record the result: victory SIDE [reason], or victory draw", "BI-END"),
)


#: The scenario's facts this ruleset reads, set as variables at set-up (docs/rulings.md, BI-SCENARIO-VARS).
SCENARIO_VARS = {
    "scenario.turns": lambda v: f"the game lasts {v} turns" if v else "no turn limit",
    "scenario.night": lambda v: "it is daylight" if v == "day" else f"it is night ({v})",
    "scenario.victory": lambda v: f"victory: {v}",
}


class BassaIntensita(ScenarioRuleset):
    id = "bassa-intensita"
    name = "Bassa Intensità"
    version = "1.9"
    phases = PHASES
    next_dice = (
        "a squad whose leader fell: its best man taking over, 1d10 under his chance",
        "initiative: 1d6 per side, both again on a tie",
    )
    rule_source = "bassa-intensita-1.9-it.md"

    scenarios_dir = SCENARIOS
    scenario_format = FORMAT
    turn = turn
    own_commands = (
        *commands.COMMANDS,
        *cmd_fire.COMMANDS,
        *cmd_cover.COMMANDS,
        *cmd_casualties.COMMANDS,
        *cmd_morale.COMMANDS,
        *cmd_support.COMMANDS,
        *cmd_air.COMMANDS,
        *cmd_vehicles.COMMANDS,
        *cmd_special.COMMANDS,
        *ending.COMMANDS,
    )
    first_phase = ev.PhaseBegan(turn=1, phase="initiative")

    def commands(self) -> list[CommandSpec]:
        """The shared referee tools, with ``mark`` and ``clear`` knowing this ruleset's badges."""
        statuses = (*STATUSES, *(b for b in casualties.BADGES if b not in STATUSES))
        out = []
        for spec in super().commands():
            if spec.name in ("mark", "clear"):
                spec = replace(spec, params=(spec.params[0], Param("status", "choice", choices=statuses)))
            out.append(spec)
        return out

    def describe_var(self, key: str, value: int | str) -> str | None:
        if key == "first_mover":
            return f"{value} moves first this turn (A.5.1)"
        if key.startswith("aircraft."):
            side = key.removeprefix("aircraft.")
            if value == "down":
                return f"{possessive(side)} aircraft is shot down"
            return (
                f"{possessive(side)} aircraft is damaged and broke off"
                if value
                else f"{possessive(side)} aircraft is back"
            )
        if key.startswith("gas."):
            who, _, last = str(value).rpartition("|")
            return f"tear gas over {who.replace(',', ', ')} until the end of turn {last}" if value else "the gas lifts"
        if key.startswith("smoke."):
            what, _, last = str(value).rpartition("|")
            return f"smoke: {what}, until the end of turn {last}" if value else "a smoke cloud lifts"
        if key.startswith("secret.support."):
            stage, source, turn = str(value).split(":")
            return f"{possessive(key.removeprefix('secret.support.'))} fire support ({source}): {stage} in turn {turn}"
        if key.startswith("secret.dies."):
            who = key.removeprefix("secret.dies.")
            return (
                f"{who} dies at the end of turn {value} unless dressed"
                if value
                else f"{possessive(who)} wound is dressed"
            )
        return SCENARIO_VARS.get(key, lambda v: None)(value)

    def class_name(self, cls: str) -> str:
        tier = tier_by_id().get(cls)
        return tier.name if tier else cls

    def success_hurts_unit(self, roll: ev.Roll) -> bool:
        # These rolls name the unit they strike: a success is the attacker's
        # (A.12.3 penetration, A.10.3 HE, BI-R263 passengers hit aboard).
        return roll.purpose in _ROLLED_AGAINST_THE_UNIT


#: Rolls whose success is bad for the unit they name (``success_hurts_unit``), by
#: their purpose; the questions are how saves made before rolls read as nouns name them.
_ROLLED_AGAINST_THE_UNIT = frozenset(
    {
        "armour penetration",
        "whether the HE catches him",
        "hit aboard",
        "armour penetrated?",
        "caught by the HE?",
        "hit aboard?",
    }
)


register("bassa-intensita", BassaIntensita)
