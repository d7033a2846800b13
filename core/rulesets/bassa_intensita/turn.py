"""The Bassa Intensità turn machine (digest A.5.2; book "SEQUENZA DI GIOCO").

    initiative → cover → move-first → move-second → observe
               → fire-elite … fire-rabble (tiers with a unit able to act) → end → next turn

What each unit did this turn is kept as status badges on the unit, so it is seen
(and hidden) exactly like the unit itself:

* ``moved``, ``fired``, ``acted``: the one activity of the golden rule (BI-R030);
  ``balked``: failed its isolation test and does nothing this turn (BI-R024);
* ``cautious`` / ``running``: how it moved (target modifiers of A.9.4);
  ``ran``: it ran last turn and may not run this turn (BI-R041);
* ``aiming``: took the Aim action this turn; ``aimed``: aims this turn (BI-R085);
* ``shot-single`` / ``shot-auto``: it fired in the current phase of the book
  (movement or fire), which helps the enemy observe it (BI-R165) and, at night,
  hit it (A.9.4);
* ``moved-stabilised``: a stabilised vehicle that moved under half its allowance
  and may still fire (BI-R240);
* ``hovering``: a helicopter holding still in the air, for men to fast-rope (BI-R257).

Damage and morale badges are listed in ``casualties.py``.  At the end of a turn a
shock from an earlier turn wears off, and the seriously wounded whose time ran out
die (BI-R110); at the start of the next, squads whose leader is down roll for a
new one (BI-R028).  ``next`` will not leave a phase while a morale check is due.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState
from core.log.views import REFEREE
from core.ruleset import Context, Refused, Ruleset
from core.rulesets.bassa_intensita import casualties, dice_order, rules, squads
from core.rulesets.bassa_intensita.commands import air, special, support
from core.rulesets.bassa_intensita.commands import end as ending
from core.rulesets.bassa_intensita.commands import morale as morale_checks
from core.rulesets.bassa_intensita.commands.common import roll_under
from core.rulesets.bassa_intensita.phases import (
    MOVE_PHASES,
    SHOT_AT,
    SHOT_BADGES,
    STRUCK,
    TIER_PHASES,
    TURN_BADGES,
    can_act_now,
    tier_of_phase,
)
from core.rulesets.bassa_intensita.tables import tiers
from core.rulesets.bassa_intensita.terms import PhaseId, Status
from core.rulesets.bassa_intensita.words import _, render, whose, word

# ----------------------------------------------------------------- turn structure


def check_turn(ruleset: Ruleset, state: GameState, parsed: Any, role: str) -> None:
    """A side's player acts only when the sequence of play lets it (A.5.1)."""
    if role == REFEREE:
        return
    name = parsed.spec.name
    phase = state.phase
    if name in ("note", "seal"):  # writing down is no action (BI-R102: the observer writes his target)
        return
    if name == "next":
        if phase in MOVE_PHASES and role == state.active_side:
            return  # the mover ends his own movement
        raise Refused(
            _("only the referee moves the game on, except the moving player ending his movement"),
            rule=("ENG-1", "ENG-2"),
        )
    if name == "order" and role != state.active_side:
        raise Refused(
            _("{side} won the initiative and chooses who moves first").format(side=state.side_name(state.active_side)),
            rule=("ENG-2", "BI-AMB-11"),
        )
    if name == "move" and phase in MOVE_PHASES and role != state.active_side:
        raise Refused(
            _("it is {owner} movement; you may only make opportunity fire").format(
                owner=render(whose(state.side_name(state.active_side)))
            ),
            rule=("ENG-2", "BI-R050"),
        )
    if name == "fire" and phase in MOVE_PHASES and role == state.active_side:
        raise Refused(
            _("a side cannot fire in its own movement: opportunity fire is the other side's (BI-R050)"), rule="BI-R050"
        )


def sequence_step(state: GameState) -> tuple[object, ...]:
    """Where the report's re-rolls give an order (``Ruleset.sequence_step``, ruling
    CORE-REROLL): A.5.1's initiative decides only which side moves first, so a side's
    movement is its own step of the turn, first or second; the rest are the turn's
    phases, whoever won the initiative, but the result recorded once the last turn is
    over (BI-END), one step whichever turn the game ends in."""
    if state.phase in MOVE_PHASES:
        return (state.turn, MOVE_PHASES, state.active_side)
    if state.phase == PhaseId.FINAL:
        return (PhaseId.FINAL,)
    return (state.turn, state.phase, "")


def advance(ctx: Context) -> None:
    s = ctx.state
    if s.phase not in (PhaseId.SETUP, PhaseId.FINAL) and not s.result:
        due = [u.name for u in s.units.values() if u.in_play and u.has(Status.MORALE_DUE)]
        if due and ctx.role != REFEREE:
            raise Refused(
                _("morale checks are due first: the referee's next takes them ({units})").format(units=", ".join(due)),
                rule=("BI-R180", "BI-AMB-40"),
            )
        if due:
            morale_checks.run_due(ctx)  # A.13.1: every check due, in one go (ruling BI-MORALE-NEXT)
        if ending.decided(ctx):
            return
    if s.phase in TIER_PHASES:
        _clear(ctx, STRUCK)
    match s.phase:
        case "setup":
            raise Refused(_("load a scenario first: scenario demo"), rule="ENG-7")
        case "initiative":
            winner = roll_initiative(ctx)
            ctx.emit(ev.VarSet(key="first_mover", value=winner))
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="cover", active=winner, reacting=s.other_side(winner)))
        case "cover":
            first = s.vars["first_mover"]
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="move-first", active=first, reacting=s.other_side(first)))
            air.rotor_checks(ctx)  # BI-R263: at the start of the movement phase
        case "move-first":
            second = s.reacting_side
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="move-second", active=second, reacting=s.other_side(second)))
        case "move-second":
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="observe"))
        case "observe":
            _clear(ctx, (*SHOT_BADGES, *SHOT_AT))  # the fire phase begins: fired "in the phase" starts afresh
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase=_next_fire_phase(s, "")))
        case phase if phase in TIER_PHASES:
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase=_next_fire_phase(s, tier_of_phase(phase))))
        case "end":
            end_of_turn(ctx)
            if ending.last_turn_over(ctx):
                return
            ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="initiative"))
            replace_leaders(ctx)
        case "final":
            raise Refused(_("the last turn is over: record the result with victory SIDE or victory draw"), rule="ENG-2")
        case _:
            if s.result:
                raise Refused(_("the game is over: {result}").format(result=render(s.result)), rule="ENG-2")
            raise Refused(_("unknown phase {phase}").format(phase=s.phase), rule="ENG-2")


def _next_fire_phase(s: GameState, after: str) -> str:
    """The next Quality tier, best first, in which some unit of either side may still
    fire or act (BI-R061); tiers with none are passed over; then the end of the turn."""
    order = [t.id for t in tiers()]
    start = order.index(after) + 1 if after else 0
    for tier in order[start:]:
        if any(u.cls == tier and can_act_now(u) for u in s.units.values()):
            return f"fire-{tier}"
    return "end"


def end_of_turn(ctx: Context) -> None:
    """S4 → S0 (A.5.2): every unit's activity is reset; who ran may not run next turn
    (BI-R041); an Aim action gives an aimed shot next turn (BI-R085); shock lasts to
    the end of the turn after it (ruling BI-SHOCKED-TIME); the seriously wounded whose
    1d6 turns are over die undressed (BI-R110)."""
    for u in list(ctx.state.units.values()):
        if u.has(Status.SHOCKED_NOW):
            ctx.emit(ev.StatusChanged(unit=u.id, remove=("shocked-now",)))
        elif u.has(Status.SHOCKED):
            ctx.emit(ev.StatusChanged(unit=u.id, remove=("shocked",)))
        dies = ctx.state.vars.get(f"secret.dies.{u.id}", 0)
        if u.in_play and u.has(Status.SERIOUSLY_WOUNDED) and dies and dies <= ctx.state.turn:
            commanding = squads.commands(ctx.state, u)
            ctx.emit(ev.UnitOut(unit=u.id, cause=casualties.DIED_OF_WOUNDS))
            casualties.losses_felt(ctx, u, killed=True, wounded=False, under_fire=False, commanding=commanding)
    support.clear_smoke(ctx)
    special.clear_gas(ctx)
    for u in ctx.state.units.values():
        present = (set(u.status) & set(TURN_BADGES)) | {b for b in u.status if b.startswith("screened-by-")}
        carried = {"ran"} if "running" in present else set()
        if "aiming" in present:
            carried.add("aimed")
        if "fired-at" in present:
            carried.add("under-fire")  # BI-R042: -25% in the next movement
        if present or carried:
            ctx.emit(ev.StatusChanged(unit=u.id, add=tuple(sorted(carried)), remove=tuple(sorted(present - carried))))


def replace_leaders(ctx: Context) -> None:
    """BI-R028, at the start of a turn: a squad whose leader was killed rolls 1d10 under
    its Quality (ruling BI-SQUAD-QUALITY); on a success its best man takes over, one
    level of ability lower than the dead leader (ruling BI-LEADER-FLOOR)."""
    s = ctx.state
    done: set[tuple[str, str]] = set()
    for u in list(s.units.values()):
        key = (u.side, u.team)
        if key in done or not u.in_play or not squads.leader_lost(s, u):
            continue
        done.add(key)
        men = [
            m for m in s.units.values() if (m.side, m.team) == key and m.in_play and not m.has(Status.SERIOUSLY_WOUNDED)
        ]
        if not men:
            continue
        tier = squads.squad_quality(men)
        chance = squads.quality_chance(tier)
        fallen = [m for m in s.units.values() if (m.side, m.team) == key and squads.is_leader(m) and not m.in_play]
        # the latest to fall is a replacement (his badge) before the leader the scenario gave
        dead = next((m for m in fallen if m.has(Status.LEADER)), fallen[0])
        order = [t.id for t in tiers()]
        # the best unhurt man, not one wounded or Shocked (he has just panicked, perhaps);
        # only a squad with none of them is led by the best of the rest (ruling BI-LEADER)
        unhurt = [m for m in men if not m.has(Status.WOUNDED) and not m.has(Status.SHOCKED)]
        best = min(unhurt or men, key=lambda m: order.index(m.cls) if m.cls in order else len(order))
        new_ability = squads.one_level_lower(squads.ability(dead))
        taking = M("taking over {team}", team=u.team)
        took, none = M("{unit} takes over ({ability})", unit=best.name, ability=word(new_ability)), M("no leader yet")
        if roll_under(ctx, taking, best, chance, (), "BI-R028", took, none, step=dice_order.NEXT_TAKING_OVER):
            ctx.emit(ev.StatusChanged(unit=best.id, add=("leader", f"ability-{new_ability}")))


def _clear(ctx: Context, badges: tuple[str, ...]) -> None:
    for u in ctx.state.units.values():
        present = tuple(b for b in badges if u.has(b))
        if present:
            ctx.emit(ev.StatusChanged(unit=u.id, remove=present))


def roll_initiative(ctx: Context) -> str:
    """A.5.1 ("INIZIATIVA"): 1d6 each; the higher chooses who moves first (command
    ``order``; by default he moves first).  Ties are rolled again (ruling BI-INI-TIE)."""
    sides = list(ctx.state.sides)
    if len(sides) != 2:
        raise Refused(_("initiative needs exactly two sides"), rule=("BI-AMB-11", "ENG-7"))
    while True:
        faces = {
            side: ctx.roll(
                M("initiative"), 1, rule="A.5.1", side=side, check=ev.Opposed(), step=dice_order.NEXT_INITIATIVE
            )[0]
            for side in sides
        }  # A.5.1: against the other side
        winner = rules.roll_off_winner(faces)
        if winner:
            return winner
        ctx.emit(
            ev.Noted(text=M("initiative tied at {face}: both roll again (ruling BI-INI-TIE)", face=faces[sides[0]]))
        )
