"""Malformed command lines are refused with a sentence that names the problem, and
write nothing: wrong option names, missing values, unknown units, numbers out of
range, figures of the wrong side.  A handler refuses with ``Refused`` only: anything
else is a bug, which ``core.game`` raises as ``CommandFailed`` (issue 33)."""

from __future__ import annotations

import re

import pytest
from bn_combat_support import new_game

from core.game import Game
from core.ruleset import Refused
from core.views import REFEREE

# (role, line, words the refusal must contain); the militia are active, the Bersaglieri react.
MALFORMED = [
    ("irregulars", "move aden 15 shoot also=rossi", "no unit 'rossi' on that side"),
    ("referee", "move aden 15 shoot also=rossi", "a group must be figures of one fire team"),
    ("irregulars", "move aden 15 shoot also=nobody", "no unit 'nobody' on that side"),
    ("irregulars", "move aden 15 sprint", "no unit 'sprint' on that side"),
    ("irregulars", "move aden 15 run crawl=3", "no option for move 'crawl'"),
    ("irregulars", "move aden fifteen", "cm must be a distance from 0 to 1000 cm: .*not 'fifteen'"),
    ("irregulars", "move aden -5", "cm must be a distance from 0 to 1000 cm: .*not '-5'"),
    ("irregulars", "move aden 40 run", "may move 25 cm with that action"),
    ("irregulars", "move aden 10 obstacle=7", "obstacle must be a whole number from 1 to 3, not '7'"),
    ("irregulars", "move aden 10 speed=3", "no option for move 'speed'"),
    ("irregulars", "move nobody 10", "no unit 'nobody'"),
    ("irregulars", "move rossi 10", "Sgt Rossi is not one of your figures"),
    ("irregulars", "move civ1 10", "roll for the civilians first"),
    (
        "irregulars",
        "fire aden rossi",
        r"fire: missing range: distance to the target in cm \(or 10in\); usage: fire unit targets…",
    ),
    ("irregulars", "fire aden rossi range=", "range must be a distance from 0 to 1000 cm: .*not ''"),
    ("irregulars", "fire aden rossi range=-5", "range must be a distance from 0 to 1000 cm: .*not '-5'"),
    ("irregulars", "fire aden rossi range=400", "reaches 150 cm at most"),
    ("irregulars", "fire aden aden range=30", "no unit 'aden' on that side"),
    ("irregulars", "fire aden rossi range=30 weapon=bazooka", "carries AR, GRENADE; which is 'bazooka'?"),
    ("irregulars", "fire aden rossi range=30 mode=volley", "no mode 'volley'"),
    ("irregulars", "fire aden rossi range=30 with=rossi", "no unit 'rossi' on that side"),
    ("irregulars", "fire aden rossi range=30 split=2,x", "split must be a whole number from 0 to 99, not 'x'"),
    ("irregulars", "fire aden rossi range=30 leader=nobody", "no unit 'nobody' on that side"),
    ("irregulars", "fire aden rossi range=30 leader=ahmed,bashir", "name one leader: leader=rossi"),
    ("irregulars", "fire ahmed rossi range=30 leader=bashir", "Bashir .* has no leadership to add"),
    ("irregulars", "covering aden ahmed area=well range=30,x", "range must be a distance from 0 to 1000 cm: .*not 'x'"),
    ("irregulars", "covering aden ahmed area=well range=30,30,30", "give one range, or one per figure"),
    ("irregulars", "covering aden area=well range=-3", "range must be a distance from 0 to 1000 cm: .*not '-3'"),
    ("irregulars", "mortar range=60", "Somali militia has no mortar fire arriving this turn"),
    ("irregulars", "mortar range=60 side=regulars", "you act for Somali militia only"),
    ("referee", "mortar range=60", "name the side: mortar range=60 side=irregulars"),
    ("irregulars", "ied 9", "markers are numbered 1 to 5"),
    ("irregulars", "ied zulu.4", "no side 'zulu'"),
    ("irregulars", "ied 4", "irregulars planted no IED at marker 4"),
    ("referee", "blast aden source=napalm", "no source 'napalm'"),
    ("referee", "blast source=ied", r"blast: missing units: the figures under the template; usage"),
    ("referee", "speculative rossi range=30 also=aden", "also= describe the figures at the position"),
    ("referee", "storm aden against=rossi,nobody", "no unit 'nobody'"),
    ("irregulars", "activate zulu", "Somali militia play a single squad"),
    ("irregulars", "capture units=nobody", "no unit 'nobody'"),
    ("irregulars", "civilians dice=x", "dice"),
    ("irregulars", "option ammo on", "only the referee may option"),
    ("regulars", "react-dodge conti 9", "cm must be a distance from 0 to 5 cm: .*not '9'"),
    ("regulars", "react-fire conti aden range=80", "opportunity fire at men reaches 50 cm"),
    ("regulars", "react-spot conti dahir range=20", "no unit 'dahir'"),  # hidden: he cannot name him
]


@pytest.fixture
def militia_active(tmp_path):
    game = new_game(tmp_path, "demo", active="irregulars")
    yield game
    game.close()


def _refusal(game: Game, role: str, line: str) -> str:
    before = game.path.read_bytes()
    with pytest.raises(Refused) as refused:
        game.execute(line, role=role)
    assert game.path.read_bytes() == before, f"{line!r} wrote to the save"
    return str(refused.value)


@pytest.mark.parametrize(("role", "line", "words"), MALFORMED, ids=[line for _, line, _ in MALFORMED])
def test_a_malformed_line_is_refused_in_words(militia_active, role, line, words):
    message = _refusal(militia_active, role, line)
    assert len(message.split()) >= 3, message
    assert re.search(words, message), message


def test_many_figures_typed_as_an_option_are_a_list(militia_active):
    """``also=bashir`` used to reach the handler as the letters of 'bashir' (refused as "b")."""
    militia_active.execute("move aden 15 shoot also=bashir", role="irregulars")
    assert militia_active.state.units["aden"].moved_cm == 15
    assert militia_active.state.units["bashir"].moved_cm == 15


def test_a_many_number_typed_as_an_option_is_refused_in_words(tmp_path):
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=7)
    game.execute("scenario open", role=REFEREE)
    game.execute("mission 2", role=REFEREE)
    message = _refusal(game, "referee", "objectives regulars 4 secondary=2")
    assert "name the main marker and two secondary ones" in message
