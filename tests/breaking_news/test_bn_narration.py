"""Breaking News bookkeeping reads as words in the log, not as key = value."""

from playing import refused

from core.log.views import REFEREE
from core.rulesets.breaking_news.narration import describe_var


def test_counters_read_as_words():
    assert describe_var("extra.regulars.motivation", 1) == "regulars bought Motivation"
    assert describe_var("first_fire", "irregulars") == "irregulars fired first"
    assert describe_var("initiative_penalty.regulars", 2) == "regulars' initiative penalty is now -2"
    assert describe_var("initiative_penalty.regulars", 0) == "regulars' initiative penalty is gone"
    assert describe_var("taken.irregulars.4", "regulars") == "regulars took irregulars' marker 4"
    assert describe_var("ambush.irregulars", 0) == "irregulars' ambush bonus used"
    assert describe_var("ied.militia.2", "spent") == "militia's IED 2: spent"
    assert describe_var("secret.wound.m4", 4) == "m4's wound is fatal in turn 4"
    assert describe_var("secret.wound.m4", 0) == "m4's wound no longer counts down"


def test_an_unknown_key_falls_back_to_the_plain_form():
    assert describe_var("something.new", 3) is None


def test_the_recorded_demo_has_no_bare_counters():
    from pathlib import Path

    from core.game import Game
    from core.log import events as ev

    game = Game.open(Path(__file__).parents[2] / "saves" / "demo-game.ft", writable=False)
    counters = [line.text for line in game.log_lines(role="referee") if isinstance(line.event, ev.VarSet)]
    assert counters and not [text for text in counters if " = " in text]


def test_each_phrase_is_tried_only_on_keys_that_start_with_its_literal_head_as_if_all_were_tried():
    import re

    from core.rulesets.breaking_news import narration
    from core.rulesets.breaking_news.words import DOMAIN

    def every_phrase_tried(key, value):  # what describe_var did before it skipped any
        for pattern, phrase in narration._PHRASES:
            m = re.fullmatch(pattern, key)
            if m:
                words = phrase(m, value)
                return None if words is None else DOMAIN.render(words)
        return None

    keys = set()
    for pattern, _phrase in narration._PHRASES:
        head = pattern.partition("(")[0]
        assert re.fullmatch(r"(?:[A-Za-z0-9_-]|\\\.)*", head), pattern  # a literal, but for its escaped dots
        if "(" not in pattern:
            assert narration.literal_head(pattern) == head.replace("\\.", "."), pattern
        filled = re.sub(r"\(\?P<\w+>[^)]*\)", "2", pattern).replace("\\.", ".").replace("\\d+", "2")
        keys |= {filled, filled + ".more", narration.literal_head(pattern), narration.literal_head(pattern) + "x"}
    keys |= {"", "x", "secret.", "secret.lost.", "extra.a.b.c", "marker.a.b"}

    def outcome(describe, key, value):
        try:
            return describe(key, value)
        except ValueError as e:  # a value its phrase cannot take (an "action" that is no number): the same
            return type(e)

    for key in sorted(keys):
        for value in (0, 1, 2, "main", "fake", "spent", "regulars"):
            shown = outcome(narration.describe_var, key, value)
            assert shown == outcome(every_phrase_tried, key, value), (key, value)


def test_the_action_counter_starts_again_each_turn(tmp_path):
    """§5.0, §8.2 (#48): the log numbers the actions of this turn's activation, from 1 each turn;
    the count a reaction is keyed by goes on all game, so a man who reacted in turn 1 may react
    to the first action of turn 2."""
    from core.game import Game

    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=7, clock=lambda: 0)
    for line in ("scenario demo", "next", "next dice=6,6,1,1"):  # turn 1: the Bersaglieri act
        game.execute(line, role=REFEREE)
    game.execute("move rossi 5", role="regulars")
    game.execute("move conti 5", role="regulars")
    assert describe_var("action", game.state.vars["action"]) == "action 2 of this activation"
    game.execute("react-dodge ahmed", role="irregulars")
    for line in ("next", "next", "next dice=6,6,1,1"):  # the end of turn 1, turn 2's initiative
        game.execute(line, role=REFEREE)
    assert game.state.turn == 2 and game.state.active_side == "regulars"
    game.execute("move greco 5", role="regulars")
    assert game.state.vars["action"] == "3:2:greco:1"
    assert describe_var("action", game.state.vars["action"]) == "action 1 of this activation"
    game.execute("react-dodge ahmed", role="irregulars")  # action 3, not the 2 he answered


def test_a_reaction_is_said_by_the_action_number_the_log_gives_it(tmp_path):
    """§8.2 (issue #91): in turn 2 the log said "action 1 of this activation", then "Ahmed Noor has
    reacted to action 3", its number all game long; it is the turn's, as the line before it, and
    the count a reaction is keyed by still goes on all game: he may answer the next action, not
    this one again.  An older save's bare number reads as it was."""
    from core.game import Game

    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=7, clock=lambda: 0)
    for line in ("scenario demo", "next", "next dice=6,6,1,1"):
        game.execute(line, role=REFEREE)
    game.execute("move rossi 5", role="regulars")
    game.execute("move conti 5", role="regulars")
    game.execute("react-dodge ahmed", role="irregulars")
    for line in ("next", "next", "next dice=6,6,1,1"):
        game.execute(line, role=REFEREE)
    out = game.execute("move greco 5", role="regulars")
    assert "action 1 of this activation" in out.lines
    out = game.execute("react-dodge ahmed", role="irregulars")
    assert "Ahmed Noor has reacted to action 1" in out.lines, out.lines
    refused(game, "@irregulars react-dodge ahmed", "already reacted", rule="OPP-4")
    game.execute("move marino 5", role="regulars")  # action 2 of this activation: a new one to answer
    game.execute("react-dodge ahmed", role="irregulars")
    assert describe_var("secret.reacted.ahmed", 4) == "ahmed has reacted to action 4"


def test_an_older_saves_action_counter_reads_as_it_was():
    assert describe_var("action", "5:2:rossi") == "action 5 of this activation"
    assert describe_var("action", 4) == "action 4 of this activation"


def test_the_men_a_fire_struck_are_said_hit_by_the_action_as_the_log_numbers_it(tmp_path):
    """§8.2 (#48): in turn 2 the log said "action 1 of this activation", then "hit by action 3,
    may still answer it": the fire's number all game long.  It is the turn's, as the line
    before it; the count a reaction is keyed by goes on all game, as before."""
    from core.game import Game

    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=7, clock=lambda: 0)
    for line in ("scenario demo", "next", "next dice=6,6,1,1"):  # turn 1: the Bersaglieri act
        game.execute(line, role=REFEREE)
    game.execute("move rossi 5", role="regulars")
    game.execute("move conti 5", role="regulars")
    for line in ("next", "next", "next dice=6,6,1,1"):  # the end of turn 1, turn 2's initiative
        game.execute(line, role=REFEREE)
    assert game.state.turn == 2 and game.state.active_side == "regulars"
    game.execute("fire bianchi ahmed range=40 dice=6,5,1,1,1,1", role="regulars")  # hits, a failed save
    texts = [line.text for line in game.log_lines(role="referee")][-4:]
    assert "action 1 of this activation" in texts
    assert "hit by action 1, may still answer it: Ahmed Noor" in texts, texts
    assert describe_var("struck", "3:ahmed") == "hit by action 3, may still answer it: ahmed"  # an older save
