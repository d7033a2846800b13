"""A proxy between a player's browser and the table chooses his dice (issue #90, point 8), replayed with a
real page (Debian's Chromium, driven by Playwright) through a man in the middle on 127.0.0.1: the door is
the host's, and the host holds the key.

* **Swapped**: the proxy puts bytes ground against the key in the place of the page's share.  The table
  cannot tell; the page is told what each roll of its seat used, and says on its own bar that the roll did
  not use its share; the record it downloads names every such roll against the save
  (``fireteam verify SAVE --side-copy RECORD``).
* **Dropped**: the proxy drops the share when the page's own faces would be bad, so that the table draws
  (its host grinds that draw).  The door refuses a line that comes without its share, and the page says so;
  typed again, the line goes with the same bytes, so the proxy has no fresh draw to choose from.

The honest control: the same page through the same proxy forwarding everything as it came rolls with its
own share, and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
from collections.abc import AsyncIterator, Callable

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web as aioweb
from multidict import CIMultiDict
from ssh_club import WAIT_S, wait_until
from test_web_browser import shows
from web_club import WebClub, playwright_or_skip, web_table

from core.dice.faces import SealedDice
from core.dice.shares import command_digest
from core.game import Game
from core.log import events as ev
from core.log.state import DICE_KEY
from core.log.views import REFEREE
from core.secrets.verify import run

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.asyncio(loop_scope="module")]

playwright = playwright_or_skip()

#: What a message of the page's becomes on its way: the messages forwarded in its place (none: dropped).
Tamper = Callable[[list], list[list]]
#: Headers not forwarded as they came: the connection's own, and the length (the body is forwarded whole).
_HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "content-length", "host"}


class ManInTheMiddle:
    """An HTTP and websocket proxy on 127.0.0.1 in front of the door: every request forwarded as it came
    (its ``Host`` too, so that the door takes the proxy's address for its own), every message of the page's
    websocket through ``tamper``, every message of the door's to the page as it came."""

    def __init__(self, door: str) -> None:
        self.door = door
        self.tamper: Tamper = lambda message: [message]
        self._runner: aioweb.AppRunner | None = None
        self._http = aiohttp.ClientSession(auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar())
        self.origin = ""

    async def start(self) -> str:
        server = aioweb.Server(self._handle)
        self._runner = aioweb.ServerRunner(server)
        await self._runner.setup()
        site = aioweb.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.origin = f"http://127.0.0.1:{port}"
        return self.origin

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        await self._http.close()

    def _headers(self, request: aioweb.BaseRequest) -> dict[str, str]:
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() not in _HOP and not k.lower().startswith("sec-websocket")
        }
        return {**headers, "Host": request.host}

    async def _handle(self, request: aioweb.BaseRequest) -> aioweb.StreamResponse:
        if request.path == "/ws":
            return await self._socket(request)
        async with self._http.get(
            self.door + request.path_qs, headers=self._headers(request), allow_redirects=False
        ) as answer:
            body = await answer.read()
            headers = CIMultiDict((k, v) for k, v in answer.headers.items() if k.lower() not in _HOP)  # (two cookies)
            return aioweb.Response(status=answer.status, body=body, headers=headers)

    async def _socket(self, request: aioweb.BaseRequest) -> aioweb.StreamResponse:
        page = aioweb.WebSocketResponse()
        await page.prepare(request)
        url = self.door.replace("http", "ws", 1) + request.path_qs
        async with self._http.ws_connect(url, headers=self._headers(request)) as door:

            async def to_door() -> None:
                async for message in page:
                    if message.type == aiohttp.WSMsgType.TEXT:
                        for forwarded in self.tamper(json.loads(message.data)):
                            await door.send_str(json.dumps(forwarded))
                await door.close()

            async def to_page() -> None:
                async for message in door:
                    if message.type == aiohttp.WSMsgType.TEXT:
                        await page.send_str(message.data)
                    elif message.type == aiohttp.WSMsgType.BINARY:
                        await page.send_bytes(message.data)
                await page.close()

            await asyncio.gather(to_door(), to_page())
        return page


def faces_of(game: Game, line: str, by: str, role: str, mine: bytes, seal: str, count: int) -> list[int]:
    """What the table would roll for ``line`` given by seat ``by`` with the share (``mine``, ``seal``,
    ``count``): the host's own table resolves it, writing nothing (he holds the key: it is in his save)."""
    parsed = game.parse(line, role)
    key = bytes.fromhex(str(game.state.vars[DICE_KEY]))
    dice = SealedDice(key, mine, game.sealing.seal(), by=by, nonce=count, line=command_digest(parsed), saw=seal)
    return [f for e in game.resolved(line, role, dice) if isinstance(e, ev.Rolled) for f in e.roll.faces]


def ground(game: Game, line: str, by: str, role: str, seal: str, count: int) -> bytes:
    """Bytes that roll all sixes for ``line``: tried until they come (a d6 in six tries or so)."""
    for _attempt in range(10_000):
        mine = os.urandom(16)
        if all(f == 6 for f in faces_of(game, line, by, role, mine, seal, count)):
            return mine
    raise AssertionError("no bytes ground")


#: What a terminal sends that is no key of a line (focus reports, answers to the app's queries).
_ESCAPES = re.compile(r"\x1b(\[[0-9;<>?]*[ -/]*[@-~]|O.)")


class Lines:
    """What the proxy reads of the page's keys: the share held until the line it goes with comes whole."""

    def __init__(self) -> None:
        self.keys = ""
        self.share: list[str] | None = None  # HEX SEAL COUNT KEYS

    def entered(self, message: list) -> str | None:
        """The line ``message`` ends (its keys since the last Enter), or None."""
        kind, value = message[0], message[1]
        if kind == "dice" and isinstance(value, str):
            self.share = value.split(" ")
        if kind != "stdin" or not isinstance(value, str):
            return None
        self.keys += value
        if "\r" not in value and "\n" not in value:
            return None
        line, self.keys = re.split("[\r\n]", _ESCAPES.sub("", self.keys))[0], ""
        return line


def swapping(web: WebClub, by: str) -> Tamper:
    """A proxy that puts ground bytes in the place of the page's share in every line's share."""
    lines = Lines()

    def tamper(message: list) -> list[list]:
        line = lines.entered(message)
        if message[0] == "dice":
            return []  # held until its line comes
        if line is None or lines.share is None:
            return [message]
        mine, seal, count, keys = lines.share
        lines.share = None
        swapped = ground(web.game, line, by, REFEREE, seal, int(count)).hex()
        return [["dice", f"{swapped} {seal} {count} {keys}"], message]

    return tamper


class Dropper:
    """A proxy that drops the page's share when its own faces would not be all sixes, the host's table
    then drawing bytes he ground.  The same share dropped twice is let through the third time (the
    proxy can keep a line from the table, never choose its faces)."""

    def __init__(self, web: WebClub, by: str, *, plain: bool) -> None:
        self.web, self.by, self.plain = web, by, plain
        self.lines = Lines()
        self.dropped: list[str] = []  # each share dropped
        self.handled = 0  # the lines that came whole

    def __call__(self, message: list) -> list[list]:
        lines, game = self.lines, self.web.game
        line = lines.entered(message)
        if message[0] == "dice":
            return []
        if line is None or lines.share is None:
            return [message]
        self.handled += 1
        held, lines.share = lines.share, None
        mine, seal, count = bytes.fromhex(held[0]), held[1], int(held[2])
        sixes = all(f == 6 for f in faces_of(game, line, self.by, REFEREE, mine, seal, count))
        if sixes or self.dropped[-2:] == [held[0], held[0]]:
            return [["dice", " ".join(held)], message]
        self.dropped.append(held[0])
        if not self.plain:  # (the door will not give the Enter: the line stays on the seat's command line)
            lines.keys = line
        choice = ground(game, line, self.by, REFEREE, seal, count)
        game.sealing.contribute = lambda: choice  # the host's table draws what he ground
        return [message]


@pytest_asyncio.fixture(loop_scope="module")
async def proxied(tmp_path, caplog) -> AsyncIterator[tuple[WebClub, ManInTheMiddle]]:
    """The demo table, its dice sealed, and a proxy in front of its door."""
    async with web_table(tmp_path, caplog) as web:
        web.game.execute("dice-key", role=REFEREE)  # (the demo's dice were seeded: sealed from here on)
        proxy = ManInTheMiddle(web.origin)
        await proxy.start()
        try:
            yield web, proxy
        finally:
            await proxy.close()


class Seat:
    """A player's page, the terminal's or the plain one, its link opened through the proxy in a browser of
    its own."""

    def __init__(self, page, plain: bool) -> None:
        self.page, self.plain = page, plain

    async def ready(self) -> None:
        if self.plain:
            await self.page.locator("#answers", has_text="in plain lines").wait_for(timeout=WAIT_S * 1000)
        else:
            await shows(self.page, "rita (referee)")

    async def enter(self, line: str) -> None:
        if self.plain:
            await self.page.fill("#line", line)
        else:
            await self.page.keyboard.type(line)
        await self.page.keyboard.press("Enter")

    async def bar(self) -> str:
        """What the page's own bar beside the game says ("" if it has none)."""
        return await self.page.evaluate("(document.getElementById('dice') || {}).textContent || ''")

    async def until_bar(self, text: str) -> str:
        """Until the page's bar says ``text`` (as Playwright waits: in the page, as it changes); what it says then."""
        try:
            await self.page.locator("#dice", has_text=text).wait_for(timeout=WAIT_S * 1000)
        except playwright.TimeoutError:
            raise AssertionError(
                f"timed out waiting for the bar to say {text!r}; it says {await self.bar()!r}"
            ) from None
        return await self.bar()


@contextlib.asynccontextmanager
async def through(chromium, proxy: ManInTheMiddle, web: WebClub, seat: str, *, plain: bool = False):
    """A browser of its own at ``seat``, its link opened through the proxy (``plain``: the plain page's)."""
    token, _ = web.invitations.create(seat)
    context = await chromium.new_context(viewport={"width": 1200, "height": 800}, accept_downloads=True)
    try:
        page = await context.new_page()
        await page.goto(f"{proxy.origin}/join/{token}{'?plain' if plain else ''}")
        await page.wait_for_url(f"{proxy.origin}/{'plain' if plain else ''}")
        seated = Seat(page, plain)
        await seated.ready()
        yield seated
    finally:
        await context.close()


def rolls(web: WebClub, purpose: str) -> list[ev.SharedRoll]:
    return [e for e in web.game.history.timeline() if isinstance(e, ev.SharedRoll) and purpose in str(e.roll.purpose)]


@pytest.mark.parametrize("plain", [False, True], ids=["terminal", "plain"])
async def test_a_swapped_share_is_said_on_the_players_page_and_named_by_his_record(proxied, chromium, tmp_path, plain):
    web, proxy = proxied
    async with through(chromium, proxy, web, "rita", plain=plain) as seat:
        # The honest control: forwarded as it came, the roll is the page's own, and the page says so.
        await seat.enter("roll 1d6 purpose=honest")
        await wait_until(lambda: len(rolls(web, "honest")) == 1)
        await seat.until_bar("your page's share ✓")
        # Swapped: five rolls, each with bytes the host ground for a six.
        proxy.tamper = swapping(web, "rita")
        for n in range(5):
            await seat.enter(f"roll 1d6 purpose=swapped{n}")
            await wait_until(lambda n=n: len(rolls(web, f"swapped{n}")) == 1)
        forced = sum(r.roll.faces == (6,) for n in range(5) for r in rolls(web, f"swapped{n}"))
        said = await seat.until_bar("did NOT use your page's share")
        print(f"swapped: {forced} of 5 rolls forced to 6; the page's bar: {said!r}")
        assert forced == 5  # the table cannot tell: the proxy still chooses these faces
        assert await seat.page.locator("#dice.alarm").count() == 1
        if plain:  # and said in the answers, which a screen reader reads as they come
            await seat.page.locator("#answers", has_text="did NOT use your page").first.wait_for()
        # The page's record, downloaded by its button, names each swapped roll against the save.
        async with seat.page.expect_download() as download:
            await seat.page.click("#dice-record")
        record = tmp_path / "record.json"
        await (await download.value).save_as(record)
    status, lines = run(web.game.path, side_copy=record)
    named = [line for line in lines if line.startswith("share ")]
    assert status == 1 and len(named) == 5, lines
    assert all("another share was put in its place on its way" in line for line in named)
    assert lines[-1].endswith("(rita): 6 rolled shares checked: 5 did not use the share this page sent")


@pytest.mark.parametrize("plain", [False, True], ids=["terminal", "plain"])
async def test_a_dropped_share_is_refused_and_said_on_the_players_page(proxied, chromium, plain):
    web, proxy = proxied
    proxy.tamper = dropper = Dropper(web, "rita", plain=plain)
    async with through(chromium, proxy, web, "rita", plain=plain) as seat:

        async def again(line: str) -> None:
            """The line given again: Enter on the terminal page (it is still on the command line), typed
            again on the plain page (which empties its input as it sends)."""
            if plain:
                await seat.enter(line)
            else:
                await seat.page.keyboard.press("Enter")

        turned = 0
        for n in range(4):
            before, handled = len(dropper.dropped), dropper.handled
            line = f"roll 1d6 purpose=dropped{n}"
            await seat.enter(line)
            await wait_until(lambda handled=handled: dropper.handled == handled + 1)
            if len(dropper.dropped) == before:  # the page's own faces were sixes: let through
                await wait_until(lambda n=n: len(rolls(web, f"dropped{n}")) == 1)
                continue
            await seat.until_bar("without your page's share")
            turned += len(rolls(web, f"dropped{n}"))  # (none: the line was refused, not drawn for)
            if plain:  # and said in the answers, which a screen reader reads as they come
                await seat.page.locator("#answers", has_text="without your page's share").first.wait_for()
            # Given again, it goes with the same bytes: no fresh draw for the proxy to choose from, which can
            # only keep the line from the table.
            await again(line)
            await wait_until(lambda before=before: len(dropper.dropped) == before + 2)
            assert dropper.dropped[-1] == dropper.dropped[-2]
            await again(line)  # let through at last: the page's own share rolls
            await wait_until(lambda n=n: len(rolls(web, f"dropped{n}")) == 1)
            (roll,) = rolls(web, f"dropped{n}")
            assert roll.contribution == dropper.dropped[-1] and roll.roll.faces != (6,)
        print(f"dropped: {len(dropper.dropped)} shares dropped, {turned} rolls drawn by the table instead")
        assert await seat.page.locator("#dice.alarm").count() == 1
        assert dropper.dropped and turned == 0  # (a page whose four faces were all sixes would test nothing)
        assert "came without its share of the dice" in web.log()
