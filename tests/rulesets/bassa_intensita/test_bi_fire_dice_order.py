"""Bassa Intensità `fire` with typed dice (issue #91, reported four times): one order, shot by
shot, as a player rolling real dice follows it, read by the game and said the same by the
help's first sentence, its "Its dice, in order" and docs/commands.md (ruling BI-FIRE-DICE)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bi_table import book_game, goto, play, rolls

from core.game import Game
from core.language.i18n import plain
from core.language.reader import reading
from core.log.views import REFEREE
from core.rulesets.bassa_intensita import dice_order
from tui.lines.answers.help import command_help

COMMANDS_MD = Path(__file__).resolve().parents[3] / "docs" / "commands.md"


@pytest.fixture
def game(tmp_path, monkeypatch):
    g = book_game(tmp_path, monkeypatch)
    yield g
    g.close()


def test_fire_reads_typed_dice_shot_by_shot(game):
    """A.9.4, A.12.1: Omar's assault rifle, Regular 4, light cover -1: 3; `dice=3,8,4` is the
    first shot (3: a hit), its damage at once (8: wounded), then the second shot (4: a miss),
    not two to-hit dice and then a damage die (which would be 3 a hit, 8 a miss, damage 4)."""
    goto(game, "fire-regular")
    facts = play(game, "@red fire omar carlo range=20 cover=light dice=3,8,4")
    said = [(r.faces, r.rule, plain(r.outcome)) for r in rolls(facts)]
    assert said == [
        ((3,), "A.9.4", "hit: roll damage (A.12)"),
        ((8,), "A.12.1", "wounded"),
        ((4,), "A.9.4", "miss"),
    ]


def _help(g: Game, name: str) -> list[str]:
    return command_help(g, next(s for s in g.commands if s.name == name))


def test_the_help_and_the_docs_say_the_order_the_game_reads(tmp_path):
    """The help's first sentence, its "Its dice, in order" and docs/commands.md's row give one
    order: each shot, then at once, before the next shot, what a hit does; in Italian too."""
    g = Game.new(tmp_path / "g.ft", "bassa-intensita", seed=1)
    g.execute("scenario demo", role=REFEREE)
    for name in ("fire", "screened"):
        lines = _help(g, name)
        first, order = lines[0], next(line for line in lines if line.startswith("Its dice, in order: "))
        assert "shot by shot" in first and "before the next shot" in first, first
        assert "each shot in turn: to hit" in order and "a hit at once, before the next shot" in order, order
        assert "to hit: 1d10 per shot" not in order and "each hit at once" not in order
    rows = [line for line in COMMANDS_MD.read_text(encoding="utf-8").splitlines() if line.startswith("| `fire` |")]
    bi_row = next(r for r in rows if "his isolation test" in r)
    assert f"then {dice_order.SHOTS} |" in bi_row.replace("\\|", "|")
    with reading("it"):
        lines = _help(g, "fire")
        order = next(line for line in lines if line.startswith("I suoi dadi, in ordine: "))
        assert "un colpo dopo l'altro" in lines[0] and "prima del colpo successivo" in order, (lines[0], order)
    g.close()
