"""What the server takes from asyncssh that asyncssh does not make public, in one place.

asyncssh has no public API for this, and the server needs it:

* ``unsent``: the bytes a connection has written that its socket has not yet taken.
  asyncssh writes on without pausing when the socket is full (its channels pause only
  on the client's SSH window), so a client on a slow network piles its screen up in the
  connection's transport, which asyncssh keeps as ``_transport``: a seat that reads the
  size there (``tui.ssh.host.session``) can skip frames before memory grows.

The attribute is read directly, never with a default: a release that renames it fails
every test of a slow client loudly, not by letting one pile up unseen.  asyncssh is
bounded below its next major release for it (pyproject.toml; tests/packaging/test_bounds.py).
"""

from __future__ import annotations

from typing import Any


def unsent(connection: Any) -> int:
    """The bytes ``connection`` (an asyncssh connection) holds that its socket has not taken."""
    transport = connection._transport
    return transport.get_write_buffer_size() if transport is not None else 0
