"""The table process's doors at ``fireteam serve --workers N``: each connection counted, and handed to a worker.

This process accepts the connections (SSH's, and the browsers' at ``--web``),
so it counts those not logged in yet and refuses those over the limits before
any worker sees them (``tui.ssh.limits.Gate``; the browsers apart,
``tui.ssh.web.gate``); one it admits goes to the taking worker with the
fewest of the pool's (``tui.ssh.workers.pool``).  It keeps a copy of an SSH
connection's socket until the worker says it logged in or went: an idle one
is cut through it while many wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

from tui.ssh.host.server import SWEEP_S
from tui.ssh.limits import Gate, QuietLog
from tui.ssh.web.gate import WebGate
from tui.ssh.workers import wire
from tui.ssh.workers.handle import Duty, WorkerHandle


class Doors:
    """The connections the table process takes, until a worker has them (see the module's doc)."""

    def __init__(self, gate: Gate, web_gate: WebGate, workers: list[WorkerHandle], quiet: QuietLog) -> None:
        #: The table's counts of the SSH connections not logged in, and of the browsers' not seats yet (its own).
        self.gate = gate
        self.web_gate = web_gate
        #: The table's workers (``SeatWorkers.workers``, the same list).
        self.workers = workers
        self._quiet = quiet
        #: A copy of each SSH connection not logged in yet, by peer: a sweep closes it through this.
        self._unauth: dict[str, socket.socket] = {}

    def take(self, conn: socket.socket, peer: str, door: str) -> None:
        with conn:
            # A browser's connection has its own timeout; an SSH one idle while many wait is
            # cut here, through a copy of its socket kept until it logs in or goes.
            ssh = door == "ssh"
            admitted = self.gate.admit(peer, lambda: self._cut(peer)) if ssh else self.web_gate.admit(peer)
            if admitted:  # else refused (and logged) before any worker sees it
                if ssh:
                    self._unauth[peer] = conn.dup()
                self._hand_over(conn, peer, door)

    def _hand_over(self, conn: socket.socket, peer: str, door: str) -> None:
        """Give the connection to the taking worker with the fewest (this process closes its copy); any worker
        serves either door."""
        for w in sorted((w for w in self.workers if w.duty is Duty.TAKING), key=lambda w: w.connections):
            try:
                wire.send(w.news, wire.Arrived(peer, door), conn.fileno())
            except OSError:
                continue  # full or gone: the next one
            w.peers.add(peer)
            return
        self.gone(peer)
        self._quiet.warning("no worker", "no seat worker could take the connection from=%s; closed", peer)

    def gone(self, peer: str) -> None:
        """``peer`` logged in (or a browser's is a seat now) or closed: it no longer counts, and its copy here
        is let go."""
        self.gate.closed(peer)
        self.web_gate.closed(peer)
        sock = self._unauth.pop(peer, None)
        if sock is not None:
            sock.close()

    def _cut(self, peer: str) -> None:
        """Close ``peer``'s connection, which a worker serves, through this process's copy of it."""
        sock = self._unauth.pop(peer, None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # the worker's asyncssh reads the end
            sock.close()

    async def sweep(self) -> None:
        """Clear idle connections not logged in while many wait (``Gate.sweep``)."""
        while True:
            await asyncio.sleep(SWEEP_S)
            self.gate.sweep()

    def close(self) -> None:
        for sock in self._unauth.values():
            sock.close()
        self._unauth.clear()
