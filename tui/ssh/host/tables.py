"""The tables a server serves: one game each, opened from its save (or a new demo game)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.game import Game
from core.storage.savefile import SaveError
from tui.app import new_demo_game


@dataclass
class Table:
    """One game and the seats at it."""

    name: str
    game: Game


def open_tables(saves: Sequence[Path], saves_folder: Path | None = None) -> list[Table]:
    """A table per save; with none, a new demo game in ``saves_folder`` (default: the client's)."""
    if not saves:
        game = new_demo_game(saves_folder)
        return [Table(game.path.stem, game)]
    names = [p.stem for p in saves]
    for name in names:
        if names.count(name) > 1:
            raise SaveError(f"two saves are named {name!r}; a game is chosen by its file name, so rename one")
    tables: list[Table] = []
    try:
        for path in saves:
            if not path.exists():
                raise SaveError(f"{path}: no such save (run `fireteam serve` without SAVE for a new demo game)")
            tables.append(Table(path.stem, Game.open(path)))  # takes the save's lock until the server stops
    except BaseException:
        for t in tables:
            t.game.close()  # and lets go of the locks already taken
        raise
    return tables
