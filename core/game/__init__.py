"""A game: its save file, its history, its current state, and the commands on it.

:class:`Game` (``engine``) carries out a command line; the modules beside it each
hold one concern of a game, listed in ``engine``'s docstring.  What the rest of
Fireteam reads of a game is imported from here.
"""

from core.game.builtins import builtin_commands, copy_role_error, game_commands, reading_role
from core.game.engine import Game
from core.game.odds import Odds
from core.game.opening import SEED_LIMIT
from core.game.reading import LogLine
from core.game.sealing import SEAL_DICE, new_contribution, new_dice_key, sealing_facts

__all__ = [
    "SEAL_DICE",
    "SEED_LIMIT",
    "Game",
    "LogLine",
    "Odds",
    "builtin_commands",
    "copy_role_error",
    "game_commands",
    "new_contribution",
    "new_dice_key",
    "reading_role",
    "sealing_facts",
]
