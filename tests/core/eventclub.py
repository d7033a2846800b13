"""A club, its league and an event, made as an organiser makes them, for the event's tests.

Keys are made and statements signed with ``ssh-keygen``; each game is a short Ludonet game
played by ``fireteam script``'s code with seeded dice, its players named at the table, certified
and signed by both players (docs/league.md).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from core.cli.main import run_script
from core.event import eventfile
from core.event.state import Event
from core.league import certificate, season
from tests.shared.keys import keygen, sign, signer_line

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
        name = f"g{n}-{table_a}-{table_b}"
        script = self.folder / f"{name}.script"
        side = {table_a: "british", table_b: "german"}.get(winner, "")
        end = f"victory {side} held" if side else "victory draw"
        script.write_text(
            f"scenario tanks\nplayers british={table_a} german={table_b}\nnext\n{end}\n", encoding="utf-8"
        )
        save = self.folder / f"{name}.ft"
        assert run_script(script, save, 7 + n, "ludonet", "", out=io.StringIO()) == 0
        cert, _verified = certificate.certify(save)
        path = certificate.default_path(save)
        certificate.write(cert, path)
        sigs = []
        for who in (table_a, table_b):
            sig = sign(self.keys[who], path)
            sigs.append(sig.rename(path.with_name(f"{path.name}.{who}.sig")))
        return save, path, sigs


def make_club(folder: Path, extra: tuple[str, ...] = ()) -> Club:
    keys = {name: keygen(folder, name) for name in (*CLUB, *extra)}
    signers = folder / "allowed_signers"
    signers.write_text("\n".join(signer_line(k, n) for n, k in keys.items()) + "\n")
    league = folder / "club.league"
    season.new(league, "Club", signers, "org", (3, 1, 0))
    return Club(folder, league, keys)


def play_round(club: Club, path: Path, event: Event, n: int = 0) -> Event:
    """Every open table of the current round played and added: the first side's player wins."""
    current = event.current
    assert current is not None
    for t in current.open_tables():
        save, cert, sigs = club.game(t.a, t.b, winner=t.a, n=n * 100 + t.number)
        event, _head = eventfile.add(path, save, cert, sigs, table=t.number)
    return event
