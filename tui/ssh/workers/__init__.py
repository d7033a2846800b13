"""``fireteam serve --workers N``: one process writes the saves, worker processes draw the seats.

``pool`` is the table process (it hands connections to workers, records their seats'
commands, tells them when a save grew); ``worker`` is a worker's main; ``wire`` is what
the two say over their sockets; ``replica`` is a worker's read-only copy of a game,
which asks the table to write; ``heap`` keeps the garbage collector off the seats.
A command's way from one seat to another's screen: docs/architecture.md, *Seat workers*.
"""
