"""A seat as plain lines over SSH (``tui.ssh.seating.plain``): asked for with ``plain``, by the
seats file or by a dumb terminal; a note typed lands in the save, Ctrl+D ends, only lines
are written (no escape sequence under NO_COLOR), what others do comes as the role reads it,
and a bot without a terminal drives it through its standard input."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, Club, Player, demo_game, make_keys, seats_toml, served_table, wait_until

from core.game import Game
from core.log import events as ev
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.seatsfile import Seats

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from sentences import problems_of  # noqa: E402

NO_COLOR = {"NO_COLOR": "1"}
#: The prompt a plain seat writes when it is ready for a line.
PROMPTS = {"rita": "rita (referee)> ", "reg": "reg (Bersaglieri)> "}


def raw(player: Player) -> str:
    return "".join(player.raw)


def said(player: Player, prompt: str) -> list[str]:
    """The lines the seat was sent, less those its prompt began (the player's own typing)."""
    lines = raw(player).replace("\r\n", "\n").split("\n")
    return [line for line in lines if line and not line.startswith(prompt)]


def notes(game: Game) -> list[str]:
    return [e.text for e in game.history.store.slice(0, game.log_length) if isinstance(e, ev.Noted)]


async def wait_raw(player: Player, text: str) -> None:
    await wait_until(lambda: text in raw(player), WAIT_S, lambda: raw(player))


async def answered(player: Player, line: str, answer: str) -> None:
    """``line`` given at a plain seat, once ``answer`` is written."""
    player.type(line + "\r")
    await wait_raw(player, answer)


async def plain(club: Club, seat: str) -> Player:
    """``seat`` sat as plain lines with no colour, once its prompt is written."""
    player = await club.connect(seat, command="plain", env=NO_COLOR)
    await wait_raw(player, PROMPTS[seat])
    return player


async def test_a_plain_seat_writes_only_lines_takes_a_note_and_ends_with_ctrl_d(club: Club):
    reg = await plain(club, "reg")
    await answered(reg, "note hello over ssh", "Note: hello over ssh.")
    await answered(reg, "roster", "Water carrier: no status; civilian.")
    # Every pane one word away, each answer whole sentences (checked below with the rest).
    for word, answer in [
        ("status", "You are side Bersaglieri, seat reg, at Breaking News"),
        ("phase", "The phases of a turn, in order:"),
        ("who rossi", "Sgt Rossi (rossi) is a Veteran of Bersaglieri, team Alpha."),
        ("log 3", "The last 3 lines of the log, of"),
        ("dice", "No dice rolled yet."),
        ("help", "help COMMAND tells one in full"),
    ]:
        reg.type(word + "\r")
        await wait_raw(reg, answer)
    assert notes(club.game)[-1] == "hello over ssh"
    # The game's name at the table, never the server's path to its save.
    assert "The game at this table is called table." in raw(reg) and "The save is" not in raw(reg)
    reg.type("\x04")  # Ctrl+D on an empty line
    await wait_until(lambda: reg.exit_status is not None, WAIT_S, lambda: raw(reg))
    assert reg.exit_status == 0
    assert "\x1b" not in raw(reg)  # no colour, no cursor movement, no alternate screen
    lines = said(reg, "reg (Bersaglieri)> ")
    assert lines[0].startswith("Fireteam, in plain lines.")
    assert problems_of(lines) == []
    assert "left seat=reg role=regulars game=table status=0" in club.log()


async def test_what_others_do_comes_as_the_seat_role_reads_it(club: Club):
    rita = await plain(club, "rita")
    reg = await plain(club, "reg")
    await answered(rita, "mark omar pinned", "Dahir Omar now pinned.")  # Dahir Omar is hidden from the regulars
    rita.type("note the wind rises\r")
    await wait_raw(reg, "Note: the wind rises.")
    # By the regulars' own count: the scenario, the table's record of who sits for them (#74), the note.
    await wait_raw(reg, "#3 rita: note the wind rises.")
    assert "Omar" not in raw(reg) and "omar" not in raw(reg)
    # The news came on new lines, and the prompt after them again.
    assert raw(reg).rstrip().endswith("reg (Bersaglieri)>")


async def test_a_change_a_side_cannot_see_sends_its_plain_seat_nothing(club: Club):
    """Issue #60, at the plain door: the referee's command on a fighter hidden from the regulars,
    his undo and his redo of it send the regulars' plain seat not a byte; the next news it may
    read is the first thing it is sent."""
    rita = await plain(club, "rita")
    reg = await plain(club, "reg")
    start = len(raw(reg))
    await answered(rita, "mark omar pinned", "Dahir Omar now pinned.")
    for line, done in (
        ("undo", "Rita undid command #3: mark omar pinned."),  # (#2: who sits for the regulars, #74)
        ("redo", "Rita redid command #3: mark omar pinned."),
    ):
        rita.type(line + "\r")
        await wait_raw(rita, f"{line.title()} #3 mark omar pinned? y or n: ")
        await answered(rita, "y", done)
    rita.type("note the wind rises\r")
    await wait_raw(reg, "Note: the wind rises.")
    sent = raw(reg)[start:]
    assert sent.lstrip("\r\n ").startswith("#3 rita: note the wind rises"), sent


async def test_a_half_typed_line_survives_the_news(club: Club):
    rita = await plain(club, "rita")
    reg = await plain(club, "reg")
    reg.type("note half")
    await wait_raw(reg, "note half")
    rita.type("note meanwhile\r")
    await wait_raw(reg, "Note: meanwhile.")
    await answered(reg, " done", "Note: half done.")
    assert notes(club.game)[-2:] == ["meanwhile", "half done"]


async def test_undo_over_ssh_asks_first(club: Club):
    reg = await plain(club, "reg")
    await answered(reg, "note to take back", "Note: to take back.")
    await answered(reg, "undo", "Undo #3 note to take back? y or n: ")  # (#2: who sits for the regulars, #74)
    assert notes(club.game)[-1] == "to take back" and club.game.history.is_live(club.game.history.eff_cmds[-1])
    await answered(reg, "y", "Reg undid command #3: note to take back.")
    assert len(club.game.history.eff_cmds) == 2


async def test_colour_over_ssh_unless_no_color(club: Club):
    reg = await club.connect("reg", command="plain")
    await wait_raw(reg, "reg (Bersaglieri)> ")
    await answered(reg, "nxet", "did you mean next?")
    assert "\x1b[1;31mRefused:\x1b[0m" in raw(reg)


async def test_a_bot_without_a_terminal_plays_through_its_input(club: Club):
    async with asyncssh.connect(
        "127.0.0.1", club.port, username="player", client_keys=[club.keys["irr"]], known_hosts=None, agent_path=None
    ) as conn:
        done = await asyncio.wait_for(conn.run("plain", input="note from a bot\nundo\ny\nstatus\n"), WAIT_S)
    assert done.exit_status == 0
    out = str(done.stdout)
    assert "\r" not in out and "\x1b" not in out and "irr (Somali militia)> " not in out
    lines = out.splitlines()
    assert problems_of(lines) == []
    assert "Note: from a bot." in lines and "#3 irr: note from a bot." not in lines  # not said back
    assert "Undo #3 note from a bot? y or n:" in lines  # (#2: who sits for the militia, #74)
    assert lines[lines.index("Undo #3 note from a bot? y or n:") + 1] == "Irr undid command #3: note from a bot."


async def test_kick_ends_a_plain_seat_saying_why(club: Club):
    reg = await plain(club, "reg")
    assert club.server.kick("reg", "rita") == 1
    await wait_raw(reg, "Your session was closed: rita closed your seat.")
    await wait_until(lambda: reg.exit_status is not None, WAIT_S, lambda: raw(reg))
    assert reg.exit_status == 1


async def test_a_plain_seat_is_told_goodbye_when_the_server_stops(club: Club):
    """Issue #77: a screen's seat and a browser's were told the server stopped; a plain seat was cut off
    with no word (the server ended only the seats that had an app)."""
    reg = await plain(club, "reg")
    await club.server.close()
    await wait_raw(reg, "Your session was closed: the server is stopping.")
    await wait_until(lambda: reg.exit_status is not None, WAIT_S, lambda: raw(reg))
    assert reg.exit_status == 1


async def test_a_dumb_terminal_sits_as_plain_lines(club: Club):
    spec = await club.connect("spec", term="dumb")
    await wait_raw(spec, "spec (spectator)> ")
    await answered(spec, "note I only watch", "Refused: spectators watch; they cannot give commands.")
    assert "\x1b" not in raw(spec)


@pytest.mark.parametrize("term", ["dumb", "tmux-256color", "xterm-256color"])
async def test_keys_typed_are_echoed_alone_whatever_the_terminal(club: Club, term):
    # asyncssh's editor, which this seat used once, backed over the line and wrote it again at every key
    # on a terminal it did not know ("n\bno\b\bnot"): a screen reader would read the line out at every key.
    reg = await club.connect("reg", command="plain", term=term, env=NO_COLOR)
    await wait_raw(reg, "reg (Bersaglieri)> ")
    for key in "note x":  # one key at a time, as typed
        reg.type(key)
        await wait_until(lambda key=key: raw(reg).endswith(key), WAIT_S, lambda: raw(reg))
    reg.type("\x7f")  # Backspace: back over the x, a space over it, back again
    await wait_until(lambda: raw(reg).endswith("note x\b \b"), WAIT_S, lambda: raw(reg))
    await answered(reg, "y", "Note: y.")
    typed = raw(reg).split("reg (Bersaglieri)> ", 1)[1]
    assert typed.startswith("note x\b \by\r\nNote: y.")
    assert "\x1b" not in raw(reg)


async def test_the_editing_keys_over_ssh_and_a_line_longer_than_the_terminal(club: Club):
    reg = await club.connect("reg", command="plain", term="dumb", size=(30, 10), env=NO_COLOR)
    prompt = "reg (Bersaglieri)> "  # 19 of the 30 columns
    await wait_raw(reg, prompt)
    reg.type("note wrong\x03")  # Ctrl+C drops the line: backspaces, spaces, backspaces
    dropped = "note wrong" + "\b" * 10 + " " * 10 + "\b" * 10
    await wait_until(lambda: raw(reg).endswith(dropped), WAIT_S, lambda: raw(reg))
    reg.type("note a long line over rows")  # past the row's end: on the next row
    await wait_until(lambda: raw(reg).endswith("over rows"), WAIT_S, lambda: raw(reg))
    reg.type("\x1b[D" * 5 + "X")  # ← ×5 (from the second row to the first), a key typed inside the line
    await wait_until(lambda: raw(reg).endswith("X rows\b\b\b\b\b"), WAIT_S, lambda: raw(reg))
    before = len(raw(reg))
    reg.resize(24, 10)  # a line longer than a row is written again below, once the window changes stop
    await wait_until(lambda: prompt + "note a long line overX rows" in raw(reg)[before:], WAIT_S, lambda: raw(reg))
    await answered(reg, "", "Note: a long line overX rows.")
    assert notes(club.game)[-1] == "a long line overX rows"


async def test_the_seats_file_seats_a_player_as_plain_lines(tmp_path, caplog):
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    text = seats_toml(keys, SEATS).replace('role = "regulars"\n', 'role = "regulars"\nplain = true\n')
    seats = Seats.parse(text)
    assert seats.by_name("reg").plain and not seats.by_name("rita").plain
    server = FireteamServer([Table("table", game)], seats, asyncssh.generate_private_key("ssh-ed25519"))
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog)
    try:
        reg = await club.connect("reg", env=NO_COLOR)  # a plain `ssh host`: no command asked for it
        await wait_raw(reg, "reg (Bersaglieri)> ")
        await answered(reg, "status", "You are side Bersaglieri, seat reg, at Breaking News")
    finally:
        await club.close()
        game.close()


async def test_a_plain_seat_in_a_seat_worker(one_worker_club: Club, tmp_path):
    from tui.ssh.seating.history import SeatHistories

    reg = await plain(one_worker_club, "reg")
    await answered(reg, "note from a worker", "Note: from a worker.")
    assert notes(one_worker_club.game)[-1] == "from a worker"
    reg.type("\x04")  # the worker keeps the seat's lines as the session ends
    await wait_until(lambda: reg.exit_status is not None, WAIT_S, lambda: raw(reg))
    histories = SeatHistories(tmp_path / "seat-history")
    await wait_until(lambda: histories.load("reg") == ["note from a worker"], WAIT_S, lambda: "no history kept")


async def test_a_plain_seat_chooses_its_game_among_several_without_a_cleared_screen(tmp_path, caplog):
    keys = make_keys(SEATS)
    north, south = demo_game(tmp_path / "north.ft"), demo_game(tmp_path / "south.ft")
    server = FireteamServer(
        [Table("north", north), Table("south", south)],
        Seats.parse(seats_toml(keys, SEATS)),
        asyncssh.generate_private_key("ssh-ed25519"),
    )
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, north, [], caplog)
    try:
        reg = await club.connect("reg", command="plain", env=NO_COLOR)
        await wait_raw(reg, "Type a number (1-2) and Enter, or q to leave: ")
        await answered(reg, "2", "reg (Bersaglieri)> ")
        await answered(reg, "note in the south", "Note: in the south.")
        assert notes(south)[-1] == "in the south" and "in the south" not in notes(north)
        assert "\x1b" not in raw(reg)  # the menu, too, only appended
        menu = said(reg, "reg (Bersaglieri)> ")[:5]
        assert problems_of(menu[:3]) == []
        assert menu[0] == "Fireteam — reg (regulars). Games at this table:"
        assert menu[1].startswith("1) north: Checkpoint at Afgooye") and menu[2].startswith("2) south:")
        assert menu[3].endswith("or q to leave: 2")  # the number typed, and then the seat's lines, below it
        assert menu[4].startswith("Fireteam, in plain lines.")
    finally:
        await club.close()
        north.close()
        south.close()


async def test_tab_completes_as_the_local_plain_client_and_a_second_tab_lists(club: Club):
    reg = await plain(club, "reg")
    reg.type("not\t")  # one candidate: taken whole, a space after it
    await wait_until(lambda: raw(reg).endswith("not" + "e "), WAIT_S, lambda: raw(reg))
    await answered(reg, "from tab", "Note: from tab.")
    assert notes(club.game)[-1] == "from tab"
    before = len(raw(reg))
    reg.type("fire rossi \t")  # several: no common start to take, so nothing but the bell
    await wait_until(lambda: raw(reg).endswith("fire rossi \a"), WAIT_S, lambda: raw(reg)[before:])
    reg.type("\t")  # a second Tab lists them, then the prompt and the line again
    await wait_until(lambda: raw(reg).endswith("reg (Bersaglieri)> fire rossi "), WAIT_S, lambda: raw(reg)[before:])
    shown = raw(reg)[before:]
    assert shown.startswith("fire rossi \a") and "\x1b" not in raw(reg)  # what was typed, then the bell
    listed = shown.split("\r\n")  # (the line typed is taken off the screen, as for news, and put back after)
    assert listed[1].split()[:6] == ["aden", "(Aden", "Farah)", "ahmed", "(Ahmed", "Noor)"]  # the enemies first,
    # in the game's order, each said with his name beside the id Tab would type


async def test_a_seat_s_lines_come_back_with_the_up_arrow_in_its_next_session(tmp_path, caplog):
    from tui.ssh.seating.history import SeatHistories

    async with served_table(tmp_path, caplog) as club:
        club.server.seat_history = SeatHistories(tmp_path / "seat-history")
        reg = await plain(club, "reg")
        await answered(reg, "note first evening", "Note: first evening.")
        await answered(reg, "undo", "y or n: ")
        await answered(reg, "n", "Nothing was undone.")  # an answer to a question: not a line to bring back
        reg.type("\x04")
        await wait_until(lambda: reg.exit_status is not None, WAIT_S, lambda: raw(reg))
        assert SeatHistories(tmp_path / "seat-history").load("reg") == ["note first evening", "undo"]
        again = await plain(club, "reg")
        again.type("\x1b[A\x1b[A")  # ↑ ↑: undo, then the note
        await wait_until(lambda: raw(again).endswith("note first evening"), WAIT_S, lambda: raw(again))
        await answered(again, "", "Note: first evening.")
        assert notes(club.game)[-2:] == ["first evening", "first evening"]
        assert SeatHistories(tmp_path / "seat-history").load("rita") == []


async def test_table_dice_is_the_referees_choice_at_every_served_seat(one_worker_club: Club):
    """The referee's ``table-dice on`` reaches a side's seat in another process (a fact of the
    save); the side may not change it, and his own fire asks him for its faces; the save of
    a side with no seat is asked of the referee, whose faces decide (#61)."""
    rita = await plain(one_worker_club, "rita")
    reg = await plain(one_worker_club, "reg")
    await answered(reg, "table-dice on", "Refused: only the referee may table-dice.")
    rita.type("next\r")
    rita.type("next\r")
    rita.type("table-dice on\r")
    await wait_raw(reg, "Table dice on: each player is asked for the faces of his own rolls.")
    reg.type("fire rossi noor range=20\r")
    await wait_raw(reg, "Sgt Rossi's fire with Assault rifle aimed at Ahmed Noor, 20 cm: 1d6, needs 3+; chance 66.7%.")
    reg.type("6\r")
    await wait_raw(rita, "Ahmed Noor's save: 1d6, needs 5+; chance 33.3%.")
    await wait_raw(reg, "Waiting for the referee to give Somali militia's dice: Ahmed Noor's save: 1d6, needs 5+.")
    reg.type("note meanwhile\r")  # one command at a time
    await wait_raw(reg, "Refused: waiting for the referee to give Somali militia's dice")
    rita.type("5\r")
    # The referee typed it for the militia: said whole, with who gave it (#74).
    await wait_raw(reg, "Saved: suppressed. Rita gave Ahmed Noor's save: 1d6 needing 5+: 5 [table dice].")
    rolls = [
        e.roll
        for e in one_worker_club.game.history.group(one_worker_club.game.history.eff_cmds[-1])
        if isinstance(e, ev.Rolled)
    ]
    assert [(r.faces, r.manual) for r in rolls] == [((6,), True), ((5,), True)]
    reg.type("table-dice off\r")  # refused again: the answer is the second of its words on the screen
    refused = "Refused: only the referee may table-dice."
    await wait_until(lambda: raw(reg).count(refused) == 2, WAIT_S, lambda: raw(reg))


async def test_an_ssh_seats_sealed_rolls_are_drawn_by_the_table_as_its_own_counted_shares(club: Club):
    """An SSH client runs none of our code: the table draws the seat's share as the command comes
    (docs/secrets.md, "Who makes the contribution"), counted as the seat's own, 1, 2…"""
    drawn = iter(bytes([n]) * 16 for n in range(1, 10))
    club.game.sealing.contribute = lambda: next(drawn)  # the table's draw (here, known)
    rita = await plain(club, "rita")
    await answered(rita, "dice-key", "Commitment to a secret of the referee.")
    for n, purpose in enumerate(("first", "second"), start=1):
        rita.type(f"roll 1d6 purpose={purpose}\r")
        await wait_until(lambda n=n: len(_shared(club.game)) == n, WAIT_S, lambda: raw(rita))
    rolls = _shared(club.game)
    assert [(r.by, r.nonce, r.contribution, r.saw) for r in rolls] == [
        ("rita", n, (bytes([n + 1]) * 16).hex(), club.game.sealing.seal()) for n in (1, 2)
    ]


def _shared(game: Game) -> list[ev.SharedRoll]:
    return [e for e in game.history.timeline() if isinstance(e, ev.SharedRoll)]


async def test_why_and_asking_ahead_at_a_plain_seat(club: Club):
    """``why`` and ``? COMMAND`` over SSH (issue #76): the rule behind the seat's refusal, and
    a command asked ahead, nothing given."""
    reg = await plain(club, "reg")
    before = club.game.log_length
    await answered(reg, "fire rossi ahmed range=30", "Refused: ")
    await answered(reg, "why", "move. Rule ENG-2 (Engine, ruling CORE-PHASES): A command in its phase, ruling.")
    await answered(reg, "? note all quiet", "It rolls no dice now; it would record:")
    assert club.game.log_length == before  # nothing was given
