"""Support fire as bought: the calls read the side's EXTRAS from its books (Improved
Support Fire +1, Rules of Engagement −1 and a 6 for speculative fire, Mortars for an
Irregular side), and what a side did not buy is refused, to the referee too (§8.4,
§8.6, Extras; rulings BN-C-SUPPORT-EXTRAS)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bn_combat_support import HERE, rolls, to_activation
from playing import names, refused

import core.rulesets.breaking_news as bn
from core.game import Game
from core.log.views import REFEREE
from core.ruleset import Refused

RANGE = (HERE / "scenarios" / "combat.toml").read_text()
MORTARS = "[extras.irregulars]\nmortars = true\n"


def _range(tmp_path: Path, monkeypatch, extras: str) -> Game:
    """The combat test range with the EXTRAS given in place of its own, at turn 1's initiative."""
    assert MORTARS in RANGE
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "combat.toml").write_text(RANGE.replace(MORTARS, extras))
    monkeypatch.setattr(bn, "SCENARIOS", folder)
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=7)
    g.execute("scenario combat", role=REFEREE)
    g.execute("next", role=REFEREE)
    return g


def test_improved_support_fire_adds_one_when_bought(tmp_path, monkeypatch):
    """§8.4, Extras: Improved Support Fire: +1 on the call: a 3 is granted, landing next turn.

    Digest: ART-1, EXT-4.
    """
    g = _range(tmp_path, monkeypatch, "[extras.regulars]\nimproved_support_fire = true\n")
    out = g.execute("call-support dice=3", role="regulars")
    (call,) = rolls(out)
    assert [(m.label, m.value) for m in call.mods] == [("Improved Support Fire", 1)]
    assert call.outcome == "granted" and g.state.vars["support.regulars"] == "artillery@2"


def test_without_extras_a_regular_call_needs_a_plain_four(tmp_path, monkeypatch):
    """§8.4: with no extra a call needs 4: a 3 is refused.

    Digest: ART-1.
    """
    g = _range(tmp_path, monkeypatch, "")
    (call,) = rolls(g.execute("call-support dice=3", role="regulars"))
    assert (call.target, call.mods, call.outcome) == (4, (), "refused")


def test_rules_of_engagement_take_one_off_the_call_and_ask_a_six_for_speculative_fire(tmp_path, monkeypatch):
    """Extras: Rules of Engagement: −1 on the call (a 4 is refused) and speculative fire's permission
    needs 6 (a 5 is not allowed).

    Digest: ART-1, EXT-7, SPEC-1.
    """
    g = _range(tmp_path, monkeypatch, "[extras.regulars]\nrules_of_engagement = true\n")
    (call,) = rolls(g.execute("call-support dice=4", role="regulars"))
    assert [(m.label, m.value) for m in call.mods] == [("Rules of Engagement", -1)]
    assert call.outcome == "refused"
    to_activation(g, "regulars")
    out = g.execute("speculative m4 range=45 permission dice=5", role=REFEREE)
    (permission,) = rolls(out)
    assert (permission.target, permission.outcome) == (6, "not allowed")


def test_irregulars_without_mortars_have_no_support_fire(tmp_path, monkeypatch):
    """Extras: Mortars: Irregulars that did not buy them have no support fire at all, whoever asks.

    Digest: AMB-34, MORT-3.
    """
    g = _range(tmp_path, monkeypatch, "")
    refused(
        g,
        "@irregulars call-support mortar dice=6",
        "Militia bought no Mortars: no off-table mortar to call",
        rule="MORT-3",
    )
    with pytest.raises(
        Refused, match="^Militia are Irregulars without the Mortars extra: they have no support fire"
    ) as no:
        g.execute("call-support dice=6", role="irregulars")
    names(no.value, "MORT-3")
    refused(
        g, "call-support mortar side=irregulars dice=6", "bought no Mortars", rule="MORT-3"
    )  # the referee cannot grant it either
    assert "support.irregulars" not in g.state.vars


def test_an_irregular_sides_support_fire_is_its_mortar(tmp_path, monkeypatch):
    """Extras: Mortars: an Irregular side's support fire is its mortar, called on 5+: a 5 is granted.

    Digest: EXT-5, MORT-3.
    """
    g = _range(tmp_path, monkeypatch, MORTARS)
    refused(
        g,
        "@irregulars call-support dice=6",
        "the support fire of Militia is their mortar: call-support mortar",
        rule="MORT-3",
    )
    (call,) = rolls(g.execute("call-support mortar dice=5", role="irregulars"))
    assert (call.target, call.outcome) == (5, "granted")
