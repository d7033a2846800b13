"""The dice: where faces come from and what they can come to.

This room owns the sources of faces (``faces``: seeded, sealed and typed dice, recorded
face by face), a seat's share of its command's sealed dice (``shares``), who gave a roll
held at the table (``given``), the exact odds of a roll before it is made (``probability``)
and how a command's handler rolls through its context (``handler``: ``core.ruleset.Context``'s
rolls, the dry run's, and a roll that cannot but come to one outcome, drawn rather than asked).
"""
