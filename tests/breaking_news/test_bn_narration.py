"""Breaking News bookkeeping reads as words in the log, not as key = value."""

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

    from core import events as ev
    from core.game import Game

    game = Game.open(Path(__file__).parents[2] / "saves" / "demo-game.ft", writable=False)
    counters = [line.text for line in game.log_lines() if isinstance(line.event, ev.VarSet)]
    assert counters and not [text for text in counters if " = " in text]
