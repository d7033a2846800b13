"""End to end, real SSH clients: the referee's hidden commands change nothing a side receives
(issue 14, "A test of the whole property").

The in-process proof is ``tests/tui/test_tui_no_leaks.py``; this one goes through
the server and real asyncssh clients.  For a few seeded random games, two
servers play the same commands from the same seed, each with the referee, a
regulars' seat and the spectator seated at a terminal.  At one table the
referee also types, before the regulars' commands, commands that touch only the
irregulars' fighters, which neither the regulars nor the spectator can see.
After each of the regulars' commands, once both tables have answered it and the
regulars' screens show its ✓ or ✗ hint, the regulars' screens at the two tables
and the spectators' must be the same; at the end, so must every plain reply
(``ssh host status``, ``who``, ``games``, ``help``) each of them gets.  The
spectators watch the screen their table draws once for all of them
(``tui.ssh.seating.sharedscreen``): two watch it from the start, and a third comes at the
end, who is sent it whole.

What is compared is each terminal's settled screen, as a VT emulator draws it
(``ssh_vt``), not the raw bytes: how the app splits its output into frames
depends on timing (two updates may come in one frame or in two), which differs
from run to run at the same table.  The games' clocks are fixed, so no time
differs either.

The regulars' commands roll no seeded dice (their sightings of the hidden
fighters' markers, named by label, type theirs): the seeded dice are drawn by the
file's command number, so a roll after a hidden command has other faces.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import random
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, WATCHING, Club, Player, make_keys, seats_toml, wait_until

from core.game import Game
from core.log.outcome import Outcome, Refusal
from core.log.views import REFEREE
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.seatsfile import Seats

pytestmark = pytest.mark.server

#: The terminals compared: the regulars', and two spectators' (the same seat, twice) sharing one screen.
WATCHERS = ("reg", "spec", "spec#2")
#: Who comes in at the end, and is sent the spectators' screen whole.
LATE = "spec#3"
#: The referee's commands on the irregulars' fighters, hidden from the regulars and the spectator
#: (marks twice as likely as clears, which are refused unless the mark is there).
_HIDDEN = [f"{verb} {unit} {status}" for verb in ("mark", "mark", "clear") for unit in ("dahir", "egal")
           for status in ("pinned", "suppressed", "wounded")]  # fmt: skip
#: The regulars' moves (none rolls dice), undos, redos and mistakes, and sightings of the
#: hidden fighters' markers named by their labels ({m0}, {m1}: the regulars' markers in
#: label order; typed dice, so a hidden command before them changes no face).
_SEAT = [f"move {unit} {cm}" for unit in ("conti", "greco", "ferri") for cm in (1, 2, 3)] + [
    "undo", "undo", "undo", "redo", "redo", "note all quiet", "move dahir 2", "fire conti dahir", "mark conti pinned",
    "react-spot conti {m0} range=30 dice=1", "react-spot greco {m1} range=30.5 dice=2",
]  # fmt: skip
GAMES = (11, 22, 33)
STEPS = 7


def _steps(seed: int) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)
    return [(rng.choice(_SEAT), rng.sample(_HIDDEN, rng.randint(0, 2))) for _ in range(STEPS)]


@dataclass
class Side:
    """One table: its server, its game, and the referee's, regulars' and spectator's terminals."""

    club: Club
    players: dict[str, Player] = field(default_factory=dict)
    answers: list[Outcome | Refusal] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return self.club.game

    async def give(self, seat: str, line: str) -> Outcome | Refusal:
        """Type ``line`` at ``seat``'s terminal (on an emptied line); what the game made of it."""
        before = len(self.answers)
        self.players[seat].type("\x15" + line + "\r")  # Ctrl+U: a refused line is given back to edit
        await wait_until(lambda: len(self.answers) > before)
        return self.answers[-1]

    async def hinted(self, answer: Outcome | Refusal) -> None:
        """Wait until the regulars' screen shows the hint of their command's answer."""
        if isinstance(answer, Refusal):
            hint = f"✗ {answer.why}"[:40]
        else:
            hint = f"✓ #{self.game.reading.numbering('regulars').shown(answer.cmd)} "
        await self.players["reg"].wait_for(hint)


async def _table(folder: Path, keys: dict[str, asyncssh.SSHKey], caplog) -> Side:
    folder.mkdir()
    # Fixed salts too: the two tables' commitments (shown in the log) must differ only by the hidden commands.
    game = Game.new(folder / "table.ft", "breaking-news", seed=7, clock=lambda: 1_000, salt=lambda: "0" * 32)
    for line in ("scenario demo", "next", "next"):  # to turn 1: the regulars are active (seed 7)
        game.execute(line, role=REFEREE)
    assert game.state.active_side == "regulars"
    server = FireteamServer(
        [Table("table", game)],
        Seats.parse(seats_toml(keys, SEATS)),
        asyncssh.generate_private_key("ssh-ed25519"),
        output_limit=64 * 1024,
    )
    port = await server.start("127.0.0.1", 0)
    side = Side(Club(server, port, keys, game, [], caplog))
    game.subscribe(side.answers.append, role=REFEREE)
    game.subscribe_refusals(side.answers.append)
    for terminal in ("rita", "reg", "spec", "spec#2"):  # one after the other: ``who`` lists them in this order
        seat = terminal.partition("#")[0]
        side.players[terminal] = await side.club.connect(seat)
        await side.players[terminal].wait_for(WATCHING if seat == "spec" else "type a command")
    return side


async def _late(side: Side) -> None:
    """A spectator who comes in at the end: he is sent the whole shared screen."""
    side.players[LATE] = await side.club.connect("spec")
    await side.players[LATE].wait_for(WATCHING, "the end")


async def _same_screens(plain: Side, busy: Side, context: str, watchers: tuple[str, ...] = WATCHERS) -> None:
    for seat in watchers:
        a, b = plain.players[seat], busy.players[seat]
        try:
            await wait_until(lambda a=a, b=b: a.text() == b.text(), WAIT_S)
        except AssertionError:
            diff = "\n".join(difflib.unified_diff(a.text().splitlines(), b.text().splitlines(), lineterm=""))
            raise AssertionError(f"{seat}'s screens differ {context}:\n{diff}") from None


async def _replies(side: Side) -> list[tuple[str, str, str, int | None]]:
    out = []
    for seat in ("reg", "spec"):
        for command in ("status", "who", "games", "help"):
            got = await side.club.run(seat, command)
            out.append((seat, command, str(got.stdout) + str(got.stderr), got.exit_status))
    return out


async def _step(side: Side, seat_line: str, hidden: list[str]) -> Outcome | Refusal:
    for line in hidden:  # the referee's mistakes ("not pinned") are refused: his own, and unseen too
        await side.give("rita", line)
    markers = side.game.view("regulars").markers
    answer = await side.give("reg", seat_line.format(m0=markers[0], m1=markers[-1]) if markers else seat_line)
    await side.hinted(answer)
    return answer


@pytest.mark.parametrize("seed", GAMES)
async def test_hidden_referee_commands_change_no_screen_or_reply_of_a_side(tmp_path, caplog, seed):
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    plain, busy = await asyncio.gather(
        _table(tmp_path / "plain", keys, caplog), _table(tmp_path / "busy", keys, caplog)
    )
    try:
        steps = [*_steps(seed), ("note the end", [])]  # last, a line both screens must show
        for n, (seat_line, hidden) in enumerate(steps):
            told = await asyncio.gather(_step(plain, seat_line, []), _step(busy, seat_line, hidden))
            assert [type(t) for t in told] == [type(told[0])] * 2, (seat_line, told)
            await _same_screens(plain, busy, f"after step {n} ({seat_line!r}, hidden {hidden})")
        await asyncio.gather(*(side.players[s].wait_for("the end") for side in (plain, busy) for s in WATCHERS))
        await _same_screens(plain, busy, "at the end")
        await asyncio.gather(_late(plain), _late(busy))
        await _same_screens(plain, busy, "for a spectator who came at the end", (*WATCHERS, LATE))
        # One screen drawn for every spectator at each table.
        assert [len(side.club.server.stands.screens) for side in (plain, busy)] == [1, 1]
        assert busy.game.log_length > plain.game.log_length  # the referee's hidden commands were recorded
        assert await _replies(plain) == await _replies(busy)
    finally:
        for side in (plain, busy):
            await side.club.close()
            side.game.close()
