"""Ludonet vehicles, grenades, aircraft and anti-aircraft fire, with exact dice."""

from __future__ import annotations

from contextlib import closing

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ln_support import ludonet_game, play, rolls, to_phase
from playing import refused

from core.language.i18n import plain
from core.language.reader import reading
from core.log import events as ev
from core.log.outcome import DiceNeeded
from core.log.state import TABLE_DICE
from core.refusal import TYPING
from core.rulesets.ludonet import rules
from core.secrets.verify import verify

# --------------------------------------------------------------------- pure rules


def test_the_opposed_roll_by_margin():
    # LN-R041: equal or lower, nothing; 1-2 more, immobilised (a figure wounded); 3+, destroyed
    vehicle = [rules.opposed_result(5 + m, 5, True) for m in range(-2, 5)]
    assert vehicle == ["none", "none", "none", "immobilised", "immobilised", "destroyed", "destroyed"]
    figure = [rules.opposed_result(5 + m, 5, False) for m in range(-2, 5)]
    assert figure == ["none", "none", "none", "wound", "wound", "eliminated", "eliminated"]
    assert rules.immobilised_until(3) == 5


@given(st.integers(1, 6), st.integers(0, 6), st.integers(1, 6), st.integers(0, 6), st.booleans())
def test_a_better_shooter_total_never_does_less_harm(s_face, s_cv, t_face, t_cv, vehicle):
    order = ["none", "immobilised", "destroyed"] if vehicle else ["none", "wound", "eliminated"]
    worse = rules.opposed_result(s_face + s_cv, t_face + t_cv, vehicle)
    better = rules.opposed_result(s_face + s_cv + 1, t_face + t_cv, vehicle)
    assert order.index(better) >= order.index(worse)
    # the face the target needs to come through is exactly the one that leaves no damage
    needed = rules.face_to_come_through(s_face + s_cv, t_cv)
    assert (rules.opposed_result(s_face + s_cv, t_face + t_cv, vehicle) == "none") == (t_face >= needed)


def test_air_and_anti_aircraft_hit_on_five_or_six():
    """Rules: LN-R060, LN-R061, LN-R062."""
    assert [rules.air_hits(f) for f in range(1, 7)] == [False] * 4 + [True] * 2
    assert [rules.aa_hits(f) for f in range(1, 7)] == [False] * 4 + [True] * 2
    assert (rules.passes_allowed(None), rules.passes_allowed(2), rules.passes_allowed(5)) == (3, 2, 3)
    assert rules.passes_allowed(-1) == 0


# -------------------------------------------------------------- line of sight


def test_sight_in_woods_and_indirect_fire(armoured):
    """Rules: LN-R020."""
    assert [rules.seen_in_woods(d, prone=False) for d in (18, 20, 21)] == [True, True, False]
    assert [rules.seen_in_woods(d, prone=True) for d in (12, 13)] == [True, False]
    to_phase(armoured, 1, "fire")
    refused(armoured, "@paras fire smith hans full woods=21", "not seen in the woods at 21 cm", rule="LN-R020")
    refused(armoured, "@paras fire jones hans full prone woods=14", "not seen in the woods at 14 cm", rule="LN-R020")
    play(armoured, "@paras fire smith hans full woods=20 dice=1")
    # a mortar needs no line of sight: the referee, who sees the hidden MG 42, gives its fire
    refused(armoured, "@paras fire mortar mg42 full", "no unit 'mg42'", rule=TYPING)
    facts = play(armoured, "fire mortar mg42 full dice=5,6")
    assert [plain(r.outcome) for r in rolls(facts)] == ["hit", "eliminated"]
    # the paras' own mortar line does not name what they have not seen
    assert plain(rolls(facts)[0].purpose) == "shot at an unseen enemy (beyond half range)"
    assert not any("MG 42 team" in line.text for line in armoured.log_lines("paras"))
    refused(armoured, "fire bren mg42 full", "no line of sight", rule="LN-R020")


# ----------------------------------------------------------------------- vehicles


def test_infantry_at_a_vehicle_uses_the_combat_values(armoured):
    """Rules: LN-R040, LN-R041, LN-R071."""
    to_phase(armoured, 1, "fire")
    # PIAT: expert, within half range: 3+; then 1d6 + 2 against the Panzer's 1d6 + 3
    facts = play(armoured, "@paras fire piat panzer half dice=3,6,2")
    (hit, shooter, target) = rolls(facts)
    assert (hit.target, plain(hit.outcome)) == (3, "hit")
    assert [m.value for m in shooter.mods] == [2] and plain(shooter.outcome) == "total 8"
    assert [m.value for m in target.mods] == [3] and plain(target.outcome) == "total 5 against 8: destroyed"
    assert (target.target, target.total) == (5, True)  # the face that would have come through: 5 + 3 = 8
    assert "damage" not in [plain(r.purpose) for r in rolls(facts)]
    assert armoured.state.units["panzer"].in_play  # simultaneous: it may still fire back
    play(armoured, "@garrison fire panzer sherman full dice=5,3,3")  # 3+3 against 3+4: nothing
    assert not armoured.state.units["sherman"].status
    play(armoured, "next")
    assert plain(armoured.state.units["panzer"].out) == "destroyed"
    log = [line.text for line in armoured.log_lines(role="referee")]
    assert any("wreck of Panzer IV" in t and "cotton wool" in t for t in log)


def test_the_crew_aboard_is_lost_with_its_vehicle(tmp_path, monkeypatch):
    with closing(ludonet_game(tmp_path, monkeypatch, {"aboard.karl": "panzer"})) as game:
        to_phase(game, 1, "fire")
        play(game, "@paras fire sherman panzer half dice=6,6,1", "next")
        assert plain(game.state.units["karl"].out) == "lost with Panzer IV"
        assert game.state.units["max"].in_play


def test_immobilised_for_two_turns(armoured):
    """Rules: LN-R041, LN-AMB-11."""
    to_phase(armoured, 1, "fire")
    play(armoured, "@paras fire sherman panzer full dice=5,4,4")  # 4+4 = 8 against 4+3 = 7: immobilised
    play(armoured, "next")
    panzer = armoured.state.units["panzer"]
    assert panzer.has("immobilised") and armoured.state.vars["immobilised_until.panzer"] == 3
    for turn in (2, 3):
        to_phase(armoured, turn, "move-second")
        refused(armoured, "@garrison move panzer 10", "immobilised", rule="LN-R041")
    to_phase(armoured, 4, "move-second")
    play(armoured, "@garrison move panzer 20")
    refused(armoured, "@garrison move panzer 1", "already moved", rule="LN-R010")


def test_immobilised_vehicle_still_fires(armoured):
    """Rules: LN-AMB-11."""
    to_phase(armoured, 1, "fire")
    play(armoured, "@paras fire sherman panzer full dice=5,4,4", "next")
    to_phase(armoured, 2, "fire")
    facts = play(armoured, "@garrison fire panzer smith full dice=6,6,1")
    assert [plain(r.outcome) for r in rolls(facts)] == ["hit", "total 9", "total 1 against 9: eliminated"]


def test_a_vehicle_shooter_at_a_figure_never_rolls_the_damage_die(armoured):
    """Rules: LN-AMB-10."""
    to_phase(armoured, 1, "fire")
    # Smith has no combat value: 0.  4+3 against 5+0: margin 2, a wound (ruling LN-VS-INFANTRY)
    facts = play(armoured, "@garrison fire panzer smith half dice=4,4,5")
    assert [plain(r.purpose) for r in rolls(facts)] == [
        "shot at Cpl Smith (within half range)",
        "combat value roll against Cpl Smith",
        "combat value roll against Panzer IV, to take no damage",
    ]
    assert plain(rolls(facts)[2].outcome) == "total 5 against 7: wound"
    play(armoured, "next")
    assert armoured.state.units["smith"].has("wounded")


def test_vehicle_moves_and_missing_values(armoured):
    """Rules: LN-R011, LN-AMB-04, LN-AMB-25."""
    to_phase(armoured, 1, "move-first")
    refused(armoured, "@paras move sherman 26", "1 to 25 cm", rule="LN-R011")
    refused(armoured, "@paras move sherman 10 run", "neither runs nor crawls", rule="LN-R011")
    facts = play(armoured, "@paras move sherman 25")
    assert isinstance(facts[0], ev.Moved) and armoured.state.units["sherman"].has("moved")
    play(armoured, "next")
    refused(armoured, "@garrison move lorry 10", r"no move \(stats.move", rule="LN-R011")
    to_phase(armoured, 1, "fire")
    before = armoured.log_length
    refused(armoured, "@paras fire piat lorry half", r"no combat value \(stats.cv", rule="LN-R041")
    assert armoured.log_length == before  # refused before any die was rolled
    # the Sherman moved: -1 to hit
    facts = play(armoured, "@paras fire sherman panzer half dice=5,1,1")
    assert rolls(facts)[0].target == 5


def test_melee_is_between_figures(armoured):
    """Rules: LN-AMB-12."""
    to_phase(armoured, 1, "melee")
    refused(armoured, "@paras melee smith panzer", "not a figure", rule="LN-R050")


# ------------------------------------------------------------------------ grenades


def test_grenade_hits_every_figure_named_inside(armoured):
    """Rules: LN-R038, LN-AMB-08."""
    to_phase(armoured, 1, "fire")
    refused(armoured, "@paras grenade smith half hans", "not allowed for paras|referee", rule="ENG-1")
    refused(armoured, "grenade smith half", "within 3 cm", rule="LN-R038")
    refused(armoured, "grenade smith half hans panzer", "harms figures only", rule="LN-R038")
    # the referee names who is inside, the hidden MG 42 too; grenades are not heavy
    facts = play(armoured, "grenade smith half hans mg42 dice=4,1,5")
    assert [(plain(r.purpose), plain(r.outcome)) for r in rolls(facts)] == [
        ("shot at the spot, a grenade (within half range)", "hit"),
        ("damage, hit by Cpl Smith", "none"),
        ("damage, hit by Cpl Smith", "eliminated"),
    ]
    assert rolls(facts)[0].target == 3  # expert +1, no target modifiers for a spot
    refused(armoured, "@paras fire smith hans half", "already fired", rule="LN-R030")
    play(armoured, "next")
    assert plain(armoured.state.units["mg42"].out) == "eliminated" and armoured.state.units["hans"].in_play


def test_a_grenade_that_misses_does_nothing(armoured):
    """Rules: LN-R038."""
    to_phase(armoured, 1, "fire")
    facts = play(armoured, "grenade jones full kurt otto dice=3")
    assert len(rolls(facts)) == 1 and plain(rolls(facts)[0].outcome) == "miss"
    assert any(isinstance(e, ev.Noted) and "falls wide" in plain(e.text) for e in facts)
    # a hidden thrower's miss stays with his side: the paras never read his name
    play(armoured, "grenade mg42 full smith dice=2")
    assert any("MG 42 team's grenade falls wide" in line.text for line in armoured.log_lines("garrison"))
    assert not any("MG 42 team" in line.text for line in armoured.log_lines("paras"))
    assert not any("MG 42 team" in line.text for line in armoured.log_lines("spectator"))


# ------------------------------------------------------------------------ aircraft


def test_an_aircraft_passes_strikes_and_leaves_after_its_passes(armoured):
    """Rules: LN-R060, LN-R061, LN-AMB-14."""
    assert "typhoon" not in armoured.view("garrison").units  # waiting off the table
    to_phase(armoured, 1, "fire")
    refused(armoured, "strike typhoon hans", "not over the table", rule="LN-R061")
    play(armoured, "pass typhoon")
    assert "typhoon" in armoured.view("garrison").units
    refused(armoured, "pass typhoon", "already over the table", rule="LN-R060")
    refused(armoured, "@garrison fire hans typhoon full", "only anti-aircraft", rule="LN-R062")
    refused(armoured, "@garrison aa hans typhoon", "has no anti-aircraft weapon", rule="LN-R062")
    facts = play(armoured, "@garrison aa flak typhoon dice=4")
    assert (rolls(facts)[0].target, plain(rolls(facts)[0].outcome)) == (5, "miss")
    # the strike, then Hans's damage die, then the Typhoon's and the Panzer's 1d6 + combat value
    facts = play(armoured, "strike typhoon hans panzer dice=5,3,4,2")
    assert [plain(r.outcome) for r in rolls(facts)] == ["hit", "wound", "total 8", "total 5 against 8: destroyed"]
    assert not rolls(facts)[0].mods
    refused(armoured, "strike typhoon fritz", "already attacked", rule="LN-R061")
    play(armoured, "next")
    s = armoured.state
    assert s.units["hans"].has("wounded") and plain(s.units["panzer"].out) == "destroyed"
    assert not s.units["typhoon"].has("overhead") and s.vars["passes.typhoon"] == 1
    to_phase(armoured, 2, "fire")
    play(armoured, "pass typhoon", "strike typhoon fritz dice=1")
    to_phase(armoured, 3, "move-first")
    assert plain(s.units["typhoon"].out).startswith("flew its last pass")  # the scenario allowed it two


def test_anti_aircraft_fire_brings_it_down_before_it_strikes(armoured):
    """Rules: LN-R062, LN-AMB-15."""
    to_phase(armoured, 1, "fire")
    refused(armoured, "@garrison aa flak typhoon", "no unit 'typhoon'", rule=TYPING)  # off the table, unseen
    refused(armoured, "aa flak typhoon", "not over the table", rule="LN-R062")
    play(armoured, "pass typhoon")
    facts = play(armoured, "@garrison aa flak typhoon dice=5")
    assert plain(rolls(facts)[0].outcome) == "hit: shot down"
    assert plain(armoured.state.units["typhoon"].out) == "shot down by anti-aircraft fire"
    refused(armoured, "strike typhoon hans", "out of action", rule="LN-R062")
    refused(armoured, "@garrison fire flak smith full", "already fired", rule="LN-R030")


# ------------------------------------------------------------ the scenario's weapons


WEAPONS = {"weapon.rifle.range": 40, "weapon.MG 42.heavy": 1, "weapon.MG 42.range": 100, "grenade_range": 10}


def test_range_band_from_the_measured_distance():
    """Rules: LN-AMB-06."""
    assert [rules.range_band(d, 40) for d in (1, 20, 21, 40, 41)] == ["half", "half", "full", "full", None]
    assert rules.face_to_come_through(8, 3) == 5 and rules.face_to_cut_down(4, 2) == 3


def test_the_scenario_ranges_decide_the_band(tmp_path, monkeypatch):
    """Rules: LN-R030, LN-AMB-02."""
    with closing(ludonet_game(tmp_path, monkeypatch, WEAPONS)) as game:
        to_phase(game, 1, "fire")
        refused(game, "@paras fire jones kurt range=41", "beyond the 40 cm range of Pte Jones' weapon", rule="LN-R030")
        refused(game, "@paras fire jones kurt", "say half or full, or give the measured distance", rule=TYPING)
        refused(
            game,
            "@paras fire jones kurt range=-3",
            "range must be a distance from 0 to 1000 cm: .*not '-3'",
            rule=TYPING,
        )
        refused(
            game,
            "@paras fire jones kurt half woods=-3",
            "woods must be a distance from 0 to 1000 cm: .*not '-3'",
            rule=TYPING,
        )
        refused(game, "@paras fire jones kurt half range=20", "not both", rule=TYPING)
        refused(
            game, "@paras fire piat kurt range=10", "no range for Pte Hill's weapon", rule="LN-AMB-02"
        )  # a PIAT: the scenario gives no range
        facts = play(game, "@paras fire jones kurt range=20 dice=1")  # half range, inclusive: 3+ for an expert
        assert plain(rolls(facts)[0].purpose) == "shot at Schtz Kurt Bauer (within half range)"
        assert rolls(facts)[0].target == 3
        facts = play(game, "@paras fire wood kurt range=21 dice=1")
        assert rolls(facts)[0].target == 4
        refused(game, "grenade brown range=11 hans", "beyond the 10 cm range of a grenade", rule="LN-R030")
        facts = play(game, "grenade brown range=5 hans dice=6,1")
        assert plain(rolls(facts)[0].purpose).endswith("(within half range)")
        # the scenario calls the MG 42 heavy: +1 damage, though its team has no role
        facts = play(game, "@garrison fire mg42 bren range=60 dice=5,4")
        assert [m.value for m in rolls(facts)[1].mods] == [1] and plain(rolls(facts)[1].outcome) == "eliminated"


def test_the_scenarios_visibility_limits_direct_fire(tmp_path, monkeypatch):
    """Rules: LN-AMB-18."""
    with closing(ludonet_game(tmp_path, monkeypatch, {**WEAPONS, "visibility": 15})) as game:
        to_phase(game, 1, "fire")
        refused(
            game, "@paras fire jones kurt range=16", "16 cm away: the scenario's visibility is 15 cm", rule="LN-R020"
        )
        play(game, "@paras fire jones kurt range=15 dice=1")


def test_the_scenarios_heavy_and_anti_aircraft_weapons(tmp_path, monkeypatch):
    """Rules: LN-AMB-07."""
    with closing(
        ludonet_game(tmp_path, monkeypatch, {"weapon.rifle.heavy": 1, "weapon.MP40.anti_aircraft": 1})
    ) as game:
        to_phase(game, 1, "move-first")
        refused(game, "@paras move jones 6", "1 to 5 cm", rule="LN-R010")
        to_phase(game, 1, "fire")
        play(game, "pass typhoon")
        refused(game, "@garrison aa fritz typhoon", "has no anti-aircraft weapon", rule="LN-R062")
        play(game, "@garrison aa hans typhoon dice=6")
        assert plain(game.state.units["typhoon"].out) == "shot down by anti-aircraft fire"


# -------------------------------------------------------------- support off the table

SUPPORT = {
    "support.mortar": "8 cm mortar behind the farm",
    "support.mortar.side": "garrison",
    "support.mortar.kind": "artillery",
    "support.mortar.ammo": 2,
    "support.stuka": "Stuka",
    "support.stuka.side": "garrison",
    "support.stuka.kind": "aircraft",
    "support.stuka.cv": 3,
}


def test_a_barrage_from_off_the_table(tmp_path, monkeypatch):
    """Rules: LN-AMB-17."""
    with closing(ludonet_game(tmp_path, monkeypatch, SUPPORT)) as game:
        to_phase(game, 1, "fire")
        refused(
            game,
            "barrage nebel smith",
            r"no artillery or aircraft support 'nebel' .*support: mortar, stuka",
            rule="LN-AMB-17",
        )
        refused(game, "barrage mortar", "name the pieces inside the burst", rule="LN-AMB-17")
        refused(
            game, 'barrage call=" "', "name the support first", rule=TYPING
        )  # words, but none of them (found by the fuzzed handlers' test)
        refused(
            game, "barrage mortar sherman", "no combat value", rule="LN-R041"
        )  # artillery without a combat value cannot hit a vehicle
        # 5+, then each figure's damage die with the heavy +1 (ruling LN-BARRAGE)
        facts = play(game, "barrage mortar smith jones dice=5,3,1")
        assert [(plain(r.purpose), plain(r.outcome)) for r in rolls(facts)] == [
            ("8 cm mortar behind the farm (3 cm radius)", "hit"),
            ("damage, hit by 8 cm mortar behind the farm", "wound"),
            ("damage, hit by 8 cm mortar behind the farm", "wound"),
        ]
        assert [m.value for m in rolls(facts)[1].mods] == [1]
        assert "mortar calls its barrage number 1 (ruling LN-BARRAGE)" in [
            line.text for line in game.log_lines(role="referee")
        ]
        refused(game, "barrage mortar brown", "already fired this turn", rule="LN-AMB-17")
        # the Stuka: 5+, unmodified; a vehicle takes the opposed roll against its combat value
        facts = play(game, "barrage stuka sherman dice=6,6,1")
        assert [plain(r.outcome) for r in rolls(facts)] == ["hit", "total 9", "total 5 against 9: destroyed"]
        assert plain(rolls(facts)[1].purpose) == "Stuka: combat value roll against Sherman Firefly"
        to_phase(game, 2, "fire")
        play(game, "barrage mortar brown dice=2")
        to_phase(game, 3, "fire")
        refused(game, "barrage mortar brown", "nothing left: 2 used", rule="LN-AMB-17")


def test_the_damage_die_says_who_hit_the_figure_without_naming_a_hidden_firer(armoured):
    """Rules: LN-R035. The damage die is the target's own roll, asked at his seat with table dice:
    its purpose says who hit him (#61), a hidden firer only as the target's side may know him."""
    to_phase(armoured, 1, "fire")
    facts = play(armoured, "@paras fire smith hans full dice=6,2")
    assert [(plain(r.purpose), plain(r.outcome)) for r in rolls(facts)] == [
        ("shot at Uffz Hans Vogt (beyond half range)", "hit"),
        ("damage, hit by Cpl Smith", "wound"),
    ]
    facts = play(armoured, "@garrison fire mg42 jones full dice=6,2")
    assert [plain(r.purpose) for r in rolls(facts)][1] == "damage, hit by an unseen enemy"
    assert not any("MG 42 team" in line.text for line in armoured.log_lines("paras"))


def test_the_damage_prompt_at_the_targets_seat_says_who_hit_him(armoured):
    """With table dice the damage die waits for the target's side (LN-R035): its prompt says who hit him (#61)."""
    to_phase(armoured, 1, "fire")
    armoured.execute("table-dice on", role="referee")
    asked = armoured.submit("fire smith hans full", role="paras", faces=[6])
    assert isinstance(asked, DiceNeeded) and asked.request.side == "garrison"
    assert asked.request.text() == "Uffz Hans Vogt's damage, hit by Cpl Smith: 1d6"
    with reading("it"):
        assert asked.request.text() == "danni (tiro di Cpl Smith) di Uffz Hans Vogt: 1d6"


@pytest.mark.parametrize(
    ("lang", "line", "half"),
    [
        ("en", "barrage mortar half smith", True),
        ("en", "barrage mortar smith half", True),
        ("en", "barrage mortar smith", False),
        ("en", "barrage mortar full smith", False),
        ("it", "sbarramento mortar mezzo smith", True),
        ("it", "sbarramento mortar smith mezzo", True),
        ("it", "sbarramento mortar smith", False),
        ("it", "sbarramento mortar pieno smith", False),
    ],
)
@pytest.mark.parametrize("face", [3, 4, 5])
def test_a_barrage_within_half_range_is_a_keyword_in_either_language(tmp_path, monkeypatch, lang, line, half, face):
    """LN-AMB-17 (ruling LN-BARRAGE): 4+ given ``half`` (Italian ``mezzo``) anywhere in the line,
    5+ without it or given ``full``; the log records the English keyword (#61)."""
    with closing(ludonet_game(tmp_path, monkeypatch, SUPPORT)) as game:
        to_phase(game, 1, "fire")
        with reading(lang):
            done = game.execute(f"{line} dice={face}" + (",1" if face >= (4 if half else 5) else ""), role="referee")
        assert plain(rolls(done.events)[0].outcome) == ("hit" if face >= (4 if half else 5) else "miss")
        recorded = done.events[0].text
        assert ("half" in recorded.split()) == half and "mezzo" not in recorded


def test_a_barrage_offers_half_and_refuses_it_for_an_aircraft(tmp_path, monkeypatch):
    """Ruling LN-BARRAGE: Tab offers the band in the reader's words; an aircraft's pass has none (LN-R061)."""
    with closing(ludonet_game(tmp_path, monkeypatch, SUPPORT)) as game:
        to_phase(game, 1, "fire")
        assert {"half", "full"} <= set(game.complete("barrage mortar smith ", role="referee"))
        with reading("it"):
            assert {"mezzo", "pieno"} <= set(game.complete("sbarramento mortar smith ", role="referee"))
        refused(game, "barrage stuka half smith", "an aircraft's pass is not fired at a range", rule="LN-R061")


def test_a_piece_named_by_the_start_of_its_name_in_a_barrage_is_not_the_band(tmp_path, monkeypatch):
    """Ruling LN-BARRAGE: a word among the pieces is the band only when it is ``half`` or
    ``full`` whole: ``ha`` is Hans, as a piece named by its beginning always was."""
    with closing(ludonet_game(tmp_path, monkeypatch, SUPPORT)) as game:
        to_phase(game, 1, "fire")
        facts = play(game, "barrage mortar smith ha dice=5,1,1")  # 5+: beyond half range
        assert [plain(r.outcome) for r in rolls(facts)][0] == "hit"
        assert [e.unit for e in facts if isinstance(e, ev.Rolled)][1:] == ["smith", "hans"]


# ------------------------------------------------- a roll that cannot fail (issue #77)


@pytest.mark.parametrize(("attacker", "need", "drawn"), [(1, "1+", True), (2, "1+", True), (3, "2+", False)])
def test_at_table_dice_the_targets_roll_is_drawn_when_any_face_comes_through(armoured, attacker, need, drawn):
    """LN-R041, ruling CORE-CERTAIN: the Panzer (3) rolls 1, 2 or 3 against the Sherman (4):
    the Sherman needs 0+, 1+ or 2+ to take no damage.  At 0+ or 1+ any face comes through and
    nothing else is read of it: the game draws it, not asked, and says so (a need of 0+
    reads 1+); at 2+ the face is the player's, asked as before.  Either verifies."""
    to_phase(armoured, 1, "fire")
    play(armoured, f"{TABLE_DICE} on")
    line = "fire panzer sherman full"
    out = armoured.submit(line, role="garrison", faces=[6, attacker])
    if not drawn:
        assert isinstance(out, DiceNeeded) and f"needs {need}" in out.request.text()
        out = armoured.submit(line, role="garrison", faces=[6, attacker, 1])  # 1 + 4 against 3 + 3: a margin of 1
    facts = out.events
    target = rolls(facts)[2]
    notes = [plain(e.text) for e in facts if isinstance(e, ev.Noted)]
    assert target.manual is not drawn and target.check == ev.AtLeast(attacker - 1)
    assert target.target == max(1, attacker - 1)
    assert (notes == [f"no need to roll: any face succeeds (needs {need})"]) is drawn
    assert ("hit-immobilise" in armoured.state.units["sherman"].status) is not drawn  # (LN-R021: at the phase end)
    assert verify(armoured.path).ok
