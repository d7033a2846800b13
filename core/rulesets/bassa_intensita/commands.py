"""Bassa Intensità commands: the initiative winner's choice, movement, direct fire,
actions and observation, each held to the golden rule (BI-R030)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from core import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.bassa_intensita import casualties, damage, he, rules, squads
from core.rulesets.bassa_intensita.phases import (
    MOVE_PHASES,
    TIER_PHASES,
    activity,
    tier_of_phase,
)
from core.rulesets.bassa_intensita.tables import (
    HitModifier,
    hit_modifiers,
    move_modes,
    move_modifiers,
    observation,
    special,
    tier_by_id,
    vehicle_types,
    vehicles,
    weapons,
)
from core.state import Unit
from core.views import unit_audience, unit_visible

# ------------------------------------------------------------------------ helpers

#: BI-R232: a man in tear gas hits at half.
GASSED = HitModifier("gassed", "shooter", "in tear gas", "", halves=True)
#: BI-R240: a stabilised vehicle firing after a short move.
STABILISED = HitModifier("stabilised", "shooter", "firing on the move (stabilised)", "", add=vehicles().stabilised_fire)


def quality(unit: Unit) -> int:
    """His chance of success (BI-R010), with the referee's motivation (BI-R011)."""
    value = squads.chance(unit)
    if value is None:
        raise Refused(f"{unit.name} has no Quality (elite, veteran, regular, recruit or rabble)")
    return value


def _badges(ctx: Context, unit: Unit, *add: str) -> None:
    ctx.emit(ev.StatusChanged(unit=unit.id, add=add))


def ready(ctx: Context, unit: Unit, doing: str) -> None:
    """The golden rule (BI-R030): one move, one fire or one action per unit per turn;
    and what wounds and shock forbid (BI-R110, BI-R182).  ``doing``: move, fire or act.
    A man struck in his own tier before he acted still acts as he was (BI-TIER-RESULTS)."""
    struck = unit.has("struck") or unit.has("struck-wounded")
    if not unit.in_play and not struck:
        raise Refused(f"{unit.name} is out of action ({unit.out})")
    if unit.has("seriously-wounded") and not struck:
        raise Refused(f"{unit.name} is seriously wounded: he can no longer move, fight or act (BI-R110)")
    if unit.has("shocked") and doing != "move" and not struck:
        raise Refused(f"{unit.name} is shocked: no fire or action until the end of next turn (BI-R110, BI-R182)")
    if any(b.startswith("aboard-") for b in unit.status) and doing == "move":
        raise Refused(f"{unit.name} is aboard a vehicle: dismount first (A.6)")
    done = activity(unit)
    if done == "moved-stabilised" and doing == "fire":
        return  # BI-R240: it may still fire, at -1
    if done == "balked":
        raise Refused(f"{unit.name} failed his isolation test and does nothing this turn (BI-R024)")
    if done:
        raise Refused(f"{unit.name} has already {done} this turn: one move, fire or action per turn (BI-R030)")


def _scout(unit: Unit) -> bool:
    """BI-R212: a scout counts as one only in an Elite or Veteran squad (ruling BI-SCOUT)."""
    return "scout" in unit.roles and unit.cls in special().scout.tiers


def light_of(state) -> str:
    """The light of the game: the scenario's ``scenario.night`` (day, moon or dark; day by default)."""
    value = state.vars.get("scenario.night", "day")
    return value if value in ("day", "moon", "dark") else "day"


def isolated(ctx: Context, unit: Unit, args: dict[str, Any]) -> bool:
    """BI-R024: isolated if the issuer says so, if he stands further from his leader
    (``lead=CM``) than the leader's command distance (BI-R021), or if his leader was
    killed and not yet replaced (BI-R028).  Snipers of Regular or better units and
    combat vehicles are free of command distance (BI-R023, BI-R025)."""
    if args.get("isolated"):
        return True
    if "sniper" in unit.roles and unit.cls in ("elite", "veteran", "regular"):
        return False
    if unit.kind != "man":
        vtype = damage.vehicle_type(unit)
        if vtype is None or vtype.combat or unit.has("combat-vehicle"):
            return False
    if squads.leader_lost(ctx.state, unit):
        ctx.emit(
            ev.Noted(
                text=f"{unit.name}'s leader is down and not replaced: he is isolated (BI-R028)", vis=unit_audience(unit)
            )
        )
        return True
    cm = args.get("lead")
    if cm is None:
        return False
    leader = squads.leader_of(ctx.state, unit)
    if leader is None:
        raise Refused(f"{unit.name} has no leader in play to measure from")
    reach = squads.command_range(leader, section="section-leader" in leader.roles)
    if reach is not None and _scout(unit):
        reach *= special().scout.command_times  # BI-R212
    if reach is None or cm > reach:
        why = "may not lead a section" if reach is None else f"commands to {reach} cm"
        ctx.emit(
            ev.Noted(
                text=f"{unit.name} is {cm} cm from {leader.name}, who {why}: isolated (BI-R021)",
                vis=unit_audience(unit),
            )
        )
        return True
    return False


def passes_isolation(ctx: Context, unit: Unit, isolated: bool) -> bool:
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
    """BI-R040..R042: move a man on foot up to his mode's allowance less its modifiers,
    or a vehicle up to its type's (BI-R045), in his side's movement."""
    s = ctx.state
    unit = ctx.unit(args["unit"])
    if unit.side != s.active_side:
        raise Refused(f"{unit.name} cannot move: it is {s.active_side}'s movement (A.5.1)")
    ready(ctx, unit, "move")
    if unit.has("shocked") and not args["away"]:
        raise Refused(f"{unit.name} is shocked: no move towards the enemy; say `away` if this move is not (BI-R182)")
    if unit.kind != "man":
        _move_vehicle(ctx, unit, args)
        return
    mode = move_modes()[args["mode"]]
    via = _via(args["via"])
    auto = [m for m, on in (("wounded", unit.has("wounded")), ("stand-up", unit.has("prone"))) if on]
    allowance = rules.foot_allowance(mode.cm, [*via, *auto])
    if unit.has("gassed"):
        allowance = -(-allowance // 2)  # BI-R232: half in tear gas
        auto.append("gassed")
    cm = args["cm"]
    whole = any(move_modifiers()[i].whole_turn for i in via)
    if whole and cm != 0:
        raise Refused("that takes his whole move: give 0 cm (BI-R042)")
    if not whole and not 0 < cm <= allowance:
        why = ", ".join(move_modifiers()[i].label if i in move_modifiers() else "in tear gas" for i in [*via, *auto])
        raise Refused(
            f"{mode.id} movement is 1 to {allowance} cm" + (f" ({why})" if why else "") + " (BI-R040, BI-R042)"
        )
    if mode.not_twice_running and unit.has("ran"):
        raise Refused(f"{unit.name} ran last turn and may not run this turn (BI-R041)")
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    how = mode.id + "".join(f", {move_modifiers()[i].label}" for i in via)
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=how))
    gone = ("prone",) if unit.has("prone") else ()
    ctx.emit(
        ev.StatusChanged(
            unit=unit.id, add=("moved", *((mode.id,) if mode.id in ("cautious", "running") else ())), remove=gone
        )
    )


def _via(text: str | None) -> list[str]:
    """The movement modifiers the referee names (``via=door,wounded``; BI-R042)."""
    if not text:
        return []
    ids = [w.strip() for w in text.split(",") if w.strip()]
    table = move_modifiers()
    for i in ids:
        if i not in table or table[i].auto:
            choices = ", ".join(k for k, m in table.items() if not m.auto)
            raise Refused(f"no movement modifier {i!r}: {choices}")
    return ids


def _move_vehicle(ctx: Context, unit: Unit, args: dict[str, Any]) -> None:
    """BI-R045/R046: a vehicle's allowance by type and ground, halved by mobility hits;
    a stabilised one that moves under half of it may still fire (BI-R240)."""
    vtype = damage.vehicle_type(unit)
    if vtype is None:
        raise Refused(f"{unit.name} has no vehicle type among its roles ({', '.join(vehicle_types())})")
    if vtype.id == "helicopter":
        from core.rulesets.bassa_intensita.cmd_air import helicopter_move  # a helicopter's own rules

        helicopter_move(ctx, unit, args["cm"])
        return
    halvings = 2 if unit.has("slowed-twice") else 1 if unit.has("slowed") else 0
    on_road = args["ground"] == "road"
    allowance = rules.vehicle_allowance(vtype.road, vtype.off_road, on_road, halvings, unit.has("immobilised"))
    if allowance == 0:
        raise Refused(f"{unit.name} is immobilised (A.12)")
    cm = args["cm"]
    if not 0 < cm <= allowance:
        raise Refused(f"a {vtype.name} moves 1 to {allowance} cm {args['ground']} (BI-R045)")
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=args["ground"]))
    steady = "stabilised" in unit.roles and 2 * cm < allowance
    _badges(ctx, unit, "moved-stabilised" if steady else "moved")


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
    table = dict(weapons())
    # BI-R230: rubber bullets hit as a carbine (their damage is milder: casualties.py)
    table["rubber"] = replace(table[special().nonlethal.rubber_as], id="rubber", name="Rubber bullets")
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
    """A.9.4/A.9.5: roll 1d10 under the hit chance for each shot; each hit goes on to
    its damage at once (A.12), an HE hit to its burst (A.10.3), an HE miss to its
    deviation (A.10.1).  Results take effect at once; a man of the tier now firing who
    has not acted yet still acts in it (ruling BI-TIER-RESULTS)."""
    shooter = ctx.unit(args["shooter"])
    targets = [ctx.unit(t) for t in args["targets"]]
    kind = _fire_kind(ctx, shooter)
    ready(ctx, shooter, "fire")
    weapon = _weapon(shooter, args["weapon"])
    if shooter.has(f"weapon-lost-{weapon.id}"):
        raise Refused(f"{shooter.name}'s {weapon.name} is destroyed (BI-R140)")
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
        night = rules.night_modifiers(args["night"] or light_of(ctx.state), args["intensifier"] or "", dist)
    except ValueError as e:
        raise Refused(str(e)) from None
    if not passes_isolation(ctx, shooter, isolated(ctx, shooter, args)):
        return
    if not _sniper_fires(ctx, shooter):
        return
    shots(ctx, shooter, weapon, targets, band=band, area=area, kind=kind, night=night, dist=dist, args=args)
    _badges(ctx, shooter, "fired", "shot-auto" if weapon.automatic else "shot-single")


def _sniper_fires(ctx: Context, shooter: Unit) -> bool:
    """BI-R210 (ruling BI-SNIPER-ROLL): a hidden sniper fires only on 1d6 of 1-2, 1-3 for a
    Veteran, 1-4 for an Elite; otherwise he holds his fire so as not to give himself away."""
    if "sniper" not in shooter.roles or not shooter.has("hidden"):
        return True
    t = special().sniper
    need = t.fires_on + {"veteran": t.veteran, "elite": t.elite}.get(shooter.cls, 0)
    (face,) = ctx.roll(
        f"{shooter.name} risks a shot?",
        1,
        target=need,
        under=True,
        rule="BI-R210",
        unit=shooter.id,
        outcome=lambda f: "he fires" if f[0] <= need else "he holds his fire",
    )
    if face <= need:
        return True
    _badges(ctx, shooter, "fired", "held-fire")
    return False


def shots(
    ctx: Context,
    shooter: Unit,
    weapon,
    targets: list[Unit],
    *,
    band: str,
    area: bool,
    kind: str,
    night: list[str],
    dist: int,
    args: dict[str, Any],
) -> None:
    """Each shot at each target (A.9.4, BI-R086/R087), and what each hit or HE miss does.
    Rolls about a hidden target are shown only to those who may see it."""
    base = quality(shooter)
    table = hit_modifiers()
    aimed = shooter.has("aimed") or "sniper" in shooter.roles
    hit_text = "hit: HE burst at the target (A.10)" if weapon.he else "hit: roll damage (A.12)"
    miss_text = "miss: the HE round deviates (A.10.1)" if weapon.he else "miss"
    tier = tier_by_id()[shooter.cls]
    wounded = shooter.has("struck-wounded") or (shooter.has("wounded") and not shooter.has("struck"))
    for t in targets:
        moved = next((m for m in ("cautious", "running") if t.has(m)), "")
        fired = next((b.removeprefix("shot-") for b in ("shot-single", "shot-auto") if t.has(b)), "")
        ids = rules.fire_modifier_ids(
            weapon,
            band,
            area=area,
            kind=kind,
            aimed=aimed,
            wounded=wounded,
            target_move=moved,
            prone=bool(args["prone"]) or (t.has("prone") and t.kind == "man"),
            cover=args["cover"] or "",
            night=night,
            target_fired=fired,
        )
        rows = [table[i] for i in ids]
        if shooter.has("moved-stabilised"):
            rows.append(STABILISED)
        if shooter.has("gassed"):
            rows.append(GASSED)
        chance, mods = rules.hit_chance(base, rows)
        quality_mods = [ev.Mod(f"{tier.name} Quality", tier.chance, "BI-R010")]
        if base != tier.chance:
            quality_mods.append(ev.Mod("motivation", base - tier.chance, "BI-R011"))
        mods = (*quality_mods, *mods)
        for shot in range(1 if area else weapon.shots):
            if not ctx.unit(t.id).in_play:
                ctx.emit(
                    ev.Noted(
                        text=f"{t.name} is down: {shot} of {weapon.shots} shots fired at him", vis=unit_audience(t)
                    )
                )
                break
            hit = _roll_under(
                ctx,
                f"{weapon.name} at {t.name} ({band} range)",
                shooter,
                chance,
                mods,
                "A.9.4",
                hit_text,
                miss_text,
                vis=unit_audience(t),
            )
            if hit:
                _on_hit(ctx, shooter, weapon, ctx.unit(t.id), args)
            elif weapon.he:
                _deviate(ctx, shooter, weapon, dist)


def _terrain(args: dict[str, Any]) -> str:
    """The target's terrain for an HE burst (A.10.3): dug in, in cover, or in the open."""
    if args.get("entrenched"):
        return "entrenched"
    return "cover" if args.get("cover") else "open"


def _on_hit(ctx: Context, shooter: Unit, weapon, target: Unit, args: dict[str, Any]) -> None:
    """What a hit does: damage to a man (A.12.1), an HE burst on him (BI-R093), or a
    hit on a vehicle (A.12.2-A.12.4)."""
    cause = f"{shooter.name}'s {weapon.name}"
    under_fire = weapon.automatic or weapon.he
    if target.kind != "man":
        pen = damage.penetration_row(weapon, shooter.stats.get("gun_mm", 0), "recoilless" in shooter.roles)
        casualties.vehicle_hit(
            ctx, target, weapon, cause, pen_row=pen, flank=bool(args["flank"]), under_fire=under_fire
        )
        return
    if weapon.he:
        area = he.area_of(weapon, shooter.stats.get("gun_mm", 0))
        casualties.he_burst(ctx, target, cause, zone="short", terrain=_terrain(args), big=area.big)
        ctx.emit(
            ev.Noted(text=f"the burst reaches {area.short} cm (short) and {area.long} cm (long): burst each man there")
        )
        return
    casualties.infantry_hit(
        ctx, target, cause, sniper="sniper" in shooter.roles, under_fire=under_fire, rubber=weapon.id == "rubber"
    )


def _deviate(ctx: Context, shooter: Unit, weapon, dist: int) -> None:
    """A.10.1: where a direct HE round that missed lands (1d10, ruling BI-HE-D10)."""

    def outcome(faces: tuple[int, ...]) -> str:
        way, pct = he.deviation(faces[0])
        if not way:
            return "a dud or an air burst: no effect"
        return f"lands {he.deviation_cm(pct, dist)} cm {way} of the target ({pct}% of {dist} cm)"

    (face,) = ctx.roll(
        f"where the {weapon.name} round lands", 1, sides=rules.D10, rule="A.10.1", unit=shooter.id, outcome=outcome
    )
    if he.deviation(face)[0]:
        area = he.area_of(weapon, shooter.stats.get("gun_mm", 0))
        ctx.emit(
            ev.Noted(text=f"it bursts there: burst each man within {area.short} cm (short) or {area.long} cm (long)")
        )


# ------------------------------------------------------------------------- actions


def _act(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R065/R066: any activity other than moving and firing, rolled by difficulty."""
    unit = ctx.unit(args["unit"])
    in_own_tier(ctx, unit)
    ready(ctx, unit, "act")
    difficulty = args["difficulty"]
    if unit.has("wounded"):
        difficulty = rules.shift_difficulty(difficulty, 1)  # BI-R110: one level harder
    chance = rules.action_chance(quality(unit), difficulty)
    if chance <= 0:
        why = " for a wounded man" if unit.has("wounded") else ""
        raise Refused(f"that action is impossible{why} (BI-R069, BI-R110)")
    what = args["what"] or "an action"
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    if chance >= rules.D10:
        ctx.emit(ev.Noted(text=f"{unit.name}: {what} (very easy, done; BI-R066)", vis=unit_audience(unit)))
    else:
        _roll_under(ctx, f"{what} ({difficulty})", unit, chance, (), "BI-R066", "done", "failed")
    _badges(ctx, unit, "acted")


def _aim(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R085 (ruling BI-AIM): Aim is a very easy action; next turn the man's fire is
    aimed (+1).  A wounded man finds it easy, not very easy: he rolls (BI-R110)."""
    unit = ctx.unit(args["unit"])
    in_own_tier(ctx, unit)
    ready(ctx, unit, "act")
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    if unit.has("wounded"):
        chance = rules.action_chance(quality(unit), "easy")
        if chance < rules.D10 and not _roll_under(
            ctx, "aim (easy, wounded)", unit, chance, (), "BI-R110", "aimed", "failed"
        ):
            _badges(ctx, unit, "acted")
            return
    _badges(ctx, unit, "acted", "aiming")


def in_own_tier(ctx: Context, unit: Unit) -> None:
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
    night = bool(args["night"]) or light_of(s) != "day"
    if "sniper" in target.roles and target.has("hidden"):
        # BI-R210: only enemy infantry, only in a turn he fires, as a difficult observation
        if column != "infantry":
            raise Refused("a hidden sniper is seen only by infantry (BI-R210)")
        if not target.has("fired") or target.has("held-fire"):
            raise Refused(f"{target.name} has not fired this turn: he cannot be seen (BI-R210)")
        difficulty = rules.observation_difficulty(special().sniper.seen_as, target_fired=False, night=night)
    else:
        moving = target.has("moved") or "helicopter" in target.roles  # BI-R258: always heard
        row = f"{'infantry' if target.kind == 'man' else 'vehicle'}-{'moving' if moving else 'still'}"
        row += "-cover" if args["cover"] else "-open"
        base = getattr(observation()[row], column)
        fired = any(target.has(b) for b in ("shot-single", "shot-auto"))
        difficulty = rules.observation_difficulty(base, target_fired=fired, night=night)
    if _scout(observer) and (not observer.has("moved") or observer.has("cautious")):
        difficulty = rules.shift_difficulty(difficulty, -special().scout.observe_steps)  # BI-R212
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
_LEAD = Param("lead", "int", "cm from his squad or section leader (BI-R021)", optional=True, keyword=True)


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
        "Move a man on foot: cautious 8, normal 16, running 24 cm (not two turns running), less the "
        "modifiers (wounded and standing up counted by the engine); or a vehicle by its type and ground. "
        "Dice: 1d10 isolation test if isolated.",
        _move,
        params=(
            Param("unit", "own"),
            Param("cm", "int", "distance in cm"),
            Param("mode", "choice", optional=True, default="normal", choices=tuple(move_modes()), keyword=True),
            Param("via", "text", "movement modifiers, e.g. door,low-obstacle (BI-R042)", optional=True, keyword=True),
            Param(
                "ground",
                "choice",
                "a vehicle's ground",
                optional=True,
                default="off-road",
                choices=("road", "off-road"),
                keyword=True,
            ),
            Param(
                "away",
                "choice",
                "not towards the enemy (a shocked man)",
                optional=True,
                default=False,
                choices=("away",),
                keyword=True,
            ),
            _ISOLATED,
            _LEAD,
        ),
        rule="BI-R040",
        examples=(
            "move marra 16",
            "move deiana 8 cautious",
            "move sanna 20 running isolated",
            "move omar 6 via=window",
            "move lince 80 road",
        ),
        phases=MOVE_PHASES,
        rolls=True,
    ),
    CommandSpec(
        "fire",
        "Direct fire: 1d10 under the shooter's Quality, modified, per shot (covering, opportunity or tier fire); "
        "each hit goes on to its damage. Dice: per shot the hit, then for a hit on a man the damage 1d10 (HE: "
        "1d10 to be caught by the burst first) and any death-clock 1d6, on a vehicle penetration 1d10 then damage "
        "1d10; for an HE miss 1d10 deviation.",
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
            Param(
                "cover",
                "choice",
                "the target's cover",
                optional=True,
                choices=("light", "heavy", "trench"),
                keyword=True,
            ),
            Param(
                "flank",
                "choice",
                "a vehicle hit on the flank or rear",
                optional=True,
                default=False,
                choices=("flank",),
                keyword=True,
            ),
            Param(
                "night",
                "choice",
                "the light (default: the scenario's)",
                optional=True,
                choices=("day", "moon", "dark"),
                keyword=True,
            ),
            Param(
                "intensifier",
                "choice",
                "image intensifier at night",
                optional=True,
                choices=("portable", "vehicle"),
                keyword=True,
            ),
            _ISOLATED,
            _LEAD,
        ),
        rule="A.9.4",
        examples=(
            "fire marra omar range=25",
            "fire sanna omar yusuf range=40 area",
            "fire ferrante omar range=80 heavy",
            "fire yusuf lince range=30 weapon=rpg flank",
        ),
        phases=("cover", *MOVE_PHASES, *TIER_PHASES),
        rolls=True,
    ),
    CommandSpec(
        "act",
        "An action other than moving or firing: very-easy (automatic), easy, normal or difficult (BI-R066); "
        "one level harder for a wounded man. Dice: 1d10 isolation test if isolated, then 1d10 under the chance.",
        _act,
        params=(
            Param("unit", "own"),
            Param("difficulty", "choice", choices=("very-easy", "easy", "normal", "difficult")),
            _ISOLATED,
            _LEAD,
            Param("what", "text", "what he does", optional=True),
        ),
        rule="BI-R066",
        examples=("act pinna normal dress the wound", "act sanna very-easy emplace the LMG"),
        phases=TIER_PHASES,
        rolls=True,
    ),
    CommandSpec(
        "aim",
        "Take aim (a very easy action): next turn his fire is aimed, +1 (BI-R085). Dice: none, or 1d10 "
        "isolation test if isolated; a wounded man rolls 1d10 (easy).",
        _aim,
        params=(Param("unit", "own"), _ISOLATED, _LEAD),
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
