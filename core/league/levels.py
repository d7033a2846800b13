"""How far a result is confirmed: by its players, by the organiser, both or neither (docs/league.md).

A player confirms by signing the certificate with his own SSH key (``core.league.signatures``)
or, where he has no key, with ``confirm`` at his seat (a ``Confirmed`` fact in the save naming
the certificate's digest: ``core.league.certificate.confirmed_sides``).  The organiser is the
table that wrote the save: its confirmation is the save passing ``fireteam verify`` and giving
the certificate again, field by field, which ``certify`` and ``league add`` check before they
print anything; the club's organiser signing the certificate counts as his too.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.language.i18n import N_

#: How far a result is confirmed, from the most to the least.
BOTH, PLAYER_AND_ORGANISER, ORGANISER_ONLY, UNCONFIRMED = (
    N_("confirmed by both players"),
    N_("confirmed by one player and the organiser"),
    N_("confirmed by the organiser only"),
    N_("unconfirmed"),
)
LEVELS = (BOTH, PLAYER_AND_ORGANISER, ORGANISER_ONLY, UNCONFIRMED)


def level_of(players: Iterable[str], sides: int, organiser: bool) -> str:
    """The level of a result ``sides`` players played, confirmed by the players of ``players``
    (side ids, each counted once, by a signature or at his seat) and by the organiser or not.
    Every player confirming is both players' word, with or without the organiser; one player's
    alone, or nobody's, with no organiser's beside it, confirms nothing."""
    confirmed = set(players)
    if sides and len(confirmed) >= sides:
        return BOTH
    if not organiser:
        return UNCONFIRMED
    return PLAYER_AND_ORGANISER if confirmed else ORGANISER_ONLY
