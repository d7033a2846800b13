"""Sides by name in Breaking News' own commands, Tab offering only the sides a command
takes now, and a referee's hint that works when typed (#48)."""

from __future__ import annotations

from bn_campaign_support import events, run
from playing import refused

from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING


def test_morale_of_a_side_named_by_a_word_of_its_name(demo):
    """§12.0: the militia lost Aden (a leader, counted twice): 2 to reach; 1,1,1 fails."""
    run(demo, "next", "next dice=6,6,1,1", "out aden killed by regulars", "next")
    out = demo.execute("morale somali dice=1,1,1", role=REFEREE)
    (rolled,) = events(out, ev.Rolled)
    assert (rolled.side, rolled.roll.faces, rolled.roll.target, rolled.roll.outcome) == (
        "irregulars",
        (1, 1, 1),
        2,
        "failed",
    )


def test_tab_offers_only_the_sides_with_a_morale_test_due(demo):
    run(demo, "next", "next dice=6,6,1,1", "out aden killed by regulars", "next")
    assert demo.complete("morale ", "referee") == ["irregulars"]
    assert demo.complete("morale ", "irregulars") == ["irregulars"]
    assert demo.complete("morale ", "regulars") == []  # his own has nothing due, the other's is not his
    assert demo.complete("morale som", "referee") == ["irregulars"]  # by a word of its name
    demo.execute("morale irregulars dice=6,6,6", role=REFEREE)
    assert demo.complete("morale ", "referee") == []  # tested


def test_tab_offers_only_the_sides_that_may_plant(demo):
    run(demo, "objectives irregulars 1 2 3")
    assert demo.complete("plant 4 side=", "referee") == ["side=irregulars"]  # the Bersaglieri are Regulars


def test_plant_without_a_side_hints_a_line_that_works(demo):
    """Extras: Explosives: the militia's fake markers are 4 and 5; the hint names the side
    that may plant and a marker it may plant under, and typed it plants."""
    run(demo, "objectives irregulars 1 2 3")
    refused(demo, "plant 4", r"^name the side: plant 4 side=irregulars$", rule=TYPING)
    refused(
        demo, "plant 3", r"^name the side: plant 4 side=irregulars$", rule=TYPING
    )  # 3 is a secondary objective: the first free fake instead
    demo.execute("plant 4 side=irregulars", role=REFEREE)
    refused(
        demo, "plant 4 remote", r"^name the side: plant 5 remote side=irregulars$", rule=TYPING
    )  # 4 has its IED now
