"""The game's inner variables (``Reading.inner``) out of the log's normal view (issue #61).

A ruleset counts things in variables; one it has words for ("blue has moved 1 times")
is a line a referee reads, one it has none for (``moved.cole = 1``) is the code's, shown
only where he digs: a line's details, the filter ``kind:var``, ``fireteam log --all``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from skirmish import Counted, patrol_game
from waiting import piloted, press, screen_of

import core.rulesets.breaking_news.tables as extras_table
from core.game import Game
from core.language.reader import Reader, reading
from core.log import events as ev
from core.log.views import REFEREE
from tui.lines.client import LineClient
from tui.logindex import FilteredIndex, LogFilter, RowIndex
from tui.loglines import summary
from tui.main import main as fireteam
from tui.panes.log import LogPane, LogView
from tui.screens.dialogs import DetailsScreen
from tui.screens.game import GameScreen

MOVES = ("next", "next", "move cole 10", "note after the move", "move diaz 5")


def counted_game(tmp_path):
    return patrol_game(tmp_path / "counted.ft", commands=MOVES, ruleset=Counted)


def inner_positions(game) -> list[int]:
    return [i for i, e in enumerate(game.history.store.slice(0, game.log_length)) if game.reading.inner(e)]


def test_only_a_variable_without_words_is_inner(tmp_path):
    game = counted_game(tmp_path)
    inner = [game.history.store.slice(i, i + 1)[0] for i in inner_positions(game)]
    assert [(e.key, e.value) for e in inner] == [("moved.cole", 1), ("moved.diaz", 1)]
    texts = [line.text for line in game.log_lines(REFEREE)]
    assert "blue has moved 2 times" in texts  # a counter put in words stays a line
    game.close()


def test_no_role_has_a_row_for_an_inner_variable(tmp_path):
    game = counted_game(tmp_path)
    hidden = inner_positions(game)
    for role in (REFEREE, "blue", "red"):
        index = RowIndex(game, role)
        rows = [index.position(r) for r in range(index.rows())]
        assert not set(hidden) & set(rows)
        shown = [line.index for line in game.log_lines(role) if not line.inner]
        assert rows == shown
    referee = RowIndex(game, REFEREE)
    assert referee.rows() == game.log_length - 2
    after = hidden[0] + 1  # the note's command, the row after the first hidden line
    assert referee.position(referee.row_of(after)) == after
    assert referee.row_of(hidden[0]) == referee.row_of(after)  # a hidden line: the row after it
    game.close()


def test_the_filter_kind_var_digs_them_out(tmp_path):
    game = counted_game(tmp_path)

    def texts(words: str) -> list[str]:
        index = FilteredIndex(game, REFEREE, LogFilter.parse(words), lambda u: "")
        index.extend()
        return [game.log_lines(REFEREE, index.position(r), index.position(r) + 1)[0].text for r in range(index.rows())]

    assert texts("kind:var") == ["blue has moved 1 times", "moved.cole = 1", "blue has moved 2 times", "moved.diaz = 1"]
    assert texts("moved") == ["blue has moved 1 times", "blue has moved 2 times"]  # words alone: the normal view
    game.close()


def test_a_command_s_one_line_answer_leaves_them_out(tmp_path):
    game = counted_game(tmp_path)
    lines = game.log_lines(REFEREE, inner_positions(game)[1] - 3, game.log_length)
    assert [line.text for line in lines][-1] == "moved.diaz = 1"
    assert summary(lines) == "» referee: move diaz 5; Pte Diaz moves 5 cm; blue has moved 2 times"
    game.close()


async def test_details_of_the_line_after_a_hidden_one_open_its_own_event(tmp_path):
    game = counted_game(tmp_path)
    hidden = inner_positions(game)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f7")
        log = app.screen.query_one(LogView)
        assert log.rows == game.log_length - 2
        assert not [r for r in range(log.rows) if "moved." in log.line_at(r).text]
        log.set_cursor(log.index.row_of(hidden[0]))
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailsScreen)
        assert isinstance(app.screen.line.event, ev.Issued) and app.screen.line.event.text == "note after the move"
        await press(pilot, "escape")
        pane = app.screen.query_one(LogPane)
        await press(pilot, "ctrl+k", *"kind:var", "enter")
        assert pane.filter.kinds == ("var",) and log.rows == 4
        log.set_cursor(1)
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailsScreen)  # where a referee digs, the variable is
        assert app.screen.line.event == ev.VarSet(key="moved.cole", value=1)
    game.close()


async def test_a_replay_step_past_a_hidden_line_keeps_the_log_where_the_replay_stands(tmp_path):
    game = counted_game(tmp_path)
    hidden = inner_positions(game)
    game.close()
    replay = type(game).open(game.path, writable=False)
    async with piloted(replay, replay=True) as (app, pilot):
        screen = screen_of(app, GameScreen)
        log = screen.query_one(LogView)
        await press(pilot, "less_than_sign")
        while screen.vp.limit() <= hidden[0]:
            await press(pilot, "right")
        # the step that set moved.cole: no row of its own, the row before it is the last
        assert screen.vp.limit() == hidden[0] + 1
        assert log.rows == hidden[0]
        assert log.line_at(log.rows - 1).text == "blue has moved 1 times"
        await press(pilot, "right")
        assert log.rows == hidden[0] + 1
        assert log.line_at(log.rows - 1).text == "» referee: note after the move"
    replay.close()


def test_fireteam_log_leaves_them_out_but_all_and_json_keep_them(tmp_path, capsys):
    game = counted_game(tmp_path)
    length = game.log_length
    game.close()
    assert fireteam(["log", str(game.path)]) == 0
    normal = capsys.readouterr().out.splitlines()
    assert len(normal) == length - 2 and not [line for line in normal if "moved." in line]
    assert "    blue has moved 2 times" in normal
    assert fireteam(["log", str(game.path), "--all"]) == 0
    every = capsys.readouterr().out.splitlines()
    assert len(every) == length and "    moved.cole = 1" in every
    assert fireteam(["log", str(game.path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == length
    assert [r["text"] for r in rows if r["inner"]] == ["moved.cole = 1", "moved.diaz = 1"]


def test_the_plain_seat_says_neither_in_its_news_nor_in_log_n_but_verbose_says_them(tmp_path):
    game = patrol_game(tmp_path / "plain.ft", commands=MOVES[:2], ruleset=Counted)
    out: list[str] = []
    quiet = LineClient(game, role="blue", reader=Reader("en"), write=out.append)
    said: list[str] = []
    verbose = LineClient(game, role="blue", reader=Reader("en"), write=said.append, verbose=True)
    quiet.start()
    verbose.start()
    out.clear()
    said.clear()
    game.execute("move cole 10", role=REFEREE)  # another seat's command
    quiet.feed("status")  # a line typed: the news of the game come first
    verbose.feed("status")
    news, loud = "".join(out).lower(), "".join(said).lower()
    assert "sgt cole moves 10 cm" in news and "blue has moved 1 times" in news
    assert "the rules keep a value" not in news
    assert "the rules keep a value" in loud
    out.clear()
    quiet.feed("log 2")
    assert out[0].startswith("The last 2 lines of the log, of ")
    said_log = out[0].lower()
    assert "sgt cole moves 10 cm" in said_log and "blue has moved 1 times" in said_log
    assert "the rules keep a value" not in said_log
    game.close()


SAVES = sorted((Path(__file__).resolve().parents[2] / "saves").glob("*.ft"))


@pytest.mark.parametrize("save", SAVES, ids=[p.stem for p in SAVES])
def test_whether_a_variable_has_words_is_told_as_writing_them_would_tell_it(save, tmp_path, monkeypatch):
    """``Ruleset.has_words`` (what the log pane asks of every variable as it first draws a game)
    says what ``describe_named`` would, for every variable of every recorded game, at each step,
    in both languages; and Breaking News tells an extra bought without reading the extras table."""
    game = Game.open(save, writable=False)
    ruleset, timeline = game.ruleset, game.timeline
    variables = [(i, e) for i, e in enumerate(game.history.store.slice(0, game.log_length)) if type(e) is ev.VarSet]
    assert variables
    for language in ("en", "it"):
        with reading(language):
            for i, e in variables:
                state = timeline.state_at(i + 1)
                assert ruleset.has_words(state, e.key, e.value) == (
                    ruleset.describe_named(state, e.key, e.value) is not None
                ), (e.key, e.value)
    if save.stem == "demo-game":
        bought = [e for _i, e in variables if e.key.startswith("extra.")]
        assert bought  # (the demo's sides bought extras)
        monkeypatch.setattr(extras_table, "extras", lambda: pytest.fail("the extras table read to tell"))
        assert all(ruleset.has_words(game.state, e.key, e.value) for e in bought)
    game.close()


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("platoon.regulars", 1, True),
        ("platoon.regulars", 0, False),  # a phrase with no words for this value
        ("marker.regulars.2", "fake", True),
        ("marker.regulars.2", "nothing", False),
        ("extra.regulars.sniper", 1, True),
        ("moved.cole", 1, False),  # no phrase
    ],
)
def test_breaking_news_tells_whether_a_variable_has_words_as_its_phrase_would(key, value, said):
    from core.rulesets.breaking_news import narration

    assert narration.says_var(key, value) is said
    assert (narration.describe_var(key, value) is not None) is said
