"""A relay's pages in a real browser (Debian's Chromium, driven by Playwright): a relay killed, its pages
go on at another relay, running their own script (relay.js, screen.mjs), against a real NATS server.

They need ``/usr/bin/chromium`` and skip, saying so, where it is missing (as tests/ssh/test_web_browser.py).
Every wait is on the page's state or a relay's; timeouts are last guards.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from nats_server import NatsServer, nats_server
from test_venue_nats import GUARD_S, caught_up, demo, publishing, venue_relays
from web_club import chromium_browser, playwright_or_skip

from core.log.views import REFEREE
from tui.ssh.host.server import Table

pytestmark = [pytest.mark.browser, pytest.mark.server]

playwright_or_skip()


async def until(page, selector: str, check, what: str = "text") -> None:
    """Until ``check`` holds of the page's element (its text, or an attribute), looked at as a person would.

    Not ``wait_for_function``: it evaluates a string, which the pages' Content-Security-Policy forbids."""
    deadline = asyncio.get_running_loop().time() + GUARD_S
    while True:
        element = page.locator(selector)
        value = (await element.inner_text() if what == "text" else await element.get_attribute(what)) or ""
        if check(value):
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out on {selector}; it holds {value[:2000]!r}")
        await asyncio.sleep(0.1)


@pytest.fixture
async def chromium():
    """A Chromium of the test's own, in the test's loop (not the module's, as the conftest's)."""
    async with chromium_browser() as browser:
        yield browser


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    async with nats_server(tmp_path / "nats") as s:
        yield s


async def test_a_relay_killed_its_pages_go_on_at_the_other_relay_in_a_browser(
    tmp_path: Path, server: NatsServer, chromium
):
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    publisher = await publishing([table], server)
    a, b = venue_relays(server, 2)
    closed = set()
    try:
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, table)
        for relay in (a, b):
            await relay.start_web("127.0.0.1", 0)
            await relay.start()
        async with asyncio.timeout(GUARD_S):
            await a.until(lambda: b.public_url in a.live_relays() and "one" in a.tables)
        context = await chromium.new_context(viewport={"width": 1200, "height": 800})
        errors: list[str] = []
        context.on("weberror", lambda e: errors.append(str(e.error)))
        log_page = await context.new_page()
        await log_page.goto(a.public_url + "/watch/one")
        await until(log_page, "#log", lambda t: "next" in t)
        screen_page = await context.new_page()
        await screen_page.goto(a.public_url + "/screen/one")
        await until(screen_page, ".xterm-rows", lambda t: "one.ft" in t)
        assert await screen_page.get_attribute("body", "data-relay") == a.public_url
        venue = await context.new_page()
        await venue.goto(a.public_url + "/")
        await until(venue, "#tables tbody", lambda t: t.startswith("one"))
        assert await venue.get_attribute("#tables tbody a[href='/screen/one']", "href") == "/screen/one"

        await a.close()  # killed
        closed.add(a)
        await until(log_page, "#status", lambda t: t == f"live from {b.public_url}")
        await until(screen_page, "body", lambda v: v == b.public_url, "data-relay")
        await until(venue, "#status", lambda t: t.endswith(f"live from {b.public_url}"))
        # And they are live there: a command shows on each.
        game.execute("move conti 3", role=REFEREE)
        await until(log_page, "#log", lambda t: "move conti 3" in t)
        await until(screen_page, ".xterm-rows", lambda t: "move conti 3" in t)
        assert errors == []
        await context.close()
    finally:
        for relay in (a, b):
            if relay not in closed:
                await relay.close()
        await publisher.close()
