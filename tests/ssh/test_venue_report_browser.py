"""A venue's report page as a browser draws it (issue #77): Debian's Chromium, driven by Playwright, opens
a relay's ``/report/TABLE`` on a desktop (1280x800) and a phone (390x844) and the charts are drawn as the
file draws them, white with their coloured lines, not black boxes: the relay's policy allows the page's own
styles by their hashes, and nothing else (no ``'unsafe-inline'``).

Judged by the pixels drawn: each chart's picture is read back in a page of the test's own (a canvas).
And a league's ``/standings`` (issue #91), styled as the report, no wider than a phone.
``FIRETEAM_SCREENSHOTS=DIR`` keeps each page's two pictures there (``screenshots/venue-report-*.png``,
``screenshots/standings-*.png``).
Needs ``/usr/bin/chromium``; skipped, saying so, where it is missing (as tests/ssh/test_web_browser.py).
"""

from __future__ import annotations

import base64
import logging
import os
from pathlib import Path

import pytest
from web_club import chromium_browser, playwright_or_skip

from core.game import Game
from core.log.views import SPECTATOR
from core.report.chances import chances
from core.report.venue import chances_bytes, read_chances
from core.venue import MAX_TABLES, chances_subject, spectator_subject, view_bytes
from tui.ssh.venue.connection import NatsOptions
from tui.ssh.venue.relay import Relay
from tui.ssh.venue.watched import take_view

pytestmark = [pytest.mark.browser, pytest.mark.server]

playwright_or_skip()

SAVES = Path(__file__).resolve().parents[2] / "saves"
SIZES = {"desktop-1280x800": (1280, 800), "phone-390x844": (390, 844)}

#: Counts, in a PNG, the pixels near black, near white and near the charts' first two colours
#: (``core.report.charts``: #1f5fa8, #c0392b).
_COUNT = """async (png) => {
  const img = new Image();
  img.src = "data:image/png;base64," + png;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width; canvas.height = img.height;
  const c = canvas.getContext("2d");
  c.drawImage(img, 0, 0);
  const d = c.getImageData(0, 0, img.width, img.height).data;
  const near = (i, r, g, b) => Math.abs(d[i] - r) < 40 && Math.abs(d[i + 1] - g) < 40 && Math.abs(d[i + 2] - b) < 40;
  const n = {black: 0, white: 0, blue: 0, red: 0, all: d.length / 4};
  for (let i = 0; i < d.length; i += 4) {
    if (near(i, 0, 0, 0)) n.black++;
    if (near(i, 255, 255, 255)) n.white++;
    if (near(i, 0x1f, 0x5f, 0xa8)) n.blue++;
    if (near(i, 0xc0, 0x39, 0x2b)) n.red++;
  }
  return n;
}"""


@pytest.fixture
async def relay(tmp_path: Path):
    """A relay serving the demo game's finished table with its chances (two re-rolls a step), fed as NATS
    would feed it; no NATS server: the page is what is tested."""
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    view = view_bytes(game, SPECTATOR)
    relay = Relay(NatsOptions("nats://127.0.0.1:1"), logging.getLogger("fireteam.venue.test"))
    take_view(relay.tables, MAX_TABLES, spectator_subject("demo"), view, "SHA256:table")
    measured = read_chances(chances_subject("demo"), chances_bytes(chances(game, 2), view))[1]
    relay.chances["demo"] = (measured, "SHA256:table")  # signed by the table's key, as its view
    await relay.start_web("127.0.0.1", 0)
    try:
        yield relay
    finally:
        await relay.close()


async def opened(browser, url: str, width: int, height: int):
    """``url`` opened in a new context ``width`` by ``height``: the context, its page, the response (a 200)
    and what its console says a policy refused (a list that grows while the page lives)."""
    context = await browser.new_context(viewport={"width": width, "height": height})
    refused: list[str] = []
    page = await context.new_page()
    page.on("console", lambda m: refused.append(m.text) if "Policy" in m.text else None)
    response = await page.goto(url)
    assert response is not None and response.status == 200
    return context, page, response, refused


async def test_the_venue_report_page_draws_its_charts_on_a_desktop_and_a_phone(relay: Relay):
    keep = os.environ.get("FIRETEAM_SCREENSHOTS")
    async with chromium_browser() as browser:
        for name, (width, height) in SIZES.items():
            context, page, response, refused = await opened(browser, relay.public_url + "/report/demo", width, height)
            charts = page.locator("figure svg")
            assert await charts.count() == 4  # the score, the losses, the luck, the chances
            reader = await context.new_page()
            for i in range(4):
                chart = charts.nth(i)
                await chart.scroll_into_view_if_needed()
                png = base64.b64encode(await chart.screenshot()).decode()
                n = await reader.evaluate(_COUNT, png)
                assert n["black"] < 0.05 * n["all"], (name, i, n)  # not a black box
                assert n["white"] > 0.5 * n["all"], (name, i, n)  # the chart's white ground
                assert n["blue"] > 20 and n["red"] > 20, (name, i, n)  # both sides' colours drawn
            # The page's own style: its tables have borders, its text the report's font.
            border = await page.locator("table td").first.evaluate("e => getComputedStyle(e).borderTopStyle")
            assert border == "solid"
            assert refused == []
            policy = response.headers["content-security-policy"]
            assert "'unsafe-inline'" not in policy and "style-src 'self' 'sha256-" in policy
            if keep:
                await charts.nth(3).scroll_into_view_if_needed()
                await page.screenshot(path=str(Path(keep) / f"venue-report-{name}.png"))
            await context.close()


@pytest.fixture
async def league_relay(tmp_path: Path):
    """A relay serving a league of two confirmed games, and no venue (``relay --league`` alone)."""
    from test_venue_standings import confirmed_game

    from core.league import season
    from tests.shared.keys import keygen, signer_line
    from tui.ssh.venue.leaguepage import LeaguePage

    key = keygen(tmp_path, "org")
    signers = tmp_path / "allowed_signers"
    signers.write_text(signer_line(key, "org") + "\n")
    league = tmp_path / "club.league"
    season.new(league, "Club night, autumn season", signers, "org", (3, 1, 0), key)
    for name, end in (("g1", "victory german held"), ("g2", "victory british held")):
        save, cert = confirmed_game(tmp_path, name, end)
        season.add(league, save, cert, [], key)  # the organiser vouches for the seats
    relay = Relay(None, logging.getLogger("fireteam.venue.test"))
    relay.standings = LeaguePage(league)
    await relay.start_web("127.0.0.1", 0)
    try:
        yield relay
    finally:
        await relay.close()


@pytest.mark.subprocess  # (ssh-keygen makes the organiser's key)
async def test_the_standings_page_is_styled_as_the_report_and_fits_a_phone(league_relay: Relay):
    """Issue #91: the standings page had no style and no viewport. Its style applies (the report's,
    allowed by its hash: no policy refused), and on the phone the page is no wider than the screen,
    its table scrolling sideways within it (``screenshots/standings-*.png``)."""
    keep = os.environ.get("FIRETEAM_SCREENSHOTS")
    async with chromium_browser() as browser:
        for name, (width, height) in SIZES.items():
            url = league_relay.public_url + "/standings?lang=it"
            context, page, _response, refused = await opened(browser, url, width, height)
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
