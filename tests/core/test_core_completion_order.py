# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""The order Tab offers things in, for a referee playing a real ruleset: the figures a
fire command would refuse whatever follows come after the others (``CommandSpec.
figure_check``), and an empty line offers the phase's main commands in the order its
rules give them (``Phase.commands``), then its others, then those of any phase."""

from __future__ import annotations

import re

import pytest
from coretests_support import demo  # noqa: F401  (a fixture)
from playing import names
from registry_walk import RULESETS

from core.game import Game
from core.game.builtins import builtin_commands
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.ruleset import Refused

# ------------------------------------------------------- figures a command refuses


def test_breaking_news_fire_offers_the_unarmed_the_placed_and_who_fired_last(demo):
    """§5.0, §8.0: the militia's civilians carry no weapon and Faysal waits off the table
    (§4.2): ``fire`` refuses them whatever follows; Aden, once he fired, too."""
    demo.execute("next", role=REFEREE)  # the set-up as it stands
    demo.execute("next dice=1,1,6,6", role=REFEREE)  # the militia win the initiative
    assert (demo.state.phase, demo.state.active_side) == ("activation", "irregulars")
    militia = ["aden", "ahmed", "bashir", "dahir", "egal", "faysal", "civ1", "civ2"]
    assert [c for c in demo.complete("fire ", "irregulars") if c in militia] == militia
    demo.execute("fire aden rossi range=30 dice=1", role="irregulars")  # a miss
    assert demo.state.units["aden"].has("fired")
    assert [c for c in demo.complete("fire ", "irregulars") if c in militia] == [
        "ahmed",
        "bashir",
        "dahir",
        "egal",
        "aden",  # fired this turn (§5.0: one action)
        "faysal",  # off the table
        "civ1",  # no weapon
        "civ2",
    ]
    # The referee: the active side's able firers, then the rest of the active side, then
    # the other side, which only reacts (§5.0).
    offered = demo.complete("fire ", role="referee")
    assert offered[:8] == ["ahmed", "bashir", "dahir", "egal", "aden", "faysal", "civ1", "civ2"]
    assert offered[8:15] == ["rossi", "bianchi", "conti", "greco", "marino", "ferri", "lupo"]


def test_breaking_news_fire_refuses_the_unarmed_in_the_same_words(demo):
    """The order comes from the check the command makes: a civilian is refused so,
    whatever weapon is named (once refused as "carries ; which is 'AR'?")."""
    demo.execute("next", role=REFEREE)
    demo.execute("next dice=1,1,6,6", role=REFEREE)
    with pytest.raises(Refused, match=f"^{re.escape(demo.state.units['civ1'].name)} carries no weapon$") as no:
        demo.execute("fire civ1 rossi range=30 weapon=AR", role="irregulars")
    names(no.value, "FIRE-1")


def _bassa_convoy(tmp_path) -> Game:
    game = Game.new(tmp_path / "bi.ft", "bassa-intensita", seed=11)
    game.execute("scenario convoy", role=REFEREE)
    game.execute("next dice=5,2", role=REFEREE)  # the convoy wins the initiative and moves first
    return game


def test_bassa_intensita_fire_offers_the_tier_firing_now_and_not_the_unarmed_first(tmp_path):
    """BI-R061: in the Regulars' fire only Regular men fire; the truck carries no weapon of
    the direct-fire table (A.9): both refused whatever follows, so offered last."""
    game = _bassa_convoy(tmp_path)
    while game.state.phase != "fire-regular":
        game.execute("next", role=REFEREE)
    assert game.complete("fire ", role="referee")[:8] == [
        "russo",
        "abdi",
        "puma",
        "truck",
        "gatti",
        "pinna",
        "farah",
        "hassan",
    ]
    assert game.state.units["truck"].cls == "regular" and not game.state.units["truck"].weapons
    # In the convoy's movement the militia fire at movers (BI-R050); the convoy may not.
    game = _bassa_convoy(tmp_path / "again")
    game.execute("next", role=REFEREE)
    assert (game.state.phase, game.state.active_side) == ("move-first", "convoy")
    assert game.complete("fire ", role="referee")[:8] == [
        "abdi",
        "farah",
        "hassan",
        "puma",
        "truck",
        "gatti",
        "pinna",
        "russo",
    ]
    game.close()


def test_linea_di_tiro_offers_pieces_with_no_attack_of_the_kind_or_fleeing_last(tmp_path):
    """LT-R050: the rifles have no anti-tank attack; LT-R051: a fleeing piece fires not."""
    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=3)
    game.execute("scenario demo", role=REFEREE)
    game.execute("next", role=REFEREE)
    assert game.state.active_side == "us"
    assert game.complete("at ", role="referee")[:7] == [
        "sherman1",
        "sherman2",
        "bazooka",
        "panzer",
        "pak",
        "grenadiers",
        "gis",
    ]
    game.execute("mark sherman2 retreating", role=REFEREE)
    assert game.complete("mg ", role="referee")[:7] == [
        "sherman1",
        "gis",
        "bazooka",
        "panzer",
        "pak",
        "grenadiers",
        "sherman2",
    ]
    game.close()


def test_ludonet_offers_who_has_fired_this_turn_last(tmp_path):
    """Ruling LN-ONE-SHOT: a figure fires once a turn."""
    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=3)
    game.execute("scenario demo", role=REFEREE)
    while game.state.phase != "fire":
        game.execute("next", role=REFEREE)
    game.execute("fire smith hans half dice=1", role=REFEREE)  # a miss
    paras = ["jones", "brown", "bren", "wood"]
    garrison = ["hans", "fritz", "kurt", "mg42", "otto"]
    assert game.complete("fire ", role="referee")[:10] == [*paras, *garrison, "smith"]
    game.close()


def test_the_referees_targets_are_the_enemies_of_a_firer_named_by_a_word_of_his_name(tmp_path):
    """``fire evans `` (#48): L/Cpl Evans' id is ``bren``; the firer was looked up by id alone,
    so Tab offered his own section (and himself) before the garrison he may shoot at."""
    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=3)
    game.execute("scenario demo", role=REFEREE)
    while game.state.phase != "fire":
        game.execute("next", role=REFEREE)
    garrison = ["hans", "fritz", "kurt", "mg42", "otto"]
    assert game.complete("fire bren ", role="referee")[:5] == garrison  # by his id, as before
    assert game.complete("fire evans ", role="referee")[:5] == garrison
    assert game.complete("fire l/cpl ", role="referee")[:5] == garrison
    game.close()


# ------------------------------------------------------- an empty line


def test_an_empty_line_offers_the_movement_phase_as_its_rules_order_it(tmp_path):
    """A.5.1: the players move, throw smoke, observe at the phase's end, and the other
    side fires at movers; then the phase's other commands, then those of any phase,
    each alphabetically, then the rest."""
    game = _bassa_convoy(tmp_path)
    game.execute("next", role=REFEREE)
    assert game.state.phase == "move-first"
    offered = game.complete("", role="referee")
    phase = ["move", "smoke", "observe", "fire", "aa", "dismount", "hover", "land", "mount", "screened"]
    assert offered[: len(phase)] == phase
    anytime = sorted(s.name for s in game.commands if not s.phases)
    assert offered[len(phase) : len(phase) + len(anytime)] == anytime
    assert offered[len(phase) + len(anytime) :] == sorted(
        s.name for s in game.commands if s.phases and "move-first" not in s.phases
    )
    assert game.complete("m", role="referee") == ["move", "mount", "mark", "mine", "morale", "motivation"]
    # A side is offered its own in the same order, not the referee's alone (observe, screened).
    assert game.complete("", "convoy")[:8] == ["move", "smoke", "fire", "aa", "dismount", "hover", "land", "mount"]
    game.close()


def test_each_ruleset_offers_its_phases_main_commands_first(demo, tmp_path):
    demo.execute("next", role=REFEREE)
    demo.execute("next dice=1,1,6,6", role=REFEREE)
    assert demo.complete("", role="referee")[:6] == ["activate", "civilians", "move", "fire", "covering", "embark"]
    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=3)
    game.execute("scenario demo", role=REFEREE)
    game.execute("next", role=REFEREE)
    assert game.complete("", role="referee")[:6] == ["activate", "unitmove", "move", "at", "mg", "barrage"]
    game.close()
    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=3)
    game.execute("scenario demo", role=REFEREE)
    while game.state.phase != "fire":
        game.execute("next", role=REFEREE)
    assert game.complete("", role="referee")[:6] == ["fire", "barrage", "pass", "strike", "aa", "grenade"]
    game.close()


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_phase_names_only_its_own_commands_each_once(ruleset_id):
    """``Phase.commands`` cannot drift from the commands: each it names is made for it."""
    ruleset = get_ruleset(ruleset_id)
    specs = {s.name: s for s in [*ruleset.commands(), *builtin_commands(ruleset)]}
    for phase in ruleset.phases:
        assert len(set(phase.commands)) == len(phase.commands), phase.id
        for name in phase.commands:
            assert name in specs and phase.id in specs[name].phases, (phase.id, name)
