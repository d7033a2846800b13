"""The Ludonet turn machine (digest B.2, the proposed sequence of LN-AMB-01).

    deployment → [move-first → move-second → reveal → fire → melee → morale → end] per turn
    … → final (after the scenario's last turn) → ended

The first player is rolled once, when ``next`` leaves the deployment (LN-R002),
and keeps moving first all game.  Fire is simultaneous (LN-R021): hits are held
on the targets as the badges ``hit-wound`` and ``hit-kill`` and take effect
together when the fire phase ends (hits.py), an air strike's with them unless
anti-aircraft fire brought its aircraft down (air.py); aircraft leave the table then too.

Badges that last a turn: ``moved`` (the −1 to hit of LN-R031), ``ran`` and
``fired``; ``prone``: the figure crawled and lies down until it walks or runs;
``tired-3`` … ``tired-1``: turns left without running (LN-R012); ``immobilised``
until the end of the turn its variable names (LN-R041).  How the game ends:
commands/end.py; the move phases and fatigue: phases.py.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState
from core.log.views import REFEREE
from core.ruleset import Context, Refused, Ruleset
from core.rulesets.ludonet import dice_order, hits, rules
from core.rulesets.ludonet.commands import air, end
from core.rulesets.ludonet.commands import unit as unit_commands
from core.rulesets.ludonet.phases import MOVE_PHASES, TIRED, tired
from core.rulesets.ludonet.terms import PhaseId, Status
from core.rulesets.ludonet.words import DOMAIN, _, owner, pgettext

#: The next phase of each phase within a turn.
SEQUENCE = {"move-second": "reveal", "reveal": "fire", "fire": "melee", "melee": "morale", "morale": "end"}
#: Every badge a piece may wear, for the catalogue (``Ruleset.terms``).
BADGES = (
    "moved",
    "ran",
    "fired",
    "prone",
    *TIRED,
    "wounded",
    "retreating",
    *hits.PENDING,
    hits.IMMOBILISED,
    air.OVERHEAD,
    air.STRUCK,
)
#: Commands either player may give in any phase (their handlers keep them to their phases and units).
BOTH_SIDES = ("fire", "aa", "melee", "leave", "morale", "note", "seal")


def check_turn(ruleset: Ruleset, state: GameState, parsed: Any, role: str) -> None:
    """Each player moves in his own move phase; fire and melee are both players' (B.2)."""
    if role == REFEREE:
        return
    name = parsed.spec.name
    if name in BOTH_SIDES:
        return
    if state.phase in MOVE_PHASES and role == state.active_side:
        return  # the mover moves and ends his movement with next
    if state.phase in MOVE_PHASES:
        raise Refused(
            _("it is {whose} move").format(whose=owner(state.side_name(state.active_side))), rule=("LN-AMB-01", "ENG-2")
        )
    raise Refused(
        _("only the referee moves the game on in the {phase} phase").format(phase=pgettext("phase", state.phase)),
        rule=("LN-AMB-01", "ENG-1"),
    )


def sequence_step(state: GameState) -> tuple[object, ...]:
    """Where the report's re-rolls give an order (``Ruleset.sequence_step``, ruling
    CORE-REROLL): LN-R002's roll decides only which side moves first, so a side's
    movement is its own step of the turn, first or second; the rest are the turn's
    phases, but the final count (ruling LN-END), one step whichever turn the game ends
    in."""
    if state.phase in MOVE_PHASES:
        return (state.turn, MOVE_PHASES, state.active_side)
    if state.phase == PhaseId.FINAL:
        return (PhaseId.FINAL,)
    return (state.turn, state.phase, "")


def advance(ctx: Context) -> None:
    s = ctx.state
    match s.phase:
        case "setup":
            raise Refused(_("load a scenario first: scenario demo"), rule="ENG-7")
        case "deployment":
            first = roll_first_player(ctx)
            ctx.emit(ev.VarSet(key="first_player", value=first))
            ctx.emit(ev.PhaseBegan(turn=1, phase="move-first", active=first, reacting=s.other_side(first)))
        case "move-first":
            second = s.reacting_side
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="move-second", active=second, reacting=s.other_side(second)))
        case "fire":
            air.land_strikes(ctx)
            hits.resolve(ctx)
            air.end_of_fire(ctx)
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase=SEQUENCE["fire"]))
        case "melee":
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase=SEQUENCE["melee"]))
            unit_commands.announce_due(ctx)
        case "morale":
            unit_commands.require_none_due(s)
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase=SEQUENCE["morale"]))
        case "end":
            end_of_turn(ctx)
            if end.check(ctx):
                return
            first = s.vars["first_player"]
            ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="move-first", active=first, reacting=s.other_side(first)))
        case phase if phase in SEQUENCE:
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase=SEQUENCE[phase]))
        case end.FINAL:
            raise Refused(_("record the result: victory SIDE|draw REASON (ruling LN-END)"), rule="ENG-2")
        case _:
            if s.result:
                raise Refused(_("the game is over: {result}").format(result=DOMAIN.render(s.result)), rule="ENG-2")
            raise Refused(_("unknown phase {phase}").format(phase=s.phase), rule="ENG-2")


def end_of_turn(ctx: Context) -> None:
    """B.2 T7: the turn's badges go; a tired figure has one turn less to wait (LN-R012),
    an immobilised vehicle may be free again (LN-R041); aircraft that flew their last
    pass are gone (LN-R060)."""
    hits.end_of_turn(ctx)
    air.end_of_turn(ctx)
    for u in ctx.state.units.values():
        if not u.in_play:
            continue  # a piece out of action keeps its last badges: nobody reads them
        add: tuple[str, ...] = ()
        remove = tuple(b for b in ("moved", "ran", "fired") if u.has(b))
        left = tired(u)
        if left and not u.has(Status.RAN):  # the turn it tired itself does not count
            remove += (f"tired-{left}",)
            add = (f"tired-{left - 1}",) if left > 1 else ()
        if add or remove:
            ctx.emit(ev.StatusChanged(unit=u.id, add=add, remove=remove))


def roll_first_player(ctx: Context) -> str:
    """LN-R002 (ruling LN-FIRST): 1d6 each, once for the scenario; ties roll again."""
    sides = list(ctx.state.sides)
    if len(sides) != 2:
        raise Refused(_("the first player is rolled between exactly two sides"), rule=("LN-R002", "LN-AMB-01"))
    while True:
        faces = {
            side: ctx.roll(
                M("first player roll"),
                1,
                step=dice_order.NEXT_FIRST_PLAYER,
                rule="LN-R002",
                side=side,
                check=ev.Opposed(),
            )[0]
            for side in sides
        }
        first = rules.first_player(faces)
        if first:
            return first
        ctx.emit(ev.Noted(text=M("tied at {face}: both roll again (ruling LN-FIRST)", face=faces[sides[0]])))
