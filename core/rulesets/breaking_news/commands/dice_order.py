"""The steps several commands' dice orders share (``CommandSpec.dice``), said once."""

SUPPRESSION = "if suppressed: his suppression test, 1d6"
TO_HIT = "to hit: the weapon's dice, per target"
SAVES = "each hit's save: 1d6 per hit (a vehicle's own save first, then each man aboard)"
WOUND = "with the wounded rule, each failed save: the wound, 1d6"
COVERING_TEST = (
    "in an area under covering fire: the covering-fire test, 2d6 total (3d6 in a bunker), and if hit its save 1d6"
)
