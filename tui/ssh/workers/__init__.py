"""``fireteam serve --workers N``: one process writes the saves, worker processes draw the seats.

``pool`` is the table process (it starts, watches and recycles the workers, records
their seats' commands); ``handle`` is what it holds of each worker; ``doors``, how it
counts each connection and hands it to a worker; ``news``, what it tells the workers
unasked (a save grew, a table holds a roll, a worker retires); ``worker`` is a worker's
main; ``wire`` is what the two say over their sockets; ``replica`` is a worker's
read-only copy of a game, which asks the table to write; ``heap`` keeps the garbage
collector off the seats.
A command's way from one seat to another's screen: docs/architecture.md, *Seat workers*.
"""
