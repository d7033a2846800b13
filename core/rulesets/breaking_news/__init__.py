"""Breaking News — Warfare in the Media Age (Dadi&Piombo), English draft 1.5.1.

Variant ``it-2009-12-09`` plays the Italian draft of 9 December 2009; each
difference is listed in docs/rulings.md.

Turn machine (§5.0)::

    setup → deployment (turn 0) → [initiative → activation → end] per turn

``next`` moves from one phase to the next; leaving ``initiative`` rolls it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core import events as ev
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset, register
from core.rulesets.breaking_news import rules
from core.rulesets.breaking_news.tables import troop_classes
from core.rulesets.common import REFEREE_TOOLS, Scenario, emit_scenario, load_scenarios
from core.state import GameState
from core.views import REFEREE

SCENARIOS = Path(__file__).parent / "scenarios"

PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "§4.0"),
    Phase("deployment", "Deployment", "both", "deploy both sides, then next", "§4.0"),
    Phase("initiative", "Initiative", "referee", "next rolls initiative", "§5.0"),
    Phase("activation", "Activation", "active", "the active player acts; the reacting player reacts; then next", "§5.0"),
    Phase("end", "End of turn", "referee", "objectives and morale; then next", "§5.0, §12.0"),
)


def _var(state: GameState, key: str, default: Any = 0) -> Any:
    return state.vars.get(key, default)


class BreakingNews(Ruleset):
    id = "breaking-news"
    name = "Breaking News"
    version = "1.5.1"
    variants = ("", "it-2009-12-09")
    phases = PHASES
    rule_source = "breaking-news-1.5.1-en.md"

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios: dict[str, Scenario] = load_scenarios(SCENARIOS)

    # ------------------------------------------------------------------ commands

    def commands(self) -> list[CommandSpec]:
        return [
            CommandSpec(
                "scenario",
                "Set up a ready-made scenario.",
                self._scenario,
                params=(Param("name", "choice", choices=tuple(self.scenarios)),),
                phases=("setup",),
                who="referee",
                examples=("scenario demo",),
            ),
            *REFEREE_TOOLS,
        ]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, self.scenarios[args["name"]])
        ctx.emit(ev.PhaseBegan(turn=0, phase="deployment"))

    # ------------------------------------------------------------- turn machine

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        if role == REFEREE:
            return
        if parsed.spec.name == "next":
            if state.phase != "activation" or role != state.active_side:
                raise Refused("only the referee moves the game on, except the active player ending his activation")
            return
        phase = self.phase(state.phase)
        if phase and phase.actor == "active" and role != state.active_side and not parsed.spec.name.startswith("react"):
            raise Refused(f"it is {state.active_side}'s activation; you may only react")

    def advance(self, ctx: Context) -> None:
        s = ctx.state
        match s.phase:
            case "setup":
                raise Refused("load a scenario first: scenario demo")
            case "deployment":
                ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))
            case "initiative":
                active, reacting = self._roll_initiative(ctx)
                ctx.emit(ev.PhaseBegan(turn=s.turn, phase="activation", active=active, reacting=reacting))
            case "activation":
                ctx.emit(ev.PhaseBegan(turn=s.turn, phase="end", active=s.active_side, reacting=s.reacting_side))
            case "end":
                ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="initiative"))
            case _:
                raise Refused(f"the game is over: {s.result}" if s.result else f"unknown phase {s.phase}")

    def _initiative_mods(self, state: GameState, side: str) -> tuple[ev.Mod, ...]:
        units = [u for u in state.units_of(side) if u.in_play and u.cls]
        commander = next((u for u in units if "commander" in u.roles), None)
        leadership = commander.leadership if commander else 0
        squad = [u.cls for u in units if commander is None or u.team == commander.team]
        return rules.initiative_mods(
            leadership,
            rules.side_quality(squad),
            _var(state, f"initiative_penalty.{side}"),
            bool(_var(state, f"ambush.{side}")),
        )

    def _roll_initiative(self, ctx: Context) -> tuple[str, str]:
        """§5.0 step 1: 2d6 + modifiers each; ties re-rolled [INI-3, docs/rulings.md BN-INI-TIE]."""
        s = ctx.state
        sides = list(s.sides)
        if len(sides) != 2:
            raise Refused("initiative needs exactly two sides")
        while True:
            totals = {}
            for side in sides:
                mods = self._initiative_mods(s, side)
                faces = ctx.roll(
                    f"initiative {side}",
                    2,
                    mods=mods,
                    total=True,
                    rule="§5.0",
                    outcome=lambda f, mods=mods: f"total {rules.initiative_total(f, mods)}",
                )
                totals[side] = rules.initiative_total(faces, mods)
            a, b = sides
            if totals[a] != totals[b]:
                break
            ctx.emit(ev.Noted(text=f"initiative tied at {totals[a]}: both roll again (§5.0, ruling BN-INI-TIE)"))
        active = a if totals[a] > totals[b] else b
        reacting = b if active == a else a
        for side in sides:
            key = f"initiative_penalty.{side}"
            new = rules.next_penalty(side == active, _var(s, key))
            if new != _var(s, key):
                ctx.emit(ev.VarSet(key=key, value=new))
            if _var(s, f"ambush.{side}"):
                ctx.emit(ev.VarSet(key=f"ambush.{side}", value=0))
        return active, reacting

    def class_name(self, cls: str) -> str:
        tc = troop_classes().get(cls)
        return tc.name if tc else cls


register("breaking-news", BreakingNews)
