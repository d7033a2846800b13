"""Bassa Intensità damage (A.12) pinned exactly: each modifier with its words, value and
section as the log shows them, the penetration row of every calibre at its edges, and
the armour a vehicle's roles give (issue #33: these tests kill the mutants that survived)."""

from __future__ import annotations

import pytest

from core.language.i18n import plain
from core.log.state import Unit
from core.rulesets.bassa_intensita.rules import damage
from core.rulesets.bassa_intensita.tables import weapons

W = weapons()


def _said(mods) -> list[tuple[str, int, str]]:
    return [(plain(m.label), m.value, m.rule) for m in mods]


def test_the_modifiers_of_a_hit_on_a_vehicle_as_the_log_shows_them():
    assert _said(damage.unarmoured_mods(W["mg"])) == [("hit by a machine gun", 1, "A.12")]
    assert _said(damage.unarmoured_mods(W["rpg"])) == [("hit by a grenade or rocket", 2, "A.12")]
    assert _said(damage.unarmoured_mods(W["gun-77"])) == [("hit by a gun, mortar or autocannon", 4, "A.12")]
    assert _said(damage.unarmoured_mods(W["rifle"])) == [] and _said(damage.unarmoured_mods(None)) == []
    assert _said(damage.armoured_mods(indirect=True)) == [("indirect mortar or artillery fire", -4, "A.12")]
    assert _said(damage.armoured_mods(indirect=False)) == []


def test_the_chance_to_penetrate_with_its_row_and_modifiers():
    chance, mods = damage.penetration_chance("tank-gun-99", "tank", ["flank", "hightech-armour"])
    assert chance == 6 + 2 - 2
    assert _said(mods) == [
        ("tank gun under 99 mm", 6, "BI-R130"),
        ("hit on the flank or rear", 2, "BI-R131"),
        ("high-tech armour", -2, "BI-R131"),
    ]
    chance, mods = damage.penetration_chance("at-rocket", "other", ["advanced-armour"])
    assert (chance, _said(mods)) == (7, [("anti-tank rocket", 8, "BI-R130"), ("advanced armour", -1, "BI-R131")])


@pytest.mark.parametrize(
    ("gun_mm", "recoilless", "row"),
    [
        (0, False, "tank-gun-99"),  # no calibre given: the weapon's own row
        (99, False, "tank-gun-99"),
        (100, False, "tank-gun-100"),
        (116, False, "tank-gun-100"),
        (117, False, "tank-gun-116"),
        (0, True, "recoilless-99"),
        (99, True, "recoilless-99"),
        (100, True, "recoilless-100"),
    ],
)
def test_a_guns_penetration_row_by_its_calibre(gun_mm, recoilless, row):
    assert damage.penetration_row(W["gun-77"], gun_mm, recoilless) == row


def test_a_weapon_that_is_no_gun_keeps_its_row_whatever_the_calibre():
    assert damage.penetration_row(W["rpg"], 120, True) == "at-rocket"
    assert damage.penetration_row(W["rifle"], 0) == ""


@pytest.mark.parametrize(
    ("roles", "flank", "ids"),
    [
        ((), False, []),
        ((), True, ["flank"]),
        (("advanced-armour",), False, ["advanced-armour"]),
        (("hightech-armour",), True, ["flank", "hightech-armour"]),
        (("advanced-armour", "hightech-armour"), False, ["hightech-armour"]),  # the better armour counts
    ],
)
def test_the_armour_a_vehicles_roles_give(roles, flank, ids):
    vehicle = Unit(id="t", name="T-72", side="red", kind="vehicle", roles=roles)
    assert damage.penetration_mod_ids(vehicle, flank) == ids
