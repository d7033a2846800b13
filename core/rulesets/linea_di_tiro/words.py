"""Linea di Tiro's words in the reader's language: the ``linea_di_tiro`` domain (core.language.i18n).

Display code translates now with ``_``/``pgettext``; what goes into an event is a
``core.language.i18n.Msg`` (``M``), translated when it is shown.  The tables' words that
reach events (modifiers, defences, ratings, options, spotting rows) live in the
TOML files; :data:`TABLE_WORDS` lists them for the catalogue, and a test keeps
the list and the files in step.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.language.i18n import N_, Domain, M, Msg, english_words

DOMAIN = Domain("linea_di_tiro")
_ = DOMAIN.gettext
pgettext = DOMAIN.pgettext


def whose(name: str) -> Msg:
    """``name``'s, for a message that says whose something is ("the germans' artillery");
    a language with another word order translates both forms as the bare name."""
    if name.endswith("s"):
        return M("{name}'", name=name)
    return M("{name}'s", name=name)


def owner(name: str) -> str:
    """:func:`whose`, shown now (a refusal, a description)."""
    return DOMAIN.render(whose(name))


# The notes that end with the referee's command (what he types next): a side reads
# them without it (``note_for_a_side``).
#: LT-R060: a fire result T.
MORALE_DUE = N_("{unit} must test morale: morale {id}")
#: LT-R053: a hidden piece's reply to its first spotter.
AMBUSH_REPLY = N_(
    "{target} may fire a ready attack at once at {observer}, its first spotter, "
    "with -1: at/mg {target_id} {observer_id} ambush (LT-R053)"
)
#: LT-R090: called artillery starts firing on a joker.
BARRAGE_OPENS = N_(
    "{whose} artillery opens fire on {n} square(s): every unit in them takes an attack "
    "(barrage {side_id} PIECE; LT-R090)"
)


def note_for_a_side(text: Msg | str) -> Msg | str:
    """A note as a side reads it: the referee's command it ends with left out."""
    if not isinstance(text, Msg):
        return text
    a = text.args
    if text.id == MORALE_DUE:
        return M("{unit} must test morale", unit=a.get("unit", ""))
    if text.id == AMBUSH_REPLY:
        return M(
            "{target} may fire a ready attack at once at {observer}, its first spotter, with -1 (LT-R053)",
            target=a.get("target", ""),
            observer=a.get("observer", ""),
        )
    if text.id == BARRAGE_OPENS:
        return M(
            "{whose} artillery opens fire on {n} square(s): every unit in them takes an attack (LT-R090)",
            whose=a.get("whose", ""),
            n=a.get("n", ""),
        )
    return text


def either(items: Sequence[str]) -> str:
    """ "a or b or c", shown now."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = _("{first} or {then}").format(first=out, then=item)
    return out


def joined(items: Sequence[Msg | str]) -> Msg | str:
    """Items one after another, "a; b; c" (the sides' losses), each translated on its own."""
    out: Msg | str = items[0] if items else ""
    for item in items[1:]:
        out = M("{first}; {then}", first=out, then=item)
    return out


#: The tables' words an event carries (data/*.toml), for the catalogue.
TABLE_WORDS = (
    # activation.toml: the options A1-A7 (LT-R020)
    N_("bound and prepare an attack (either order)"),
    N_("bound and execute an attack (either order)"),
    N_("execute and prepare an attack (either order)"),
    N_("prepare or execute two attacks"),
    N_("move at full speed"),
    N_("mount or dismount (infantry and guns)"),
    N_("remove an immobilisation"),
    # assault.toml: close-assault ratings (LT-R101)
    N_("infantry not particularly steady, improvised anti-tank weapons"),
    N_("well-trained infantry with adequate anti-tank weapons"),
    N_("specialised tank hunters"),
    # at_fire.toml: modifiers (LT-R050)
    N_("target hull down or in prepared cover"),
    N_("range 5 cm or less, or ambush"),
    # mg_fire.toml: defences (C.7.1)
    N_("infantry moving in the open"),
    N_("infantry in a bound in the open"),
    N_("infantry in a bound in protection"),
    N_("infantry stationary in the open"),
    N_("open-topped vehicle"),
    N_("infantry or guns in a prepared position"),
    N_("light tank or armoured car"),
    N_("entrenched infantry"),
    N_("other tanks"),
    N_("infantry stationary in protection"),
    N_("infantry moving in protection"),
    # spotting.toml: targets (LT-R032)
    N_("vehicle moving in the open"),
    N_("vehicle stationary in the open"),
    N_("infantry in a bound"),
    N_("vehicle stationary in cover"),
    N_("infantry stationary in cover"),
    N_("infantry in ambush"),
    N_("vehicle moving in cover"),
)


# The counting badges, in English words (the catalogue translates each id):
# what a player reads in the log.
english_words(
    DOMAIN.name,
    "term",
    {
        "attacks-1": "one attack left",
        "attacks-2": "two attacks left",
        "prepare-1": "one attack to prepare",
        "prepare-2": "two attacks to prepare",
        "ready-1": "one attack prepared",
        "ready-2": "two attacks prepared",
        "fired-1": "fired once",
        **{f"fired-{n}": f"fired {n} times" for n in range(2, 7)},
        "he-1": "one HE attack in a row",
        **{f"he-{n}": f"{n} HE attacks in a row" for n in range(2, 7)},
        "in-vehicle": "aboard a vehicle",
    },
)
