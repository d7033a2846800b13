"""The tables a server serves: one game each, opened from its save (or a new demo game)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.game import Game
from core.storage.errors import SaveError
from tui.app import new_demo_game


@dataclass(eq=False)
class Table:
    """One game and the seats at it."""

    name: str
    game: Game
    #: What every seat at the table shows beside the game, in the seat's language (called in its
    #: reader's context): an event's round clock (``tui.ssh.host.eventtables``); None: nothing.
    notice: Callable[[], str] | None = None
    _notice_listeners: list[Callable[[bool], None]] = field(default_factory=list, repr=False)

    def follow_notice(self, listener: Callable[[bool], None]) -> Callable[[], None]:
        """``listener(news)`` whenever the notice changes: ``news`` when something happened (a
        clock started, a table's time extended or up) that a plain seat says, else a minute gone."""
        self._notice_listeners.append(listener)
        return lambda: self._notice_listeners.remove(listener)

    def notice_changed(self, news: bool) -> None:
        for listener in list(self._notice_listeners):
            listener(news)


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
