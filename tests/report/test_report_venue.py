"""A finished table's chances as a venue publishes them (``core.report.venue``, issue #62)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.game import Game
from core.log.views import SPECTATOR
from core.report.chances import chances
from core.report.venue import chances_bytes, chances_of, read_chances, view_digest
from core.venue import VenueError, chances_subject, view_bytes

SAVES = Path(__file__).resolve().parents[2] / "saves"


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    path = tmp_path_factory.mktemp("venue") / "demo.ft"
    shutil.copyfile(SAVES / "demo-game.ft", path)
    game = Game.open(path, writable=False)
    return game, chances(game, 1, seed=0)


def test_the_message_gives_back_the_chances_numbered_as_the_spectators_may_know_them(measured):
    game, c = measured
    view = view_bytes(game, SPECTATOR)
    table, m = read_chances(chances_subject("demo"), chances_bytes(c, view))
    assert table == "demo" and m.view == view_digest(view)
    back = chances_of(m)
    assert [(p.turn, p.wins, p.count) for p in back.points] == [(p.turn, p.wins, p.count) for p in c.points]
    assert (back.sides, back.winner, back.finished, back.seed, back.count) == (c.sides, c.winner, True, 0, 1)
    # The full save's steps and commands count hidden events too: the message numbers its points instead.
    assert [p.step for p in back.points] == list(range(len(c.points)))
    assert [p.cmd for p in back.points] == list(range(-1, len(c.points) - 1))
    assert [p.step for p in c.points] != [p.step for p in back.points]
    # A swing keeps the rolls the spectators saw, and its order only with them.
    for ours, theirs in zip(c.swings, back.swings, strict=True):
        seen = [r for r in ours.rolls if not r.vis]
        assert [r.roll for r in theirs.rolls] == [r.roll for r in seen]
        assert theirs.order == (ours.order if seen else "")
        assert (theirs.before.turn, theirs.after.turn) == (ours.before.turn, ours.after.turn)
        assert theirs.change == ours.change


def test_chances_on_another_subject_are_refused(measured):
    game, c = measured
    body = chances_bytes(c, view_bytes(game, SPECTATOR))
    for subject in ("fireteam.spectator.demo", "fireteam.chances.a.b", "fireteam.chances.<b>"):
        with pytest.raises(VenueError):
            read_chances(subject, body)
