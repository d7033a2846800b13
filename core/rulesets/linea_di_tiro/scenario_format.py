"""Linea di Tiro's scenario files (docs/scenarios.md): the common format, with the
piece profiles the book leaves to the scenario (digest C.0, part D), one Allied
and one Axis side (LT-R010), what a joker does in this scenario (LT-R010) and
the artillery a side may call (LT-R090).

Each profile reaches the game as the ``VarSet`` ``profile.<id>`` (its JSON), read
by :meth:`LineaDiTiro.profile`; a piece's own ``stats`` override its profile's
numbers (a veteran crew's morale +1; ruling LT-PROFILES)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from core.log import events as ev
from core.ruleset import Context
from core.rulesets.linea_di_tiro import turn
from core.rulesets.linea_di_tiro.tables import Profile, deck, mg_table, movement
from core.rulesets.linea_di_tiro.terms import Kind
from core.rulesets.linea_di_tiro.words import _
from core.scenarios.files import Problem
from core.scenarios.schema import (
    MAX_ENTRIES,
    BaseForce,
    BaseScenario,
    Format,
    Id,
    Label,
    Name,
    Strict,
    Text,
    Unit,
    unknown,
)

Factor = Annotated[int, Meta(ge=0, le=20)]


class ProfileSpec(Strict, frozen=True):
    """A kind of piece (tables.Profile): a unit's ``cls`` names it."""

    id: Id
    name: Name
    vehicle: bool
    morale: Annotated[int, Meta(ge=1, le=6)]
    bound: Annotated[int, Meta(ge=0, le=100)] = 10
    #: None: "normally three times the bound" (LT-R042), so a 5 cm bound moves 15 at speed.
    speed: Annotated[int, Meta(ge=0, le=200)] | None = None
    at: Factor = 0
    at_long: Factor = 0
    front: Factor = 0
    side: Factor = 0
    mg: Factor = 0
    defence: Label = ""


def as_profile(spec: ProfileSpec) -> Profile:
    """The profile a game records for ``spec``: a speed its data do not give is the
    book's three bounds (LT-R042, "normalmente il triplo del balzo")."""
    raw = msgspec.to_builtins(spec)
    if spec.speed is None:
        raw["speed"] = spec.bound * movement().speed_times
    return msgspec.convert(raw, Profile)


class Jokers(Strict, frozen=True):
    #: What a joker does in this scenario, in words (LT-R010).
    effect: Text = ""
    #: A joker starts a called artillery attack (LT-R090).
    artillery: bool = True


class LineaScenario(BaseScenario, frozen=True):
    profiles: Annotated[tuple[ProfileSpec, ...], Meta(max_length=MAX_ENTRIES)] = ()
    jokers: Jokers = Jokers()


class LineaForce(BaseForce, frozen=True):
    """A force brings the profiles of its pieces."""

    profiles: Annotated[tuple[ProfileSpec, ...], Meta(max_length=MAX_ENTRIES)] = ()


#: The numbers of a profile a piece's ``stats`` may override.
PROFILE_STATS = ("morale", "bound", "speed", "at", "at_long", "front", "side", "mg")


class LineaFormat(Format):
    ruleset_id = "linea-di-tiro"
    schema = LineaScenario
    kinds = {
        "man": "an infantry piece (a half-squad, a team)",
        "vehicle": "a vehicle (its profile says vehicle = true)",
        "gun": "a towed gun (an anti-tank or infantry gun)",
    }
    roles = {
        "company-command": "company command: may call artillery (LT-R090)",
        "observer": "a piece that may call artillery (LT-R090)",
        "platoon-leader": "the platoon's leader",
        "recon": "recon vehicle (part D)",
        "open": "open vehicle (C.7.1)",
        "light": "light tank or armoured car (C.7.1)",
        "large-gun": "large gun (part D)",
        "portable-at": "carries portable anti-tank weapons (part D)",
        "no-mg": "a tank without machine guns (part D)",
        "protected": "a specially protected tank (LT-R101)",
        "improvised-at": "close-assault rating 1: improvised anti-tank means (LT-R101, ruling LT-RATING)",
        "trained-at": "close-assault rating 3: trained with anti-tank weapons (LT-R101)",
        "tank-hunters": "close-assault rating 5: tank hunters (LT-R101)",
        "crew": "crew of the vehicle it is aboard",
    }
    stats = {name: f"overrides the profile's {name} for this piece" for name in PROFILE_STATS} | {
        "close_assault": "close-assault rating 1, 3 or 5 (C.9)",
        "he": "an artillery section's HE attack factor (LT-R090)",
    }
    support_kinds = {"artillery": "artillery sections (count) firing at a 10 cm square each (LT-R090)"}
    force_schema = LineaForce
    forces_dir = Path(__file__).parent / "forces"

    def force_extras(self, force: LineaForce) -> dict[str, Any]:
        return {"profiles": force.profiles}

    def classes(self, sc: LineaScenario, unit: Unit) -> Iterable[str]:
        return [p.id for p in sc.profiles]

    def check_more(self, sc: LineaScenario) -> Iterator[Problem]:
        needed = sorted({s.army for s in deck().suits})
        seen: set[str] = set()
        for i, side in enumerate(sc.sides):
            if side.army not in needed or side.army in seen:
                message = _(
                    "sides[{i}].army = {army}: one side must be the {first} and one the {second} army (LT-R010)"
                )
                message = message.format(i=i, army=repr(side.army), first=needed[0], second=needed[-1])
                yield Problem(("sides", i, "army"), message)
            seen.add(side.army)
        if len(sc.sides) != len(needed):
            yield Problem(("sides",), _("sides: Linea di Tiro is played by {n} sides (LT-R010)").format(n=len(needed)))
        ids = [p.id for p in sc.profiles]
        defences = [d.id for d in mg_table().defences]
        for i, p in enumerate(sc.profiles):
            if ids.index(p.id) != i:
                why = _("{field} = {value}: used twice").format(field=f"profiles[{i}].id", value=repr(p.id))
                yield Problem(("profiles", i, "id"), why)
            if p.defence and p.defence not in defences:
                yield unknown(("profiles", i, "defence"), p.defence, _("defence"), defences)
        profiles = {p.id: p for p in sc.profiles}
        for i, u in enumerate(sc.units):
            profile = profiles.get(u.cls)
            # C.1: tanks and large guns are vehicles ("mezzi"), the rest infantry: a gun
            # is either, by its profile (a small gun is infantry that is still a gun).
            if profile is not None and u.kind != Kind.GUN and profile.vehicle != (u.kind == Kind.VEHICLE):
                yield Problem(
                    ("units", i, "kind"),
                    _("units[{i}].kind = {kind}: its profile {profile} says vehicle = {vehicle}").format(
                        i=i, kind=repr(u.kind), profile=repr(profile.id), vehicle=str(profile.vehicle).lower()
                    ),
                )

    def setup(self, ctx: Context, sc: LineaScenario) -> None:
        super().setup(ctx, sc)
        ctx.emit(ev.VarSet(key="scenario_id", value=sc.id))
        for p in sc.profiles:
            profile = as_profile(p)
            ctx.emit(ev.VarSet(key=f"profile.{p.id}", value=msgspec.json.encode(profile).decode()))
        if sc.jokers.effect:
            ctx.emit(ev.VarSet(key="joker.effect", value=sc.jokers.effect))
        ctx.emit(ev.VarSet(key="joker.artillery", value=int(sc.jokers.artillery)))
        turn.new_deck(ctx)


def profile_of(state_vars: dict[str, int | str], cls: str, stats: dict[str, int]) -> Profile | None:
    """A piece's profile: its scenario's, with the piece's own numbers over it."""
    raw = state_vars.get(f"profile.{cls}")
    if not isinstance(raw, str):
        return None
    profile = _decode(raw)
    own = {k: v for k, v in stats.items() if k in PROFILE_STATS}
    return msgspec.structs.replace(profile, **own) if own else profile


_decoder = msgspec.json.Decoder(Profile)
_cache: dict[str, Profile] = {}


def _decode(raw: str) -> Profile:
    found = _cache.get(raw)
    if found is None:
        if len(_cache) > 256:
            _cache.clear()
        found = _cache[raw] = _decoder.decode(raw)
    return found


FORMAT = LineaFormat()
