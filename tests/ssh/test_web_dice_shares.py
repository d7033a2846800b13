"""A browser seat's share of the dice, as a host who plays and runs the door (or a proxy in front
of it) sees it go by (issue #75): he reads the page's bytes before the line is resolved, and holds
the key (it is in his own save).  Nothing he chooses after that may move the roll."""

from __future__ import annotations

import json

import pytest
from ssh_club import wait_until
from test_web_door import _sealed_rolls, invited, keys_digest, plain_seat, seat
from web_club import web_table

from core.log.views import REFEREE
from core.secrets.dicecheck import OK
from core.secrets.verify import verify

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

MINE = "0123456789abcdef" * 2
#: The host's key and salt, fixed so that two tables seal the same key with the same commitment.
KEY, SALT = "ab" * 32, "cd" * 16


def _told(browser, kind: str):
    """The last ``[kind, value]`` the server told the page (None before it did)."""
    said = [value for k, value, *_ in browser.told if k == kind]
    return said[-1] if said else None


async def _share(browser, web, mine: str = MINE) -> str:
    """The share the page would send now: its bytes, the seal and the count it was told (once it
    was told the key in force: a seat worker's copy of the game tells it once it read the key)."""
    await wait_until(lambda: _told(browser, "seal") == web.game.sealing.seal() and _told(browser, "count") is not None)
    return f"{mine} {_told(browser, 'seal')} {_told(browser, 'count')}"


async def _roll_with_commands_between(tmp_path, caplog, between: int) -> tuple[int, ...]:
    """The faces of a browser seat's ``roll 10d6`` whose share the host held while he gave
    ``between`` commands of his own, before he let its line through."""
    async with web_table(tmp_path, caplog) as web:
        web.game.sealing.new_key, web.game.salt = (lambda: KEY), (lambda: SALT)
        web.game.execute("dice-key", role=REFEREE)  # the demo's dice were seeded: sealed from here on
        browser = await invited(web, "rita")
        try:
            await browser.wait_for("rita (referee)")
            line = "roll 10d6 purpose=morale"
            await browser.ws.send_str(
                json.dumps(["dice", f"{await _share(browser, web)} {keys_digest(line + chr(13))}"])
            )
            for i in range(between):  # the number of the command to come moves on with each
                web.game.execute(f"note held {i}", role=REFEREE)
            await browser.bare(line + "\r")  # (its share sent above)
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 1)
        finally:
            await browser.close()
        (roll,) = _sealed_rolls(web.game.path)
        assert roll.contribution == MINE  # the seat's bytes rolled
        assert [c.status for c in verify(web.game.path).dice.rolls] == [OK]
        return roll.roll.faces


async def test_commands_given_between_a_share_and_its_line_do_not_move_its_roll(tmp_path, caplog):
    """The first grinding attack of issue #75: the host saw the share, and gave commands (hidden
    ones, out of the seat's sight) until the command's number gave the faces he wanted.  The
    command's number is no input of the roll: whatever he gives between, the roll is the same."""
    alone = await _roll_with_commands_between(tmp_path / "a", caplog, between=0)
    for between in (1, 5):
        assert await _roll_with_commands_between(tmp_path / f"b{between}", caplog, between) == alone


async def test_a_share_whose_seal_was_stripped_is_refused_and_no_later_key_rolls_it(tmp_path, caplog):
    """The second grinding attack: the page sent its share with the seal it was told; a proxy
    forwards the bytes alone (what a page from before sent), the host seals a new key chosen after
    seeing them, and lets the line through.  The door refuses a line whose share names no keys (and
    the table a share that names no key: ``core.dice.shares``)."""
    async with web_table(tmp_path, caplog) as web:
        web.game.execute("dice-key", role=REFEREE)
        browser = await invited(web, "rita")
        try:
            await browser.wait_for("rita (referee)")
            await _share(browser, web)  # what the page would have sent, seal, count and keys
            await browser.ws.send_str(json.dumps(["dice", MINE]))  # stripped of them all on its way
            web.game.execute("dice-key", role=REFEREE)  # the host's new key, after the bytes
            await browser.bare("roll 1d6 purpose=morale\r")
            await wait_until(lambda: "drawn for other keys" in web.log())
            await browser.shared(await _share(browser, web), "roll 1d6 purpose=again")
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 1)
        finally:
            await browser.close()
        (roll,) = _sealed_rolls(web.game.path)
        assert "morale" not in str(roll.roll.purpose) and (roll.nonce, roll.saw) == (1, roll.seal)


async def test_a_share_serves_one_roll_and_a_delayed_or_skipped_count_is_refused(tmp_path, caplog):
    """A proxy that sends a share again (its faces were seen) or holds one back and sends a later
    count first: each is refused, and the page is told the count the table takes next."""
    async with web_table(tmp_path, caplog) as web:
        web.game.execute("dice-key", role=REFEREE)
        browser = await invited(web, "rita")
        other = "fedcba9876543210" * 2
        try:
            await browser.wait_for("rita (referee)")
            first = await _share(browser, web)
            assert first.endswith(" 1")  # the seat's first share
            await browser.shared(first, "roll 1d6 purpose=first")
            await wait_until(lambda: _told(browser, "count") == 2)  # told once its command rolled
            await browser.shared(first.replace(MINE, other), "roll 1d6 purpose=replayed")  # count 1 again
            await wait_until(lambda: "number 1) was used before" in web.log())
            await browser.shared(first.replace(MINE, other)[:-1] + "3", "roll 1d6 purpose=skipped")
            await wait_until(lambda: "number 3, the table expects 2" in web.log())
        finally:
            await browser.close()
        (roll,) = _sealed_rolls(web.game.path)
        assert (roll.contribution, roll.nonce, roll.by) == (MINE, 1, "rita")


@pytest.mark.parametrize("workers", [0, 1], ids=["in-process", "workers"])
async def test_the_terminal_pages_share_rolls_its_command(tmp_path, caplog, workers):
    async with web_table(tmp_path, caplog, workers=workers) as web:
        web.game.sealing.contribute = lambda: bytes(16)  # the table's own draw, were the share not taken
        browser = await invited(web, "rita")
        try:
            await browser.wait_for("rita (referee)")
            # Sealed from the seat (a seat worker hears of the table's commands given through it).
            await browser.command("dice-key")
            await wait_until(lambda: web.game.sealing.seal() != "")
            await browser.shared(await _share(browser, web), "roll 1d6 purpose=first")
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 1)
        finally:
            await browser.close()
    (roll,) = _sealed_rolls(web.game.path)
    assert (roll.contribution, roll.by, roll.nonce, roll.saw) == (MINE, "rita", 1, roll.seal)


async def test_the_plain_pages_share_rolls_its_command(tmp_path, caplog):
    """Issue #75: the plain page sent its bytes with every line and none was used (its lines are
    answered in its door's task, where the seat's source of shares was not set)."""
    async with web_table(tmp_path, caplog, plain={"rita"}) as web:
        web.game.execute("dice-key", role=REFEREE)
        web.game.sealing.contribute = lambda: bytes(16)
        token, _ = web.invitations.create("rita")
        browser = await plain_seat(web, token)
        try:
            await browser.wait_for("Fireteam, in plain lines.")
            await browser.shared(await _share(browser, web), "roll 1d6 purpose=first")
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 1)
        finally:
            await browser.ws.close()
            await browser.http.close()
    (roll,) = _sealed_rolls(web.game.path)
    assert (roll.contribution, roll.by, roll.nonce) == (MINE, "rita", 1)


async def _proxied(tmp_path, caplog, *, plain: bool, swap) -> tuple[list, str]:
    """A page's share and its line, through a proxy that does ``swap(share, line)`` to what it
    forwards (the host, who holds the key, reads the share and may choose the line it goes with):
    the rolls written and the log."""
    async with web_table(tmp_path, caplog, plain={"rita"} if plain else set()) as web:
        web.game.execute("dice-key", role=REFEREE)
        web.game.sealing.contribute = lambda: bytes(16)  # the table's own draw, were the share not taken
        token, _ = web.invitations.create("rita")
        browser = await (plain_seat(web, token) if plain else seat(web, token))
        enter = "\n" if plain else "\r"
        try:
            await browser.wait_for("Fireteam, in plain lines." if plain else "rita (referee)")
            typed = "roll 1d6 purpose=typed"
            share = f"{await _share(browser, web)} {keys_digest(typed + enter)}"  # what the page sent
            share, line = swap(share, typed)
            await browser.ws.send_str(json.dumps(["dice", share]))
            await browser.ws.send_str(json.dumps(["stdin", line + enter]))
            # A line after it, with its own share, is given: the seat goes on.
            await browser.shared(await _share(browser, web), "note after")
            await wait_until(lambda: "note after" in web.game.path.read_text())
        finally:
            await browser.ws.close()
            await browser.http.close()
        return _sealed_rolls(web.game.path), web.log()


@pytest.mark.parametrize("plain", [False, True], ids=["terminal", "plain"])
async def test_a_share_re_attached_to_another_line_is_refused(tmp_path, caplog, plain):
    """What the share is for is fixed by the page before it leaves: the digest of the keys typed since
    the last Enter (the plain page's: its line), which the door holds against the keys that come.  A
    proxy that forwards the share with another line than the one it was drawn for (the host choosing,
    with the key in hand, which line the seat's bytes roll) has that line refused: nothing rolls."""
    rolls, log = await _proxied(
        tmp_path, caplog, plain=plain, swap=lambda share, line: (share, "roll 1d6 purpose=swapped")
    )
    assert rolls == [] and "drawn for other keys" in log
    # Nor the line changed in part (another number of dice): its keys are not those either.
    rolls, log = await _proxied(
        tmp_path / "slipped", caplog, plain=plain, swap=lambda share, line: (share, line.replace("1d6", "2d6"))
    )
    assert rolls == [] and "drawn for other keys" in log


@pytest.mark.parametrize("plain", [False, True], ids=["terminal", "plain"])
async def test_a_share_with_the_line_it_was_drawn_for_rolls_it(tmp_path, caplog, plain):
    """The same share and line, forwarded as the page sent them, roll: the refusal above is the swap's."""
    rolls, log = await _proxied(tmp_path, caplog, plain=plain, swap=lambda share, line: (share, line))
    assert [(r.contribution, r.nonce) for r in rolls] == [(MINE, 1)] and "drawn for other keys" not in log
