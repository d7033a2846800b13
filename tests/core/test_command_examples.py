"""Every example a command's help gives parses, in English and in the Italian names help shows
it in, against its ruleset's demo: a new player types them into the demo, and an example
naming a piece that is not there is refused (``attiva sherman1 A2``, ``segna ahmed`` in Linea
di Tiro: #61).  An example for a piece the demo has none of (an aircraft, a half-track) names
one of another built-in scenario of its ruleset, and parses there (ruling HELP-EXAMPLES)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.game import Game
from core.language.reader import reading
from core.log.views import REFEREE
from core.refusal import Refused
from core.registry import get_ruleset

RULESETS = ("breaking-news", "linea-di-tiro", "ludonet", "bassa-intensita")
#: A hidden piece's marker label (``K7Q``): drawn anew for each game, so no example can name one.
MARKER = re.compile(r"(?<!\S)[A-Z][0-9][A-Z](?!\S)")
#: The examples of a piece no built-in scenario fields: Ludonet's anti-aircraft gun and a
#: reserve joining a unit (LN-R062, LN-R070) are the book's, and only a scenario of the
#: user's has them (ruling HELP-EXAMPLES).  Let through by their exact line, and only these.
UNFIELDED = {
    "ludonet": {"aa flak typhoon", "aa flak typhoon dice=5", "reinforce fritz karl", "reinforce hans karl max"},
}


def scenario_games(folder: Path, ruleset: str) -> list[Game]:
    """A game of each built-in scenario of ``ruleset``, its demo first."""
    names = sorted(get_ruleset(ruleset).scenarios, key=lambda name: name != "demo")
    games = []
    for name in names:
        game = Game.new(folder / f"{name}.ft", ruleset, seed=7)
        game.execute(f"scenario {name}", role=REFEREE)
        games.append(game)
    return games


def unparsed(games: list[Game], lang: str) -> list[str]:
    """The examples that parse as their command in none of ``games`` (the demo for most)."""
    demo = games[0]
    left = []
    for spec in demo.commands:
        for example in spec.examples:
            if MARKER.search(example) or example in UNFIELDED.get(demo.ruleset.id, ()):
                continue
            with reading(lang):
                typed = demo.localize(example)
                if not any(_parses(game, typed, spec.name) for game in games):
                    left.append(typed)
    return left


def _parses(game: Game, line: str, name: str) -> bool:
    try:
        return game.parse(line, REFEREE).spec.name == name
    except Refused:
        return False


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_example_names_what_a_built_in_scenario_has(tmp_path, ruleset):
    games = scenario_games(tmp_path, ruleset)
    try:
        examples = {example for spec in games[0].commands for example in spec.examples}
        assert UNFIELDED.get(ruleset, set()) <= examples  # none let through that help no longer gives
        assert unparsed(games, "en") == []
        assert unparsed(games, "it") == []
    finally:
        for game in games:
            game.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_referees_tools_name_the_demos_own_pieces(tmp_path, ruleset):
    (game,) = scenario_games(tmp_path, ruleset)[:1]
    try:
        tools = [s for s in game.commands if s.name in ("mark", "clear", "out", "dp")]
        for spec in tools:
            for example in spec.examples:
                assert _parses(game, example, spec.name), example
    finally:
        game.close()
