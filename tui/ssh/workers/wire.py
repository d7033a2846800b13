"""What the table process and its seat workers say to each other (``fireteam serve --workers N``).

Two Unix sockets join each worker to the table process, both ``SOCK_SEQPACKET``
(each message one packet, boundaries kept, file descriptors passed along):

* *requests*: the worker asks, the table answers.  A seat's command (``Submit``:
  its line, ``undo`` and ``redo`` too) goes this way to the one process that
  writes the save, and comes back as what the table's game made of it, the
  value itself (``core.log.outcome``), with the size the save has grown to
  (``Settled``).  The worker also says here who sat down and who left, and
  that a connection it was given closed; and asks for an invitation's use
  (``Redeem``): the table alone writes the invitations store and the seats file.
* *news*: the table tells every worker that a save grew (``Grew``) and hands a
  worker each new connection (``Arrived``, with the socket and its door: SSH,
  or a browser's HTTP).  A worker that said its heap is laden with departed
  seats (``Laden``) may be told it retires (``Retire``): it is handed no more
  connections, and stops when the table closes its news, once its last
  connection has ended.

A third, *heartbeat*, carries the table's ``Ping`` and the worker's ``Pong``,
answered by a thread of the worker's: a worker busy drawing still answers,
and says how long its event loop has not turned (``Pong.stalled``).

Messages are msgpack-encoded msgspec structs, tagged by class name.
"""

from __future__ import annotations

import array
import errno
import socket
from typing import Any

import msgspec

from core.language.reader import SOURCE
from core.log.outcome import Awaited, Failure, OwnRoll, Refusal, Result
from tui.ssh.invitations.store import Grant

#: The longest message: far more than any command line a player types, and
#: small enough that receiving one does not allocate much.
MAX_PACKET = 64 << 10
#: The longest request: a refusal answers with the line and why, which must fit in a message.
MAX_REQUEST = MAX_PACKET - (4 << 10)


class _Msg(msgspec.Struct, tag=True, frozen=True):
    """A message (each restates ``frozen=True``, as the log's events do: msgspec inherits it, mypy does not)."""


# ---------------------------------------------------------------- worker → table, answered


class Submit(_Msg, frozen=True):
    """A seat's command (``Game.submit``); ``lang`` is the seat's language, in which a refusal is worded."""

    seq: int
    table: str
    text: str
    role: str
    by: str
    faces: list[int] | None = None
    lang: str = SOURCE
    #: The seat's share of the command's sealed dice, as its browser sent it (checked by the game).
    contribution: bytes | None = None
    #: The seat's answers to the command's questions (``core.log.questions``; checked by the game).
    answers: list[str] | None = None
    #: The seal of the key its browser saw when it drew ``contribution`` (``Game.execute``'s ``saw``).
    saw: str | None = None
    #: The seat's count of its shares its browser named with ``contribution`` (``Game.execute``'s ``nonce``).
    nonce: int | None = None
    #: ``faces`` (or the one answer in ``answers``) go on with the command the table holds for
    #: this seat's dice (``Game.answer_held``; issue #61), not ``text``; neither: withdraw it.
    held: bool = False


class Unasked(_Msg, frozen=True):
    """A seat put its own prompt for its command's roll down, or left (``Game.unasked``, issue #77): the
    other seats, told whose dice it typed, are told no more."""

    table: str
    by: str


class Kick(_Msg, frozen=True):
    """Close every session of a seat, in every worker (the referee's ``ssh host kick NAME``)."""

    seq: int
    seat: str
    by: str


class Who(_Msg, frozen=True):
    """Who is seated at every table, across all workers (for ``ssh host who``)."""

    seq: int


class Redeem(_Msg, frozen=True):
    """Use an invitation's token (``tui.ssh.invitations.store``): a browser's or an SSH key's (``key``: its OpenSSH
    line, to bind to the seat).  Only the table process writes the store."""

    seq: int
    token: str
    peer: str
    key: str = ""


# ------------------------------------------------------------- worker → table, not answered


class Ready(_Msg, frozen=True):
    """The worker has its copies of the games and takes connections."""


class Sat(_Msg, frozen=True):
    table: str
    seat: str
    #: Its role: the table asks it for its own dice (``Game.seated``).
    role: str = ""


class Rose(_Msg, frozen=True):
    table: str
    seat: str
    role: str = ""


class LoggedIn(_Msg, frozen=True):
    """A connection the table handed over has logged in (it no longer counts as unauthenticated)."""

    peer: str


class Authenticating(_Msg, frozen=True):
    """A connection the table handed over has begun to log in (its client asked for a user):
    a sweep of idle connections spares it (``tui.ssh.limits.Gate``)."""

    peer: str


class Misbehaved(_Msg, frozen=True):
    """A connection the table handed over was closed for flooding after it logged in: its
    address counts a penalty (``tui.ssh.limits.Gate.penalise``)."""

    peer: str


class Gone(_Msg, frozen=True):
    """A connection the table handed over has closed."""

    peer: str


class Laden(_Msg, frozen=True):
    """As many seats have left this worker as ever sat in it at once, and what they left waits in its frozen heap
    (``tui.ssh.workers.heap``): the table may retire it (``Retire``) rather than have it walk its whole heap.
    ``departed`` 0: it walked it at an idle moment, and is laden no longer."""

    departed: int


# ---------------------------------------------------------------------- heartbeat


class Ping(_Msg, frozen=True):
    """Is the worker still running?  (One that does not answer, or whose loop stalled, is replaced.)"""

    n: int


class Pong(_Msg, frozen=True):
    """The answer to ``Ping``: seconds since the worker's event loop last turned."""

    n: int
    stalled: float


# ---------------------------------------------------------------------------- answers


class Settled(_Msg, frozen=True):
    """What a ``Submit`` came to: the table's game's own value.  An ``Outcome`` comes with its
    number alone (the file's, which names what the worker reads back) and the size the save is
    synced up to: its events are read back from the save (a scenario's may not fit in a message)."""

    seq: int
    result: Result
    size: int = 0


class Seated(_Msg, frozen=True):
    seq: int
    tables: dict[str, list[str]]


class Redeemed(_Msg, frozen=True):
    """What a ``Redeem`` came to: who the player sits as (``tui.ssh.invitations.store.Grant``), or why not."""

    seq: int
    grant: Grant | None
    why: str = ""


class Kicked(_Msg, frozen=True):
    """A ``Kick`` went out to every worker: ``seated`` sessions of the seat were open."""

    seq: int
    seated: int


# --------------------------------------------------------------------- table → worker


class Grew(_Msg, frozen=True):
    table: str
    size: int


class Awaiting(_Msg, frozen=True):
    """The command ``table``'s game holds for a seat's dice changed (``Game.awaiting.held``; None: none;
    ``dropped``: why the one held ended unrecorded, for its submitter's seat, ``Game.awaiting.dropped``)."""

    table: str
    awaited: Awaited | None
    dropped: Refusal | Failure | None = None


class Rolling(_Msg, frozen=True):
    """The rolls asked at their own seats at ``table`` changed (``Game.rolling.rolls``, issue #77): whose dice
    every other seat that may see them is told are awaited."""

    table: str
    rolling: tuple[OwnRoll, ...] = ()


class Arrived(_Msg, frozen=True):
    """A new connection, whose socket travels with this message, and the door it came in by (``ssh`` or ``web``)."""

    peer: str
    door: str = "ssh"


class Close(_Msg, frozen=True):
    """Close every session of ``seat`` in this worker, telling it who did (a seat's name, or the organiser)."""

    seat: str
    by: str


class Retire(_Msg, frozen=True):
    """This worker is handed no more connections: it serves those it has until the last ends, then the table closes
    its news and it stops, its memory going back to the system with it."""


Request = (
    Submit | Who | Kick | Redeem | Ready | Sat | Rose | LoggedIn | Authenticating | Misbehaved | Gone | Laden | Unasked
)
Answer = Settled | Seated | Kicked | Redeemed
News = Grew | Awaiting | Rolling | Arrived | Close | Retire

_encoder = msgspec.msgpack.Encoder()
REQUEST = msgspec.msgpack.Decoder(Request)
ANSWER = msgspec.msgpack.Decoder(Answer)
NEWS = msgspec.msgpack.Decoder(News)
PING = msgspec.msgpack.Decoder(Ping)
PONG = msgspec.msgpack.Decoder(Pong)


def pair() -> tuple[socket.socket, socket.socket]:
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


def send(sock: socket.socket, msg: _Msg, fd: int | None = None, *, limit: int = MAX_PACKET) -> None:
    """Send one message (and a file descriptor).  Raises BlockingIOError on a full non-blocking socket.

    A message longer than ``limit`` raises OSError(EMSGSIZE): past ``MAX_PACKET``,
    the other end would receive it cut short.
    """
    data = _encoder.encode(msg)
    if len(data) > limit:
        raise OSError(errno.EMSGSIZE, f"a message of {len(data)} bytes is longer than {limit}")
    if fd is None:
        sock.send(data)
    else:
        sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])


def receive(sock: socket.socket, decoder: msgspec.msgpack.Decoder[Any]) -> tuple[Any, int | None] | None:
    """One message and the descriptor that came with it; None when the other end has closed."""
    fds = array.array("i")
    data, ancillary, _flags, _addr = sock.recvmsg(MAX_PACKET, socket.CMSG_SPACE(fds.itemsize))
    fd = None
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
            fd = fds[0]
    if not data:
        if fd is not None:
            socket.close(fd)
        return None
    return decoder.decode(data), fd
