"""A club, its league and an event, made as an organiser makes them, for the event's tests.

Keys, the league and its games come from the league's own test club (``tests/shared/club.py``):
keys made and statements signed with ``ssh-keygen``, each game a short Ludonet game played by
``fireteam script``'s code with seeded dice, its players named at the table, certified and signed
by both players (docs/league.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.event import eventfile
from core.event.state import Event
from tests.shared.club import certified, club_keys, new_league, play

CLUB = ("anna", "bruno", "carla", "dario", "elena", "org")


@dataclass
class Club:
    folder: Path
    league: Path
    keys: dict[str, Path]

    @property
    def org(self) -> Path:
        return self.keys["org"]

    def event(self, players: tuple[str, ...] = ("anna", "bruno", "carla", "dario"), **settings) -> Path:
        path = self.folder / "day.event"
        given = {"name": "Day", "ruleset": "ludonet", "scenario": "tanks", "system": "swiss", "rounds": 3}
        given |= {"minutes": 90, "bye": None, "seeding": "random"} | settings
        eventfile.new(path, self.league, self.org, **given)
        for name in players:
            eventfile.enter(path, name, self.org)
        return path

    def game(self, table_a: str, table_b: str, winner: str = "", n: int = 0) -> tuple[Path, Path, list[Path]]:
        """A certified game: ``table_a`` as british (the event's first side), ``table_b`` german."""
        side = {table_a: "british", table_b: "german"}.get(winner, "")
        end = f"victory {side} held" if side else "victory draw"
        save = play(self.folder, f"g{n}-{table_a}-{table_b}", f"british={table_a} german={table_b}", end, 7 + n)
        cert, sigs = certified(save, self.folder, table_a, table_b)
        return save, cert, sigs


def make_club(folder: Path) -> Club:
    folder.mkdir(parents=True, exist_ok=True)
    club_keys(folder, CLUB)
    return Club(folder, new_league(folder), {name: folder / name for name in CLUB})


def play_round(club: Club, path: Path, event: Event, n: int = 0) -> Event:
    """Every open table of the current round played and added: the first side's player wins."""
    current = event.current
    assert current is not None
    for t in current.open_tables():
        save, cert, sigs = club.game(t.a, t.b, winner=t.a, n=n * 100 + t.number)
        event, _head = eventfile.add(path, save, cert, sigs, table=t.number)
    return event
