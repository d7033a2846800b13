"""How long a line takes to hear, and an answer cut to be heard in under half a minute (issue #91).

A blind player hears each answer through a speech synthesiser (eSpeak NG at its default rate
at the club that asked): ``why`` after a roll took 87 s, ``? fire …`` two minutes.  An answer
that explains (``why``, ``? COMMAND``, ``rule?``) is said up to :data:`BUDGET_S` and its rest
kept for ``more``, which says it the same way, nothing lost (``tui.lines.client``); its lines
come answer first (``tui.lines.why``), so what is cut is the working behind it.

:func:`seconds` estimates a text's time from its letters, digits and signs, at the rates
eSpeak NG read the line client's answers at: 750 lines of the recorded demo game's answers
(its log, roster, help, status, secrets and ``why`` of 17 steps) in each language, fitted by
least squares (2026-11-29: the estimate within 10% of eSpeak NG's time for 9 lines in 10, and
within 11% for every line over 8 s).  A digit costs five letters (``150`` is "one hundred and
fifty"), a sign three or four (``4+`` is "four plus").  ``fireteam bench --spoken`` reads the
answers with eSpeak NG itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from tui.lines.ink import Inked, Line

#: An answer is said up to this long, as estimated: the bar, 30 s, less ``more``'s own line
#: after it (2.5 s) and what the estimate may fall short of eSpeak NG's time on a long answer (8%).
BUDGET_S = 25.5

_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_SIGN = re.compile(r"[^\w\s]")


class Rates(NamedTuple):
    """Seconds eSpeak NG takes for each letter, digit and sign, and for a line's own pause."""

    letter: float
    digit: float
    sign: float
    line: float


#: By language (see the module's doc); another language is estimated as English.
RATES = {"en": Rates(0.06, 0.32, 0.22, 0.3), "it": Rates(0.062, 0.38, 0.19, 0.4)}


def line_seconds(line: str, lang: str) -> float:
    """``line`` read at eSpeak NG's default rate in ``lang``, estimated (see the module's doc)."""
    r = RATES.get(lang, RATES["en"])
    letters, digits, signs = (len(p.findall(line)) for p in (_LETTER, _DIGIT, _SIGN))
    return letters * r.letter + digits * r.digit + signs * r.sign + r.line


def _text(line: Line) -> str:
    return line.text if isinstance(line, Inked) else line


def seconds(lines: Sequence[Line], lang: str) -> float:
    """Lines read one after another, estimated."""
    return sum(line_seconds(_text(line), lang) for line in lines)


#: Where a line is cut when its answer is too long to hear at once: after a sentence, and where a
#: sentence alone is too long, after a clause, then after a comma.
_SENTENCE = re.compile(r"(?<=[\w)%][.!?])\s+(?=[A-ZÀ-ÖØ-Þ])")  # (not "? fire": a word typed, then lower case)
_CLAUSES = ("; ", ", ")


def _pieces(line: Line, lang: str, budget: float) -> list[Line]:
    """``line`` cut into its sentences, and a sentence heard in over ``budget`` at its clauses, else
    at its commas; a piece with neither is left whole, and so is a line with a colour."""
    if isinstance(line, Inked):
        return [line]
    sentences = _SENTENCE.split(line)
    if len(sentences) > 1:
        return [piece for sentence in sentences for piece in _pieces(sentence, lang, budget)]
    if line_seconds(line, lang) <= budget:
        return [line]
    for mark in _CLAUSES:
        parts = line.split(mark)
        if len(parts) < 2:
            continue
        pieces: list[str] = []
        for part in parts:
            joined = f"{pieces[-1]}{mark}{part}" if pieces else part
            if pieces and line_seconds(joined, lang) <= budget:
                pieces[-1] = joined
            else:
                pieces.append(part)
        ends = [piece + mark.strip() for piece in pieces[:-1]] + pieces[-1:]
        return [cut for piece in ends for cut in _pieces(piece, lang, budget)]
    return [line]


def first_heard(
    lines: Sequence[Line], lang: str, budget: float = BUDGET_S, *, lead: bool = False
) -> tuple[list[Line], list[Line]]:
    """What of ``lines`` is said now, and what is kept: all of them if they are heard within
    ``budget``; else their sentences (a sentence too long cut at its clauses: ``_pieces``), in
    order, while their time is within it, and always the first.  ``lead``: an answer's first part,
    which says of the sentence that does not fit its first clause where it does (a rule's
    statement begun in the answer, not only in ``more``: ``? fire …``'s firing table says first
    that each die at or over its number hits); ``more`` cuts a list of rules at none."""
    if seconds(lines, lang) <= budget:
        return list(lines), []
    pieces = [piece for line in lines for piece in _pieces(line, lang, budget)]
    now: list[Line] = []
    spent = 0.0
    for piece in pieces:
        took = line_seconds(_text(piece), lang)
        if now and spent + took > budget:
            break
        spent += took
        now.append(piece)
    rest = pieces[len(now) :]
    begun, mark, left = _text(rest[0]).partition(_CLAUSES[0]) if rest else ("", "", "")
    if lead and mark and isinstance(rest[0], str) and spent + line_seconds(begun + ";", lang) <= budget:
        now.append(begun + ";")
        rest = [*_pieces(left, lang, budget), *rest[1:]]
    return now, rest
