"""Bassa Intensità's words: its catalogue (domain ``bassa_intensita``) and the
messages its events hold in place of sentences (core.language.i18n: events hold no words).

Display code translates now with ``_`` / ``pgettext``; a rule that records a fact
in words makes a message with ``M`` (``core.language.i18n``), and a word that comes from the
tables (a row, a label, a weapon's name, a difficulty) with :func:`word`, listed in
the catalogue by :func:`phrases`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from core.language.i18n import Domain, M, Msg, Text, english_words, translations
from core.language.reader import lang

DOMAIN = "bassa_intensita"
_words = Domain(DOMAIN)
_ = _words.gettext
pgettext = _words.pgettext


def word(text: str) -> Msg:
    """A word of the ruleset's data in an event (``BassaIntensita.phrases`` lists it)."""
    return M(text)


def whose(name: str) -> Msg:
    """``Omar's`` / ``Marras'``: a name as an owner; Italian puts ``di Omar`` after the noun."""
    return M("{name}'", name=name) if name.endswith("s") else M("{name}'s", name=name)


def listing(items: Sequence[Text], sep: str = ",") -> Text:
    """Items one after another as one message whatever their number: ``a, b, c``
    (``sep=";"``: ``a; b; c``, ``sep="and"``: ``a and b and c``)."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        if sep == "and":
            out = M("{a} and {b}", a=item, b=out)
        elif sep == ";":
            out = M("{a}; {b}", a=item, b=out)
        else:
            out = M("{a}, {b}", a=item, b=out)
    return out


def typed(name: str) -> str:
    """``name`` as a referee types it in one word: lower case, without accents, each run of
    spaces and signs a hyphen ("Fucile d'Assalto": ``fucile-d-assalto``)."""
    folded = "".join(c for c in unicodedata.normalize("NFD", name.lower()) if not unicodedata.combining(c))
    return re.sub(r"[^\w.]+", "-", folded).strip("-")


def typed_names(term: str) -> set[str]:
    """Every name a referee may type for ``term`` (a weapon's id): the id, and its name in
    each language's catalogue (``lanciarazzi-rpg`` for ``rpg``), whatever his own, so a line
    typed in Italian replays in English."""
    return {term, *(typed(n) for n in _words.in_every_language("term", term))}


def typed_term(term: str) -> str:
    """``term`` (a weapon's or a burst's source's id) as the reader types it: its name in his
    language's catalogue (``lanciarazzi-rpg`` for ``rpg``), else the id, which any reader may
    type (an English reader types the ids)."""
    said = translations(lang(), DOMAIN).pgettext("term", term)
    return typed(said) if said != term else term


def render(text: Text) -> str:
    """``text`` in the reader's language, with this ruleset's words."""
    return _words.render(text)


# The badges and phases the code names with a hyphen, in English words (the
# catalogue translates each id): what a player reads in the log.
english_words(
    DOMAIN,
    "term",
    {
        "in-vehicle": "aboard a vehicle",
        "morale-due": "due a morale check",
        "morale-fire": "under fire for morale",
        "morale-table-2": "morale check at -2",
        "morale-table-1": "morale check at -1",
        "morale-cover-light": "in light cover for morale",
        "morale-cover-heavy": "in heavy cover for morale",
        "morale-cover-trench": "in a trench for morale",
        "on-road": "on a road",
        "one-crew": "one crewman",
        "must-reload": "must reload",
        "fired-at": "fired at by automatic weapons or HE",
        "under-fire": "under fire last turn",
        "seriously-wounded": "seriously wounded",
        "shocked-now": "shocked this turn",
        "shot-auto": "fired on automatic",
        "shot-at": "fired at by automatic weapons or HE in this phase",
        "shot-single": "fired single shots",
    },
)
english_words(
    DOMAIN,
    "phase",
    {
        "cover": "covering fire",
        "move-first": "first movement",
        "move-second": "second movement",
        "observe": "observation",
        "fire-elite": "elite fire",
        "fire-veteran": "veterans' fire",
        "fire-regular": "regulars' fire",
        "fire-recruit": "recruits' fire",
        "fire-rabble": "rabble's fire",
        "final": "last turn over",
    },
)
