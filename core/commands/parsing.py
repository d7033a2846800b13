"""A line parsed against what the issuer may see: :class:`Parsed`, and :func:`parse` in named steps."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from core.commands.naming import fold, fold_name, former_namer, local_name, local_namer, spec_domain, usage
from core.commands.pieces import (
    UNIT_KINDS,
    find_side,
    find_team,
    is_team_name,
    rest_of_name,
    side_names,
    team_members_named,
    team_names,
    units_named,
)
from core.commands.values import check_line, recorded_as, value_of
from core.commands.verbs import commands_about, commands_now, match_verb
from core.commands.words import Meant, Word, asking, match_word, near_names, or_list, quoted, spliced, words_of
from core.dice.faces import parse_faces
from core.language.i18n import CORE_DOMAIN, _, scenario_words, translations
from core.language.reader import SOURCE, lang
from core.log.state import GameState
from core.log.views import REFEREE, marker_unit, unit_visible
from core.refusal import TYPING
from core.ruleset import CommandSpec, Param, Refused

DICE_KEYS = ("dice", "d")
#: The line's answers to the command's questions (``core.log.questions``), comma-separated.
ANSWERS_KEY = "answers"
#: The most of a line's rest a refusal repeats (a hostile line may be long).
_REST_SHOWN = 40


class Parsed(msgspec.Struct):
    spec: CommandSpec
    args: dict[str, Any]
    faces: list[int] | None = None
    #: The answers given on the line (``answers=heavy,none``), before any the table gives.
    answers: list[str] | None = None
    #: The line as recorded (``Issued.text``): as typed, but for the words typed in
    #: the reader's language, which are given their English names (``25,5`` its ``25.5``).
    text: str = ""
    units: list[str] = msgspec.field(default_factory=list)
    #: The units named by their marker's label, not their name.
    by_marker: set[str] = msgspec.field(default_factory=set)
    #: The English name or alias the command was called by (``end-game`` for ``victory``):
    #: what a refusal of it names, as the referee typed it.
    verb: str = ""
    #: The language it was read in, "" for English (the source): names of units and sides stay
    #: as typed in ``text``, so the line is read again in it (``Issued.lang``, docs/secrets.md).
    lang: str = ""


def parse(
    text: str,
    specs: list[CommandSpec],
    state: GameState,
    role: str,
    domain: str = CORE_DOMAIN,
    phase_commands: Sequence[str] = (),
) -> Parsed:
    """``text`` as a command of ``specs`` (named in ``domain``'s catalogue, a
    ruleset's, for a reader of another language than English) given by ``role``
    (``phase_commands``: the phase's main commands, as :func:`complete` takes them)."""
    check_line(text)
    given = words_of(text)
    if not given:
        raise Refused(_("empty command"), rule=TYPING)
    try:
        line = _LineParse(text, given[0], specs, state, role, domain, phase_commands)
        line.read_words(given[1:])
        line.convert_options()
        line.fill_positional(line.place_choices())
        line.fill_defaults()
    except Refused:
        _refuse_split_name(text, given, specs, domain)
        raise
    return line.parsed()


def _refuse_split_name(text: str, given: list[Word], specs: list[CommandSpec], domain: str) -> None:
    """A refused line whose first two words are a command's name split at its hyphen
    (``table dice on``: ``table-dice``; issue #61) refused naming the line to type."""
    if len(given) < 2 or given[0].literal or given[1].literal:
        return
    joined = fold(f"{given[0].text}-{given[1].text}")
    for s in specs:
        mine = local_name("command", s.name, spec_domain(s, domain))
        if joined in (s.name, fold_name(mine)):
            refusal = _("no {what} {word}").format(what=_("command"), word=quoted(text[given[0].start : given[1].end]))
            rest = text[given[1].end :].strip()
            rest = rest if len(rest) <= _REST_SHOWN else rest[:_REST_SHOWN] + "…"
            raise Meant(refusal, [f"{mine} {rest}".strip()]) from None


class _LineParse:
    """One line being parsed, step by step: the command its first word names, then
    what each of the steps of :func:`parse` has found of its other words."""

    def __init__(
        self,
        text: str,
        first: Word,
        specs: list[CommandSpec],
        state: GameState,
        role: str,
        domain: str,
        phase_commands: Sequence[str],
    ) -> None:
        self.text = text
        self.state = state
        self.role = role
        self.spec, self.verb, mine = match_verb(
            first.text,
            specs,
            domain,
            lambda: commands_about(first.text, specs, state, role, domain),
            lambda: commands_now(specs, state, role, domain, phase_commands),
        )
        self.domain = spec_domain(self.spec, domain)
        #: Where the record writes other than typed: (start, end, English).
        self.subs: list[tuple[int, int, str]] = [(first.start, first.end, self.verb)] if mine else []
        self.command = local_name("command", self.verb, self.domain)  # as called: the alias a referee typed (end-game)
        self.params = list(self.spec.params)
        #: The options typed ``name=value``: their values as typed, and the words they were typed in.
        self.args: dict[str, Any] = {}
        self.keyword_at: dict[str, Word] = {}
        self.faces: list[int] | None = None
        #: The answers given on the line (``answers=a,b``) to the questions the command asks.
        self.answers: list[str] | None = None
        #: The words typed bare, in their order: choices and positional arguments.
        self.positional: list[Word] = []
        #: A bare word typed after a text option given by name (``reason=the militia broke``),
        #: by where it starts: that option's, if no argument takes it.
        self.text_after: dict[int, str] = {}
        #: The positional arguments not given as options, in their order.
        self.pos_params: list[Param] = []
        self.resolved: dict[str, Any] = {}
        self.marked: set[str] = set()
        # A side's player acts for its own side; the referee acts for the side of
        # the first unit named (found as the arguments are filled).
        self.acting: str | None = role if role in state.sides else None

    def read_words(self, words: list[Word]) -> None:
        """The words after the verb sorted: the dice faces and the options (``name=value``)
        read, the bare words kept in their order."""
        dice_keys = _dice_keys(self.domain)
        text_option = ""
        for word in words:
            w = word.text
            if "=" in w and not w.startswith("=") and not word.literal:
                key, _eq, value = w.partition("=")
                text_option = ""
                if key.lower() in dice_keys:
                    self._read_faces(word, key, value)
                elif key.lower() == ANSWERS_KEY and ANSWERS_KEY not in {p.name for p in self.params}:
                    self.answers = [a.strip() for a in value.split(",")]
                elif any(p.side_pairs for p in self.params) and key.lower() not in {p.name for p in self.params}:
                    self.positional.append(self._side_pair(word, key, value))
                else:
                    text_option = self._read_option(word, key, value)
            else:
                self.positional.append(word)
                if text_option:
                    self.text_after[word.start] = text_option
        self.pos_params = [p for p in self.params if not p.keyword and p.name not in self.args]

    def _side_pair(self, word: Word, key: str, value: str) -> Word:
        """``SIDE=VALUE`` of a ``side_pairs`` text (``players milizia=bruno``): the side found by
        any of its names, and recorded (and handed on) by its id."""
        typed = fold(key)
        # The reader's name of a side first (*Milizia somala*: ``milizia``), else as any side is found.
        theirs = {s: fold(scenario_words(self.state.side_name(s))) for s in self.state.sides}
        hits = [s for s, name in theirs.items() if name == typed] or [
            s for s, name in theirs.items() if any(part.startswith(typed) for part in (name, *name.split()))
        ]
        side = hits[0] if len(hits) == 1 else find_side(key, self.state)
        if side != key:
            self.subs.append((word.start, word.start + len(key), side))
        return msgspec.structs.replace(word, text=f"{side}={value}")

    def _read_faces(self, word: Word, key: str, value: str) -> None:
        try:
            self.faces = parse_faces(value)
        except ValueError:
            raise Refused(
                _("dice faces must be numbers, not {faces}").format(faces=repr(value.strip())), rule=TYPING
            ) from None
        if key.lower() not in DICE_KEYS:
            self.subs.append((word.start, word.start + len(key), DICE_KEYS[0]))

    def _read_option(self, word: Word, key: str, value: str) -> str:
        """The option ``key=value`` read; its name when it takes text, else ""."""
        options = list({p.name: p for p in self.params})
        what = _("option for {command}").format(command=self.command)
        name, mine = match_word(key, options, what, local_namer("option", self.domain), formerly=former_namer("option"))
        if mine:
            self.subs.append((word.start, word.start + len(key), name))
        self.args[name] = value
        self.keyword_at[name] = word
        return name if any(p.name == name and p.kind == "text" for p in self.params) else ""

    def convert_options(self) -> None:
        """The options typed ``name=value`` converted, in the command's order of its arguments."""
        for p in self.params:
            if p.name not in self.args:
                continue
            typed = self.args[p.name]
            if p.many:  # also=bashir,dahir: a list, however many are named
                words = [w.strip() for w in typed.split(",") if w.strip()]
                self.resolved[p.name] = [self._convert(p, w) for w in words]
                each = [recorded_as(p, w, self.domain) for w in words]
                if any(e is not None for e in each):  # cover=pesante,scoperto: cover=heavy,open
                    at = self.keyword_at[p.name]
                    listed = ",".join(e if e is not None else w for e, w in zip(each, words, strict=True))
                    self.subs.append((at.start + at.text.index("=") + 1, at.end, listed))
            else:
                self.resolved[p.name] = self._convert(p, typed)
                english = recorded_as(p, typed, self.domain)
                if english is not None:
                    word = self.keyword_at[p.name]
                    self.subs.append((word.start + word.text.index("=") + 1, word.end, english))

    def place_choices(self) -> list[Word]:
        """The bare words that name a choice put in its choice argument; the others,
        in their order, left to fill the positional arguments."""
        params, domain = self.params, self.domain
        choice_words = {c.lower(): p for p in params if p.kind == "choice" for c in p.choices}
        local_choices = (
            {fold_name(local_name("choice", c, domain)): p for p in params if p.kind == "choice" for c in p.choices}
            if lang() != SOURCE
            else {}
        )
        leftovers: list[Word] = []
        slot = 0  # the positional argument the next word not a choice fills
        in_text = False  # whether the words now go to a text argument (the rest of the line)
        for word in self.positional:
            # A bare word that names a choice goes to that choice argument, unless a
            # unit may go where it stands and it names one (issue #27); inside a text,
            # whose words may be pieces' names begun (barrage mortar ha: Hans), only
            # when it names the choice whole (#61).
            cp = _choice_param(word.text, choice_words, local_choices)
            here = self.pos_params[slot] if slot < len(self.pos_params) else None
            in_text = in_text or (here is not None and here.kind == "text")
            if (
                cp is not None
                and cp.name not in self.resolved
                and cp.keyword
                and (not in_text or _names_choice(word.text, cp, domain))
                and (here is None or _choice_not_unit(word.text, cp, here, self.state, self.role, domain))
            ):
                value = value_of(cp, word.text, self.state, self.role, self.acting, domain=domain)
                self.resolved[cp.name] = [value] if cp.many else value
                self._record_english(cp, word)
                continue
            leftovers.append(word)
            if here is not None and not here.many:
                slot += 1
        return leftovers

    def fill_positional(self, words: list[Word]) -> None:
        """The positional arguments filled by ``words`` in their order, a name of
        several words (``cpl pinna``, ``somali militia``) typed whole taking them all."""
        pos_params = self.pos_params
        i = 0
        more = 0  # the words still to come of a name typed whole
        for at, word in enumerate(words):
            if more:
                more -= 1
                continue
            while i < len(pos_params) and pos_params[i].name in self.resolved and not pos_params[i].many:
                i += 1
            if i >= len(pos_params):
                if word.start not in self.text_after:
                    raise self._unexpected(word.text)
                option = self.text_after[word.start]  # the rest of a text given by name
                self.resolved[option] = f"{self.resolved[option]} {word.text}"
                continue
            p = pos_params[i]
            if p.kind in ("text", "team"):  # the rest of the line: a team's name has spaces
                rest = " ".join(x.text for x in words[at:])
                self.resolved[p.name] = rest if p.kind == "text" else find_team(rest, self.state, self.role)
                return
            more = self._fill(p, word, [x.text for x in words[at + 1 :]])
            if not p.many:
                i += 1

    def _fill(self, p: Param, word: Word, after: list[str]) -> int:
        """``p`` given ``word`` (a team's figures, where it names a team ``p`` takes):
        how many of the words ``after`` it are the rest of the name it begins."""
        state, w = self.state, word.text
        value, members = self._value_or_members(p, w)
        if members:
            self.resolved.setdefault(p.name, []).extend(members)
            self.acting = self.acting or state.units[members[0]].side
            return max(rest_of_name(w, name, after) for name in team_names(state.units[members[0]].team))
        self._record_english(p, word)
        more = 0
        if p.kind in UNIT_KINDS and value in state.units:
            more = rest_of_name(w, state.units[value].name, after)
        elif p.kind == "side" and value in state.sides:  # morale somali militia
            more = max(rest_of_name(w, name, after) for name in side_names(state, value))
        if p.kind in ("unit", "own") and self.acting is None and self.role == REFEREE:
            self.acting = state.units[value].side
        if p.many:
            self.resolved.setdefault(p.name, []).append(value)
        else:
            self.resolved[p.name] = value
        return more

    def _value_or_members(self, p: Param, w: str) -> tuple[Any, list[str]]:
        """What ``w`` gives ``p``: its value, or (deploy warsame) the figures of the team
        it names that ``p`` takes; refused naming a flag or an option it may have meant."""
        state, role = self.state, self.role
        members = team_members_named(p, w, state, role, self.acting) if is_team_name(p, w, state, role) else []
        if members:
            return "", members
        try:
            return self._convert(p, w), []
        except Refused as refused:
            members = team_members_named(p, w, state, role, self.acting)  # no unit, but a team?
            if not members:
                # No unit of that name, but a mistyped flag of this command? (aimd: aimed)
                open_ = [q for q in self.params if q.kind == "choice" and q.keyword and q.name not in self.resolved]
                flags = [c for q in open_ for c in q.choices]
                near = near_names(fold(w), [local_name("choice", c, self.domain) for c in flags])
                near = near or _number_meant(w, self.params, {*self.resolved, *self.args}, self.domain)
                if near:
                    raise asking(refused, near) from None
                raise
            return "", members

    def fill_defaults(self) -> None:
        """The arguments not given: an optional one its default; a needed one refused."""
        for p in self.params:
            if p.name in self.resolved:
                continue
            if p.optional:
                self.resolved[p.name] = [] if p.many and p.default is None else p.default
            else:
                raise self._missing(p)

    def parsed(self) -> Parsed:
        units = [v for p in self.params if p.kind in UNIT_KINDS for v in _as_list(self.resolved.get(p.name))]
        recorded = spliced(self.text, self.subs).strip()
        return Parsed(
            self.spec,
            self.resolved,
            self.faces,
            self.answers,
            recorded,
            units,
            self.marked,
            self.verb,
            "" if lang() == SOURCE else lang(),
        )

    def _convert(self, p: Param, word: str) -> Any:
        return value_of(p, word, self.state, self.role, self.acting, self.marked, self.domain)

    def _record_english(self, p: Param, word: Word) -> None:
        """``word``, given for ``p``, recorded by its English name where the reader's language wrote it otherwise."""
        english = recorded_as(p, word.text, self.domain)
        if english is not None:
            self.subs.append((word.start, word.end, english))

    def _usage(self) -> str:
        return usage(self.spec, self.domain, self.verb)

    def _unexpected(self, w: str) -> Refused:
        unexpected = _("{command}: unexpected {word}; usage: {usage}").format(
            command=self.command, word=quoted(w), usage=self._usage()
        )
        near = _number_meant(w, self.params, {*self.resolved, *self.args}, self.domain)
        return Meant(unexpected, near) if near else Refused(unexpected, rule=TYPING)

    def _missing(self, p: Param) -> Refused:
        option = local_name("option", p.name, self.domain)
        if p.help:  # what the argument is, where its name alone does not say it (a result)
            return Refused(
                _("{command}: missing {option}: {help}; usage: {usage}").format(
                    command=self.command,
                    option=option,
                    help=translations(lang(), self.domain).gettext(p.help),
                    usage=self._usage(),
                ),
                rule=TYPING,
            )
        return Refused(
            _("{command}: missing {option}; usage: {usage}").format(
                command=self.command, option=option, usage=self._usage()
            ),
            rule=TYPING,
        )


#: A bare number as a referee types one (30, 25.5, 25,5, 10in, 10"): a distance or a count.
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?(?:cm|in|\")?", re.IGNORECASE)


def _number_meant(word: str, params: list[Param], given: set[str], domain: str) -> list[str]:
    """A bare number the command cannot place: the distances and counts it still wants,
    each written with its name (``fire rossi aden 30``: ``range=30``), those it needs first."""
    if not _NUMBER.fullmatch(word):
        return []
    wanted = [q for q in params if q.keyword and q.kind in ("distance", "int") and q.name not in given]
    wanted = [q for q in wanted if not q.optional] or wanted
    return [f"{local_name('option', q.name, domain)}={word}" for q in wanted[:3]]


def _choice_param(word: str, choice_words: dict[str, Param], local: dict[str, Param]) -> Param | None:
    """The choice argument a bare word names: its name in the reader's language, then
    in English, exactly; else the one name it begins (reader's language first)."""
    w = word.lower()
    cp = local.get(fold(w)) or choice_words.get(w)
    if cp is not None or w.isdigit():
        return cp
    for names_, typed in ((local, fold(w)), (choice_words, w)):
        prefixed = [p for c, p in names_.items() if c.startswith(typed)]
        if len(prefixed) == 1:
            return prefixed[0]
    return None


def _names_choice(word: str, cp: Param, domain: str) -> bool:
    """Whether ``word`` is one of ``cp``'s choices whole, in English or the reader's language."""
    w, folded = word.lower(), fold(word)
    return any(c.lower() == w or fold_name(local_name("choice", c, domain)) == folded for c in cp.choices)


def _choice_not_unit(word: str, cp: Param, here: Param, state: GameState, role: str, domain: str) -> bool:
    """Whether a bare word standing where ``here`` goes is ``cp``'s choice rather than
    a unit: always where ``here`` takes no unit; else a unit's exact id (or marker
    label) is the unit, an exact choice is the choice, and a word that begins both
    a unit's id or name and a choice is refused naming both readings."""
    if here.kind not in ("unit", "own", "enemy"):
        return True
    pool = [u for u in state.units.values() if unit_visible(u, role)]
    w, folded = word.lower(), fold(word)
    if any(u.id.lower() == w for u in pool) or (here.markers and marker_unit(state, word) is not None):
        return False
    if _names_choice(word, cp, domain):
        return True
    mine = {c: fold_name(local_name("choice", c, domain)) for c in cp.choices}
    units = units_named(w, pool)
    if not units:
        return True
    choices = [local_name("choice", c, domain) for c in cp.choices if c.startswith(w) or mine[c].startswith(folded)]
    raise Refused(
        _("{word} could be the unit {units} or the {option} {choices}").format(
            word=quoted(word),
            units=or_list([u.id for u in units]),
            option=local_name("option", cp.name, domain),
            choices=or_list(choices),
        ),
        rule=TYPING,
    )


def _dice_keys(domain: str) -> tuple[str, ...]:
    mine = local_name("option", "dice", domain)
    return DICE_KEYS if mine in DICE_KEYS else (*DICE_KEYS, mine)


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return v if isinstance(v, list) else [v]
