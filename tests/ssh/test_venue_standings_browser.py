"""A league's standings page as a browser draws it (issue #91): Debian's Chromium, driven by Playwright,
opens a relay's ``/standings`` on a desktop (1280x800) and a phone (390x844). The page's own style applies
(the report's, allowed by its hash: no policy refused), and on the phone the page is no wider than the
screen: its table scrolls sideways within it.

``FIRETEAM_SCREENSHOTS=DIR`` keeps the two pages' pictures there (``screenshots/standings-*.png``).
Needs ``/usr/bin/chromium``; skipped, saying so, where it is missing (as tests/ssh/test_web_browser.py).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from test_venue_standings import confirmed_game
from web_club import chromium_browser, playwright_or_skip

from core.league import season
from tests.shared.keys import keygen, signer_line
from tui.ssh.venue.leaguepage import LeaguePage
from tui.ssh.venue.relay import Relay

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.subprocess]  # (ssh-keygen: the organiser's key)

playwright_or_skip()

SIZES = {"desktop-1280x800": (1280, 800), "phone-390x844": (390, 844)}


@pytest.fixture
async def relay(tmp_path: Path):
    """A relay serving a league of two confirmed games, no venue (``relay --league`` alone)."""
    key = keygen(tmp_path, "org")
    signers = tmp_path / "allowed_signers"
    signers.write_text(signer_line(key, "org") + "\n")
    league = tmp_path / "club.league"
    season.new(league, "Club night, autumn season", signers, "org", (3, 1, 0), key)
    for name, end in (("g1", "victory german held"), ("g2", "victory british held")):
        save, cert = confirmed_game(tmp_path, name, end)
        season.add(league, save, cert, [])
    relay = Relay(None, logging.getLogger("fireteam.venue.test"))
    relay.standings = LeaguePage(league)
    await relay.start_web("127.0.0.1", 0)
    try:
        yield relay
    finally:
        await relay.close()


async def test_the_standings_page_is_styled_and_fits_a_phone(relay: Relay):
    keep = os.environ.get("FIRETEAM_SCREENSHOTS")
    async with chromium_browser() as browser:
        for name, (width, height) in SIZES.items():
            context = await browser.new_context(viewport={"width": width, "height": height})
            refused: list[str] = []
            page = await context.new_page()
            page.on("console", lambda m, refused=refused: refused.append(m.text) if "Policy" in m.text else None)
            response = await page.goto(relay.public_url + "/standings?lang=it")
            assert response is not None and response.status == 200
            cell = page.locator("table td").first
            assert await cell.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"  # the report's style
            assert "DejaVu Sans" in await page.evaluate("getComputedStyle(document.body).fontFamily")
            assert refused == []
            wide = await page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (name, wide)  # no page wider than the screen
            table = await page.locator("table").evaluate("e => [e.scrollWidth, e.clientWidth]")
            if width < 600:
                assert table[0] > table[1], table  # the table scrolls within the page
            assert await page.locator("h2").inner_text() == "Partite"
            if keep:
                await page.screenshot(path=str(Path(keep) / f"standings-{name}.png"))
            await context.close()
