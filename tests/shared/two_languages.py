"""A user's Breaking News scenario file that gives its words in Italian too (``[translations.it]``,
issue #77), and a game set up on it: shared by the core's and the client's tests of its words."""

from __future__ import annotations

import io
from pathlib import Path

from core.cli.main import run_script
from core.game import Game
from core.language.reader import reading

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "core" / "rulesets" / "breaking_news" / "scenarios" / "demo.toml"

#: Each text as written → its words: a hidden piece's too, and a piece's name with markup in it.
TWO_LANGUAGES = """
[translations.it]
"Checkpoint at Balad" = "Posto di blocco a Balad"
"Balad militia" = "Milizia di Balad"
"Market trader" = "[bold]Mercante[/bold]"
"Dahir Omar" = "Dahir il nascosto"
"""


def balad(folder: Path, extra: str = "") -> Path:
    """The demo's file, renamed "Checkpoint at Balad" with a "Balad militia", in ``folder``."""
    mine = folder / "balad.toml"
    text = DEMO.read_text(encoding="utf-8").replace('title = "Checkpoint at Afgooye"', 'title = "Checkpoint at Balad"')
    text = text.replace('name = "Somali militia"', 'name = "Balad militia"')
    mine.write_text(text + TWO_LANGUAGES + extra, encoding="utf-8")
    return mine


def set_up(save: Path, lang: str, scenario: str) -> Game:
    """A Breaking News game set up on ``scenario`` by a script run in ``lang``, opened."""
    script = save.with_suffix(".script")
    script.write_text(f"scenario {scenario}\n", encoding="utf-8")
    with reading(lang):
        assert run_script(script, save, 1, "breaking-news", "", out=io.StringIO()) == 0
    return Game.open(save)
