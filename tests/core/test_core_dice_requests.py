"""The dice said out loud: each request names whose roll it is, what for and what it
needs, exactly, in every ruleset; a hidden unit is never named to a side that cannot
see it; ``fireteam script`` prints the same words."""

from __future__ import annotations

import io
import re

import pytest
from recorded import play_with_table_dice, recorded_games

from core.cli.main import run_script
from core.dice.faces import DiceRequest
from core.game import Game
from core.language.reader import reading
from core.log.events import Mod
from core.log.outcome import DiceNeeded, Outcome
from core.log.views import REFEREE, roll_owner, roller

GAMES = {g.name: g for g in recorded_games()}

#: (recorded game, the command line, who gave it) → the first request it made, word for word.
EXPECTED = {
    ("demo-game", "objective-roll", "irregulars"): "Somali militia's secret objective die: 1d6",
    ("demo-game", "rolloff", "referee"): "Bersaglieri's deployment: 1d6 (squad commander's leadership +2)",
    ("demo-game", "civilians", "irregulars"): "Somali militia's control of the civilians: 1d6, needs 3+",
    (
        "demo-game",
        "react-spot rossi dahir",
        "referee",
    ): "Sgt Rossi's sighting of a hidden figure (marker V6L) at 20 cm: 1d6, needs 3+",
    (
        "demo-game",
        "fire bianchi dahir",
        "regulars",
    ): "Cpl Bianchi's fire with Light machine gun at Dahir Omar, 39 cm: 4d6, needs 5+ per die",
    (
        "bassa-intensita-game",
        "ranging gatti",
        "referee",
    ): "Sgt Gatti's precision of the ranging shot: 1d10, needs 5 or less",
    ("linea-di-tiro-game", "scenario", "referee"): "referee's deck shuffle: 1d54",
    ("ludonet-game", "move rifle2 14 run", "british"): "Pte Shaw's fatigue: 1d6, needs 5+",
    ("ludonet-game", "strike", "referee"): "Typhoon's air strike (3 cm across): 1d6, needs 5+",
}


@pytest.fixture(scope="module")
def asked(tmp_path_factory):
    out = {}
    for name in sorted({key[0] for key in EXPECTED}):
        game, requests = play_with_table_dice(GAMES[name], tmp_path_factory.mktemp(name))
        game.close()
        out[name] = requests
    return out


@pytest.mark.long
@pytest.mark.parametrize(("key", "words"), EXPECTED.items(), ids=[f"{k[0]}:{k[1]}" for k in EXPECTED])
def test_the_request_says_exactly_this(asked, key, words):
    name, line, role = key
    first = next(a for a in asked[name] if a.line.startswith(line) and a.role == role)
    assert first.request.text() == words


def test_a_request_in_words():
    """Whose, what for, the dice, what they need (after the modifiers, which follow)."""
    save = DiceRequest(1, 6, "save", whose="r4c", target=3)
    assert save.text() == "r4c's save: 1d6, needs 3+"
    under = DiceRequest(1, 10, "morale", whose="Pte Russo", target=9, under=True, mods=(Mod("wounded", -3),))
    assert under.text() == "Pte Russo's morale: 1d10, needs 9 or less (wounded -3)"
    total = DiceRequest(2, 6, "rally", whose="regulars", target=7, total=True)
    assert total.text() == "regulars' rally: 2d6, needs 7+ total"
    drift = DiceRequest(2, 6, "initiative", whose="blue", total=True, mods=(Mod("leader", 2), Mod("noted", 0)))
    assert drift.text() == "blue's initiative: 2d6 (leader +2, noted)"
    direction = DiceRequest(1, 6, "deviation direction", whose="referee")
    assert direction.text() == "referee's deviation direction: 1d6"
    part = DiceRequest(3, 6, "to hit", whose="Cpl Bianchi", target=5, missing=2)
    assert part.text() == "Cpl Bianchi's to hit: 3d6, needs 5+ per die; 1 typed, 2 more to type"


def test_whose_roll_as_each_role_may_be_told(tmp_path):
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=1)
    g.execute("scenario demo", role=REFEREE)
    s = g.state
    assert "hidden" in s.units["dahir"].status
    assert roller(s, "dahir", "", "referee") == "Dahir Omar"
    assert roller(s, "dahir", "", "irregulars") == "Dahir Omar"
    assert roller(s, "dahir", "", "regulars") == "an unseen unit"  # never his name nor his side
    assert roller(s, "", "regulars", "irregulars") == "Bersaglieri"  # a side by its name
    assert roller(s, "", "", "regulars") == "referee"
    g.close()


def test_fireteam_script_prints_the_request_and_the_order(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("scenario demo\nroll 2d6 target=4 purpose=smoke\n")
    save = tmp_path / "s.ft"
    assert run_script(script, save, 3, "breaking-news", "", out=io.StringIO()) == 0  # seeded dice: no request
    script.write_text("roll 2d6 under=4 purpose=quality dice=3\n")
    assert run_script(script, save, None, "breaking-news", "", out=io.StringIO()) == 1
    assert capsys.readouterr().err == (
        f"{script}:1: needs dice: referee's quality: 2d6, needs 4 or less per die; 1 typed, 1 more to type "
        "(give them with dice=...; its dice, in order: the roll: the dice named, each judged against "
        "target= or under= if given)\n"
    )


def test_fireteam_script_says_which_step_of_the_order_it_stopped_at(tmp_path, capsys):
    script = tmp_path / "s.txt"
    # the hit on the line's 6 (needs 4+, §8.0): the save is the roll it stops at
    script.write_text("scenario demo\nnext dice=3\nnext dice=6,6,1,1\nfire conti bashir range=40 dice=6\n")
    assert run_script(script, tmp_path / "s.ft", 3, "breaking-news", "", out=io.StringIO()) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"{script}:4: needs dice: Bashir Ali's save: 1d6, needs 5+ (give them with dice=...; ")
    assert said.endswith(
        "; now step 4 of 5: each hit's save: 1d6 per hit (a vehicle's own save first, then each man aboard))\n"
    )


def test_each_request_names_the_side_whose_dice_it_wants(tmp_path):
    """The roll's owner (issue #61): the firer's side for his fire, the defender's for his
    save, whoever gave the command; given these faces, this outcome."""
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    for line in ("scenario demo", "next dice=3", "next dice=6,6,1,1"):  # regulars active
        g.execute(line, role=REFEREE)
    fire = "fire conti bashir range=40"
    for role in ("regulars", REFEREE):
        to_hit = g.submit(fire, role=role, faces=[])
        assert isinstance(to_hit, DiceNeeded)
        assert (to_hit.request.whose, to_hit.request.side) == ("Pte Conti", "regulars")
        save = g.submit(fire, role=role, faces=[6])  # a hit (needs 4+, §8.0)
        assert isinstance(save, DiceNeeded)
        assert (save.request.text(), save.request.side) == ("Bashir Ali's save: 1d6, needs 5+", "irregulars")
    assert isinstance(g.submit(fire, role="regulars", faces=[6, 4]), Outcome)  # the save's 4 fails
    assert g.state.units["bashir"].out
    g.close()


def test_the_side_of_an_unseen_units_roll_stays_hidden(tmp_path):
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=1)
    g.execute("scenario demo", role=REFEREE)
    s = g.state
    assert roll_owner(s, "dahir", "", "irregulars") == "irregulars" == roll_owner(s, "dahir", "", REFEREE)
    assert roll_owner(s, "dahir", "", "regulars") == ""  # as his name: "an unseen unit"
    assert roll_owner(s, "", "regulars", "irregulars") == "regulars"  # a side's roll
    assert roll_owner(s, "", "", "regulars") == roll_owner(s, "", "nobody", REFEREE) == ""  # the referee's
    g.close()


def test_fireteam_script_asks_an_italian_reader_for_dadi(tmp_path, capsys):
    """Found at a table (#61): under --lang it the request said "dalli con dice=...", the
    English option, and "quality di referee"; the Italian names it *dadi* (``dadi=`` is read
    in every ruleset), the referee *arbitro*."""
    script = tmp_path / "s.txt"
    script.write_text("scenario demo\nroll 2d6 target=4 purpose=smoke\n")
    save = tmp_path / "s.ft"
    assert run_script(script, save, 3, "breaking-news", "", out=io.StringIO()) == 0
    script.write_text("roll 2d6 under=4 purpose=quality dadi=3\n")
    with reading("it"):
        assert run_script(script, save, None, "breaking-news", "", out=io.StringIO()) == 1
    said = capsys.readouterr().err
    assert "(dalli con dadi=...; " in said
    assert "quality di arbitro: 2d6" in said  # the referee's roll, in his words
    assert not {"dice", "referee"} & set(re.findall(r"\w+", said))
