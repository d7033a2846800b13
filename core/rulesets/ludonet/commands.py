"""Ludonet commands: movement with fatigue, simultaneous fire (to hit and damage),
melee and unit morale."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.ludonet import rules
from core.rulesets.ludonet.tables import fire, movement
from core.rulesets.ludonet.turn import MOVE_PHASES, TIRED, tired
from core.state import Unit
from core.views import unit_visible

#: A figure with this role carries a heavy weapon (LN-R010, LN-R036; ruling LN-HEAVY).
HEAVY = "heavy"
PENDING_WOUND = ("hit-wound",)
#: Commandos, paratroopers, rangers and the like (LN-R031, LN-R051).
EXPERT = "expert"


def _in_play(unit: Unit) -> None:
    if not unit.in_play:
        raise Refused(f"{unit.name} is out of action")


# ------------------------------------------------------------------------ movement


def _move(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R010/R012: walk 10, run 14, crawl 3 cm; 5 cm with a heavy weapon; a run
    rolls 1d6 for fatigue."""
    s = ctx.state
    unit = ctx.unit(args["unit"])
    _in_play(unit)
    if unit.side != s.active_side:
        raise Refused(f"{unit.name} cannot move: it is {s.active_side}'s move (B.2)")
    if unit.kind != "man":
        raise Refused("vehicle movement is not in the rules' fragment (LN-R011): move it on the table and note it")
    if unit.has("moved"):
        raise Refused(f"{unit.name} has already moved this turn")
    table = movement()
    mode = table.mode(args["mode"])
    limit = table.heavy if HEAVY in unit.roles and mode.id != "crawl" else mode.cm
    if mode.id == "run" and HEAVY in unit.roles:
        raise Refused(f"{unit.name} carries a heavy weapon and cannot run (ruling LN-HEAVY)")
    if mode.id == "run" and tired(unit):
        raise Refused(f"{unit.name} is tired and cannot run for {tired(unit)} more turn(s) (LN-R012)")
    cm = args["cm"]
    if not 0 < cm <= limit:
        raise Refused(
            f"{unit.name} moves 1 to {limit} cm {mode.id}ning"
            if mode.id == "run"
            else f"{unit.name} moves 1 to {limit} cm ({mode.id})"
        )
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=mode.id))
    # A crawling figure is lying down; one that walks or runs stands up (ruling LN-PRONE).
    badges = {"walk": ("moved",), "run": ("moved", "ran"), "crawl": ("moved", "prone")}[mode.id]
    stands = mode.id != "crawl" and unit.has("prone")
    ctx.emit(ev.StatusChanged(unit=unit.id, add=badges, remove=("prone",) if stands else ()))
    if mode.id == "run":
        (face,) = ctx.roll(
            "fatigue",
            1,
            target=table.tired_on,
            rule="LN-R012",
            unit=unit.id,
            outcome=lambda f: f"tired: no running for {table.tired_turns} turns" if f[0] >= table.tired_on else "fresh",
        )
        if face >= table.tired_on:
            ctx.emit(ev.StatusChanged(unit=unit.id, add=(TIRED[-1],)))


# ---------------------------------------------------------------------------- fire


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R030/R031 to hit, then LN-R035/R036 damage; the result waits on the target
    until the fire phase ends (LN-R021)."""
    shooter, target = ctx.unit(args["shooter"]), ctx.unit(args["target"])
    _in_play(shooter)
    _in_play(target)
    if shooter.side == target.side:
        raise Refused(f"{target.name} is on {shooter.name}'s side")
    if not unit_visible(target, shooter.side):
        raise Refused(f"{target.name} is not on the table for {shooter.side}: no line of sight (LN-R001, LN-R020)")
    if target.kind != "man":
        raise Refused("fire at vehicles uses the combat values' opposed roll (LN-R041), not encoded yet: use roll")
    if shooter.has("fired"):
        raise Refused(f"{shooter.name} has already fired this turn (ruling LN-ONE-SHOT)")
    conditions = [c for c in ("prone", "cover") if args[c]]
    if target.has("prone") and "prone" not in conditions:
        conditions.append("prone")
    if shooter.has("moved"):
        conditions.append("moved")
    if shooter.has("wounded"):
        conditions.append("wounded")
    if EXPERT in shooter.roles:
        conditions.append("expert")
    mods = rules.to_hit_mods(conditions)
    half = args["band"] == "half"
    needed = rules.to_hit_needed(half, mods)
    (face,) = ctx.roll(
        f"to hit {target.name} ({'within half range' if half else 'beyond half range'})",
        1,
        target=needed,
        mods=mods,
        rule="LN-R030",
        unit=shooter.id,
        outcome=lambda f: "hit" if rules.hits(f[0], needed) else "miss",
    )
    ctx.emit(ev.StatusChanged(unit=shooter.id, add=("fired",)))
    if not rules.hits(face, needed):
        return
    heavy = HEAVY in shooter.roles
    (hurt,) = ctx.roll(
        "damage",
        1,
        mods=(ev.Mod("heavy weapon", fire().heavy_damage, "LN-R036"),) if heavy else (),
        total=True,
        rule="LN-R035",
        unit=target.id,
        outcome=lambda f: rules.damage(f[0], heavy),
    )
    result = rules.damage(hurt, heavy)
    if result == "eliminated" or (result == "wound" and target.has("hit-wound")):
        if not target.has("hit-kill"):
            ctx.emit(
                ev.StatusChanged(
                    unit=target.id, add=("hit-kill",), remove=PENDING_WOUND if target.has("hit-wound") else ()
                )
            )
    elif result == "wound" and not target.has("hit-kill"):
        ctx.emit(ev.StatusChanged(unit=target.id, add=("hit-wound",)))


# --------------------------------------------------------------------------- melee


def _melee(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R050/R051: 1d6 each plus modifiers; the higher eliminates the other; a tie
    fights on in the next melee phase (ruling LN-MELEE-TIE)."""
    a, b = ctx.unit(args["attacker"]), ctx.unit(args["defender"])
    _in_play(a)
    _in_play(b)
    if a.side == b.side:
        raise Refused(f"{b.name} is on {a.name}'s side")
    totals = []
    for unit, extra in ((a, ("behind",) if args["behind"] else ()), (b, ())):
        conditions = [
            *extra,
            *(
                c
                for c, flag in (
                    (EXPERT, EXPERT in unit.roles),
                    ("wounded", unit.has("wounded")),
                    ("prone", unit.has("prone")),
                )
                if flag
            ),
        ]
        mods = rules.melee_mods(conditions)
        (face,) = ctx.roll(
            f"melee {unit.name}",
            1,
            mods=mods,
            total=True,
            rule="LN-R050",
            unit=unit.id,
            outcome=lambda f, mods=mods: f"total {f[0] + sum(m.value for m in mods)}",
        )
        totals.append(face + sum(m.value for m in mods))
    winner = rules.melee_winner(*totals)
    if winner == "tie":
        ctx.emit(ev.Noted(text=f"{a.name} and {b.name} fight on (LN-R050)"))
        return
    loser = b if winner == "a" else a
    ctx.emit(ev.UnitOut(unit=loser.id, cause="eliminated in melee"))


# -------------------------------------------------------------------------- morale


def _morale(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R070: a unit at half its starting strength or less rolls 1d6; 1-2 and it falls back."""
    s = ctx.state
    team = args["team"]
    members = [u for u in s.units.values() if u.team.lower() == team.lower()]
    if not members:
        teams = sorted({u.team for u in s.units.values() if u.team})
        raise Refused(f"no unit {team!r} (units: {', '.join(teams)})")
    lost = sum(1 for u in members if not u.in_play)
    if not rules.morale_due(len(members), lost):
        raise Refused(f"{members[0].team} has lost {lost} of {len(members)}: no test below half (LN-R070)")
    (face,) = ctx.roll(
        f"morale of {members[0].team}",
        1,
        rule="LN-R070",
        outcome=lambda f: "shaken: falls back" if rules.shaken(f[0]) else "holds",
    )
    if rules.shaken(face):
        for u in members:
            if u.in_play and not u.has("retreating"):
                ctx.emit(ev.StatusChanged(unit=u.id, add=("retreating",)))


def _flag(name: str, help: str) -> Param:
    return Param(name, "choice", help, optional=True, default=False, choices=(name,), keyword=True)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "move",
        "Move a figure: walk 10, run 14 (fatigue roll), crawl 3 cm; 5 cm with a heavy weapon.",
        _move,
        params=(
            Param("unit", "own"),
            Param("cm", "int", "distance in cm"),
            Param(
                "mode",
                "choice",
                optional=True,
                default="walk",
                choices=tuple(m.id for m in movement().modes),
                keyword=True,
            ),
        ),
        rule="LN-R010",
        examples=("move smith 10", "move jones 14 run", "move brown 3 crawl"),
        phases=MOVE_PHASES,
        rolls=True,
    ),
    CommandSpec(
        "fire",
        "Fire at a figure in sight: 1d6, 5+ (4+ within half range), modified; a hit rolls damage.",
        _fire,
        params=(
            Param("shooter", "own"),
            Param("target", "enemy"),
            Param("band", "choice", "within half the weapon's range, or beyond", choices=("half", "full")),
            _flag("prone", "the target lies down (a crawler always does): -1"),
            _flag("cover", "the target is in cover: -1"),
        ),
        rule="LN-R030",
        examples=("fire smith hans half", "fire bren fritz full cover"),
        phases=("fire",),
        rolls=True,
    ),
    CommandSpec(
        "melee",
        "Two figures in contact fight: 1d6 each, modified; the higher eliminates the other.",
        _melee,
        params=(Param("attacker", "own"), Param("defender", "enemy"), _flag("behind", "attacks from behind: +2")),
        rule="LN-R050",
        examples=("melee smith hans", "melee jones fritz behind"),
        phases=("melee",),
        rolls=True,
    ),
    CommandSpec(
        "morale",
        "A unit at half strength or less tests morale: 1d6, 1-2 it falls back.",
        _morale,
        params=(Param("team", "text", "the unit (its team name)"),),
        rule="LN-R070",
        examples=("morale Section 1",),
        phases=("morale",),
        rolls=True,
    ),
)
