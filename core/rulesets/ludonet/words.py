"""Ludonet's words in the reader's language: the ``ludonet`` domain (core.language.i18n).

Display code translates now with ``_``/``pgettext``; what goes into an event is a
``core.language.i18n.Msg`` (``M``), translated when it is shown.  The tables' words that
reach events (the modifiers of data/fire.toml and data/melee.toml) live in the
TOML files; :data:`TABLE_WORDS` lists them for the catalogue, and a test keeps
the list and the files in step.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.language.i18n import N_, Domain, M, Msg, english_words

DOMAIN = Domain("ludonet")
_ = DOMAIN.gettext
pgettext = DOMAIN.pgettext


def whose(name: str) -> Msg:
    """``name``'s, for a message that says whose something is ("Jones' grenade");
    a language with another word order translates both forms as the bare name."""
    if name.endswith("s"):
        return M("{name}'", name=name)
    return M("{name}'s", name=name)


def owner(name: str) -> str:
    """:func:`whose`, shown now (a refusal)."""
    return DOMAIN.render(whose(name))


def listed(items: Sequence[Msg | str]) -> Msg | str:
    """Items one after another, "a, b, c", each translated on its own."""
    out: Msg | str = items[0] if items else ""
    for item in items[1:]:
        out = M("{first}, {then}", first=out, then=item)
    return out


#: The tables' words an event carries (data/*.toml), for the catalogue.
TABLE_WORDS = (
    # fire.toml: to-hit modifiers (LN-R031)
    N_("shooter moved this turn"),
    N_("shooter wounded"),
    N_("target lying down"),
    N_("target in cover"),
    N_("expert shooter"),
    # melee.toml: melee modifiers (LN-R051)
    N_("commandos, paratroopers, rangers or veterans"),
    N_("attacking from behind"),
    N_("lying down"),
    N_("wounded"),
)


#: The weapons of the built-in scenarios and forces (their ``[[weapons]]`` tables, ruling
#: LN-WEAPONS), named as terms in the reader's language (#61: *fucile*, as Breaking News
#: and Bassa Intensità name a rifle); a model's name (Bren, MG 42) is the same in every
#: language.  A test keeps the list and the files in step.
WEAPONS = ("rifle", "rockets", "bazooka", "75mm", "Bren", "Sten", "MP40", "MG 34", "MG 42", "Thompson", "Kar98k")


# The hit badges and phases the code names with a hyphen, in English words (the
# catalogue translates each id): what a player reads in the log.
english_words(
    DOMAIN.name,
    "term",
    {"hit-wound": "hit: wounded", "hit-immobilise": "hit: immobilised", "hit-kill": "hit: killed"},
)
english_words(DOMAIN.name, "phase", {"move-first": "first movement", "move-second": "second movement"})
