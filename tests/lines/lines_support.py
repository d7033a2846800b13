"""What the line client's tests share: a game, a client writing into a list, and what a whole sentence is.

(Helpers live here, not in a conftest.py: another test folder's conftest may be the
``conftest`` module a test imports.)
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from core.game import Game
from core.language.reader import Reader
from tui.lines.client import LineClient

DEMO_SAVE = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"

#: Box drawing, block elements and the geometric shapes tables and frames are drawn with.
BOX_ART = re.compile("[\u2500-\u259f\u25a0-\u25ff]")
#: Table art made of plain characters: a cell's bar, a rule, columns lined up with spaces.
TABLE_ART = re.compile(r"\||\+-|-{3,}|={3,}|\S {2,}\S")
#: What may end a sentence (a question's prompt ends with its colon).
SENTENCE_END = (".", "!", "?", "…", ":")


def problems_of(lines: list[str]) -> list[str]:
    """The lines that are not whole sentences written as plain text."""
    bad = []
    for line in lines:
        if not line.strip():
            bad.append(f"an empty line: {line!r}")
        elif "\x1b" in line or any(ord(c) < 32 for c in line):
            bad.append(f"a control character: {line!r}")
        elif BOX_ART.search(line) or TABLE_ART.search(line):
            bad.append(f"table or box art: {line!r}")
        elif line != line.strip():
            bad.append(f"indented or padded: {line!r}")
        elif not line.endswith(SENTENCE_END):
            bad.append(f"no sentence's end: {line!r}")
    return bad


def demo_game(path: Path, *, seed: int = 7) -> Game:
    """A new Breaking News demo game (before play), its save at ``path``."""
    game = Game.new(path, "breaking-news", seed=seed)
    game.execute("scenario demo")
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
