"""A real browser at the table: Debian's Chromium, driven by Playwright, opens an invitation's link.

These tests need ``/usr/bin/chromium`` (``apt-get install chromium``; see the
README) and skip, saying so, where it is missing.  Playwright cannot download
a browser of its own here: it drives the system's.
"""

from __future__ import annotations

import hashlib
import re

import pytest
import pytest_asyncio
from ssh_club import WAIT_S, wait_until
from web_club import WebClub, playwright_or_skip, web_table

from core.log import events as ev
from core.log.views import REFEREE
from tui.bench.crowd import PHONE
from tui.ssh.invitations.store import Invitations
from tui.ssh.web.assets import version
from tui.ssh.web.door import WebDoor

#: The module's tests share one event loop, so that they share one Chromium (``chromium``).
pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.asyncio(loop_scope="module")]

playwright = playwright_or_skip()


@pytest_asyncio.fixture(loop_scope="module")
async def web(tmp_path, caplog):
    """The table of conftest.py's ``web``, in the loop the module's tests share (with ``chromium``)."""
    async with web_table(tmp_path, caplog) as web:
        yield web


async def screen(page) -> str:
    """The terminal's text, as the page shows it (xterm.js draws its rows in the page)."""
    return await page.inner_text(".xterm-rows")


async def shows(page, *texts: str, timeout: float = WAIT_S) -> str:
    """Wait until the terminal shows every one of ``texts`` (case and all), as Playwright waits (in the
    page, as it changes); what it shows then."""
    rows = page.locator(".xterm-rows")
    try:
        for text in texts:
            await rows.filter(has_text=re.compile(re.escape(text))).wait_for(timeout=timeout * 1000)
    except playwright.TimeoutError:
        raise AssertionError(f"timed out waiting for {texts}; the page shows:\n{await screen(page)}") from None
    return await screen(page)


async def follow_link(page, web: WebClub, token: str) -> None:
    """Open the link as a player does: a tap on it in another site's page (a chat app)."""
    await page.set_content(f'<a id="link" href="{web.url(f"/join/{token}")}">your seat</a>')
    await page.click("#link")
    await page.wait_for_url(web.url("/"))


async def seated(chromium, web: WebClub, seat: str, uses: int = 0, **window):
    """A browser of its own (``window``: its context's options, a desktop's by default) whose page has followed
    a new link to ``seat`` (``uses``: the link's, as ``Invitations.create``): the context, the page, the token."""
    token, _ = web.invitations.create(seat, uses=uses)
    context = await chromium.new_context(**(window or {"viewport": {"width": 1200, "height": 800}}))
    page = await context.new_page()
    await follow_link(page, web, token)
    return context, page, token


async def test_a_browser_joins_by_the_link_plays_and_its_command_shows_on_an_ssh_seat(web, chromium):
    rita = await web.club.seated("rita", "rita (referee)")
    context, page, token = await seated(chromium, web, "reg")
    assert token not in page.url  # the address bar no longer carries it
    text = await shows(page, "reg (Bersaglieri)", "as Bersaglieri", "commitment to a secret of Somali militia")
    assert "secret for Somali militia" not in text  # the regulars' view: the other side's secrets stay secret
    await page.keyboard.type("note typed in chromium")
    await page.keyboard.press("Enter")
    await rita.wait_for("typed in chromium")
    assert "note typed in chromium" in web.game.path.read_text()
    # Numbered as the regulars count (a served table writes who sits as a command of its own, #74).
    issued = [e for e in web.game.history.store.slice(0, web.game.log_length) if isinstance(e, ev.Issued)]
    (cmd,) = [e.cmd for e in issued if e.by == "reg" and e.text == "note typed in chromium"]
    await shows(page, f"#{web.game.reading.numbering('regulars').shown(cmd)} note: typed in chromium")
    # The cookie is out of the page's reach (HttpOnly).
    assert await page.evaluate("document.cookie") == ""
    await context.close()


async def test_a_forged_token_is_refused(web, chromium):
    web.invitations.create("reg")
    page = await chromium.new_page()
    answer = await page.goto(web.url("/join/" + "Q" * 32))
    assert answer.status == 403
    assert "This link does not let you in" in await page.inner_text("body")
    answer = await page.goto(web.url("/"))
    assert answer.status == 403
    assert not web.club.server.sessions


async def test_opening_the_link_again_sits_in_the_same_seat_and_the_game_as_it_is_now(web, chromium):
    context, page, token = await seated(chromium, web, "irr", uses=1)
    await shows(page, "irr (Somali militia)")
    await page.close()  # the tab closed: the seat leaves
    await wait_until(lambda: not web.club.server.sessions)
    rita = await web.club.seated("rita", "rita (referee)")
    rita.command("note played while the tab was closed")
    await rita.wait_for("while the tab was closed")
    page = await context.new_page()
    answer = await page.goto(web.url(f"/join/{token}"))
    assert answer.status == 200
    await page.wait_for_url(web.url("/"))
    await shows(page, "irr (Somali militia)", "while the tab was closed")
    assert web.invitations.all()[0].used == 1  # the same browser: no second use
    await context.close()


async def test_a_dropped_connection_reconnects_by_itself(web, chromium):
    context, page, token = await seated(chromium, web, "reg")
    await shows(page, "reg (Bersaglieri)")
    (session,) = web.club.server.sessions
    session._channel.abort()  # the connection drops (a lost Wi-Fi, a proxy restarting)
    await wait_until(lambda: any(s is not session for s in web.club.server.sessions))
    await shows(page, "reg (Bersaglieri)")
    await page.keyboard.type("note after the drop")
    await page.keyboard.press("Enter")
    await wait_until(lambda: "after the drop" in web.game.path.read_text())
    assert web.log().count("seated seat=reg") == 2
    await context.close()


async def test_on_a_phone_the_page_fits_the_keyboard_types_and_paste_works(web, chromium):
    token, _ = web.invitations.create("reg")
    context = await chromium.new_context(**PHONE)
    await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.origin)
    page = await context.new_page()
    await follow_link(page, web, token)
    await shows(page, "reg (Bersaglieri)")
    (session,) = web.club.server.sessions
    width, height = session.size
    assert width >= 60 and height >= 16  # the game's smallest working size, or more
    box = await page.locator(".xterm-screen").bounding_box()
    assert box is not None and box["width"] <= 390  # no sideways scrolling
    assert await page.locator("#keys").is_visible()  # Esc, Tab, arrows... the phone's keyboard lacks
    # An on-screen keyboard sends text as input events, not key presses.
    await page.locator(".xterm-helper-textarea").focus()
    await page.keyboard.insert_text("note from a phone")
    await page.keyboard.press("Enter")
    await wait_until(lambda: "from a phone" in web.game.path.read_text())
    # Paste: the clipboard's text goes to the command line (Ctrl+V, and the Paste key).
    await page.evaluate("navigator.clipboard.writeText('note pasted with ctrl v')")
    await page.keyboard.press("Control+V")
    await page.keyboard.press("Enter")
    await wait_until(lambda: "pasted with ctrl v" in web.game.path.read_text())
    await page.evaluate("navigator.clipboard.writeText('note pasted with the key')")
    await page.locator("#paste").tap()
    await shows(page, "note pasted with the key")  # on the command line (the clipboard is read in the background)
    await page.keyboard.press("Enter")
    await wait_until(lambda: "pasted with the key" in web.game.path.read_text())
    # The bar's keys are keys: ↑ recalls the last command, as on a keyboard.
    await page.locator('#keys [data-key="up"]').tap()
    await page.keyboard.press("Enter")
    await wait_until(lambda: web.game.path.read_text().count('"text":"note pasted with the key"') == 2)
    await context.close()


async def test_a_phone_asks_for_each_file_once_and_nothing_more(tmp_path, caplog, chromium, monkeypatch):
    """What each phone of a crowd asks of the server (issue 53): the link, which answers with the page, its two
    stylesheets, xterm.js, the SHA-256 its shares of the dice name their keys by (issue #75) and its own script,
    and the websocket at the size it draws; no second page, no fit addon (the page works its size out itself)
    and no icon (the page names none to fetch)."""
    asked: list[str] = []
    route = WebDoor._route

    async def recorded(self, request, connection):
        asked.append(request.path)
        return await route(self, request, connection)

    monkeypatch.setattr(WebDoor, "_route", recorded)
    async with web_table(tmp_path, caplog) as web:
        context, page, token = await seated(chromium, web, "reg", **PHONE)
        await shows(page, "reg (Bersaglieri)")
        assert sorted(asked) == sorted(
            [f"/join/{token}", "/static/xterm.css", "/static/fireteam.css", "/static/xterm.mjs", "/static/fireteam.mjs"]
            + ["/static/sha256.mjs", "/static/shares.mjs", "/ws"]
        )
        assert page.url == web.url("/")  # the token is out of the address bar
        # The terminal is made at the size the websocket asked for: the seat sat at the size it keeps.
        (session,) = web.club.server.sessions
        width, height = session.size
        assert f"size={width}x{height}" in web.log()
        assert await page.locator(".xterm-rows > div").count() == height
        await context.close()


async def test_a_page_whose_browser_keeps_its_cookie_from_it_moves_on_and_sits(tmp_path, caplog, chromium, monkeypatch):
    """The page that answers a link opened from another site (a chat app) sends its Strict cookie with its own
    requests in Chromium; a browser that kept it from them would have the websocket refused: the page then moves
    on to / by a navigation of its own, which carries the cookie, and sits there (here the server plays that
    browser: it takes no cookie on /ws and /alive until / is asked for)."""
    asked: list[str] = []
    grant = WebDoor._grant

    def kept_from_the_page(self, request):
        if request.path in ("/ws", "/alive") and "/" not in asked:
            return None
        return grant(self, request)

    route = WebDoor._route

    async def recorded(self, request, connection):
        asked.append(request.path)
        return await route(self, request, connection)

    monkeypatch.setattr(WebDoor, "_grant", kept_from_the_page)
    monkeypatch.setattr(WebDoor, "_route", recorded)
    async with web_table(tmp_path, caplog) as web:
        context, page, token = await seated(chromium, web, "reg", uses=1, **PHONE)
        await shows(page, "reg (Bersaglieri)")
        assert asked.index("/ws") < asked.index("/alive") < asked.index("/")  # refused, asked, moved on
        assert asked.count("/") == 1 and asked[-1] == "/ws"
        assert await page.evaluate("() => performance.getEntriesByType('navigation')[0].name") == web.url("/")
        assert web.invitations.all()[0].used == 1
        await context.close()


async def test_a_page_refused_its_files_fetches_them_again_and_sits(web, chromium):
    """A server busy with a crowd may refuse a file: the page asks again for a stylesheet and for xterm.js it was
    refused (here xterm.js at its first address every time, the stylesheet once), at the same version's address
    (which a browser keeps) marked as another try, and sits."""
    token, _ = web.invitations.create("reg")
    context = await chromium.new_context(viewport={"width": 1200, "height": 800})
    page = await context.new_page()
    asked: list[str] = []

    async def refusing(route):
        url = route.request.url
        asked.append(url)
        if "try=" in url or ("xterm.css" in url and asked.count(url) > 1):
            await route.continue_()
        else:
            await route.abort()

    await page.route(re.compile(r"/static/xterm\.(mjs|css)"), refusing)
    await follow_link(page, web, token)
    await shows(page, "reg (Bersaglieri)")
    for name in ("xterm.css", "xterm.mjs"):
        again = [url for url in asked if f"/{name}?" in url and "try=" in url]
        assert again and all(f"v={version()}" in url for url in again), asked
    assert await page.evaluate("() => getComputedStyle(document.querySelector('.xterm')).position") == "relative"
    await context.close()


async def test_the_page_draws_its_own_share_of_the_dice_for_each_line(tmp_path, caplog, chromium):
    """The page sends 16 bytes of crypto.getRandomValues before the line it enters: the
    command's sealed roll carries them, not the table's (which here would be all zeros)."""
    from core.game import Game
    from core.log import events as ev

    async with web_table(tmp_path, caplog) as web:
        web.game.execute("dice-key", role=REFEREE)  # the demo game's dice were seeded: sealed from here on
        web.game.sealing.contribute = lambda: bytes(16)  # the table's own draw, were the page to send none
        context, page, token = await seated(chromium, web, "rita")
        await shows(page, "rita (referee)")
        for purpose in ("first", "second"):
            await page.keyboard.type(f"roll 1d6 purpose={purpose}")
            await page.keyboard.press("Enter")
            await shows(page, purpose)
        kept = await page.evaluate("() => JSON.parse(localStorage.getItem('fireteam-dice'))")
        await context.close()
    # Each share named the keys sent since the last Enter, one by one as the terminal sent them, and
    # the door found them so (it gives no line whose keys are not those its share names): the second
    # line's are its own; the first's also hold the terminal's answers to the app's queries as it
    # started, which the door counted alike (both lines rolled the page's bytes, above).
    second = hashlib.sha256(b"roll 1d6 purpose=second\r").hexdigest()
    assert len(kept) == 2 and kept[1][4] == second != kept[0][4]
    game = Game.open(web.game.path, writable=False)
    mine = [e.contribution for e in game.history.timeline() if isinstance(e, ev.SealedRoll)]
    game.close()
    assert len(mine) == 2 and bytes(16).hex() not in mine and mine[0] != mine[1]


async def test_the_plain_page_draws_its_own_share_and_its_command_rolls_it(tmp_path, caplog, chromium):
    """Issue #75: the plain page's bytes were sent with every line and never used.  In Chromium,
    its share (the bytes, the seal and the count it was told, which it keeps) rolls its command."""
    from core.game import Game
    from core.log import events as ev

    async with web_table(tmp_path, caplog, plain={"rita"}) as web:
        web.game.sealing.contribute = lambda: bytes(16)  # the table's own draw, were the page's not taken
        context, page, token = await seated(chromium, web, "rita")
        line = page.get_by_role("textbox", name="rita (referee)>")
        await line.wait_for()
        for text in ("dice-key", "roll 1d6 purpose=first", "roll 1d6 purpose=second"):
            await line.fill(text)
            await line.press("Enter")
            await wait_until(lambda text=text: text in web.game.path.read_text())
        kept = await page.evaluate("() => JSON.parse(localStorage.getItem('fireteam-dice'))")
        await context.close()
    game = Game.open(web.game.path, writable=False)
    rolls = [e for e in game.history.timeline() if isinstance(e, ev.SharedRoll)]
    game.close()
    # The page sent a share with each line (dice-key's too, which rolled nothing); the rolls took
    # its second and third, under the key it was told, as counts 1 and 2 of its seat.
    # (It keeps one share for each seal and count, and its seat: issue #90.)
    assert [(r.contribution, r.saw, r.nonce) for r in rolls] == [(c, s, n) for _t, c, s, n, _k, _s in kept[1:]]
    assert {seat for *_, seat in kept} == {"rita"}
    # Each named the line it went with (the SHA-256 of the line and its end, from the page's own script).
    lines = ("dice-key", "roll 1d6 purpose=first", "roll 1d6 purpose=second")
    assert [e[4] for e in kept] == [hashlib.sha256(f"{text}\n".encode()).hexdigest() for text in lines]
    assert [r.nonce for r in rolls] == [1, 2] and bytes(16).hex() not in {r.contribution for r in rolls}


async def test_the_link_opened_again_from_a_chat_app_finds_the_seat_and_spends_no_use(web, chromium):
    context, page, token = await seated(chromium, web, "irr", uses=1)
    await shows(page, "irr (Somali militia)")
    await page.close()
    await wait_until(lambda: not web.club.server.sessions)
    for _ in range(2):  # tapped again in the chat app, twice: the Strict cookie is not sent from there
        page = await context.new_page()
        await follow_link(page, web, token)
        await shows(page, "irr (Somali militia)")
        await page.close()
        await wait_until(lambda: not web.club.server.sessions)
    assert web.invitations.all()[0].used == 1
    await context.close()


async def test_another_site_cannot_swap_the_players_seat_for_a_spectators(web, chromium):
    player, _ = web.invitations.create("reg")
    spectators, _ = web.invitations.create("")
    context = await chromium.new_context(viewport={"width": 1200, "height": 800})
    page = await context.new_page()
    await follow_link(page, web, player)
    await shows(page, "reg (Bersaglieri)")
    # Another site's page sends the browser to its spectator link.
    await page.route(
        "http://chat.example/",
        lambda route: route.fulfill(
            content_type="text/html", body=f'<a id="link" href="{web.url(f"/join/{spectators}")}">look</a>'
        ),
    )
    await page.goto("http://chat.example/")
    await page.click("#link")
    await page.wait_for_selector("#notice")
    assert "already holds a seat here (reg)" in await page.inner_text("#notice")
    assert web.invitations.all()[1].used == 0
    await page.click("text=Back to my seat")
    await shows(page, "reg (Bersaglieri)")
    # The player himself takes the other seat: the link on this server's own page.
    await page.go_back()
    await page.wait_for_selector("#notice")
    await page.click("text=Take this link's seat instead")
    await page.wait_for_url(web.url("/"))
    await shows(page, "Watching:")
    assert web.invitations.all()[1].used == 1
    await context.close()


async def banner(page) -> tuple[str, bool]:
    """The page's banner: its words, and whether it offers to sit again."""
    return await page.inner_text("#status-text"), await page.locator("#again").is_visible()


async def test_the_ended_banner_says_why_and_offers_to_sit_again_only_when_it_can(web, tmp_path, chromium):
    web.club.server.seats_poll = 0.05
    token, inv = web.invitations.create("reg")
    context = await chromium.new_context(viewport={"width": 1200, "height": 800})
    page = await context.new_page()
    await follow_link(page, web, token)
    await shows(page, "reg (Bersaglieri)")
    web.club.server.kick("reg", "rita")
    await page.locator("#again").wait_for(state="visible")  # the cookie still lets it in
    assert (await banner(page))[0] == "Your seat was closed by the referee or the organiser."
    await page.click("#again")
    await shows(page, "reg (Bersaglieri)")
    await page.locator("#status").wait_for(state="hidden")
    Invitations(tmp_path).revoke(inv.id)
    await page.locator("#status-text", has_text="revoked your invitation").wait_for()
    await page.wait_for_function("document.getElementById('status').dataset.settled === 'yes'")
    assert await banner(page) == ("The organiser revoked your invitation: ask for a new one.", False)
    await context.close()


# ------------------------------------------------------------------ the plain page


async def said(page, *texts: str, timeout: float = WAIT_S) -> str:
    """Wait until the plain page's answers hold every one of ``texts``; what they hold then."""
    region = page.locator("#answers")
    try:
        for text in texts:
            await region.filter(has_text=re.compile(re.escape(text))).wait_for(timeout=timeout * 1000)
    except playwright.TimeoutError:
        raise AssertionError(f"timed out waiting for {texts}; the answers are:\n{await region.inner_text()}") from None
    return await region.inner_text()


async def accessibility_tree(page) -> list[dict]:
    """Chromium's own accessibility tree of the page, as a screen reader is given it (CDP's
    ``Accessibility.getFullAXTree``): its nodes, those it leaves out (``aria-hidden``, a bare
    ``div``) marked ``ignored``."""
    cdp = await page.context.new_cdp_session(page)
    try:
        return (await cdp.send("Accessibility.getFullAXTree"))["nodes"]
    finally:
        await cdp.detach()


def ax_node(nodes: list[dict], role: str, name: str) -> dict:
    """The one node of ``role`` named ``name``: its role, name and properties (``live``, ``focused``…)."""
    found = [
        n
        for n in nodes
        if not n.get("ignored") and n.get("role", {}).get("value") == role and n.get("name", {}).get("value") == name
    ]
    assert len(found) == 1, [(n.get("role", {}).get("value"), n.get("name", {}).get("value")) for n in nodes]
    props = {p["name"]: p["value"].get("value") for p in found[0].get("properties", [])}
    return {"role": role, "name": name, **props, "node": found[0]}


def ax_text_under(nodes: list[dict], top: dict) -> list[str]:
    """The text a screen reader reads in ``top``, node by node, in the page's order (not what it ignores)."""
    by_id = {n["nodeId"]: n for n in nodes}
    out: list[str] = []

    def walk(node: dict) -> None:
        if node.get("role", {}).get("value") == "StaticText" and not node.get("ignored"):
            out.append(node.get("name", {}).get("value", ""))
        for child in node.get("childIds", []):
            if child in by_id:
                walk(by_id[child])

    walk(top["node"])
    return out


async def test_a_plain_seat_plays_in_a_page_whose_accessibility_tree_names_its_input_and_live_region(
    tmp_path, caplog, chromium
):
    from tui.ssh.seating.history import SeatHistories

    async with web_table(tmp_path, caplog, plain={"rita"}) as web:
        web.club.server.seat_history = SeatHistories(tmp_path / "seat-history")
        context, page, token = await seated(
            chromium, web, "rita"
        )  # the seats file makes rita plain: the plain page, no terminal
        await said(page, "Fireteam, in plain lines.")
        assert await page.locator(".xterm").count() == 0
        line = page.get_by_role("textbox", name="rita (referee)>")
        await line.wait_for()  # labelled by the prompt, once seated
        assert await line.evaluate("e => e === document.activeElement")
        tree = await accessibility_tree(page)  # Chromium's, not the page's markup
        box = ax_node(tree, "textbox", "rita (referee)>")
        assert box["focused"] is True and box["editable"] == "plaintext"
        answers = ax_node(tree, "log", "Answers")
        assert answers["live"] == "polite" and answers["relevant"] == "additions text"
        assert "Fireteam, in plain lines. Type help for the commands" in " ".join(ax_text_under(tree, answers))
        # Nothing in the answers is ever redrawn: lines are only added (a screen reader would read
        # a rewritten region again, a braille display lose its place).
        await page.evaluate(
            """() => { window.redrawn = 0; new MutationObserver((changes) => { for (const c of changes)
                window.redrawn += c.removedNodes.length + (c.type === "characterData" ? 1 : 0); })
              .observe(document.getElementById("answers"), {subtree: true, childList: true, characterData: true}); }"""
        )
        # Tab completes the word typed, as an SSH plain seat's does.
        await page.keyboard.type("no")
        await page.keyboard.press("Tab")
        await playwright.expect(line).to_have_value("note ")
        # Text from the game is shown as text, never read as markup.
        await page.keyboard.type("<b>bold</b> & <i>x</i>")
        await page.keyboard.press("Enter")
        await said(page, "Note: <b>bold</b> & <i>x</i>.")
        assert await page.locator("#answers b, #answers i").count() == 0
        assert "<b>bold</b> & <i>x</i>" in web.game.path.read_text()
        await rita_echo_is_not_read(page)
        tree = await accessibility_tree(page)
        heard = ax_text_under(tree, ax_node(tree, "log", "Answers"))
        assert heard[-1] == "Note: <b>bold</b> & <i>x</i>."  # the answer, added to the live region
        assert not any("note <b>bold</b>" in text for text in heard)  # her own line: shown, not read
        assert await page.evaluate("window.redrawn") == 0
        # A page longer than its window is white to its end: what scrolls past the first screen (the input,
        # the dice's bar) is not black on the black of html.
        await page.set_viewport_size({"width": 800, "height": 150})
        bottom = "(id) => (id ? document.getElementById(id) : document.body).getBoundingClientRect().bottom"
        body, bar = await page.evaluate(f"[({bottom})(''), ({bottom})('dice')]")
        assert bar > 150 and body >= bar, (body, bar)
        # ↑ brings the line back; the server keeps it for the seat's next session.
        await page.keyboard.press("ArrowUp")
        assert await line.input_value() == "note <b>bold</b> & <i>x</i>"
        await page.close()
        await wait_until(lambda: not web.club.server.sessions)
        page = await context.new_page()
        await page.goto(web.url("/"))
        await said(page, "Fireteam, in plain lines.")
        await page.get_by_role("textbox", name="rita (referee)>").wait_for()
        await page.keyboard.press("ArrowUp")
        assert await page.locator("#line").input_value() == "note <b>bold</b> & <i>x</i>"
        assert "Terminal page" not in await page.inner_text("body")  # the seats file's plain seat has no terminal
        await context.close()


async def rita_echo_is_not_read(page) -> None:
    """The player's own line is shown, but hidden from the accessibility tree: it is not read to him again."""
    typed = page.locator("#answers .typed")
    assert await typed.count() == 1
    assert await typed.get_attribute("aria-hidden") == "true"
    assert "note <b>bold</b>" not in await page.locator("#answers").aria_snapshot()


async def test_the_terminal_page_reads_to_a_screen_reader_and_leads_to_the_plain_page(web, chromium):
    rita = await web.club.seated("rita", "rita (referee)")
    context, page, token = await seated(chromium, web, "reg")
    await shows(page, "reg (Bersaglieri)")
    # xterm.js's screen-reader mode: its rows as text in the page's accessibility tree.
    await page.locator(".xterm-accessibility-tree", has_text="reg (Bersaglieri)").wait_for()
    tree = await accessibility_tree(page)
    assert ax_node(tree, "textbox", "Terminal input")["focused"] is True
    read = ax_text_under(tree, ax_node(tree, "RootWebArea", "Fireteam"))
    assert any("reg (Bersaglieri)" in text for text in read)  # the terminal's rows, as text
    # The first thing on the page (for a screen reader) is the way to the plain page.
    link = page.get_by_role("link", name="Plain page, for screen readers and braille displays")
    assert (await page.locator("body").aria_snapshot()).lstrip().startswith('- link "Plain page')
    assert not await link.is_visible() or (await link.bounding_box())["x"] < 0  # out of sight until focused
    await link.focus()  # as a screen reader's cursor, or Shift+Tab, reaches it
    box = await link.bounding_box()
    assert box is not None and box["x"] >= 0
    await page.keyboard.press("Enter")
    await page.wait_for_url(web.url("/plain"))
    await said(page, "Fireteam, in plain lines.")
    await page.get_by_role("textbox", name="reg (Bersaglieri)>").wait_for()
    await page.keyboard.type("note heard, not seen")
    await page.keyboard.press("Enter")
    await said(page, "heard, not seen")
    await rita.wait_for("heard, not seen")
    assert await page.get_by_role("link", name="Terminal page").count() == 1
    await context.close()
