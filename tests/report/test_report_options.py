"""The report names the optional rules the game was played with, in each of its forms (#61): a
game of the Italian draft played with §9.3 on or off says which."""

from __future__ import annotations

import pytest

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from core.report import build, render_html, render_md, render_text

WOUNDED = "§9.3 wounded men, medics and stabilisation"


def forms(game: Game) -> list[str]:
    report = build(game, REFEREE)
    return [render_md.render(report), render_html.render(report), "\n".join(render_text.render(report))]


@pytest.mark.parametrize("on", [True, False])
def test_the_report_says_whether_the_wounded_rule_was_in_force(tmp_path, on):
    game = Game.new(tmp_path / "g.ft", "breaking-news", "it-2009-12-09", seed=3)
    game.execute("scenario demo", role=REFEREE)
    if on:
        game.execute("option wounded on", role=REFEREE)
    try:
        for said in forms(game):
            assert (f"Optional rules in force: {WOUNDED}." in said) is on
            assert ("No optional rules in force." in said) is not on
        with reading("it"):
            italian = "\n".join(render_text.render(build(game, REFEREE)))
        if on:
            assert "Regole opzionali in vigore: §9.3 feriti, medici e stabilizzazione." in italian, italian[:600]
        else:
            assert "Nessuna regola opzionale in vigore." in italian
    finally:
        game.close()


def test_a_ruleset_without_optional_rules_says_nothing_of_them(tmp_path):
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=3)
    game.execute("scenario demo", role=REFEREE)
    try:
        assert not any("optional rule" in said.lower() for said in forms(game))
    finally:
        game.close()
