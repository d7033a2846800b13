"""A league's standings on the venue's relay: ``fireteam relay --league FILE`` serves ``/standings``.

The page is ``fireteam league standings --format html``'s (``core.league.render.page``): every
name escaped, no script, no outside resource, its one style the report's (issue #91); the relay's
policy allows no inline script and no inline style but that one, by its hash
(:attr:`LeaguePage.style_source`).  ``?lang=it`` or
``?lang=en`` chooses its language, else the browser's ``Accept-Language``, else English.

The league file is another process's (``fireteam league add`` appends to it as the evening
goes): each request looks at its size, time and inode, and when one of them moved the file is
read again, within the league file's own limit (``core.storage.journal.MAX_JOURNAL_BYTES``), in
a thread, so the relay's watchers are not held up while a season is folded and every signature
in it judged again (``core.league.folding``).  One reading serves every request that waits for
it: the season is folded once and its page rendered once in each language, encoded once, then
the season is let go; the relay sends the one page's bytes to every request, a piece at a time
as each connection takes them (``Relay._standings``), so 200 requests hold one page, not 200
copies (issue #90: one parse a waiting request took 2 GB under 200 requests of a 63 MB league).
A file that cannot be read, or is no league, or whose settings are not those its organiser
signed, is a 503 saying so, naming the file but not where the relay keeps it (the last good
page is not served as if it were the file's); a line the re-check flags is named so too.
"""

from __future__ import annotations

import asyncio
import html
import os
from pathlib import Path

from aiohttp import web

from core.language.reader import LANGUAGES, SOURCE, reading
from core.storage.errors import SaveError

#: What identifies a state of the file: its size, time and inode.
_State = tuple[int, int, int]


class LeaguePage:
    """The standings page of the league file at ``path``, read again whenever the file changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._state: _State | None = None
        #: The pages of the file's state, in every language (UTF-8), once read (or being read).
        self._pages: asyncio.Future[dict[str, bytes]] | None = None
        #: How many times the file was read and folded (a test counts them).
        self.reads = 0

    @property
    def style_source(self) -> str:
        """The CSP source that allows the page's style."""
        from core.league.render import PAGE_STYLE_SOURCE

        return PAGE_STYLE_SOURCE

    def _render(self) -> dict[str, bytes]:
        """The page in every language (SaveError or OSError if the file is no league or cannot be read)."""
        from core.league import render, season, standings

        self.reads += 1
        league = season.load(self.path)
        table = standings.table(league)
        pages = {}
        for lang in LANGUAGES:
            with reading(lang):
                pages[lang] = self._named(render.page(table, league.opened.name, lang), escaped=True).encode()
        return pages

    def _named(self, said: str, escaped: bool = False) -> str:
        """``said`` naming the league's file by its name, not where the relay keeps it (issue #90):
        a line the re-check flags names it as the standings do, ``PATH:LINE``."""
        where = html.escape(str(self.path), quote=True) if escaped else str(self.path)
        return said.replace(where, html.escape(self.path.name, quote=True) if escaped else self.path.name)

    async def render(self, lang: str) -> bytes:
        """The page in ``lang``: the file read again if it changed, that one reading shared."""
        st = os.stat(self.path)
        state = (st.st_size, st.st_mtime_ns, st.st_ino)
        if state != self._state or self._pages is None:
            self._state = state
            self._pages = asyncio.ensure_future(asyncio.to_thread(self._render))
        return (await asyncio.shield(self._pages))[lang]

    async def answer(self, request: web.Request) -> tuple[int, bytes, str]:
        """The status, the body (UTF-8) and its type of a request for the page."""
        lang = asked_language(request)
        try:
            return 200, await self.render(lang), "text/html"
        except (OSError, SaveError) as e:
            said = str(e) if isinstance(e, SaveError) else f"{self.path}: {e.strerror or e}"
            return 503, self._named(said).encode(), "text/plain"


def asked_language(request: web.Request) -> str:
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("Accept-Language", "")[:200].split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return SOURCE
