"""The SSH server, ``fireteam serve``: one table's game, a seat for each player (docs/ssh.md).

Its rooms, read in this order:

* here, ``main`` (the command), ``seatsfile`` (who may sit where), ``limits`` (what
  keeps one peer from stalling the table) and ``language`` (each seat's own);
* ``host/``: the server and its sessions: ``server`` (the tables and the SSH listener of one
  process), ``tables``, ``connection`` (one client's login), ``session`` (an SSH session, the
  door to a seat), ``replies`` (``ssh host COMMAND`` without a terminal), and the host's own
  ``hostfiles``, ``serverlog``, ``algorithms`` and ``asyncssh_internals``;
* ``seating/``: a seat, whatever door its player came in by: the Textual app on an SSH
  channel (``seat``, ``driver``), plain lines (``plain``), the game menu (``chooser``),
  the spectators' stands and their shared screens;
* ``web/``: the browser door, its limits and its pages;
* ``workers/``: ``--workers N``, the table process, its seat workers and what they say
  to each other (``wire``), a worker's copy of the game (``replica``), its heap;
* ``invitations/``: links that seat a player with no key, and ``fireteam invite``;
* ``venue/``: a venue past one machine, on NATS, and its relays.

Its benchmarks live outside it, in ``tui.bench``.
"""
