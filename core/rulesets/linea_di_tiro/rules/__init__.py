"""Linea di Tiro rules as pure functions: inputs and dice faces in, results out.

The rulebook has no numbered sections; each rule cites the digest's rule id
(LT-Rnnn, section C.n) and the book's heading in Italian.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.log.events import AtLeast
from core.ruleset import Refused
from core.rulesets.linea_di_tiro.tables import at_table, deck, mg_table, morale, movement
from core.rulesets.linea_di_tiro.words import _


def draw(order: Sequence[str], drawn: int) -> tuple[str, int]:
    """LT-R010 ("Sequenza di gioco"): the next card of the pile and how many are drawn after it."""
    if drawn >= len(order):
        raise ValueError("the deck is empty")
    return order[drawn], drawn + 1


def drawable(order: Sequence[str], drawn: int, cards_drawn: int) -> list[str]:
    """LT-R010/R011 (ruling LT-RESHUFFLE): the cards the pile may give next, in whatever
    order a table's deck holds them: those not drawn since the last reshuffle, and of
    them, after a reshuffle, the cards that were left (on top) before the discards
    shuffled under them.  ``cards_drawn``: every card drawn in the game; the first
    reshuffle follows draw 44 (54 less the 10 left)."""
    left = deck().reshuffle_at
    reshuffled = cards_drawn >= len(order) - left
    top = left if reshuffled and drawn < left else len(order)
    return list(order[drawn:top])


def reshuffle_due(order: Sequence[str], drawn: int) -> bool:
    """LT-R011: when exactly ``reshuffle_at`` (10) cards are left, the discards are shuffled."""
    return len(order) - drawn == deck().reshuffle_at


def restack(order: Sequence[str], drawn: int, shuffled_discards: Sequence[str]) -> list[str]:
    """LT-R011 (ruling LT-RESHUFFLE): the shuffled discards go under the cards left,
    which are still drawn first."""
    if sorted(shuffled_discards) != sorted(order[:drawn]):
        raise ValueError("the shuffled discards are not the cards drawn")
    return [*order[drawn:], *shuffled_discards]


def at_result(attack: int, protection: int, total: int, long_range: bool) -> str:
    """LT-R050 ("TIRO CONTROCARRO"): D, R, T or "-" for the modified 2d6 ``total``.
    At long range a modified result above 6 has no effect (ruling LT-AT-LONG)."""
    table = at_table()
    if long_range and table.long_range_max is not None and total > table.long_range_max:
        return "-"
    return table.result(attack - protection, total)


def mg_result(attack: int, defence: int, total: int) -> str:
    """LT-R060 ("ALTRI TIRI (MG & HE)"): D, I or "-" for the modified 1d6 ``total``."""
    return mg_table().result(attack - defence, total)


def morale_result(total: int, morale_value: int) -> str:
    """LT-R080 ("Morale", ruling LT-MORALE-2M): ``flee`` at twice the morale or more,
    ``fall-back`` above the morale, ``steady`` at the morale or less."""
    if total >= morale().flee_times * morale_value:
        return "flee"
    if total > morale_value:
        return "fall-back"
    return "steady"


def steady_check(morale_value: int, modifier: int) -> AtLeast:
    """:func:`morale_result` as a roll of 1d6 + ``modifier`` records it: steady when the
    die is at or under the morale less the modifiers, and under twice the morale, which
    flees first (LT-R080: a morale of 0 or less is never steady)."""
    most = min(morale_value, morale().flee_times * morale_value - 1)
    return AtLeast(face=most - modifier, under=True, base=morale_value)


def he_bonus(streak: int) -> int:
    """LT-R061 (ruling LT-HE-STREAK): what an HE attack adds to the attack factor against
    immobilised infantry that has already taken ``streak`` HE attacks in a row."""
    return mg_table().he_bonus * streak


def he_streak_after(streak: int, he: bool, immobilised_infantry: bool) -> int:
    """LT-R061: the streak after an attack.  An HE attack that leaves infantry
    immobilised (the one that immobilises it too) adds one; any other breaks it."""
    if he and immobilised_infantry:
        return min(streak + 1, mg_table().he_streak_max)
    return 0


def move_allowance(option: str, bound: int, speed: int) -> tuple[str, int]:
    """LT-R040..R042: how the activation ``option`` moves the piece (``bound`` or
    ``speed``) and how far, from the piece's own bound/speed."""
    mode = movement().options.get(option)
    if mode is None:
        raise Refused(
            _("{option} does not move the piece: A1 or A2 make a bound, A5 a move at speed").format(option=option),
            rule=("LT-R040", "LT-R020"),
        )
    return mode, bound if mode == "bound" else speed
