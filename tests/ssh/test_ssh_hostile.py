"""An SSH seat never falls on what its player types or pastes (issue 13).

Over a real SSH connection: a refusal whose usage holds brackets is drawn whole,
markup a player wrote reaches the other seats as he wrote it, control characters
in a paste never reach any terminal, and hostile lines (each required argument
missing, markup and control characters in the arguments, random lines) leave the
seat up, the refusal shown and a refused line's save as it was.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from pathlib import Path

import pytest
from examples import examples
from hypothesis import HealthCheck, given, settings
from ssh_club import Club, Player, wait_until

from core.game import Game
from core.log.outcome import Refusal
from core.log.views import REFEREE
from tui.plain import refused_paste, visible
from tui.screens.dialogs import DicePrompt
from tui.ssh.host import replies
from tui.ssh.seatsfile import Seat

pytestmark = pytest.mark.server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
import hostile  # noqa: E402  (test folders are not packages)

SIZE = (160, 40)
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
#: An OSC that would set the terminal's title: it must never arrive whole.
OSC = "\x1b]0;pwned\x07"
CLEAR = "\x15"  # Ctrl+U: empties the command line


def hint(club: Club, seat: str) -> str:
    return str(club.session(seat).app.screen.query_one("#cmd-hint").render())


async def test_a_refusal_and_markup_are_drawn_as_they_are(club):
    rita = await club.connect("rita", size=SIZE)
    reg = await club.connect("reg", size=SIZE)
    await rita.wait_for("rita (referee)")
    await reg.wait_for("reg (Bersaglieri)")
    before = club.game.path.read_bytes()
    rita.command("fire rossi")
    await rita.wait_for(
        "✗ fire: missing targets: target(s), a burst may be split; usage: fire unit targets… range=… [aimed|burst]"
    )
    assert club.game.path.read_bytes() == before
    rita.type(CLEAR)  # the refused line is given back to be mended
    await rita.gives("mark [x] suppressed", "✗ no unit '[x]'")
    rita.type(CLEAR)
    rita.command('note "[b]loud[/b] [@click=app.quit]q [a=b]"')
    for player in (rita, reg):
        await player.wait_for("[b]loud[/b] [@click=app.quit]q [a=b]")
    assert club.session("rita").app.is_running and club.session("reg").app.is_running


async def test_control_characters_in_a_paste_never_reach_a_terminal(club):
    rita = await club.connect("rita", size=SIZE)
    reg = await club.connect("reg", size=SIZE)
    await rita.wait_for("rita (referee)")
    await reg.wait_for("reg (Bersaglieri)")
    # A paste holding what would not show as itself is refused whole, saying why (issue 28:
    # put in with its escapes, it gave a command other than the one pasted).
    rita.type(f"{PASTE_START}note look\x07here\x0c\u2028now\x85{PASTE_END}")
    await rita.wait_for("✗ the paste holds the control character \\x07 (character 10): nothing was put in")
    rita.type("\r")  # an empty line: nothing is given
    # A NUL too (Textual's parser took it out: "ros\0si" went in as "rossi").
    rita.type(CLEAR + f"{PASTE_START}note ros\x00si{PASTE_END}")
    await rita.wait_for("✗ the paste holds the control character \\x00 (character 9): nothing was put in")
    rita.type("\r")
    rita.command("note after the paste")
    for player in (rita, reg):
        await player.wait_for("after the paste")
        assert "look" not in player.text()
    assert "note ros" not in club.game.path.read_text(errors="replace")
    # An escape sequence in a paste is the paste's text too (Textual read what followed it as
    # keys, Enter included): refused whole, and the Enter after the paste gives an empty line.
    refusals: list[Refusal] = []
    club.game.subscribe_refusals(refusals.append)
    length = club.game.log_length
    rita.type(CLEAR + f"{PASTE_START}note a{OSC}b\x1b[2J{PASTE_END}\r")
    await rita.wait_for("✗ the paste holds the control character \\x1b (character 7): nothing was put in")
    await rita.gives("note after the escapes", "after the escapes")
    assert not refusals and club.game.log_length == length + 2  # only that note (a command and its fact)
    for player in (rita, reg):
        raw = "".join(player.raw)
        assert OSC not in raw and "look\x07" not in raw and "\u2028" not in raw


def test_a_plain_reply_escapes_what_came_from_a_save_or_a_file_name(tmp_path):
    class Table:
        name = "north\x1b]0;pwned\x07"
        game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)

    text, status = replies.answer("status", Seat("rita", "referee"), [Table()], {})
    assert status == 0 and text.startswith("north\\x1b]0;pwned\\x07: no scenario set up yet\n")
    assert "\x1b" not in text and "\x07" not in text
    Table.game.close()


def test_the_game_chooser_escapes_a_game_name_and_a_scenario_title(tmp_path):
    class Table:
        name = "north\x1b]0;pwned\x07"
        game = Game.new(tmp_path / "g.ft", "breaking-news", seed=1)

    Table.game.execute("scenario demo", role=REFEREE)
    Table.game.timeline.state.scenario = "Afgooye\x1b[2J\u2028"  # as a hostile scenario file could title it
    line = replies.game_line(Table())
    assert line.startswith("north\\x1b]0;pwned\\x07: Afgooye\\x1b[2J\\u2028, turn 0, ")
    assert not any(ch in line for ch in "\x1b\x07\u2028")
    Table.game.close()


async def _give(club: Club, player: Player, refusals: list[Refusal], line: str) -> None:
    """Paste ``line`` on rita's command line, Enter, wait for the answer and judge it."""
    app = club.session("rita").app
    before, refused, length = club.game.path.read_bytes(), len(refusals), club.game.log_length
    # A Ctrl+Q ends a paste and leaves (tests/tui/test_tui_terminal_parser.py), and an escape
    # is the paste's text (test_control_characters_in_a_paste_never_reach_a_terminal): neither
    # is what this test is about.
    line = line.replace("\x1b", "").replace("\x11", "")
    player.type(f"{PASTE_START}{line}{PASTE_END}\r")
    why = refused_paste(line)
    if why:  # refused whole on the command line, saying why: nothing is given (issue 28)
        await wait_until(lambda: hint(club, "rita") == "✗ " + visible(why), show=player.text)
        assert club.game.path.read_bytes() == before and len(refusals) == refused
        player.type(CLEAR)
        return
    # What the paste puts on the line, and the command line then strips.
    if not visible(re.split("[\r\n]", line, maxsplit=1)[0].replace("\t", " ")).strip():
        return
    await wait_until(
        lambda: len(refusals) > refused or club.game.log_length > length or isinstance(app.screen, DicePrompt),
        show=player.text,
    )
    assert app.is_running
    if isinstance(app.screen, DicePrompt):
        player.type("\x1b")
        await wait_until(lambda: hint(club, "rita").startswith("✗ cancelled: "), show=player.text)
    elif len(refusals) > refused:
        await wait_until(
            lambda: hint(club, "rita") == "✗ " + visible(refusals[-1].why),
            show=lambda: f"{player.text()}\nrefused: {refusals[-1].why!r}\nhint: {hint(club, 'rita')!r}",
        )
    else:
        return
    assert club.game.path.read_bytes() == before, f"{line!r} wrote to the save"
    player.type(CLEAR)  # the line given back to be mended: emptied for the next one


async def test_hostile_lines_through_a_seat(club):
    rita = await club.seated("rita", "rita (referee)", size=SIZE)
    refusals: list[Refusal] = []
    club.game.subscribe_refusals(refusals.append)
    lines = hostile.missing_lines(club.game)[::3]
    lines += hostile.poisoned_lines(club.game, hostile.MARKUP[:4] + hostile.CONTROL[:5], each=False)[::5]
    drawn: list[str] = []

    @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(line=hostile.command_lines(club.game))
    def draw(line: str) -> None:
        drawn.append(line)

    draw()
    # A paste ends at its first CR or LF, and a long one takes a while to type: keep them short.
    for line in lines + [d[:300] for d in drawn]:
        await _give(club, rita, refusals, line)
    assert len(refusals) > len(lines) // 2
    assert OSC not in "".join(rita.raw)


async def test_hostile_keys_and_commands_through_a_seat_leave_it_up_and_log_no_error(club, caplog):
    """Issue 28, the SSH peer fuzzed: whatever keys a terminal sends (escape sequences whole, cut
    or absurd, controls, pastes left open, floods) and whatever ``ssh host COMMAND`` asks, the
    seat stays and goes on taking in the game, the server answers, and nothing is logged as an error."""
    from hypothesis import strategies as st

    from tui.panes.log import LogView
    from tui.screens.game import GameScreen

    drawn: list[tuple[str, str]] = []

    @settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(keys=hostile.key_streams(), command=st.one_of(hostile.command_lines(club.game), st.text(max_size=40)))
    def draw(keys: str, command: str) -> None:
        drawn.append((keys, command))

    draw()
    reg, rita = await club.connect("reg", size=SIZE), await club.connect("rita", size=SIZE)
    await asyncio.gather(reg.wait_for("reg (Bersaglieri)"), rita.wait_for("rita (referee)"))
    for n, (keys, command) in enumerate(drawn):
        reg.type(keys)
        if n % 5 == 0:  # a plain reply: any text as the command, kept to what a command line holds
            got = await club.run("spec", command.replace("\x00", "")[:200])
            assert got.exit_status in (0, 1, 2), (command, got.exit_status, got.stderr)
    assert not reg.closed.is_set()
    session = club.session("reg")
    game_screen = next(s for s in session.app.screen_stack if isinstance(s, GameScreen))
    log = game_screen.query_one(LogView)
    rita.command('note "fuzzed and still here"')
    # Its app lives and takes in what the table does (under whatever screen the keys opened).
    await wait_until(lambda: "fuzzed and still here" in log.line_at(log.rows - 1).text)
    assert session.app.is_running
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "an error was logged"
    assert "Traceback" not in club.log()
