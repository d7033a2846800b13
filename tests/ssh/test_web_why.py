"""``why`` at the browser door (issue #76), over its own protocol: a seat's websocket, the plain
page's lines and the terminal page's screen. A refusal's ``why`` names its rule by id and title;
a roll hidden from a side is not in what that side's ``why`` answers (A/B, 0 bytes)."""

from __future__ import annotations

import pytest
from ssh_club import wait_until
from test_web_door import invited, plain_seat
from web_club import web_table

from core.explain.rulesmap import engine
from core.log.views import REFEREE

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: The demo to turn 1, the Bersaglieri active (seed 7), Pte Conti hidden under a marker and suppressed.
TO_TURN_1 = ("next", "next", "mark conti hidden", "mark conti suppressed")
#: Conti's suppression test (§10.0), a roll of a hidden figure: the Somali militia's log has no line of it.
HIDDEN_ROLL = "rally conti"
#: What the militia ask: ``why`` and ``why N`` for every step the game has by then.
ASKED = ("why", *(f"why {n}" for n in range(1, 9)))


async def test_why_after_a_refusal_at_the_plain_page_names_the_rule_by_id_and_title(tmp_path, caplog):
    async with web_table(tmp_path, caplog) as web, await plain_seat(web, web.invitations.create("reg")[0]) as browser:
        await browser.wait_for("Fireteam, in plain lines.")
        await browser.line("mark conti pinned")  # the referee's tool, at a side's seat
        await browser.wait_for("Refused: only the referee may mark.\n")
        await browser.line("why")
        said = await browser.wait_for("Rule ENG-1 (Engine, ruling CORE-ROLES): Who gives which command, ruling.\n")
    assert said.endswith(
        "Refused: only the referee may mark.\n"
        "Refused: only the referee may mark.\n"
        f"{engine().get('ENG-1').says.removesuffix(' (Engine, ruling CORE-ROLES).')}. "  # what it says first (#91)
        "Rule ENG-1 (Engine, ruling CORE-ROLES): Who gives which command, ruling.\n"
    ), said


async def test_why_after_a_refusal_at_the_terminal_page_names_the_rule(tmp_path, caplog):
    async with web_table(tmp_path, caplog) as web, await invited(web, "reg") as browser:
        await browser.wait_for("reg (Bersaglieri)")
        await browser.command("mark conti pinned")
        await browser.wait_for("only the referee may mark")
        await browser.command("why")
        await browser.wait_for("The referee gives")  # what the rule says, in the notice beside the refusal


def _prompts(browser) -> int:
    """How many prompts the page was told: one after each answer, as the seat waits for a line."""
    return sum(kind == "prompt" for kind, *_ in browser.told)


async def _militia_asks(folder, caplog, *, hidden: bool) -> bytes:
    """Every answer the Somali militia's plain page is sent, as it asks :data:`ASKED`, at a table
    where Conti's hidden roll was made (``hidden``) or not."""
    folder.mkdir()
    async with web_table(folder, caplog) as web:
        for line in (*TO_TURN_1, *((HIDDEN_ROLL,) if hidden else ())):
            web.game.execute(line, role=REFEREE)
        if hidden:  # the roll is there, seen by the Bersaglieri
            assert any("suppression test" in line.text for line in web.game.log_lines("regulars"))
        async with await plain_seat(web, web.invitations.create("irr")[0]) as browser:
            await browser.wait_for("Fireteam, in plain lines.")
            await wait_until(lambda: _prompts(browser) > 0)
            for question in ASKED:
                before = _prompts(browser)
                await browser.line(question)
                await wait_until(lambda before=before: _prompts(browser) > before)
            return browser.answers.encode()


async def test_a_roll_hidden_from_a_side_is_not_in_its_why_at_the_browser_door(tmp_path, caplog):
    without = await _militia_asks(tmp_path / "a", caplog, hidden=False)
    rolled = await _militia_asks(tmp_path / "b", caplog, hidden=True)
    assert b"suppression test" not in rolled and b"rally" not in rolled
    assert rolled == without
    assert b"Step 3: next.\nBersaglieri's initiative: 2d6" in rolled and b"Step 4: players" in rolled  # answered
