"""Quick skirmish rules from a Ludonet web page (© Ludonet s.r.l. 1996), a fragment.

The fragment announces a turn sequence and then omits it; this plugin plays the
sequence proposed by the digest (B.2, LN-AMB-01)::

    setup → deployment → [move-first → move-second → reveal → fire → melee → morale → end] per turn

The first player is rolled once when the deployment ends; the game ends as
end.py says.  Rulings: docs/rulings.md.
"""

from __future__ import annotations

from pathlib import Path

from core import events as ev
from core.ruleset import Phase, register
from core.rulesets.common import ScenarioRuleset
from core.rulesets.ludonet import commands, turn
from core.rulesets.ludonet.scenario_format import FORMAT

SCENARIOS = Path(__file__).parent / "scenarios"

PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "B.1"),
    Phase(
        "deployment",
        "Written deployment",
        "referee",
        "each side writes down its positions; the referee places the visible units; next rolls the first player",
        "LN-R001, LN-R002",
    ),
    Phase("move-first", "First player moves", "active", "the first player moves; then next", "B.2, LN-R010"),
    Phase("move-second", "Second player moves", "active", "the second player moves; then next", "B.2, LN-R010"),
    Phase(
        "reveal",
        "Reveal",
        "referee",
        "the referee places units now in sight (clear UNIT hidden); then next",
        "LN-R001, LN-R020",
    ),
    Phase("fire", "Fire", "both", "both sides fire; hits take effect together at next", "LN-R021, LN-R030"),
    Phase("melee", "Melee", "both", "figures in contact fight; then next", "LN-R050"),
    Phase("morale", "Morale", "both", "units at half strength test morale; then next", "LN-R070"),
    Phase("end", "End of turn", "referee", "wrecks, fatigue counters; then next", "B.2, LN-R071"),
    Phase(
        "final",
        "Final count",
        "referee",
        "the scenario's last turn is over: victory SIDE|draw REASON",
        "ruling LN-END",
    ),
)


class Ludonet(ScenarioRuleset):
    id = "ludonet"
    name = "Ludonet quick skirmish"
    version = "1996"
    phases = PHASES
    next_dice = ("leaving deployment: first player, 1d6 per side, both again on a tie",)
    rule_source = "ludonet-quick-rules-it.md"

    scenarios_dir = SCENARIOS
    scenario_format = FORMAT
    turn = turn
    own_commands = commands.COMMANDS
    first_phase = ev.PhaseBegan(turn=0, phase="deployment")

    def describe_var(self, key: str, value: int | str) -> str | None:
        head, _, unit = key.partition(".")
        if head == "support" and unit.endswith((".used", ".turn")):
            support, _, field = unit.rpartition(".")
            if field == "used":
                return f"{support} calls its barrage number {value} (ruling LN-BARRAGE)"
            return f"{support} fires in turn {value}, once only (ruling LN-BARRAGE)"
        match head:
            case "first_player":
                return f"{value} is the first player for the game (LN-R002)"
            case "passes" if unit:
                return f"{unit} makes pass {value} (LN-R060)"
            case "immobilised_until" if unit:
                return f"{unit} cannot move until the end of turn {value} (LN-R041)"
            case "team" if unit:
                return f"{unit} joins {value} (LN-R070)"
            case "morale_lost" if unit:
                return f"{unit} tests morale at {value} lost (LN-R070)"
        return None


register("ludonet", Ludonet)
