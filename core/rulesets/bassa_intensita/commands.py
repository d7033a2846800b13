"""Bassa Intensità commands: the initiative winner's choice, movement, direct fire,
actions and observation, each held to the golden rule (BI-R030)."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.bassa_intensita import rules
from core.rulesets.bassa_intensita.tables import hit_modifiers, move_modes, observation, tier_by_id, weapons
from core.rulesets.bassa_intensita.turn import (
    MOVE_PHASES,
    TIER_PHASES,
    activity,
    tier_of_phase,
)
from core.state import Unit
from core.views import unit_audience, unit_visible

# ------------------------------------------------------------------------ helpers


def quality(unit: Unit) -> int:
    tier = tier_by_id().get(unit.cls)
    if tier is None:
        raise Refused(f"{unit.name} has no Quality (elite, veteran, regular, recruit or rabble)")
    return tier.chance


def _badges(ctx: Context, unit: Unit, *add: str) -> None:
    ctx.emit(ev.StatusChanged(unit=unit.id, add=add))


def _ready(ctx: Context, unit: Unit) -> None:
    """The golden rule (BI-R030): one move, one fire or one action per unit per turn."""
    if not unit.in_play:
        raise Refused(f"{unit.name} is out of action")
    done = activity(unit)
    if done == "balked":
        raise Refused(f"{unit.name} failed his isolation test and does nothing this turn (BI-R024)")
    if done:
        raise Refused(f"{unit.name} has already {done} this turn: one move, fire or action per turn (BI-R030)")


def _passes_isolation(ctx: Context, unit: Unit, isolated: bool) -> bool:
    """BI-R024: a man beyond command distance rolls 1d10 under his Quality before he
    moves, fires or acts; failing, he does nothing this turn (ruling BI-ISOLATED)."""
    if not isolated:
        return True
    chance = quality(unit)
    (face,) = ctx.roll(
        "isolation test",
        1,
        sides=rules.D10,
        target=chance,
        under=True,
        rule="BI-R024",
        unit=unit.id,
        outcome=lambda f: "passed" if rules.succeeds(f[0], chance) else "failed: does nothing this turn",
    )
    if rules.succeeds(face, chance):
        return True
    _badges(ctx, unit, "balked")
    return False


def _roll_under(
    ctx: Context,
    purpose: str,
    unit: Unit,
    chance: int,
    mods: tuple[ev.Mod, ...],
    rule: str,
    yes: str,
    no: str,
    vis: tuple[str, ...] = (),
) -> bool:
    (face,) = ctx.roll(
        purpose,
        1,
        sides=rules.D10,
        target=chance,
        under=True,
        mods=mods,
        rule=rule,
        unit=unit.id,
        vis=vis,
        outcome=lambda f: yes if rules.succeeds(f[0], chance) else no,
    )
    return rules.succeeds(face, chance)


# ------------------------------------------------------------------ initiative order


def _order(ctx: Context, args: dict[str, Any]) -> None:
    """A.5.1: the initiative winner chooses to move first or second."""
    s = ctx.state
    winner = s.active_side
    first = winner if args["choice"] == "first" else s.other_side(winner)
    if s.vars.get("first_mover") == first:
        raise Refused(f"{first} already moves first")
    ctx.emit(ev.VarSet(key="first_mover", value=first))


# ----------------------------------------------------------------------- movement


def _move(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R040/R041: move a man on foot up to his mode's allowance, in his side's movement."""
    s = ctx.state
    unit = ctx.unit(args["unit"])
    if unit.side != s.active_side:
        raise Refused(f"{unit.name} cannot move: it is {s.active_side}'s movement (A.5.1)")
    if unit.kind != "man":
        raise Refused("vehicle movement is not encoded yet: move it on the table and note it")
    _ready(ctx, unit)
    mode = move_modes()[args["mode"]]
    cm = args["cm"]
    if not 0 < cm <= mode.cm:
        raise Refused(f"{mode.id} movement is 1 to {mode.cm} cm (BI-R040)")
    if mode.not_twice_running and unit.has("ran"):
        raise Refused(f"{unit.name} ran last turn and may not run this turn (BI-R041)")
    if not _passes_isolation(ctx, unit, bool(args["isolated"])):
        return
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=mode.id))
    _badges(ctx, unit, "moved", *((mode.id,) if mode.id in ("cautious", "running") else ()))


# ---------------------------------------------------------------------------- fire


def _fire_kind(ctx: Context, shooter: Unit) -> str:
    """Which fire this is, from the phase (A.5.1, A.7): covering fire is declared
    before movement; opportunity fire is the non-moving side's, at moving enemies;
    in the fire phase each Quality tier fires in turn (BI-R061)."""
    s = ctx.state
    if s.phase == "cover":
        return "covering"
    if s.phase in MOVE_PHASES:
        if shooter.side != s.reacting_side:
            raise Refused(f"{shooter.name} cannot fire in his own side's movement (BI-R050)")
        return "opportunity"
    tier = tier_of_phase(s.phase)
    if shooter.cls != tier:
        name = tier_by_id()[shooter.cls].name if shooter.cls in tier_by_id() else "no"
        raise Refused(f"{shooter.name} has {name} Quality and acts in his own tier, not now ({s.phase}; BI-R061)")
    return "normal"


def _weapon(shooter: Unit, wanted: str | None):
    table = weapons()
    carried = [w for w in shooter.weapons if w in table]
    if not carried:
        raise Refused(f"{shooter.name} carries no weapon of the direct-fire table")
    if wanted is None:
        return table[carried[0]]
    hits = [w for w in carried if w.startswith(wanted.lower())]
    if len(hits) != 1:
        raise Refused(f"{shooter.name} carries {', '.join(carried)}")
    return table[hits[0]]


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    """A.9.4/A.9.5: roll 1d10 under the hit chance for each shot; hits and misses are
    logged for the referee to resolve damage (A.12) or HE bursts (A.10)."""
    shooter = ctx.unit(args["shooter"])
    targets = [ctx.unit(t) for t in args["targets"]]
    kind = _fire_kind(ctx, shooter)
    _ready(ctx, shooter)
    base = quality(shooter)
    weapon = _weapon(shooter, args["weapon"])
    area = args["mode"] == "area"
    if area and not weapon.area:
        raise Refused(f"the {weapon.name} cannot fire at an area (BI-R072)")
    if not area and len(targets) != 1:
        raise Refused("name one target, or fire at an area: area (BI-R071/R072)")
    for t in targets:
        if t.side == shooter.side or not t.in_play:
            raise Refused(f"{t.name} is not an enemy in play")
        if not unit_visible(t, shooter.side):
            raise Refused(f"{t.name} has not been observed by {shooter.side} (BI-R161)")
    dist = args["range"]
    band = rules.range_band(weapon, dist, area)
    if band is None:
        raise Refused(f"{dist} cm is out of range of the {weapon.name} (BI-R075)")
    try:
        night = rules.night_modifiers(args["night"] or "day", args["intensifier"] or "", dist)
    except ValueError as e:
        raise Refused(str(e)) from None
    if not _passes_isolation(ctx, shooter, bool(args["isolated"])):
        return
    table = hit_modifiers()
    aimed = shooter.has("aimed") or "sniper" in shooter.roles
    hit_text = "hit: HE burst at the target (A.10)" if weapon.he else "hit: roll damage (A.12)"
    miss_text = "miss: the HE round deviates (A.10.1)" if weapon.he else "miss"
    for t in targets:
        moved = next((m for m in ("cautious", "running") if t.has(m)), "")
        fired = next((b.removeprefix("shot-") for b in ("shot-single", "shot-auto") if t.has(b)), "")
        ids = rules.fire_modifier_ids(
            weapon,
            band,
            area=area,
            kind=kind,
            aimed=aimed,
            wounded=shooter.has("wounded"),
            target_move=moved,
            prone=bool(args["prone"]),
            cover=args["cover"] or "",
            night=night,
            target_fired=fired,
        )
        chance, mods = rules.hit_chance(base, [table[i] for i in ids])
        mods = (ev.Mod(f"{tier_by_id()[shooter.cls].name} Quality", base, "BI-R010"), *mods)
        for _ in range(1 if area else weapon.shots):
            _roll_under(
                ctx, f"{weapon.name} at {t.name} ({band} range)", shooter, chance, mods, "A.9.4", hit_text, miss_text
            )
    _badges(ctx, shooter, "fired", "shot-auto" if weapon.automatic else "shot-single")


# ------------------------------------------------------------------------- actions


def _act(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R065/R066: any activity other than moving and firing, rolled by difficulty."""
    unit = ctx.unit(args["unit"])
    _in_own_tier(ctx, unit)
    _ready(ctx, unit)
    difficulty = args["difficulty"]
    chance = rules.action_chance(quality(unit), difficulty)
    if chance <= 0:
        raise Refused("that action is impossible (BI-R069)")
    what = args["what"] or "an action"
    if not _passes_isolation(ctx, unit, bool(args["isolated"])):
        return
    if chance >= rules.D10:
        ctx.emit(ev.Noted(text=f"{unit.name}: {what} (very easy, done; BI-R066)"))
    else:
        _roll_under(ctx, f"{what} ({difficulty})", unit, chance, (), "BI-R066", "done", "failed")
    _badges(ctx, unit, "acted")


def _aim(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R085 (ruling BI-AIM): Aim is a very easy action; next turn the man's fire is aimed (+1)."""
    unit = ctx.unit(args["unit"])
    _in_own_tier(ctx, unit)
    _ready(ctx, unit)
    if not _passes_isolation(ctx, unit, bool(args["isolated"])):
        return
    _badges(ctx, unit, "acted", "aiming")


def _in_own_tier(ctx: Context, unit: Unit) -> None:
    tier = tier_of_phase(ctx.state.phase)
    if unit.cls != tier:
        raise Refused(f"{unit.name} acts in his own Quality tier, not in {ctx.state.phase} (BI-R061)")


# --------------------------------------------------------------------- observation


def _observer_column(observer: Unit) -> str:
    """BI-R165/R167: infantry, an "open" vehicle (hatch open, commander out) or a closed one."""
    if observer.kind == "man":
        return "infantry"
    return "open_vehicle" if "open" in observer.roles else "closed_vehicle"


def _observe(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R160..R165: the referee rolls an observation attempt as an action of the
    matrix's difficulty.  It is not an action: it costs the observer nothing (BI-R166)."""
    s = ctx.state
    observer = ctx.unit(args["observer"])
    target = ctx.unit(args["target"])
    if observer.side == target.side or not observer.in_play or not target.in_play:
        raise Refused("an observer in play looks for an enemy in play")
    if unit_visible(target, observer.side):
        raise Refused(f"{target.name} is already seen by {observer.side} (BI-R163)")
    if s.phase in MOVE_PHASES and (target.side != s.active_side or not target.has("moved")):
        raise Refused("during movement only moving enemies may be observed (BI-R162)")
    column = _observer_column(observer)
    row = f"{'infantry' if target.kind == 'man' else 'vehicle'}-{'moving' if target.has('moved') else 'still'}"
    row += "-cover" if args["cover"] else "-open"
    base = getattr(observation()[row], column)
    fired = any(target.has(b) for b in ("shot-single", "shot-auto"))
    difficulty = rules.observation_difficulty(base, target_fired=fired, night=bool(args["night"]))
    chance = rules.action_chance(quality(observer), difficulty)
    if chance <= 0:
        raise Refused(f"{observer.name} cannot observe {target.name} there ({row}, {column}: NO; BI-R165)")
    # Until it is seen, only the target's own side may learn that the attempt concerned it.
    secret = unit_audience(target)
    if chance >= rules.D10 or _roll_under(
        ctx, f"observation ({difficulty})", observer, chance, (), "BI-R165", "spotted", "nothing seen", vis=secret
    ):
        ctx.emit(ev.Spotted(unit=target.id, by_side=observer.side))


# ------------------------------------------------------------------------- the list

_ISOLATED = Param(
    "isolated",
    "choice",
    "beyond command distance: roll first (BI-R024)",
    optional=True,
    default=False,
    choices=("isolated",),
    keyword=True,
)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "order",
        "The initiative winner chooses to move first or second (he moves first unless he says otherwise).",
        _order,
        params=(Param("choice", "choice", choices=("first", "second")),),
        rule="A.5.1",
        examples=("order second",),
        phases=("cover",),
    ),
    CommandSpec(
        "move",
        "Move a man on foot: cautious 8, normal 16, running 24 cm (not two turns running).",
        _move,
        params=(
            Param("unit", "own"),
            Param("cm", "int", "distance in cm"),
            Param("mode", "choice", optional=True, default="normal", choices=tuple(move_modes()), keyword=True),
            _ISOLATED,
        ),
        rule="BI-R040",
        examples=("move marra 16", "move deiana 8 cautious", "move sanna 20 running isolated"),
        phases=MOVE_PHASES,
        rolls=True,
    ),
    CommandSpec(
        "fire",
        "Direct fire: 1d10 under the shooter's Quality, modified, per shot (covering, opportunity or tier fire).",
        _fire,
        params=(
            Param("shooter", "own"),
            Param("targets", "enemy", "one target, or every figure in the area", many=True),
            Param("range", "int", "distance in cm", keyword=True),
            Param("weapon", "text", "which of his weapons (default: the first)", optional=True, keyword=True),
            Param("mode", "choice", optional=True, default="single", choices=("single", "area"), keyword=True),
            Param(
                "prone",
                "choice",
                "the target lies down",
                optional=True,
                default=False,
                choices=("prone",),
                keyword=True,
            ),
            Param("cover", "choice", "the target's cover", optional=True, choices=("light", "heavy"), keyword=True),
            Param("night", "choice", optional=True, choices=("moon", "dark"), keyword=True),
            Param(
                "intensifier",
                "choice",
                "image intensifier at night",
                optional=True,
                choices=("portable", "vehicle"),
                keyword=True,
            ),
            _ISOLATED,
        ),
        rule="A.9.4",
        examples=(
            "fire marra omar range=25",
            "fire sanna omar yusuf range=40 area",
            "fire ferrante omar range=80 heavy",
        ),
        phases=("cover", *MOVE_PHASES, *TIER_PHASES),
        rolls=True,
    ),
    CommandSpec(
        "act",
        "An action other than moving or firing: very-easy (automatic), easy, normal or difficult (BI-R066).",
        _act,
        params=(
            Param("unit", "own"),
            Param("difficulty", "choice", choices=("very-easy", "easy", "normal", "difficult")),
            _ISOLATED,
            Param("what", "text", "what he does", optional=True),
        ),
        rule="BI-R066",
        examples=("act pinna normal dress the wound", "act sanna very-easy emplace the LMG"),
        phases=TIER_PHASES,
        rolls=True,
    ),
    CommandSpec(
        "aim",
        "Take aim (a very easy action): next turn his fire is aimed, +1 (BI-R085).",
        _aim,
        params=(Param("unit", "own"), _ISOLATED),
        rule="BI-R085",
        examples=("aim marra",),
        phases=TIER_PHASES,
        rolls=True,
    ),
    CommandSpec(
        "observe",
        "Roll an observation attempt at a hidden enemy (the referee, who knows where it is).",
        _observe,
        params=(
            Param("observer", "unit"),
            Param("target", "unit"),
            Param(
                "cover",
                "choice",
                "the target is in cover",
                optional=True,
                default=False,
                choices=("cover",),
                keyword=True,
            ),
            Param(
                "night",
                "choice",
                "it is night (one step harder)",
                optional=True,
                default=False,
                choices=("night",),
                keyword=True,
            ),
        ),
        rule="BI-R165",
        examples=("observe marra said cover",),
        phases=(*MOVE_PHASES, "observe", "end"),
        who="referee",
        rolls=True,
    ),
)
