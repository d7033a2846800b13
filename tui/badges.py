"""Status badges: coloured words for the roster and the details lines.

A badge is a word a player reads, never a cut of one: a status in ``WORDS``
shows that word, any other (a ruleset's own, or one made up as the game goes:
``aboard-<vehicle>``, ``screened-by-<unit>``) shows its own words, its hyphens
as spaces, and a counting one keeps its number (``ready-2`` → ``ready 2``).
Colours are ANSI names so they stay distinct in a 16-colour terminal.

In another language than English a status is the ruleset's own word for it
(its ``term``, from its book) where its catalogue has one, else the badge's
word translated.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from core.language.i18n import CORE_DOMAIN, Domain
from core.language.reader import SOURCE, lang
from tui.i18n import N_, _

ALERT = "bold white on red"
HARM = "bold white on magenta"
CHECK = "bold black on yellow"
QUIET = "bold white on blue"
GOOD = "bold black on cyan"
PLAIN_STYLE = "bold black on white"
OUT_STYLE = ALERT

#: The statuses the rulesets set, as (word shown, style).  Where the status itself
#: reads well it is its own word; a long or coded one gets a shorter word that keeps
#: its sense.  (``tests/tui/test_tui_badges.py`` checks every status of every ruleset.)
WORDS: dict[str, tuple[str, str]] = {
    # Shared by the rulesets (core.rulesets.common.STATUSES).
    "hidden": (N_("hidden"), QUIET),
    "suppressed": (N_("suppressed"), CHECK),
    "pinned": (N_("pinned"), CHECK),
    "wounded": (N_("wounded"), HARM),
    "down": (N_("down"), ALERT),
    "retreating": (N_("retreating"), HARM),
    "stabilised": (N_("stabilised"), GOOD),
    "captured": (N_("captured"), ALERT),
    "in-vehicle": (N_("in vehicle"), PLAIN_STYLE),
    # What a figure did this turn.
    "acted": (N_("acted"), PLAIN_STYLE),
    "fired": (N_("fired"), PLAIN_STYLE),
    "moved": (N_("moved"), PLAIN_STYLE),
    "ran": (N_("ran"), PLAIN_STYLE),
    "dismounted": (N_("got out"), PLAIN_STYLE),
    "fired-at": (N_("fired at"), PLAIN_STYLE),
    "shot-at": (N_("shot at"), PLAIN_STYLE),
    "under-fire": (N_("under fire"), PLAIN_STYLE),
    "crept": (N_("crept"), PLAIN_STYLE),
    "looked": (N_("looked"), PLAIN_STYLE),
    "climbed": (N_("climbed"), PLAIN_STYLE),
    "covering": (N_("covering"), PLAIN_STYLE),
    "cautious": (N_("cautious"), PLAIN_STYLE),
    "running": (N_("running"), PLAIN_STYLE),
    "aiming": (N_("aiming"), PLAIN_STYLE),
    "aimed": (N_("aimed"), PLAIN_STYLE),
    "struck": (N_("struck"), HARM),
    # Breaking News.
    "off-table": (N_("off table"), QUIET),
    "panicked": (N_("panicked"), HARM),
    "rpg-fired": (N_("RPG fired"), PLAIN_STYLE),
    "reloading": (N_("reloading"), CHECK),
    "empty-mag": (N_("empty mag"), CHECK),
    "low-ammo": (N_("low ammo"), CHECK),
    "dodging": (N_("dodging"), PLAIN_STYLE),
    "falling-back": (N_("falling back"), HARM),
    "no-ammo": (N_("no ammo"), ALERT),
    # Bassa Intensità.
    "seriously-wounded": (N_("badly wounded"), HARM),
    "shocked": (N_("shocked"), CHECK),
    "shocked-now": (N_("shocked now"), CHECK),
    "prone": (N_("prone"), PLAIN_STYLE),
    "morale-due": (N_("morale due"), CHECK),
    "morale-fire": (N_("morale: fire"), CHECK),
    "morale-table-1": (N_("morale table 1"), CHECK),
    "morale-table-2": (N_("morale table 2"), CHECK),
    "morale-cover-light": (N_("cover: light"), CHECK),
    "morale-cover-heavy": (N_("cover: heavy"), CHECK),
    "morale-cover-trench": (N_("cover: trench"), CHECK),
    "shot-auto": (N_("auto fire"), PLAIN_STYLE),
    "shot-single": (N_("single shot"), PLAIN_STYLE),
    "struck-wounded": (N_("struck: wounded"), HARM),
    "held-fire": (N_("held fire"), PLAIN_STYLE),
    "balked": (N_("balked"), CHECK),
    "moved-stabilised": (N_("moved stabilised"), PLAIN_STYLE),
    "slowed-twice": (N_("slowed twice"), CHECK),
    "slowed": (N_("slowed"), CHECK),
    "immobilised": (N_("immobilised"), HARM),
    "radio-out": (N_("radio out"), CHECK),
    "turret-jammed": (N_("turret jammed"), HARM),
    "damaged": (N_("damaged"), HARM),
    "combat-vehicle": (N_("combat vehicle"), PLAIN_STYLE),
    "leader": (N_("leader"), GOOD),
    "landed": (N_("landed"), PLAIN_STYLE),
    "hovering": (N_("hovering"), PLAIN_STYLE),
    "rotor-damaged": (N_("rotor damaged"), HARM),
    "gassed": (N_("gassed"), HARM),
    "on-road": (N_("on road"), PLAIN_STYLE),
    "emplaced": (N_("emplaced"), GOOD),
    "one-crew": (N_("one crewman"), CHECK),
    "must-reload": (N_("must reload"), CHECK),
    # Linea di Tiro: the activation option taken (LT-R020, data/activation.toml).
    "A1": (N_("A1 bound+prepare"), PLAIN_STYLE),
    "A2": (N_("A2 bound+execute"), PLAIN_STYLE),
    "A3": (N_("A3 exec+prepare"), PLAIN_STYLE),
    "A4": (N_("A4 two attacks"), PLAIN_STYLE),
    "A5": (N_("A5 full speed"), PLAIN_STYLE),
    "A6": (N_("A6 mount"), PLAIN_STYLE),
    "A7": (N_("A7 recover"), PLAIN_STYLE),
    "opportunity": (N_("opportunity"), CHECK),
    "shelled": (N_("shelled"), HARM),
    # Ludonet.
    "hit-wound": (N_("hit: wound"), HARM),
    "hit-immobilise": (N_("hit: immobilise"), HARM),
    "hit-kill": (N_("hit: kill"), ALERT),
    "overhead": (N_("overhead"), PLAIN_STYLE),
}
#: The order of a figure's badges, by their colour: what takes a figure out of play or
#: bars what he may do first, what he did this turn last, so that a roster row cut at
#: its edge keeps what matters (#48).
RANK = {ALERT: 0, HARM: 1, CHECK: 2, QUIET: 3, GOOD: 4, PLAIN_STYLE: 5}

#: Counting badges (``he-2``): the word for what is counted, then the count.
COUNTED: dict[str, str] = {
    "he": N_("HE streak"),  # Linea di Tiro: HE fire kept on a target
    "attacks": N_("attacks"),
    "prepare": N_("to prepare"),  # Linea di Tiro: attacks an activation may still prepare
    "ready": N_("ready"),
    "fired": N_("fired"),
    "tired": N_("tired"),
    "motivation": N_("motivation"),
}
#: The longest word in ``WORDS``: a badge takes at most this much of a roster row.
MAX_WORD = 16


def word(status: str, domain: str = "", named: Callable[[str], str] | None = None) -> str:
    """The word a badge shows for ``status`` (``domain``: the ruleset's, for its own words;
    ``named``: the ruleset's words for a badge that holds a piece's id, ``aboard-truck``
    → ``aboard ACM 90 truck``, ``Ruleset.status_words``)."""
    if named is not None and status not in WORDS:
        said = named(status)
        if said != status and said != Domain(domain or CORE_DOMAIN).term(status):
            return said
    if lang() != SOURCE:
        book = Domain(domain or CORE_DOMAIN).term(status)
        if book != status:
            return book
    known = WORDS.get(status)
    if known is not None:
        return _(known[0])
    counted, sep, count = status.rpartition("-")
    if counted in COUNTED and count.isdigit():
        return f"{_(COUNTED[counted])} {count}"
    return status.replace("-", " ")


def style_of(status: str) -> str:
    return WORDS.get(status, ("", PLAIN_STYLE))[1]


def badge(status: str, domain: str = "", named: Callable[[str], str] | None = None) -> Text:
    return Text(f" {word(status, domain, named)} ", style=style_of(status))


def in_order(statuses: tuple[str, ...]) -> list[str]:
    """``statuses`` in the order their badges are shown (``RANK``; else as the game keeps them)."""
    return sorted(statuses, key=lambda status: RANK[style_of(status)])


def badges(
    statuses: tuple[str, ...], out: object = "", domain: str = "", named: Callable[[str], str] | None = None
) -> Text:
    text = Text()
    if out:
        text.append(" ")
        # TRANSLATORS: the badge of a figure out of action, in the roster
        text.append(" " + _("out") + " ", style=OUT_STYLE)
    for s in in_order(statuses):
        text.append(" ")
        text.append_text(badge(s, domain, named))
    return text


def legend() -> list[tuple[Text, str]]:
    """What the colours say (the words say the rest), for the help screen."""
    return [
        (badge("hidden"), _("unseen by the enemy, or off the table")),
        (badge("suppressed"), _("a penalty or a check due: suppressed, pinned, shocked, morale due")),
        (badge("wounded"), _("harmed: wounded, retreating, damaged, immobilised")),
        (Text(" " + _("out") + " ", style=OUT_STYLE), _("out of action; also down, captured")),
        (badge("stabilised"), _("for the better: stabilised, leader")),
        (badge("fired"), _("what the figure did this turn, or a status in the ruleset's own words")),
    ]
