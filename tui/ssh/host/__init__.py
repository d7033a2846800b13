"""The server's host: the SSH listener of one process, its tables and its sessions.

``server`` (the tables and the listener), ``tables`` (one game each, from its save),
``connection`` (one client's login), ``session`` (an SSH session, the door to a seat),
``replies`` (``ssh host COMMAND`` without a terminal), and what the host keeps to itself:
``hostfiles`` (its files), ``serverlog`` (its log), ``algorithms`` (the SSH algorithms it
offers) and ``asyncssh_internals`` (what it reads of asyncssh that asyncssh keeps private).
"""
