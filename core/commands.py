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

Unit names resolve against what the issuing role can see, so a hidden enemy
is "no such unit" exactly like one that does not exist.  Where the book lets a
side aim at a hidden enemy's marker (``Param.markers``), the marker's label
(``K7Q``) names it: the core resolves it to the unit, and the side learns
nothing from that but what the rules then show it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.dice import parse_faces
from core.ruleset import CommandSpec, Param, Refused
from core.state import GameState, Unit
from core.views import REFEREE, marker_unit, unit_visible

DICE_KEYS = ("dice", "d")
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


@dataclass
class Parsed:
    spec: CommandSpec
    args: dict[str, Any]
    faces: list[int] | None = None
    text: str = ""
    #: The side the command acts for (the first unit's side, or the issuer's).
    acting_side: str = ""
    units: list[str] = field(default_factory=list)
    #: The units named by their marker's label, not their name.
    by_marker: set[str] = field(default_factory=set)


_QUOTES = "\"'"


def _words(text: str) -> list[tuple[str, bool]]:
    """The words of a line, each with whether it began with a quote.

    A quote groups words only where it opens a word or a value (``note "a b"``,
    ``d="6 4 3"``); inside a word it is a letter (``Rossi's``).  A word that
    began with a quote is literal text: its ``=`` sets no option.
    """
    words: list[tuple[str, bool]] = []
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
                    raise Refused(f"cannot read the command: no closing {c}")
                parts.append(text[i + 1 : end])
                i = end + 1
            else:
                parts.append(c)
                i += 1
        words.append(("".join(parts), text[start] in _QUOTES))
    return words


def split(text: str) -> list[str]:
    return [w for w, _ in _words(text)]


def match_prefix(word: str, options: list[str], what: str) -> str:
    """The one option equal to or starting with ``word`` (case-insensitive)."""
    w = word.lower()
    exact = [o for o in options if o.lower() == w]
    if exact:
        return exact[0]
    hits = [o for o in options if o.lower().startswith(w)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise Refused(
            f"no {what} {quoted(word)}" + (f" (choose from {', '.join(options)})" if len(options) <= 12 else "")
        )
    raise Refused(f"{quoted(word)} could be {_or_list(hits)}")


def _or_list(items: list[str]) -> str:
    items = sorted(items)
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else items[0]


def find_verb(word: str, specs: list[CommandSpec]) -> CommandSpec:
    names: dict[str, CommandSpec] = {}
    for s in specs:
        names[s.name] = s
        for a in s.aliases:
            names[a] = s
    name = match_prefix(word, list(names), "command")
    return names[name]


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
    hits = exact or [
        u for u in pool if u.id.lower().startswith(w) or any(part.lower().startswith(w) for part in u.name.split())
    ]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise Refused(f"no unit {quoted(word)}" + (" on that side" if side or enemy_of else ""))
    raise Refused(f"{quoted(word)} could be {_or_list([u.id for u in hits])}")


def quoted(word: str, most: int = 40) -> str:
    """``word`` as a refusal quotes it: escaped, and cut if long."""
    return repr(word) if len(word) <= most else repr(word[:most]) + "…"


def check_line(text: str) -> None:
    """Refuse a line too long, or holding a character no command may hold."""
    if len(text) > MAX_LINE:
        raise Refused(f"a command is at most {MAX_LINE:,} characters; this one has {len(text):,}")
    bad = _CONTROL.search(text)
    if bad:
        raise Refused(f"a command cannot hold the control character {ascii(bad.group())} (column {bad.start() + 1})")


def whole_number(word: str, name: str, lo: int, hi: int) -> int:
    """``word`` as a whole number from ``lo`` to ``hi``, or Refused naming the bounds."""
    value = int(word) if _INT.fullmatch(word) else None
    if value is None or not lo <= value <= hi:
        raise Refused(f"{name} must be a whole number from {lo} to {hi}, not {quoted(word)}")
    return value


def distance(word: str, name: str, lo: int, hi: int, measure: str = "cm") -> int | Decimal | Fraction:
    """``word`` as a distance in ``measure`` from ``lo`` to ``hi``, or Refused naming
    the bounds and what is accepted.

    ``25``, ``25.5`` (two decimals at most: a tape reads half centimetres or
    millimetres), ``10in`` / ``10"`` / ``25cm`` in either unit, converted exactly.
    The value is exact: an ``int`` when whole, else a ``Decimal`` (a ``Fraction``
    only for centimetres read on tables in inches, which no decimal can hold).
    Commas, exponents, signs, ``nan`` and ``inf`` are refused, not guessed at.
    """
    m = _DISTANCE.fullmatch(word.strip())
    value: Fraction | None = None
    if m is not None:
        value = Fraction(m.group(1))
        given = {"in": "in", '"': "in", "cm": "cm"}.get((m.group(2) or measure).lower(), measure)
        if given == "in" and measure == "cm":
            value *= CM_PER_INCH
        elif given == "cm" and measure == "in":
            value /= CM_PER_INCH
    if value is None or not lo <= value <= hi:
        other = '10in or 10"' if measure == "cm" else "25cm"
        raise Refused(
            f"{name} must be a distance from {lo} to {hi} {measure}: a number with at most two decimals "
            f"after a point (25 or 25.5), or {other}; not {quoted(word)}"
        )
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
    param: Param, word: str, state: GameState, role: str, acting: str | None, marked: set[str] | None = None
) -> Any:
    kind = param.kind
    if kind == "int":
        return whole_number(word, param.name, param.lo, param.hi)
    if kind == "distance":
        return distance(word, param.name, param.lo, param.hi, param.measure)
    if kind == "choice":
        return match_prefix(word, list(param.choices), param.name)
    if kind == "side":
        return match_prefix(word, list(state.sides), "side")
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
    if kind == "text":
        return word
    raise AssertionError(f"unknown parameter kind {kind}")


def parse(text: str, specs: list[CommandSpec], state: GameState, role: str) -> Parsed:
    check_line(text)
    given = _words(text)
    words = [w for w, _ in given]
    if not words:
        raise Refused("empty command")
    spec = find_verb(words[0], specs)
    args: dict[str, Any] = {}
    faces: list[int] | None = None
    positional: list[str] = []
    params = list(spec.params)
    by_name = {p.name: p for p in params}
    choice_words = {c.lower(): p for p in params if p.kind == "choice" for c in p.choices}

    # A side's player acts for its own side; the referee acts for the side of
    # the first unit named (resolved below).
    acting: str | None = role if role in state.sides else None

    for w, literal in given[1:]:
        if "=" in w and not w.startswith("=") and not literal:
            key, _, value = w.partition("=")
            if key.lower() in DICE_KEYS:
                try:
                    faces = parse_faces(value)
                except ValueError as e:
                    raise Refused(str(e)) from None
                continue
            name = match_prefix(key, list(by_name), f"option for {spec.name}")
            args[name] = value
        else:
            positional.append(w)

    resolved: dict[str, Any] = {}
    marked: set[str] = set()
    pos_params = [p for p in params if not p.keyword and p.name not in args]
    i = 0
    for p in params:
        if p.name in args:
            if p.many:  # also=bashir,dahir: a list, however many are named
                words = [w for w in args[p.name].split(",") if w.strip()]
                resolved[p.name] = [_convert(p, w.strip(), state, role, acting, marked) for w in words]
            else:
                resolved[p.name] = _convert(p, args[p.name], state, role, acting, marked)
    leftovers: list[str] = []
    for w in positional:
        # A bare word that names a choice goes to that choice argument.
        cp = choice_words.get(w.lower())
        if cp is None:
            prefixed = [p for c, p in choice_words.items() if c.startswith(w.lower())]
            if len(prefixed) == 1 and not w.isdigit():
                cp = prefixed[0]
        if cp is not None and cp.name not in resolved and cp.keyword:
            resolved[cp.name] = _convert(cp, w, state, role, acting)
            continue
        leftovers.append(w)
    for w_index, w in enumerate(leftovers):
        while i < len(pos_params) and pos_params[i].name in resolved and not pos_params[i].many:
            i += 1
        if i >= len(pos_params):
            raise Refused(f"{spec.name}: unexpected {quoted(w)}; usage: {usage(spec)}")
        p = pos_params[i]
        if p.kind == "text":
            resolved[p.name] = " ".join(leftovers[w_index:])
            i = len(pos_params)
            break
        value = _convert(p, w, state, role, acting, marked)
        if p.kind in ("unit", "own") and acting is None and role == REFEREE:
            acting = state.units[value].side
        if p.many:
            resolved.setdefault(p.name, []).append(value)
        else:
            resolved[p.name] = value
            i += 1
    for p in params:
        if p.name not in resolved:
            if p.optional:
                resolved[p.name] = [] if p.many and p.default is None else p.default
            else:
                raise Refused(f"{spec.name}: missing {p.name}; usage: {usage(spec)}")
    units = [v for p in params if p.kind in ("unit", "own", "enemy") for v in _as_list(resolved.get(p.name))]
    return Parsed(spec, resolved, faces, text.strip(), acting or "", units, marked)


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def usage(spec: CommandSpec) -> str:
    parts = [spec.name]
    for p in spec.params:
        if p.keyword and p.kind == "choice":
            token = "|".join(p.choices)
        elif p.keyword:
            token = f"{p.name}=…"
        else:
            token = p.name + ("…" if p.many else "")
        parts.append(f"[{token}]" if p.optional else token)
    return " ".join(parts)


# ---------------------------------------------------------------------- completion


def complete(text: str, specs: list[CommandSpec], state: GameState, role: str) -> list[str]:
    """Candidates for the word being typed at the end of ``text`` (whole words)."""
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
        names = sorted({s.name for s in specs})
        return [n for n in names if n.startswith(current.lower())]
    try:
        spec = find_verb(before[0], specs)
    except Refused:
        return []
    if "=" in current:
        key, _, value = current.partition("=")
        p = next((p for p in spec.params if p.name.startswith(key.lower())), None)
        if p is None:
            return []
        return [f"{p.name}={c}" for c in _candidates(p, state, role) if c.lower().startswith(value.lower())]
    filled = len([w for w in before[1:] if "=" not in w])
    positional = [p for p in spec.params if not p.keyword]
    out: list[str] = []
    if filled < len(positional) or (positional and positional[-1].many):
        p = positional[min(filled, len(positional) - 1)]
        out += [c for c in _candidates(p, state, role) if c.lower().startswith(current.lower())]
    for p in spec.params:
        if p.keyword and p.kind == "choice":
            out += [c for c in p.choices if c.startswith(current.lower())]
        elif p.keyword and current and p.name.startswith(current.lower()):
            out.append(f"{p.name}=")
    if spec.rolls and "dice=".startswith(current.lower()) and current:
        out.append("dice=")
    seen: set[str] = set()
    return [c for c in out if not (c in seen or seen.add(c))]


def _candidates(p: Param, state: GameState, role: str) -> list[str]:
    if p.kind in ("unit", "own", "enemy"):
        pool = [u for u in state.units.values() if unit_visible(u, role) and u.in_play]
        if p.kind == "own" and role in state.sides:
            pool = [u for u in pool if u.side == role]
        if p.kind == "enemy" and role in state.sides:
            pool = [u for u in pool if u.side != role]
        return [u.id for u in pool] + (list(state.markers) if p.markers else [])
    if p.kind in ("choice", "text"):  # a text may offer its usual values (scenario names)
        return list(p.choices)
    if p.kind == "side":
        return list(state.sides)
    return []
