"""Breaking News — Warfare in the Media Age (Dadi&Piombo), English draft 1.5.1.

Variant ``it-2009-12-09`` plays the Italian draft of 9 December 2009; each
difference is listed in docs/rulings.md.

Turn machine (§5.0, turn.py)::

    setup → deployment (turn 0) → [initiative → activation → end] per turn → final

``next`` moves from one phase to the next; leaving ``initiative`` rolls it; the
``final`` phase ends with the count of defeat points (§14.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.language.i18n import N_, Msg, Text
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Phase, Ruleset, SetupChoice
from core.rulesets.breaking_news import dice_order, narration
from core.rulesets.breaking_news.words import DOMAIN, IT, STATUSES, _

if TYPE_CHECKING:
    from core.rulesets.breaking_news.scenario_format import NewsFormat
    from core.rulesets.common import Loaded
    from core.scenarios.schema import Format

# The commands, the turn machine, the scenarios and their format (which between
# them import nearly every module of the ruleset, and the scenario files' readers)
# are imported where they are first used: opening a saved game and drawing it
# needs none of them, and the client's start would pay for them all
# (tests/tui/test_tui_start_imports.py).

SCENARIOS = Path(__file__).parent / "scenarios"

#: Each phase's ``commands`` follow the book's sequence of play (digest §3): set-up,
#: the scenario and its options (§4.0); the pre-game steps in order: army building
#: (Calculating points), mission and markers (§4.1, OBJ-2), the deployment roll and
#: deployment (§4.2, DEP-1..3), the helicopter, the negotiation, intelligence (Extras);
#: the support calls before initiative (§8.4); an activation (§5.0, §13.0): a unit is
#: activated, civilians first roll for control, each figure takes an action of §5.0's
#: list (move, fire, covering fire, in or out of a vehicle, change magazine, a hidden
#: move), the reacting player dodges, sights or fires (§6.5, §7.0, §8.2); the end of
#: the turn: ambushes, objectives taken, morale (§4.1.1, §12.0); the final captures (§14.0).
PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "§4.0", commands=("scenario", "option")),
    Phase(
        "deployment",
        "Deployment",
        "both",
        "objectives, rolloff, deploy in turn (or next at once to play the set-up as it stands)",
        "§4.1, §4.2",
        commands=(
            "roster",
            "buy",
            "mission",
            "objectives",
            "objective-roll",
            "rolloff",
            "deploy",
            "helicopter",
            "negotiate",
            "intelligence",
        ),
    ),
    Phase(
        "initiative",
        "Initiative",
        "referee",
        "support calls, then next rolls initiative",
        "§5.0",
        commands=("call-support",),
    ),
    Phase(
        "activation",
        "Activation",
        "active",
        "the active player acts; the reacting player reacts; then next",
        "§5.0, §13.0",
        commands=(
            "activate",
            "civilians",
            "move",
            "fire",
            "covering",
            "embark",
            "disembark",
            "reload",
            "hide",
            "react-dodge",
            "react-spot",
            "react-fire",
        ),
    ),
    Phase(
        "end",
        "End of turn",
        "referee",
        "ambushes, objectives taken, morale; then next",
        "§4.1.1, §12.0",
        commands=("ambush", "take", "morale"),
    ),
    Phase(
        "final",
        "Final count",
        "referee",
        "captures; then next counts the defeat points",
        "§14.0",
        commands=("capture",),
    ),
)


class BreakingNews(Ruleset):
    id = "breaking-news"
    name = "Breaking News"
    version = "1.5.1"
    domain = DOMAIN.name
    variants = ("", IT)
    variant_names = {IT: N_("Italian draft of 9 December 2009")}
    own_books = frozenset({IT})  # the draft is dated, not 1.5.1 (#61)
    phases = PHASES
    defeat_points = True  # §14.0: the side with fewer wins
    end_phases = ("initiative", "activation", "end", "final")  # §14.0: the victory command's
    next_dice = (
        dice_order.NEXT_SETUP,
        dice_order.NEXT_DRIFT,
        dice_order.NEXT_INITIATIVE,
        dice_order.NEXT_END,
        dice_order.NEXT_NEGOTIATION,
    )

    rule_source = "breaking-news-1.5.1-en.md"
    #: §7.0: a hidden figure is a marker on the table (rulings BN-C-MARKER).
    hidden_markers = True
    # the secrets kept of one figure (§14.0 losses, vehicles, wounds, reactions, civilians,
    # the turn a wounded man was last carried: §9.3; the turn his building was stormed: §11.1;
    # a vehicle whose driver was put out of action: §8.8)
    piece_keys = (
        "secret.lost.",
        "secret.aboard.",
        "secret.wound.",
        "secret.reacted.",
        "secret.civilian.",
        "secret.carried.",
        "secret.stormed.",
        "secret.driverless.",
    )
    # ledger.py: the facts kept about one figure, each a family by the figure's id
    secret_vars = piece_keys

    @cached_property
    def scenarios(self) -> Mapping[str, Loaded]:
        from core.rulesets.common import load_scenarios

        return load_scenarios(self.scenario_format, SCENARIOS)

    @property
    def scenario_format(self) -> Format:  # type: ignore[override]  # a property: its module is imported when first asked
        return _format()

    # ------------------------------------------------------------------ commands

    def commands(self) -> list[CommandSpec]:
        from core.rulesets.breaking_news.commands import campaign as campaign_commands
        from core.rulesets.breaking_news.commands import combat as combat_commands
        from core.rulesets.common import REFEREE_TOOLS, scenario_command

        return [
            scenario_command(self.scenarios, self._scenario),
            *campaign_commands.COMMANDS,
            *combat_commands.COMMANDS,
            # objectives.reveal also reveals any secret by key, for the referee
            *(spec for spec in REFEREE_TOOLS if spec.name != "reveal"),
        ]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        from core.rulesets.common import emit_scenario

        # The format adds the mission, points, forces and extras (scenario_rules.py).
        emit_scenario(ctx, args["name"])
        ctx.emit(ev.PhaseBegan(turn=0, phase="deployment"))

    def setup_choices(self, scenario_id: str) -> tuple[SetupChoice, ...]:
        """The mission, optional rules, extras and objectives to choose (setup.py)."""
        from core.rulesets.breaking_news import setup

        loaded = self.scenarios.get(scenario_id)
        if loaded is None:
            return ()
        return setup.choices(loaded.table(), _format().rules(loaded.sc), self.variant)

    # ------------------------------------------------------------- turn machine

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        from core.rulesets.breaking_news import turn

        turn.check_turn(self, state, parsed, role)

    def options_in_force(self, state: GameState) -> list[tuple[str, str]]:
        from core.rulesets.breaking_news.options import options_in_force

        return options_in_force(state)

    def sequence_step(self, state: GameState) -> tuple[object, ...]:
        from core.rulesets.breaking_news import turn

        return turn.sequence_step(self, state)

    def offered_first(self, state: GameState, spec: CommandSpec, unit: Unit) -> bool:
        from core.rulesets.breaking_news import turn

        return turn.offered_first(self, state, spec, unit)

    def expects(self, state: GameState) -> Text:
        """The phase's words; in the deployment, once the roll is made, whose step of
        §4.2 it is (deployment.step)."""
        if state.phase == "deployment":
            from core.rulesets.breaking_news.campaign import deployment

            step = deployment.step(state)
            if step is not None:
                return step
        return super().expects(state)

    def advance(self, ctx: Context) -> None:
        from core.rulesets.breaking_news import turn

        turn.advance(ctx)

    def describe_var(self, key: str, value: int | str) -> str | None:
        return narration.describe_var(key, value)

    def says_var(self, key: str, value: int | str) -> bool:
        return narration.says_var(key, value)

    def pieces_lost(self, state: GameState, side: str) -> tuple[int, int]:
        from core.rulesets.breaking_news.campaign import forces

        return forces.pieces_lost(state, side)

    def end_broken(self, ctx: Context, losers: tuple[str, ...], why: Text) -> None:
        from core.rulesets.breaking_news.campaign import victory

        victory.broken(ctx, losers, why)

    def class_name(self, cls: str) -> str:
        from core.rulesets.breaking_news.tables import troop_classes  # (a start's first frame names no class)

        tc = troop_classes().get(cls)
        return _(tc.name) if tc else cls

    def dice_that_apply(self, state: GameState, spec: CommandSpec, args: Mapping[str, Any]) -> tuple[str, ...]:
        from core.rulesets.breaking_news.options import option
        from core.rulesets.breaking_news.terms import Status

        # A step ruled out only where the game says so for certain: a suppression test when no figure
        # of the acting side is suppressed (§10.0), a deviation with its option off (§8.0.2), a wound with the
        # wounded rule off (§9.3); the group's and the helpers' figures are all of the acting side.
        named = args.get("unit")
        unit = state.units.get(named) if isinstance(named, str) else None
        ruled_out: set[str] = set()
        if unit is not None and not any(u.has(Status.SUPPRESSED) for u in state.units.values() if u.side == unit.side):
            ruled_out.add(dice_order.SUPPRESSION)
        if not option(state, "deviation"):
            ruled_out |= {dice_order.MISSED_AREA_SHOT, dice_order.MORTAR_MISS}
        if not option(state, "wounded"):
            ruled_out.add(dice_order.WOUND)
        return tuple(step for step in spec.dice if step not in ruled_out)

    def weapon_name(self, weapon: str) -> str:
        from core.rulesets.breaking_news.tables.combat import weapons

        w = weapons().get(weapon)  # §8.0's firing table names each weapon
        return _(w.name) if w else super().weapon_name(weapon)

    def terms(self) -> tuple[str, ...]:
        """The statuses a figure shows (words.STATUSES), and the kinds of piece the roster
        names where a piece has no class (a journalist, a civilian), translated as terms."""
        from core.rulesets.breaking_news.terms import Kind  # (read as the catalogues are written, not at a start)

        return (*STATUSES, *(kind.value for kind in Kind if kind is not Kind.MAN))

    def statuses(self) -> frozenset[str]:
        """words.STATUSES, and the shared ones the referee may mark."""
        from core.rulesets.common import STATUSES as SHARED  # as the tools are: not at import

        return frozenset({*SHARED, *STATUSES})

    def success_hurts_unit(self, roll: ev.Roll) -> bool:
        # §8.3: the covering-fire test succeeds when the covering fire hits the man who rolls it.
        return isinstance(roll.purpose, Msg) and roll.purpose.id == "covering-fire test in {area}"


def _format() -> NewsFormat:
    from core.rulesets.breaking_news.scenario_format import FORMAT

    return FORMAT
