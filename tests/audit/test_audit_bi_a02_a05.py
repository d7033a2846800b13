"""The audit of Bassa Intensità A.2-A.5 (dice and rounding, Quality, squads, command
distance, isolation, leaders, the sequence of play and the golden rule), written from the
book ("DADI", "QUALITÀ", "UNITÀ", "SEQUENZA DI GIOCO") and its digest alone."""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, chances, goto, isolation, man, new_game, notes, outcomes, play, refused, rolls, table
from playing import all_refused

HIT = "hit: roll damage (A.12)"


game = table()


# ------------------------------------------------------------------ A.2 dice


@pytest.mark.audits("BI-R001")
def test_the_dice_are_a_d6_for_initiative_and_a_d10_for_every_check(game):
    """A.2: d6 and d10; the d10 reads 1..10 (a 0 is 10, typed as 10): a 7 is no d6
    face, an 11 no d10 face, and a 10 is the d10's worst face (misses a chance of 4)."""
    refused(game, "next dice=7,1", rule="ENG-5")
    goto(game, "fire-regular", 1)
    refused(game, "fire bruno tariq range=20 dice=11,1", rule="ENG-5")
    facts = play(game, "fire bruno tariq range=20 dice=10,10")
    assert [r.sides for r in rolls(facts, "A.9.4")] == [10, 10]
    assert outcomes(facts, "A.9.4") == ["miss", "miss"]


@pytest.mark.audits("BI-R002", "BI-R003", "BI-AMB-03")
def test_a_half_rounds_up_and_the_chance_is_hit_at_its_value(game):
    """A.2: "all roundings are up": a Veteran's opportunity fire is 5 x 1/2 = 2.5 -> 3;
    success is a roll <= the chance: 3 hits, 4 misses."""
    goto(game, "move-first", 1)
    play(game, "move bruno 5")  # A.7: opportunity fire is at a moving man
    facts = play(game, "@red fire karim bruno range=20 dice=4,3," + KILL)
    assert chances(facts) == [3, 3]
    assert outcomes(facts, "A.9.4") == ["miss", HIT]


@pytest.mark.audits("BI-R003", "BI-AMB-03")
def test_a_chance_of_ten_or_more_never_fails_and_of_zero_never_succeeds(game):
    """BI-R003: a Veteran's Easy action is 2 x 5 = 10: no face can fail it (it is done
    with no roll), while a Regular's (8) is rolled.  A Rabble pistol at long range at a
    prone man: 2 - 1 - 1 = 0: even a 1 misses."""
    goto(game, "fire-veteran", 1)
    facts = play(game, "act vito easy")
    assert rolls(facts) == [] and any("done" in n for n in notes(facts))
    goto(game, "fire-regular", 1)
    facts = play(game, "act bruno easy dice=9")
    assert [r.target for r in rolls(facts, "BI-R066")] == [8] and outcomes(facts, "BI-R066") == ["failed"]
    goto(game, "fire-rabble", 1)
    facts = play(game, "fire rabbi tariq range=20 prone dice=1")
    assert chances(facts) == [0]
    assert outcomes(facts, "A.9.4") == ["miss"]


# ------------------------------------------------------------------ A.3 Quality


@pytest.mark.audits("BI-R010")
@pytest.mark.parametrize(
    ("shooter", "tier", "chance"),
    [("elia", "elite", 6), ("vito", "veteran", 5), ("bruno", "regular", 4), ("remo", "recruit", 3)],
)
def test_each_quality_is_its_base_chance_to_hit(game, shooter, tier, chance):
    """A.3: Elite 6, Veterans 5, Regulars 4, Recruits 3 (1d10 <=), at normal range with no
    other modifier: the chance hits, one more misses."""
    goto(game, f"fire-{tier}", 1)
    facts = play(game, f"fire {shooter} tariq range=20 dice={chance + 1},{chance}" + ("," + KILL))
    assert chances(facts)[:2] == [chance, chance]
    assert outcomes(facts, "A.9.4")[:2] == ["miss", HIT]


@pytest.mark.audits("BI-R010")
def test_rabble_hits_on_two(game):
    """A.3: Rabble 2; a pistol at 8 cm is at normal range (short <= 5, normal <= 10)."""
    goto(game, "fire-rabble", 1)
    facts = play(game, "fire rabbi tariq range=8 dice=3")
    assert chances(facts) == [2]
    assert outcomes(facts, "A.9.4") == ["miss"]


@pytest.mark.audits("BI-R011", "BI-AMB-04")
def test_motivation_moves_the_number_everywhere_but_not_the_tier(game):
    """A.3: the referee's +1 makes a Regular fire at 5 and take his isolation test at 5,
    yet he still fires in the Regulars' tier, not the Veterans'; a -1 makes his fire and
    a Normal action 3."""
    play(game, "motivation bruno 1", "motivation carlo -1")
    goto(game, "fire-veteran", 1)
    refused(game, "fire bruno tariq range=20", rule="BI-R061")
    goto(game, "fire-regular", 1)
    facts = play(game, "fire bruno tariq range=20 isolated dice=5,6,6")
    assert isolation(facts) == [5] and chances(facts) == [5, 5]
    facts = play(game, "fire carlo tariq range=30 dice=4")
    assert chances(facts) == [3]
    play(game, "motivation sam -1")
    facts = play(game, "act sam normal dice=4")
    assert [r.target for r in rolls(facts, "BI-R066")] == [3]


# ------------------------------------------------------------------ A.4 command distance

#: BI-R021: leader ability -> (squad leader cm, section leader cm or None: not allowed)
COMMAND = {
    "elite": (16, 8),
    "veteran": (12, 6),
    "regular": (8, 4),
    "recruit": (6, None),
    "rabble": (4, None),
}
CHANCE = {"elite": 6, "veteran": 5, "regular": 4, "recruit": 3, "rabble": 2}


def _leaders_table(tmp_path, monkeypatch):
    """An Elite squad and an Elite section per leader ability, the ability set apart from
    the men's Quality (BI-R022): an Elite squad may be led by a Rabble leader."""
    extra = []
    for tier, chance in CHANCE.items():
        extra += [
            man(f"sq-{tier}", "blue", "elite", "rifle", team=f"S{tier}", roles=("leader",), ability=chance),
            man(f"m-{tier}", "blue", "elite", "rifle", team=f"S{tier}"),
            man(f"se-{tier}", "blue", "elite", "rifle", team=f"E{tier}", roles=("section-leader",), ability=chance),
            man(f"n-{tier}", "blue", "elite", "rifle", team=f"E{tier}"),
        ]
    return new_game(tmp_path, monkeypatch, extra=tuple(extra))


@pytest.mark.audits("BI-R020", "BI-R021", "BI-R022", "BI-R024", "BI-AMB-06")
@pytest.mark.parametrize("tier", list(COMMAND))
def test_command_distance_by_ability_is_inclusive_at_its_edge(tmp_path, monkeypatch, tier):
    """A.4: each soldier stays within his leader's command distance, by the leader's
    ability (an Elite squad under a leader of any ability, BI-R022).  At the distance
    he is in command (no isolation test); half a cm beyond he is isolated and rolls
    1d10 under his own Quality (Elite 6) before he moves."""
    g = _leaders_table(tmp_path, monkeypatch)
    squad, section = COMMAND[tier]
    goto(g, "move-first", 1)
    assert isolation(play(g, f"move m-{tier} 5 lead={squad}")) == []
    if section is not None:
        assert isolation(play(g, f"move n-{tier} 5 lead={section}")) == []
    goto(g, "move-first", 2)
    facts = play(g, f"move m-{tier} 5 lead={squad + 0.5} dice=6")
    assert isolation(facts) == [6] and g.state.units[f"m-{tier}"].has("moved")
    edge = section if section is not None else 0.5
    facts = play(g, f"move n-{tier} 5 lead={edge + 0.5} dice=7")
    assert isolation(facts) == [6] and g.state.units[f"n-{tier}"].has("balked")


@pytest.mark.audits("BI-R023")
def test_a_regular_sniper_ignores_command_distance_a_recruit_sniper_does_not(game):
    """A.4: snipers of Elite, Veteran or Regular units operate alone; a Recruit unit's
    sniper is an ordinary member (his Recruit leader commands to 6 cm)."""
    goto(game, "move-first", 1)
    assert isolation(play(game, "move nico 5 lead=200")) == []
    assert isolation(play(game, "move rino 5 lead=6")) == []
    goto(game, "move-first", 2)
    assert isolation(play(game, "move rino 5 lead=7 dice=3")) == [3]


@pytest.mark.audits("BI-R024", "BI-AMB-07")
def test_an_isolated_man_who_fails_does_nothing_this_turn_and_may_try_next_turn(game):
    """A.4: before an isolated soldier moves, fires or acts, 1d10 <= his Quality.  A
    Regular (4) fails on 5: no move, no fire, no action this turn; next turn, 4 passes."""
    goto(game, "move-first", 1)
    facts = play(game, "move bruno 10 lead=9 dice=5")
    assert isolation(facts) == [4] and not any(type(e).__name__ == "Moved" for e in facts)
    goto(game, "fire-regular", 1)
    all_refused(game, "fire bruno tariq range=20", "act bruno normal", "aim bruno", match="isolation", rule="BI-R024")
    goto(game, "fire-regular", 2)
    facts = play(game, "fire bruno tariq range=20 lead=9 dice=4,6,6")
    assert isolation(facts) == [4] and chances(facts) == [4, 4]


@pytest.mark.audits("BI-R025", "BI-R026", "BI-AMB-08")
def test_a_combat_vehicle_is_free_of_command_distance_a_truck_is_not(game):
    """A.4: a tank of the squad moves at any distance from the leader; the squad's truck
    follows the radius: 8 cm from a Regular leader is in command, 9 is isolated."""
    goto(game, "move-first", 1)
    assert isolation(play(game, "move tank2 60 lead=300")) == []
    assert isolation(play(game, "move camion 20 lead=8")) == []
    goto(game, "move-first", 2)
    assert isolation(play(game, "move camion 20 lead=9 dice=4")) == [4]
    assert game.state.units["camion"].has("moved")


@pytest.mark.audits("BI-R025", "BI-AMB-08")
def test_a_combat_vehicle_may_be_isolated_for_morale(game):
    """A.4 and A.13.2: a tank that lost its radio is isolated for its morale test (-2):
    a Regular crew passes on 4 + 3 - 2 = 5; with its radio, on 7."""
    play(game, "mark t55 radio-out")
    facts = play(game, "morale t55 m7 dice=1")
    assert [r.target for r in rolls(facts, "A.13.2")] == [5]
    facts = play(game, "morale ural m7 dice=1")
    assert [r.target for r in rolls(facts, "A.13.2")] == [7]


@pytest.mark.audits("BI-R027")
def test_an_armed_transport_follows_the_truck_rules_until_made_a_combat_vehicle(game):
    """A.4: an armed transport follows the radius (9 cm from a Regular leader isolates it);
    with its troops off, declared a combat vehicle, it is free of the radius, always
    isolated for morale (4 + 3 - 2 = 5) and takes back no troops it carried."""
    goto(game, "move-first", 1)
    play(game, "mount bruno puma")
    refused(game, "combat puma", rule="BI-R027")
    goto(game, "move-first", 2)
    play(game, "dismount bruno")
    assert isolation(play(game, "move puma 20 lead=9 dice=4")) == [4]
    play(game, "combat puma")
    goto(game, "move-first", 3)
    assert isolation(play(game, "move puma 20 lead=300")) == []
    refused(game, "mount bruno puma", rule="BI-R027")
    facts = play(game, "morale puma m7 dice=1")
    assert [r.target for r in rolls(facts, "A.13.2")] == [5]


def _to_next_turn(g, faces: str) -> list:
    goto(g, "end")
    return play(g, f"next dice={faces}")


@pytest.mark.audits("BI-R028", "BI-AMB-10")
def test_a_killed_leader_isolates_his_squad_until_replaced_one_level_lower(game):
    """A.4: Sgt (Regular) killed: his men are isolated (Carlo rolls before he fires).  At
    the next turn's start 1d10 <= the squad's Quality (4): a 5 fails, the squad stays
    isolated; next turn a 4 makes a survivor leader with the ability one level lower
    (Recruit: command distance 6 cm, so 7 cm is isolated)."""
    goto(game, "fire-regular", 1)
    play(game, "out sarge")
    facts = play(game, "fire carlo tariq range=30 dice=4,6")
    assert isolation(facts) == [4]
    facts = _to_next_turn(game, "5")
    assert [r.target for r in rolls(facts) if r.sides == 10] == [4]
    goto(game, "fire-regular", 2)
    assert isolation(play(game, "fire carlo tariq range=30 dice=4,6")) == [4]
    facts = _to_next_turn(game, "4")
    leaders = [u for u in game.state.units.values() if u.team == "A" and u.in_play and u.has("leader")]
    assert len(leaders) == 1 and leaders[0].has("ability-recruit")
    rest = [
        u.id
        for u in game.state.units.values()
        if u.team == "A" and u.kind == "man" and u.in_play and not u.has("leader") and "sniper" not in u.roles
    ]
    assert len(rest) == 1
    goto(game, "move-first", 3)
    assert isolation(play(game, f"move {rest[0]} 5 lead=6")) == []
    goto(game, "move-first", 4)
    assert isolation(play(game, f"move {rest[0]} 5 lead=7 dice=1")) == [4]


@pytest.mark.audits("BI-R028", "BI-AMB-10")
def test_a_wounded_leader_still_commands(game):
    """A.4 names only a killed leader: with Sgt wounded, Carlo fires with no isolation test."""
    play(game, "mark sarge wounded")
    goto(game, "fire-regular", 1)
    facts = play(game, "fire carlo tariq range=30 dice=6")
    assert isolation(facts) == [] and chances(facts) == [4]


@pytest.mark.audits("BI-R028", "BI-AMB-09")
def test_a_dead_rabble_leader_is_replaced_by_a_rabble_one(game):
    """A.4: one level lower than Rabble is no level: the new leader is Rabble (4 cm)."""
    play(game, "out marm")
    _to_next_turn(game, "2")
    assert game.state.units["marmo"].has("leader")
    assert not any(game.state.units["marmo"].has(f"ability-{t}") for t in ("elite", "veteran", "regular", "recruit"))


@pytest.mark.audits("BI-R021", "BI-R028", "BI-AMB-09")
def test_a_section_leader_replaced_at_recruit_ability_commands_nobody(game):
    """A.4: a Regular section leader killed is replaced one level lower, Recruit; a Recruit
    may not lead a section (BI-R021), so his men stay isolated even 1 cm from him."""
    play(game, "out rsl")
    _to_next_turn(game, "4")
    leader = next(u for u in game.state.units.values() if u.team == "RS" and u.has("leader"))
    other = "rsn" if leader.id == "rsm" else "rsm"
    goto(game, "move-first", 2)
    assert isolation(play(game, f"move {other} 5 lead=1 dice=1")) == [4]


@pytest.mark.audits("BI-R021", "BI-R028")
def test_a_section_leader_replaced_commands_at_the_section_distance(game):
    """A.4: the Veteran section leader killed is replaced by a Regular one, who leads the
    section: a Regular section leader commands to 4 cm (not a squad leader's 8)."""
    play(game, "out cpl")
    _to_next_turn(game, "5")
    leader = next(u for u in game.state.units.values() if u.team == "VS" and u.has("leader"))
    assert leader.has("ability-regular")
    other = "vasco" if leader.id == "valerio" else "valerio"
    goto(game, "move-first", 2)
    assert isolation(play(game, f"move {other} 5 lead=4")) == []
    goto(game, "move-first", 3)
    assert isolation(play(game, f"move {other} 5 lead=5 dice=1")) == [5]


# ------------------------------------------------------------------ A.5 sequence of play


@pytest.mark.audits("BI-AMB-11")
def test_initiative_ties_are_rolled_again_and_the_higher_chooses(game):
    """A.5.1: both roll 1d6, the higher chooses; a tie rolls again (3-3, then 1-6: Red)."""
    facts = play(game, "next dice=3,3,1,6")
    assert [r.faces for r in rolls(facts, "A.5.1")] == [(3,), (3,), (1,), (6,)]
    assert game.state.active_side == "red"
    play(game, "@red order second")
    goto(game, "move-first", 1)
    assert game.state.active_side == "blue"


@pytest.mark.audits("BI-R030")
def test_each_unit_moves_or_fires_or_acts_once_a_turn(game):
    """A.5.1 golden rule: a man who moved may not fire or act; one who fired may not act;
    a man who made opportunity fire may neither move nor fire in the fire phase."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 10", "@red fire karim bruno range=20 dice=9,9")
    goto(game, "move-second", 1)
    refused(game, "@red move karim 5", rule="BI-R030")
    goto(game, "fire-veteran", 1)
    refused(game, "fire karim bruno range=20", rule="BI-R030")
    goto(game, "fire-regular", 1)
    all_refused(game, "fire bruno tariq range=20", "act bruno normal", rule="BI-R030")
    play(game, "fire carlo tariq range=30 dice=9")
    refused(game, "act carlo normal", rule="BI-R030")
    play(game, "act sam normal dice=9")
    refused(game, "fire sam tariq range=20", rule="BI-R030")
    goto(game, "fire-regular", 2)
    facts = play(game, "fire bruno tariq range=20 dice=9,9")
    assert chances(facts) == [4, 4]
