"""What a line and its words may be: the line's checks, whole numbers, distances as a tape
reads them, and a word as the value of the argument it fills (and as the record writes it)."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.commands.naming import DISTANCE, also_chosen, decimal_point, fold, local_name, local_namer, number
from core.commands.pieces import find_side, find_team, find_unit
from core.commands.words import could_be, match_word, quoted
from core.language.i18n import CORE_DOMAIN, Domain, _
from core.language.reader import SOURCE, lang
from core.log.state import GameState
from core.log.views import marker_unit
from core.refusal import TYPING
from core.ruleset import Param, Refused

#: The longest command line, in characters: room for any command and a long
#: note, while a refusal that quotes a word of it stays short enough to show.
MAX_LINE = 2_000
#: Characters no command may hold: control characters (a tab is a space), line
#: and paragraph separators, and the bidirectional overrides that make text
#: read otherwise than it is stored.  Written into the log they would reach
#: every seat's terminal.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_INT = re.compile(r"[+-]?[0-9]{1,9}")
#: Centimetres in an inch, exactly.
CM_PER_INCH = Fraction(254, 100)


def check_line(text: str) -> None:
    """Refuse a line too long, or holding a character no command may hold."""
    if len(text) > MAX_LINE:
        raise Refused(
            _("a command is at most {most} characters; this one has {length}").format(
                most=number(MAX_LINE), length=number(len(text))
            ),
            rule=TYPING,
        )
    bad = _CONTROL.search(text)
    if bad:
        raise Refused(
            _("a command cannot hold the control character {char} (column {column})").format(
                char=ascii(bad.group()), column=bad.start() + 1
            ),
            rule=TYPING,
        )


def whole_number(word: str, name: str, lo: int, hi: int) -> int:
    """``word`` as a whole number from ``lo`` to ``hi``, or Refused naming the bounds."""
    value = int(word) if _INT.fullmatch(word) else None
    if value is None or not lo <= value <= hi:
        raise Refused(
            _("{name} must be a whole number from {lo} to {hi}, not {word}").format(
                name=name, lo=lo, hi=hi, word=quoted(word)
            ),
            rule=TYPING,
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
    m = DISTANCE.fullmatch(_with_point(word.strip()))
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
        raise Refused(template.format(name=name, lo=lo, hi=hi, point=point, word=quoted(word)), rule=TYPING)
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


def value_of(
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
        return choice_named(word, param, shown, domain)[0]
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


def choice_named(word: str, param: Param, shown: str, domain: str) -> tuple[str, bool]:
    """The choice of ``param`` ``word`` names, and whether in the reader's language (as
    :func:`match_word`, with the other words he types for it, :func:`also_chosen`).  A cut
    word that begins one choice's name and another's other word is refused naming both:
    Italian ``s`` is *sì* (on) as much as *spenti* (off), and a switch is never read backwards."""
    local = local_namer("choice", domain)
    choice, mine = match_word(word, list(param.choices), shown, local, formerly=also_chosen, offered=also_chosen)
    typed = fold(word)
    if typed not in (choice, fold(local(choice)), *map(fold, also_chosen(choice))):
        also = [a for c in param.choices if c != choice for a in also_chosen(c) if fold(a).startswith(typed)]
        if also:
            raise Refused(could_be(word, [local(choice), *also]), rule=TYPING)
    return choice, mine


def recorded_as(param: Param, word: str, domain: str) -> str | None:
    """How the record writes ``word`` given for ``param``, where the reader's language
    wrote it otherwise: a choice by its English name, a distance with a point; None
    where it is recorded as typed."""
    if lang() == SOURCE:
        return None
    if param.kind == "choice":
        choice, mine = choice_named(word, param, param.name, domain)
        return choice if mine else None
    if param.kind == "distance":
        pointed = _with_point(word)
        return pointed if pointed != word else None
    return None
