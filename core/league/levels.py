"""How far a result is confirmed: by its players, by the league's organiser, both or neither
(docs/league.md), and which levels a league counts.

A side's player confirms by signing the certificate with his own SSH key
(``core.league.signatures``) or, where he has no key, with ``confirm`` at a seat bound to him
(his key's or his invitation's: ``core.league.atseat.confirmed_sides``); a side with several
players (partners, a replacement) is confirmed by any one of them.  The organiser is the
league's named organiser, and only his signature is his word (issue #90): a save that verifies
and gives its certificate again is every added game's precondition, nobody's confirmation.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.language.i18n import N_

#: How far a result is confirmed, from the most to the least.
BOTH, PLAYER_AND_ORGANISER, ORGANISER_ONLY, ONE_PLAYER, UNCONFIRMED = (
    N_("confirmed by both players"),
    N_("confirmed by one player and the organiser"),
    N_("confirmed by the organiser only"),
    N_("confirmed by one player only"),
    N_("unconfirmed"),
)
LEVELS = (BOTH, PLAYER_AND_ORGANISER, ORGANISER_ONLY, ONE_PLAYER, UNCONFIRMED)

#: Which games a league counts (``league new --counts``), by the club's choice: every game that
#: verifies (the default, and every league made before the choice existed), or only those its
#: organiser or both players vouch for, or only those both players do.
COUNT_ANY, COUNT_ORGANISER, COUNT_BOTH = "any", "organiser", "both"
COUNTED_LEVELS = {
    COUNT_ANY: LEVELS,
    COUNT_ORGANISER: (BOTH, PLAYER_AND_ORGANISER, ORGANISER_ONLY),
    COUNT_BOTH: (BOTH,),
}
#: What each choice counts, in words.
COUNTS_SAID = {
    COUNT_ANY: N_("every game that verifies counts, whoever confirmed it"),
    COUNT_ORGANISER: N_("a game counts once both players or the organiser confirmed it"),
    COUNT_BOTH: N_("a game counts once both players confirmed it"),
}


def level_of(players: Iterable[str], sides: int, organiser: bool) -> str:
    """The level of a result of ``sides`` sides, confirmed by a player of each side in
    ``players`` (side ids, each counted once, by a signature or at a bound seat) and by the
    league's organiser's signature or not."""
    confirmed = set(players)
    if sides and len(confirmed) >= sides:
        return BOTH
    if organiser:
        return PLAYER_AND_ORGANISER if confirmed else ORGANISER_ONLY
    return ONE_PLAYER if confirmed else UNCONFIRMED


def counts(level: str, rule: str) -> bool:
    """Whether a game at ``level`` counts in a league whose choice is ``rule``."""
    return level in COUNTED_LEVELS.get(rule or COUNT_ANY, LEVELS)
