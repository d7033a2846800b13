"""Who won, as the end fact's data says it (``GameEnded``, ruling CORE-RESULT-DATA).

Every place that says a game's result (the log's line, the client's panes, the plain
seat, the report, the venue's pages) says it from here: who won, or a draw, and each
side's score, read from the end fact's ``winner``, ``draw`` and ``scores``, never from
its words; the words follow, as the ruleset wrote them (the reason, the losses).  A
save from before those fields names neither a winner nor a draw: its words alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.language.i18n import _
from core.language.numerals import grouped


def scores_said(scores: Mapping[str, int], name: Callable[[str], str]) -> str:
    """Each side's score by its name, in the order the end gives them: ``Bersaglieri 30, Somali militia 20``."""
    return ", ".join(f"{name(side)} {grouped(points)}" for side, points in scores.items())


def result_said(words: str, winner: str, draw: bool, scores: Mapping[str, int], name: Callable[[str], str]) -> str:
    """The result in full: who won and the scores from the data, then ``words`` (the
    result's own words, already in the reader's language); ``words`` alone where the
    data names neither a winner nor a draw (a save from before it)."""
    if winner:
        head = _("{side} won").format(side=name(winner))
    elif draw:
        head = _("a draw")
    else:
        return words
    if scores:
        head = _("{result} ({scores})").format(result=head, scores=scores_said(scores, name))
    return _("{result} — {words}").format(result=head, words=words) if words else head
