"""Quick skirmish rules from a Ludonet web page (© Ludonet s.r.l. 1996), a fragment.

The fragment announces a turn sequence and then omits it; this plugin plays the
sequence proposed by the digest (B.2, LN-AMB-01)::

    setup → deployment → [move-first → move-second → reveal → fire → melee → morale → end] per turn

The first player is rolled once when the deployment ends; the game ends as
end.py says.  Rulings: docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from core.language.i18n import N_, Msg, Text, piece_name, scenario_words, side_name
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import CommandSpec, Context, Phase, Ruleset
from core.rulesets.common import STATUSES, Loaded, emit_scenario, load_scenarios, referee_tools, scenario_command
from core.rulesets.ludonet import commands, dice_order, turn
from core.rulesets.ludonet.commands import end
from core.rulesets.ludonet.commands.air import STRIKE_VAR
from core.rulesets.ludonet.commands.fire import RESULT_WORDS
from core.rulesets.ludonet.pieces import AIRCRAFT
from core.rulesets.ludonet.scenario_format import FORMAT
from core.rulesets.ludonet.words import DOMAIN, WEAPONS, _
from core.scenarios.breaking import standing

SCENARIOS = Path(__file__).parent / "scenarios"

#: Each phase's ``commands`` follow the turn of B.2 (LN-AMB-01): each player moves
#: (LN-R010); in the fire phase every unit fires, then the indirect fire, the aircraft's
#: passes and the anti-aircraft fire (LN-R021, LN-R030, LN-R060..R062); the melee
#: (LN-R050); the morale tests (LN-R070).
PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "B.1", commands=("scenario",)),
    Phase(
        "deployment",
        "Written deployment",
        "referee",
        "each side writes down its positions; the referee places the visible units; next rolls the first player",
        "LN-R001, LN-R002",
    ),
    Phase(
        "move-first",
        "First player moves",
        "active",
        "the first player moves; then next",
        "B.2, LN-R010",
        commands=("move",),
    ),
    Phase(
        "move-second",
        "Second player moves",
        "active",
        "the second player moves; then next",
        "B.2, LN-R010",
        commands=("move",),
    ),
    Phase(
        "reveal",
        "Reveal",
        "referee",
        "the referee places units now in sight (clear UNIT hidden); then next",
        "LN-R001, LN-R020",
    ),
    Phase(
        "fire",
        "Fire",
        "both",
        "both sides fire; hits take effect together at next",
        "LN-R021, LN-R030",
        commands=("fire", "barrage", "pass", "strike", "aa"),
    ),
    Phase("melee", "Melee", "both", "figures in contact fight; then next", "LN-R050", commands=("melee",)),
    Phase(
        "morale",
        "Morale",
        "both",
        "units at half strength test morale; then next",
        "LN-R070",
        commands=("morale",),
    ),
    Phase("end", "End of turn", "referee", "wrecks, fatigue counters; then next", "B.2, LN-R071"),
    Phase(
        "final",
        "Final count",
        "referee",
        "the scenario's last turn is over: victory SIDE|draw REASON",
        "ruling LN-END",
    ),
)


class Ludonet(Ruleset):
    id = "ludonet"
    name = N_("Ludonet quick skirmish")
    version = "1996"
    domain = DOMAIN.name
    phases = PHASES
    end_phases = ()  # ruling LN-END: the victory command, in any phase
    next_dice = (dice_order.NEXT_FIRST_PLAYER,)
    rule_source = "ludonet-quick-rules-it.md"
    scenario_format = FORMAT
    demo_sides = ("paras", "garrison")  # its demo's sides (``players``' example)
    # what an aircraft's strike did, held until the fire phase ends (ruling LN-AA)
    secret_vars = (STRIKE_VAR,)

    @cached_property
    def scenarios(self) -> Mapping[str, Loaded]:
        return load_scenarios(FORMAT, SCENARIOS)

    def commands(self) -> list[CommandSpec]:
        return [scenario_command(self.scenarios, self._scenario), *commands.COMMANDS, *referee_tools("smith")]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, args["name"])
        ctx.emit(ev.PhaseBegan(turn=0, phase="deployment"))

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        turn.check_turn(self, state, parsed, role)

    def advance(self, ctx: Context) -> None:
        turn.advance(ctx)

    def pieces_lost(self, state: GameState, side: str) -> tuple[int, int]:
        """Its figures and vehicles lost, of all it has (ruling LN-END): aircraft come and go."""
        pieces = sum(1 for u in state.units_of(side) if u.kind != AIRCRAFT)
        return end.lost(state, side), pieces

    def end_broken(self, ctx: Context, losers: tuple[str, ...], why: Text) -> None:
        """The scenario's break point reached (ruling CORE-BREAK-AT): the end LN-END records,
        the side still standing winning, with each side's losses."""
        ctx.emit(end.ending(ctx.state, standing(ctx.state, losers) or end.DRAW, why))

    def sequence_step(self, state: GameState) -> tuple[object, ...]:
        return turn.sequence_step(state)

    def describe_var(self, key: str, value: int | str) -> str | None:
        head, _dot, unit = key.partition(".")
        if head in ("weapon", "grenade_range", "deployment"):
            return _scenario_words(head, unit, value)
        if head == "support" and unit.endswith((".used", ".turn")):
            support, _dot, field = unit.rpartition(".")
            if field == "used":
                return _("{support} calls its barrage number {n} (ruling LN-BARRAGE)").format(support=support, n=value)
            return _("{support} fires in turn {turn}, once only (ruling LN-BARRAGE)").format(
                support=support, turn=value
            )
        match head:
            case "first_player":
                return _("{side} is the first player for the game (LN-R002)").format(side=side_name(str(value)))
            case "passes" if unit:
                return _("{unit} makes pass {n} (LN-R060)").format(unit=piece_name(unit), n=value)
            case "immobilised_until" if unit:
                return _("{unit} cannot move until the end of turn {turn} (LN-R041)").format(
                    unit=piece_name(unit), turn=value
                )
            case "team" if unit:
                return _("{unit} joins {team} (LN-R070)").format(unit=piece_name(unit), team=scenario_words(str(value)))
            case "melee" if unit:
                a, _dot, b = unit.partition(".")
                said = (
                    _("{a} and {b} are still in melee: either gets away only by leaving (LN-R052)")
                    if value
                    else _("{a} and {b} are no longer in melee (LN-R050)")
                )
                return said.format(a=piece_name(a), b=piece_name(b))
            case "secret" if key.startswith(STRIKE_VAR):
                aircraft, _dot, target = key.removeprefix(STRIKE_VAR).partition(".")
                if not value:
                    return _("{aircraft}'s strike on {unit} is settled (ruling LN-AA)").format(
                        aircraft=piece_name(aircraft), unit=piece_name(target)
                    )
                return _(
                    "{unit}: {result} from {aircraft}'s strike when the fire phase ends, unless anti-aircraft "
                    "fire brings it down first (ruling LN-AA)"
                ).format(unit=piece_name(target), result=_(RESULT_WORDS[str(value)]), aircraft=piece_name(aircraft))
            case "morale_lost" if unit:
                return _("{unit}: {n} lost already answered by its morale tests (LN-R070)").format(
                    unit=scenario_words(unit), n=value
                )
        return None

    def terms(self) -> tuple[str, ...]:
        """The badges pieces wear (turn.py, hits.py, commands/air.py), shown from data; ``draw``,
        the word a result takes for a draw (end.py); the built-in scenarios' weapons (words.WEAPONS)."""
        return (*turn.BADGES, "draw", *WEAPONS)

    def statuses(self) -> frozenset[str]:
        """turn.BADGES, and the shared ones the referee may mark."""
        return frozenset({*STATUSES, *turn.BADGES})

    def success_hurts_unit(self, roll: ev.Roll) -> bool:
        # LN-R012: the fatigue roll succeeds (the book's 5+) when it tires the runner.
        return isinstance(roll.purpose, Msg) and roll.purpose.id == "fatigue"


def _scenario_words(head: str, rest: str, value: int | str) -> str | None:
    """The numbers a scenario gives that the fragment leaves out (ruling LN-WEAPONS: a
    weapon's range and flags, how far a grenade goes) and each side's written deployment
    (LN-R001), in words: the log said ``weapon.Sten.range = 20``."""
    weapon_id, _dot, field = rest.rpartition(".")
    weapon = DOMAIN.term(weapon_id)
    match head, field:
        case "weapon", "range" if weapon_id:
            return _("{weapon} reaches {cm} cm (ruling LN-WEAPONS)").format(weapon=weapon, cm=value)
        case "weapon", "heavy" if weapon_id and value:
            return _("{weapon} is a heavy weapon: +1 to the damage die (LN-R036)").format(weapon=weapon)
        case "weapon", "anti_tank" if weapon_id and value:
            return _("{weapon} may fire at vehicles (LN-R041)").format(weapon=weapon)
        case "weapon", "anti_aircraft" if weapon_id and value:
            return _("{weapon} may fire at aircraft (LN-R062)").format(weapon=weapon)
        case "grenade_range", _:
            return _("a grenade is thrown up to {cm} cm (LN-R038)").format(cm=value)
        case "deployment", _ if rest:
            return _("{side}'s written deployment: {positions} (LN-R001)").format(side=side_name(rest), positions=value)
    return None
