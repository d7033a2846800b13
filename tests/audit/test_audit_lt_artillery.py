"""Audit of Linea di Tiro's artillery (C.10) and jokers (C.2) from the book alone: only
a company command or a named piece calls it, with a face card's unit move; it opens
when a joker comes out, continues for a face card spent on it, and attacks every unit
in its square on the MG/HE table, hidden ones too."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from audit_lt_table import add, game_with, has, inject, out, outcome, play, refused, said

from core.log import events as ev

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets"))
from linea_di_tiro_support import artillery  # noqa: E402

CARDS = ["3♣", "Q♠", "Joker", "4♣", "K♣", "5♣"]


def _game(tmp_path, he: int = 4):
    g = game_with(tmp_path, CARDS)
    add(g, "captain", "german", "rifles", team="HQ", roles=("company-command",))
    add(g, "private", "german", "rifles", team="HQ2")
    add(g, "a", "us", "rifles", team="X")
    add(g, "b", "us", "rifles", team="X2", status=("hidden",))
    inject(g, *artillery("german", he))
    return g


@pytest.mark.audits("LT-R090", "LT-AMB-07")
def test_only_a_company_command_calls_it_and_only_with_a_face_card(tmp_path):
    g = _game(tmp_path)
    play(g, "next")  # 3♣: a number card
    refused(g, "@german unitmove call-artillery by=captain on the farm", rule="LT-AMB-07")
    play(g, "next")  # Q♠: a face card
    refused(g, "@german unitmove call-artillery by=private on the farm", rule="LT-R090")
    play(g, "@german unitmove call-artillery by=captain on the farm")
    refused(g, "@german activate captain A5", rule="LT-R010")  # the face card is spent on the unit move, not a platoon


@pytest.mark.audits("LT-R090", "LT-AMB-27", "LT-AMB-05", "LT-AMB-28")
def test_it_opens_on_the_joker_and_attacks_each_unit_in_the_square_once(tmp_path):
    g = _game(tmp_path)
    play(g, "next", "next", "@german unitmove call-artillery by=captain on the farm")
    refused(g, "barrage german a defence=moving-open dice=6", rule="LT-R090")  # not before the joker
    play(g, "next")  # the joker
    facts = play(g, "barrage german a defence=moving-open dice=3")  # HE 4 - 0 = +4; 3: I
    assert outcome(facts) == "modified total 3, column +4: I: immobilised, loses its ready attacks"
    assert has(g, "a", "immobilised")
    refused(g, "barrage german a defence=moving-open dice=1", rule="LT-R090")  # one attack a unit
    play(g, "barrage german b defence=moving-open dice=2")  # a hidden unit too; 2 at +4: D
    assert out(g, "b")
    play(g, "next")  # 4♣: no artillery unless continued
    refused(g, "barrage german a defence=moving-open dice=6", rule="LT-R090")
    play(g, "next", "@german unitmove continue-artillery")  # K♣: a face card spent on it
    facts = play(g, "barrage german a defence=moving-open dice=3")  # consecutive HE: 4 + 1 - 0 > +4
    assert outcome(facts) == "modified total 3, column >+4: D: destroyed"


@pytest.mark.audits("LT-AMB-05")
def test_a_joker_says_the_scenarios_effect_and_activates_nobody(tmp_path):
    g = _game(tmp_path)
    inject(g, ev.VarSet(key="joker.effect", value="the bridge is blown"))
    play(g, "next", "next")
    facts = play(g, "next")
    assert "the bridge is blown" in said(facts)
    refused(g, "@german activate captain A5", rule="LT-AMB-05")
