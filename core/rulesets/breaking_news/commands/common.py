"""What the Breaking News commands share: the side a command is for, and what every
action command does first: a suppressed figure must pass its suppression test before
it acts (§10.0)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.rules import suppression
from core.rulesets.breaking_news.tables.combat import allowances
from core.rulesets.breaking_news.terms import Status
from core.rulesets.breaking_news.words import _

SideCheck = Callable[[Ruleset, GameState, str, str], None]


def own_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """A player names only his own side; the referee any (``CommandSpec.side_check``)."""
    if role in state.sides and side != role:
        raise Refused(_("you act for {role} only").format(role=state.side_name(role)), rule="ENG-1")


def side_for(ctx: Context, given: str | None, example: str | Callable[[str], str], check: SideCheck = own_side) -> str:
    """The side a command is for, as ``check`` (its ``side_check``) lets it: a player's
    own (he may not name another); the referee names it, as in ``example``, whose
    ``{side}`` is a side ``check`` lets through, the active one first (or
    ``example(side)``: the line for that side), so that the line shown works when typed."""
    if ctx.role in ctx.state.sides:
        own_side(ctx.ruleset, ctx.state, given or ctx.role, ctx.role)
        side = ctx.role
    elif not given:
        # The side whose activation it is first, among those the command takes if any.
        sides = sorted(ctx.state.sides, key=lambda s: s != ctx.state.active_side)
        able = [s for s in sides if ctx.ruleset.side_passes(check, ctx.state, s, ctx.role)]
        side = (able or sides)[0]
        line = example(side) if callable(example) else example.format(side=side)
        raise Refused(_("name the side: {example}").format(example=line), rule=TYPING)
    else:
        side = given
    check(ctx.ruleset, ctx.state, side, ctx.role)
    return side


LEADER = Param(
    "leader",
    "text",
    "an Officer/NCO within 5 cm, whose leadership helps a suppressed figure's test",
    optional=True,
    keyword=True,
)


def named_leader(ctx: Context, unit: Unit, word: str | None) -> Unit | None:
    """The Officer/NCO named with ``leader=``: checked as soon as he is named, whether
    or not a test follows."""
    if not word:
        return None
    named = hits.resolve_units(ctx, word, side=unit.side)
    if len(named) != 1:
        raise Refused(_("name one leader: leader=rossi"), rule="SUP-5")
    (leader,) = named
    hits.require_in_play(leader)
    if not leader.leadership:
        raise Refused(_("{leader} has no leadership to add").format(leader=leader.name), rule="SUP-5")
    return leader


def leader_bonus(unit: Unit, leader: Unit | None) -> int:
    """§10.0: the leadership of one Officer/NCO within 5 cm; not his own (AMB-48)."""
    if leader is None:
        return 0
    if leader.id == unit.id:
        raise Refused(
            _("{unit} cannot add his own leadership to his test (ruling BN-C-SUP-LEADER)").format(unit=unit.name),
            rule=("SUP-3", "SUP-4", "SUP-5"),
        )
    return leader.leadership


def suppression_test(ctx: Context, unit: Unit, leader: str | None, *, moving: bool = False) -> bool:
    """Roll the §10.0 test if he is suppressed.  True if he may act.  A figure that
    failed this turn stays in panic without another roll.  ``moving``: the action is a
    move, which a retreating man who fails may make (his fall back)."""
    helper = named_leader(ctx, unit, leader)
    if not unit.has(Status.SUPPRESSED):
        return True
    if unit.has(Status.FALLING_BACK):
        return moving or _fell_back(unit)
    if unit.has(Status.PANICKED):
        return False
    t = hits.troop(unit)
    if t is None:
        raise Refused(_("{unit} has no troop class to test with").format(unit=unit.name), rule=("SUP-3", "T-01"))
    mods = suppression.suppression_mods(leader_bonus(unit, helper))
    (face,) = ctx.roll(
        M("suppression test"),
        1,
        step=(dice_order.SUPPRESSION, dice_order.RALLY),  # rally: the test is the whole command
        # at or under the value, and a 6 always fails: the odds are those of 5 or less at most
        target=min(t.suppression + sum(m.value for m in mods), 5),
        under=True,
        mods=mods,
        rule="§10.0",
        unit=unit.id,
        outcome=lambda f: (
            M("passes") if suppression.suppression_passes(f[0], t.suppression, mods) else M("fails: in panic")
        ),
        check=suppression.suppression_check(t.suppression, mods),
    )
    if suppression.suppression_passes(face, t.suppression, mods):
        ctx.emit(ev.StatusChanged(unit=unit.id, remove=tuple(s for s in ("suppressed", "retreating") if unit.has(s))))
        return True
    if unit.has(Status.RETREATING):
        # §12.0: a man of a team that failed morale falls back instead of freezing.
        hits.badge(ctx, unit, "falling-back")
        ctx.emit(
            ev.Noted(
                text=M("{unit} falls back: at least 15 cm toward his table edge; he may fire (§12.0)", unit=unit.name)
            )
        )
        # §12.0 "will have to move at least 15cm": the fall back comes first, then any fire
        # (fire follows movement, §6.1); an order to do anything else waits for it.
        return moving
    hits.badge(ctx, unit, "panicked")
    ctx.emit(
        ev.Noted(
            text=M("{unit} stays suppressed: he may only crawl up to 10 cm to cover this turn (§10.0)", unit=unit.name)
        )
    )
    return False


def _fell_back(unit: Unit) -> bool:
    """§12.0: he has made his fall back of at least 15 cm this turn."""
    return unit.moved_cm >= allowances().retreat_cm


def require_ready(state: GameState, unit: Unit, command: str = "") -> None:
    """What refuses an active figure's action (``command``) before any die (§5.0, §8.0.3, §10.0)."""
    hits.require_active(state, unit, command)
    if unit.has(Status.RELOADING):
        raise Refused(_("{unit} is changing magazine this turn (§8.0.3)").format(unit=unit.name), rule="FIRE-12")
    if unit.has(Status.PANICKED):
        raise Refused(
            _("{unit} is in panic this turn: he may only move up to 10 cm to cover (§10.0)").format(unit=unit.name),
            rule="SUP-4",
        )


def ready_to_act(ctx: Context, unit: Unit, leader: str | None, *, moving: bool = False) -> bool:
    """The checks before an active figure's action (§5.0, §10.0).  False: he failed his
    suppression test (the roll is recorded; the action does not happen), or he is a
    retreating man who must fall back before anything but a move (§12.0)."""
    require_ready(ctx.state, unit)
    return suppression_test(ctx, unit, leader, moving=moving)


def check_group(group: Sequence[Unit]) -> None:
    """§6.4/§8.1: a group is figures of one fire team, within 5 cm of each other
    (the player's word: the table has no map)."""
    if len({u.team for u in group}) != 1 or not group[0].team:
        raise Refused(_("a group must be figures of one fire team (§6.4, §8.1)"), rule=("ACT-3", "FIRE-13"))
    if len({u.id for u in group}) != len(group):
        raise Refused(_("a figure is named twice in the group"), rule=TYPING)
