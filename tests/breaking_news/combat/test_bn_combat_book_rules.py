"""Rules of the book that no test named before the rules map (issue #27), each through
the commands with exact dice: given these faces, this outcome."""

from __future__ import annotations

import pytest
from bn_combat_support import facts, new_game, next_turn, rolls, status, to_activation
from playing import names, refused

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused


def test_act_3_a_group_move_is_one_action_each_reacting_man_answers_once(rng):
    """§6.4 (digest ACT-3): Emfour and Spc Saw, of one fire team, move 10 cm together: one
    action.  Kalash may fire at one of them (AR at 30 cm: 4, +1 as Irr2: needs 5, a 2
    misses) but not at the other as well; Rocket, another reacting man, has his own
    reaction to the same move (RPG at 20 cm: 4, a 3 misses).

    Digest: AMB-17, FIRE-13, OPP-6, PLT-3.
    """
    out = rng.execute("move m4 10 saw", role="regulars")
    assert [m.unit for m in facts(out, ev.Moved)] == ["m4", "saw"]
    assert rng.state.vars["action"] == "1:1:m4,saw:1"  # action 1, of turn 1, by Emfour and Spc Saw, 1st of the turn
    assert {"moved"} <= set(status(rng, "m4")) and {"moved"} <= set(status(rng, "saw"))
    shot = rolls(rng.execute("react-fire kalash m4 range=30 dice=2", role="irregulars"))[0]
    assert (shot.target, shot.outcome) == (5, "miss")
    refused(
        rng, "@irregulars react-fire kalash saw range=30 dice=6", "already reacted to this enemy action", rule="OPP-1"
    )
    shot = rolls(rng.execute("react-fire rocket saw range=20 dice=3", role="irregulars"))[0]
    assert (shot.target, shot.outcome) == (4, "miss")


def test_mov_1_each_action_its_distance_and_its_fire(rng):
    """§6.0 (digest MOV-1): a cautious move of 5 cm fires freely: Emfour's AR at 30 cm
    needs its plain 4 (a 3 misses); a move and shoot of 15 cm fires with +1: Spc Saw's
    LMG at 20 cm needs 4 + 1 = 5; a run goes 25 cm at most, a move and shoot 15.

    Digest: AMB-10.
    """
    rng.execute("move m4 5 cautious", role="regulars")
    shot = rolls(rng.execute("fire m4 kalash range=30 dice=3", role="regulars"))[0]
    assert (shot.target, shot.mods, shot.outcome) == (4, (), "miss")
    rng.execute("move saw 15 shoot", role="regulars")
    shot = rolls(rng.execute("fire saw kalash range=20 dice=1,1,1,1", role="regulars"))[0]
    assert (shot.target, [m.label for m in shot.mods]) == (5, ["firer moved"])
    refused(rng, "@regulars move sarge 26 run", "25 cm", rule="MOV-1")
    refused(rng, "@regulars move rook 16 shoot", "15 cm", rule="MOV-1")


def test_fire_1_fire_follows_the_move_and_ends_the_action(rng):
    """§6.1, §8.0 (digest FIRE-1): a figure fires after its movement, at an enemy it can
    see.  Sgt Stone fires first (AR at 30 cm needs 4: a 1 misses): he may not move after
    it; hidden Shadow cannot be his target."""
    shot = rolls(rng.execute("fire sarge kalash range=30 aimed dice=1", role="regulars"))[0]
    assert (shot.target, shot.outcome) == (4, "miss")
    refused(rng, "@regulars move sarge 5", "already acted", rule="MOV-1")
    refused(rng, "fire m4 shadow range=30 aimed dice=1", "hidden: only speculative fire", rule="MOV-7")


def test_opp_2_opportunity_fire_answers_the_enemy_who_moves_or_fires(rng):
    """§8.2 (digest OPP-2): opportunity fire answers "any enemy model or unit that moves
    or fires".  Before the regulars have done anything there is nothing to answer; when
    Emfour moves, Kalash may fire at him (AR at 30 cm: 4, +1 as Irr2: a 5 hits, and
    Emfour's 3+ save with a 4 leaves him suppressed) but not at Sgt Stone, who did
    nothing; in the next turn's activation that move is no longer there to answer."""
    refused(rng, "@irregulars react-fire kalash sarge range=30 dice=5,4", "nothing to answer yet", rule="OPP-2")
    rng.execute("move m4 10", role="regulars")
    refused(
        rng, "@irregulars react-fire kalash sarge range=30 dice=5,4", "Sgt Stone did not move or fire", rule="OPP-2"
    )
    shot, save = rolls(rng.execute("react-fire kalash m4 range=30 dice=5,4", role="irregulars"))
    assert (shot.target, shot.outcome, save.outcome) == (5, "1 hit", "saved: suppressed")
    next_turn(rng, "regulars")
    refused(rng, "@irregulars react-fire rocket m4 range=20 dice=4,4", "nothing to answer yet", rule="OPP-2")


def test_opp_3_a_sniper_answers_past_50_cm(tmp_path, monkeypatch):
    """§8.2 (digest OPP-3): opportunity fire at men reaches 50 cm, but not for a sniper.
    Kalash moves; Sgt Stone's AR at 80 cm is refused; Ghost's sniper rifle at 80 cm needs
    4, −1 as Special Forces: a 3 hits, and Kalash (5+) saves with a 6: suppressed."""
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch)
    g.execute("move kalash 10", role="irregulars")
    refused(g, "@regulars react-fire sarge kalash range=80 dice=6,6", "reaches 50 cm", rule="OPP-3")
    shot, save = rolls(g.execute("react-fire ghost kalash range=80 dice=3,6", role="regulars"))
    assert (shot.target, [m.label for m in shot.mods], shot.outcome) == (3, ["Special Forces"], "1 hit")
    assert save.outcome == "saved: suppressed" and "suppressed" in status(g, "kalash")


def test_cov_1_covering_fire_is_an_action_with_5_cm_of_movement(rng):
    """§5.0 d), §8.3 (digest COV-1): a man giving covering fire may move 5 cm and gives
    it instead of firing at a target.  Spc Saw moves 5 cm and covers the yard at 20 cm:
    LMG 5 + Elite 3 = 8; he may not fire at Kalash as well; 6 cm is too far to cover."""
    rng.execute("move saw 5 covering", role="regulars")
    rng.execute("covering saw area=yard range=20", role="regulars")
    assert rng.state.vars["covering"] == "yard=8"
    refused(
        rng, "@regulars fire saw kalash range=20 dice=6,6,6,6", "already fired|does not fire at a target", rule="T-03"
    )
    refused(rng, "@regulars move m4 6 covering", "5 cm", rule="MOV-1")


def test_diff_56_civilians_in_irregular_fire_only_in_the_english_draft(tmp_path, monkeypatch):
    """Extras: Civilians, §8.7 (digest DIFF-56, FF-1): friendly fire applies to civilians;
    the Italian draft only "if it comes from the regular forces".  Kalash (Irr2) fires
    at Sgt Stone past the Shopkeeper: his AR at 30 cm needs 4 + 1, a 2 misses, and in
    the English draft the Shopkeeper saves (4+, +1 friendly fire) with a 3.  In the
    Italian draft the Shopkeeper cannot be named in Kalash's line of fire, but can in Sgt
    Stone's: his miss (a 1) is saved with a 3 as well."""
    english = tmp_path / "en"
    english.mkdir()
    g = new_game(english, "combat", active="irregulars", monkeypatch=monkeypatch)
    shot, civ = rolls(g.execute("fire kalash sarge range=30 line=civ dice=2,3", role="irregulars"))
    assert (shot.target, shot.outcome) == (5, "miss")
    assert (civ.target, [m.label for m in civ.mods], civ.outcome) == (4, ["friendly fire"], "saved: suppressed")
    italian = tmp_path / "it"
    italian.mkdir()
    g = new_game(italian, "combat", variant="it-2009-12-09", active="irregulars", monkeypatch=monkeypatch)
    refused(
        g, "@irregulars fire kalash sarge range=30 line=civ dice=2,3", "only when regular forces fire", rule="DIFF-56"
    )
    next_turn(g, "regulars")
    shot, civ = rolls(g.execute("fire sarge kalash range=30 line=civ dice=1,3", role="regulars"))
    assert (shot.outcome, civ.target, civ.outcome) == ("miss", 4, "saved: suppressed")


def test_sup_2_a_suppressed_man_in_the_open_counts_as_in_cover_past_25_cm(rng):
    """§10.0 (digest SUP-2, ruling BN-C-PROTECTION): a suppressed man in the open counts as
    behind cover against fire from more than 25 cm; only a man already in cover drops
    out of sight.  Suppressed Kalash at 30 cm: Emfour's AR needs 4 + 1 = 5 (a 5 hits)
    and Kalash saves with +1 (5+: a 4 passes); he is in the open, so he stays in sight.
    At 20 cm Spc Saw's LMG needs its plain 4, and Kalash's 4 fails.

    Digest: AMB-48.
    """
    rng.execute("mark kalash suppressed", role=REFEREE)
    shot, save = rolls(rng.execute("fire m4 kalash range=30 dice=5,4", role="regulars"))
    assert (shot.target, [m.label for m in shot.mods]) == (5, ["suppressed target, in cover past 25 cm"])
    assert ([m.label for m in save.mods], save.outcome) == (["behind protection"], "saved: suppressed")
    assert "hidden" not in status(rng, "kalash")
    shot, save = rolls(rng.execute("fire saw kalash range=20 dice=4,1,1,1,4", role="regulars"))
    assert (shot.target, shot.mods, save.mods, save.outcome) == (4, (), (), "failed: out of action")


def test_mel_4_a_lone_man_who_beats_a_group_kills_the_one_its_owner_names(rng):
    """§11.0 (digest MEL-4, ruling BN-C-MELEE-TIE): when one man beats a group, one of the
    group dies, its owner's choice.  Rook (Melee 1) and Doc (2) charge Omar (Irr1, 3):
    1 + 3 = 4 against 6 + 3 = 9; their player gives up Doc; Rook lives.

    Digest: AMB-50.
    """
    out = rng.execute("melee rook omar with=doc casualty=doc dice=1,6", role="regulars")
    assert [r.outcome for r in rolls(out)] == ["total 4", "total 9"]
    assert [e.unit for e in facts(out, ev.UnitOut)] == ["doc"]
    assert not rng.state.units["rook"].out


def test_wnd_3_a_comrade_carries_a_wounded_man_10_less_1d6(tmp_path, monkeypatch):
    """§9.3 (digest WND-3): a comrade carries a wounded man 10 − 1d6 cm, his action.
    Emfour fails his save (a 1) and lives 3 turns (a 3); Sgt Stone rolls 4: both move 6 cm."""
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    g.execute("blast m4 source=grenade by=irregulars dice=1,3", role=REFEREE)
    out = g.execute("carry sarge m4 dice=4", role="regulars")
    assert [(m.unit, m.cm) for m in facts(out, ev.Moved)] == [("sarge", 6), ("m4", 6)]
    refused(g, "@regulars move sarge 5", "already acted", rule="MOV-1")


def test_ext_8_counter_intelligence_lowers_the_enemys_roll(tmp_path, monkeypatch):
    """Extras: Intelligence (digest EXT-8, ruling BN-OBJ-INTEL): one roll a game, at or under
    the level less the enemy's own Intelligence.  The Rangers hold level 2, the militia
    level 1: the militia cannot succeed (1 − 2 < 1); the Rangers need 2 − 1 = 1, a 2 fails,
    and the roll is spent."""
    from bn_combat_support import HERE

    import core.rulesets.breaking_news as bn

    text = (HERE / "scenarios" / "combat.toml").read_text(encoding="utf-8")
    text = text.replace(
        "[extras.irregulars]\nmortars = true\n",
        "[extras.irregulars]\nmortars = true\nintelligence = 1\n[extras.regulars]\nintelligence = 2\n",
    )
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "combat.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(bn, "SCENARIOS", folder)
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=7)
    g.execute("scenario combat", role=REFEREE)
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    refused(g, "@irregulars intelligence dice=1", "no roll can succeed", rule="EXT-8")
    (roll,) = rolls(g.execute("intelligence dice=2", role="regulars"))
    assert (roll.target, [(m.label, m.value) for m in roll.mods], roll.outcome) == (
        1,
        [("counter-intelligence", -1)],
        "failure",
    )
    refused(g, "@regulars intelligence dice=1", "one Intelligence roll per game", rule="EXT-8")


def test_mor_6_a_retreating_man_reacts_as_normal(rng):
    """§12.0 (digest MOR-6, ruling BN-C-SUPPRESSED-REACT): figures retreating after a failed
    morale test react as normal, though they start the turn suppressed; a man merely
    suppressed does not.  Emfour moves: Kalash, retreating, fires back (AR at 30 cm:
    4 + 1, a 2 misses); Kid, suppressed, cannot."""
    run_lines = ("mark kalash suppressed", "mark kalash retreating", "mark kid suppressed")
    for line in run_lines:
        rng.execute(line, role=REFEREE)
    rng.execute("move m4 10", role="regulars")
    (shot,) = rolls(rng.execute("react-fire kalash m4 range=30 dice=2", role="irregulars"))
    assert (shot.target, shot.outcome) == (5, "miss")
    refused(rng, "@irregulars react-fire kid m4 range=20 dice=2,2,2", "suppressed and cannot react", rule="SUP-2")


def test_amb_16_a_dodge_adds_to_the_cover_the_man_stood_in(rng):
    """§6.5, §8.0 (digest AMB-16, ruling BN-C-DODGE): modifiers are cumulative: Kalash,
    behind cover, dodges: Emfour's AR at 30 cm needs 4 + 1 + 1 = 6.  A 6 hits; Kalash
    saves with +1 behind protection (a 6): suppressed, and out of sight."""
    rng.execute("react-dodge kalash 2", role="irregulars")
    shot, save = rolls(rng.execute("fire m4 kalash range=30 cover dice=6,6", role="regulars"))
    assert (shot.target, sorted(m.label for m in shot.mods)) == (6, ["target behind cover", "target dodges"])
    assert save.outcome == "saved: suppressed" and {"suppressed", "hidden"} <= set(status(rng, "kalash"))


def test_amb_24_a_shot_needing_1_or_less_hits_on_any_die(rng):
    """§8.0 (digest AMB-24, ruling BN-C-OVERFLOW): the literal reading: Ghost (Special
    Forces) fires his sniper rifle at 20 cm: 2 − 1 = 1, so even a 1 hits; Kalash saves on
    a 6."""
    shot, save = rolls(rng.execute("fire ghost kalash range=20 dice=1,6", role="regulars"))
    assert (shot.target, shot.outcome, save.outcome) == (1, "1 hit", "saved: suppressed")


def test_amb_22_and_amb_26_bursts_and_the_special_forces_minus_one():
    """§8.0 (digest AMB-22, AMB-26; rulings BN-C-BURST, BN-C-SF-FIRE): the SMG and the machine
    guns fire bursts only; the Special Forces −1 is on every shot that is not a burst,
    an RPG's or a grenade's too, never on a burst."""
    from core.rulesets.breaking_news.rules import fire
    from core.rulesets.breaking_news.tables.combat import weapons

    w = weapons()
    for weapon in ("SMG", "LMG", "MMG", "HMG"):
        with pytest.raises(Refused, match="fires bursts only") as no:
            fire.base_shot(w[weapon], "aimed", 20)
        names(no.value, "FIRE-3")
    sf = fire.ShotFacts(firer_class="R1")
    for weapon in ("RPG", "GRENADE", "AR"):
        assert [m.value for m in fire.modifiers(w[weapon], "aimed", 8, sf)] == [-1], weapon
    assert fire.modifiers(w["AR"], "burst", 8, sf) == ()
    assert fire.modifiers(w["LMG"], "burst", 8, sf) == ()


def test_amb_11_a_hand_grenade_is_thrown_after_a_move_and_shoot(rng):
    """§6.1 (digest AMB-11, ruling BN-C-LMG): hand grenades go with the light weapons:
    Emfour moves 15 cm and throws one 8 cm with the moving +1: 4 + 1 = 5; a 5 hits Kalash,
    who fails his save with a 2."""
    rng.execute("move m4 15 shoot", role="regulars")
    shot, save = rolls(rng.execute("fire m4 kalash range=8 weapon=GRENADE dice=5,2", role="regulars"))
    assert (shot.target, [m.label for m in shot.mods], save.outcome) == (5, ["firer moved"], "failed: out of action")
