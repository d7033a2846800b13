"""A game: its save file, its history, its current state, and the commands on it.

:class:`Game` (``engine``) carries out a command line; the modules beside it each
hold one concern of a game, listed in ``engine``'s docstring.  What the rest of
Fireteam reads of a game is imported from here, but for the commands every game has
and the roles a read-only game is shown as (``core.game.builtins``): they import the
command language, which a client's start does not need, so they are imported from
there where they are used.
"""

from core.game.engine import Game
from core.game.opening import SEED_LIMIT
from core.game.reading import LogLine
from core.game.sealing import SEAL_DICE, new_contribution, new_dice_key, sealing_facts

__all__ = [
    "SEAL_DICE",
    "SEED_LIMIT",
    "Game",
    "LogLine",
    "new_contribution",
    "new_dice_key",
    "sealing_facts",
]
