"""A venue's report page as a browser draws it (issue #77): Debian's Chromium, driven by Playwright, opens
a relay's ``/report/TABLE`` on a desktop (1280x800) and a phone (390x844) and the charts are drawn as the
file draws them, white with their coloured lines, not black boxes: the relay's policy allows the page's own
styles by their hashes, and nothing else (no ``'unsafe-inline'``).

Judged by the pixels drawn: each chart's picture is read back in a page of the test's own (a canvas).
``FIRETEAM_SCREENSHOTS=DIR`` keeps the two pages' pictures there (``screenshots/venue-report-*.png``).
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


async def test_the_venue_report_page_draws_its_charts_on_a_desktop_and_a_phone(relay: Relay):
    keep = os.environ.get("FIRETEAM_SCREENSHOTS")
    async with chromium_browser() as browser:
        for name, (width, height) in SIZES.items():
            context = await browser.new_context(viewport={"width": width, "height": height})
            refused: list[str] = []
            page = await context.new_page()
            page.on("console", lambda m, refused=refused: refused.append(m.text) if "Policy" in m.text else None)
            response = await page.goto(relay.public_url + "/report/demo")
            assert response is not None and response.status == 200
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
