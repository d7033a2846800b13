"""An event day end to end (issue #92): 16 players, 3 rounds of a Swiss, from ``fireteam event new``
to the final standings, as an organiser and his players run it.

The organiser's commands are ``fireteam event ...``; the tables are served by ``fireteam serve
--event``'s code (this process, its seats as the product draws them) and every game is played at
them: the organiser's seat at each table ends it, and each player confirms at his own seat, by his
own SSH key, or in Chromium by an invitation's link (one player of round 1).  One late entry (before
round 2: a bye), one drop (by the player himself, before round 3), one ruling (a no-show in round
3); every other result is a certified save, added by the tables themselves.  The relay's pages are
opened in Chromium at 1280x800 and 390x844 after each round (``FIRETEAM_SCREENSHOTS=DIR`` keeps
the pictures there, else under ``/tmp/fireteam-event-day``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path

import asyncssh
import pytest
from ssh_club import WAIT_S, wait_until
from web_club import CHROMIUM, playwright_or_skip

from core.event import eventfile
from core.event import tables as event_tables
from core.event.records import NO_SHOW, Played, Ruled
from core.league import season
from tests.shared.club import club_keys, new_league
from tui.bench.crowd import CHROMIUM_ARGS
from tui.bench.event_tables import Bot
from tui.main import main as fireteam
from tui.ssh.host.eventtables import EventTables
from tui.ssh.host.server import FireteamServer
from tui.ssh.invitations.store import Invitations
from tui.ssh.limits import Limits
from tui.ssh.seatsfile import SeatsFile, table_roles
from tui.ssh.venue.connection import NatsOptions
from tui.ssh.venue.eventpage import EventPages
from tui.ssh.venue.relay import Relay

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.server, pytest.mark.subprocess]

playwright = playwright_or_skip()

PLAYERS = ("ada", "ben", "cleo", "dan", "eva", "finn", "gia", "hugo", "ida", "jon", "kai", "lea", "max", "nina")
PLAYERS += ("otto", "pia")
LATE = "quinn"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def shots() -> Path:
    folder = Path(os.environ.get("FIRETEAM_SCREENSHOTS") or "/tmp/fireteam-event-day")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def ok(*argv: str) -> None:
    """``fireteam ARGS`` as the organiser types it, in a thread (the tables' seats go on meanwhile)."""
    assert await asyncio.to_thread(fireteam, list(argv)) == 0, argv


class Day:
    def __init__(self, folder: Path, served: EventTables, server: FireteamServer, port: int, web: int) -> None:
        self.folder, self.path = folder, served.path
        self.served, self.server, self.port, self.web = served, server, port, web
        self.bots: list[Bot] = []

    def key(self, name: str) -> Path:
        return self.folder / name

    async def sit(self, name: str, command: str = "plain") -> Bot:
        bot = await Bot.sit(self.port, self.key(name), command)
        self.bots.append(bot)
        await bot.until("Fireteam, in plain lines")
        return bot

    async def play(self, number: int, *, skip: frozenset[int] = frozenset(), browser=None) -> None:
        """Every table of round ``number`` but ``skip`` played at the server's tables: the organiser's
        seat ends it (the first side wins at odd tables, the second at even), both players confirm."""
        event = eventfile.load(self.path)
        assert event.current is not None and event.current.number == number
        opened = [self.name(number, t.number) for t in event.current.tables if t.number not in skip]
        await wait_until(
            lambda: all(self.served.tables.get(n) for n in opened),
            timeout=WAIT_S * 4,
            show=lambda: str(list(self.served.tables)),
        )
        for t in event.current.tables:
            if t.number in skip:
                continue
            name = self.name(number, t.number)
            ref = await self.sit("org", f"plain {name}")
            a = await self.sit(t.a) if browser is None or t.number != 1 else None
            b = await self.sit(t.b)
            ref.send("next")
            ref.send(f"victory {'british' if t.number % 2 else 'german'} held the church")
            await b.until("Game over")
            if a is None:  # in Chromium: the player's terminal page, by his invitation
                await browser(t.a)
            else:
                a.send("confirm")
            b.send("confirm")
        await wait_until(
            lambda: all(t.ended or t.number in skip for t in eventfile.load(self.path).current.tables),
            timeout=WAIT_S * 4,
        )
        for bot in self.bots:  # the round is over: its seats leave
            bot.close()
        self.bots.clear()

    def name(self, number: int, table: int) -> str:
        return event_tables.table_name(self.path, number, table)


async def look(context, base: str, label: str) -> dict[str, str]:
    """The relay's two pages opened in Chromium at both sizes: their pictures, and what each says."""
    seen = {}
    for size, (width, height) in SIZES.items():
        page = await context.new_page()
        await page.set_viewport_size({"width": width, "height": height})
        for which in ("event", "event/standings"):
            answer = await page.goto(f"{base}/{which}?lang={'it' if size == 'phone' else 'en'}")
            assert answer is not None and answer.status == 200
            tag = which.replace("/", "-")
            await page.screenshot(path=str(shots() / f"{label}-{tag}-{size}.png"), full_page=True)
            seen[f"{tag}-{size}"] = await page.inner_text("body")
            # Nothing wider than the screen: a phone scrolls the page down, never sideways.
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        await page.close()
    return seen


async def test_an_event_day_from_event_new_to_the_final_standings(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    folder = tmp_path
    club_keys(folder, (*PLAYERS, LATE, "org"))
    league = new_league(folder)
    path = folder / "day.event"
    org = str(folder / "org")
    new = ["event", "new", str(path), "--league", str(league), "--rounds", "3", "--system", "swiss"]
    await ok(*new, "--ruleset", "ludonet", "--scenario", "tanks", "--minutes", "90", "--name", "Club day", "--key", org)
    await ok("event", "enter", str(path), *PLAYERS, "--key", org)
    await ok("event", "pair", str(path))
    log = logging.getLogger("fireteam.serve")
    served = EventTables(path, log, folder / "org")
    opened = served.open_round()
    seats = SeatsFile(served.seats_path, log, table_roles([list(t.game.state.sides) for t in opened]))
    (folder / "data").mkdir()
    invitations = Invitations(folder / "data")
    server = FireteamServer(
        opened, seats, asyncssh.generate_private_key("ssh-ed25519"), limits=Limits(terminals_per_seat=16),
        invitations=invitations,
    )  # fmt: skip
    server.open_web(port=0)
    web = await server.start_web("127.0.0.1", 0)
    port = await server.start("127.0.0.1", 0)
    served.attach(server)
    served.start()
    relay = Relay(NatsOptions("nats://127.0.0.1:1"), logging.getLogger("test.relay"))  # the pages need no NATS
    relay.event_pages = EventPages(path)
    base = f"http://127.0.0.1:{await relay.start_web('127.0.0.1', 0)}"
    day = Day(folder, served, server, port, web)
    async with playwright.async_playwright() as p, contextlib.AsyncExitStack() as stack:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.push_async_callback(browser.close)
        context = await browser.new_context()
        try:

            async def in_chromium(name: str) -> None:
                token, _inv = invitations.create(name)
                page = await context.new_page()
                await page.set_viewport_size({"width": 1280, "height": 800})
                await page.goto(f"http://127.0.0.1:{web}/join/{token}")
                rows = page.locator(".xterm-rows")
                await rows.filter(has_text=f"{name} (").wait_for(timeout=WAIT_S * 1000)
                await rows.filter(has_text="Game over").wait_for(timeout=WAIT_S * 1000)
                await rows.filter(has_text="round 1 ends").wait_for(timeout=WAIT_S * 1000)  # the clock, beside it
                await page.screenshot(path=str(shots() / "round1-browser-seat.png"))
                await page.keyboard.type("confirm")
                await page.keyboard.press("Enter")
                await rows.filter(has_text="confirms the result").wait_for(timeout=WAIT_S * 1000)
                await page.close()

            await ok("event", "clock", str(path), "--key", org)  # the organiser starts round 1's 90 minutes
            await day.play(1, browser=in_chromium)
            seen = await look(context, base, "round1")
            assert (
                "Club day: round 1 of 3" in seen["event-desktop"] and "Every table has ended." in seen["event-desktop"]
            )
            assert "classifica dopo 1 turni di 3" in seen["event-standings-phone"]

            await ok("event", "enter", str(path), LATE, "--key", org)  # a late arrival: he joins round 2
            await ok("event", "pair", str(path))
            event = eventfile.load(path)
            assert len(event.current.tables) == 8 and len(event.current.byes) == 1
            await day.play(2)

            dropped = next(t.b for t in eventfile.load(path).current.tables if t.number == 3)
            await ok("event", "drop", str(path), dropped, "--by", dropped, "--key", str(day.key(dropped)))
            await ok("event", "pair", str(path))
            event = eventfile.load(path)
            assert dropped not in {n for t in event.current.tables for n in (t.a, t.b)} and not event.current.byes
            absent = event.current.table(8).b
            await ok("event", "rule", str(path), "--table", "8", "--absent", absent, "--why", "not here by 10:30",
                     "--key", org)  # fmt: skip
            await day.play(3, skip=frozenset({8}))
            seen = await look(context, base, "final")
            assert "standings after 3 of 3 rounds" in seen["event-standings-desktop"]
            assert f"ruling: {absent} did not come" in seen["event-desktop"]
        finally:
            for bot in day.bots:
                bot.close()
            await relay.close()
            await served.close()
            await server.close()
            served.close_games()
    event = eventfile.load(path)
    assert event.finished
    records = eventfile.read(path)[0].records
    games = [r for r in records if isinstance(r, Played)]
    rulings = [r for r in records if isinstance(r, Ruled)]
    assert len(games) == 8 + 8 + 7 and [(r.kind, r.absent) for r in rulings] == [(NO_SHOW, (absent,))]
    assert len(season.load(league).games) == len(games)  # every certified game is the league's too
    assert sum(len(r.byes) for r in event.rounds) == 1
    assert eventfile.rederive(path) == ([1, 2, 3], [])
    assert await asyncio.to_thread(fireteam, ["event", "standings", str(path)]) == 0
