"""The result as data (issue #74): the end fact holds the winner's side id, or a draw,
and each side's score (ruling CORE-RESULT-DATA); a save from before reads as it did.

Each ruleset's ending is tested where its game ends, with its dice: Breaking News in
tests/breaking_news/campaign/test_bn_campaign_victory.py and test_bn_campaign_turn.py,
tests/audit/test_audit_bn_s13_s14.py; Bassa Intensità, Linea di Tiro and Ludonet in
tests/rulesets/; the test rulesets in test_fifth_ruleset.py and test_sixth_ruleset.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest
from recorded import SAVES
from test_core_verify_facts import failure, rewrite

from core.game import Game
from core.language.i18n import CORE_DOMAIN, plain
from core.language.reader import reading
from core.log import events as ev
from core.log.narrate import describe, result_of
from core.log.state import GameState, Side, apply_in_place
from core.report.account import rerolled, summary
from core.report.build import build
from tui.main import main as fireteam

#: The recorded Linea di Tiro game as saved before the end fact held the result as data
#: (saves/linea-di-tiro-game.ft at commit 80aab933, written by Fireteam 0.1.0).
BEFORE = Path(__file__).resolve().parent / "saves" / "linea-di-tiro-before-result.ft"
WORDS = (
    "US 30th Infantry win: two half-squads hold the far bank and the rearguard is destroyed "
    "(US 30th Infantry lost 0 of 4; Rearguard lost 2 of 2; after 15 cards)"
)


def test_an_end_from_before_the_result_as_data_reads_and_verifies_as_before(capsys):
    game = Game.open(BEFORE, writable=False)
    end = game.log_lines(role="referee")[-1]
    assert isinstance(end.event, ev.GameEnded) and end.text == f"Game over: {WORDS}"
    assert (end.event.winner, end.event.draw, end.event.scores) == ("", False, {})
    assert plain(game.state.result) == WORDS and game.state.phase == "ended"
    # neither a winner nor a draw: the result is known in words only
    assert (game.state.winner, game.state.draw, game.state.scores) == ("", False, {})
    game.close()
    # its end is checked by its words: the rules now write the winner too, and that is no forgery
    assert fireteam(["verify", str(BEFORE)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("each gives the facts recorded")


def test_the_recorded_game_ends_with_its_winner_and_scores():
    """LT-AMB-32 (ruling LT-END): the referee's `result us ...`; the Rearguard lost both its pieces."""
    end = Game.open(SAVES / "linea-di-tiro-game.ft", writable=False).log_lines(role="referee")[-1].event
    assert isinstance(end, ev.GameEnded) and plain(end.result) == WORDS
    assert (end.winner, end.draw, end.scores) == ("us", False, {"us": 0, "german": 2})


def _edit_end(tmp_path: Path, **fields) -> Path:
    save = tmp_path / "lt.ft"
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", save)

    def edit(events):
        at = next(i for i, e in enumerate(events) if type(e) is ev.GameEnded)
        events[at] = msgspec.structs.replace(events[at], **fields)
        return events

    rewrite(save, edit)
    return save


def test_an_edited_winner_or_score_fails_verify(tmp_path, capsys):
    for fields, shown in (
        ({"winner": "german"}, '"winner":"german"'),
        ({"scores": {"us": 0, "german": 1}}, '"german":1'),
        # this version wrote it: an end stripped of its data is no end from before the data
        ({"winner": "", "scores": {}}, '"winner":"us"'),
    ):
        line = failure(capsys, _edit_end(tmp_path, **fields))
        assert line.startswith("command #53 at step ") and "(result us " in line and shown in line


def test_the_fold_takes_of_an_end_only_what_agrees_with_the_table():
    """A save is hostile: an end naming no side of the game, or a winner beside a draw, is no
    result as data; scores of no side are left out; the words stand as written."""
    sides = {"a": Side(id="a", name="A"), "b": Side(id="b", name="B")}

    def folded(end: ev.GameEnded) -> GameState:
        state = GameState(sides=dict(sides))
        apply_in_place(state, [end])
        return state

    s = folded(ev.GameEnded(result="over", winner="ghost", scores={"a": 1, "ghost": 9}))
    assert (s.result, s.phase, s.winner, s.draw, s.scores) == ("over", "ended", "", False, {"a": 1})
    s = folded(ev.GameEnded(result="over", winner="a", draw=True))
    assert (s.winner, s.draw) == ("", False)
    s = folded(ev.GameEnded(result="over", winner="b", scores={"a": 3, "b": 2}))
    assert (s.winner, s.draw, s.scores) == ("b", False, {"a": 3, "b": 2})
    s = folded(ev.GameEnded(result="over", draw=True))
    assert (s.winner, s.draw) == ("", True)


def test_an_end_fact_says_its_data_on_disk_only_when_it_has_some():
    """Defaults are left out (``omit_defaults``): a save from before and a new end without a
    winner encode alike; a new one with them reads back equal."""
    assert msgspec.json.encode(ev.GameEnded(result="over")) == b'{"t":"end","result":"over"}'
    end = ev.GameEnded(result="over", winner="a", scores={"a": 0, "b": 5})
    assert msgspec.json.decode(msgspec.json.encode(end), type=ev.AnyEvent) == end
    too_big = b'{"t":"end","result":"over","scores":{"a":9007199254740992}}'
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(too_big, type=ev.AnyEvent)


def test_every_reader_is_told_who_won_by_the_data_not_the_words():
    """The words say one thing and the data another (a hand-made end): the log's line, the panes'
    result (``result_of``) and the report's say the data's winner and scores first; with no data,
    the words alone, as before."""
    state = GameState(sides={"a": Side(id="a", name="Alpha"), "b": Side(id="b", name="Bravo")})
    end = ev.GameEnded(result="Alpha win", winner="b", scores={"a": 7, "b": 3})
    apply_in_place(state, [end])
    assert result_of(state, CORE_DOMAIN) == "Bravo won (Alpha 7, Bravo 3) — Alpha win"
    said = describe(end, sides={"a": "Alpha", "b": "Bravo"})
    assert said == "Game over: Bravo won (Alpha 7, Bravo 3) — Alpha win"
    drawn = ev.GameEnded(result="Alpha win", draw=True)
    assert describe(drawn, sides={"a": "Alpha", "b": "Bravo"}) == "Game over: a draw — Alpha win"
    assert describe(ev.GameEnded(result="Alpha win"), sides={"a": "Alpha"}) == "Game over: Alpha win"
    with reading("it"):
        assert result_of(state, CORE_DOMAIN) == "Bravo ha vinto (Alpha 7, Bravo 3) — Alpha win"


def test_the_report_says_the_recorded_winner(tmp_path):
    """Ludonet's recorded game: the referee's result (LN-END) is the report's, in its summary."""
    report = build(Game.open(SAVES / "ludonet-game.ft", writable=False), role="referee", rerolls=0)
    assert (report.facts.winner, report.facts.draw) == ("german", False)
    (line,) = [s for s in summary(report) if s.startswith("Result: ")]
    assert line.startswith("Result: Kampfgruppe von Luck won (Fife and Forfar Yeomanry 5, Kampfgruppe von Luck 2) — ")


def test_the_rerolls_set_the_recorded_winner_beside_them():
    """The re-rolls' paragraph says who won this game as its end records it, the referee's result."""
    report = build(Game.open(SAVES / "ludonet-game.ft", writable=False), role="referee", rerolls=2, seed=1)
    assert "In this game, Kampfgruppe von Luck won." in rerolled(report)


def test_replay_json_and_log_json_carry_the_winner_the_draw_and_the_scores(capsys):
    """`fireteam replay --json` and `log --json` give the end fact's data as data (issue #91,
    ruling CORE-RESULT-DATA): the recorded Linea di Tiro game, `result us ...` (LT-END), the
    Rearguard having lost both its pieces; before its end, no winner, no draw, no scores; a save
    from before the data, none."""
    save = str(SAVES / "linea-di-tiro-game.ft")
    assert fireteam(["replay", save, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["winner"], state["draw"], state["scores"]) == ("us", False, {"us": 0, "german": 2})
    assert fireteam(["replay", save, "--json", "--step", "5"]) == 0
    early = json.loads(capsys.readouterr().out)
    assert (early["winner"], early["draw"], early["scores"]) == ("", False, {})
    assert fireteam(["log", save, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    (end,) = [r for r in rows if r["kind"] == "GameEnded"]
    assert (end["winner"], end["draw"], end["scores"]) == ("us", False, {"us": 0, "german": 2})
    assert all("winner" not in r for r in rows if r["kind"] != "GameEnded")  # only the end holds a result
    assert fireteam(["log", str(BEFORE), "--json"]) == 0
    (old,) = [r for r in json.loads(capsys.readouterr().out) if r["kind"] == "GameEnded"]
    assert (old["winner"], old["draw"], old["scores"]) == ("", False, {})
