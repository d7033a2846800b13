"""The Breaking News turn machine (§5.0): phases, initiative, platoon activation
(§13.0), and what happens between the phases.

``next`` moves the game on:

* deployment → initiative: when the pre-game steps are done (deployment.py),
  or at once for a scenario set up as it stands;
* initiative → activation: combat's start-of-turn upkeep, a helicopter due
  this turn lands, initiative is rolled;
* activation → end: the turn's losses and first shot are scored (defeat.py);
* end → next turn: morale tests still due, combat's end-of-turn upkeep, the
  negotiation's points, the helicopter's waiting roll; after the scenario's last
  turn, or when the game has ended, the final count (victory.py).
"""

from __future__ import annotations

from typing import Any

from core.commands import match_prefix
from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import REFEREE
from core.ruleset import CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order, hits, rules
from core.rulesets.breaking_news.campaign import defeat, deployment, extras, forces, morale, negotiation, victory
from core.rulesets.breaking_news.commands import combat
from core.rulesets.breaking_news.ledger import set_var, var
from core.rulesets.breaking_news.tables import leadership_modifier
from core.rulesets.breaking_news.terms import Kind, PhaseId
from core.rulesets.breaking_news.words import DOMAIN, _

#: Commands a player may give whoever is active: they are not actions of his figures.
#: Support fire arrives when it arrives, not in its caller's activation (§8.4, §8.5,
#: Extras: Mortars), an IED goes off when an enemy comes near or its owner chooses
#: (Extras: Explosives), and a template's saves (§9.1) follow either at once
#: (rulings BN-C-REACTING-SUPPORT).
ANY_TIME = frozenset(
    {"note", "seal", "negotiate", "reveal", "intelligence", "civilians", "press", "blast", "ied", "mortar"}
)
#: Commands that put figures waiting off the table onto it.
PLACING = frozenset({"deploy", "ambush"})


def offered_first(ruleset: Ruleset, state: GameState, spec: CommandSpec, unit: Unit) -> bool:
    """Completion offers a figure waiting off the table (§4.2) last, as every command but
    those placing it refuses him (``check_turn``, hits' ``require_in_play``), and first
    to those, which place no other (``deploy``: one it takes now, ``deployment.deployable``);
    else as the command's own check says (``Ruleset.offered_first``)."""
    if spec.name == "deploy":
        return deployment.deployable(state, unit)
    off = deployment.OFF in unit.status
    if off or spec.name in PLACING:
        return off == (spec.name in PLACING)
    return Ruleset.offered_first(ruleset, state, spec, unit)


def check_turn(ruleset: Ruleset, state: GameState, parsed: Any, role: str) -> None:
    """A side's player acts in its own activation and reacts in the other's (§5.0);
    a platoon's figures act squad by squad (§13.0), also when the referee enters the
    active player's actions for him."""
    if role == REFEREE:
        phase = ruleset.phase(state.phase)
        name = parsed.spec.name
        acting = parsed.spec.who == "side" and name not in ANY_TIME and not name.startswith("react")
        if phase and phase.actor == "active" and acting:
            _squad_by_squad(state, parsed, state.active_side)
        return
    name = parsed.spec.name
    if name == "next":
        if state.phase != PhaseId.ACTIVATION or role != state.active_side:
            raise Refused(
                _("only the referee moves the game on, except the active player ending his activation"),
                rule=("ENG-1", "ENG-2"),
            )
        return
    if name not in PLACING:
        for uid in parsed.units:
            u = state.units.get(uid)
            if u is not None and u.side == role and deployment.OFF in u.status:
                raise Refused(_("{name} is not on the table yet").format(name=u.name), rule=("DEP-4", "ENG-2"))
    phase = ruleset.phase(state.phase)
    if not phase or phase.actor != "active" or name in ANY_TIME:
        return
    if name == "move" and parsed.units and state.units[parsed.units[0]].kind == Kind.CIVILIAN:
        return  # whoever won the civilians' roll moves them, active or not (rulings BN-CIV-MOVE)
    if role != state.active_side:
        if not name.startswith("react"):
            raise Refused(
                _("{active_side} are active: you may only react: {reactions}").format(
                    active_side=state.side_name(state.active_side), reactions=hits.reactions(name)
                ),
                rule=("ACT-2", "ENG-2"),
            )
        return
    _squad_by_squad(state, parsed, role)


def _squad_by_squad(state: GameState, parsed: Any, side: str) -> None:
    """§13.0: a platoon's figures act only while their squad is the one activated."""
    if not forces.is_platoon(state, side) or parsed.spec.name == "activate":
        return
    own = [state.units[u] for u in parsed.units if state.units[u].side == side]
    if own and own[0].kind == Kind.CIVILIAN:
        return  # the civilians are no squad's (rulings BN-CIV-MOVE)
    squad = var(state, f"activating.{side}", "")
    if own and not squad:
        raise Refused(
            _("a platoon acts squad by squad: activate one first (activate SQUAD, §13.0)"), rule=("INI-5", "ACT-4")
        )
    strays = [u.name for u in own if u.team != squad]
    if strays:
        raise Refused(
            _("{strays} not in {squad}, the squad now activated (§13.0)").format(strays=", ".join(strays), squad=squad),
            rule=("INI-5", "ACT-4"),
        )


def sequence_step(ruleset: Ruleset, state: GameState) -> tuple[object, ...]:
    """Where the report's re-rolls give an order (``Ruleset.sequence_step``, ruling
    CORE-REROLL).  §5.0 gives each turn to one Active Player, who acts while the other
    reacts, and the end phase settles what his activation did (morale, objectives taken,
    an ambush sprung): a side's turns as the Active Player are its steps, the n-th of
    them wherever the initiative puts it.  In the deployment the steps are each side's
    in §4.2's order, which the deployment roll decides; the final count (§14.0) is one
    step, whichever turn the game ends in."""
    if state.phase in (PhaseId.ACTIVATION, PhaseId.END):
        return (PhaseId.ACTIVATION, state.active_side)
    if state.phase == PhaseId.DEPLOYMENT:
        return (PhaseId.DEPLOYMENT, deployment.whose_step(state))
    if state.phase == PhaseId.FINAL:
        return (PhaseId.FINAL,)
    return Ruleset.sequence_step(ruleset, state)


def advance(ctx: Context) -> None:
    s = ctx.state
    match s.phase:
        case "setup":
            raise Refused(_("load a scenario first: scenario demo"), rule="ENG-7")
        case "deployment":
            if not deployment.started(s):
                deployment.quick_start(ctx)
            else:
                todo = deployment.missing(s)
                if todo:
                    raise Refused(
                        _("before the first turn: {steps}").format(steps="; ".join(todo)), rule=("DEP-3", "ENG-2")
                    )
            ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))
        case "initiative":
            combat.start_of_turn(ctx)
            extras.arrivals(ctx)
            active, reacting = roll_initiative(ctx)
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="activation", active=active, reacting=reacting))
        case "activation":
            defeat.settle(ctx)
            for side in s.sides:
                if var(s, f"activating.{side}", ""):
                    set_var(ctx, f"activating.{side}", "")
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="end", active=s.active_side, reacting=s.reacting_side))
        case "end":
            end_of_turn(ctx)
        case victory.FINAL:
            victory.finish(ctx)
        case _:
            raise Refused(
                _("the game is over: {result}").format(result=DOMAIN.render(s.result))
                if s.result
                else _("unknown phase {phase}").format(phase=s.phase),
                rule="ENG-2",
            )


def end_of_turn(ctx: Context) -> None:
    s = ctx.state
    defeat.settle(ctx)
    morale.run_due(ctx)
    if s.phase == victory.FINAL:
        return
    combat.end_of_turn(ctx)
    defeat.settle(ctx)
    negotiation.accrue(ctx)
    extras.waits(ctx)
    last = int(var(s, "turns", 0))
    if last and s.turn >= last:
        victory.game_over(ctx, f"{victory.LAST_TURN}:{last}")
        return
    ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="initiative"))


# ------------------------------------------------------------------ initiative


def initiative_mods(state: GameState, side: str) -> tuple[ev.Mod, ...]:
    """§5.0 [INI-1]: the main commander's leadership (a platoon's leader, §13.0), the
    troops' quality, the cumulative −1, +1 after an ambush."""
    return rules.initiative_mods(
        leadership_modifier(forces.leadership(state, side)),
        forces.quality(state, side),
        var(state, f"initiative_penalty.{side}"),
        bool(var(state, f"ambush.{side}")),
    )


def roll_initiative(ctx: Context) -> tuple[str, str]:
    """§5.0 step 1: 2d6 + modifiers each; ties re-rolled [INI-3, rulings BN-INI-TIE]."""
    s = ctx.state
    sides = list(s.sides)
    if len(sides) != 2:
        raise Refused(_("initiative needs exactly two sides"), rule=("INI-1", "ENG-7"))
    a, b = sides
    while True:
        totals = {}
        for side in sides:
            mods = initiative_mods(s, side)
            faces = ctx.roll(
                M("initiative"),
                2,
                step=dice_order.NEXT_INITIATIVE,
                side=side,
                mods=mods,
                total=True,
                rule="§5.0",
                outcome=lambda f, mods=mods: M("total {n}", n=rules.initiative_total(f, mods)),  # type: ignore[misc]  # a lambda binding a value by default argument: mypy cannot infer it
                check=ev.Opposed(),  # §5.0: against the other side's total
            )
            totals[side] = rules.initiative_total(faces, mods)
        if totals[a] != totals[b]:
            break
        ctx.emit(ev.Noted(text=M("initiative tied at {n}: both roll again (§5.0, rulings BN-INI-TIE)", n=totals[a])))
    active = a if totals[a] > totals[b] else b
    reacting = b if active == a else a
    for side in sides:
        key = f"initiative_penalty.{side}"
        penalty = rules.next_penalty(side == active, var(s, key))
        if penalty != var(s, key):
            set_var(ctx, key, penalty)
        if var(s, f"ambush.{side}"):
            set_var(ctx, f"ambush.{side}", 0)
    return active, reacting


# ---------------------------------------------------------- platoon activation


def _activate(ctx: Context, args: dict[str, Any]) -> None:
    """§13.0: the active player activates his squads one by one; a squad is done once
    the next one starts."""
    side = ctx.state.active_side
    if not forces.is_platoon(ctx.state, side):
        raise Refused(
            _("{side} play a single squad: every figure may act (§5.0)").format(side=ctx.state.side_name(side)),
            rule="ACT-1",
        )
    teams = forces.sub_units(ctx.state, side)
    squad = match_prefix(args["squad"], list(teams), "squad")
    if int(var(ctx.state, f"activated.{side}.{squad}", 0)) == ctx.state.turn:
        raise Refused(_("{squad} has been activated this turn").format(squad=squad), rule=("ACT-4", "PLT-2"))
    set_var(ctx, f"activating.{side}", squad)
    set_var(ctx, f"activated.{side}.{squad}", ctx.state.turn)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "activate",
        "Platoon games: activate the next squad or section (the one before it is done).",
        _activate,
        params=(Param("squad", "text", "the squad or section"),),
        rule="§13.0",
        examples=("activate 2nd",),
        phases=("activation",),
    ),
)
