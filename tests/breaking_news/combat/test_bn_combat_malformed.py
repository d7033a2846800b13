"""Malformed command lines are refused with a sentence that names the problem, and
write nothing: wrong option names, missing values, unknown units, numbers out of
range, figures of the wrong side.  A handler refuses with ``Refused`` only: anything
else is a bug, which ``core.game`` raises as ``CommandFailed`` (issue 33)."""

from __future__ import annotations

import re

import pytest
from bn_combat_support import new_game
from playing import names

from core.game import Game
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused

# (role, line, words the refusal must contain, the rule it names); the militia are active, the Bersaglieri react.
MALFORMED = [
    ("irregulars", "move aden 15 shoot also=rossi", "no unit 'rossi' on that side", TYPING),
    ("referee", "move aden 15 shoot also=rossi", "a group must be figures of one fire team", "ACT-3"),
    ("irregulars", "move aden 15 shoot also=nobody", "no unit 'nobody' on that side", TYPING),
    ("irregulars", "move aden 15 sprint", "no unit 'sprint' on that side", TYPING),
    ("irregulars", "move aden 15 run crawl=3", "no option for move 'crawl'", TYPING),
    ("irregulars", "move aden fifteen", "cm must be a distance from 0 to 1000 cm: .*not 'fifteen'", TYPING),
    ("irregulars", "move aden -5", "cm must be a distance from 0 to 1000 cm: .*not '-5'", TYPING),
    ("irregulars", "move aden 40 run", "may move 25 cm with that action", "MOV-1"),
    ("irregulars", "move aden 10 obstacle=7", "obstacle must be a whole number from 1 to 3, not '7'", TYPING),
    ("irregulars", "move aden 10 speed=3", "no option for move 'speed'", TYPING),
    ("irregulars", "move nobody 10", "no unit 'nobody'", TYPING),
    ("irregulars", "move rossi 10", "Sgt Rossi is not one of your figures", "ENG-1"),
    ("irregulars", "move civ1 10", "roll for the civilians first", "EXT-11"),
    (
        "irregulars",
        "fire aden rossi",
        r"fire: missing range: distance to the target in cm \(or 10in\); usage: fire unit targets…",
        TYPING,
    ),
    ("irregulars", "fire aden rossi range=", "range must be a distance from 0 to 1000 cm: .*not ''", TYPING),
    ("irregulars", "fire aden rossi range=-5", "range must be a distance from 0 to 1000 cm: .*not '-5'", TYPING),
    ("irregulars", "fire aden rossi range=400", "reaches 150 cm at most", "T-08"),
    ("irregulars", "fire aden aden range=30", "no unit 'aden' on that side", TYPING),
    ("irregulars", "fire aden rossi range=30 weapon=bazooka", "carries AR, GRENADE; which is 'bazooka'?", TYPING),
    ("irregulars", "fire aden rossi range=30 mode=volley", "no mode 'volley'", TYPING),
    ("irregulars", "fire aden rossi range=30 with=rossi", "no unit 'rossi' on that side", TYPING),
    ("irregulars", "fire aden rossi range=30 split=2,x", "split must be a whole number from 0 to 99, not 'x'", TYPING),
    ("irregulars", "fire aden rossi range=30 leader=nobody", "no unit 'nobody' on that side", TYPING),
    ("irregulars", "fire aden rossi range=30 leader=ahmed,bashir", "name one leader: leader=rossi", "SUP-5"),
    ("irregulars", "fire ahmed rossi range=30 leader=bashir", "Bashir .* has no leadership to add", "SUP-5"),
    (
        "irregulars",
        "covering aden ahmed area=well range=30,x",
        "range must be a distance from 0 to 1000 cm: .*not 'x'",
        TYPING,
    ),
    ("irregulars", "covering aden ahmed area=well range=30,30,30", "give one range, or one per figure", TYPING),
    (
        "irregulars",
        "covering aden area=well range=-3",
        "range must be a distance from 0 to 1000 cm: .*not '-3'",
        TYPING,
    ),
    ("irregulars", "mortar range=60", "Somali militia has no mortar fire arriving this turn", "MORT-1"),
    ("irregulars", "mortar range=60 side=regulars", "you act for Somali militia only", "ENG-1"),
    ("referee", "mortar range=60", "name the side: mortar range=60 side=irregulars", TYPING),
    ("irregulars", "ied 9", "markers are numbered 1 to 5", "OBJ-1"),
    ("irregulars", "ied zulu.4", "no side 'zulu'", TYPING),
    ("irregulars", "ied 4", "irregulars planted no IED at marker 4", "EXT-9"),
    ("referee", "blast aden source=napalm", "no source 'napalm'", TYPING),
    ("referee", "blast source=ied", r"blast: missing units: the figures under the template; usage", TYPING),
    ("referee", "speculative rossi range=30 also=aden", "also= describe the figures at the position", "SPEC-1"),
    ("referee", "storm aden against=rossi,nobody", "no unit 'nobody'", TYPING),
    ("irregulars", "activate zulu", "Somali militia play a single squad", "ACT-1"),
    ("irregulars", "capture units=nobody", "no unit 'nobody'", TYPING),
    ("irregulars", "civilians dice=x", "dice", TYPING),
    ("irregulars", "option ammo on", "only the referee may option", "ENG-1"),
    ("regulars", "react-dodge conti 9", "cm must be a distance from 0 to 5 cm: .*not '9'", TYPING),
    ("regulars", "react-fire conti aden range=80", "opportunity fire at men reaches 50 cm", "OPP-1"),
    ("regulars", "react-spot conti dahir range=20", "no unit 'dahir'", TYPING),  # hidden: he cannot name him
]


@pytest.fixture
def militia_active(tmp_path):
    game = new_game(tmp_path, "demo", active="irregulars")
    yield game
    game.close()


def _refusal(game: Game, role: str, line: str, *, rule: str) -> str:
    before = game.path.read_bytes()
    with pytest.raises(Refused) as refused:
        game.execute(line, role=role)
    names(refused.value, rule)
    assert game.path.read_bytes() == before, f"{line!r} wrote to the save"
    return str(refused.value)


@pytest.mark.parametrize(("role", "line", "words", "rule"), MALFORMED, ids=[line for _, line, *_ in MALFORMED])
def test_a_malformed_line_is_refused_in_words(militia_active, role, line, words, rule):
    message = _refusal(militia_active, role, line, rule=rule)
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
    message = _refusal(game, "referee", "objectives regulars 4 secondary=2", rule="OBJ-1")
    assert "name the main marker and two secondary ones" in message
