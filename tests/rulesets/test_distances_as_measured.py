"""Distances as measured in every ruleset (issue 10, ruling CORE-DISTANCE): a reading
with a fraction, or in inches, reaches each rule exactly, so a band's edge falls where
the book puts it and not where rounding would."""

from __future__ import annotations

import pytest

from core.commands import distance
from core.rulesets.bassa_intensita import rules as bi
from core.rulesets.bassa_intensita.tables import weapons
from core.rulesets.linea_di_tiro.rules import assault, spotting
from core.rulesets.ludonet import rules as ln


def cm(word: str):
    return distance(word, "range", 0, 1000)


@pytest.mark.parametrize(("word", "band"), [("12.5", "half"), ("12.51", "full"), ("25", "full"), ("25.01", None)])
def test_ludonet_half_and_full_range_compare_the_exact_distance(word, band):
    """LN-R030 (LN-AMB-06): half range inclusive; a 25 cm weapon's half is 12.5 cm."""
    assert ln.range_band(cm(word), 25) == band


@pytest.mark.parametrize(("word", "seen"), [("20", True), ("20.01", False), ("7.87in", True), ("7.88in", False)])
def test_ludonet_woods_sight_compares_the_exact_distance(word, seen):
    """LN-R020: a figure standing in woods is seen up to 20 cm (7.87 in is 19.9898 cm)."""
    assert ln.seen_in_woods(cm(word), prone=False) is seen


@pytest.mark.parametrize(
    ("word", "band"), [("20", "short"), ("20.5", "normal"), ("40", "normal"), ("40.01", "long"), ("47.25in", None)]
)
def test_bassa_intensita_bands_compare_the_exact_distance(word, band):
    """BI-R075, BI-AMB-06: a rifle's bands reach 20, 40 and 120 cm, limits included (47.25 in
    is 120.015 cm)."""
    assert bi.range_band(weapons()["rifle"], cm(word)) == band


@pytest.mark.parametrize(("word", "why"), [("5", "adjacent"), ("5.5", ""), ("2in", ""), ("1.9in", "adjacent")])
def test_linea_di_tiro_escort_compares_the_exact_distance(word, why):
    """LT-R101: a tank with friendly infantry within 5 cm cannot be assaulted (2 in is 5.08 cm)."""
    refusal = assault.can_assault_tank(True, cm(word))
    assert why in refusal if why else refusal == ""


def test_linea_di_tiro_spotting_compares_the_exact_distance():
    """LT-R032: spotted within the distance, the distance itself included."""
    assert spotting.spotted(cm("7.5"), 7.5) and not spotting.spotted(cm("7.51"), 7.5)
