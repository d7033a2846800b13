"""What the table process tells its seat workers unasked, over each one's news socket.

That a table's save grew (``wire.Grew``: the worker reads the new records from
it), the command a table holds for a seat's dice (``wire.Awaiting``, issue
#61), whose dice seats type at their own prompts (``wire.Rolling``, issue #77),
and that the worker retires (``wire.Retire``).  What a worker has not been told
is kept on its handle (``tui.ssh.workers.handle.WorkerHandle``) and sent once
its socket has room; closing its news is how a worker hears that it is to stop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from tui.ssh.host.server import Table
from tui.ssh.workers import wire
from tui.ssh.workers.handle import WorkerHandle


class WorkerNews:
    """The news each of the table's workers is owed (see the module's doc)."""

    def __init__(self, tables: Mapping[str, Table], workers: list[WorkerHandle]) -> None:
        self._tables = tables
        #: The table's workers (``SeatWorkers.workers``, the same list).
        self.workers = workers

    def tell_awaiting(self, table: str) -> None:
        """Every worker's copy of ``table`` is told the command its game holds now (issue #61):
        once the command being carried out is done, after the size it grew to (``send``
        says a growth first), so a seat reads the command before it hears it is held no more."""
        for w in self.workers:
            w.held.add(table)
        asyncio.get_running_loop().call_soon(self._send_held)

    def tell_rolling(self, table: str) -> None:
        """Every worker's copy of ``table`` is told whose dice its seats type at their own prompts
        (issue #77), as a held command is (after the size the save grew to)."""
        for w in self.workers:
            w.rolling.add(table)
        asyncio.get_running_loop().call_soon(self._send_held)

    def _send_held(self) -> None:
        for w in self.workers:  # (one that stopped meanwhile is no longer among them)
            if w.held or w.rolling:
                self.send(w)

    def tell_grew(self, table: str, size: int, but: WorkerHandle) -> None:
        # Workers still starting too: news of a size they already read is ignored.
        for w in self.workers:
            if w is not but:
                w.behind[table] = size
                self.send(w)

    def send(self, w: WorkerHandle) -> None:
        """Tell a worker that it retires, and the sizes it has not heard; if its socket is full, when it has room."""
        loop = asyncio.get_running_loop()
        while w.tell_retire or w.behind or w.held or w.rolling:
            news: wire.News
            if w.tell_retire:
                news = wire.Retire()
            elif w.behind:  # (before what is held: a command held again comes after the save grew)
                news = wire.Grew(*next(iter(w.behind.items())))
            elif w.rolling:
                table = next(iter(w.rolling))
                news = wire.Rolling(table, self._tables[table].game.rolling.rolls)
            else:
                table = next(iter(w.held))
                game = self._tables[table].game
                news = wire.Awaiting(table, game.awaiting.held, game.awaiting.dropped)
            try:
                wire.send(w.news, news)
            except BlockingIOError:
                loop.add_writer(w.news, self.send, w)
                return
            except OSError:
                w.behind.clear()  # gone: SeatWorkers._watch takes it from here
                w.held.clear()
                w.rolling.clear()
                w.tell_retire = False
                return
            if isinstance(news, wire.Retire):
                w.tell_retire = False
            elif isinstance(news, wire.Grew):
                del w.behind[news.table]
            elif isinstance(news, wire.Rolling):
                w.rolling.discard(news.table)
            else:
                w.held.discard(news.table)
        loop.remove_writer(w.news)

    def close(self, w: WorkerHandle) -> None:
        """Close ``w``'s news: the worker hears the end and stops (its seats with it, if any are left)."""
        if w.news.fileno() >= 0:  # (a retiring worker's is closed as its last connection ends)
            asyncio.get_running_loop().remove_writer(w.news)
            w.news.close()
        w.behind.clear()
        w.held.clear()
        w.rolling.clear()
