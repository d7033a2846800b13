"""Army building ("Calculating points", digest T-17, T-18): rosters, their cost,
and their validation against a points limit.

A roster is a TOML file (docs/rosters.md): the force's army and figures, and the
EXTRAS it buys.  :func:`validate_roster` lists everything wrong with it, each
message saying what is over and by how much; :func:`cost_lines` itemises the
bill.  The ``roster FILE SIDE`` command puts a valid roster on a side of a game
set up with the ``open`` scenario; a scenario file may also carry the same
``[extras.SIDE]`` tables for its own figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from core import events as ev
from core.commands import match_prefix
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news.ledger import regular_vs_irregular, set_var, var
from core.rulesets.breaking_news.tables import IT, army_points, extras, leadership, negotiation, troop_classes

KINDS = ("man", "vehicle", "journalist", "civilian")
FORCES = ("", "special-forces", "msu", "secret-services")
ROSTERS = Path(__file__).parent / "scenarios" / "rosters"
#: Extras whose purchase the opponent does not learn (kept as the owner's secrets).
SECRET_EXTRAS = ("ied", "ied_remote")


class RosterUnit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    team: str = ""
    kind: str = "man"
    cls: str = ""
    #: The class the army list gives, when the roster raises or lowers it.
    list_cls: str = ""
    weapons: tuple[str, ...] = ()
    leadership: int = 0
    roles: tuple[str, ...] = ()
    status: tuple[str, ...] = ()


class RosterExtras(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The EXTRAS bought (extras.toml ids).  Journalists and civilians are figures."""

    infiltrators: bool = False
    ambush: int = 0
    helicopter: bool = False
    improved_support_fire: bool = False
    mortars: bool = False
    motivation: int = 0
    motivation_platoon: bool = False
    rules_of_engagement: bool = False
    intelligence: int = 0
    ied: int = 0
    ied_remote: int = 0
    negotiation: int = 1


class Roster(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    army: str
    force: str = ""
    platoon: bool = False
    limit: int = 0
    units: tuple[RosterUnit, ...] = ()
    extras: RosterExtras = RosterExtras()


def load_roster(path: Path) -> Roster:
    try:
        return msgspec.toml.decode(path.read_bytes(), type=Roster)
    except OSError as e:
        raise Refused(f"cannot read {path}: {e.strerror}") from None
    except msgspec.DecodeError as e:
        raise Refused(f"{path}: {e}") from None


def find_roster(name: str) -> Path:
    """A path, or the name of a roster shipped with the ruleset."""
    for candidate in (Path(name), ROSTERS / name, ROSTERS / f"{name}.toml"):
        if candidate.is_file():
            return candidate
    raise Refused(f"no roster file {name!r}")


# ------------------------------------------------------------------------ costs


def _class_rank(cls: str) -> tuple[str, int]:
    army, number = ("irregular", cls[3:]) if cls.startswith("Irr") else ("regular", cls[1:])
    return army, int(number)


def unit_cost(u: RosterUnit, variant: str = "") -> list[tuple[str, int]]:
    """The figure's bill: class (or medic), leadership, weapons; vehicles by type;
    journalists and civilians at their EXTRAS price."""
    pts = army_points()
    table = extras(variant)
    if u.kind == "journalist":
        kind = "independent_journalist" if "independent" in u.roles else "embedded_journalist"
        return [(f"{u.name}: {table[kind].name}", table[kind].cost)]
    if u.kind == "civilian":
        return [(f"{u.name}: civilian", table["civilians"].cost)]
    if u.kind == "vehicle":
        v = pts.vehicle(u.cls)
        if v is None:
            return []
        bill = [(f"{u.name}: {u.cls} vehicle", v.base)]
        if v.plus_weapons:
            bill += [(f"{u.name}: {w}", pts.weapon_cost(w) or 0) for w in u.weapons]
        return bill
    tc = troop_classes().get(u.cls)
    if "medic" in u.roles:
        bill = [(f"{u.name}: medic", pts.medic)]
    else:
        bill = [(f"{u.name}: {tc.name if tc else u.cls}", tc.points if tc else 0)]
    if u.leadership in leadership():
        bill.append((f"{u.name}: leadership {u.leadership}", leadership()[u.leadership].cost))
    bill += [(f"{u.name}: {w}", c) for w in u.weapons if (c := pts.weapon_cost(w))]
    return bill


def extras_cost(r: Roster, variant: str = "") -> list[tuple[str, int]]:
    table = extras(variant)
    x = r.extras
    bill: list[tuple[str, int]] = []
    for key in ("infiltrators", "helicopter", "improved_support_fire", "mortars", "rules_of_engagement"):
        if getattr(x, key):
            bill.append((table[key].name, table[key].cost))
    for key in ("ambush", "ied", "ied_remote", "intelligence"):
        n = getattr(x, key)
        if n:
            bill.append((f"{table[key].name} ×{n}", table[key].cost * n))
    if x.motivation_platoon:
        bill.append((f"{table['motivation'].name} (platoon)", table["motivation"].platoon_cost))
    elif x.motivation:
        bill.append((f"{table['motivation'].name} ×{x.motivation}", table["motivation"].cost * x.motivation))
    level = negotiation(variant).get(x.negotiation)
    if level is not None and level.cost:
        bill.append((f"Negotiation {x.negotiation}", level.cost))
    return bill


def cost_lines(r: Roster, variant: str = "") -> list[tuple[str, int]]:
    return [line for u in r.units for line in unit_cost(u, variant)] + extras_cost(r, variant)


def total_cost(r: Roster, variant: str = "") -> int:
    return sum(c for _, c in cost_lines(r, variant))


# ------------------------------------------------------------------- validation


def squads(r: Roster) -> int:
    """How many squads the roster fields: one, or a platoon's squads and sections."""
    return len({u.team for u in r.units if u.kind == "man"}) if r.platoon else 1


def validate_roster(roster: Roster, limit: int, variant: str = "") -> list[str]:
    """Everything that makes the roster illegal, in words ([] when it is legal)."""
    errors: list[str] = []
    errors += _check_units(roster, variant)
    errors += _check_extras(roster, variant)
    total = total_cost(roster, variant)
    if limit and total > limit:
        errors.append(f"{total} points is {total - limit} over the limit of {limit}")
    return errors


def _check_units(r: Roster, variant: str) -> list[str]:
    errors = []
    classes, pts = troop_classes(), army_points()
    if r.army not in ("regular", "irregular"):
        errors.append(f"army must be regular or irregular, not {r.army!r}")
    if r.force not in FORCES:
        errors.append(f"force must be one of {', '.join(f for f in FORCES if f)}, not {r.force!r}")
    seen: set[str] = set()
    for u in r.units:
        if u.id in seen:
            errors.append(f"{u.id}: the id is used twice")
        seen.add(u.id)
        if u.kind not in KINDS:
            errors.append(f"{u.id}: kind must be one of {', '.join(KINDS)}, not {u.kind!r}")
            continue
        if u.kind == "man":
            tc = classes.get(u.cls)
            if tc is None:
                errors.append(f"{u.id}: no troop class {u.cls!r} (§3.0: {', '.join(classes)})")
            elif tc.side != r.army:
                errors.append(f"{u.id}: {u.cls} is not a class of the {r.army} army (§3.0)")
            elif u.list_cls:
                errors += _check_quality(u, r.army, variant)
            if u.leadership and u.leadership not in leadership():
                errors.append(f"{u.id}: leadership {u.leadership} is over the highest level, 4")
        if u.kind == "vehicle" and pts.vehicle(u.cls) is None:
            errors.append(f"{u.id}: no vehicle type {u.cls!r} ({', '.join(v.id for v in pts.vehicles)})")
        for w in u.weapons:
            if pts.weapon_cost(w) is None:
                errors.append(f"{u.id}: no weapon {w!r} in the points list")
        errors += _check_kind_extra(u, r)
    commanders = [u.id for u in r.units if "commander" in u.roles]
    if len(commanders) != 1:
        errors.append(f"one figure must be the commander (role commander); found {len(commanders)}")
    for role, key in (("ambush", "ambush"), ("infiltrator", "infiltrators")):
        if any(role in u.roles for u in r.units) and not getattr(r.extras, key):
            errors.append(f"figures with role {role} need the {extras(variant)[key].name} extra")
    return errors


def _check_quality(u: RosterUnit, army: str, variant: str) -> list[str]:
    """The list's quality may be raised or lowered — by one level only in the Italian draft (DIFF-51)."""
    if u.list_cls not in troop_classes() or troop_classes()[u.list_cls].side != army:
        return [f"{u.id}: list class {u.list_cls!r} is not a class of the {army} army"]
    step = abs(_class_rank(u.cls)[1] - _class_rank(u.list_cls)[1])
    if variant == IT and step > 1:
        return [f"{u.id}: {u.list_cls} raised or lowered to {u.cls} is {step - 1} level over the one allowed"]
    return []


def _check_kind_extra(u: RosterUnit, r: Roster) -> list[str]:
    """Journalists and civilians are bought as EXTRAS of a given army (AMB-56)."""
    if u.kind == "journalist":
        wanted = "irregular" if "independent" in u.roles else "regular"
        if r.army != wanted:
            kind = "independent" if wanted == "irregular" else "embedded"
            return [f"{u.id}: {kind} journalists are bought by the {wanted} player (Extras: Media)"]
    if u.kind == "civilian" and r.army != "irregular":
        return [f"{u.id}: civilians are bought by the Irregular player (Extras: Civilians)"]
    return []


def _check_extras(r: Roster, variant: str) -> list[str]:
    errors = []
    table = extras(variant)
    x = r.extras
    special = bool(r.units) and all(u.cls == "R1" for u in r.units if u.kind == "man")
    bought = {k for k in table if k in msgspec.structs.asdict(x) and getattr(x, k)}
    for key in sorted(bought):
        e = table[key]
        if e.army and e.army != r.army:
            errors.append(f"{e.name} is for {e.army} forces only")
        if e.requires == "special-forces" and not e.special_level and not special:
            errors.append(f"{e.name} is for Special Forces only")
        for other in e.excludes:
            if other in bought and key < other:
                errors.append(f"{e.name} cannot be combined with {table[other].name}")
    lv = table["intelligence"]
    if x.intelligence > lv.special_level or x.intelligence < 0:
        errors.append(f"Intelligence level {x.intelligence} is over the highest, {lv.special_level}")
    elif x.intelligence > lv.max_level and not special:
        over = x.intelligence - lv.max_level
        errors.append(f"Intelligence level {x.intelligence} is {over} over {lv.max_level} (4 is for Special Forces)")
    levels = negotiation(variant)
    if x.negotiation not in levels:
        errors.append(f"Negotiation level {x.negotiation}: levels are 1 to {max(levels)}")
    elif levels[x.negotiation].only and r.force not in levels[x.negotiation].only:
        errors.append(f'Negotiation level {x.negotiation} is for MSU and Secret Services only (force = "msu")')
    if x.motivation_platoon and not table["motivation"].platoon_cost:
        errors.append("Motivation is sold per squad in the English draft, not per platoon")
    elif x.motivation_platoon and not r.platoon:
        errors.append("Motivation for a platoon needs a platoon (platoon = true)")
    if x.motivation > squads(r):
        errors.append(
            f"Motivation for {x.motivation} squads is {x.motivation - squads(r)} more than the {squads(r)} fielded"
        )
    elif r.platoon and x.motivation and x.motivation < squads(r):
        errors.append(f"Motivation in a platoon covers every squad: {squads(r) - x.motivation} more to buy (or none)")
    for key in ("ambush", "ied", "ied_remote"):
        if getattr(x, key) < 0:
            errors.append(f"{table[key].name}: a count cannot be negative")
    return errors


# ------------------------------------------------------------ into the game


def extra_values(x: RosterExtras) -> dict[str, int]:
    """The ``extra.<side>.<id>`` values a roster's EXTRAS set."""
    values = {k: int(v) for k, v in msgspec.structs.asdict(x).items() if k != "motivation_platoon"}
    if x.motivation_platoon:
        values["motivation"] = 1
    if values["negotiation"] == 1:
        del values["negotiation"]  # everyone's level, bought or not
    return {k: v for k, v in values.items() if v}


def record_force(ctx: Context, side: str, x: RosterExtras, force: str, platoon: bool) -> None:
    """Put a side's EXTRAS, force type and organisation in the game's books."""
    for key, value in extra_values(x).items():
        name = f"extra.{side}.{key}"
        if key in SECRET_EXTRAS:
            ctx.emit(ev.SecretSet(key=name, owner=side, value=str(value), vis=(side,)))
        else:
            set_var(ctx, name, value)
    if force:
        set_var(ctx, f"force.{side}", force)
    if platoon:
        set_var(ctx, f"platoon.{side}", 1)


def _roster(ctx: Context, args: dict[str, Any]) -> None:
    """Read a roster file into a side (the events carry every figure, so a replay
    never reads the file again)."""
    words = args["what"].split()
    if len(words) != 2:
        raise Refused("roster FILE SIDE, e.g. roster bersaglieri regulars")
    side = match_prefix(words[1], list(ctx.state.sides), "side")
    path = find_roster(words[0])
    r = load_roster(path)
    limit = args["limit"] or int(var(ctx.state, "points", 0)) or r.limit
    army = ctx.state.sides[side].army
    if r.army != army:
        raise Refused(f"{path.name} is a {r.army} roster; {side} are {army}")
    if any(u.side == side for u in ctx.state.units.values()):
        raise Refused(f"{side} have their figures already")
    taken = {u.id for u in ctx.state.units.values()}
    clash = [u.id for u in r.units if u.id in taken]
    if clash:
        raise Refused(f"ids already used in this game: {', '.join(clash)}")
    if any(u.kind == "journalist" for u in r.units) and not regular_vs_irregular(ctx.state):
        raise Refused("journalists are for games of Regulars against Irregulars only (Extras: Media)")
    errors = validate_roster(r, limit, ctx.ruleset.variant)
    if errors:
        raise Refused(f"{path.name}: " + "; ".join(errors))
    for u in r.units:
        spec = ev.UnitSpec(
            id=u.id,
            name=u.name,
            side=side,
            team=u.team,
            kind=u.kind,
            cls=u.cls,
            weapons=u.weapons,
            leadership=u.leadership,
            roles=u.roles,
            status=u.status,
        )
        ctx.emit(ev.UnitAdded(unit=spec, vis=(side,) if "hidden" in u.status else ()))
    record_force(ctx, side, r.extras, r.force, r.platoon)
    ctx.emit(ev.Noted(text=f"{side}: {r.name}, {total_cost(r, ctx.ruleset.variant)} points of {limit or 'no limit'}"))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "roster",
        "Field a roster file on a side (checked against the points limit): roster FILE SIDE.",
        _roster,
        params=(
            Param("limit", "int", "the points limit (default: the scenario's)", optional=True, default=0, keyword=True),
            Param("what", "text", "FILE SIDE: a roster TOML file (or a shipped roster's name) and the side"),
        ),
        rule="Calculating points",
        examples=("roster bersaglieri regulars", "roster my-militia.toml irregulars limit=150"),
        phases=("deployment",),
        who="referee",
    ),
)
