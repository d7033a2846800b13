"""The log: a game's facts and what is read from them.

A game is its log.  This room owns the facts (``events``: one tagged union, with the
integers a record may hold, ``recordint``), the fold that makes the state from them
(``state``), which commands are in effect after undos and redos (``history``), the folded
state along that history and seeking through it (``replay``), who may see which fact and
which unit (``views``), a role's own numbering of the commands (``numbering``), the facts
in words (``narrate``), what a command came to (``outcome``), the questions a command asks
the table (``questions``) and who won, as the end fact says (``ending``).

It stands on nothing of the engine (``core.game``) and is what a ruleset emits and reads.
"""
