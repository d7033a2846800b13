"""Signs that carry meaning, written in words for the line client: a playing card; and a
roll's outcome whose book word a voice would misread; and what no voice should read at all:
a digest, a hash or a key, and the arrow between a roll's faces and its outcome.

A screen reader spells a sign out by its Unicode name: Linea di Tiro's card
``8♠`` is read "8 black spade suit", its shuffled deck a string of such names.
The line client writes a card in the reader's words instead (``8 of spades``,
``ace of hearts``; in Italian ``8 di picche``), wherever it appears: the log,
the turn and phase, a card drawn.  (The signs that are only decoration, the
log pane's ``»`` and ``↶``, are left out where the lines are made:
``tui.lines.answers``.)

A digest, a hash or a key is left out of every line (issue #91): a confirmation's 64 hex digits
took 22 s aloud at eSpeak NG's default rate, a commitment's sixteen 5 s, and no listener compares
them (the game checks every commitment when its secret is opened; ``fireteam log`` and the
client's screens show them all).  Taken for one: a run of 16 or more hex digits (no number the
game says is that long), an SSH key's fingerprint (``SHA256:`` and 43 base64
characters) and an OpenSSH public key's data (``AAAA…``); with the ``name=`` or the ``: `` that
introduces it (``key=SHA256:…``, ``commitment to a secret: 3f2a…``).

The arrow between a roll's faces and what they came to (``2 → failed``) is read "right arrow" by
eSpeak NG in English ("freccia destra" in Italian), 0.6 s in every roll said: a comma instead.
"""

from __future__ import annotations

import re

from core.language.i18n import Msg, Text
from tui.i18n import _, pgettext

#: A card as the rulesets write it: its rank, then its suit's sign (``10♦``, ``A♠``).
_CARD = re.compile(r"(?<![\w])(10|[2-9]|[AJQK])([♥♦♠♣])")
#: A card or joker followed by another, a space between (a deck as Linea di Tiro writes it).
_IN_A_ROW = re.compile(r"(?<![\w])(?:(?:10|[2-9]|[AJQK])[♥♦♠♣]|Joker)(?= (?:(?:10|[2-9]|[AJQK])[♥♦♠♣]|Joker))")


def _rank(rank: str) -> str:
    named = {
        "A": pgettext("card", "ace"),
        "J": pgettext("card", "jack"),
        "Q": pgettext("card", "queen"),
        "K": pgettext("card", "king"),
    }
    return named.get(rank, rank)


def _suit(sign: str) -> str:
    return {
        "♥": pgettext("card", "hearts"),
        "♦": pgettext("card", "diamonds"),
        "♠": pgettext("card", "spades"),
        "♣": pgettext("card", "clubs"),
    }[sign]


#: A digest, a hash or a key (see the module's doc), with the ``name=``, ``: `` or space before it.
_UNSAID = re.compile(
    r"(?:\s[\w-]+=|:\s|\s|(?<![\w/+=]))"
    r"(?:SHA256:[A-Za-z0-9+/]{43}=?|[0-9a-f]{16,}|AAAA[A-Za-z0-9+/]{40,}={0,2})"
    r"(?![\w/+=])"
)


def unhashed(text: str) -> str:
    """``text`` without its digests, hashes and keys (see the module's doc)."""
    return _UNSAID.sub("", text)


def spoken(text: str) -> str:
    """``text`` with every playing card written in words, in the reader's language, and
    without its digests, hashes and keys, or a roll's arrow."""
    text = unhashed(text).replace(" → ", ", ")
    if not any(sign in text for sign in "♥♦♠♣"):
        return text
    # TRANSLATORS: a playing card read out: "8 of spades", "ace of hearts"
    card = _("{rank} of {suit}")
    text = _IN_A_ROW.sub(r"\g<0>,", text)  # cards in a row read as a list, not one run of words
    return _CARD.sub(lambda m: card.format(rank=_rank(m[1]), suit=_suit(m[2])), text)


def _hits(n: int) -> str:
    # TRANSLATORS: a roll's outcome read aloud; the Italian book writes "hit", an Italian voice reads "it"
    return pgettext("spoken", "1 hit") if n == 1 else pgettext("spoken", "{n} hits").format(n=n)


#: Outcomes said in the reader's spoken words, by their message (Breaking News' §8.0 hits: the
#: Italian book keeps the English "hit", which the screen shows; docs/rulings.md).
_SPOKEN_OUTCOMES = {"{n} hit": _hits, "{n} hits": _hits}


def spoken_outcome(outcome: Text) -> str | None:
    """A roll's outcome as the line client says it, when it has words of its own for it; else None."""
    if not isinstance(outcome, Msg) or outcome.id not in _SPOKEN_OUTCOMES:
        return None
    n = outcome.args.get("n")
    return _SPOKEN_OUTCOMES[outcome.id](n) if isinstance(n, int) else None
