"""Breaking News in the reader's language: its catalogue (``breaking_news``) and the
book's words its tables hold.

Display code translates now with ``_`` / ``pgettext``; events keep words as
:class:`core.language.i18n.Msg` (``M``), rendered when shown.  A word read from a data table
(a weapon's, a class's, an extra's name) reaches an event as ``M(name)``: its
Italian is catalogued here, as babel reads no TOML, and a test checks that every
name the tables hold is listed (tests/breaking_news/test_bn_i18n.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.language.i18n import N_, Domain, M, Msg, english_words

DOMAIN = Domain("breaking_news")
_ = DOMAIN.gettext
pgettext = DOMAIN.pgettext

#: The variant that plays the Italian draft of 9 December 2009 (its own rows of the tables and
#: rules; named here, where the ruleset's declaration reads it without the tables' module).
IT = "it-2009-12-09"

#: Every status a Breaking News figure may show (hits.py's badges, §5.0-§12.0;
#: deployment's ``off-table``), each a term of the catalogue.
STATUSES: tuple[str, ...] = (
    "hidden",
    "suppressed",
    "panicked",
    "retreating",
    "falling-back",
    "reloading",
    "empty-mag",
    "low-ammo",
    "no-ammo",
    "in-vehicle",
    "dodging",
    "covering",
    "fired",
    "acted",
    "looked",
    "ran",
    "moved",
    "crept",
    "climbed",
    "rpg-fired",
    "captured",
    "off-table",
)

#: The names in data/*.toml that events and narration show (§3.0 classes, §5.0
#: actions, §8.0 weapons, §8.0.2 deviation, §9.2 vehicles, Extras).
TABLE_WORDS: tuple[str, ...] = (
    # troops.toml (§3.0)
    N_("Special Forces"),
    N_("Elite"),
    N_("Veteran"),
    N_("Trained"),
    N_("Green Recruit"),
    N_("Hardened Militia"),
    N_("Fanatics"),
    N_("Militia"),
    # actions.toml (§5.0, §6.0)
    N_("Run"),
    N_("Move and shoot"),
    N_("Cautious move"),
    N_("Covering fire"),
    # weapons.toml (§8.0)
    N_("Pistol"),
    N_("Rifle"),
    N_("Assault rifle"),
    N_("Precision rifle (sniper)"),
    N_("Sub-machine gun"),
    N_("Light machine gun"),
    N_("Medium machine gun"),
    N_("Heavy machine gun"),
    N_("Hand grenade"),
    N_("Flamethrower"),
    N_("RPG"),
    N_("Grenade launcher"),
    N_("Heavy anti-tank (Milan)"),
    N_("Tank gun"),
    N_("Light mortar"),
    # fire.toml (§8.0.2 deviation)
    N_("short"),
    N_("left"),
    N_("right"),
    N_("over"),
    # saves.toml (§9.2)
    N_("Tank (front)"),
    N_("Tank (side or rear)"),
    N_("Heavily-armoured vehicle"),
    N_("Light-armoured vehicle"),
    N_("Protected vehicle"),
    N_("Unprotected vehicle"),
    # extras.toml (Extras)
    N_("Infiltrators"),
    N_("Ambush"),
    N_("Helicopter evacuation"),
    N_("Improved Support Fire"),
    N_("Mortars"),
    N_("Motivation"),
    N_("Rules of Engagement"),
    N_("Intelligence"),
    N_("Explosives (IED)"),
    N_("Explosives (IED), remotely controlled"),
    N_("Embedded journalist"),
    N_("Independent journalist"),
    N_("Civilians"),
    N_("Negotiation"),
    # media.toml: the kinds of journalist (Extras: Media)
    N_("embedded"),
    N_("independent"),
    # defeat_points.toml categories (§14.0), the columns of the final count
    N_("buildings"),
    N_("casualties"),
    N_("civilians"),
    N_("disengagement"),
    N_("exfiltration"),
    N_("first-fire"),
    N_("journalists"),
    N_("negotiation"),
    N_("negotiation-broken"),
    N_("objective-main"),
    N_("objective-secondary"),
    N_("media"),
)


def listing(items: Sequence[Msg | str], empty: Msg | None = None) -> Msg:
    """Items one after the other, ``a, b, c``, as one message (``empty`` when none):
    each item stays a message of its own, rendered in the reader's language."""
    if not items:
        return empty if empty is not None else M("nothing")
    head, *rest = items
    if not rest:
        return head if isinstance(head, Msg) else M("{item}", item=head)
    return M("{head}, {tail}", head=head, tail=listing(rest))


def whose(name: str) -> Msg:
    """``name``'s, as English writes it (``Rossi's``, ``regulars'``); in Italian both
    read ``di {name}``."""
    return M("{name}'", name=name) if name.endswith("s") else M("{name}'s", name=name)


# The badges the code names with a hyphen, in English words (the catalogue
# translates each id): what a player reads in the log.
english_words(
    DOMAIN.name,
    "term",
    {
        "off-table": "off the table",  # deployment from an edge (§4)
        "rpg-fired": "has fired its RPG",
    },
)
# The defeat-point ledger's columns (§14.0), recorded by id in the final count's note.
english_words(
    DOMAIN.name,
    "",
    {
        "first-fire": "first fire",
        "negotiation-broken": "negotiation broken",
        "objective-main": "main objective",
        "objective-secondary": "secondary objective",
    },
)
