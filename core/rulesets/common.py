"""Referee tools every ruleset shares, and scenario loading.

These commands record what happened at the table when the rules engine has
no specific command for it: a free roll, a status badge, a unit taken out, a
defeat-point entry.  They are referee-only: players act through their
ruleset's commands.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from core.commands import match_prefix
from core.language.i18n import N_, Domain, M, Msg, _, render
from core.log import events as ev
from core.ruleset import TYPING, CommandSpec, Context, Handler, Param, Refused
from core.scenarios.files import ScenarioError, decode_all, error_at, is_path, read_text, user_scenarios_dir
from core.scenarios.forces import Fielded, field_forces, remap
from core.scenarios.schema import Format, Scenario, ScenarioSecret, emit_table, record_file, table

__all__ = ["Scenario", "ScenarioSecret", "emit_table"]

#: Status badges the client knows how to draw; rulesets may add others.
STATUSES = ("hidden", "suppressed", "wounded", "down", "retreating", "pinned", "stabilised", "captured", "in-vehicle")


# -------------------------------------------------------------------- scenarios


class Loaded(NamedTuple):
    """A scenario file decoded and checked by its ruleset's format."""

    sc: Any
    text: str
    file: str
    builtin: bool = False
    #: The force files its ``rosters`` fielded: (file, text) each.
    forces: tuple[tuple[str, str], ...] = ()

    @property
    def id(self) -> str:
        return self.sc.id

    @property
    def title(self) -> str:
        return self.sc.title

    @property
    def description(self) -> str:
        return self.sc.description

    @property
    def sides(self) -> tuple:
        return self.sc.sides

    @property
    def units(self) -> tuple:
        """The pieces, with those its forces field."""
        return self.sc.units

    def table(self) -> Scenario:
        """The sides, units and secrets, as they enter the game."""
        return table(self.sc)


def parse_scenario(fmt: Format, text: str, file: str, *, builtin: bool = False) -> Loaded:
    """Decode and check a scenario's text, with the forces it fields (read from beside
    the file, the user's forces folder or the built-in ones); a ScenarioError lists
    every problem found."""
    sc, problems = decode_all(text, fmt.schema, file)
    if sc is None:
        raise error_at(file, text, *problems)
    # What the schema refused was left out of ``sc``: the rules check the rest.
    own, fielded = len(sc.units), list[Fielded]()
    if sc.rosters:
        try:
            sc, fielded, clashes = field_forces(fmt, sc, text, file, Path(file).parent)
        except ScenarioError as e:
            if e.file != file or not problems:
                raise  # a force file's own problems are said in its name
            found = sorted([*e.problems, *error_at(file, text, *problems).problems])
            raise ScenarioError(file, *found[0], more=found[1:]) from None
        problems += clashes
    problems += remap(fmt.check(sc), own, fielded)
    if not problems:  # with a part left out, a check of the whole would only echo it
        problems += remap(list(fmt.check_whole(sc)), own, fielded)
    if problems:
        raise error_at(file, text, *problems)
    return Loaded(sc, text, file, builtin, tuple((f.file, f.text) for f in fielded))


class BuiltinScenarios(Mapping[str, Loaded]):
    """The built-in scenarios of a ruleset, by id, each read when first asked for.

    A game opens its ruleset before its first frame, and needs only the ids
    then (the ``scenario`` command's choices): parsing every scenario and the
    forces it fields would add to every start.  A built-in scenario's id is
    its file's name (a broken one is a bug: it raises when read).
    """

    def __init__(self, fmt: Format, folder: Path) -> None:
        self.fmt = fmt
        self.paths = {path.stem: path for path in sorted(folder.glob("*.toml"))}
        self._loaded: dict[str, Loaded] = {}

    def __getitem__(self, scenario_id: str) -> Loaded:
        loaded = self._loaded.get(scenario_id)
        if loaded is None:
            path = self.paths[scenario_id]
            loaded = parse_scenario(self.fmt, path.read_text(encoding="utf-8"), str(path), builtin=True)
            if loaded.id != scenario_id:
                raise ValueError(f"{path}: a built-in scenario's id is its file's name, not {loaded.id!r}")
            self._loaded[scenario_id] = loaded
        return loaded

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def load_scenarios(fmt: Format, folder: Path) -> BuiltinScenarios:
    """The built-in scenarios of a ruleset, by id (read when first asked for)."""
    return BuiltinScenarios(fmt, folder)


def find_scenario(ruleset: Any, word: str) -> Loaded | Scenario:
    """``scenario WORD``: a file when the word has a ``/`` or ends in ``.toml``; else a
    built-in scenario by (a prefix of) its id, else a file of the user's scenario folder.
    A ruleset that reads no files (``scenario_format`` None) has its own scenarios only."""
    fmt: Format | None = ruleset.scenario_format
    builtins: Mapping[str, Loaded] = ruleset.scenarios
    if fmt is None:
        if is_path(word):
            raise Refused(_("{ruleset} reads no scenario files").format(ruleset=ruleset.shown_name()), rule="ENG-7")
        return builtins[match_prefix(word, list(builtins), _("scenario"))]
    if is_path(word):
        path = Path(word)
        return parse_scenario(fmt, read_text(path), str(path))
    try:
        return builtins[match_prefix(word, list(builtins), _("scenario"))]
    except Refused:
        own = user_scenarios_dir(fmt.ruleset_id) / f"{word}.toml"
        if own.is_file():
            return parse_scenario(fmt, read_text(own), str(own))
        raise


def emit_scenario(ctx: Context, word: str) -> Loaded | Scenario:
    """``scenario WORD``: set the game up from a built-in scenario or a file (whose
    text is kept in the save, so the game replays without it).  A ruleset may also
    keep a ready table (a :class:`Scenario`) among its scenarios: it is set up as is."""
    if ctx.state.sides:
        raise Refused(_("the game is already set up"), rule="ENG-7")
    loaded = find_scenario(ctx.ruleset, word)
    if isinstance(loaded, Scenario):
        emit_table(ctx, loaded)
        return loaded
    fmt = ctx.ruleset.scenario_format
    assert fmt is not None, "a scenario file was found for a ruleset that reads none"  # (find_scenario's)
    fmt.setup(ctx, loaded.sc)
    if not loaded.builtin:
        record_file(ctx, loaded.file, loaded.text)
    for file, text in loaded.forces:
        record_file(ctx, file, text)
    return loaded


def scenario_command(
    scenarios: Mapping[str, Loaded],
    handler: Handler,
    *,
    help: str = "Set up a built-in scenario, or one from a file (a word with / or ending in .toml).",
    rolls: bool = False,
    dice: tuple[str, ...] = (),
) -> CommandSpec:
    """The ``scenario NAME|PATH`` command of a ruleset, whose ``handler`` sets the game up.

    Its text is public: it names a scenario or a file, never a secret, even though
    the set-up it makes holds secrets.
    """
    return CommandSpec(
        "scenario",
        help,
        handler,
        params=(Param("name", "text", "a built-in scenario, or a file path", choices=tuple(scenarios)),),
        phases=("setup",),
        who="referee",
        examples=(*(f"scenario {name}" for name in scenarios), "scenario ~/scenarios/ambush.toml"),
        rolls=rolls,
        dice=dice,
        public_text=True,
    )


# ------------------------------------------------------------------ free commands


#: A free roll: at most this many dice, of 2 to this many sides.
MAX_DICE, MAX_SIDES = 50, 100
#: The most defeat points one ``dp`` adds or removes (a referee's ruling, far
#: beyond any game's total).
DP_MOST = 999
_DICE = re.compile(r"([0-9]{0,4})d([0-9]{1,4})", re.IGNORECASE)


#: The ``roll`` command's one step of dice (``CommandSpec.dice``).
ROLL = "the roll: the dice named, each judged against target= or under= if given"


def _roll(ctx: Context, args: dict[str, Any]) -> None:

    m = _DICE.fullmatch(args["dice_spec"])
    if not m:
        raise Refused(_("write dice as NdS, e.g. 2d6"), rule=TYPING)
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        raise Refused(
            _("between 1 and {most} dice of 2 to {sides} sides").format(most=MAX_DICE, sides=MAX_SIDES), rule=TYPING
        )
    if args["target"] is not None and args["under"] is not None:
        raise Refused(_("a roll needs target= (at least) or under= (at most), not both"), rule=TYPING)
    under = args["under"] is not None
    target = args["under"] if under else args["target"]
    purpose = args["purpose"] or M("free roll")

    def outcome(faces: tuple[int, ...]) -> Msg | str:
        if target is None:
            return M("total {total}", total=sum(faces)) if count > 1 else ""
        # Each die is judged on its own, as a quality check per die (Bassa Intensità's d10s).
        hits = sum((f <= target) if under else (f >= target) for f in faces)
        return M("{hits} success", hits=hits) if hits == 1 else M("{hits} successes", hits=hits)

    if target is None:
        check: ev.Check = ev.Read()
    elif count == 1:
        check = ev.AtLeast(face=target, under=under)  # one die: it passes or fails
    else:
        check = ev.Each(face=target, under=under)
    ctx.roll(purpose, count, sides=sides, target=target, under=under, outcome=outcome, check=check, step=ROLL)


def _term(ctx: Context, status: str) -> str:
    """A status as the reader calls it: the ruleset's word for it (its catalogue, then the core's)."""
    return Domain(ctx.ruleset.domain).term(status)


def _mark(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    status = args["status"]
    if status in u.status:
        raise Refused(_("{unit} is already {status}").format(unit=u.name, status=_term(ctx, status)), rule="ENG-7")
    ctx.emit(ev.StatusChanged(unit=u.id, add=(status,)))


def _clear(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    status = args["status"]
    if status not in u.status:
        raise Refused(_("{unit} is not {status}").format(unit=u.name, status=_term(ctx, status)), rule="ENG-7")
    ctx.emit(ev.StatusChanged(unit=u.id, remove=(status,)))


def _out(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    if u.out:
        cause = render(u.out, ctx.ruleset.domain)
        raise Refused(_("{unit} is already out of action ({cause})").format(unit=u.name, cause=cause), rule="ENG-7")
    # A plain string while the state keeps a unit's cause as one (``Unit.out``), which
    # rulesets read back (Breaking News's ``hits.parse_cause``); shown translated.
    ctx.emit(ev.UnitOut(unit=u.id, cause=args["cause"] or N_("removed by the referee")))


def _back(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    if not u.out:
        raise Refused(_("{unit} is in play").format(unit=u.name), rule="ENG-7")
    ctx.emit(ev.UnitBack(unit=u.id))


def _dp(ctx: Context, args: dict[str, Any]) -> None:
    points = args["points"]
    if points == 0:
        raise Refused(_("0 defeat points changes nothing"), rule="ENG-7")
    reason = args["reason"] or M("referee's ruling")
    ctx.emit(ev.DefeatPoints(side=args["side"], points=points, reason=reason))


def _reveal(ctx: Context, args: dict[str, Any]) -> None:
    key = args["key"]
    secret = ctx.state.secrets.get(key)
    if secret is None:
        known = ", ".join(sorted(ctx.state.secrets)) or _("none")
        raise Refused(_("no secret {key} (known: {known})").format(key=repr(key), known=known), rule=TYPING)
    if secret.revealed:
        raise Refused(_("{key} is already revealed").format(key=key), rule="ENG-7")
    ctx.emit(ev.Revealed(key=key, value=secret.value))


REFEREE_TOOLS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "roll",
        "Roll free dice and log them (for anything the rules engine has no command for).",
        _roll,
        params=(
            Param("dice_spec", "text", "dice as NdS, e.g. 2d6"),
            Param("target", "int", "count dice at or above this", optional=True, keyword=True, lo=1, hi=MAX_SIDES),
            Param(
                "under",
                "int",
                "count dice at or below this (roll-under checks)",
                optional=True,
                keyword=True,
                lo=1,
                hi=MAX_SIDES,
            ),
            Param("purpose", "text", "what the roll is for", optional=True, keyword=True, prose=True),
        ),
        examples=("roll 2d6", "roll 3d6 target=4 purpose=smoke", "roll 1d10 under=7 purpose=quality"),
        who="referee",
        rolls=True,
        dice=(ROLL,),
    ),
    CommandSpec(
        "mark",
        "Give a unit a status badge.",
        _mark,
        params=(Param("unit", "unit"), Param("status", "choice", choices=STATUSES)),
        examples=("mark ahmed suppressed",),
        who="referee",
    ),
    CommandSpec(
        "clear",
        "Remove a status badge from a unit.",
        _clear,
        params=(Param("unit", "unit"), Param("status", "choice", choices=STATUSES)),
        examples=("clear ahmed suppressed",),
        who="referee",
    ),
    CommandSpec(
        "out",
        "Take a unit out of action.",
        _out,
        params=(Param("unit", "unit"), Param("cause", "text", optional=True, prose=True)),
        examples=("out ahmed fled the table",),
        who="referee",
    ),
    CommandSpec(
        "back",
        "Bring a unit back into action.",
        _back,
        params=(Param("unit", "unit"),),
        who="referee",
    ),
    CommandSpec(
        "dp",
        "Add (or with a negative number, remove) defeat points.",
        _dp,
        params=(
            Param("side", "side"),
            Param("points", "int", "defeat points, negative to remove", lo=-DP_MOST, hi=DP_MOST),
            Param("reason", "text", optional=True, prose=True),
        ),
        examples=("dp regulars 5 building damaged",),
        who="referee",
    ),
    CommandSpec(
        "reveal",
        "Make a secret public (an objective marker, an IED).",
        _reveal,
        params=(Param("key", "text", secret_key=True),),
        examples=("reveal marker.3",),
        who="referee",
    ),
)


#: What a game whose scenario's conditions decide it says to ``dp`` (``CommandSpec.lacks`` of
#: the command that ends it): its book scores no defeat points (#61).
NO_DEFEAT_POINTS = (
    "dp",
    N_("this game scores no defeat points: the scenario's conditions decide who wins ({command})"),
)


def referee_tools(unit: str) -> tuple[CommandSpec, ...]:
    """:data:`REFEREE_TOOLS` of a game that scores no defeat points (no ``dp``: see
    :data:`NO_DEFEAT_POINTS`), with the examples of those that name a piece naming ``unit``
    of the ruleset's demo: a player types an example into the demo as help shows it, and
    one naming Breaking News' ``ahmed`` in another game is refused (#61; ruling HELP-EXAMPLES)."""
    named = {
        "mark": f"mark {unit} suppressed",
        "clear": f"clear {unit} suppressed",
        "out": f"out {unit} fled the table",
    }
    return tuple(
        msgspec.structs.replace(spec, examples=(named[spec.name],)) if spec.name in named else spec
        for spec in REFEREE_TOOLS
        if spec.name != "dp"
    )
