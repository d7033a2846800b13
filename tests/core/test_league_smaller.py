"""Issue #90, point 9 (the league's parts): a failing standard output, a rollback that failed, the
score margin of a mixed league, a shared place, the 95% band."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import pytest

import core.storage.writer
from core.league import render, season, standings
from core.league.rating import fit
from core.league.render import Z95
from core.storage.errors import SaveError
from tests.core.test_league_standings import ALICE, BOB, CARLA, DINO, game
from tests.core.test_league_standings import season as made
from tests.shared.club import certified, club_keys, new_league, play
from tui.main import main as fireteam


@pytest.fixture
def league(tmp_path: Path) -> Path:
    club_keys(tmp_path)
    path = new_league(tmp_path)
    save = play(tmp_path, "g")
    season.add(path, save, *certified(save, tmp_path, "anna"))
    return path


@pytest.mark.subprocess
@pytest.mark.parametrize("where", ["closed pipe", "full disk", "no standard output"])
def test_standings_to_a_failing_stdout_end_without_a_traceback(league, monkeypatch, capsys, where):
    if where == "full disk":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full here")
        out = open("/dev/full", "w")  # noqa: SIM115 (closed below)
    elif where == "closed pipe":
        read, write = os.pipe()
        os.close(read)
        out = os.fdopen(write, "w")
    else:
        out = None  # ``>&-``: Python starts with no sys.stdout
    monkeypatch.setattr(sys, "stdout", out)
    try:
        assert fireteam(["league", "standings", str(league)]) == 4  # before: a traceback (3 of 3)
        if out is not None:
            out.close()
    finally:
        monkeypatch.undo()
    err = capsys.readouterr().err
    assert "league standings: what it prints could not be written whole" in err and "Traceback" not in err


@pytest.mark.subprocess
def test_a_failed_rollback_never_says_nothing_was_added(tmp_path, monkeypatch):
    club_keys(tmp_path)
    path = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, sigs = certified(save, tmp_path, "anna")

    written, real_write, real_fsync = [], core.storage.writer._write_all, os.fsync

    def write(fd: int, data: bytes) -> None:
        real_write(fd, data)
        written.append(data)

    def fsync(fd: int) -> None:
        if written:  # the record written whole, its sync failed
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(fd)

    def ftruncate(*_args) -> None:  # and it could not be cut off again
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(core.storage.writer, "_write_all", write)
    monkeypatch.setattr(core.storage.writer.os, "fsync", fsync)
    monkeypatch.setattr(core.storage.writer.os, "ftruncate", ftruncate)
    with pytest.raises(SaveError) as e:
        season.add(path, save, cert, sigs)
    monkeypatch.undo()
    said = str(e.value)
    assert "nothing was added" not in said and "it may have been added" in said
    assert len(season.load(path).games) == 1  # it was: saying "nothing" would have been a lie


def test_the_score_margin_adds_like_to_like_in_a_mixed_league():
    """Breaking News counts defeat points, Ludonet pieces lost: a 3-piece win at Ludonet (3 to 0) is a
    whole game's margin, a 60-to-40 Breaking News win a fifth of one; the sum of raw scores put the
    Breaking News player ahead on 20 "points" against 3 pieces."""
    s = made(
        game(1, ALICE, CARLA, ALICE, (40, 60), ruleset="breaking-news"),
        game(2, BOB, DINO, BOB, (0, 3), ruleset="ludonet"),
    )
    t = standings.table(s)
    assert [r.player for r in t.rows[:2]] == [BOB, ALICE]  # before: alice first, +20 against +3
    assert (t.rows[0].margin, t.rows[1].margin) == (pytest.approx(1.0), pytest.approx(0.2))
    assert t.rows[0].decided == standings.MARGIN


def test_a_shared_place_is_not_said_to_be_ahead():
    s = made(game(1, ALICE, BOB, None), game(2, CARLA, DINO, None), points=(3, 0, 0))
    t = standings.table(s)
    assert t.rows[0].place == t.rows[1].place and t.rows[0].decided == standings.SHARED
    text = render.text(t, "Club")
    assert "ahead of the next by level on every tie-break" not in text  # before: printed so
    assert "place shared with the next: level on every tie-break" in text


def test_the_95_percent_band_is_1_96_standard_errors_each_side():
    t = standings.table(made(game(1, ALICE, BOB, ALICE), game(2, ALICE, BOB, ALICE)))
    value, error, _n = next(r for r in t.rows if r.player == ALICE).ratings["ludonet"]
    low, high = round(value - Z95 * error), round(value + Z95 * error)
    assert f"{low}–{high} ({round(value)} ± {round(Z95 * error)}, 2 games)" in render.text(t, "Club")
    assert pytest.approx(1.959964, abs=0.0001) == Z95  # a normal distribution's 97.5th percentile


def test_a_team_game_weighs_one_game_in_the_rating():
    """Alice alone against Bob and Carla: each pair half a game, so her curvature is one game's."""
    one = fit([(ALICE, BOB, 1.0, 1.0)])
    team = fit([(ALICE, BOB, 1.0, 0.5), (ALICE, CARLA, 1.0, 0.5)])
    whole = fit([(ALICE, BOB, 1.0, 1.0), (ALICE, CARLA, 1.0, 1.0)])
    assert one[ALICE][0] < team[ALICE][0] < whole[ALICE][0]
    assert team[ALICE][1] > whole[ALICE][1]


@pytest.mark.subprocess
def test_the_standings_json_names_levels_receipts_and_problems(league, capsys):
    assert fireteam(["league", "standings", str(league), "--format", "json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["format"] == 2 and data["counts"] == "any" and len(data["head"]) == 64
    (g,) = data["games"]
    assert g["players"] == {"british": ["bruno"], "german": ["anna"]} and g["problems"] == []
    assert g["confirmed"] == "confirmed by one player only" and g["receipt"] == data["head"]
