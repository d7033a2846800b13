"""A league's standings on the venue's relay: ``fireteam relay --league FILE`` serves ``/standings``.

The page is ``fireteam league standings --format html``'s (``core.league.render.page``): every
name escaped, no script, no style of its own, no outside resource; so the relay's policy
serves it as it is, with neither inline scripts nor inline styles allowed.  ``?lang=it`` or
``?lang=en`` chooses its language, else the browser's ``Accept-Language``, else English.

The league file is another process's (``fireteam league add`` appends to it as the evening
goes): each request looks at its size, time and inode, and reads it again when one of them
moved, within the league file's own limit (``core.storage.journal.MAX_JOURNAL_BYTES``), in a
thread, so the relay's watchers are not held up while a season is folded.  A file that cannot
be read, or is no league, is a 503 saying so (the last good page is not served as if it were
the file's).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from aiohttp import web

from core.language.reader import LANGUAGES, SOURCE, reading
from core.storage.savefile import SaveError

#: Pages kept per file's state: one per language.
_Key = tuple[int, int, int, str]


class LeaguePage:
    """The standings page of the league file at ``path``, read again whenever the file changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pages: dict[_Key, str] = {}
        #: How many times the file was read and folded (a test counts them).
        self.reads = 0

    def _key(self, lang: str) -> _Key:
        st = os.stat(self.path)
        return (st.st_size, st.st_mtime_ns, st.st_ino, lang)

    def render(self, lang: str) -> str:
        """The page in ``lang`` (SaveError or OSError if the file is no league or cannot be read)."""
        key = self._key(lang)
        page = self._pages.get(key)
        if page is None:
            from core.league import render, season, standings

            with reading(lang):
                league = season.load(self.path)
                page = render.page(standings.table(league), league.opened.name, lang)
            self.reads += 1
            self._pages = {k: v for k, v in self._pages.items() if k[:3] == key[:3]}
            self._pages[key] = page
        return page

    async def answer(self, request: web.Request) -> tuple[int, str, str]:
        """The status, the body and its type of a request for the page."""
        lang = _language(request)
        try:
            return 200, await asyncio.to_thread(self.render, lang), "text/html"
        except (OSError, SaveError) as e:
            said = str(e) if isinstance(e, SaveError) else f"{self.path}: {e.strerror or e}"
            return 503, said, "text/plain"


def _language(request: web.Request) -> str:
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("Accept-Language", "")[:200].split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return SOURCE
