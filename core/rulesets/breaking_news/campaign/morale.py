"""Morale (§12.0) for a squad, and for a platoon (§13.0).

A test falls due at the end of a turn in which the force took losses.  It rolls
as many d6 as the troops' Initiative/Morale value (a platoon adds one die for
each squad or section that has not lost 50%), read one by one, and passes if a
die reaches the losses so far (a lost leader counts two), or shows a 6 while at
least half the men still fight.  A force that fails while it has more defeat
points than the enemy is routed and the game ends; otherwise it starts the
next turn suppressed, and each man who then fails his suppression test
retreats (status ``retreating``: combat's suppression test clears it on a pass).

The test is a command (``morale SIDE``); any test still due when the end
phase closes is rolled by ``next`` (rulings BN-MOR-WHEN).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.campaign import defeat, deployment, forces, media, victory
from core.rulesets.breaking_news.ledger import charge, extra, set_var, unit_var, var
from core.rulesets.breaking_news.terms import PhaseId
from core.rulesets.breaking_news.words import IT, _

# ------------------------------------------------------------------ pure rules


@dataclass(frozen=True)
class MoraleTest:
    """What a test rolls and needs: ``dice`` d6, one at or over ``losses``; a 6
    passes anyway while ``half_fighting``."""

    dice: int
    losses: int
    half_fighting: bool


def squad_test(quality: int, lost: int, leaders_lost: int, strength: int, fighting: int) -> MoraleTest:
    """§12.0: Init/Morale dice; losses so far, a lost leader counting two."""
    return MoraleTest(quality, lost + leaders_lost, 2 * fighting >= strength)


def platoon_test(
    quality: int, squads: list[tuple[int, int]], lost: int, leaders_lost: int, strength: int, fighting: int
) -> MoraleTest:
    """§13.0: one test for the platoon, one more die for each (size, lost) squad or
    section that has not suffered 50% losses (exactly half gives none, AMB-53)."""
    intact = sum(1 for size, gone in squads if 2 * gone < size)
    return MoraleTest(quality + intact, lost + leaders_lost, 2 * fighting >= strength)


def passes(test: MoraleTest, faces: tuple[int, ...]) -> bool:
    """§12.0 [MOR-4]: a die at or over the losses; or a 6 while half the men fight."""
    return any(f >= test.losses for f in faces) or (test.half_fighting and 6 in faces)


def morale_check(test: MoraleTest) -> ev.AtLeast:
    """:func:`passes` as a roll records it: one die at the losses, or at 6 at most
    while half the men fight (§12.0 [MOR-4])."""
    return ev.AtLeast(face=min(test.losses, 6) if test.half_fighting else test.losses)


# ------------------------------------------------------------ reading the state


def leader_lost(ctx: Context, unit: Unit) -> bool:
    """English §12.0 doubles a leader *killed*; the Italian one the loss of the
    commander, dead or badly wounded (DIFF-42)."""
    return forces.is_loss(unit) if ctx.ruleset.variant == IT else forces.is_dead(unit)


def build_test(ctx: Context, side: str) -> MoraleTest:
    state = ctx.state
    force = forces.men(state, side)
    lost = sum(1 for u in force if forces.is_loss(u))
    leaders = sum(1 for u in forces.leaders_counted_double(state, side) if leader_lost(ctx, u))
    fighting = sum(1 for u in force if u.in_play)
    quality = forces.quality(state, side)
    if forces.is_platoon(state, side):
        # §13.0 with mixed classes: the lowest Morale value in the platoon (AMB-53,
        # rulings BN-INI-QUALITY); the initiative keeps the commander's squad's.
        quality = forces.lowest_morale(state, side)
        squads = [(len(us), sum(1 for u in us if forces.is_loss(u))) for us in forces.sub_units(state, side).values()]
        return platoon_test(quality, squads, lost, leaders, len(force), fighting)
    return squad_test(quality, lost, leaders, len(force), fighting)


def nobody_left(state: GameState, side: str) -> bool:
    """§12.0 (and the Italian draft's 12.0): the squad rolls its own test, and a squad (or
    platoon) with no man left in play has nobody to roll it; its losses are counted already
    (rulings BN-MOR-EMPTY)."""
    return not any(u.in_play for u in forces.men(state, side))


def due(state: GameState, side: str) -> bool:
    """The side lost men this turn, has not tested yet, and has somebody left to test."""
    if int(var(state, f"morale.{side}.tested", 0)) == state.turn or nobody_left(state, side):
        return False
    return any(int(unit_var(state, u.id, "lost")) == state.turn for u in forces.men(state, side))


def losing(ctx: Context, side: str) -> bool:
    """ "More defeat points than the opponent" — strictly, as they stand with the
    journalist multipliers (rulings BN-MOR-LOSING)."""
    other = ctx.state.other_side(side)
    return media.standing(ctx.state, side) > media.standing(ctx.state, other)


# ---------------------------------------------------------------------- the test


def take_test(ctx: Context, side: str) -> None:
    """Roll a due morale test and apply the outcome."""
    t = build_test(ctx, side)
    platoon = forces.is_platoon(ctx.state, side)
    set_var(ctx, f"morale.{side}.tested", ctx.state.turn)
    faces = ctx.roll(
        M("morale (platoon)") if platoon else M("morale (squad)"),
        t.dice,
        step=(dice_order.NEXT_END, dice_order.MORALE),
        side=side,
        target=t.losses,
        rule="§13.0" if platoon else "§12.0",
        outcome=lambda f: M("passed") if passes(t, f) else M("failed"),
        check=morale_check(t),
        certain_if=(True,),  # a pass is read for nothing more: a test no face can fail is drawn (CORE-CERTAIN)
    )
    if t.half_fighting:
        half = M("at least half still fight: a 6 passes")
    else:
        half = M("under half still fight: a 6 is only a 6")
    ctx.emit(
        ev.Noted(
            text=M(
                "{side} morale: {dice} dice, losses so far {losses}; {half}",
                side=side,
                dice=t.dice,
                losses=t.losses,
                half=half,
            )
        )
    )
    if passes(t, faces):
        return
    if extra(ctx.state, side, "motivation") and not var(ctx.state, f"motivation.{side}.used", 0):
        set_var(ctx, f"motivation.{side}.used", 1)
        ctx.emit(ev.Noted(text=M("{side} ignore their first failed morale test (Extras: Motivation)", side=side)))
        return
    set_var(ctx, f"morale.{side}.failed", ctx.state.turn)
    if losing(ctx, side):
        rout(ctx, side)
    else:
        shaken(ctx, side)


def rout(ctx: Context, side: str) -> None:
    """Failed while losing: the force leaves the field and the game is over (§12.0, §14.0)."""
    charge(ctx, side, "disengagement", M("{side} fail morale while losing and leave the field", side=side))
    victory.game_over(ctx, f"{victory.MORALE}:{side}")


def shaken(ctx: Context, side: str) -> None:
    """Failed but not losing: the men start the next turn suppressed; each who fails his
    suppression test must fall back 15 cm (``retreating``) until he passes one."""
    for u in forces.men(ctx.state, side):
        if u.in_play and deployment.OFF not in u.status:
            add = tuple(s for s in ("suppressed", "retreating") if s not in u.status)
            if add:
                ctx.emit(ev.StatusChanged(unit=u.id, add=add))
    ctx.emit(
        ev.Noted(
            text=M(
                "{side} fail morale but are not losing: suppressed; each man who fails his suppression "
                "test falls back at least 15 cm toward his table edge (§12.0)",
                side=side,
            )
        )
    )


def _morale_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Whose morale may be tested: a player his own side's, a side with a test due (§12.0)."""
    if role in state.sides and role != side:
        raise Refused(_("each player rolls his own side's morale"), rule=("MOR-1", "ENG-1"))
    if int(var(state, f"morale.{side}.tested", 0)) == state.turn:
        raise Refused(_("{side} have already tested morale this turn").format(side=state.side_name(side)), rule="MOR-1")
    if nobody_left(state, side):
        raise Refused(
            _("{side} have nobody left to test morale (§12.0)").format(side=state.side_name(side)), rule="MOR-1"
        )
    # A loss not scored yet is this turn's: the command scores it (defeat.settle) first.
    unscored = any(forces.is_loss(u) and not int(unit_var(state, u.id, "lost")) for u in forces.men(state, side))
    if not (due(state, side) or unscored):
        raise Refused(
            _("{side} took no losses this turn: no morale test (§12.0)").format(side=state.side_name(side)),
            rule=("MOR-1", "MOR-2"),
        )


def _morale(ctx: Context, args: dict[str, Any]) -> None:
    side = args["side"]
    defeat.settle(ctx)
    _morale_side(ctx.ruleset, ctx.state, side, ctx.role)
    take_test(ctx, side)


def run_due(ctx: Context) -> None:
    """The tests still due when the end phase closes, in side order."""
    for side in list(ctx.state.sides):
        if ctx.state.phase == PhaseId.FINAL:
            return
        if due(ctx.state, side):
            take_test(ctx, side)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "morale",
        "Roll a side's morale test (due after a turn with losses; next rolls any still due).",
        _morale,
        params=(Param("side", "side", "the squad or platoon's side"),),
        rule="§12.0, §13.0",
        examples=("morale regulars", "morale irregulars dice=1,2,4"),
        phases=("end",),
        rolls=True,
        dice=(dice_order.MORALE,),
        side_check=_morale_side,
    ),
)
