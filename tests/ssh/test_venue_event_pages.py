"""An event's pages on the venue's relay (issue #92): ``fireteam relay --event FILE`` serves the
round's pairings, tables and clock and the standings, fetched here over HTTP as a browser would:
in English and Italian, every name escaped, the page's one style allowed by its hash and nothing
else, for a phone and for paper; the same as text and JSON; the file read again when it changes,
and only then."""

from __future__ import annotations

import asyncio
import logging
import re

import aiohttp
import msgspec
import pytest

from core.event import eventfile
from core.event.pages import STYLE
from core.report.render_html import style_source
from tests.core.eventclub import make_club, play_round
from tui.ssh.venue.connection import NatsOptions
from tui.ssh.venue.eventpage import EventPages
from tui.ssh.venue.relay import Relay

pytestmark = [pytest.mark.server, pytest.mark.subprocess]  # ssh-keygen makes the club's keys and signs

LOG = logging.getLogger("test.event.pages")


async def fetch(url: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as s, s.get(url) as r:
        return r.status, await r.text(), dict(r.headers)


def test_the_relay_serves_the_events_pages_as_html_text_and_json(tmp_path):
    club = make_club(tmp_path)
    path = club.event(name="<b>Day</b> & co", minutes=90)
    event, _head = eventfile.pair(path)
    eventfile.clock(path, club.org, None)
    event = play_round(club, path, event)
    event, _head = eventfile.pair(path)
    t1 = event.current.table(1)

    async def go() -> None:
        relay = Relay(NatsOptions("nats://127.0.0.1:1"), LOG)  # (no NATS needed for the pages)
        relay.event_pages = EventPages(path)
        port = await relay.start_web("127.0.0.1", 0)
        base = f"http://127.0.0.1:{port}"
        try:
            status, page, headers = await fetch(base + "/event?lang=en")
            assert status == 200 and headers["Content-Type"].startswith("text/html")
            assert headers["Content-Security-Policy"].count(style_source(STYLE)) == 1
            assert "'unsafe-inline'" not in headers["Content-Security-Policy"] and "<script" not in page
            assert "&lt;b&gt;Day&lt;/b&gt; &amp; co: round 2 of 3" in page and "<b>Day" not in page
            assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
            assert "@media print" in page and "@media (max-width: 40em)" in page
            assert f'data-label="british">{t1.a}</td>' in page and "Round 2: clock not started" in page
            assert "Every table has ended." not in page and "2 tables still playing." in page
            status, it, _h = await fetch(base + "/event?lang=it&round=1")
            assert "turno 1 di 3" in it and "Ogni tavolo ha finito." in it and ", certificato" in it
            status, text, headers = await fetch(base + "/event/standings.txt?lang=en")
            assert status == 200 and headers["Content-Type"].startswith("text/plain")
            assert text.splitlines()[0] == "Standings after 1 of 3 rounds"
            assert re.search(r"^1\. \w+: 3 points; 1 won", text.splitlines()[1])
            status, body, headers = await fetch(base + "/event.json")
            data = msgspec.json.decode(body)
            assert headers["Content-Type"].startswith("application/json") and len(data["paired"]) == 2
            assert [t["results"] for t in data["paired"][0]["tables"]] != [{}, {}]
            status, standings, _h = await fetch(base + "/event/standings?lang=en")
            assert "standings after 1 of 3 rounds" in standings and '<td class="n">3</td>' in standings
            reads = relay.event_pages.reads
            await fetch(base + "/event")
            assert relay.event_pages.reads == reads  # the file unchanged: not read again
            eventfile.rule(path, club.org, 1, "no-show", "not here", absent=(t1.b,))
            status, page, _h = await fetch(base + "/event?lang=en")
            assert relay.event_pages.reads == reads + 1 and f"ruling: {t1.b} did not come" in page
            assert (await fetch(base + "/event/nothing"))[0] == 404
            path.write_bytes(path.read_bytes().replace(b'"minutes":90', b'"minutes":10'))  # an edited event file
            status, said, _h = await fetch(base + "/event")
            assert status == 503 and "day.event:2:" in said and str(tmp_path) not in said
        finally:
            await relay.close()

    asyncio.run(go())
