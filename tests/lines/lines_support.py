"""What the line client's tests share: a game, a client writing into a list, and what a whole sentence is.

(Helpers live here, not in a conftest.py: another test folder's conftest may be the
``conftest`` module a test imports.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sentences import problems_of

from core.game import Game
from core.language.reader import Reader
from core.log.views import REFEREE
from tui.lines.client import LineClient

__all__ = ["DEMO_SAVE", "Seat", "demo_game", "played_game", "problems_of"]

DEMO_SAVE = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


def demo_game(path: Path, *, seed: int = 7) -> Game:
    """A new Breaking News demo game (before play), its save at ``path``."""
    game = Game.new(path, "breaking-news", seed=seed)
    game.execute("scenario demo", role=REFEREE)
    return game


def played_game(path: Path) -> Game:
    """The recorded demo game, played to its end (a copy of ``saves/demo-game.ft``)."""
    shutil.copyfile(DEMO_SAVE, path)
    return Game.open(path)


class Seat:
    """A line client of a game, its output kept as lines."""

    def __init__(self, game: Game, role: str = "referee", *, lang: str = "en", **kwargs) -> None:
        self.out: list[str] = []
        self.client = LineClient(game, role=role, reader=Reader(lang), write=self._write, **kwargs)
        self.client.start()

    def _write(self, text: str) -> None:
        assert text.endswith("\n"), repr(text)  # whole lines only
        self.out += text.removesuffix("\n").split("\n")

    def say(self, line: str) -> list[str]:
        """Feed ``line``; the lines written in answer."""
        before = len(self.out)
        self.client.feed(line)
        return self.out[before:]

    def whole(self, line: str) -> list[str]:
        """Feed ``line``, then ``more`` until it has said everything: the whole answer, without the
        lines that say ``more`` has more (issue #91)."""
        said = self.say(line)
        while self.client.unsaid:
            said = said[:-1] + self.say("more")  # (the English word at every seat, as every reading word)
        return said
