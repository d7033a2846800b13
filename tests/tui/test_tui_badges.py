"""Status badges: a ruleset's own statuses get a short label that keeps any count."""

from __future__ import annotations

from tui.badges import badge


def test_a_counting_badge_keeps_its_number():
    assert badge("ready-2").plain == " READ2 "
    assert badge("fired-1").plain == " FIRE1 "
    assert badge("he-3").plain == " HE3 "


def test_other_badges_are_cut_to_four_letters():
    assert badge("immobilised").plain == " IMMO "
    assert badge("A2").plain == " A2 "
    assert badge("hidden").plain == " HID "
