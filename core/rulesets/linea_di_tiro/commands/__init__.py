"""Every Linea di Tiro command, in the order the help lists them, one module per concept:

* ``activation``: activating a piece (C.3, options A1–A7) and "unit" moves (C.2, C.10)
* ``spot``: spotting (C.4) and movement (C.5)
* ``fire``: anti-tank and MG/HE fire, morale, voluntary rout (C.6–C.8)
* ``assault``: overruns, close assaults on tanks, melee (C.9)
* ``game``: the artillery's fire (C.10) and the end of the game
"""

from __future__ import annotations

from core.ruleset import CommandSpec
from core.rulesets.linea_di_tiro.commands import activation, assault, fire, game, spot

COMMANDS: tuple[CommandSpec, ...] = (
    *activation.COMMANDS,
    *spot.COMMANDS,
    *fire.COMMANDS,
    *assault.COMMANDS,
    *game.COMMANDS,
)
