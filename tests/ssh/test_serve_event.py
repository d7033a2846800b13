"""``fireteam serve --event``: the tables of an event's round served from its pairing (issue #92).

A real SSH server in the test's process (``--workers 0``, as an event's server runs), the event's
club made with ``ssh-keygen`` (``tests/core/eventclub.py``), players at plain seats with their own
keys: each sits at his table of the round and at no other, sees the round clock, and when both
players of a table confirm its ended game the server adds it to the event and the league; the
next round's tables open when the organiser pairs it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest
from ssh_club import Player, wait_until

from core.event import eventfile
from core.event import tables as event_tables
from core.event.state import Event
from core.league import season
from core.log.views import REFEREE
from tests.core.eventclub import Club, make_club
from tui.ssh.host.eventtables import EventTables
from tui.ssh.host.server import FireteamServer
from tui.ssh.limits import Limits
from tui.ssh.seatsfile import SeatsFile, table_roles

pytestmark = [pytest.mark.server, pytest.mark.subprocess]  # ssh-keygen makes the club's keys and signs


@dataclass
class Served:
    club: Club
    path: Path
    tables: EventTables
    server: FireteamServer
    port: int
    players: list[Player]

    def event(self) -> Event:
        return eventfile.load(self.path)

    async def sit(
        self, name: str, command: str | None = "plain", username: str = "player", env: dict[str, str] | None = None
    ) -> Player:
        key = asyncssh.read_private_key(self.club.keys[name])
        conn = await asyncssh.connect(
            "127.0.0.1", self.port, username=username, client_keys=[key], known_hosts=None, agent_path=None
        )
        player = Player(100, 40)
        chan, _ = await conn.create_session(
            lambda: player,
            command or None,
            term_type="xterm-256color",
            term_size=(100, 40),
            encoding="utf-8",
            env={"NO_COLOR": "1", **(env or {})},
        )
        player.conn, player.chan = conn, chan
        self.players.append(player)
        return player


def said(player: Player) -> str:
    return "".join(player.raw).replace("\r\n", "\n")


async def heard(player: Player, text: str) -> None:
    await wait_until(lambda: text in said(player), show=lambda: said(player))


@contextlib.asynccontextmanager
async def served_event(folder: Path, caplog) -> AsyncIterator[Served]:
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    club = make_club(folder)
    path = club.event()
    eventfile.pair(path)
    log = logging.getLogger("fireteam.serve")
    tables = EventTables(path, log, club.org)
    opened = tables.open_round()
    seats = SeatsFile(tables.seats_path, log, table_roles([list(t.game.state.sides) for t in opened]))
    limits = Limits(terminals_per_seat=8)
    server = FireteamServer(opened, seats, asyncssh.generate_private_key("ssh-ed25519"), limits=limits)
    port = await server.start("127.0.0.1", 0)
    tables.attach(server)
    tables.start()
    served = Served(club, path, tables, server, port, [])
    try:
        yield served
    finally:
        for player in served.players:
            if player.conn is not None:
                player.conn.abort()
        await tables.close()
        await server.close()
        tables.close_games()


async def test_each_player_sits_at_his_table_and_a_confirmed_game_is_added_by_itself(tmp_path, caplog):
    async with served_event(tmp_path, caplog) as served:
        event = served.event()
        t1 = event.current.table(1)
        name = event_tables.table_name(served.path, 1, 1)
        game = served.tables.tables[name].game
        # Named before the first roll, by their club keys: the save's first players.
        assert [(s.side, s.name, s.key, s.via) for s in game.reading.players()] == [
            ("british", t1.a, event.player(t1.a).key, "key"),
            ("german", t1.b, event.player(t1.b).key, "key"),
        ]
        a = await served.sit(t1.a)
        await heard(a, f"{t1.a} (Fife and Forfar Yeomanry)> ")
        await heard(a, "Round 1: clock not started.")
        other = event.current.table(2)
        # Asked for another table by name, he is refused: a player sits at his table of the round alone.
        intruder = await served.sit(other.a, command=f"plain {name}")
        await heard(intruder, f"sits at {event_tables.table_name(served.path, 1, 2)}, not at '{name}'")
        b = await served.sit(t1.b)
        await heard(b, f"{t1.b} (Kampfgruppe von Luck)> ")
        org = await served.sit("org", command=f"plain {name}")
        await heard(org, "org (referee)> ")
        eventfile.clock(served.path, served.club.org, 90)
        await heard(a, "Round 1 ends ")  # the organiser started the clock: every seat is told
        await heard(org, "90 min left")
        org.command("next")
        org.command("victory british held")
        await heard(a, "Game over")
        a.command("confirm")
        await heard(a, "confirms the result")
        b.command("confirm")
        await wait_until(lambda: served.event().current.table(1).game is not None, show=lambda: said(org))
        await heard(a, "Round 1, table 1: the game is in the event.")
        league = season.load(served.club.league)
        assert len(league.games) == 1 and league.games[0].counted
        assert served.event().current.table(1).results(("british", "german")) == {t1.a: "win", t1.b: "loss"}
        assert not served.event().current.table(2).ended


async def test_the_next_round_opens_when_the_organiser_pairs_it(tmp_path, caplog):
    async with served_event(tmp_path, caplog) as served:
        event = served.event()
        t2 = event.current.table(2)
        player = await served.sit(t2.a)
        await heard(player, f"{t2.a} (")
        for t in event.current.tables:
            eventfile.rule(served.path, served.club.org, t.number, "unfinished", "a test", outcome="draw")
        eventfile.pair(served.path)
        # His table changed: his session is closed, saying where he sits now.
        nxt = served.event().current
        mine = next(t for t in nxt.tables if t2.a in (t.a, t.b))
        name = event_tables.table_name(served.path, 2, mine.number)
        await heard(player, f"your seat is at {name} now: connect again to sit there")
        await wait_until(lambda: name in {t.name for t in served.server.tables})
        again = await served.sit(t2.a)
        await heard(again, "Round 2: clock not started.")
        game = served.tables.tables[name].game
        assert {s.side: s.name for s in game.reading.players()} == {"british": mine.a, "german": mine.b}
        assert game.state.scenario and not game.state.result
        assert REFEREE not in {s.side for s in game.reading.players()}


async def test_the_round_clock_at_a_screen_seat_in_italian_with_the_tables_extension(tmp_path, caplog):
    async with served_event(tmp_path, caplog) as served:
        t1 = served.event().current.table(1)
        seat = await served.sit(t1.a, command="", env={"LANG": "it_IT.UTF-8"})
        await seat.wait_for("turno 1: orologio non avviato")  # the phase pane's lower border
        eventfile.clock(served.path, served.club.org, 90)
        await seat.wait_for("il turno 1 finisce alle", "mancano 90 min")
        eventfile.clock(served.path, served.club.org, 15, table=1)  # this table's time, extended
        await seat.wait_for("mancano 105 min")


def test_the_server_is_refused_a_key_not_the_organisers_as_it_starts(tmp_path, monkeypatch, capsys):
    """The server vouches for its tables' seat confirmations with the organiser's key (the trust
    audit's R1): without it, or with a player's, it does not start; before, the first game's end
    would have been the first to know."""
    from tui.main import main

    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FIRETEAM_STATE_DIR", str(tmp_path / "state"))
    club = make_club(tmp_path / "club")
    path = club.event()
    eventfile.pair(path)
    serve = ["serve", "--event", str(path), "--port", "0", "--lang", "en"]
    assert main(serve) == 2
    assert "error: --event needs --organiser-key KEY" in capsys.readouterr().err
    anna = club.keys["anna"]
    assert main([*serve, "--organiser-key", str(anna)]) == 2
    assert capsys.readouterr().err == f"error: {anna}: anna's key, not the organiser's (org)\n"
    assert not (tmp_path / "club" / "day-tables").exists()  # no table opened
