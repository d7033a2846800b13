"""Defeat points where the book scores none (#61): Linea di Tiro, Ludonet and Bassa Intensità
have no defeat points (their digests: the scenario's conditions decide a game), so their help
lists no ``dp``/``ps`` and typed, it is refused saying so and naming what decides instead;
Breaking News (§14.0) still takes it."""

from __future__ import annotations

import sys
from contextlib import closing
from pathlib import Path

import pytest
from playing import names

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from core.refusal import TYPING, Refused

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lines"))
from lines_support import Seat  # noqa: E402  (test folders are not packages)

#: Each ruleset without defeat points, a side of its demo, and its command that ends the game.
WITHOUT = [
    ("linea-di-tiro", "us", "result", "risultato"),
    ("ludonet", "paras", "victory", "vittoria"),
    ("bassa-intensita", "militia", "victory", "vittoria"),
]


def demo(folder: Path, ruleset: str) -> Game:
    game = Game.new(folder / "g.ft", ruleset, seed=7)
    game.execute("scenario demo", role=REFEREE)
    return game


def refusal(game: Game, line: str, *, rule: str) -> str:
    with pytest.raises(Refused) as refused:
        game.execute(line, role=REFEREE)
    names(refused.value, rule)
    return str(refused.value)


@pytest.mark.parametrize(("ruleset", "side", "ends", "ends_it"), WITHOUT)
def test_a_ruleset_without_defeat_points_refuses_dp_naming_what_decides_instead(tmp_path, ruleset, side, ends, ends_it):
    with closing(demo(tmp_path, ruleset)) as game:
        assert "dp" not in {spec.name for spec in game.commands}
        assert refusal(game, f"dp {side} 5 building damaged", rule=TYPING) == (
            f"this game scores no defeat points: the scenario's conditions decide who wins ({ends})"
        )
        with reading("it"):
            assert refusal(game, f"ps {side} 5", rule=TYPING) == (
                "questo gioco non conta punti sconfitta: chi vince lo decidono le condizioni "
                f"dello scenario ({ends_it})"
            )
        assert not any(side.defeat_points for side in game.state.sides.values())


@pytest.mark.parametrize(("ruleset", "side", "ends", "ends_it"), WITHOUT)
def test_its_help_and_status_name_no_defeat_points(tmp_path, ruleset, side, ends, ends_it):
    with closing(demo(tmp_path, ruleset)) as game:
        said = Seat(game, lang="it").say("aiuto") + Seat(game, lang="it").say("stato")
        said += Seat(game).say("help") + Seat(game).say("status")
        assert [line for line in said if "sconfitta" in line.lower() or "defeat" in line.lower()] == []
        assert not any(line.startswith(("ps", "dp")) for line in said)


def test_breaking_news_still_scores_them(tmp_path):
    with closing(demo(tmp_path, "breaking-news")) as game:
        game.execute("dp regulars 5 building damaged", role=REFEREE)
        assert game.state.sides["regulars"].defeat_points == 5
