"""Which rule a reference names (``core.explain.rulesmap.cited``) and what ``why`` reads of it
(``core.explain.why``): ids as written, a ruling's rules, a section's, an engine rule, TYPING."""

from __future__ import annotations

from core.explain.rulesmap import cited
from core.explain.why import reasons, roll_rules
from core.log import events as ev
from core.refusal import TYPING
from core.registry import get_ruleset

LN = get_ruleset("ludonet")
BN = get_ruleset("breaking-news")


def test_a_reference_names_its_ids_else_its_rulings_rules_else_its_sections():
    rmap = LN.rules_map()
    assert cited(rmap, "LN-R010, LN-R011") == ("LN-R010", "LN-R011")
    assert cited(rmap, "ruling LN-BARRAGE") == ("LN-AMB-17",)  # the map's row that takes that ruling
    assert cited(BN.rules_map(), "§8.2")[:6] == ("OPP-1", "OPP-2", "OPP-3", "OPP-4", "OPP-5", "OPP-6")
    assert set(cited(get_ruleset("bassa-intensita").rules_map(), "A.12")) >= {"BI-R110", "BI-R141"}  # A.12.x
    assert cited(rmap, "ENG-3") == ("ENG-3",)  # the engine's rules beside every map
    assert cited(rmap, "no rule here") == ()


def test_reasons_give_each_rule_once_with_its_row_and_keep_typing():
    said = reasons(LN, ["LN-R030", "LN-R030", "ZZ-1", TYPING, "ENG-1"])
    assert [r and r.id for r in said] == ["LN-R030", None, "ENG-1"]  # None: TYPING, no rule
    assert said[0] == LN.rules_map().get("LN-R030") and said[0].ruling == "LN-ONE-SHOT"
    assert said[2] is not None and said[2].ruling == "CORE-ROLES" and said[2].says.startswith("The referee gives")


def test_a_roll_names_its_rule_and_its_modifiers_rules():
    roll = ev.Roll("shot", (4,), mods=(ev.Mod("moved", -1, "LN-R031"),), rule="LN-R030")
    assert roll_rules(LN, roll) == ("LN-R030", "LN-R031")
