"""Army building ("Calculating points", digest T-17, T-18): rosters, their cost,
and their validation against a points limit.

A roster is a TOML file (docs/rosters.md): the force's army and figures, and the
EXTRAS it buys.  :func:`validate_roster` lists everything wrong with it, each
message saying what is over and by how much; :func:`cost_lines` itemises the
bill.  The ``roster FILE SIDE`` command puts a valid roster on a side of a game
set up with the ``open`` scenario; a scenario file may also carry the same
``[extras.SIDE]`` tables for its own figures.  ``buy SIDE EXTRA`` adds an EXTRA
to a side already fielded: the side's force as it stands (:func:`force_roster`)
is checked by the same :func:`validate_roster` (rulings BN-PTS-BUY).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from core.commands import find_side
from core.language.i18n import N_, M, Msg
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news.ledger import extra, regular_vs_irregular, set_var, var
from core.rulesets.breaking_news.tables import army_points, extras, leadership, negotiation, troop_classes
from core.rulesets.breaking_news.terms import Kind, Status
from core.rulesets.breaking_news.words import DOMAIN, IT, _
from core.scenarios.files import decode, read_text
from core.scenarios.schema import Id, Label, Labels, Name
from core.scenarios.schema import Unit as ScenarioUnit

KINDS = ("man", "vehicle", "journalist", "civilian")
FORCES = ("", "special-forces", "msu", "secret-services")
ROSTERS = Path(__file__).parents[1] / "scenarios" / "rosters"
#: The two armies a roster is of (regular and irregular forces), in the words the report names a side's by.
ARMIES = (N_("regular"), N_("irregular"))

#: Extras whose purchase the opponent does not learn (kept as the owner's secrets).
SECRET_EXTRAS = ("ied", "ied_remote")


class RosterUnit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A figure as a scenario's unit is checked (core.scenarios.schema): it becomes
    one, so what the scenario format refuses is refused here, at its line."""

    id: Id
    name: Name
    team: Label = ""
    kind: Id = "man"
    cls: Label = ""
    #: The class the army list gives, when the roster raises or lowers it.
    list_cls: Label = ""
    weapons: Labels = ()
    leadership: Annotated[int, Meta(ge=0, le=9)] = 0
    roles: Labels = ()
    status: Labels = ()


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
    """The roster file, read and decoded as a force file is (core.scenarios.files: the
    size cap, a server's read policy, ``FILE:LINE: message`` errors)."""
    return decode(read_text(path), Roster, str(path))


def find_roster(name: str) -> Path:
    """A path, or the name of a roster shipped with the ruleset."""
    for candidate in (Path(name), ROSTERS / name, ROSTERS / f"{name}.toml"):
        if candidate.is_file():
            return candidate
    raise Refused(_("no roster file {name!r}").format(name=name), rule=TYPING)


# ------------------------------------------------------------------------ costs


def _class_rank(cls: str) -> tuple[str, int]:
    army, number = ("irregular", cls[3:]) if cls.startswith("Irr") else ("regular", cls[1:])
    return army, int(number)


def unit_cost(u: RosterUnit, variant: str = "") -> list[tuple[str, int]]:
    """The figure's bill: class (or medic), leadership, weapons; vehicles by type;
    journalists and civilians at their EXTRAS price."""
    pts = army_points()
    table = extras(variant)
    if u.kind == Kind.JOURNALIST:
        kind = "independent_journalist" if "independent" in u.roles else "embedded_journalist"
        return [(f"{u.name}: {table[kind].name}", table[kind].cost)]
    if u.kind == Kind.CIVILIAN:
        return [(f"{u.name}: civilian", table["civilians"].cost)]
    if u.kind == Kind.VEHICLE:
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
    return len({u.team for u in r.units if u.kind == Kind.MAN}) if r.platoon else 1


def validate_roster(roster: Roster, limit: int, variant: str = "") -> list[str]:
    """Everything that makes the roster illegal, in words ([] when it is legal)."""
    errors: list[str] = []
    errors += _check_units(roster, variant)
    errors += _check_extras(roster, variant)
    total = total_cost(roster, variant)
    if limit and total > limit:
        errors.append(
            _("{total} points is {over} over the limit of {limit}").format(total=total, over=total - limit, limit=limit)
        )
    return errors


def _check_units(r: Roster, variant: str) -> list[str]:
    errors = []
    classes, pts = troop_classes(), army_points()
    if r.army not in ARMIES:
        errors.append(_("army must be regular or irregular, not {army!r}").format(army=r.army))
    if r.force not in FORCES:
        errors.append(
            _("force must be one of {forces}, not {force!r}").format(
                forces=", ".join(f for f in FORCES if f), force=r.force
            )
        )
    seen: set[str] = set()
    for u in r.units:
        if u.id in seen:
            errors.append(_("{id}: the id is used twice").format(id=u.id))
        seen.add(u.id)
        if u.kind not in KINDS:
            errors.append(
                _("{id}: kind must be one of {kinds}, not {kind!r}").format(
                    id=u.id, kinds=", ".join(KINDS), kind=u.kind
                )
            )
            continue
        if u.kind == Kind.MAN:
            tc = classes.get(u.cls)
            if tc is None:
                errors.append(
                    _("{id}: no troop class {cls!r} (§3.0: {classes})").format(
                        id=u.id, cls=u.cls, classes=", ".join(classes)
                    )
                )
            elif tc.side != r.army:
                errors.append(
                    _("{id}: {cls} is not a class of the {army} army (§3.0)").format(id=u.id, cls=u.cls, army=r.army)
                )
            elif u.list_cls:
                errors += _check_quality(u, r.army, variant)
            if u.leadership and u.leadership not in leadership():
                errors.append(
                    _("{id}: leadership {leadership} is over the highest level, 4").format(
                        id=u.id, leadership=u.leadership
                    )
                )
        if u.kind == Kind.VEHICLE and pts.vehicle(u.cls) is None:
            errors.append(
                _("{id}: no vehicle type {cls!r} ({vehicles})").format(
                    id=u.id, cls=u.cls, vehicles=", ".join(v.id for v in pts.vehicles)
                )
            )
        errors += _check_weapons(u)
        errors += _check_kind_extra(u, r)
    if (problem := commander_problem(r.units)) is not None:
        errors.append(problem)
    for role, key in (("ambush", "ambush"), ("infiltrator", "infiltrators")):
        if any(role in u.roles for u in r.units) and not getattr(r.extras, key):
            errors.append(
                _("figures with role {role} need the {extras} extra").format(
                    role=role, extras=_(extras(variant)[key].name)
                )
            )
    return errors


def carrier(u: RosterUnit | Unit | ev.UnitSpec | ScenarioUnit) -> str:
    """What carries a figure's weapons, as army_points.toml's ``on`` names it: a
    vehicle by its type, anyone else as a man."""
    return u.cls if u.kind == Kind.VEHICLE else "man"


def mount_error(weapon: str, who: str) -> str:
    """Why ``who`` ("man" or a vehicle type) cannot carry ``weapon`` ('' if it can):
    the points list prices a man's weapons, vehicles' machine guns, and a gun only
    in the 50 points of a tank or heavy armoured vehicle (rulings BN-PTS-MOUNT)."""
    on = army_points().carriers(weapon)
    if not on:
        return _("no weapon {weapon!r} in the points list").format(weapon=weapon)
    if who in on:
        return ""
    what = "a man" if who == "man" else f"a {who} vehicle"
    mounts = ", ".join("men" if c == "man" else f"{c} vehicles" for c in on)
    return _("{what} cannot carry {weapon} (carried by {mounts}: Calculating points)").format(
        what=what, weapon=weapon.upper(), mounts=mounts
    )


def _check_weapons(u: RosterUnit) -> list[str]:
    return [_("{id}: {why}").format(id=u.id, why=why) for w in u.weapons if (why := mount_error(w, carrier(u)))]


def _check_quality(u: RosterUnit, army: str, variant: str) -> list[str]:
    """The list's quality may be raised or lowered — by one level only in the Italian draft (DIFF-51)."""
    if u.list_cls not in troop_classes() or troop_classes()[u.list_cls].side != army:
        return [
            _("{id}: list class {list_cls!r} is not a class of the {army} army").format(
                id=u.id, list_cls=u.list_cls, army=army
            )
        ]
    step = abs(_class_rank(u.cls)[1] - _class_rank(u.list_cls)[1])
    if variant == IT and step > 1:
        return [
            _("{id}: {list_cls} raised or lowered to {cls} is {step} level over the one allowed").format(
                id=u.id, list_cls=u.list_cls, cls=u.cls, step=step - 1
            )
        ]
    return []


def _check_kind_extra(u: RosterUnit, r: Roster) -> list[str]:
    """Journalists and civilians are bought as EXTRAS of a given army (AMB-56)."""
    if u.kind == Kind.JOURNALIST:
        wanted = "irregular" if "independent" in u.roles else "regular"
        if r.army != wanted:
            kind = "independent" if wanted == "irregular" else "embedded"
            return [
                _("{id}: {kind} journalists are bought by the {wanted} player (Extras: Media)").format(
                    id=u.id, kind=kind, wanted=wanted
                )
            ]
    if u.kind == Kind.CIVILIAN and r.army != "irregular":
        return [_("{id}: civilians are bought by the Irregular player (Extras: Civilians)").format(id=u.id)]
    return []


def _check_extras(r: Roster, variant: str) -> list[str]:
    errors = []
    table = extras(variant)
    x = r.extras
    special = bool(r.units) and all(u.cls == "R1" for u in r.units if u.kind == Kind.MAN)
    bought = {k for k in table if k in msgspec.structs.asdict(x) and getattr(x, k)}
    for key in sorted(bought):
        e = table[key]
        if e.army and e.army != r.army:
            errors.append(_("{extra} is for {army} forces only").format(extra=_(e.name), army=e.army))
        if e.requires == "special-forces" and not e.special_level and not special:
            errors.append(_("{extra} is for Special Forces only").format(extra=_(e.name)))
        for other in e.excludes:
            if other in bought and key < other:
                errors.append(
                    _("{extra} cannot be combined with {other}").format(extra=_(e.name), other=_(table[other].name))
                )
    lv = table["intelligence"]
    if x.intelligence > lv.special_level or x.intelligence < 0:
        errors.append(
            _("Intelligence level {intelligence} is over the highest, {special_level}").format(
                intelligence=x.intelligence, special_level=lv.special_level
            )
        )
    elif x.intelligence > lv.max_level and not special:
        over = x.intelligence - lv.max_level
        errors.append(
            _("Intelligence level {intelligence} is {over} over {max_level} (4 is for Special Forces)").format(
                intelligence=x.intelligence, over=over, max_level=lv.max_level
            )
        )
    levels = negotiation(variant)
    if x.negotiation not in levels:
        errors.append(
            _("Negotiation level {negotiation}: levels are 1 to {top}").format(
                negotiation=x.negotiation, top=max(levels)
            )
        )
    elif levels[x.negotiation].only and r.force not in levels[x.negotiation].only:
        errors.append(
            _('Negotiation level {negotiation} is for MSU and Secret Services only (force = "msu")').format(
                negotiation=x.negotiation
            )
        )
    if x.motivation_platoon and not table["motivation"].platoon_cost:
        errors.append(_("Motivation is sold per squad in the English draft, not per platoon"))
    elif x.motivation_platoon and not r.platoon:
        errors.append(_("Motivation for a platoon needs a platoon (platoon = true)"))
    if x.motivation > squads(r):
        errors.append(
            _("Motivation for {motivation} squads is {more} more than the {squads} fielded").format(
                motivation=x.motivation, more=x.motivation - squads(r), squads=squads(r)
            )
        )
    elif r.platoon and x.motivation and x.motivation < squads(r):
        errors.append(
            _("Motivation in a platoon covers every squad: {squads} more to buy (or none)").format(
                squads=squads(r) - x.motivation
            )
        )
    for key in ("ambush", "ied", "ied_remote"):
        if getattr(x, key) < 0:
            errors.append(_("{extra}: a count cannot be negative").format(extra=_(table[key].name)))
    return errors


# ------------------------------------------------------------ into the game


def extra_values(x: RosterExtras) -> dict[str, int]:
    """The ``extra.<side>.<id>`` values a roster's EXTRAS set.  Motivation bought for a
    whole platoon is ``motivation`` (what morale reads) and ``motivation_platoon`` (its
    price)."""
    values = {k: int(v) for k, v in msgspec.structs.asdict(x).items()}
    if x.motivation_platoon:
        values["motivation"] = 1
    if values["negotiation"] == 1:
        del values["negotiation"]  # everyone's level, bought or not
    return {k: v for k, v in values.items() if v}


def record_extra(ctx: Context, side: str, key: str, value: int) -> None:
    """One EXTRA in the side's books; the explosives as the owner's secret."""
    name = f"extra.{side}.{key}"
    if key in SECRET_EXTRAS:
        ctx.emit(ev.SecretSet(key=name, owner=side, value=str(value), vis=(side,)))
    else:
        set_var(ctx, name, value)


def record_force(ctx: Context, side: str, x: RosterExtras, force: str, platoon: bool) -> None:
    """Put a side's EXTRAS, force type and organisation in the game's books."""
    for key, value in extra_values(x).items():
        record_extra(ctx, side, key, value)
    if force:
        set_var(ctx, f"force.{side}", force)
    if platoon:
        set_var(ctx, f"platoon.{side}", 1)


#: What a roster's figure and a figure in play have in common.
_FIGURE_FIELDS = ("id", "name", "team", "kind", "cls", "weapons", "leadership", "roles", "status")


def _figure(u: Unit | ev.UnitSpec | RosterUnit) -> dict:
    return {name: getattr(u, name) for name in _FIGURE_FIELDS}


def roster_unit(u: Unit | ev.UnitSpec) -> RosterUnit:
    """A figure of a scenario or of a game as a roster's figure, to cost and check it."""
    return RosterUnit(**_figure(u))


def books_extras(state: GameState, side: str) -> RosterExtras:
    """The EXTRAS in a side's books (what :func:`record_force` and ``buy`` wrote)."""
    fields: dict[str, Any] = {}
    for key, default in msgspec.structs.asdict(RosterExtras()).items():
        value = extra(state, side, key)
        fields[key] = bool(value) if isinstance(default, bool) else value or default
    if fields["motivation_platoon"]:
        fields["motivation"] = 0  # the platoon price, not one squad's
    return RosterExtras(**fields)


def force_roster(state: GameState, side: str) -> Roster:
    """A side's force as it stands in the game, as a roster: its figures (in play or
    not: they were all paid for) and the EXTRAS in its books."""
    return Roster(
        name=state.sides[side].name,
        army=state.sides[side].army,
        force=str(var(state, f"force.{side}", "")),
        platoon=bool(var(state, f"platoon.{side}", 0)),
        units=tuple(roster_unit(u) for u in state.units.values() if u.side == side),
        extras=books_extras(state, side),
    )


def side_limit(state: GameState, side: str) -> int:
    """The points limit a side was built to (0: none): its roster's, else the game's."""
    return int(var(state, f"points.{side}", 0)) or int(var(state, "points", 0))


# ----------------------------------------------------------------- buying EXTRAS

#: What ``buy`` sells: the EXTRAS of a roster's [extras] table (journalists and
#: civilians are figures: they come with a roster).
BUYABLE: tuple[str, ...] = tuple(k for k in msgspec.structs.asdict(RosterExtras()) if k != "motivation_platoon")


def extra_name(key: str, variant: str = "") -> str:
    table = extras(variant)
    return table[key].name if key in table else key.capitalize()  # negotiation has a table of its own


def purchase(roster: Roster, key: str, amount: int, variant: str = "") -> tuple[RosterExtras, Msg]:
    """The roster's EXTRAS once ``key`` is bought, and the purchase in words (rulings
    BN-PTS-BUY): a one-off extra once; ``amount`` more ambushes or IEDs (1 if 0); the
    level ``amount`` of Intelligence (1 if 0) or Negotiation (2 if 0), above the one
    held; Motivation for every squad (a platoon's price in the Italian draft when it
    is cheaper).  Nothing is checked against the limit here: see :func:`validate_roster`."""
    x = roster.extras
    name = extra_name(key, variant)
    held = getattr(x, key)
    if key == "motivation":
        if x.motivation or x.motivation_platoon:
            raise Refused(_("{name} is bought already").format(name=_(name)), rule=("T-18", "PTS-5"))
        row, n = extras(variant)["motivation"], squads(roster)
        if amount not in (0, n):
            raise Refused(
                _("{name} covers every squad: {n} (Extras: Motivation)").format(name=_(name), n=n),
                rule=("EXT-6", "T-18"),
            )
        if roster.platoon and row.platoon_cost and row.platoon_cost < row.cost * n:
            return msgspec.structs.replace(x, motivation_platoon=True), M("{extra} for the platoon", extra=M(name))
        if n == 1:
            return msgspec.structs.replace(x, motivation=n), M("{extra} for {n} squad", extra=M(name), n=n)
        return msgspec.structs.replace(x, motivation=n), M("{extra} for {n} squads", extra=M(name), n=n)
    if isinstance(held, bool):
        if amount not in (0, 1):
            raise Refused(
                _("{name} is bought once, not {amount} times").format(name=_(name), amount=amount),
                rule=("T-18", "PTS-5"),
            )
        if held:
            raise Refused(_("{name} is bought already").format(name=_(name)), rule=("T-18", "PTS-5"))
        return msgspec.structs.replace(x, **{key: True}), M(name)
    if key in ("intelligence", "negotiation"):
        level = amount or (2 if key == "negotiation" else 1)
        if level <= held:
            raise Refused(
                _("{name} level {held} is bought already: buy a higher level").format(name=_(name), held=held),
                rule=("T-18", "PTS-5"),
            )
        return msgspec.structs.replace(x, **{key: level}), M("{extra} level {level}", extra=M(name), level=level)
    count = amount or 1
    if count < 1:
        raise Refused(_("buy at least one {name}").format(name=_(name)), rule=("T-18", "PTS-5"))
    bought = msgspec.structs.replace(x, **{key: held + count})
    return bought, M(name) if count == 1 else M("{extra} ×{n}", extra=M(name), n=count)


def _buy(ctx: Context, args: dict[str, Any]) -> None:
    """An EXTRA bought outside a roster, checked like a roster against the side's limit."""
    side, key, variant = args["side"], args["extra"], ctx.ruleset.variant
    if not any(u.side == side for u in ctx.state.units.values()):
        raise Refused(
            _("{side} have no figures yet: field them first (roster FILE {id})").format(
                side=ctx.state.side_name(side), id=side
            ),
            rule="PTS-5",
        )
    before = force_roster(ctx.state, side)
    bought, what = purchase(before, key, args["amount"], variant)
    after = msgspec.structs.replace(before, extras=bought)
    limit = side_limit(ctx.state, side)
    # Only what the purchase breaks: a scenario's own figures are the scenario's business.
    standing = set(validate_roster(before, limit, variant))
    errors = [e for e in validate_roster(after, limit, variant) if e not in standing]
    if errors:
        raise Refused(
            _("{side} with {what}: {errors}").format(
                side=ctx.state.side_name(side), what=DOMAIN.render(what), errors="; ".join(errors)
            ),
            rule="PTS-5",
        )
    old, new = extra_values(before.extras), extra_values(bought)
    for k, value in new.items():
        if old.get(k) != value:
            record_extra(ctx, side, k, value)
    cost, total = total_cost(after, variant) - total_cost(before, variant), total_cost(after, variant)
    secret = (side,) if key in SECRET_EXTRAS else ()
    if limit:
        text = M(
            "{side} buy {what} for {cost} points: {total} points of {limit} (Extras)",
            side=side,
            what=what,
            cost=cost,
            total=total,
            limit=limit,
        )
    else:
        text = M(
            "{side} buy {what} for {cost} points: {total} points (Extras)", side=side, what=what, cost=cost, total=total
        )
    ctx.emit(ev.Noted(text=text, vis=secret))


def _roster(ctx: Context, args: dict[str, Any]) -> None:
    """Read a roster file into a side (the events carry every figure, so a replay
    never reads the file again)."""
    words = args["what"].split()
    if len(words) != 2:
        raise Refused(_("roster FILE SIDE, e.g. roster bersaglieri regulars"), rule=TYPING)
    side = find_side(words[1], ctx.state)
    path = find_roster(words[0])
    r = load_roster(path)
    limit = args["limit"] or int(var(ctx.state, "points", 0)) or r.limit
    army = ctx.state.sides[side].army
    if r.army != army:
        raise Refused(
            _("{path} is a {army} roster; {side} are {army2}").format(
                path=path.name, army=r.army, side=side, army2=army
            ),
            rule=("PTS-5", "T-17"),
        )
    if any(u.side == side for u in ctx.state.units.values()):
        raise Refused(_("{side} have their figures already").format(side=ctx.state.side_name(side)), rule="ENG-7")
    taken = {u.id for u in ctx.state.units.values()}
    clash = [u.id for u in r.units if u.id in taken]
    if clash:
        raise Refused(_("ids already used in this game: {clash}").format(clash=", ".join(clash)), rule=TYPING)
    if any(u.kind == Kind.JOURNALIST for u in r.units) and not regular_vs_irregular(ctx.state):
        raise Refused(
            _("journalists are for games of Regulars against Irregulars only (Extras: Media)"), rule=("DP-3", "EXT-10")
        )
    errors = validate_roster(r, limit, ctx.ruleset.variant)
    if errors:
        raise Refused(_("{file}: {errors}").format(file=path.name, errors="; ".join(errors)), rule=("PTS-5", "T-17"))
    for u in r.units:
        spec = ev.UnitSpec(side=side, **_figure(u))
        ctx.emit(ev.UnitAdded(unit=spec, vis=(side,) if Status.HIDDEN in u.status else ()))
    record_force(ctx, side, r.extras, r.force, r.platoon)
    if limit != int(var(ctx.state, "points", 0)):
        set_var(ctx, f"points.{side}", limit)  # what a later buy is checked against
    cost = total_cost(r, ctx.ruleset.variant)
    if limit:
        text = M("{side}: {force}, {cost} points of {limit}", side=side, force=r.name, cost=cost, limit=limit)
    else:
        text = M("{side}: {force}, {cost} points of no limit", side=side, force=r.name, cost=cost)
    ctx.emit(ev.Noted(text=text))


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
    CommandSpec(
        "buy",
        "Buy an EXTRA for a side already fielded, checked against its points limit: buy SIDE EXTRA [N].",
        _buy,
        params=(
            Param("side", "side", "the side that buys it"),
            Param("extra", "choice", "the EXTRA (extras.toml id)", choices=BUYABLE),
            Param(
                "amount",
                "int",
                "how many ambushes or IEDs, or which level of Intelligence or Negotiation",
                optional=True,
                default=0,
            ),
        ),
        rule="Calculating points, Extras",
        examples=("buy regulars helicopter", "buy irregulars ied 2", "buy regulars intelligence 2"),
        phases=("deployment",),
        who="referee",
    ),
)


def commander_problem(units: Iterable[Any]) -> str | None:
    """Why ``units`` (a roster's, a scenario side's) lack their one main commander, or None:
    §5.0 (the initiative adds his Leadership) and §12.0 (his loss counts 2 at the morale
    test) name one (ruling BN-ONE-COMMANDER)."""
    commanders = sum(1 for u in units if "commander" in u.roles)
    if commanders == 1:
        return None
    return _("one figure must be the commander (role commander); found {commanders}").format(commanders=commanders)
