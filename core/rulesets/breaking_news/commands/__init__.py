"""Breaking News commands: the fight's (``combat``: movement, fire, melee, support) and
what is around it (``campaign``), with what the commands share (``common``; their dice steps are
``breaking_news.dice_order``, which the ruleset's ``next`` needs without them)."""
