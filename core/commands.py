"""The command language: parsing and completion.

A command is one line: a verb, then its arguments::

    fire rossi ahmed range=30 aimed dice=6,4,3
    move ahmed 12 run
    undo

* Verbs, unit names, sides and choices are case-insensitive and may be
  shortened to any unambiguous prefix (``fi ro ah r=30``).  A unit is matched by
  its id or by any word of its name.
* ``name=value`` sets an argument by name; bare words fill the positional
  arguments in order; a bare word that is one of a choice argument's values
  sets that argument (``aimed``, ``burst``).
* ``dice=6,4,3`` (or ``d=643``) gives the faces of physical dice, in the order
  the rolls happen; without it the game's seeded dice roll.
* Quotes group words: ``note "ambush at the well"``.
* Every verb, option and choice also has a name in the reader's language (its
  ruleset's catalogue, msgctxt ``command`` / ``option`` / ``choice``): a word is
  matched in the reader's language first, then in English, and the line is
  recorded with the English names (:attr:`Parsed.text`), so a script typed in
  Italian and its English equivalent write the same events.  An Italian reader
  may write a decimal comma (``25,5``); the record holds ``25.5``.

Unit names resolve against what the issuing role can see, so a hidden enemy
is "no such unit" exactly like one that does not exist.  Where the book lets a
side aim at a hidden enemy's marker (``Param.markers``), the marker's label
(``K7Q``) names it: the core resolves it to the unit, and the side learns
nothing from that but what the rules then show it.
"""

from __future__ import annotations

import difflib
import gettext
import re
import unicodedata
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

import msgspec

from core.dice import parse_faces
from core.language.i18n import CORE_DOMAIN, Domain, _, translations
from core.language.numerals import grouped, point
from core.language.reader import SOURCE, lang
from core.language.shapes import CommandShape, ParamShape
from core.ruleset import CommandSpec, Param, Refused
from core.state import GameState, Unit
from core.views import REFEREE, marker_unit, unit_visible

DICE_KEYS = ("dice", "d")
#: The line's answers to the command's questions (``core.questions``), comma-separated.
ANSWERS_KEY = "answers"
#: The longest command line, in characters: room for any command and a long
#: note, while a refusal that quotes a word of it stays short enough to show.
MAX_LINE = 2_000
#: Characters no command may hold: control characters (a tab is a space), line
#: and paragraph separators, and the bidirectional overrides that make text
#: read otherwise than it is stored.  Written into the log they would reach
#: every seat's terminal.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_INT = re.compile(r"[+-]?[0-9]{1,9}")
#: A tape measure's reading: digits, up to two decimals after a point, and a unit.
_DISTANCE = re.compile(r'([0-9]{1,6}(?:\.[0-9]{1,2})?)(cm|in|")?', re.IGNORECASE)
#: Centimetres in an inch, exactly.
CM_PER_INCH = Fraction(254, 100)
#: What a name in the reader's language may be to be typed as one word: letters,
#: digits, ``-`` and ``.``, starting with a letter.  A translation that is not (a
#: phrase with a space, an ``=``) is not used: the English name is still there.
_TYPABLE = re.compile(r"[^\W\d_][\w.-]*")


# ------------------------------------------------------------------ names in two languages


#: The modules whose commands every ruleset shares (the referee's tools, undo, next,
#: note): their names are the core's words, whatever the ruleset's catalogue says.
SHARED = ("core.rulesets.common", "core.game")


def spec_domain(spec: CommandSpec, domain: str = CORE_DOMAIN) -> str:
    """The catalogue naming ``spec``: the core's for a shared command; a built-in
    ruleset's for a command its package handles (so a caller that does not name the
    ruleset's domain still finds its names); else ``domain``.
    ``python -m core.language.catalogues`` lists each name there."""
    module = getattr(spec.handler, "__module__", None) or ""
    if module in SHARED:
        return CORE_DOMAIN
    parts = module.split(".")
    if len(parts) > 3 and parts[:2] == ["core", "rulesets"]:
        return parts[2]
    return domain


def local_name(context: str, word: str, domain: str = CORE_DOMAIN) -> str:
    """``word`` (the English name of a command, an option or a choice: ``context``
    is ``command``, ``option`` or ``choice``) as the reader types it: its translation
    in ``domain`` (a ruleset's catalogue, falling back to the core's), else itself."""
    language = lang()
    if language == SOURCE:
        return word
    return _translated(translations(language, domain), context, word)


@lru_cache(maxsize=16_384)
def _translated(catalogue: gettext.NullTranslations, context: str, word: str) -> str:
    """``word``'s typable name in ``catalogue`` (kept per catalogue: a parse looks up
    every command's name, and a key pressed completes them all)."""
    name = catalogue.pgettext(context, word).strip().lower()
    return name if _TYPABLE.fullmatch(name) else word


@lru_cache(maxsize=16_384)
def _folded(name: str) -> str:
    """:func:`_fold` of a name from a catalogue (a few hundred of them), kept."""
    return _fold(name)


def _fold(word: str) -> str:
    """``word`` as a name in the reader's language is compared: lower case, without
    accents (``unita`` is ``unità``, for a keyboard without them)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def names(spec: CommandSpec, domain: str = CORE_DOMAIN) -> tuple[str, str]:
    """A command's name in the reader's language and in English (the same twice in
    English, or where the catalogue has no translation): for help that shows both."""
    return local_name("command", spec.name, spec_domain(spec, domain)), spec.name


def title(spec: CommandSpec, domain: str = CORE_DOMAIN) -> str:
    """A command as help heads it: ``tira (roll)`` for an Italian reader, ``roll`` in English."""
    mine, english = names(spec, domain)
    return english if mine == english else f"{mine} ({english})"


def _namer(context: str, domain: str):
    return lambda word: local_name(context, word, domain)


def decimal_point() -> str:
    """The reader's decimal separator (``,`` in Italian)."""
    return point(lang())


def number(n: int) -> str:
    """A whole number with the reader's thousands separator (``2,000``, ``2.000``)."""
    return grouped(n)


class Parsed(msgspec.Struct):
    spec: CommandSpec
    args: dict[str, Any]
    faces: list[int] | None = None
    #: The answers given on the line (``answers=heavy,none``), before any the table gives.
    answers: list[str] | None = None
    #: The line as recorded (``Issued.text``): as typed, but for the words typed in
    #: the reader's language, which are given their English names (``25,5`` its ``25.5``).
    text: str = ""
    #: The side the command acts for (the first unit's side, or the issuer's).
    acting_side: str = ""
    units: list[str] = msgspec.field(default_factory=list)
    #: The units named by their marker's label, not their name.
    by_marker: set[str] = msgspec.field(default_factory=set)
    #: The English name or alias the command was called by (``end-game`` for ``victory``):
    #: what a refusal of it names, as the referee typed it.
    verb: str = ""


_QUOTES = "\"'"


class _Word(msgspec.Struct, frozen=True):
    text: str
    #: Whether it began with a quote (literal text: its ``=`` sets no option).
    literal: bool
    #: Where it stands in the line, quotes included.
    start: int
    end: int


def _words(text: str) -> list[_Word]:
    """The words of a line.

    A quote groups words only where it opens a word or a value (``note "a b"``,
    ``d="6 4 3"``); inside a word it is a letter (``Rossi's``).  A word that
    began with a quote is literal text: its ``=`` sets no option.
    """
    words: list[_Word] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start, parts = i, []
        while i < n and not text[i].isspace():
            c = text[i]
            if c in _QUOTES and (i == start or text[i - 1] == "="):
                end = text.find(c, i + 1)
                if end < 0:
                    raise Refused(_("cannot read the command: no closing {quote}").format(quote=c))
                parts.append(text[i + 1 : end])
                i = end + 1
            else:
                parts.append(c)
                i += 1
        words.append(_Word("".join(parts), text[start] in _QUOTES, start, i))
    return words


def split(text: str) -> list[str]:
    return [w.text for w in _words(text)]


def match_prefix(word: str, options: list[str], what: str, local: Callable[[str], str] | None = None) -> str:
    """The one option equal to or starting with ``word`` (case-insensitive).

    ``local`` gives an option's name in the reader's language: that name is
    matched first (an ambiguous prefix of it is refused), then the English one."""
    return _match(word, options, what, local)[0]


def _match(
    word: str,
    options: list[str],
    what: str,
    local: Callable[[str], str] | None,
    about: Callable[[], list[str]] | None = None,
    now: Callable[[], list[str]] | None = None,
) -> tuple[str, bool]:
    """The option ``word`` names, and whether it was named in the reader's language:
    exactly in it, exactly in English, by a prefix in it, by a prefix in English.
    Asked only when ``word`` is none of them, for the few to name instead: ``about``,
    those whose help speaks of it; else, where none is near it and there are too many
    to list, ``now``, those fitting the moment."""
    w = word.lower()
    mine = [(_folded(local(o)), o) for o in options] if local is not None and lang() != SOURCE else []
    folded = _fold(word)
    if mine:
        hits = list(dict.fromkeys(o for n, o in mine if n == folded))
        if len(hits) == 1:
            return hits[0], True
        if hits:
            raise Refused(_could_be(word, [local(h) for h in hits]))  # type: ignore[misc]
    exact = [o for o in options if o.lower() == w]
    if exact:
        return exact[0], False
    if mine:
        hits = list(dict.fromkeys(o for n, o in mine if n.startswith(folded)))
        if len(hits) == 1:
            return hits[0], True
        if hits:
            raise Refused(_could_be(word, [local(h) for h in hits]))  # type: ignore[misc]
    hits = [o for o in options if o.lower().startswith(w)]
    if len(hits) == 1:
        return hits[0], False
    if not hits:
        shown = [local(o) for o in options] if mine else options  # type: ignore[misc]
        speak = about() if about is not None else []
        if 0 < len(speak) <= _FEW:
            raise Refused(
                _("no {what} {word}; the word is in the help of {options}").format(
                    what=what, word=quoted(word), options=", ".join(speak)
                )
            )
        near = _near(folded, shown) or _near(w, options)
        if near:
            raise Refused(_did_you_mean(_("no {what} {word}").format(what=what, word=quoted(word)), near))
        if len(shown) <= 12:
            raise Refused(
                _("no {what} {word} (choose from {options})").format(
                    what=what, word=quoted(word), options=", ".join(shown)
                )
            )
        few = now() if now is not None else []
        if 0 < len(few) <= _FEW:
            raise Refused(
                _("no {what} {word}; now: {options}").format(what=what, word=quoted(word), options=", ".join(few))
            )
        raise Refused(_("no {what} {word}").format(what=what, word=quoted(word)))
    raise Refused(_could_be(word, hits))


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


def _near(word: str, names: list[str]) -> list[str]:
    """The names a mistyped ``word`` most likely meant (``nxet``: next), nearest first."""
    folded = {_fold(n): n for n in names}
    return [folded[n] for n in difflib.get_close_matches(word, list(folded), n=3, cutoff=0.6)]


def _did_you_mean(refusal: str, near: list[str]) -> str:
    return _("{refusal}; did you mean {options}?").format(refusal=refusal, options=_or_list(near))


def _could_be(word: str, items: list[str]) -> str:
    return _("{word} could be {options}").format(word=quoted(word), options=_or_list(items))


def _or_list(items: list[str]) -> str:
    items = sorted(items)
    if len(items) == 1:
        return items[0]
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _verb(
    word: str,
    specs: list[CommandSpec],
    domain: str,
    about: Callable[[], list[str]] | None = None,
    now: Callable[[], list[str]] | None = None,
) -> tuple[CommandSpec, str, bool]:
    """The command ``word`` names, the English name (or alias) it matched, and whether
    it was named in the reader's language (``about``, ``now``: as :func:`_match`)."""
    by_name: dict[str, CommandSpec] = {}
    for s in specs:
        by_name[s.name] = s
        for a in s.aliases:
            by_name[a] = s
    try:
        name, mine = _match(
            word,
            list(by_name),
            _("command"),
            lambda n: local_name("command", n, spec_domain(by_name[n], domain)),
            about,
            now,
        )
    except Refused:
        # victory, where the command is called result: the name it has here
        meant = [
            local_name("command", s.name, spec_domain(s, domain)) for s in specs if word.lower() in s.known_elsewhere_as
        ]
        if meant:
            refusal = _("no {what} {word}").format(what=_("command"), word=quoted(word))
            raise Refused(_did_you_mean(refusal, meant)) from None
        raise
    return by_name[name], name, mine


#: The most commands a refusal names as those of the phase: more would not fit its line.
_FEW = 8


def _for_now(spec: CommandSpec, state: GameState, role: str) -> int | None:
    """Where ``spec`` comes among the commands ``role`` may give: 0 made for the phase
    the game is in, 1 for any phase, 2 for other phases; None for the referee's alone."""
    if role != REFEREE and spec.who == REFEREE:
        return None
    if not spec.phases:
        return 1
    return 0 if state.phase in spec.phases else 2


def commands_about(
    word: str, specs: list[CommandSpec], state: GameState, role: str, domain: str = CORE_DOMAIN
) -> list[str]:
    """The names (in the reader's language) of the commands ``role`` may give whose help
    speaks of ``word`` as a whole word, in the reader's language or in English: what a
    referee meant by a word of the game that is not a command (``attack``: ``at``, ``mg``)."""
    folded = _fold(word)
    if len(folded) < 3 or not folded.isalpha():
        return []
    speaks = re.compile(rf"\b{re.escape(folded)}\b").search
    out = []
    for s in specs:
        if s.help and _for_now(s, state, role) is not None:
            helps = {_fold(s.help), _fold(translations(lang(), spec_domain(s, domain)).gettext(s.help))}
            if any(speaks(h) for h in helps):
                out.append(local_name("command", s.name, spec_domain(s, domain)))
    return sorted(out)


def _offer_rank(spec: CommandSpec, rank: int, order: dict[str, int]) -> tuple[int, int]:
    """Where a command of :func:`_for_now`'s ``rank`` comes among the first word's: the
    phase's main commands (``order``: ``Phase.commands``) first, in their order, then
    its others, those of any phase and the rest (each alphabetically, by the caller)."""
    return (0, order[spec.name]) if rank == 0 and spec.name in order else (rank + 1, 0)


def commands_now(
    specs: list[CommandSpec],
    state: GameState,
    role: str,
    domain: str = CORE_DOMAIN,
    phase_commands: Sequence[str] = (),
) -> list[str]:
    """The names (in the reader's language) of the commands made for the phase the
    game is in that ``role`` may give: what a referee who typed no command wants, in
    the order Tab offers them (the phase's main ones, ``phase_commands``, first)."""
    order = {name: i for i, name in enumerate(phase_commands)}
    ranked = [
        (_offer_rank(s, 0, order), local_name("command", s.name, spec_domain(s, domain)))
        for s in specs
        if _for_now(s, state, role) == 0
    ]
    return [name for _rank, name in sorted(ranked)]


def find_verb(word: str, specs: list[CommandSpec], domain: str = CORE_DOMAIN) -> CommandSpec:
    """The command ``word`` names, in the reader's language (``domain``: the
    ruleset's catalogue) or in English."""
    return _verb(word, specs, domain)[0]


def find_unit(word: str, state: GameState, role: str, *, side: str | None = None, enemy_of: str | None = None) -> Unit:
    w = word.lower()
    pool = [u for u in state.units.values() if unit_visible(u, role)]
    if side is not None:
        pool = [u for u in pool if u.side == side]
    if enemy_of is not None:
        pool = [u for u in pool if u.side != enemy_of]
    exact = [u for u in pool if u.id.lower() == w or u.name.lower() == w]
    if len(exact) == 1:
        return exact[0]
    hits = exact or _units_named(w, pool)
    if len(hits) == 1:
        return hits[0]
    if not hits:
        if side or enemy_of:
            raise Refused(_("no unit {word} on that side").format(word=quoted(word)))
        raise Refused(_("no unit {word}").format(word=quoted(word)))
    # Each by the id to type, and its name where that says more (s1 (Sherman Baker 1)):
    # a word several names share is answered with which is which.
    raise Refused(_could_be(word, [u.id if u.name.lower() == u.id.lower() else f"{u.id} ({u.name})" for u in hits]))


def teams(state: GameState, role: str) -> list[str]:
    """The teams ``role`` can see a member of, sorted."""
    return sorted({u.team for u in state.units.values() if u.team and unit_visible(u, role)})


def find_team(words: str, state: GameState, role: str) -> str:
    """The team ``words`` names: its whole name (any case), or words each of which
    begins a word of its name (``gruppe``, ``vogt``, ``gr v`` for *Gruppe Vogt*)."""
    typed = words.lower().split()
    pool = teams(state, role)
    exact = [t for t in pool if t.lower().split() == typed]
    if exact:
        return exact[0]
    hits = [t for t in pool if typed and all(any(p.startswith(w) for p in t.lower().split()) for w in typed)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise Refused(_("no team {word}").format(word=quoted(words)))
    raise Refused(_could_be(words, hits))


#: What parts an id or a name into words: ``mg-team`` is found by ``team``, *Half-track* by ``track``.
_WORD_BREAK = re.compile(r"[\s_-]+")


def side_label(state: GameState, side: str) -> str:
    """A side in words, with the id a referee may type where the name is not it:
    ``Somali militia (irregulars)``."""
    name = state.side_name(side)
    return side if name.lower() == side.lower() else f"{name} ({side})"


def find_side(word: str, state: GameState, *, also: Sequence[str] = ()) -> str:
    """The side ``word`` names, as a unit is found: its id or its whole name (any case),
    else the start of its id, of its name or of any word of either (``somali`` for
    *Somali militia*).  ``also``: other words the place takes (``draw``), found the same
    way and returned as they are.  None, or several: refused, naming the choices in words."""
    sides = list(state.sides)
    w = word.lower()
    exact = [s for s in sides if w in (s.lower(), state.side_name(s).lower())] + [a for a in also if a.lower() == w]
    if exact:
        return exact[0]

    def begins(whole: str) -> bool:
        return whole.lower().startswith(w) or any(p.lower().startswith(w) for p in _WORD_BREAK.split(whole))

    hits = [s for s in sides if begins(s) or begins(state.side_name(s))] + [a for a in also if begins(a)]
    if len(hits) == 1:
        return hits[0]
    labels = {s: side_label(state, s) for s in sides} | {a: a for a in also}
    if hits:
        raise Refused(_could_be(word, [labels[h] for h in hits]))
    refusal = _("no side {word}").format(word=quoted(word))
    # A mistyped word of a name (somaly) is answered with the side it is near.
    spoken = {
        _fold(part): key
        for key in labels
        for whole in (key, state.side_name(key))
        for part in (whole, *_WORD_BREAK.split(whole))
        if part
    }
    close = difflib.get_close_matches(_fold(word), list(spoken), n=3, cutoff=0.6)
    near = list(dict.fromkeys(spoken[n] for n in close))
    if near:
        raise Refused(_did_you_mean(refusal, [labels[n] for n in near]))
    if not labels:
        raise Refused(_("{refusal}: the game has no sides yet").format(refusal=refusal))
    raise Refused(_("{refusal}; name {options}").format(refusal=refusal, options=_or_list(list(labels.values()))))


def _units_named(word: str, pool: list[Unit]) -> list[Unit]:
    """The units of ``pool`` with an id or a name that begins with ``word`` (lower
    case), or a word of which does."""
    return [
        u
        for u in pool
        if any(
            whole.lower().startswith(word) or any(part.lower().startswith(word) for part in _WORD_BREAK.split(whole))
            for whole in (u.id, u.name)
        )
    ]


def _rest_of_name(typed: str, name: str, after: list[str]) -> int:
    """How many of the words ``after`` a unit found by ``typed`` go on with its name, as a
    name is said whole (``dismount cpl pinna``, ``fire greco ahmed noor``): each begins the
    next word of the name."""
    words = [part.lower() for part in _WORD_BREAK.split(name) if part]
    at = next((j for j, part in enumerate(words) if part.startswith(typed.lower())), None)
    if at is None:
        return 0
    count = 0
    for word, part in zip(after, words[at + 1 :], strict=False):
        if not word or "=" in word or not part.startswith(word.lower()):
            break
        count += 1
    return count


def quoted(word: str, most: int = 40) -> str:
    """``word`` as a refusal quotes it: escaped, and cut if long."""
    return repr(word) if len(word) <= most else repr(word[:most]) + "…"


def check_line(text: str) -> None:
    """Refuse a line too long, or holding a character no command may hold."""
    if len(text) > MAX_LINE:
        raise Refused(
            _("a command is at most {most} characters; this one has {length}").format(
                most=number(MAX_LINE), length=number(len(text))
            )
        )
    bad = _CONTROL.search(text)
    if bad:
        raise Refused(
            _("a command cannot hold the control character {char} (column {column})").format(
                char=ascii(bad.group()), column=bad.start() + 1
            )
        )


def whole_number(word: str, name: str, lo: int, hi: int) -> int:
    """``word`` as a whole number from ``lo`` to ``hi``, or Refused naming the bounds."""
    value = int(word) if _INT.fullmatch(word) else None
    if value is None or not lo <= value <= hi:
        raise Refused(
            _("{name} must be a whole number from {lo} to {hi}, not {word}").format(
                name=name, lo=lo, hi=hi, word=quoted(word)
            )
        )
    return value


def _with_point(word: str) -> str:
    """A distance typed with the reader's decimal comma (``25,5cm``), with a point."""
    point = decimal_point()
    if point != "." and word.count(point) == 1 and "." not in word:
        return word.replace(point, ".")
    return word


def distance(word: str, name: str, lo: int, hi: int, measure: str = "cm") -> int | Decimal | Fraction:
    """``word`` as a distance in ``measure`` from ``lo`` to ``hi``, or Refused naming
    the bounds and what is accepted.

    ``25``, ``25.5`` (two decimals at most: a tape reads half centimetres or
    millimetres), ``10in`` / ``10"`` / ``25cm`` in either unit, converted exactly.
    A reader whose language writes a decimal comma may write ``25,5`` too (in
    English a comma is refused).
    The value is exact: an ``int`` when whole, else a ``Decimal`` (a ``Fraction``
    only for centimetres read on tables in inches, which no decimal can hold).
    Exponents, signs, ``nan`` and ``inf`` are refused, not guessed at.
    """
    m = _DISTANCE.fullmatch(_with_point(word.strip()))
    value: Fraction | None = None
    if m is not None:
        value = Fraction(m.group(1))
        given = {"in": "in", '"': "in", "cm": "cm"}.get((m.group(2) or measure).lower(), measure)
        if given == "in" and measure == "cm":
            value *= CM_PER_INCH
        elif given == "cm" and measure == "in":
            value /= CM_PER_INCH
    if value is None or not lo <= value <= hi:
        point = decimal_point()
        if measure == "cm":
            template = _(
                "{name} must be a distance from {lo} to {hi} cm: a number with at most two decimals "
                'after a point (25 or 25{point}5), or 10in or 10"; not {word}'
            )
        else:
            template = _(
                "{name} must be a distance from {lo} to {hi} in: a number with at most two decimals "
                "after a point (25 or 25{point}5), or 25cm; not {word}"
            )
        raise Refused(template.format(name=name, lo=lo, hi=hi, point=point, word=quoted(word)))
    return exact(value)


def exact(value: Fraction) -> int | Decimal | Fraction:
    """``value`` as the simplest exact number: an int, a Decimal, or (for a third) a Fraction."""
    if value.denominator == 1:
        return value.numerator
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return value
    return (Decimal(value.numerator) / Decimal(value.denominator)).normalize()


def _convert(
    param: Param,
    word: str,
    state: GameState,
    role: str,
    acting: str | None,
    marked: set[str] | None = None,
    domain: str = CORE_DOMAIN,
) -> Any:
    kind = param.kind
    shown = local_name("option", param.name, domain)
    if kind == "int":
        return whole_number(word, shown, param.lo, param.hi)
    if kind == "distance":
        return distance(word, shown, param.lo, param.hi, param.measure)
    if kind == "choice":
        return match_prefix(word, list(param.choices), shown, _namer("choice", domain))
    if kind == "side":  # a side's place may take other words too (draw): its choices, in every language
        said = {w: c for c in param.choices for w in (c, *Domain(domain).in_every_language("choice", c))}
        found = find_side(word, state, also=list(said))
        return said.get(found, found)
    if kind in ("unit", "own", "enemy"):
        under = marker_unit(state, word) if param.markers else None
        if under is not None and not (kind == "enemy" and under.side == acting):
            if marked is not None:
                marked.add(under.id)
            return under.id
        if kind == "own":
            u = find_unit(word, state, role, side=acting)
        elif kind == "enemy":
            u = find_unit(word, state, role, enemy_of=acting)
        else:
            u = find_unit(word, state, role)
        return u.id
    if kind == "team":
        return find_team(word, state, role)
    if kind == "text":
        return word
    raise AssertionError(f"unknown parameter kind {kind}")


def _canonical(param: Param, word: str, domain: str) -> str | None:
    """How the record writes ``word`` given for ``param``, where the reader's language
    wrote it otherwise: a choice by its English name, a distance with a point; None
    where it is recorded as typed."""
    if lang() == SOURCE:
        return None
    if param.kind == "choice":
        choice, mine = _match(word, list(param.choices), param.name, _namer("choice", domain))
        return choice if mine else None
    if param.kind == "distance":
        pointed = _with_point(word)
        return pointed if pointed != word else None
    return None


def _choice_param(word: str, choice_words: dict[str, Param], local: dict[str, Param]) -> Param | None:
    """The choice argument a bare word names: its name in the reader's language, then
    in English, exactly; else the one name it begins (reader's language first)."""
    w = word.lower()
    cp = local.get(_fold(w)) or choice_words.get(w)
    if cp is not None or w.isdigit():
        return cp
    for names_, typed in ((local, _fold(w)), (choice_words, w)):
        prefixed = [p for c, p in names_.items() if c.startswith(typed)]
        if len(prefixed) == 1:
            return prefixed[0]
    return None


def _choice_not_unit(word: str, cp: Param, here: Param, state: GameState, role: str, domain: str) -> bool:
    """Whether a bare word standing where ``here`` goes is ``cp``'s choice rather than
    a unit: always where ``here`` takes no unit; else a unit's exact id (or marker
    label) is the unit, an exact choice is the choice, and a word that begins both
    a unit's id or name and a choice is refused naming both readings."""
    if here.kind not in ("unit", "own", "enemy"):
        return True
    pool = [u for u in state.units.values() if unit_visible(u, role)]
    w, folded = word.lower(), _fold(word)
    if any(u.id.lower() == w for u in pool) or (here.markers and marker_unit(state, word) is not None):
        return False
    mine = {c: _folded(local_name("choice", c, domain)) for c in cp.choices}
    if any(c.lower() == w or mine[c] == folded for c in cp.choices):
        return True
    units = _units_named(w, pool)
    if not units:
        return True
    choices = [local_name("choice", c, domain) for c in cp.choices if c.startswith(w) or mine[c].startswith(folded)]
    raise Refused(
        _("{word} could be the unit {units} or the {option} {choices}").format(
            word=quoted(word),
            units=_or_list([u.id for u in units]),
            option=local_name("option", cp.name, domain),
            choices=_or_list(choices),
        )
    )


def meanings(spec: CommandSpec, domain: str = CORE_DOMAIN) -> dict[str, str]:
    """What the coded choices of ``spec`` mean (``Param.meanings``), in the reader's
    words, by the name the reader types them by (and their English names)."""
    domain = spec_domain(spec, domain)
    book = translations(lang(), domain)
    out: dict[str, str] = {}
    for p in spec.params:
        for choice, meaning in zip(p.choices, p.meanings, strict=False):
            said = book.gettext(meaning)
            out[choice] = out[local_name("choice", choice, domain)] = said
    return out


def _dice_keys(domain: str) -> tuple[str, ...]:
    mine = local_name("option", "dice", domain)
    return DICE_KEYS if mine in DICE_KEYS else (*DICE_KEYS, mine)


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
    given = _words(text)
    if not given:
        raise Refused(_("empty command"))
    line = _LineParse(text, given[0], specs, state, role, domain, phase_commands)
    line.read_words(given[1:])
    line.convert_options()
    line.fill_positional(line.place_choices())
    line.fill_defaults()
    return line.parsed()


#: The kinds of argument a unit fills.
_UNIT_KINDS = ("unit", "own", "enemy")


class _LineParse:
    """One line being parsed, step by step: the command its first word names, then
    what each of the steps of :func:`parse` has found of its other words."""

    def __init__(
        self,
        text: str,
        first: _Word,
        specs: list[CommandSpec],
        state: GameState,
        role: str,
        domain: str,
        phase_commands: Sequence[str],
    ) -> None:
        self.text = text
        self.state = state
        self.role = role
        self.spec, self.verb, mine = _verb(
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
        self.keyword_at: dict[str, _Word] = {}
        self.faces: list[int] | None = None
        #: The answers given on the line (``answers=a,b``) to the questions the command asks.
        self.answers: list[str] | None = None
        #: The words typed bare, in their order: choices and positional arguments.
        self.positional: list[_Word] = []
        #: The positional arguments not given as options, in their order.
        self.pos_params: list[Param] = []
        self.resolved: dict[str, Any] = {}
        self.marked: set[str] = set()
        # A side's player acts for its own side; the referee acts for the side of
        # the first unit named (found as the arguments are filled).
        self.acting: str | None = role if role in state.sides else None

    def read_words(self, words: list[_Word]) -> None:
        """The words after the verb sorted: the dice faces and the options (``name=value``)
        read, the bare words kept in their order."""
        dice_keys = _dice_keys(self.domain)
        for word in words:
            w = word.text
            if "=" in w and not w.startswith("=") and not word.literal:
                key, _eq, value = w.partition("=")
                if key.lower() in dice_keys:
                    self._read_faces(word, key, value)
                elif key.lower() == ANSWERS_KEY and ANSWERS_KEY not in {p.name for p in self.params}:
                    self.answers = [a.strip() for a in value.split(",")]
                else:
                    self._read_option(word, key, value)
            else:
                self.positional.append(word)
        self.pos_params = [p for p in self.params if not p.keyword and p.name not in self.args]

    def _read_faces(self, word: _Word, key: str, value: str) -> None:
        try:
            self.faces = parse_faces(value)
        except ValueError:
            raise Refused(_("dice faces must be numbers, not {faces}").format(faces=repr(value.strip()))) from None
        if key.lower() not in DICE_KEYS:
            self.subs.append((word.start, word.start + len(key), DICE_KEYS[0]))

    def _read_option(self, word: _Word, key: str, value: str) -> None:
        options = list({p.name: p for p in self.params})
        what = _("option for {command}").format(command=self.command)
        name, mine = _match(key, options, what, _namer("option", self.domain))
        if mine:
            self.subs.append((word.start, word.start + len(key), name))
        self.args[name] = value
        self.keyword_at[name] = word

    def convert_options(self) -> None:
        """The options typed ``name=value`` converted, in the command's order of its arguments."""
        for p in self.params:
            if p.name not in self.args:
                continue
            typed = self.args[p.name]
            if p.many:  # also=bashir,dahir: a list, however many are named
                words = [w for w in typed.split(",") if w.strip()]
                self.resolved[p.name] = [self._convert(p, w.strip()) for w in words]
            else:
                self.resolved[p.name] = self._convert(p, typed)
                english = _canonical(p, typed, self.domain)
                if english is not None:
                    word = self.keyword_at[p.name]
                    self.subs.append((word.start + word.text.index("=") + 1, word.end, english))

    def place_choices(self) -> list[_Word]:
        """The bare words that name a choice put in its choice argument; the others,
        in their order, left to fill the positional arguments."""
        params, domain = self.params, self.domain
        choice_words = {c.lower(): p for p in params if p.kind == "choice" for c in p.choices}
        local_choices = (
            {_folded(local_name("choice", c, domain)): p for p in params if p.kind == "choice" for c in p.choices}
            if lang() != SOURCE
            else {}
        )
        leftovers: list[_Word] = []
        slot = 0  # the positional argument the next word not a choice fills
        for word in self.positional:
            # A bare word that names a choice goes to that choice argument, unless a
            # unit may go where it stands and it names one (issue #27).
            cp = _choice_param(word.text, choice_words, local_choices)
            here = self.pos_params[slot] if slot < len(self.pos_params) else None
            if (
                cp is not None
                and cp.name not in self.resolved
                and cp.keyword
                and (here is None or _choice_not_unit(word.text, cp, here, self.state, self.role, domain))
            ):
                self.resolved[cp.name] = _convert(cp, word.text, self.state, self.role, self.acting, domain=domain)
                self._record_english(cp, word)
                continue
            leftovers.append(word)
            if here is not None and not here.many:
                slot += 1
        return leftovers

    def fill_positional(self, words: list[_Word]) -> None:
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
                raise self._unexpected(word.text)
            p = pos_params[i]
            if p.kind in ("text", "team"):  # the rest of the line: a team's name has spaces
                rest = " ".join(x.text for x in words[at:])
                self.resolved[p.name] = rest if p.kind == "text" else find_team(rest, self.state, self.role)
                return
            more = self._fill(p, word, [x.text for x in words[at + 1 :]])
            if not p.many:
                i += 1

    def _fill(self, p: Param, word: _Word, after: list[str]) -> int:
        """``p`` given ``word`` (a team's figures, where it names a team ``p`` takes):
        how many of the words ``after`` it are the rest of the name it begins."""
        state, w = self.state, word.text
        value, members = self._value_or_members(p, w)
        if members:
            self.resolved.setdefault(p.name, []).extend(members)
            self.acting = self.acting or state.units[members[0]].side
            return _rest_of_name(w, state.units[members[0]].team, after)
        self._record_english(p, word)
        more = 0
        if p.kind in _UNIT_KINDS and value in state.units:
            more = _rest_of_name(w, state.units[value].name, after)
        elif p.kind == "side" and value in state.sides:  # morale somali militia
            more = _rest_of_name(w, state.sides[value].name, after)
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
        members = _team_members(p, w, state, role, self.acting) if _names_team(p, w, state, role) else []
        if members:
            return "", members
        try:
            return self._convert(p, w), []
        except Refused as refused:
            members = _team_members(p, w, state, role, self.acting)  # no unit, but a team?
            if not members:
                # No unit of that name, but a mistyped flag of this command? (aimd: aimed)
                open_ = [q for q in self.params if q.kind == "choice" and q.keyword and q.name not in self.resolved]
                flags = [c for q in open_ for c in q.choices]
                near = _near(_fold(w), [local_name("choice", c, self.domain) for c in flags])
                near = near or _number_meant(w, self.params, {*self.resolved, *self.args}, self.domain)
                if near:
                    raise Refused(_did_you_mean(str(refused), near)) from None
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
        units = [v for p in self.params if p.kind in _UNIT_KINDS for v in _as_list(self.resolved.get(p.name))]
        recorded = _spliced(self.text, self.subs).strip()
        return Parsed(
            self.spec,
            self.resolved,
            self.faces,
            self.answers,
            recorded,
            self.acting or "",
            units,
            self.marked,
            self.verb,
        )

    def _convert(self, p: Param, word: str) -> Any:
        return _convert(p, word, self.state, self.role, self.acting, self.marked, self.domain)

    def _record_english(self, p: Param, word: _Word) -> None:
        """``word``, given for ``p``, recorded by its English name where the reader's language wrote it otherwise."""
        english = _canonical(p, word.text, self.domain)
        if english is not None:
            self.subs.append((word.start, word.end, english))

    def _usage(self) -> str:
        return usage(self.spec, self.domain, self.verb)

    def _unexpected(self, w: str) -> Refused:
        unexpected = _("{command}: unexpected {word}; usage: {usage}").format(
            command=self.command, word=quoted(w), usage=self._usage()
        )
        near = _number_meant(w, self.params, {*self.resolved, *self.args}, self.domain)
        return Refused(_did_you_mean(unexpected, near) if near else unexpected)

    def _missing(self, p: Param) -> Refused:
        option = local_name("option", p.name, self.domain)
        if p.help:  # what the argument is, where its name alone does not say it (a result)
            return Refused(
                _("{command}: missing {option}: {help}; usage: {usage}").format(
                    command=self.command,
                    option=option,
                    help=translations(lang(), self.domain).gettext(p.help),
                    usage=self._usage(),
                )
            )
        return Refused(
            _("{command}: missing {option}; usage: {usage}").format(
                command=self.command, option=option, usage=self._usage()
            )
        )


def _names_team(p: Param, word: str, state: GameState, role: str) -> bool:
    """Whether ``word`` is, whole, the name of a team ``p`` takes and no unit's id or name:
    the team, though it begins a word of a unit's name (*Market* the team, not *Market trader*)."""
    if p.team_members is None or not p.many:
        return False
    w = word.lower()
    if any(w in (u.id.lower(), u.name.lower()) for u in state.units.values() if unit_visible(u, role)):
        return False
    return any(t.lower() == w for t in teams(state, role))


def _team_members(p: Param, word: str, state: GameState, role: str, acting: str | None) -> list[str]:
    """The members of the team ``word`` names that ``p`` takes (``Param.team_members``),
    for a word that names no unit; none where ``p`` takes no team, or ``word`` names none;
    refused where the team has none that ``p`` takes."""
    if p.team_members is None or not p.many:
        return []
    try:
        team = find_team(word, state, role)
    except Refused:
        return []
    pool = [u for u in state.units.values() if u.team == team and unit_visible(u, role)]
    if p.kind == "own" and acting is not None:
        pool = [u for u in pool if u.side == acting]
    members = [u.id for u in pool if p.team_members(u)]
    if not members:
        raise Refused(_("no one of team {team} can be named here").format(team=team))
    return members


def _spliced(text: str, subs: list[tuple[int, int, str]]) -> str:
    """``text`` with each span of ``subs`` replaced."""
    out, at = [], 0
    for start, end, new in sorted(subs):
        out += [text[at:start], new]
        at = end
    out.append(text[at:])
    return "".join(out)


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def usage(spec: CommandSpec, domain: str = CORE_DOMAIN, verb: str = "") -> str:
    """``spec``'s usage, in the reader's names (``domain``: its ruleset's catalogue);
    ``verb``: the name or alias it was called by (``end-game`` for ``victory``)."""
    domain = spec_domain(spec, domain)
    option = _namer("option", domain)
    choice = _namer("choice", domain)
    parts = [local_name("command", verb or spec.name, domain)]
    for p in spec.params:
        if p.keyword and p.kind == "choice":
            token = "|".join(choice(c) for c in p.choices)
        elif p.keyword:
            token = f"{option(p.name)}=…"
        else:
            token = option(p.name) + ("…" if p.many else "")
        parts.append(f"[{token}]" if p.optional else token)
    return " ".join(parts)


# ------------------------------------------------------------------ the record, shown


def localize_line(text: str, specs: Sequence[CommandSpec | CommandShape], domain: str = CORE_DOMAIN) -> str:
    """A recorded line (``Issued.text``, English names) as the reader would type it:
    the verb, options and choices named in full in English given their names in the
    reader's language, distances their decimal comma.  Units, sides and text stay as
    written; a word given as a prefix stays as typed; a line that does not read as a
    command (an older or hostile save's) is shown as it is."""
    if lang() == SOURCE:
        return text
    try:
        given = _words(text)
    except Refused:
        return text
    if not given:
        return text
    by_name = {a: s for s in specs for a in (s.name, *s.aliases)}
    spec = by_name.get(given[0].text.lower())
    if spec is None:
        return text
    domain = spec.domain if isinstance(spec, CommandShape) else spec_domain(spec, domain)
    subs = [(given[0].start, given[0].end, local_name("command", given[0].text.lower(), domain))]
    params = {p.name: p for p in spec.params}
    choice_words = {c: p for p in spec.params if p.kind == "choice" and p.keyword for c in p.choices}
    keyed = {w.text.partition("=")[0].lower() for w in given[1:] if "=" in w.text and not w.literal}
    pos_params = [p for p in spec.params if not p.keyword and p.name not in keyed]
    point = decimal_point()

    def shown(p: Param | ParamShape, value: str) -> str | None:
        if p.kind == "choice" and value.lower() in p.choices:
            return local_name("choice", value.lower(), domain)
        if p.kind == "distance" and _DISTANCE.fullmatch(value) and "." in value:
            return value.replace(".", point)
        return None

    i = 0
    for word in given[1:]:
        w = word.text
        if "=" in w and not w.startswith("=") and not word.literal:
            key, _eq, value = w.partition("=")
            mine = local_name("option", key.lower(), domain) if key.lower() in params or key == "dice" else None
            if mine is not None:
                subs.append((word.start, word.start + len(key), mine))
            p = params.get(key.lower())
            new = shown(p, value) if p is not None and not p.many else None
            if new is not None:
                subs.append((word.start + len(key) + 1, word.end, new))
            continue
        if w.lower() in choice_words:
            subs.append((word.start, word.end, local_name("choice", w.lower(), domain)))
            continue
        if i >= len(pos_params) or pos_params[i].kind in ("text", "team"):
            continue  # the rest of the bare words are text, shown as written
        p = pos_params[i]
        new = shown(p, w)
        if new is not None:
            subs.append((word.start, word.end, new))
        if not p.many:
            i += 1
    return _spliced(text, subs)


# ---------------------------------------------------------------------- completion


def complete(
    text: str,
    specs: list[CommandSpec],
    state: GameState,
    role: str,
    domain: str = CORE_DOMAIN,
    offered_first: Callable[[CommandSpec, Unit], bool] | None = None,
    phase_commands: Sequence[str] = (),
    side_offered: Callable[[CommandSpec, str], bool] | None = None,
) -> list[str]:
    """Candidates for the word being typed at the end of ``text`` (whole words), in
    the reader's language (English names where none of the reader's fits).  A figure
    ``offered_first`` says the command would refuse comes after the others
    (``Ruleset.offered_first``); a side ``side_offered`` says it would refuse is not
    offered (``Ruleset.side_offered``); the first word offers ``phase_commands`` (the
    phase's main commands, ``Phase.commands``) first, in their order."""
    if len(text) > MAX_LINE:  # it will be refused: no need to read it on every key
        return []
    ends_with_space = text.endswith(" ")
    try:
        words = split(text)
    except Refused:
        words = text.split()
    current = "" if ends_with_space or not words else words[-1]
    before = words if ends_with_space else words[:-1]
    if not before:
        return _commands_offered(current.lower(), specs, state, role, domain, phase_commands)
    try:
        spec = find_verb(before[0], specs, domain)
    except Refused:
        return []
    line = _LineCompletion(spec, state, role, spec_domain(spec, domain), offered_first, side_offered)
    if "=" in current:
        return line.option_values(current)
    return line.offered(before[1:], current)


def _commands_offered(
    typed: str, specs: list[CommandSpec], state: GameState, role: str, domain: str, phase_commands: Sequence[str]
) -> list[str]:
    """The commands the first word may be.  The phase's main commands first, in the order
    its rules give them, then its others, then those of any phase, then the rest, each
    alphabetically: Tab on an empty line walks through what can be done now.  The
    referee's alone are not offered to a side, which would be refused them."""
    order = {name: i for i, name in enumerate(phase_commands)}
    both, first = [], {}
    for s in specs:
        rank = _for_now(s, state, role)
        if rank is not None:
            pair = (local_name("command", s.name, spec_domain(s, domain)), s.name)
            both.append(pair)
            first.update(dict.fromkeys(pair, _offer_rank(s, rank, order)))
    return _offered(typed, both, first=first)


class _LineCompletion:
    """What may follow the command ``spec`` typed first on a line (``domain``: its
    catalogue), as :func:`complete` offers it."""

    def __init__(
        self,
        spec: CommandSpec,
        state: GameState,
        role: str,
        domain: str,
        offered_first: Callable[[CommandSpec, Unit], bool] | None,
        side_offered: Callable[[CommandSpec, str], bool] | None,
    ) -> None:
        self.spec = spec
        self.state = state
        self.role = role
        self.domain = domain
        self.option = _namer("option", domain)
        self.choice = _namer("choice", domain)
        self.sides: Callable[[str], bool] | None = (
            (lambda side: side_offered(spec, side)) if side_offered is not None else None
        )
        self.ahead: Callable[[Unit], bool] | None = (
            (lambda u: offered_first(spec, u)) if offered_first is not None else None
        )

    def option_values(self, current: str) -> list[str]:
        """``current`` (``name=value``) completed: the values of the option ``name``
        begins that begin with ``value``, each written with the option's name."""
        key, _eq, value = current.partition("=")
        option = self.option
        p = next((p for p in self.spec.params if option(p.name).startswith(key.lower())), None)
        p = p or next((p for p in self.spec.params if p.name.startswith(key.lower())), None)
        if p is None:
            return []
        if p.kind == "choice":
            values = self._choices(value.lower(), p)
        elif p.kind == "side":
            values = _sides_offered(value, self.state, self.sides)
        else:
            values = [c for c in _candidates(p, self.state, self.role) if c.lower().startswith(value.lower())]
        return [f"{option(p.name)}={c}" for c in values]

    def offered(self, args: list[str], current: str) -> list[str]:
        """What ``current`` may be after the words ``args`` typed after the command: the
        options it still needs, what fills its next positional argument, its flags
        and options, its dice; each once, where first offered."""
        typed = current.lower()
        bare = [w for w in args if "=" not in w]
        filled = len(bare)
        positional = [p for p in self.spec.params if not p.keyword]
        out: list[str] = []
        if filled >= len([p for p in positional if not p.optional]):
            out += self._options_needed(typed, args)
        if filled < len(positional) or (positional and positional[-1].many):
            out += self._fills(positional[min(filled, len(positional) - 1)], typed, bare)
        for p in self.spec.params:
            if p.keyword and p.kind == "choice":
                out += self._choices(typed, p)
            elif p.keyword and current:
                out += self._option_names(typed, p)
        dice = local_name("option", "dice", self.domain)
        if self.spec.rolls and current and (f"{dice}=".startswith(typed) or "dice=".startswith(typed)):
            out.append(f"{dice}=" if f"{dice}=".startswith(typed) else "dice=")
        return list(dict.fromkeys(out))

    def _options_needed(self, typed: str, args: list[str]) -> list[str]:
        """What the command still needs comes first: a keyword it cannot go without
        (fire's range=), where a player would otherwise learn of it by a refusal."""
        given = {w.partition("=")[0].lower() for w in args if "=" in w}
        out: list[str] = []
        for p in self.spec.params:
            if p.keyword and not p.optional and not {p.name, self.option(p.name).lower()} & given:
                out += self._option_names(typed, p)
        return out

    def _fills(self, p: Param, typed: str, bare: list[str]) -> list[str]:
        """What may fill the positional argument ``p`` (``bare``: the words typed bare before)."""
        if p.kind == "choice":
            return self._choices(typed, p)
        if p.kind == "side":  # then the other words its place takes (draw)
            return _sides_offered(typed, self.state, self.sides) + self._choices(typed, p)
        if p.kind == "team":  # by any word of its name
            return [t for t in teams(self.state, self.role) if any(w.startswith(typed) for w in t.lower().split())]
        if p.kind in _UNIT_KINDS:
            return self._units(p, typed, bare)
        return [c for c in _candidates(p, self.state, self.role) if c.lower().startswith(typed)]

    def _units(self, p: Param, typed: str, bare: list[str]) -> list[str]:
        """The units (and teams) ``p`` may take: by any word of its id or name, as parse finds it."""
        state, ahead = self.state, self.ahead
        named = {u.id for u in _units_named(typed, list(state.units.values()))} if typed else set()
        pool = _candidates(p, state, self.role, acting=_acting_side(self.spec, bare, state, self.role), first=ahead)
        typed_before = {w.lower() for w in bare} if p.many else set()  # a target is named once
        fits = [c for c in pool if (c.lower().startswith(typed) or c in named) and c.lower() not in typed_before]
        later = [c for c in fits if ahead is not None and c in state.units and not ahead(state.units[c])]
        whole = [t for t in _teams_offered(p, state, self.role) if any(w.startswith(typed) for w in t.lower().split())]
        # A team its figures stand for (deploy alpha) first, as the Next line says it ("deploy
        # TEAM, or figures one by one"); one whose figures the command would refuse them all
        # with the figures it would refuse (another side's, out of its step of §4.2).
        takes = p.team_members
        now = [
            t
            for t in whole
            if ahead is None or any(ahead(u) for u in state.units.values() if u.team == t and takes and takes(u))
        ]
        return now + [c for c in fits if c not in later] + [t for t in whole if t not in now] + later

    def _choices(self, typed: str, p: Param) -> list[str]:
        return _offered(typed, [(self.choice(c), c) for c in p.choices], ordered=False)

    def _option_names(self, typed: str, p: Param) -> list[str]:
        return [f"{n}=" for n in _offered(typed, [(self.option(p.name), p.name)])]


def _offered(
    typed: str,
    both: list[tuple[str, str]],
    *,
    ordered: bool = True,
    first: dict[str, tuple[int, int]] | None = None,
) -> list[str]:
    """The reader's names that begin with ``typed``; where none does, the English ones
    (sorted unless ``ordered`` is False, which keeps the given order; by ``first``'s
    rank of each name, then the name, where given)."""
    for names_ in ([n for n, _e in both], [e for _n, e in both]):
        hits = list(dict.fromkeys(n for n in names_ if n.lower().startswith(typed)))
        if hits:
            if first is not None:
                return sorted(hits, key=lambda n: (first[n], n))
            return sorted(hits) if ordered else hits
    return []


def _teams_offered(p: Param, state: GameState, role: str) -> list[str]:
    """The teams a place of many figures takes for their members (``Param.team_members``):
    those with a figure the role sees that it takes (deploy: one still off the table; a
    player's own, where the place takes his figures only)."""
    if p.team_members is None or not p.many:
        return []
    pool = [u for u in state.units.values() if unit_visible(u, role) and p.team_members(u)]
    if p.kind == "own" and role in state.sides:
        pool = [u for u in pool if u.side == role]
    return sorted({u.team for u in pool if u.team})


def _sides_offered(typed: str, state: GameState, offered: Callable[[str], bool] | None) -> list[str]:
    """The ids of the sides the command takes now (``offered``) whose id or name, or a
    word of either, begins with ``typed``, as :func:`find_side` finds them."""
    pool = [s for s in state.sides if offered is None or offered(s)]
    if not typed:
        return pool
    w = typed.lower()
    return [
        s
        for s in pool
        if any(
            whole.lower().startswith(w) or any(part.lower().startswith(w) for part in _WORD_BREAK.split(whole))
            for whole in (s, state.side_name(s))
        )
    ]


def _acting_side(spec: CommandSpec, bare: list[str], state: GameState, role: str) -> str | None:
    """The side of the unit already typed in ``spec``'s first unit place (the firer), if any:
    named by any word of its id or name, as parse finds it (``fire evans`` is Ludonet's
    L/Cpl Evans, id ``bren``: by his id alone his own side was offered as targets)."""
    for p, word in zip((p for p in spec.params if not p.keyword), bare, strict=False):
        if p.kind in ("unit", "own"):
            try:
                return find_unit(word, state, role).side
            except Refused:  # no such unit, or several: no side to leave out
                return None
    return None


def _candidates(
    p: Param,
    state: GameState,
    role: str,
    acting: str | None = None,
    first: Callable[[Unit], bool] | None = None,
) -> list[str]:
    """What may fill ``p``: for an enemy, the units of the sides but the reader's or, for
    the referee, but the side of the unit already typed (``acting``); those ``first``
    does not put first (the command would refuse them) after the others."""
    if p.kind in ("unit", "own", "enemy"):
        pool = [u for u in state.units.values() if unit_visible(u, role) and u.in_play]
        active_first = False
        if p.kind == "own" and role in state.sides:
            pool = [u for u in pool if u.side == role]
        elif p.kind == "own" and state.active_side:
            # The referee acts for either side: the active side's figures first (Linea di
            # Tiro's activate offered the other side's beside them, in the roster's order).
            active_first = True
        against = role if role in state.sides else acting
        if p.kind == "enemy" and against is not None:
            pool = [u for u in pool if u.side != against]
        pool.sort(key=lambda u: (first is not None and not first(u), active_first and u.side != state.active_side))
        return [u.id for u in pool] + (list(state.markers) if p.markers else [])
    if p.kind in ("choice", "text"):  # a text may offer its usual values (scenario names)
        return list(p.choices)
    if p.kind == "team":
        return teams(state, role)
    return []
