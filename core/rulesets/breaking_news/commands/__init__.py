"""Breaking News commands: the fight's (``combat``: movement, fire, melee, support) and
what is around it (``campaign``), with what the commands share (``common``, ``dice_order``)."""
