"""The steps of the commands' dice orders (``CommandSpec.dice``) that their rolls name,
said once for the spec and the roll."""

OVERRUN_MORALE = "infantry in the open: its morale test, 1d6 + modifiers"
OVERRUN_FIRST_STRIKE = "if steady: its first strike, 1d6 at or under its rating"
OVERRUN_IN_COVER = "infantry in cover: the overrun, 1d6"
DECK_SHUFFLE = "the deck's shuffle: one die per card, 1d54 down to 1d2"
# ``next`` (``LineaDiTiro.next_dice``)
DISCARDS_SHUFFLE = "when the deck runs low: the discards' shuffle, one die per card"
CLOSE_ASSAULT = "close assault: 1d6 at or under the infantry's rating"
MELEE = "each side's melee: 1d6 + morale, the attacker first"
AT_FIRE = "AT fire: 2d6 total"
MG_HE = "MG or HE fire: 1d6 + modifiers on the MG/HE table"
MORALE_TEST = "morale test: 1d6 + modifiers, against the morale"
ARTILLERY = "artillery fire on the piece: 1d6 + modifiers on the MG/HE table"
