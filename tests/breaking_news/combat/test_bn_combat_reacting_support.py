"""Support fire and explosives are not actions of the active player's figures: the
reacting player fires the mortar that arrives for him, sets off his own IED and
names who is under its template during the enemy's activation (§8.4, §8.5, §9.1,
Extras: Mortars and Explosives; rulings BN-C-REACTING-SUPPORT)."""

from __future__ import annotations

import pytest
from bn_combat_support import at_initiative, rolls, to_activation
from playing import names, refused

from core.game import Game
from core.language.i18n import plain
from core.log.views import REFEREE
from core.ruleset import Refused


def test_the_reacting_player_fires_his_mortar_and_names_who_is_under_it(tmp_path, monkeypatch):
    g = at_initiative(tmp_path, "combat", monkeypatch=monkeypatch)
    g.execute("call-support mortar dice=5", role="irregulars")
    to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    g.execute("next dice=6,6,1,1", role=REFEREE)  # turn 2: the mortar arrives; the regulars win the initiative
    assert g.state.active_side == "regulars" and g.state.vars["mortar-ready.irregulars"] == 2
    refused(g, "@irregulars fire kalash sarge range=30", "you may only react", rule="ACT-2")  # his men still only react
    out = g.execute("mortar range=60 dice=5", role="irregulars")
    assert rolls(out)[0].target == 5 and rolls(out)[0].outcome == "on target"
    out = g.execute("blast sarge m4 source=mortar dice=4,1", role="irregulars")
    sarge, m4 = rolls(out)
    assert (sarge.target, sarge.outcome) == (3, "saved: suppressed")  # R2 saves 3+
    assert plain(g.state.units["m4"].out) == "killed by irregulars"
    assert "suppressed" in g.state.units["sarge"].status


def _demo_with_an_ied(tmp_path) -> Game:
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=7)
    g.execute("scenario demo", role=REFEREE)
    g.execute("plant 4", role="irregulars")
    g.execute("next", role=REFEREE)  # the set-up as it stands
    to_activation(g, "regulars")
    return g


def test_the_reacting_player_sets_off_his_own_ied_only(tmp_path):
    """Extras: Explosives: the reacting militia set off their own IED as Rossi walks up; the regulars
    cannot set it off.

    Digest: EXT-9.
    """
    g = _demo_with_an_ied(tmp_path)
    g.execute("move rossi 12 run", role="regulars")  # he walks up to marker 4
    with pytest.raises(Refused, match="regulars planted no IED at marker irregulars.4") as no:
        g.execute("ied irregulars.4 dice=6", role="regulars")  # not his charge to set off
    names(no.value, "EXT-9")
    refused(
        g, "@irregulars ied 1 dice=6", "irregulars planted no IED at marker 1", rule="EXT-9"
    )  # a marker with no charge under it
    out = g.execute("ied 4 dice=3", role="irregulars")
    assert rolls(out)[0].outcome == "explodes" and g.state.vars["ied.irregulars.4"] == "spent"
    refused(g, "@irregulars ied 4 dice=6", "already gone off", rule="EXT-9")
    out = g.execute("blast rossi conti source=ied dice=3,2", role="irregulars")
    rossi, conti = rolls(out)
    assert (rossi.target, rossi.outcome) == (3, "saved: suppressed")  # IED 3+, the leader's +1 (§9.1)
    assert (conti.target, conti.outcome) == (3, "failed: out of action")
    assert plain(g.state.units["conti"].out) == "killed by irregulars"
    g.execute("next", role="regulars")  # the phase ends: the spent charge is shown to all
    assert g.view("regulars").secrets["ied.irregulars.4"].revealed
