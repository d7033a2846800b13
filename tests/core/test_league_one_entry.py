"""Issue #90, point 6: one game, one entry.

The same commands played again from the same seed (a new game id: the commitment's salt is
fresh) and a what-if fork of a counted game were added as new games; ``players british=anna
german=Anna`` was two players. Now a repeat is refused naming the game it repeats, names are
compared folded (case and Unicode compatibility) and a key is one player.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from core.cli.main import run_script
from core.league import season, standings
from core.league.certificate import NotCounted
from core.league.names import folded
from tests.shared.club import certified, club_keys, fingerprint, new_league, play
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club_keys(tmp_path)
    return tmp_path


def test_the_same_game_played_again_from_its_seed_is_refused_naming_it(folder):
    league = new_league(folder)
    first = play(folder, "first", seed=7)
    season.add(league, first, *certified(first, folder, "anna", "bruno"))
    again = play(folder, "again", seed=7)  # a fresh salt: another game id
    cert, sigs = certified(again, folder, "anna", "bruno")
    with pytest.raises(NotCounted, match=r"already in the league, as game 1 \(the same commands, dice and players"):
        season.add(league, again, cert, sigs)
    other = play(folder, "other", seed=7, end="victory british held")  # another game: it counts
    assert season.add(league, other, *certified(other, folder, "anna", "bruno")).number == 2


def test_a_fork_of_a_counted_game_is_refused_naming_it(folder):
    league = new_league(folder)
    parent = play(folder, "parent", seed=13, end="note the last turn")
    fork = folder / "fork.ft"
    assert fireteam(["fork", str(parent), "--step", str(_steps(parent)), "--save", str(fork)]) == 0
    for save, end in ((parent, "victory german held"), (fork, "victory british held")):
        script = folder / f"{save.stem}.end"
        script.write_text(end + "\n")
        assert run_script(script, save, None, "", "", out=io.StringIO()) == 0
    season.add(league, parent, *certified(parent, folder, "anna", "bruno"))
    cert, sigs = certified(fork, folder, "anna", "bruno")
    with pytest.raises(NotCounted, match=r"already in the league, as game 1 \(the same game id"):
        season.add(league, fork, cert, sigs)


def _steps(save: Path) -> int:
    from core.game import Game

    game = Game.open(save, writable=False)
    try:
        return game.timeline.length
    finally:
        game.close()


@pytest.mark.parametrize("other", ["Anna", "ANNA"])
def test_a_name_written_another_way_is_the_same_player(folder, other):
    league = new_league(folder)
    save = play(folder, "g", seats=f"british=anna german={other}")
    with pytest.raises(NotCounted, match=r"^\S*g\.ft\.result: 'anna' is seated on both sides of this game"):
        season.add(league, save, *certified(save, folder))  # before: two players; then: no file named


def test_names_compare_by_unicode_compatibility_too():
    """A served seat's name comes from its seats file or its invitation: any Unicode."""
    from core.league.entries import Club, league_names
    from tests.core.test_league_standings import game

    fullwidth = game(1, "anna", "\uff21\uff4e\uff4e\uff41", None).cert  # ＡＮＮＡ
    with pytest.raises(NotCounted, match="seated on both sides"):
        league_names(fullwidth, Club.of([]), {})
    assert folded("Stra\u00dfe") == folded("STRASSE") and folded("\ufb01ne") == "fine"


def test_one_key_seated_on_both_sides_under_two_names_is_refused(folder):
    league = new_league(folder)
    key = fingerprint(folder / "anna")
    save = play(folder, "g", seats=f"german=anna key={key} via=key; british=annie key={key} via=key")
    with pytest.raises(NotCounted, match=r"^\S*g\.ft\.result: .* on both sides of this game"):
        season.add(league, save, *certified(save, folder, "anna"))  # (its file named, as a repeat's is)


def test_a_name_typed_another_way_is_credited_to_one_player(folder):
    league = new_league(folder)
    one = play(folder, "one", seats="german=Anna british=Dino")
    season.add(league, one, *certified(one, folder, "anna"))
    two = play(folder, "two", seats="german=DINO british=bruno", end="victory german held 2")
    game = season.add(league, two, *certified(two, folder, "bruno"))
    assert game.players == {"british": ("bruno",), "german": ("Dino",)}  # the spelling the league met first
    rows = {r.player: r.played for r in standings.table(season.load(league)).rows}
    assert rows == {"anna": 1, "Dino": 2, "bruno": 1}  # "Anna" is the club's anna
