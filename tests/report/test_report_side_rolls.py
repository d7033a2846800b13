"""The report of a real game: a roll that names its side (a morale test) counts in that
side's luck and among the unluckiest rolls, and a variant is named in words (#48)."""

from __future__ import annotations

from pathlib import Path

from core.game import Game
from core.log.views import REFEREE
from core.report import account
from core.report.build import build
from core.rulesets.breaking_news.words import IT


def _game(tmp_path: Path, variant: str = "") -> Game:
    game = Game.new(tmp_path / "g.ft", "breaking-news", variant, seed=7, clock=lambda: 1_700_000_000_000)
    game.execute("scenario demo", role=REFEREE)
    return game


def test_a_morale_test_failed_on_four_ones_counts_for_its_side(tmp_path):
    """§12.0: the Bersaglieri (Veterans, 4 dice) lost Conti and Sgt Rossi (the commander counted
    twice): 3 to reach; 1,1,1,1 fails, a chance of 16 in 1,296 (no die of 4 at 3+: (2/6)^4)."""
    game = _game(tmp_path)
    for line in ("next", "next dice=6,6,1,1", "out conti killed by irregulars", "out rossi killed by irregulars"):
        game.execute(line, role=REFEREE)
    game.execute("next", role=REFEREE)
    game.execute("morale regulars dice=1,1,1,1", role=REFEREE)  # typed by the referee: the roll names its side
    report = build(game, REFEREE)
    (regulars,) = [s for s in report.luck.sides if s.side == "regulars"]
    morale = [j for j in regulars.rolls if j.fact.roll.faces == (1, 1, 1, 1)]
    assert len(morale) == 1 and morale[0].successes == 0
    assert float(morale[0].p_at_most) == 16 / 1296
    assert morale[0] in report.luck.unluckiest


def test_the_report_names_the_italian_draft_in_words(tmp_path):
    report = build(_game(tmp_path, IT), REFEREE)
    line = account.summary(report)[0]
    assert line.startswith("Breaking News, Italian draft of 9 December 2009: ")  # not 1.5.1, the English book's (#61)
    assert IT not in line
    assert account.summary(build(_game(tmp_path / "en"), REFEREE))[0].startswith("Breaking News 1.5.1: ")
