"""Pictures of a browser seat on a phone, upright and held sideways: ``python -m tui.bench.phone_shots [FOLDER]``.

The server (in this process, on 127.0.0.1) seats a player and a spectator of
the screenshots' demo game (``tui.bench.screenshots``: a fixed seed and clock) in
headless Chromium at 390x844 and 844x390, and saves what each page shows as
``FOLDER/phone-{player,spectator}-{W}x{H}.png`` (``screenshots/`` by default).
It needs Playwright and ``/usr/bin/chromium`` (the tests' own).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import tempfile
from pathlib import Path

import asyncssh

from tui.bench.screenshots import demo_game
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.invitations.store import Invitations
from tui.ssh.seatsfile import Seats

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: A phone upright and held sideways (CSS pixels).
PHONE_SIZES = ((390, 844), (844, 390))
#: Who sits, the seat his invitation names ("" for a spectator link), and what his screen shows once drawn.
WHO = (("player", "reg", "reg (Bersaglieri)"), ("spectator", "", "Watching:"))
#: What every picture waits for: the phase pane's header (turn, score) and the log (the last roll is
#: tests/ssh/test_web_phone.py's to check, in a game of its own).
SHOWN = ("Turn 1", "Defeat points", "Action log")
WAIT_MS = 60_000


async def take(folder: Path) -> list[Path]:
    """Save the pictures in ``folder``; their paths."""
    from playwright.async_api import async_playwright

    folder.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="fireteam-phone-") as tmp:
        work = Path(tmp)
        game = demo_game(work / "table.ft")
        key = asyncssh.generate_private_key("ssh-ed25519")
        seats = Seats.parse(
            f'[[seat]]\nname = "reg"\nrole = "regulars"\nkeys = ["{key.export_public_key().decode().strip()}"]\n'
        )
        invitations = Invitations(work)
        log = logging.getLogger("fireteam.phone_shots")
        log.addHandler(logging.NullHandler())
        log.propagate = False
        server = FireteamServer(
            [Table("table", game)],
            seats,
            asyncssh.generate_private_key("ssh-ed25519"),
            invitations=invitations,
            log=log,
        )
        server.open_web(port=0)
        port = await server.start_web("127.0.0.1", 0)
        base = f"http://127.0.0.1:{port}"
        try:
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for who, seat, ready in WHO:
                        token, _ = invitations.create(seat)
                        for width, height in PHONE_SIZES:
                            context = await browser.new_context(
                                viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
                            )
                            page = await context.new_page()
                            await page.goto(f"{base}/join/{token}")
                            await page.wait_for_url(f"{base}/")
                            rows = page.locator(".xterm-rows")
                            for text in (ready, *SHOWN):
                                await rows.filter(has_text=re.compile(re.escape(text))).wait_for(timeout=WAIT_MS)
                            # At one device pixel a CSS pixel: 60-90 KB a picture (a JPEG of this text is larger).
                            path = folder / f"phone-{who}-{width}x{height}.png"
                            await page.screenshot(path=str(path))
                            saved.append(path)
                            await context.close()
                finally:
                    await browser.close()
        finally:
            await server.close()
            game.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.bench.phone_shots", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="screenshots", type=Path)
    args = parser.parse_args(argv)
    for path in asyncio.run(take(args.folder)):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
