"""Breaking News hand-to-hand combat (§11.0) and storming a building (§11.1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from core.language.i18n import M, Msg
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.commands.common import LEADER, ready_to_act, require_ready, suppression_test
from core.rulesets.breaking_news.ledger import set_unit_var, unit_var
from core.rulesets.breaking_news.rules import saves, suppression
from core.rulesets.breaking_news.tables.combat import support
from core.rulesets.breaking_news.terms import Status
from core.rulesets.breaking_news.words import _


def _fighter(u: Unit) -> suppression.Fighter:
    t = hits.troop(u)
    return suppression.Fighter(u.name, t.melee if t else 0, u.has(Status.SUPPRESSED))


def _melee(ctx: Context, args: dict[str, Any]) -> None:
    """§11.0: 1d6 a side plus every fighter's Melee value, −2 per suppressed man; the
    higher kills.  Up to three against one; a tie is fought again.  No shot is fired,
    so a melee is never the first shot of §14.0 (ruling BN-C-FIRST-SHOT)."""
    lead = ctx.unit(args["unit"])
    ours = [lead, *hits.resolve_units(ctx, args.get("with"), side=lead.side)]
    theirs = [ctx.unit(t) for t in args["enemies"]]
    most = support().melee.max_per_side
    if len(ours) > 1 and len(theirs) > 1:
        raise Refused(_("a melee is up to three against ONE; break bigger fights up (§11.0)"), rule=("MEL-1", "MEL-2"))
    if len(ours) > most or len(theirs) > most:
        raise Refused(_("at most {most} men fight one (§11.0)").format(most=most), rule=("MEL-1", "MEL-2"))
    for u in ours:
        hits.require_on_foot(ctx, u)
        if not hits.may_fight(u):
            raise Refused(
                _("{name} has already fired or fought this turn; only a move may end in melee (§11.0)").format(
                    name=u.name
                ),
                rule=("MEL-1", "MEL-2"),
            )
    for u in theirs:
        hits.require_in_play(u)
        if u.has(Status.HIDDEN) and lead.side not in u.spotted_by:
            raise Refused(_("{name} is hidden").format(name=u.name), rule=("MEL-1", "SPOT-2"))
    fighting = [u for u in ours if ready_to_act(ctx, u, args.get("leader"))]
    if not fighting:
        return
    ours = [ctx.unit(u.id) for u in fighting]
    for u in ours:
        hits.reveal(ctx, u, M("charges"))
    mods_a = suppression.melee_mods([_fighter(u) for u in ours])
    mods_b = suppression.melee_mods([_fighter(u) for u in theirs])
    named_a, named_b = _melee_roll(ours), _melee_roll(theirs)
    while True:
        a = _fight(ctx, named_a, mods_a, dice_order.MELEE_ATTACKERS)
        b = _fight(ctx, named_b, mods_b, dice_order.MELEE_DEFENDER)
        winner = suppression.melee_winner(a, mods_a, b, mods_b)
        if winner != "tie":
            break
        ctx.emit(ev.Noted(text=M("the melee is tied: both roll again (ruling BN-C-MELEE-TIE)")))
    losers, win_side = (theirs, lead.side) if winner == "a" else (ours, theirs[0].side)
    victim = _casualty(ctx, losers, args.get("casualty"))
    ctx.emit(ev.UnitOut(unit=victim.id, cause=hits.cause(hits.KILLED, win_side)))
    for u in ours:
        hits.badge(ctx, ctx.unit(u.id), "acted")
    hits.next_action(ctx, ours)


def _casualty(ctx: Context, losers: Sequence[Unit], named: str | None) -> Unit:
    """The group that loses loses one man, its owner's choice (AMB-50): the one named
    with casualty=, else the first of the group as named."""
    if not named or len(losers) == 1:
        return losers[0]
    (pick,) = hits.resolve_units(ctx, named)
    if pick.id not in {u.id for u in losers}:
        raise Refused(_("{pick} is not in the losing group").format(pick=pick.name), rule="MEL-4")
    return pick


def _storm(ctx: Context, args: dict[str, Any]) -> None:
    """§11.1, one round: each man rolls as many dice as his Melee value, attackers hit
    on 6, defenders on 5–6, all at once; every hit is a save.  A suppressed man who
    fails his suppression test sits the round out."""
    attackers = [ctx.unit(u) for u in args["units"]]
    defenders = hits.resolve_units(ctx, args["against"])
    civilians = hits.resolve_units(ctx, args.get("civilians"))
    if not defenders:
        raise Refused(_("name the defenders: against=a,b"), rule=TYPING)
    side = attackers[0].side
    for u in attackers:
        # §10.0: a man in panic (or changing magazine, §8.0.3) does nothing but crawl to cover
        require_ready(ctx.state, u)
        hits.require_on_foot(ctx, u)
        if hits.has_acted(u):
            raise Refused(_("{name} has already acted this turn").format(name=u.name), rule=("BLD-1", "T-03"))
    for u in defenders:
        hits.require_in_play(u)
        if u.side == side:
            raise Refused(_("{name} is on your side").format(name=u.name), rule="BLD-1")
        # §11.1: "Resolve the combat in a single combat (roll)", a round a turn (the
        # example's "Next turn ..."): every man storming the building this turn is in it.
        if unit_var(ctx.state, u.id, "stormed", 0) == ctx.state.turn:
            raise Refused(
                _(
                    "{name} has fought this turn's round in the building: it is one roll, every attacker in it (§11.1)"
                ).format(name=u.name),
                rule=("BLD-1", "BLD-5"),
            )
    able_a = [u for u in attackers if suppression_test(ctx, u, args.get("leader"))]
    able_d = [u for u in defenders if suppression_test(ctx, u, None)]
    for u in able_a:
        hits.reveal(ctx, ctx.unit(u.id), M("storms the building"))
    for u in defenders:
        set_unit_var(ctx, ctx.unit(u.id), "stormed", ctx.state.turn)
    hits_on_d = _storm_roll(ctx, able_a, defending=False)
    hits_on_a = _storm_roll(ctx, able_d, defending=True)
    sf = all(u.cls == "R1" for u in attackers)
    _allocate(ctx, hits_on_d, defenders, by_side=side)
    _allocate(ctx, hits_on_a, attackers, by_side=defenders[0].side)
    for c in civilians:
        hits.take_hits(ctx, c, 1, by_side=side, source=saves.STORM_CIVILIAN, vs_special_forces=sf)
    for u in attackers:
        hits.badge(ctx, ctx.unit(u.id), "acted")
    hits.next_action(ctx, attackers)


class _Whose(TypedDict, total=False):
    """Whose a roll is (``Context.roll``'s ``unit`` or ``side``)."""

    unit: str
    side: str


def _melee_roll(men: Sequence[Unit]) -> tuple[Msg, _Whose]:
    """What one group's melee roll is called, and whose it is: one man's own, or
    several men's side's, naming them."""
    if len(men) == 1:
        return M("melee"), {"unit": men[0].id}
    return M("melee of {men}", men=" & ".join(u.name for u in men)), {"side": men[0].side}


def _fight(ctx: Context, named: tuple[Msg, _Whose], mods: tuple[ev.Mod, ...], step: str) -> int:
    """One group's melee roll, 1d6 plus ``mods``: its face."""
    what, whose = named
    (face,) = ctx.roll(
        what,
        1,
        step=step,
        **whose,
        mods=mods,
        total=True,
        rule="§11.0",
        outcome=lambda f: M("total {n}", n=f[0] + sum(m.value for m in mods)),
        check=ev.Opposed(),  # §11.0: the higher total wins
    )
    return face


def _storm_roll(ctx: Context, men: Sequence[Unit], *, defending: bool) -> int:
    dice = sum(troop.melee for u in men if (troop := hits.troop(u)))
    need = support().storm.defender_hits if defending else support().storm.attacker_hits
    if not dice:
        if defending:
            ctx.emit(ev.Noted(text=M("the defenders roll no dice this round (§11.1)")))
        else:
            ctx.emit(ev.Noted(text=M("the attackers roll no dice this round (§11.1)")))
        return 0
    # §11.1 replaces ranged fire: these dice are shots, and the first side to roll
    # them may be the one that fires first (§14.0, ruling BN-C-FIRST-SHOT).
    hits.first_fire(ctx, men[0].side)
    faces = ctx.roll(
        M("building assault as defenders ({n} men)", n=len(men))
        if defending
        else M("building assault as attackers ({n} men)", n=len(men)),
        dice,
        side=men[0].side,
        target=need,
        rule="§11.1",
        step=dice_order.STORM_DEFENDERS if defending else dice_order.STORM_ATTACKERS,
        outcome=lambda f: M("{n} hits", n=suppression.storm_hits(f, defending)),
        check=suppression.storm_check(defending),
    )
    return suppression.storm_hits(faces, defending)


def _allocate(ctx: Context, n: int, men: Sequence[Unit], *, by_side: str) -> None:
    """Hits spread over the men in the order named (their owner's choice, §11.1)."""
    alive = [u.id for u in men if not ctx.unit(u.id).out]
    if not n or not alive:
        return
    for uid, count in suppression.spread_hits(n, alive).items():
        hits.take_hits(ctx, ctx.unit(uid), count, by_side=by_side)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "melee",
        "Hand-to-hand: up to three against one; 1d6 a side plus Melee values, -2 per suppressed man (§11.0).",
        _melee,
        params=(
            Param("unit", "own", "the attacker"),
            Param("enemies", "enemy", "the enemy (or up to three enemies against one attacker)", many=True),
            Param("with", "text", "up to two more attackers against one enemy", optional=True, keyword=True),
            Param(
                "casualty", "text", "which man of a losing group dies (his owner's choice)", optional=True, keyword=True
            ),
            LEADER,
        ),
        rule="§11.0",
        examples=("melee rossi ahmed", "melee rossi ahmed with=conti,bianchi"),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.MELEE_ATTACKERS,
            dice_order.MELEE_DEFENDER,
            "both again on a tie",
        ),
    ),
    CommandSpec(
        "storm",
        "Storm a building, one round (§11.1): attackers hit on 6, defenders on 5-6, dice = Melee value; "
        "hits spread in the order named. Dice: suppression tests, attackers, defenders, then saves.",
        _storm,
        params=(
            Param("units", "own", "the attackers", many=True),
            Param("against", "text", "the defenders, in the order they take hits: a,b,c", keyword=True),
            Param(
                "civilians",
                "text",
                "civilians or hostages inside (save 4+, 3+ against Special Forces)",
                optional=True,
                keyword=True,
            ),
            LEADER,
        ),
        rule="§11.1",
        examples=("storm rossi conti greco against=ahmed,bashir",),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.STORM_ATTACKERS,
            dice_order.STORM_DEFENDERS,
            dice_order.SAVES,
            dice_order.WOUND,  # a failed save under the wounded rule, as after fire (hits.casualty)
        ),
    ),
)
