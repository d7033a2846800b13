"""The recorded games in ``saves/``: each save is what its script makes.

A test module imports it with ``tests/shared`` on ``sys.path`` (see ``hostile.py``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import msgspec

from core.cli import run_script
from core.game import Game

SAVES = Path(__file__).resolve().parents[2] / "saves"


def effective_facts(path: Path) -> list[dict]:
    """Every event of the file, without the wall-clock time of the commands and the
    random salts of the secrets (and so the digests of their commitments)."""
    game = Game.open(path, writable=False)
    out = []
    for line in game.log_lines():
        data = msgspec.to_builtins(line.event)
        for chance in ("at", "salt", "digest"):
            data.pop(chance, None)
        out.append(data)
    return out


@dataclass(frozen=True)
class RecordedGame:
    """``saves/NAME.ft``, made by ``saves/NAME.script`` with ``seed`` under ``ruleset``."""

    name: str
    ruleset: str
    seed: int

    @property
    def script(self) -> Path:
        return SAVES / f"{self.name}.script"

    @property
    def save(self) -> Path:
        return SAVES / f"{self.name}.ft"

    def command(self) -> str:
        """How the committed save is made again."""
        return (
            f"rm saves/{self.name}.ft && fireteam script saves/{self.name}.script "
            f"--save saves/{self.name}.ft --seed {self.seed} --ruleset {self.ruleset}"
        )

    def regenerate(self, folder: Path) -> Path:
        """The save the script makes now, written in ``folder``."""
        save = folder / self.save.name
        assert run_script(self.script, save, self.seed, self.ruleset, "", out=io.StringIO()) == 0
        return save

    def assert_regenerates(self, folder: Path) -> None:
        """A change to what any command records changes the game: regenerate the save
        (and read its log) when this fails."""
        fresh = self.regenerate(folder)
        assert effective_facts(fresh) == effective_facts(self.save), f"{self.save.name} is stale: {self.command()}"
