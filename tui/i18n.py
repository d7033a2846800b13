"""The client's words in the reader's language (``core.language.i18n``, domain ``client``).

Every module of ``tui/`` (but ``tui/ssh/``, the server's) says what it shows with
``_("… {field} …").format(field=...)``, imported from here; a constant shown
later (a binding's description, a table's row) is marked ``N_`` and translated
where it is drawn, so a change of language shows at the next repaint.

The language is the reader's (``core.language.reader.reader()``): each app, and over SSH
each seat, reads its own, and the setting in the client changes that reader in
place (``FireteamApp.set_language``).  Which language a local client starts in:
``--lang``, else the language saved in its settings, else the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from string import Formatter

from rich.text import Text as RichText

from core.dice.probability import percent
from core.language.i18n import CLIENT_DOMAIN, N_, Domain, Text, naming, render, scenario_words
from core.language.numerals import grouped, localised
from core.language.reader import LANGUAGES, from_environment
from core.log.narrate import sides_of
from core.log.state import GameState
from core.ruleset import Phase, Ruleset

__all__ = [
    "N_",
    "_",
    "ngettext",
    "pgettext",
    "start_language",
    "phase_name",
    "book",
    "shown",
    "number",
    "styled",
    "percentage",
    "scenario_words",
    "side_name",
]

_client = Domain(CLIENT_DOMAIN)
_ = _client.gettext
ngettext = _client.ngettext
pgettext = _client.pgettext

#: Words Textual itself shows in the client's footer, translated there.
TEXTUAL_WORDS = (N_("palette"),)


def start_language(cli: str | None, saved: str, environ: Mapping[str, str] | None = None) -> str:
    """The language a local client starts in: ``--lang``, the saved setting, the locale, English."""
    for choice in (cli, saved):
        if choice in LANGUAGES:
            return choice
    return from_environment(environ)


def book(ruleset: Ruleset) -> Domain:
    """The ruleset's own words (its catalogue, falling back to the client's and the core's)."""
    return Domain(ruleset.domain)


def phase_name(ruleset: Ruleset, phase: Phase) -> str:
    """A phase's name as the book gives it in the reader's language (its ``phase``
    translation), else its title translated, else its title."""
    words = book(ruleset)
    name = words.pgettext("phase", phase.id)
    return name if name != phase.id or not phase.title else words.gettext(phase.title)


def phase_words(ruleset: Ruleset, phase_id: str) -> str:
    """The phase ``phase_id`` in the reader's words; one its ruleset does not list (the
    game's ``ended``) as the book's catalogue words it."""
    phase = ruleset.phase(phase_id)
    return phase_name(ruleset, phase) if phase else book(ruleset).pgettext("phase", phase_id)


def role_words(role: str, state: GameState) -> str:
    """A role as the reader knows it: the referee and the spectator in his words, a side
    by its name (its id is what ``--as`` and the seats file take)."""
    if role == "referee":
        return _("referee")
    if role == "spectator":
        return _("spectator")
    return scenario_words(state.side_name(role))  # a built-in side as its roster names it


def given_words(by: str, faces: list[int]) -> str:
    """What a seat is told of a roll it was asked that another seat gave: whose, and the faces (issue #77)."""
    return _("given by {seat}: {faces}").format(seat=by, faces=" ".join(str(f) for f in faces))


def side_name(state: GameState, side_id: str) -> str:
    """A side by its scenario's name in the reader's language (its id where there is no such side)."""
    side = state.sides.get(side_id)
    return scenario_words(side.name) if side else side_id


def shown(text: Text, ruleset: Ruleset, state: GameState | None = None) -> str:
    """Words a game holds (an event's ``Msg``, an older save's English) in the reader's language;
    with ``state``, a side they name by id by its name (``core.language.i18n.naming``)."""
    if state is None:
        return render(text, ruleset.domain)
    with naming(sides_of(state)):
        return render(text, ruleset.domain)


def number(n: int | float | Decimal) -> str:
    """A number as the reader writes it: ``1,000,000`` in English, ``1.000.000`` in Italian."""
    return grouped(n)


def percentage(p: Fraction) -> str:
    """``core.dice.probability.percent`` (``70.4%``) with the reader's decimal sign (``70,4%``)."""
    return localised(percent(p))


def styled(template: str, style: str = "", **fields: str | tuple[str, str]) -> RichText:
    """A translated ``template`` as rich text, each field filled with its value, or
    with ``(value, style)`` in a style of its own: a sentence whose word order is
    the language's keeps the styles of its parts."""
    out = RichText(style=style)
    for literal, name, _spec, _conversion in Formatter().parse(template):
        out.append(literal)
        if name is not None:
            value = fields[name]
            if isinstance(value, tuple):
                out.append(value[0], style=value[1])
            else:
                out.append(value)
    return out
