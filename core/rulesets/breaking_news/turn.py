"""The Breaking News turn machine (§5.0): phases, initiative, start and end of turn."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import Context, Refused, Ruleset
from core.rulesets.breaking_news import combat, rules
from core.state import GameState
from core.views import REFEREE


def var(state: GameState, key: str, default: Any = 0) -> Any:
    return state.vars.get(key, default)


def check_turn(ruleset: Ruleset, state: GameState, parsed: Any, role: str) -> None:
    """A side's player acts in its own activation and reacts in the other's (§5.0)."""
    if role == REFEREE:
        return
    if parsed.spec.name == "next":
        if state.phase != "activation" or role != state.active_side:
            raise Refused("only the referee moves the game on, except the active player ending his activation")
        return
    phase = ruleset.phase(state.phase)
    if phase and phase.actor == "active" and role != state.active_side and not parsed.spec.name.startswith("react"):
        raise Refused(f"it is {state.active_side}'s activation; you may only react")


def advance(ctx: Context) -> None:
    s = ctx.state
    match s.phase:
        case "setup":
            raise Refused("load a scenario first: scenario demo")
        case "deployment":
            ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))
        case "initiative":
            combat.start_of_turn(ctx)
            active, reacting = roll_initiative(ctx)
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="activation", active=active, reacting=reacting))
        case "activation":
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="end", active=s.active_side, reacting=s.reacting_side))
        case "end":
            combat.end_of_turn(ctx)
            ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="initiative"))
        case _:
            raise Refused(f"the game is over: {s.result}" if s.result else f"unknown phase {s.phase}")


def initiative_mods(state: GameState, side: str) -> tuple[ev.Mod, ...]:
    units = [u for u in state.units_of(side) if u.in_play and u.cls]
    commander = next((u for u in units if "commander" in u.roles), None)
    leadership = commander.leadership if commander else 0
    squad = [u.cls for u in units if commander is None or u.team == commander.team]
    return rules.initiative_mods(
        leadership,
        rules.side_quality(squad),
        var(state, f"initiative_penalty.{side}"),
        bool(var(state, f"ambush.{side}")),
    )


def roll_initiative(ctx: Context) -> tuple[str, str]:
    """§5.0 step 1: 2d6 + modifiers each; ties re-rolled [INI-3, docs/rulings.md BN-INI-TIE]."""
    s = ctx.state
    sides = list(s.sides)
    if len(sides) != 2:
        raise Refused("initiative needs exactly two sides")
    a, b = sides
    while True:
        totals = {}
        for side in sides:
            mods = initiative_mods(s, side)
            faces = ctx.roll(
                f"initiative {side}",
                2,
                mods=mods,
                total=True,
                rule="§5.0",
                outcome=lambda f, mods=mods: f"total {rules.initiative_total(f, mods)}",
            )
            totals[side] = rules.initiative_total(faces, mods)
        if totals[a] != totals[b]:
            break
        ctx.emit(ev.Noted(text=f"initiative tied at {totals[a]}: both roll again (§5.0, ruling BN-INI-TIE)"))
    active = a if totals[a] > totals[b] else b
    reacting = b if active == a else a
    for side in sides:
        key = f"initiative_penalty.{side}"
        new = rules.next_penalty(side == active, var(s, key))
        if new != var(s, key):
            ctx.emit(ev.VarSet(key=key, value=new))
        if var(s, f"ambush.{side}"):
            ctx.emit(ev.VarSet(key=f"ambush.{side}", value=0))
    return active, reacting
