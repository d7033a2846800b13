"""An event's pages on the venue's relay: ``fireteam relay --event FILE`` serves

* ``/event`` (``?round=N`` for an earlier round): the round's pairings, each table's state and
  clock, the byes; ``/event/standings``: the standings (``core.event.pages``);
* the same as text (``/event.txt``, ``/event/standings.txt``: ``core.event.render``'s lines,
  a screen reader's and a script's) and as JSON (``/event.json``, ``/event/standings.json``:
  ``render.as_data``, the whole event).

``?lang=it`` or ``?lang=en`` chooses the language, else the browser's ``Accept-Language`` (as
the league's page: ``tui.ssh.venue.leaguepage``).  The event file is another process's (the
organiser's ``fireteam event``, the tables' server adding games): each request looks at its size,
time and inode and at its league's, and when one moved the event is read again, in a thread, one
reading shared by every request waiting for it (folding it judges every signature in it and in
its league again).  The page itself is made for each request from the event held (a clock's
minutes move).  A file that cannot be read, or is no event, is a 503 saying why, naming the file
but not the relay's folder.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import msgspec
from aiohttp import web

from core.event import eventfile, pages, render
from core.event.state import Event
from core.language.reader import reading
from core.storage.errors import SaveError
from tui.ssh.venue.leaguepage import asked_language

#: What identifies a state of the files: each one's size, time and inode.
_State = tuple[tuple[int, int, int], ...]


class EventPages:
    """The pages of the event file at ``path``, the event read again whenever it or its league changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._league: Path | None = None
        self._state: _State | None = None
        self._read: asyncio.Future[tuple[Event, bytes]] | None = None
        #: How many times the event was read and folded (a test counts them).
        self.reads = 0

    def _files(self) -> _State:
        paths = [self.path] if self._league is None else [self.path, self._league]
        out = []
        for p in paths:
            st = os.stat(p)
            out.append((st.st_size, st.st_mtime_ns, st.st_ino))
        return tuple(out)

    def _load(self) -> tuple[Event, bytes]:
        self.reads += 1
        journal, event = eventfile.read(self.path)
        self._league = eventfile.league_path(self.path, event.opened.league)
        return event, journal.head

    async def event(self) -> tuple[Event, bytes]:
        """The event and its file's head, read again if the event file or its league changed."""
        state = self._files()
        if state != self._state or self._read is None:
            self._state = state
            self._read = asyncio.ensure_future(asyncio.to_thread(self._load))
        return await asyncio.shield(self._read)

    async def answer(self, request: web.Request) -> tuple[int, bytes, str, tuple[str, ...]]:
        """The status, the body (UTF-8), its type and its styles' CSP sources of a request for a page:
        ``/event``, ``/event.txt``, ``/event/standings.json``, ..."""
        page, _sep, kind = request.path.removeprefix("/event").lstrip("/.").partition(".")
        if request.path.startswith("/event."):
            page, kind = "", page
        if page not in ("", "standings") or kind not in ("", "txt", "json"):
            return 404, b"no such page", "text/plain", ()
        try:
            event, head = await self.event()
        except (OSError, SaveError) as e:
            said = str(e) if isinstance(e, SaveError) else f"{self.path}: {e.strerror or e}"
            return 503, said.replace(str(self.path.parent), "").lstrip("/").encode(), "text/plain", ()
        if kind == "json":
            return 200, msgspec.json.encode(render.as_data(event, head)), "application/json", ()
        number = _round(request, len(event.rounds))
        with reading(asked_language(request)):
            if kind == "txt":
                lines = render.standing_lines(event) if page else render.pairings(event, number)
                return 200, ("\n".join(lines) + "\n").encode(), "text/plain", ()
            made = pages.standings_page(event, head) if page else pages.round_page(event, head, number)
        return 200, made.html.encode(), "text/html", made.style_sources


def _round(request: web.Request, rounds: int) -> int | None:
    """The round asked for (``?round=N``), if it is one of the event's; else None (the current)."""
    asked = request.query.get("round", "")
    return int(asked) if asked.isdigit() and 1 <= int(asked) <= rounds else None
