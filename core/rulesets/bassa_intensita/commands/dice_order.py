"""The steps several commands' dice orders share (``CommandSpec.dice``), said once."""

ISOLATION = "if isolated: his isolation test, 1d10"
TO_HIT = "to hit: 1d10 per shot, under the hit chance"
DAMAGE = (
    "each hit at once: against armour, penetration 1d10; then damage 1d10 "
    "(a man it wounds: turns he lives undressed, 1d6; a vehicle: which weapon it loses, 1d6)"
)
