"""The scenario file format every ruleset shares, and how a scenario sets a game up.

A ruleset's format (:class:`Format`) is the common schema below, with the
fields its rules add, and the vocabularies its names are checked against:
the kinds of piece, qualities/classes, weapons (looked up in the ruleset's
tables at check time, so a weapon the tables gain is at once allowed), roles,
per-piece stats, optional rules and support kinds.  docs/scenarios.md
documents every field; the limits are the ``Meta`` bounds below.

A scenario reaches the game as events (:meth:`Format.setup`): the sides and
units; the secrets; and the facts the rules read during play as ``VarSet``
keys (``turns``, ``night``, ``visibility``, ``option.<id>``, ``victory...``,
``objective.<id>...``, ``support.<id>...``, ``aboard.<unit>``; the list is in
docs/scenarios.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, ClassVar, Protocol

import msgspec
from msgspec import Meta

from core.language.i18n import N_, M, _
from core.log import events as ev
from core.log.state import HIDDEN, GameState
from core.log.views import REFEREE_ONLY
from core.refusal import Refused
from core.scenarios.breaking import BREAK_AT
from core.scenarios.files import PATTERN_WORDS, Problem, close_matches, dotted


class SetUpTable(Protocol):
    """What a scenario's set-up writes to: the game as it stands and where its facts go.
    A ruleset's ``core.ruleset.Context`` is one: the contract names this format, and the
    format needs no more of the contract than this."""

    state: GameState

    def emit(self, *events: ev.Event) -> None: ...


# ------------------------------------------------------------------------ limits

MAX_SIDES = 8
MAX_UNITS = 400
MAX_LIST = 24  # weapons, roles, statuses, options, special rules of one thing
MAX_ENTRIES = 100  # objectives, support, secrets, profiles, weapons of a scenario
ID_MAX = 32
NAME_MAX = 60
TEXT_MAX = 2000

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
#: What never shows as itself: C1 controls (``\x9b`` starts a terminal sequence as
#: ``ESC [`` does), the line and paragraph separators, and the bidirectional
#: embeddings, overrides and isolates, which reorder the text shown around them.
_HIDDEN = r"\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: One line of printable text: no control characters (a name is shown as text).
LINE_PATTERN = r"^[^\x00-\x1f" + _HIDDEN + r"]*$"
#: Text that may run over several lines, but holds no other control character.
TEXT_PATTERN = r"^[^\x00-\x09\x0b-\x1f" + _HIDDEN + r"]*$"
PATTERN_WORDS.update(
    {
        ID_PATTERN: "made of letters, digits, '_', '.' and '-' (starting with a letter or digit)",
        LINE_PATTERN: "one line of text without control or text-direction characters",
        TEXT_PATTERN: "text without control or text-direction characters",
    }
)

Id = Annotated[str, Meta(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)]
Name = Annotated[str, Meta(min_length=1, max_length=NAME_MAX, pattern=LINE_PATTERN)]
Label = Annotated[str, Meta(max_length=NAME_MAX, pattern=LINE_PATTERN)]
Text = Annotated[str, Meta(max_length=TEXT_MAX, pattern=TEXT_PATTERN)]
Stat = Annotated[int, Meta(ge=-99, le=999)]
Stats = Annotated[dict[Id, Stat], Meta(max_length=MAX_LIST)]
Labels = Annotated[tuple[Label, ...], Meta(max_length=MAX_LIST)]
Cm = Annotated[int, Meta(ge=0, le=1000)]
#: The languages a scenario file may give its words in besides its own (the program's, English
#: apart: core.language.reader.LANGUAGES), and how many texts it may translate in each.
TRANSLATED_LANGUAGES = ("it",)
MAX_TRANSLATED = 600
Said = Annotated[str, Meta(min_length=1, max_length=TEXT_MAX, pattern=TEXT_PATTERN)]
Translations = Annotated[dict[Said, Said], Meta(max_length=MAX_TRANSLATED)]


class Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    pass


class Side(Strict, frozen=True):
    id: Id
    name: Name
    army: Label = ""


class Unit(Strict, frozen=True):
    """A piece: a man, a team, a vehicle, a gun, an aircraft… as the ruleset's kinds."""

    id: Id
    name: Name
    side: Id
    team: Label = ""
    kind: Id = "man"
    cls: Label = ""
    weapons: Labels = ()
    leadership: Annotated[int, Meta(ge=0, le=9)] = 0
    roles: Labels = ()
    status: Labels = ()
    stats: Stats = {}
    #: The vehicle this piece starts in (its crew, or its passengers).
    aboard: Label = ""


class Objective(Strict, frozen=True):
    id: Id
    name: Name
    where: Text = ""
    points: Annotated[int, Meta(ge=0, le=999)] = 0
    #: The side it belongs to (its to defend, or its own goal); "" for both.
    owner: Label = ""
    #: Known to its owner (and the referee) only.
    hidden: bool = False


class Victory(Strict, frozen=True):
    summary: Text = ""
    #: Objectives a side must hold at the end to win.
    objectives: Labels = ()
    #: A side that has lost this percentage of its pieces loses (0: no such rule).
    break_at: Annotated[int, Meta(ge=0, le=100)] = 0
    #: Objective points a side needs to win (0: no such rule).
    points: Annotated[int, Meta(ge=0, le=9999)] = 0


class Support(Strict, frozen=True):
    """Something off the table a side may call on: a battery, mortars, aircraft."""

    id: Id
    name: Name
    side: Id
    kind: Id
    weapon: Label = ""
    count: Annotated[int, Meta(ge=1, le=20)] = 1
    #: Rounds or passes it has (0: no limit).
    ammo: Annotated[int, Meta(ge=0, le=99)] = 0
    #: Its quality (a pilot's, a battery's), where the rules need one.
    cls: Label = ""
    stats: Stats = {}


class Secret(Strict, frozen=True):
    key: Id
    owner: Id
    value: Text


class BaseScenario(Strict, frozen=True):
    id: Id
    title: Name
    sides: Annotated[tuple[Side, ...], Meta(min_length=1, max_length=MAX_SIDES)]
    description: Text = ""
    #: The ruleset the file is for (checked when given).
    ruleset: Label = ""
    #: The last turn (0: the game ends otherwise); Linea di Tiro counts cards, and a
    #: game of two decks is 108 of them.
    turns: Annotated[int, Meta(ge=0, le=999)] = 0
    night: bool = False
    #: How far one can see, in cm (0: no limit beyond the table's).
    visibility: Cm = 0
    options: Labels = ()
    special_rules: Annotated[tuple[Text, ...], Meta(max_length=MAX_LIST)] = ()
    victory: Victory = Victory()
    units: Annotated[tuple[Unit, ...], Meta(max_length=MAX_UNITS)] = ()
    objectives: Annotated[tuple[Objective, ...], Meta(max_length=MAX_ENTRIES)] = ()
    support: Annotated[tuple[Support, ...], Meta(max_length=MAX_ENTRIES)] = ()
    secrets: Annotated[tuple[Secret, ...], Meta(max_length=MAX_ENTRIES)] = ()
    #: Sides fielded from a force file: side id → force name or path.
    rosters: Annotated[dict[Id, Annotated[str, Meta(max_length=300)]], Meta(max_length=MAX_SIDES)] = {}
    #: Its words in another language: language → {a text of the file as written: its words}.
    translations: Annotated[dict[Id, Translations], Meta(max_length=len(TRANSLATED_LANGUAGES))] = {}


class ForceUnit(Unit, frozen=True, kw_only=True):
    #: A force's pieces take the side they are fielded on.
    side: Label = ""


class BaseForce(Strict, frozen=True):
    """A side's force in a file of its own (core.scenarios.forces)."""

    name: Name
    units: Annotated[tuple[ForceUnit, ...], Meta(min_length=1, max_length=MAX_UNITS)]
    ruleset: Label = ""
    army: Label = ""
    description: Text = ""


#: The status of a piece aboard a vehicle (a scenario's ``aboard``).
IN_VEHICLE = "in-vehicle"
#: Statuses a piece may start with (core.rulesets.common.STATUSES, by what setup means).
START_STATUSES = {
    HIDDEN: "deployed hidden: seen by its side and the referee only",
    "suppressed": "starts suppressed",
    "wounded": "starts wounded",
    "down": "starts down/prone",
    "pinned": "starts pinned",
    IN_VEHICLE: "starts aboard a vehicle (set by aboard)",
}


class Format:
    """A ruleset's scenario format: its schema, vocabularies and set-up.

    Vocabularies are dicts of name → meaning (docs/scenarios.md prints them).
    ``weapons`` and ``classes`` are methods: they read the ruleset's tables (and
    the scenario, where it defines its own) when a file is checked.
    """

    ruleset_id: ClassVar[str]
    schema: ClassVar[type[BaseScenario]] = BaseScenario
    kinds: ClassVar[dict[str, str]] = {"man": "a figure"}
    vehicle_kinds: ClassVar[tuple[str, ...]] = ("vehicle",)
    roles: ClassVar[dict[str, str]] = {}
    stats: ClassVar[dict[str, str]] = {}
    options: ClassVar[dict[str, str]] = {}
    support_kinds: ClassVar[dict[str, str]] = {}
    armies: ClassVar[tuple[str, ...]] = ()
    #: The VarSet key that says which vehicle a piece is aboard ("": none) …
    aboard_key: ClassVar[str] = "aboard.{unit}"
    #: … and the badge it starts with, besides ``in-vehicle`` ("": none).
    aboard_badge: ClassVar[str] = ""
    #: The VarSet keys of the game's length and victory conditions (a ruleset may have its own).
    turns_key: ClassVar[str] = "turns"
    victory_key: ClassVar[str] = "victory"
    force_schema: ClassVar[type] = BaseForce
    #: The ruleset's built-in force files.
    forces_dir: ClassVar[Path | None] = None

    def classes(self, sc: Any, unit: Unit) -> Iterable[str]:
        """The qualities/classes a unit may have ("" always allowed when empty)."""
        return ()

    def weapons(self, sc: Any) -> Iterable[str]:
        return ()

    def role_names(self, sc: Any) -> Iterable[str]:
        """The roles a piece may have: ``roles``, and any the ruleset's tables add."""
        return self.roles

    def night_facts(self, sc: Any) -> list[tuple[str, int | str]]:
        """The VarSets that say the game is at night."""
        return [("night", 1)] if sc.night else []

    def points(self, sc: Any) -> dict[str, int]:
        """Each side's points, where the ruleset has points (none by default)."""
        return {}

    # ------------------------------------------------------------------ checking

    def check(self, sc: Any) -> list[Problem]:
        """Everything wrong with a decoded scenario (the schema's types already hold)."""
        out = list(self._check_common(sc))
        out += list(self.check_more(sc))
        return out

    def check_more(self, sc: Any) -> Iterator[Problem]:
        """A ruleset's own checks."""
        return iter(())

    def check_whole(self, sc: Any) -> Iterator[Problem]:
        """A ruleset's checks of the scenario as a whole (a side's one commander), made once
        every part of it was read and checked: a part the schema refused would leave a
        side short of a piece the file gives it."""
        return iter(())

    def _check_units(self, sc: BaseScenario, sides: list[str]) -> Iterator[Problem]:
        """Each piece: its side, kind, class, weapons, roles, starting status, stats and carrier."""
        yield from _duplicates("units", [u.id for u in sc.units])
        weapons = set(self.weapons(sc))
        roles = set(self.role_names(sc))
        units = {u.id: u for u in sc.units}
        for i, u in enumerate(sc.units):
            at = ("units", i)
            if u.side not in sides:
                yield unknown((*at, "side"), u.side, N_("side"), sides)
            if u.kind not in self.kinds:
                yield unknown((*at, "kind"), u.kind, N_("kind of piece"), self.kinds)
            classes = set(self.classes(sc, u))
            if (u.cls or classes) and u.cls not in classes:
                what = _("quality/class for a {kind}").format(kind=u.kind)
                yield unknown((*at, "cls"), u.cls, what, classes)
            for j, w in enumerate(u.weapons):
                if w not in weapons:
                    yield unknown((*at, "weapons", j), w, N_("weapon"), weapons)
            for j, r in enumerate(u.roles):
                if r not in roles:
                    yield unknown((*at, "roles", j), r, N_("role"), roles)
            for j, st in enumerate(u.status):
                if st not in START_STATUSES:
                    yield unknown((*at, "status", j), st, N_("starting status"), START_STATUSES)
            for key in u.stats:
                if key not in self.stats:
                    yield unknown((*at, "stats", key), key, N_("stat"), self.stats)
            if u.aboard:
                carrier = units.get(u.aboard)
                if carrier is None or carrier.kind not in self.vehicle_kinds or carrier is u:
                    vehicles = [v.id for v in sc.units if v.kind in self.vehicle_kinds]
                    yield unknown((*at, "aboard"), u.aboard, N_("vehicle"), vehicles)
                elif carrier.side != u.side:
                    yield Problem(
                        (*at, "aboard"),
                        _("aboard = {vehicle}: that vehicle is another side's").format(vehicle=repr(u.aboard)),
                    )

    def _check_common(self, sc: BaseScenario) -> Iterator[Problem]:
        if sc.ruleset and sc.ruleset != self.ruleset_id:
            yield Problem(
                ("ruleset",),
                _("ruleset = {given}: this file is for another ruleset than {ruleset}").format(
                    given=repr(sc.ruleset), ruleset=self.ruleset_id
                ),
            )
        yield from _duplicates("sides", [s.id for s in sc.sides])
        sides = [s.id for s in sc.sides]
        for i, s in enumerate(sc.sides):
            if self.armies and s.army not in self.armies:
                yield unknown(("sides", i, "army"), s.army, N_("army"), self.armies)
        yield from self._check_units(sc, sides)
        weapons = set(self.weapons(sc))
        for key in sc.rosters:
            if key not in sides:
                yield unknown(("rosters", key), key, N_("side"), sides)
        yield from _check_translations(sc)
        for i, o in enumerate(sc.options):
            if o not in self.options:
                yield unknown(("options", i), o, N_("optional rule"), self.options)
        objectives = [o.id for o in sc.objectives]
        yield from _duplicates("objectives", objectives)
        for i, obj in enumerate(sc.objectives):
            if obj.owner and obj.owner not in sides:
                yield unknown(("objectives", i, "owner"), obj.owner, N_("side"), sides)
            if obj.hidden and not obj.owner:
                yield Problem(("objectives", i, "hidden"), _("hidden = true needs an owner (the side that knows it)"))
        for i, name in enumerate(sc.victory.objectives):
            if name not in objectives:
                yield unknown(("victory", "objectives", i), name, N_("objective"), objectives)
        yield from _duplicates("support", [sup.id for sup in sc.support])
        for i, sup in enumerate(sc.support):
            if sup.side not in sides:
                yield unknown(("support", i, "side"), sup.side, N_("side"), sides)
            if sup.kind not in self.support_kinds:
                yield unknown(("support", i, "kind"), sup.kind, "kind of support", self.support_kinds)
            if sup.weapon and sup.weapon not in weapons:
                yield unknown(("support", i, "weapon"), sup.weapon, "weapon", weapons)
            for key in sup.stats:
                if key not in self.stats:
                    yield unknown(("support", i, "stats", key), key, "stat", self.stats)
        yield from _duplicates("secrets", [sec.key for sec in sc.secrets], field="key")
        for i, sec in enumerate(sc.secrets):
            if sec.owner not in sides:
                yield unknown(("secrets", i, "owner"), sec.owner, "side", sides)

    # -------------------------------------------------------------------- forces

    def force_units(self, force: Any, side: str) -> tuple[Unit, ...]:
        return as_units(force.units, side)

    def force_points(self, force: Any) -> int | None:
        """A force's points, where the ruleset has points (None by default)."""
        return None

    def force_extras(self, force: Any) -> dict[str, Any]:
        """What a force file brings beside its pieces, as scenario fields."""
        return {}

    def check_force(self, force: Any, side: Side | None, sc: Any = None) -> list[Problem]:
        """A force on its own: its pieces against the vocabularies (its side's army, when
        fielded).  The checks that need both sides are the scenario's."""
        out = []
        if getattr(force, "ruleset", "") not in ("", self.ruleset_id):
            why = _("ruleset = {given}: this force is for another ruleset").format(given=repr(force.ruleset))
            out.append(Problem(("ruleset",), why))
        if side is not None and force.army and side.army and force.army != side.army:
            why = _("army = {army}: fielded on {side}, whose army is {theirs}").format(
                army=repr(force.army), side=side.id, theirs=repr(side.army)
            )
            out.append(Problem(("army",), why))
        side = side or Side(id="force", name="force", army=force.army)
        alone = self.schema(
            id="force", title="force", sides=(side,), units=self.force_units(force, side.id), **self.force_extras(force)
        )
        out += [p for p in self.check(alone) if p.path[:1] != ("sides",)]
        return out

    def merge_forces(self, sc: Any, fielded: list[Any]) -> tuple[Any, list[Problem]]:
        """The scenario with the forces' pieces (and extras) added; what clashes."""
        units = sc.units + tuple(u for f in fielded for u in f.units)
        extra_fields: dict[str, Any] = {}
        clashes: list[Problem] = []
        for f in fielded:
            for name, items in self.force_extras(f.force).items():
                have = {x.id: x for x in extra_fields.get(name, getattr(sc, name))}
                for x in items:
                    if x.id in have and have[x.id] != x:
                        why = _("force {file}: its {field} {id} differs from the scenario's").format(
                            file=f.file, field=name, id=repr(x.id)
                        )
                        clashes.append(Problem(("rosters", f.side), why))
                    have.setdefault(x.id, x)
                extra_fields[name] = tuple(have.values())
        return msgspec.structs.replace(sc, units=units, **extra_fields), clashes

    # ------------------------------------------------------------------- set-up

    def setup(self, ctx: Any, sc: Any) -> None:
        """The events that set the game up from ``sc`` (checked beforehand).  ``ctx`` is the
        ruleset's whole ``Context``, which a ruleset's own set-up may use (a deck shuffled);
        this shared one writes through its ``SetUpTable`` part only."""
        self.emit_table(ctx, sc)
        self.emit_facts(ctx, sc)

    def emit_table(self, ctx: SetUpTable, sc: BaseScenario) -> None:
        emit_table(ctx, table(sc, self.aboard_badge))
        for u in sc.units:
            if u.aboard and self.aboard_key:
                vis = (u.side,) if HIDDEN in u.status else ()
                ctx.emit(ev.VarSet(key=self.aboard_key.format(unit=u.id), value=u.aboard, vis=vis))

    def emit_facts(self, ctx: SetUpTable, sc: BaseScenario, *, turns: bool = True) -> None:
        """The scenario's rules, as the ``VarSet`` keys of docs/scenarios.md."""
        var = ctx.emit

        def put(key: str, value: int | str, vis: tuple[str, ...] = ()) -> None:
            var(ev.VarSet(key=key, value=value, vis=vis))

        if turns and sc.turns:
            put(self.turns_key, sc.turns)
        for key, value in self.night_facts(sc):
            put(key, value)
        if sc.visibility:
            put("visibility", sc.visibility)
        for o in sc.options:
            put(f"option.{o}", 1)
            var(ev.Noted(text=M("optional rule: {rule}", rule=self.options[o])))
        for rule in sc.special_rules:
            var(ev.Noted(text=M("special rule: {rule}", rule=rule)))
        v = sc.victory
        if v.summary:
            put(self.victory_key, v.summary)
        if v.objectives:
            put("victory.objectives", ",".join(v.objectives))
        if v.break_at:
            put(BREAK_AT, v.break_at)  # applied after every command (core.scenarios.breaking)
        if v.points:
            put("victory.points", v.points)
        for obj in sc.objectives:
            key = f"objective.{obj.id}"
            if obj.hidden:
                value = (
                    f"{obj.name}"
                    + (f": {obj.where}" if obj.where else "")
                    + (f" ({obj.points} points)" if obj.points else "")
                )
                var(ev.SecretSet(key=key, owner=obj.owner, value=value, vis=(obj.owner,)))
                continue
            put(key, obj.name + (f": {obj.where}" if obj.where else ""))
            if obj.points:
                put(f"{key}.points", obj.points)
            if obj.owner:
                put(f"{key}.owner", obj.owner)
        for s in sc.support:
            # What a side has off the table is its own business until it is used.
            key, vis = f"support.{s.id}", (s.side,)
            put(key, s.name, vis)
            put(f"{key}.side", s.side, vis)
            put(f"{key}.kind", s.kind, vis)
            put(f"{key}.count", s.count, vis)
            if s.weapon:
                put(f"{key}.weapon", s.weapon, vis)
            if s.ammo:
                put(f"{key}.ammo", s.ammo, vis)
            if s.cls:
                put(f"{key}.cls", s.cls, vis)
            for stat, value in s.stats.items():
                put(f"{key}.{stat}", value, vis)


def shown_texts(sc: BaseScenario) -> tuple[set[str], set[str]]:
    """(every text of ``sc`` a screen shows that a translation may give, those of them that
    are names: one line of at most ``NAME_MAX`` characters)."""
    names = {sc.title, *(s.name for s in sc.sides), *(u.name for u in sc.units), *(u.team for u in sc.units)}
    names |= {o.name for o in sc.objectives} | {s.name for s in sc.support}
    texts = {sc.description, sc.victory.summary, *sc.special_rules, *(o.where for o in sc.objectives)}
    return {t for t in names | texts if t}, {t for t in names if t}


def public_texts(sc: BaseScenario) -> set[str]:
    """The texts of ``sc`` every role sees, whose translations the game records for all: not a
    hidden piece's name or team, nor a hidden objective, nor the referee's special rules or
    support (a translation would tell a side of them)."""
    seen = [u for u in sc.units if HIDDEN not in u.status]
    out = {sc.title, sc.description, sc.victory.summary, *(s.name for s in sc.sides)}
    out |= {u.name for u in seen} | {u.team for u in seen}
    out |= {t for o in sc.objectives if not o.hidden for t in (o.name, o.where)}
    return {t for t in out if t}


def _check_translations(sc: BaseScenario) -> Iterator[Problem]:
    texts, names = shown_texts(sc)
    for language, said in sc.translations.items():
        at = ("translations", language)
        if language not in TRANSLATED_LANGUAGES:
            yield unknown(at, language, N_("language"), TRANSLATED_LANGUAGES)
            continue
        for text, words in said.items():
            if text not in texts:
                yield Problem(
                    (*at, text),
                    _("{key}: {text!r} is no text of this scenario (a title, a name, a description…)").format(
                        key=dotted(at), text=text[:NAME_MAX]
                    ),
                )
            elif text in names and (len(words) > NAME_MAX or "\n" in words):
                yield Problem(
                    (*at, text),
                    _("{key}: the words for {text!r} are a name's: one line of at most {limit} characters").format(
                        key=dotted(at), text=text, limit=NAME_MAX
                    ),
                )


class ScenarioSecret(msgspec.Struct, frozen=True):
    key: str
    owner: str
    value: str


class Scenario(msgspec.Struct, frozen=True):
    """The table a scenario sets: its sides, units and secrets, as they enter the game."""

    id: str
    title: str
    sides: tuple[ev.SideSpec, ...]
    units: tuple[ev.UnitSpec, ...]
    secrets: tuple[ScenarioSecret, ...] = ()
    description: str = ""
    #: The file's own words in other languages for what every role sees (``GameSetUp.words``).
    words: dict[str, dict[str, str]] = {}


def table(sc: BaseScenario, aboard_badge: str = "") -> Scenario:
    public = public_texts(sc)
    return Scenario(
        id=sc.id,
        title=sc.title,
        sides=tuple(ev.SideSpec(s.id, s.name, s.army) for s in sc.sides),
        units=tuple(unit_spec(u, aboard_badge) for u in sc.units),
        secrets=tuple(ScenarioSecret(s.key, s.owner, s.value) for s in sc.secrets),
        description=sc.description,
        words={language: {t: w for t, w in said.items() if t in public} for language, said in sc.translations.items()},
    )


def emit_table(ctx: SetUpTable, sc: Scenario) -> None:
    """The sides, the units (a hidden one seen by its side only) and the secrets."""
    if ctx.state.sides:
        raise Refused("the game is already set up", rule="ENG-7")
    ctx.emit(ev.GameSetUp(scenario=sc.title, sides=sc.sides, words=sc.words))
    for u in sc.units:
        ctx.emit(ev.UnitAdded(unit=u, vis=(u.side,) if HIDDEN in u.status else ()))
    for s in sc.secrets:
        ctx.emit(ev.SecretSet(key=s.key, owner=s.owner, value=s.value, vis=(s.owner,)))


def as_units(units: Any, side: str) -> tuple[Unit, ...]:
    """A force's pieces on ``side``."""
    return tuple(msgspec.convert(msgspec.to_builtins(u) | {"side": side}, Unit) for u in units)


def unit_spec(u: Unit, aboard_badge: str = "") -> ev.UnitSpec:
    """The piece as it enters the game (``aboard`` starts it ``in-vehicle``, and with
    the ruleset's ``aboard_badge``, e.g. ``aboard-{vehicle}``)."""
    aboard = (IN_VEHICLE, aboard_badge.format(vehicle=u.aboard)) if u.aboard else ()
    status = u.status + tuple(b for b in aboard if b and b not in u.status)
    return ev.UnitSpec(
        id=u.id,
        name=u.name,
        side=u.side,
        team=u.team,
        kind=u.kind,
        cls=u.cls,
        weapons=u.weapons,
        leadership=u.leadership,
        roles=u.roles,
        status=status,
        stats=dict(u.stats),
    )


def record_file(ctx: SetUpTable, file: str, text: str) -> None:
    """The file's text in the save, for the referee only (it holds every secret)."""
    ctx.emit(ev.ScenarioRead(file=file, text=text, vis=REFEREE_ONLY))


def unknown(path: tuple[str | int, ...], value: str, what: str, known: Iterable[str]) -> Problem:
    """``what`` is a noun marked with ``N_`` (or already in the reader's words)."""
    return Problem(
        path,
        _("{field} = {value}: unknown {what}{matches}").format(
            field=dotted(path), value=repr(value), what=_(what), matches=close_matches(value, known)
        ),
    )


def _duplicates(field_name: str, ids: list[str], field: str = "id") -> Iterator[Problem]:
    counts = Counter(ids)
    seen: set[str] = set()
    for i, name in enumerate(ids):
        if counts[name] > 1 and name in seen:
            why = _("{field} = {value}: used twice").format(field=f"{field_name}[{i}].{field}", value=repr(name))
            yield Problem((field_name, i, field), why)
        seen.add(name)
