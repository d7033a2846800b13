"""Status badges: coloured words for the roster and the details lines.

A badge is a word a player reads, never a cut of one: a status in ``WORDS``
shows that word, any other (a ruleset's own, or one made up as the game goes:
``aboard-<vehicle>``, ``screened-by-<unit>``) shows its own words, its hyphens
as spaces, and a counting one keeps its number (``ready-2`` → ``ready 2``).
Colours are ANSI names so they stay distinct in a 16-colour terminal.
"""

from __future__ import annotations

from rich.text import Text

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
    "hidden": ("hidden", QUIET),
    "suppressed": ("suppressed", CHECK),
    "pinned": ("pinned", CHECK),
    "wounded": ("wounded", HARM),
    "down": ("down", ALERT),
    "retreating": ("retreating", HARM),
    "stabilised": ("stabilised", GOOD),
    "captured": ("captured", ALERT),
    "in-vehicle": ("in vehicle", PLAIN_STYLE),
    # What a figure did this turn.
    "acted": ("acted", PLAIN_STYLE),
    "fired": ("fired", PLAIN_STYLE),
    "moved": ("moved", PLAIN_STYLE),
    "ran": ("ran", PLAIN_STYLE),
    "crept": ("crept", PLAIN_STYLE),
    "looked": ("looked", PLAIN_STYLE),
    "climbed": ("climbed", PLAIN_STYLE),
    "covering": ("covering", PLAIN_STYLE),
    "cautious": ("cautious", PLAIN_STYLE),
    "running": ("running", PLAIN_STYLE),
    "aiming": ("aiming", PLAIN_STYLE),
    "aimed": ("aimed", PLAIN_STYLE),
    "struck": ("struck", HARM),
    # Breaking News.
    "off-table": ("off table", QUIET),
    "panicked": ("panicked", HARM),
    "rpg-fired": ("RPG fired", PLAIN_STYLE),
    "reloading": ("reloading", CHECK),
    "empty-mag": ("empty mag", CHECK),
    "low-ammo": ("low ammo", CHECK),
    "dodging": ("dodging", PLAIN_STYLE),
    "falling-back": ("falling back", HARM),
    "no-ammo": ("no ammo", ALERT),
    # Bassa Intensità.
    "seriously-wounded": ("badly wounded", HARM),
    "shocked": ("shocked", CHECK),
    "shocked-now": ("shocked now", CHECK),
    "prone": ("prone", PLAIN_STYLE),
    "morale-due": ("morale due", CHECK),
    "morale-fire": ("morale: fire", CHECK),
    "morale-table-1": ("morale table 1", CHECK),
    "morale-table-2": ("morale table 2", CHECK),
    "shot-auto": ("auto fire", PLAIN_STYLE),
    "shot-single": ("single shot", PLAIN_STYLE),
    "struck-wounded": ("struck: wounded", HARM),
    "held-fire": ("held fire", PLAIN_STYLE),
    "balked": ("balked", CHECK),
    "moved-stabilised": ("moved stabilised", PLAIN_STYLE),
    "slowed-twice": ("slowed twice", CHECK),
    "slowed": ("slowed", CHECK),
    "immobilised": ("immobilised", HARM),
    "radio-out": ("radio out", CHECK),
    "turret-jammed": ("turret jammed", HARM),
    "damaged": ("damaged", HARM),
    "combat-vehicle": ("combat vehicle", PLAIN_STYLE),
    "leader": ("leader", GOOD),
    "landed": ("landed", PLAIN_STYLE),
    "hovering": ("hovering", PLAIN_STYLE),
    "rotor-damaged": ("rotor damaged", HARM),
    "gassed": ("gassed", HARM),
    # Linea di Tiro: the activation option taken (LT-R020, data/activation.toml).
    "A1": ("A1 bound+prepare", PLAIN_STYLE),
    "A2": ("A2 bound+execute", PLAIN_STYLE),
    "A3": ("A3 exec+prepare", PLAIN_STYLE),
    "A4": ("A4 two attacks", PLAIN_STYLE),
    "A5": ("A5 full speed", PLAIN_STYLE),
    "A6": ("A6 mount", PLAIN_STYLE),
    "A7": ("A7 recover", PLAIN_STYLE),
    "opportunity": ("opportunity", CHECK),
    "shelled": ("shelled", HARM),
    # Ludonet.
    "hit-wound": ("hit: wound", HARM),
    "hit-immobilise": ("hit: immobilise", HARM),
    "hit-kill": ("hit: kill", ALERT),
    "overhead": ("overhead", PLAIN_STYLE),
}
#: Counting badges (``he-2``): the word for what is counted, then the count.
COUNTED: dict[str, str] = {
    "he": "HE streak",  # Linea di Tiro: HE fire kept on a target
    "attacks": "attacks",
    "ready": "ready",
    "fired": "fired",
    "tired": "tired",
    "motivation": "motivation",
}
#: The longest word in ``WORDS``: a badge takes at most this much of a roster row.
MAX_WORD = 16


def word(status: str) -> str:
    """The word a badge shows for ``status``."""
    known = WORDS.get(status)
    if known is not None:
        return known[0]
    counted, _, count = status.rpartition("-")
    if counted in COUNTED and count.isdigit():
        return f"{COUNTED[counted]} {count}"
    return status.replace("-", " ")


def badge(status: str) -> Text:
    style = WORDS.get(status, ("", PLAIN_STYLE))[1]
    return Text(f" {word(status)} ", style=style)


def badges(statuses: tuple[str, ...], out: str = "") -> Text:
    text = Text()
    for s in statuses:
        text.append(" ")
        text.append_text(badge(s))
    if out:
        text.append(" ")
        text.append(" out ", style=OUT_STYLE)
    return text


def legend() -> list[tuple[Text, str]]:
    """What the colours say (the words say the rest), for the help screen."""
    return [
        (badge("hidden"), "unseen by the enemy, or off the table"),
        (badge("suppressed"), "a penalty or a check due: suppressed, pinned, shocked, morale due"),
        (badge("wounded"), "harmed: wounded, retreating, damaged, immobilised"),
        (Text(" out ", style=OUT_STYLE), "out of action; also down, captured"),
        (badge("stabilised"), "for the better: stabilised, leader"),
        (badge("fired"), "what the figure did this turn, or a status in the ruleset's own words"),
    ]
