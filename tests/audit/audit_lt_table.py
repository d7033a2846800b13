"""The Linea di Tiro audit's table: a demo game whose deck starts with cards the test
names, pieces of known numbers put on it, and the book's two fire tables transcribed
from the digest (C.6, C.7) so that a test can read the book's answer for any cell.

The book gives no piece data (C.0): every number a test relies on is given here, on
the piece itself (``stats`` over the demo's profiles), so no test leans on the demo's
own values."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from audit_common import allowed, copied, has, moved, out, refused, rolled, said  # noqa: F401  (re-exported)

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets"))
from linea_di_tiro_support import faces_for, inject, new_game, play, stacked  # noqa: E402, F401  (re-exported)

#: A deck that alternates the sides, number cards only: US (hearts), German (clubs), ...
ALTERNATE = ["7♥", "3♣", "8♥", "4♣", "9♥", "5♣", "10♥", "6♣"]

# C.6 "TIRO CONTROCARRO": the book's table, row = modified 2d6 (8 stands for 8+),
# columns = attack - protection: <=-3, -2, -1, 0, +1, +2, +3/+4, >=+5.
AT_BOOK = {
    1: "R D D D D D D D",
    2: "T T D D D D D D",
    3: "- T R D D D D D",
    4: "- - T R D D D D",
    5: "- - - T R D D D",
    6: "- - - T T T D D",
    7: "- - - - T T T D",
    8: "- - - - - - - -",
}
# C.7 "ALTRI TIRI (MG & HE)": row = modified 1d6 (6: no effect), columns = attack
# factor - defence: <0, 0, +1, +2, +3, +4, >+4.
MG_BOOK = {
    1: "I I I D D D D",
    2: "- I I I I D D",
    3: "- - I I I I D",
    4: "- - - - I I I",
    5: "- - - - - I I",
    6: "- - - - - - -",
}

#: C.7.1: the defence of a target on foot, by how it stands.
DEFENCES = {
    "moving-open": 0,
    "bound-open": 2,
    "bound-protected": 3,
    "still-open": 3,
    "prepared": 4,
    "entrenched": 5,
}

#: A scenario file's profile of plain rifles (morale 3, MG 3), for the cases that write their own.
RIFLES = """[[profiles]]
id = "rifles"
name = "Rifles"
vehicle = false
morale = 3
mg = 3
"""


def at_book(diff: int, total: int, long_range: bool = False) -> str:
    """The AT table's letter for a column and a modified total, as the book reads."""
    if long_range and total > 6:
        return "-"  # "alla lunga distanza nessun effetto con un risultato >6"
    col = 0 if diff <= -3 else 6 if diff in (3, 4) else 7 if diff >= 5 else diff + 3
    return AT_BOOK[min(max(total, 1), 8)].split()[col]


def mg_book(diff: int, total: int) -> str:
    col = 0 if diff < 0 else min(diff + 1, 6)
    return MG_BOOK[min(max(total, 1), 6)].split()[col]


def game_with(tmp_path: Path, first: list[str], name: str = "audit-lt.ft") -> Game:
    """A demo game whose deck starts with the cards ``first``."""
    return copied(repr(("lt", first, name)), lambda folder: new_game(folder / name, first), tmp_path)


def turned(tmp_path: Path, first: list[str], *lines: str) -> Game:
    """A game of :func:`game_with`, its first card turned (``next``) and ``lines`` played."""
    g = game_with(tmp_path, first)
    play(g, "next", *lines)
    return g


@pytest.fixture
def lt(tmp_path: Path) -> Game:
    """The demo game dealt :data:`ALTERNATE`, a US card then a German one."""
    return game_with(tmp_path, ALTERNATE)


def immobilised(tmp_path: Path, uid: str) -> Game:
    """A game whose deck starts with the US 7♥, and ``uid``, a US rifle half-squad of the
    2nd Platoon, immobilised."""
    g = game_with(tmp_path, ["7♥"])
    add(g, uid, "us", "rifles", team="2nd Platoon", status=("immobilised",))
    return g


def add(
    g: Game,
    uid: str,
    side: str,
    cls: str,
    *,
    team: str = "T",
    roles: tuple[str, ...] = (),
    status: tuple[str, ...] = (),
    stats: dict[str, int] | None = None,
) -> None:
    """A piece of the demo's profile ``cls`` with its own numbers (``stats=``); a
    vehicle's profile makes it a vehicle on the table too."""
    kind = "vehicle" if cls in ("sherman", "pz4", "pak40") else "man"
    spec = ev.UnitSpec(
        id=uid,
        name=uid.title(),
        side=side,
        team=team,
        cls=cls,
        kind=kind,
        roles=roles,
        status=status,
        stats=stats or {},
    )
    inject(g, ev.UnitAdded(unit=spec, vis=(side,) if "hidden" in status else ()))


def outcome(facts: list[ev.Event]) -> str:
    """The last roll's outcome, as the log says it."""
    return plain(rolled(facts)[-1].outcome)


def scenario_game(tmp_path: Path, profiles: str, units: str, first: list[str] = ALTERNATE) -> Game:
    """A game on a scenario file of the test's own profiles and units (US allied, German
    axis), the deck starting with ``first``."""
    text = (
        'ruleset = "linea-di-tiro"\nid = "audit"\ntitle = "Audit"\n'
        '[[sides]]\nid = "us"\nname = "US"\narmy = "allied"\n'
        '[[sides]]\nid = "german"\nname = "German"\narmy = "axis"\n' + units + profiles
    )

    def build(folder: Path) -> Game:
        path = folder / "audit-scenario.toml"
        path.write_text(text, encoding="utf-8")
        g = Game.new(folder / "audit-file.ft", "linea-di-tiro", seed=5)
        g.execute(f"scenario {path} dice=" + ",".join(map(str, faces_for(stacked(first)))), role=REFEREE)
        return g

    return copied(repr(("lt-scenario", text, first)), build, tmp_path)


def spotted(facts: list[ev.Event]) -> bool:
    """Whether a piece was spotted in these facts."""
    return any(type(e).__name__ == "Spotted" for e in facts)
