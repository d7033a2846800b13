"""The turn machine: initiative (§5.0) with exact dice, and platoon games (§13.0)."""

from __future__ import annotations

from bn_campaign_support import events, new_game, platoon_roster, rolls, run
from playing import refused

from core.language.reader import reading
from core.log import events as ev
from core.log.narrate import describe_roll
from core.log.views import REFEREE


def test_initiative_with_the_books_modifiers(demo):
    """§5.0: the Bersaglieri roll 5,4 + leadership 2 + quality 4 = 15; the militia 2,3 + 1 + 3 = 9: the
    Bersaglieri are active.

    Digest: AMB-02, INI-1, INI-4, T-02.
    """
    demo.execute("next", role=REFEREE)
    out = demo.execute("next dice=5,4,2,3", role=REFEREE)
    regulars, irregulars = rolls(out)
    assert [(m.label, m.value) for m in regulars.mods] == [("leadership", 2), ("troop quality", 4)]
    assert [(m.label, m.value) for m in irregulars.mods] == [("leadership", 1), ("troop quality", 3)]
    assert (regulars.outcome, irregulars.outcome) == ("total 15", "total 9")
    phase = events(out, ev.PhaseBegan)[-1]
    assert (phase.phase, phase.active, phase.reacting) == ("activation", "regulars", "irregulars")


def test_a_side_whose_commander_is_out_rolls_initiative_without_a_bare_leadership(demo):
    """§5.0 [INI-1] with §13.0: the militia's only leader, Aden, is out: no commander adds
    his leadership, and the line says none (it read "2d6 (leadership, troop quality +3)");
    the Bersaglieri, whose Sgt Rossi stands, still add his +2."""
    demo.execute("next", role=REFEREE)
    demo.execute("out aden", role=REFEREE)
    out = demo.execute("next dice=5,4,2,3", role=REFEREE)
    regulars, irregulars = rolls(out)
    assert describe_roll(irregulars, "breaking_news") == (
        "initiative: 2d6 (troop quality +3): 2 3 +3 = 8 → total 8 [table dice]"
    )
    assert [(m.label, m.value) for m in regulars.mods] == [("leadership", 2), ("troop quality", 4)]


def test_the_initiative_line_adds_up_to_its_total(demo):
    """§5.0 [INI-1], issue #61: the line showed ``5 4 = 9 → total 15``, the bare dice's sum
    beside a total that adds the modifiers; the sum shown is the total: 5 + 4 + 2 + 4 = 15."""
    demo.execute("next", role=REFEREE)
    out = demo.execute("next dice=5,4,2,3", role=REFEREE)
    regulars, irregulars = (e.roll for e in out.events if isinstance(e, ev.Rolled))
    assert describe_roll(regulars, "breaking_news") == (
        "initiative: 2d6 (leadership +2, troop quality +4): 5 4 +2 +4 = 15 → total 15 [table dice]"
    )
    with reading("it"):
        assert describe_roll(irregulars, "breaking_news").endswith(": 2 3 +1 +3 = 9 → totale 9 [dadi al tavolo]")


def test_initiative_ties_are_rolled_again(demo):
    """§5.0 (ruling BN-INI-TIE): 2,2 + 6 against 3,3 + 4 is 10 each: both roll again; 1,1 + 6 against 5,1
    + 4: the militia.

    Digest: AMB-05, INI-3.
    """
    demo.execute("next", role=REFEREE)
    # 2 + 2 + 6 = 10 against 3 + 3 + 4 = 10: again; then 1 + 1 + 6 = 8 against 5 + 1 + 4 = 10
    out = demo.execute("next dice=2,2,3,3,1,1,5,1", role=REFEREE)
    assert [r.outcome for r in rolls(out)] == ["total 10", "total 10", "total 8", "total 10"]
    assert any("tied at 10" in e.text for e in events(out, ev.Noted))
    assert demo.state.active_side == "irregulars"


def test_the_winner_takes_a_cumulative_minus_one(demo):
    """§5.0: the Bersaglieri win turn 1 (6,6): −1 on turn 2's roll, −2 on turn 3's; the militia win turn
    3: the streak ends, 0.

    Digest: AMB-04, INI-2.
    """
    run(demo, "next", "next dice=6,6,1,1", "next", "next")
    out = demo.execute("next dice=6,6,1,1", role=REFEREE)
    regulars = rolls(out)[0]
    assert ("previous winner", -1) in [(m.label, m.value) for m in regulars.mods]
    run(demo, "next", "next")
    out = demo.execute("next dice=6,6,1,1", role=REFEREE)
    assert ("previous winner", -2) in [(m.label, m.value) for m in rolls(out)[0].mods]
    run(demo, "next", "next")
    out = demo.execute("next dice=1,1,6,6", role=REFEREE)  # the irregulars win: the regulars' streak ends
    assert demo.state.vars["initiative_penalty.regulars"] == 0
    assert demo.state.vars["initiative_penalty.irregulars"] == 1


def test_platoon_initiative_uses_the_platoon_leader(tmp_path):
    """§13.0: a platoon adds only its leader's leadership (Lt Moro, 3), not his sergeants'.

    Digest: DIFF-09, DIFF-43, INI-5, PLT-1, PLT-2.
    """
    game = new_game(tmp_path, "open")
    run(game, f"roster {platoon_roster(tmp_path / 'platoon.toml')} regulars limit=300", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5", "next")
    out = game.execute("next dice=1,1,1,1", role=REFEREE)
    assert [(m.label, m.value) for m in rolls(out)[0].mods][:2] == [("leadership", 3), ("troop quality", 4)]


def test_platoon_activates_squad_by_squad(tmp_path):
    """§13.0: a platoon acts squad by squad: the 2nd, then the 1st; a squad done is not activated again
    that turn.

    Digest: ACT-4, PLT-2.
    """
    game = new_game(tmp_path, "open")
    run(game, f"roster {platoon_roster(tmp_path / 'platoon.toml')} regulars limit=300", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5", "next", "next dice=6,6,1,1")
    assert game.state.active_side == "regulars"
    refused(game, "@regulars move 2nd0 10 run", "activate one first", rule="ACT-4")
    game.execute("activate 2nd", role="regulars")
    game.execute("move 2nd0 10 run", role="regulars")
    refused(game, "@regulars move 1st0 10 run", "not in 2nd", rule="ACT-4")
    game.execute("activate 1st", role="regulars")
    game.execute("move 1st0 10 run", role="regulars")
    refused(game, "@regulars activate 2nd", "has been activated this turn", rule="ACT-4")
    refused(game, "@irregulars activate Warsame", "may only react", rule="ACT-2")


def test_a_single_squad_needs_no_activation(demo):
    run(demo, "next", "next dice=6,6,1,1")
    refused(demo, "@regulars activate Alpha", "single squad", rule="ACT-1")


def test_the_last_turn_leads_to_the_final_count(demo):
    """§14.0 (rulings BN-VIC-END, BN-VIC-DRAW): after the scenario's last turn the final count: nobody
    scored, a draw.

    Digest: AMB-55, VIC-2.
    """
    demo.execute("next", role=REFEREE)
    for _ in range(6):
        run(demo, "next dice=6,6,1,1", "next", "next")
    assert demo.state.phase == "final"
    out = demo.execute("next", role=REFEREE)
    (end,) = events(out, ev.GameEnded)
    assert "draw" in end.result
    assert (end.winner, end.draw, end.scores) == ("", True, {"regulars": 0, "irregulars": 0})
    assert demo.state.phase == "ended"
