"""Ludonet melee (LN-R050/R051) and leaving one (LN-R052)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Refused, flag
from core.rulesets.ludonet import dice_order, rules
from core.rulesets.ludonet.phases import MOVE_PHASES
from core.rulesets.ludonet.pieces import EXPERT, MAN, audience, name_in_line_about, require_in_play
from core.rulesets.ludonet.tables import melee
from core.rulesets.ludonet.terms import Status
from core.rulesets.ludonet.words import _, owner


def locked_var(a: str, b: str) -> str:
    """Ruling LN-MELEE-TIE: the turn of a tied pair's last tie while it is still in the
    melee (1 in games recorded before the turn was kept), 0 once it is over."""
    first, second = sorted((a, b))
    return f"melee.{first}.{second}"


def locked_with(state: GameState, unit: Unit) -> list[Unit]:
    """The figures still in play that ``unit`` is in a melee with, from a tie (LN-R050):
    it walks away from them only by leaving (LN-R052)."""
    return [
        other
        for other in state.units.values()
        if other.id != unit.id and other.in_play and state.vars.get(locked_var(unit.id, other.id))
    ]


def _unlock(ctx: Context, a: Unit, b: Unit) -> None:
    key = locked_var(a.id, b.id)
    if ctx.state.vars.get(key):
        ctx.emit(ev.VarSet(key=key, value=0, vis=audience(a, b)))


def _pair(ctx: Context, args: dict[str, Any], first: str, second: str) -> tuple[Unit, Unit]:
    a, b = ctx.unit(args[first]), ctx.unit(args[second])
    for u in (a, b):
        require_in_play(u)
        if u.kind != MAN:
            raise Refused(
                _("{unit} is not a figure: melee is between two figures (LN-R050)").format(unit=u.name), rule="LN-R050"
            )
    if a.side == b.side:
        raise Refused(_("{unit} is on {whose} side").format(unit=b.name, whose=owner(a.name)), rule="LN-R050")
    return a, b


def _conditions(unit: Unit, *extra: str) -> list[str]:
    """LN-R051: the modifiers a figure brings to a melee roll."""
    held = ((EXPERT, EXPERT in unit.roles), ("wounded", unit.has(Status.WOUNDED)), ("prone", unit.has(Status.PRONE)))
    return [*extra, *(c for c, flag in held if flag)]


def _fight_roll(
    ctx: Context, unit: Unit, purpose: Msg, mods: tuple[ev.Mod, ...], rule: str, target: int | None = None
) -> int:
    """One figure's 1d6 + modifiers; ``purpose`` names the other fighter, so the log
    line (which starts with this figure's name) names both."""
    (face,) = ctx.roll(
        purpose,
        1,
        step=dice_order.MELEE,
        target=target,
        mods=mods,
        total=True,
        rule=rule,
        unit=unit.id,
        outcome=lambda f: M("total {total}", total=f[0] + sum(m.value for m in mods)),
        # LN-R050/R052: against the other's total, unless it is already known
        check=ev.Opposed() if target is None else ev.AtLeast(face=target),
    )
    return face + sum(m.value for m in mods)


def _melee(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R050/R051: 1d6 each plus modifiers; the higher eliminates the other; a tie
    fights on in the next melee phase (ruling LN-MELEE-TIE)."""
    a, b = _pair(ctx, args, "attacker", "defender")
    if ctx.state.vars.get(locked_var(a.id, b.id)) == ctx.state.turn:
        # LN-AMB-12: "lo scontro prosegue" in the next melee phase, not again in this one
        raise Refused(
            _("{a} and {b} tied in this melee phase: they fight on in the next one (ruling LN-MELEE-TIE)").format(
                a=a.name, b=b.name
            ),
            rule=("LN-R050", "LN-AMB-12"),
        )
    a_mods = rules.melee_mods(_conditions(a, *(("behind",) if args["behind"] else ())))
    a_total = _fight_roll(ctx, a, M("melee against {other}", other=name_in_line_about(b, a)), a_mods, "LN-R050")
    b_mods = rules.melee_mods(_conditions(b))
    b_total = _fight_roll(ctx, b, M("melee against {other}", other=name_in_line_about(a, b)), b_mods, "LN-R050")
    winner = rules.melee_winner(a_total, b_total)
    if winner == "tie":
        ctx.emit(ev.Noted(text=M("{a} and {b} fight on (LN-R050)", a=a.name, b=b.name), vis=audience(a, b)))
        ctx.emit(ev.VarSet(key=locked_var(a.id, b.id), value=ctx.state.turn, vis=audience(a, b)))
        return
    _unlock(ctx, a, b)
    victor, loser = (a, b) if winner == "a" else (b, a)
    ctx.emit(
        ev.UnitOut(unit=loser.id, cause=M("eliminated in melee by {victor}", victor=name_in_line_about(victor, loser)))
    )


def _leave(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R052 (ruling LN-LEAVE): the opponent's last roll with +2 against the leaver's
    roll; the leaver dies if beaten, else gets away (and may move in its move phase)."""
    s = ctx.state
    leaver, opponent = _pair(ctx, args, "figure", "opponent")
    if s.phase in MOVE_PHASES and leaver.side != s.active_side:
        raise Refused(
            _("{unit} leaves a melee in its own move or in the melee phase (ruling LN-LEAVE)").format(unit=leaver.name),
            rule=("LN-R052", "LN-AMB-13"),
        )
    if s.phase in MOVE_PHASES and leaver.has(Status.MOVED):
        raise Refused(
            _("{unit} has already moved this turn: it leaves before it moves (ruling LN-LEAVE)").format(
                unit=leaver.name
            ),
            rule=("LN-R052", "LN-AMB-13"),
        )
    leaving = melee().leaving
    bonus = ev.Mod(M("last roll at a figure leaving"), leaving.opponent_bonus, leaving.rule)
    with ctx.at_step(dice_order.LEAVING):
        leaver_total = _fight_roll(
            ctx,
            leaver,
            M("leaving the melee with {other}", other=name_in_line_about(opponent, leaver)),
            rules.melee_mods(_conditions(leaver)),
            leaving.rule,
        )

    opponent_mods = (bonus, *rules.melee_mods(_conditions(opponent)))
    with ctx.at_step(dice_order.LAST_ROLL):
        opponent_total = _fight_roll(
            ctx,
            opponent,
            M("last roll at {other} leaving", other=name_in_line_about(leaver, opponent)),
            opponent_mods,
            leaving.rule,
            # the face that cuts the leaver down, so the dice pane shows the exact odds
            target=max(1, rules.face_to_cut_down(leaver_total, sum(m.value for m in opponent_mods))),
        )

    _unlock(ctx, leaver, opponent)
    if rules.leaves_melee(leaver_total, opponent_total):
        text = M("{unit} breaks away from {other} (LN-R052)", unit=leaver.name, other=opponent.name)
        ctx.emit(ev.Noted(text=text, vis=audience(leaver, opponent)))
    else:
        cause = M("cut down by {other} leaving the melee", other=name_in_line_about(opponent, leaver))
        ctx.emit(ev.UnitOut(unit=leaver.id, cause=cause))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "melee",
        "Two figures in contact fight: 1d6 each, modified; the higher eliminates the other, a tie fights on. "
        "Dice: the attacker's, then the defender's.",
        _melee,
        params=(
            Param("attacker", "own"),
            Param("defender", "enemy"),
            flag("behind", "attacks from behind: +2"),
        ),
        rule="LN-R050",
        examples=("melee smith hans", "melee jones fritz behind dice=3,5"),
        phases=("melee",),
        rolls=True,
        dice=(dice_order.MELEE,),
    ),
    CommandSpec(
        "leave",
        "A figure tries to leave a melee (in its move, before moving, or in the melee phase): "
        f"its opponent has a last roll at +{melee().leaving.opponent_bonus}; beaten, the figure is eliminated, "
        "else it gets away. Dice: the leaver's, then the opponent's.",
        _leave,
        params=(Param("figure", "own", "the figure leaving"), Param("opponent", "enemy", "the figure it fights")),
        rule="LN-R052",
        examples=("leave jones fritz", "leave jones fritz dice=4,2"),
        phases=(*MOVE_PHASES, "melee"),
        rolls=True,
        dice=(
            dice_order.LEAVING,
            dice_order.LAST_ROLL,
        ),
    ),
)
