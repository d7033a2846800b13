"""Events in plain words, one line each, for the log pane and ``fireteam log``.

Every sentence is one whole template in the ``fireteam`` catalogue, its names
and numbers filled in (``{unit} moves {cm} cm``), so a language puts them in
its own order ("Tiro salvezza di Sgt Rossi", not "Sgt Rossi's"). What an event
says in words (a roll's purpose, a cause) is rendered from the ruleset's
domain; statuses, phases and cards are ids, shown as the ruleset's terms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import msgspec

from core.language.i18n import CORE_DOMAIN, Domain, M, Msg, Names, Text, _, naming, ngettext, render, scenario_words
from core.language.numerals import decimal
from core.log import events as ev
from core.log.ending import result_said
from core.log.state import DICE_KEY, HIDDEN, SEALED_ORDERS, TABLE_DICE, GameState, Side, Unit
from core.log.views import REFEREE, UNSEEN
from core.secrets.commitments import matches


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def possessive(name: str) -> str:
    """``Sgt Rossi`` → ``Sgt Rossi's``; ``regulars`` → ``regulars'`` (English only:
    a sentence for a catalogue says whose with a template, see :func:`whose`)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def whose(owner: str, thing: str) -> str:
    """``Sgt Rossi's save`` in English, ``tiro salvezza di Sgt Rossi`` in Italian."""
    if owner == UNSEEN:
        owner = _(UNSEEN)
    if owner.endswith("s"):
        # TRANSLATORS: an owner whose name ends in s (English writes "regulars' roll").
        return _("{owner}' {thing}").format(owner=owner, thing=thing)
    return _("{owner}'s {thing}").format(owner=owner, thing=thing)


def describe_mod(m: ev.Mod, domain: str = CORE_DOMAIN) -> str:
    """``cover -1``; a modifier that only notes something (its value 0) is its label alone."""
    label = render(m.label, domain)
    return f"{label} {_signed(m.value)}" if m.value else label


def describe_need(target: int, under: bool, total: bool) -> str:
    """What a roll needs: ``needing 4+``, ``needing 9+ total``, ``needing 3 or less``."""
    if under and total:
        said = _("needing {target} or less total")
    elif under:
        said = _("needing {target} or less")
    elif total:
        said = _("needing {target}+ total")
    else:
        said = _("needing {target}+")
    return said.format(target=target)


def check_need(check: ev.Check | None, dice: int) -> str:
    """What a roll's check asks of its bare dice (``core.log.events.Check``), the same for the
    log, the table-dice prompt and the report: ``2+``, ``5+ on every die``, ``4+ per die``,
    ``4+ on at least 2 dice``, ``9+ total``, ``3 or less``; "" for a check that needs no
    number (an opposed roll, one read off a table) or none at all."""
    return render(need_said(check, dice))


def need_said(check: ev.Check | None, dice: int) -> Msg | str:
    """:func:`check_need` as a message, for a fact to hold and each reader to render
    (``core.dice.handler.certain_said``'s note of a roll the game drew)."""
    if isinstance(check, ev.Sum):
        if check.under:
            return M("{target} or less total", target=check.total)
        return M("{target}+ total", target=check.total)
    if not isinstance(check, ev.AtLeast | ev.All | ev.Each):
        return ""
    face: Msg | str = M("{target} or less", target=check.face) if check.under else f"{check.face}+"
    if dice <= 1:
        return face
    if isinstance(check, ev.Each):
        return M("{need} per die", need=face)
    if isinstance(check, ev.All) or check.need >= dice:
        return M("{need} on every die", need=face)
    if check.need > 1:
        return M("{need} on at least {k} dice", need=face, k=check.need)
    return M("{need} on at least one die", need=face)


def check_base(check: ev.Check | None) -> str:
    """The book's number before the modifiers, where the check records one that they
    moved (``base 3+``: a Breaking News save whose +1 moved the die to 2+); else ""."""
    base = getattr(check, "base", None)
    if base is None or base == getattr(check, "face", getattr(check, "total", None)):
        return ""
    number = _("{target} or less").format(target=base) if check.under else f"{base}+"  # type: ignore[union-attr]
    return _("base {number}").format(number=number)


def describe_roll(r: ev.Roll, domain: str = CORE_DOMAIN) -> str:
    """``save: 1d6 needing 3+: 4 → saved``."""
    return f"{render(r.purpose, domain)}: {roll_details(r, domain)}"


def roll_details(r: ev.Roll, domain: str = CORE_DOMAIN) -> str:
    """A roll without its purpose: ``1d6 needing 2+ (base 3+, team leader +1): 3 → saved``.

    What it needed is what its check says the bare dice had to show (the prompt
    and the dice pane say the same); a roll from a save made before checks says
    the target it recorded."""
    faces = " ".join(str(f) for f in r.faces)
    dice = f"{len(r.faces)}d{r.sides}"
    if r.check is not None:
        needed = check_need(r.check, len(r.faces))
        need = " " + _("needing {need}").format(need=needed) if needed else ""
    else:
        need = f" {describe_need(r.target, r.under, r.total)}" if r.target is not None else ""
    said = [check_base(r.check)] if r.check is not None and check_base(r.check) else []
    said += [describe_mod(m, domain) for m in r.mods]
    mods = " (" + ", ".join(said) + ")" if said else ""
    total = ""
    if r.total and len(r.faces) > 1:
        # A score (no target for the modifiers to move) is its dice plus its modifiers
        # (Breaking News §5.0's initiative: 2d6 + leadership + quality; Linea di Tiro's
        # modified AT total, LT-AMB-15): the sum shown adds them, as the dice pane does (#61).
        added = [m.value for m in r.mods if m.value] if r.target is None else []
        total = "".join(f" {_signed(v)}" for v in added) + f" = {sum(r.faces) + sum(added)}"
    manual = " " + _("[table dice]") if r.manual else ""
    outcome = f" → {render(r.outcome, domain)}" if r.outcome else ""
    return f"{dice}{need}{mods}: {faces}{total}{outcome}{manual}"


def describe(
    e: ev.Event,
    units: Mapping[str, Unit] | None = None,
    describe_var: Callable[[str, int | str], str | None] | None = None,
    number: Callable[[int], int | None] | None = None,
    domain: str = CORE_DOMAIN,
    localize: Callable[[str], str] | None = None,
    sides: Mapping[str, str] | None = None,
    class_name: Callable[[str], str] | None = None,
    status: Callable[[str], str] | None = None,
    note: Callable[[Text], Text] | None = None,
    command_text: Callable[[int], str] | None = None,
    describe_secret: Callable[[str, int | str], str | None] | None = None,
    words: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """``describe_var`` lets a ruleset put its own counters in words (None: the default);
    ``number`` gives the number a command is shown by (``core.log.numbering``; None: the file's);
    ``domain`` is the catalogue of the ruleset's words (``Ruleset.domain``); ``localize``
    shows a command's recorded line in the reader's names (``core.commands.localize_line``);
    ``sides`` names the sides by id, ``class_name`` a piece's class (``Ruleset.class_name``),
    ``status`` a status (``Ruleset.status_words``; None: the catalogue's term), ``note`` a
    note (``Ruleset.note_for_a_side`` for a side, ``note_for_the_referee`` for the referee;
    None: as recorded), ``command_text`` the recorded line of a command by its number, which
    an undo or a redo names, ``describe_secret`` a secret opened where it says more than its
    ``describe_var`` (``Ruleset.describe_secret``).  Every message is
    rendered with those names (``core.language.i18n.naming``): a side a rule recorded by
    its id reads as its name, in its words and in the ruleset's phrases alike."""
    with naming(Names(sides or {}, _ByName(units or {}), words or {})):  # words: the scenario file's own
        narrator = _Narrator(
            units,
            describe_var,
            number,
            domain,
            localize,
            sides,
            class_name,
            status,
            note,
            command_text,
            describe_secret,
        )
        return narrator.say(e)


class _Narrator(msgspec.Struct, frozen=True):
    """An event put in words, with what ``describe`` was given to name things by."""

    units: Mapping[str, Unit] | None
    describe_var: Callable[[str, int | str], str | None] | None
    number: Callable[[int], int | None] | None
    domain: str
    localize: Callable[[str], str] | None
    sides: Mapping[str, str] | None
    class_name: Callable[[str], str] | None
    status: Callable[[str], str] | None
    note: Callable[[Text], Text] | None
    command_text: Callable[[int], str] | None = None
    describe_secret: Callable[[str, int | str], str | None] | None = None

    def say(self, e: ev.Event) -> str:
        for kind in (self.command, self.table_fact, self.secret_or_note):
            said = kind(e)
            if said is not None:
                return said
        return type(e).__name__

    def words(self, text: Text) -> str:
        return render(text, self.domain)

    def shown(self, cmd: int) -> int | None:
        return cmd if self.number is None else self.number(cmd)

    def side_named(self, sid: str) -> str:
        """A side by its name, a built-in scenario's in the reader's language."""
        return scenario_words(self.side(sid))

    def side(self, sid: str) -> str:
        # a commitment of both sides reads "irregulars+regulars": each by its name; who
        # gave a command is a side (by its name), or the referee (in the reader's word)
        if not self.sides:
            return sid
        return "+".join(self.sides.get(one, _("referee") if one == REFEREE else one) for one in sid.split("+"))

    def giver(self, seat: str) -> str:
        """Who typed a roll's faces for another: a side by its name, the referee in the reader's
        words, a seat of a served table by its name."""
        if seat == REFEREE:
            return _("the referee")
        return self.sides.get(seat, seat) if self.sides else seat

    def secret(self, key: str, value: int | str) -> str | None:
        """What a secret was, in the ruleset's words for its key (the same as a
        ``VarSet`` of it reads); None where the ruleset has none."""
        if key.startswith(SEALED_ORDERS):
            side, _dot, n = key.removeprefix(SEALED_ORDERS).rpartition(".")
            said = _("{side}'s sealed order {n}: {text}")
            return said.format(side=self.side(side), n=n, text=self.words(str(value)))
        if self.describe_var is None or key.startswith("unit."):
            return None
        opened = self.describe_secret(key, value) if self.describe_secret is not None else None
        return opened if opened is not None else self.describe_var(key, value)

    def name(self, uid: str) -> str:
        if self.units and uid in self.units:
            return scenario_words(self.units[uid].name)  # a piece named in words, in the reader's language
        return uid

    def command(self, e: ev.Event) -> str | None:
        """A command given, undone or redone."""
        match e:
            case ev.Issued():
                line = f"» {self.side(e.by)}: {self.line(e.text)}"
                if e.carries:
                    line += "  " + _("(again after an undo: #{cmd})").format(cmd=self.shown(e.carries))
                return line
            case ev.Undone() | ev.Redone():
                # Named, not only numbered, for a seat that hears it (#61). The marker has the
                # audience of the command it names, so whoever reads it may read that command.
                assert self.command_text is not None, "an undo names its command: Game.describe gives the lines"
                who, cmd, text = self.side(e.by), self.shown(e.cmd), self.line(self.command_text(e.cmd))
                if type(e) is ev.Undone:
                    return "↶ " + _("{who} undid command #{cmd}: {command}").format(who=who, cmd=cmd, command=text)
                return "↷ " + _("{who} redid command #{cmd}: {command}").format(who=who, cmd=cmd, command=text)
        return None

    def line(self, text: str) -> str:
        """A command's recorded line in the reader's names."""
        return self.localize(text) if self.localize else text

    def table_fact(self, e: ev.Event) -> str | None:
        """What happened on the table: the set-up, a phase, a roll, a piece's move or state, points."""
        name, words = self.name, self.words
        match e:
            case ev.GameSetUp():
                # TRANSLATORS: between the sides of a game: "Bersaglieri vs Somali militia".
                vs = _("vs")
                both = f" {vs} ".join(scenario_words(s.name) for s in e.sides)
                return _("Scenario {scenario}: {sides}").format(scenario=scenario_words(e.scenario), sides=both)
            case ev.UnitAdded():
                side_name = self.sides.get(e.unit.side, e.unit.side) if self.sides else e.unit.side
                cls = self.class_name(e.unit.cls) if self.class_name and e.unit.cls else e.unit.cls
                return _unit_added(e.unit, side_name, cls, Domain(self.domain))
            case ev.PhaseBegan():
                return _phase_began(e, Domain(self.domain), self.side(e.active))
            case ev.Rolled():
                owner = name(e.unit) if e.unit else self.side(e.side) if e.side else ""
                if not owner:
                    said = describe_roll(e.roll, self.domain)
                else:
                    said = f"{whose(owner, words(e.roll.purpose))}: {roll_details(e.roll, self.domain)}"
                if e.given_by:  # typed at another seat than the command's (issue #74)
                    return _("{giver} gave {roll}").format(giver=self.giver(e.given_by), roll=said)
                return said
            case ev.Moved():
                cm = decimal(e.cm)
                if e.how:
                    return _("{unit} moves {cm} cm ({how})").format(unit=name(e.unit), cm=cm, how=words(e.how))
                return _("{unit} moves {cm} cm").format(unit=name(e.unit), cm=cm)
            case ev.StatusChanged():
                term = self.status or Domain(self.domain).term
                parts = [_("now {status}").format(status=term(s)) for s in e.add]
                parts += [_("no longer {status}").format(status=term(s)) for s in e.remove]
                return f"{name(e.unit)} " + ", ".join(parts)
            case ev.MarkerPlaced():
                return _("{unit} is under the marker {label}").format(unit=name(e.unit), label=e.label)
            case ev.Spotted():
                return _("{unit} spotted by {side}").format(unit=name(e.unit), side=self.side(e.by_side))
            case ev.UnitOut():
                return _("{unit} out of action: {cause}").format(unit=name(e.unit), cause=words(e.cause))
            case ev.UnitBack():
                return _("{unit} back in action").format(unit=name(e.unit))
            case ev.DefeatPoints():
                # Points *to* a side, with no verb to agree with its name ("Bersaglieri" is
                # plural, "Somali militia" one body): defeat points are a side's cost.
                said = ngettext(
                    "{points} defeat point to {side}: {reason}",
                    "{points} defeat points to {side}: {reason}",
                    e.points,
                )
                return said.format(side=self.side(e.side), points=e.points, reason=words(e.reason))
        return None

    def secret_or_note(self, e: ev.Event) -> str | None:
        """A secret set, revealed, opened or committed; a counter; a note; the scenario file; the end."""
        side = self.side
        match e:
            case ev.SecretSet():
                what = self.secret(e.key, e.value)
                if what:
                    return _("secret for {owner}: {what}").format(owner=side(e.owner), what=what)
                return _("secret for {owner}: {key} = {value}").format(owner=side(e.owner), key=e.key, value=e.value)
            case ev.Revealed():
                what = self.secret(e.key, e.value)
                if what:
                    said = _("revealed: {what}").format(what=what)
                elif e.value:
                    said = _("revealed: {key} = {value}").format(key=e.key, value=e.value)
                else:
                    said = _("revealed: {key}").format(key=e.key)
                return said + _proof(e) if e.salt else said
            case ev.Opened():
                what = self.secret(e.key, e.value)
                if what and e.replaced:  # an earlier value: not the secret as it ended (that one is revealed)
                    said = _("opened at the end: {what}, since replaced").format(what=what)
                else:
                    said = _("opened at the end: {what}").format(what=what) if what else _opened(e, side)
                return said + _proof(e)
            case ev.Committed() if e.owner == REFEREE:  # a role, not a side's name: Italian says "dell'arbitro"
                return _("commitment to a secret of the referee: {digest}").format(digest=e.digest[:16])
            case ev.Committed():
                said = _("commitment to a secret of {owner}: {digest}")
                return said.format(owner=side(e.owner), digest=e.digest[:16])
            case ev.VarSet() if e.key == DICE_KEY:
                # The key itself is not put in words: a screen at the table shows the referee's log.
                return _("the dice are sealed: a new key, committed below and opened at the end")
            case ev.VarSet() if e.key == TABLE_DICE:
                if e.value == "on":
                    return _("table dice on: each player is asked for the faces of his own rolls")
                return _("table dice off: the game rolls its own dice")
            case ev.VarSet():
                described = self.describe_var(e.key, e.value) if self.describe_var is not None else None
                value = scenario_words(e.value) if isinstance(e.value, str) else e.value  # a victory's words
                return described or f"{e.key} = {value}"
            case ev.Noted():
                return _("note: {text}").format(text=self.words(self.note(e.text) if self.note else e.text))
            case ev.ScenarioRead():
                n = len(e.text)
                said = ngettext(
                    "scenario file {file} recorded ({n} character)", "scenario file {file} recorded ({n} characters)", n
                )
                return said.format(file=e.file, n=n)
            case ev.GameEnded():
                said = result_said(self.words(e.result), e.winner, e.draw, e.scores, self.side_named)
                return _("Game over: {result}").format(result=said)
            case ev.Seated():
                for_side = self.side(e.side)
                if e.key:
                    sits = _("{name} sits for {side}, by the SSH key {key}")
                elif e.via == "invitation":
                    sits = _("{name} sits for {side}, by an invitation")
                else:
                    sits = _("{name} plays {side}")
                return sits.format(name=e.name, side=for_side, key=e.key)
            case ev.Confirmed():
                said = _("{name} confirms the result for {side} (the certificate {digest})")
                return said.format(name=e.name, side=self.side(e.side), digest=e.result[:16])
        return None


class _ByName(Mapping[str, str]):
    """The names of a game's sides or pieces by id, read as they are now: a built-in
    scenario's piece named in words in the reader's language (ruling I18N-SCENARIO)."""

    __slots__ = ("_things",)

    def __init__(self, things: Mapping[str, Side | Unit]) -> None:
        self._things = things

    def __getitem__(self, key: str) -> str:
        return scenario_words(self._things[key].name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._things)

    def __len__(self) -> int:
        return len(self._things)


class _SidesByName(_ByName):
    """The names of a game's sides, a built-in scenario's in the reader's language."""

    __slots__ = ()

    def __getitem__(self, key: str) -> str:
        return scenario_words(self._things[key].name)


class _WordsOf(Mapping[str, Mapping[str, str]]):
    """A game's own words in other languages (``GameSetUp.words``) as they are now: a report
    names from its first event, before the set-up that brings them (``core.report.facts``)."""

    __slots__ = ("_state",)

    def __init__(self, state: GameState) -> None:
        self._state = state

    def __getitem__(self, key: str) -> Mapping[str, str]:
        return self._state.words[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._state.words)

    def __len__(self) -> int:
        return len(self._state.words)


def names_of(state: GameState) -> Names:
    """What ``state``'s game calls its sides and pieces, for :func:`core.language.i18n.naming`,
    read as they are now (the state may be the one an account folds event by event)."""
    return Names(_SidesByName(state.sides), _ByName(state.units), _WordsOf(state))


def sides_of(state: GameState) -> Names:
    """The sides' names alone, which every role may read: what a client's panes keep to
    render the words of events (a side's seat holds nothing of the pieces it may not see)."""
    return Names(_SidesByName(state.sides), words=state.words)


def result_of(state: GameState, domain: str, *, brief: bool = False) -> str:
    """A game's result as every reader is told it (``core.log.ending``): who won and each side's
    score from the end's data, then its words in ``domain`` (``brief``: the data alone, for a
    list of games, where there is any); "" while the game goes on."""
    if not state.result:
        return ""
    with naming(sides_of(state)):
        words = render(state.result, domain)
    names = sides_of(state).sides
    known = brief and (state.winner or state.draw)
    return result_said("" if known else words, state.winner, state.draw, state.scores, names.__getitem__)


def _unit_added(u: ev.UnitSpec, side: str, cls: str, book: Domain) -> str:
    """The piece joins its side (by name) with its class (in the book's word)."""
    if cls:
        said = _("{unit} joins {side} {cls}").format(unit=scenario_words(u.name), side=side, cls=cls)
    else:
        said = _("{unit} joins {side}").format(unit=scenario_words(u.name), side=side)
    if u.weapons:
        said += " " + _("with {weapons}").format(weapons=", ".join(book.term(w) for w in u.weapons))
    if HIDDEN in u.status:
        said += " " + _("(hidden)")
    return said


def _phase_began(e: ev.PhaseBegan, book: Domain, active: str) -> str:
    card = book.term(e.card) if e.card else ""
    fields = {"turn": e.turn, "phase": book.pgettext("phase", e.phase), "side": active, "card": card}
    if e.active and e.card:
        said = _("Turn {turn}: {phase}, {side} active, card {card}")
    elif e.active:
        said = _("Turn {turn}: {phase}, {side} active")
    elif e.card:
        said = _("Turn {turn}: {phase}, card {card}")
    else:
        said = _("Turn {turn}: {phase}")
    return said.format(**fields)


def _opened(e: ev.Opened, side: Callable[[str], str]) -> str:
    """A hidden piece opened at the end reads as the piece, not as the JSON its secret is."""
    if e.key.startswith("unit.") and isinstance(e.value, str):
        try:
            unit = msgspec.json.decode(e.value, type=ev.UnitSpec)
        except msgspec.MsgspecError:
            pass  # not a piece after all (a hostile or older save): shown as it is
        else:
            return _("opened at the end: {name} of {side} was a hidden piece").format(
                name=scenario_words(unit.name), side=side(unit.side)
            )
    if e.replaced:
        return _("opened at the end: {key} = {value}, since replaced").format(key=e.key, value=e.value)
    return _("opened at the end: {key} = {value}").format(key=e.key, value=e.value)


def _proof(e: ev.Revealed | ev.Opened) -> str:
    if matches(e):
        return " " + _("(matches its commitment {digest})").format(digest=e.digest[:16])
    return " " + _("(DOES NOT MATCH its commitment {digest})").format(digest=e.digest[:16])


def scenario_fact(state: GameState, key: str, value: int | str) -> str | None:
    """A scenario's rule that ``core.scenarios.schema.Format.emit_facts`` records under a key of docs/scenarios.md,
    in the reader's words (the game's length, night, visibility, victory, an objective, the
    support a side has off the table), where its ruleset has no words of its own; None for
    the rest (a support's side, kind and count, which its name already says).  A fact with
    words stays in the referee's log's view (``Reading.inner``).  Here, not beside ``emit_facts``:
    a log is drawn without the scenario schema's import (a client's start)."""
    head, _dot, rest = key.partition(".")
    item, _dot, field = rest.partition(".")
    words = scenario_words(value) if isinstance(value, str) else value
    match head, item, field:
        case "turns", "", "":
            return _("the game lasts {n} turns").format(n=value) if value else _("no turn limit")
        case "night", "", "":
            return _("the game is played at night") if value else _("the game is played by day")
        case "visibility", "", "":
            return _("visibility: {cm} cm").format(cm=value)
        case "victory", "", "":
            return _("victory: {summary}").format(summary=words)
        case "victory", "objectives", "":
            return _("the objectives that decide the game: {ids}").format(ids=value)
        case "victory", "break_at", "":
            return _("a side that loses {n}% of its pieces loses the game").format(n=value)
        case "victory", "points", "":
            return _("a side needs {n} objective points to win").format(n=value)
        case "objective", _, "":
            return _("objective {id}: {what}").format(id=item, what=words)
        case "objective", _, "points":
            return _("objective {id} is worth {n} points").format(id=item, n=value)
        case "objective", _, "owner":
            side = state.sides.get(str(value))
            owner = scenario_words(side.name) if side else value
            return _("objective {id} belongs to {side}").format(id=item, side=owner)
        case "support", _, "":
            return _("off-table support: {name}").format(name=words)
    return None
