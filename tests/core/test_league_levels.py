"""Issue #90, point 5: nobody's word counts as everybody's no more.

``league add`` with no signature printed "confirmed by the organiser only" though the league's
organiser signed nothing; ``@british confirm`` and ``@german confirm`` typed by one person at one
table gave "confirmed by both players"; standings counted every level alike.  Now only the
league's named organiser's signature is the organiser's word, a confirmation counts only from a
seat bound to its player, and a league chooses at ``league new`` which levels it counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.game import Game
from core.league import certificate, season, standings
from core.league.certificate import NotCounted
from core.league.folding import BELOW, COUNTED
from core.league.levels import (
    BOTH,
    COUNT_BOTH,
    COUNT_ORGANISER,
    ONE_PLAYER,
    ORGANISER_ONLY,
    PLAYER_AND_ORGANISER,
    UNCONFIRMED,
)
from tests.shared.club import certified, club_keys, new_league, play
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club_keys(tmp_path)
    return tmp_path


def test_no_signature_is_not_the_organisers_word(folder, capsys):
    league = new_league(folder)
    save = play(folder, "g")
    cert, _sigs = certified(save, folder)
    assert fireteam(["league", "add", str(league), str(save), str(cert)]) == 0
    said = capsys.readouterr().out
    assert "unconfirmed" in said and "organiser" not in said  # before: "confirmed by the organiser only"


def test_one_person_confirming_both_sides_at_one_table_is_nobodys_word(folder):
    league = new_league(folder)
    save = play(folder, "g")  # players named by the referee: no seat is bound to them
    digest = certificate.digest(certificate.certify(save)[0])
    game = Game.open(save)
    try:  # what the client sent before the seat refused it: the digest added, the side's role as the seat
        game.execute(f"confirm {digest}", role="german", by="german")
        game.execute(f"confirm {digest}", role="british", by="british")
    finally:
        game.close()
    cert, _sigs = certified(save, folder)
    added = season.add(league, save, cert, [])
    assert (added.confirmed, added.level) == ((), UNCONFIRMED)  # before: "confirmed by both players"


def test_only_the_leagues_organiser_signing_is_the_organisers_word(folder):
    league = new_league(folder)
    levels = []
    for n, signers in enumerate((("anna", "org"), ("org",), ("bruno",), ("carla",))):
        save = play(folder, f"g{n}", end=f"victory german held {n}")
        try:
            levels.append(season.add(league, save, *certified(save, folder, *signers)).level)
        except NotCounted as e:
            levels.append(str(e).split(": ", 1)[1])
    assert levels[:3] == [PLAYER_AND_ORGANISER, ORGANISER_ONLY, ONE_PLAYER]
    assert levels[3].startswith("signed by 'carla', who played no side of this game and is not the organiser")


@pytest.mark.parametrize(
    ("counts", "signers", "added"),
    [
        (COUNT_BOTH, ("anna",), False),
        (COUNT_BOTH, ("anna", "org"), False),
        (COUNT_BOTH, ("anna", "bruno"), True),
        (COUNT_ORGANISER, ("anna",), False),
        (COUNT_ORGANISER, ("org",), True),
        (COUNT_ORGANISER, (), False),
    ],
)
def test_a_league_counts_the_levels_its_club_chose(folder, counts, signers, added):
    league = new_league(folder, counts=counts)
    save = play(folder, "g")
    cert, sigs = certified(save, folder, *signers)
    if added:
        assert season.add(league, save, cert, sigs).counted
        return
    with pytest.raises(NotCounted, match="and in this league a game counts once"):
        season.add(league, save, cert, sigs)
    assert season.load(league).games == []


def test_standings_say_each_games_level_and_count_only_what_the_league_counts():
    from tests.core.test_league_standings import ALICE, BOB, game
    from tests.core.test_league_standings import season as made

    alone, both = game(1, ALICE, BOB, ALICE), game(2, ALICE, BOB, BOB)
    alone.rule = both.rule = COUNT_BOTH
    both.confirmed = ("x", "y")
    assert (alone.level, alone.standing, both.level, both.standing) == (UNCONFIRMED, BELOW, BOTH, COUNTED)
    rows = {r.player: r for r in standings.table(made(alone, both)).rows}
    assert (rows[BOB].points, rows[ALICE].points, rows[ALICE].played) == (3, 0, 1)
