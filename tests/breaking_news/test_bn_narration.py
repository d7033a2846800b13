"""Breaking News bookkeeping reads as words in the log, not as key = value."""

from core.rulesets.breaking_news.narration import describe_var


def test_counters_read_as_words():
    assert describe_var("extra.regulars.motivation", 1) == "regulars bought Motivation"
    assert describe_var("first_fire", "irregulars") == "irregulars fired first"
    assert describe_var("initiative_penalty.regulars", 2) == "regulars's initiative penalty is now -2"
    assert describe_var("taken.irregulars.4", "regulars") == "regulars took irregulars's marker 4"
    assert describe_var("ambush.irregulars", 0) == "irregulars' ambush bonus used"


def test_an_unknown_key_falls_back_to_the_plain_form():
    assert describe_var("something.new", 3) is None


def test_the_recorded_demo_has_no_bare_counters():
    from pathlib import Path

    from core import events as ev
    from core.game import Game

    game = Game.open(Path(__file__).parents[2] / "saves" / "demo-game.ft", writable=False)
    counters = [line.text for line in game.log_lines() if isinstance(line.event, ev.VarSet)]
    assert counters and not [text for text in counters if " = " in text]
