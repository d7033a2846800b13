"""Units, teams and sides found by a word of their id or name, as the issuing role sees them."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from core.commands.naming import fold
from core.commands.words import Meant, could_be, or_list, quoted
from core.language.i18n import _, scenario_words
from core.log.state import GameState, Unit
from core.log.views import unit_visible
from core.refusal import TYPING
from core.ruleset import Param, Refused

#: The kinds of argument a unit fills.
UNIT_KINDS = ("unit", "own", "enemy")
#: What parts an id or a name into words: ``mg-team`` is found by ``team``, *Half-track* by ``track``.
WORD_BREAK = re.compile(r"[\s_-]+")
#: A word found in no name is looked for in the names run together (``baker1``: *Sherman
#: Baker 1*), then among their words misspelt (``hnas``: *Hans*), when it has this many letters
#: at least (a shorter one is inside, or near, too many names), and suggests the pieces found
#: when they are this many at most.
MEANT_LETTERS = 3
MEANT_PIECES = 5


def find_unit(word: str, state: GameState, role: str, *, side: str | None = None, enemy_of: str | None = None) -> Unit:
    w = word.lower()
    pool = [u for u in state.units.values() if unit_visible(u, role)]
    if side is not None:
        pool = [u for u in pool if u.side == side]
    if enemy_of is not None:
        pool = [u for u in pool if u.side != enemy_of]
    exact = [u for u in pool if u.id.lower() == w or u.name.lower() == w]
    if len(exact) == 1:
        return exact[0]
    hits = exact or units_named(w, pool)
    if len(hits) == 1:
        return hits[0]
    if not hits:
        said = _("no unit {word} on that side") if side or enemy_of else _("no unit {word}")
        refusal = said.format(word=quoted(word))
        meant = meant_units(word, pool)
        if meant:
            raise Meant(refusal, [_to_type(u) for u in meant])
        raise Refused(refusal, rule=TYPING)
    # A word several names share is answered with which is which.
    raise Refused(could_be(word, [_to_type(u) for u in hits]), rule=TYPING)


def _to_type(u: Unit) -> str:
    """A unit by the id to type, and its name where that says more: s1 (Sherman Baker 1)."""
    return u.id if u.name.lower() == u.id.lower() else f"{u.id} ({u.name})"


def meant_units(word: str, pool: list[Unit]) -> list[Unit]:
    """The units of ``pool`` a ``word`` that names none likely meant: those whose id or name, its
    spaces and hyphens left out, holds it (#61: ``baker1`` is *Sherman Baker 1* typed as one
    word), else those whose id or a word of whose name it is a close spelling of (``hnas``:
    *Uffz Hans Vogt*); none for a word too short to tell, or found in too many
    (``MEANT_LETTERS``, ``MEANT_PIECES``)."""
    folded = fold(word)
    squeezed = WORD_BREAK.sub("", folded)
    if len(squeezed) < MEANT_LETTERS:
        return []
    found = [u for u in pool if any(squeezed in WORD_BREAK.sub("", fold(whole)) for whole in (u.id, u.name))]
    if not found:
        found = [
            u
            for u in pool
            if difflib.get_close_matches(folded, [fold(w) for w in (u.id, *WORD_BREAK.split(u.name))], n=1, cutoff=0.75)
        ]
    return found if len(found) <= MEANT_PIECES else []


def units_named(word: str, pool: list[Unit]) -> list[Unit]:
    """The units of ``pool`` with an id or a name that begins with ``word`` (lower
    case), or a word of which does."""
    return [
        u
        for u in pool
        if any(
            whole.lower().startswith(word) or any(part.lower().startswith(word) for part in WORD_BREAK.split(whole))
            for whole in (u.id, u.name)
        )
    ]


def rest_of_name(typed: str, name: str, after: list[str]) -> int:
    """How many of the words ``after`` a unit found by ``typed`` go on with its name, as a
    name is said whole (``dismount cpl pinna``, ``fire greco ahmed noor``): each begins the
    next word of the name."""
    words = [part.lower() for part in WORD_BREAK.split(name) if part]
    at = next((j for j, part in enumerate(words) if part.startswith(typed.lower())), None)
    if at is None:
        return 0
    count = 0
    for word, part in zip(after, words[at + 1 :], strict=False):
        if not word or "=" in word or not part.startswith(word.lower()):
            break
        count += 1
    return count


def teams(state: GameState, role: str) -> list[str]:
    """The teams ``role`` can see a member of, sorted."""
    return sorted({u.team for u in state.units.values() if u.team and unit_visible(u, role)})


def team_names(team: str) -> tuple[str, ...]:
    """The names a team is typed by: as its file writes it, and in the reader's language,
    a built-in scenario's (*Stampa* for *Press*; ruling I18N-TEAM)."""
    mine = scenario_words(team)
    return (team,) if mine == team else (team, mine)


def find_team(words: str, state: GameState, role: str) -> str:
    """The team ``words`` names, by any of its names (:func:`team_names`): a whole name
    (any case), or words each of which begins a word of one (``gruppe``, ``vogt``, ``gr v``
    for *Gruppe Vogt*)."""
    typed = words.lower().split()
    pool = teams(state, role)
    # a name as its file writes it first: a user's team may be called what a built-in one reads as
    exact = [t for t in pool if t.lower().split() == typed] or [
        t for t in pool if any(n.lower().split() == typed for n in team_names(t))
    ]
    if len(exact) > 1:
        raise Refused(could_be(words, [_named_both(t) for t in exact]), rule=TYPING)
    if exact:
        return exact[0]
    hits = [
        t
        for t in pool
        if typed and any(all(any(p.startswith(w) for p in n.lower().split()) for w in typed) for n in team_names(t))
    ]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise Refused(_("no team {word}").format(word=quoted(words)), rule=TYPING)
    raise Refused(could_be(words, [_named_both(h) for h in hits]), rule=TYPING)


def _named_both(team: str) -> str:
    """A team in a refusal that names several: as the reader reads it, with its file's name
    where that differs (*Plotone carri (Troop)*), so that two that read alike are told apart."""
    mine = scenario_words(team)
    return team if mine == team else f"{mine} ({team})"


def is_team_name(p: Param, word: str, state: GameState, role: str) -> bool:
    """Whether ``word`` is, whole, the name of a team ``p`` takes and no unit's id or name:
    the team, though it begins a word of a unit's name (*Market* the team, not *Market trader*)."""
    if p.team_members is None or not p.many:
        return False
    w = word.lower()
    if any(w in (u.id.lower(), u.name.lower()) for u in state.units.values() if unit_visible(u, role)):
        return False
    return any(n.lower() == w for t in teams(state, role) for n in team_names(t))


def team_members_named(p: Param, word: str, state: GameState, role: str, acting: str | None) -> list[str]:
    """The members of the team ``word`` names that ``p`` takes (``Param.team_members``),
    for a word that names no unit; none where ``p`` takes no team, or ``word`` names none;
    refused where the team has none that ``p`` takes."""
    if p.team_members is None or not p.many:
        return []
    try:
        team = find_team(word, state, role)
    except Refused:
        return []
    pool = [u for u in state.units.values() if u.team == team and unit_visible(u, role)]
    if p.kind == "own" and acting is not None:
        pool = [u for u in pool if u.side == acting]
    members = [u.id for u in pool if p.team_members(u)]
    if not members:
        raise Refused(_("no one of team {team} can be named here").format(team=scenario_words(team)), rule=TYPING)
    return members


def side_label(state: GameState, side: str) -> str:
    """A side in words (the reader's), with the id a referee may type where the name is not it:
    ``Somali militia (irregulars)``."""
    name = scenario_words(state.side_name(side))
    return side if name.lower() == side.lower() else f"{name} ({side})"


def side_names(state: GameState, side: str) -> tuple[str, ...]:
    """What names ``side``: its id, its name as its scenario writes it, and that name in the reader's
    language (``7° Battaglione paracadutisti``: issue #77, the Italian names shown were refused)."""
    name = state.side_name(side)
    return tuple(dict.fromkeys((side, name, scenario_words(name))))


def find_side(word: str, state: GameState, *, also: Sequence[str] = ()) -> str:
    """The side ``word`` names, as a unit is found: its id or its whole name (any case),
    else the start of its id, of its name or of any word of either (``somali`` for
    *Somali militia*).  ``also``: other words the place takes (``draw``), found the same
    way and returned as they are.  None, or several: refused, naming the choices in words."""
    sides = list(state.sides)
    w = word.lower()
    exact = [s for s in sides if w in (n.lower() for n in side_names(state, s))] + [a for a in also if a.lower() == w]
    if exact:
        return exact[0]

    def begins(whole: str) -> bool:
        return whole.lower().startswith(w) or any(p.lower().startswith(w) for p in WORD_BREAK.split(whole))

    hits = [s for s in sides if any(begins(n) for n in side_names(state, s))] + [a for a in also if begins(a)]
    if len(hits) == 1:
        return hits[0]
    labels = {s: side_label(state, s) for s in sides} | {a: a for a in also}
    if hits:
        raise Refused(could_be(word, [labels[h] for h in hits]), rule=TYPING)
    refusal = _("no side {word}").format(word=quoted(word))
    # A mistyped word of a name (somaly) is answered with the side it is near.
    spoken = {
        fold(part): key
        for key in labels
        for whole in (side_names(state, key) if key in state.sides else (key,))
        for part in (whole, *WORD_BREAK.split(whole))
        if part
    }
    close = difflib.get_close_matches(fold(word), list(spoken), n=3, cutoff=0.6)
    near = list(dict.fromkeys(spoken[n] for n in close))
    if near:
        raise Meant(refusal, [labels[n] for n in near])
    if not labels:
        raise Refused(_("{refusal}: the game has no sides yet").format(refusal=refusal), rule=TYPING)
    raise Refused(
        _("{refusal}; name {options}").format(refusal=refusal, options=or_list(list(labels.values()))), rule=TYPING
    )
