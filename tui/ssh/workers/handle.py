"""The table process's handle on each seat worker (``tui.ssh.workers.pool``): its duty, its
process and sockets, its seats, the news it has not been told yet and its heartbeat.

The worker's own side, the process that serves the seats, is ``tui.ssh.workers.worker``.
"""

from __future__ import annotations

import asyncio
import enum
import socket
from dataclasses import dataclass, field


class Duty(enum.Enum):
    """What this process hands a worker."""

    #: New connections (to the one of them with the fewest).
    TAKING = "taking"
    #: Nothing yet: started ahead, it takes the place of a taking worker that retires or dies.
    STANDBY = "standby"
    #: Nothing more: it serves its connections until the last ends, then stops.
    RETIRING = "retiring"


@dataclass(eq=False)
class WorkerHandle:
    index: int
    proc: asyncio.subprocess.Process
    news: socket.socket
    requests: socket.socket
    heartbeat: socket.socket
    ready: asyncio.Future[None]
    duty: Duty
    #: It said as many seats have left it as ever sat in it at once (``wire.Laden``): it is to retire.
    laden: bool = False
    #: It is to be told it retires (``wire.Retire``), once its news socket has room.
    tell_retire: bool = False
    #: The connections handed to it and not gone, by peer.
    peers: set[str] = field(default_factory=set)
    seated: list[tuple[str, str]] = field(default_factory=list)
    #: The (table, role) of each of its seats: asked for its own dice (``Game.seated``).
    roles: list[tuple[str, str]] = field(default_factory=list)
    #: Sizes not yet told because the worker's news socket was full, by table.
    behind: dict[str, int] = field(default_factory=dict)
    #: Tables whose held command (``Game.awaiting.held``) it has not been told, for the same reason.
    held: set[str] = field(default_factory=set)
    #: ... and whose rolls asked at their own seats (``Game.rolling.rolls``).
    rolling: set[str] = field(default_factory=set)
    #: The last ping sent, and the last answered.
    pinged: int = 0
    ponged: int = 0
    #: Seconds its event loop had not turned, at the last answer.
    stalled: float = 0.0

    @property
    def connections(self) -> int:
        return len(self.peers)
