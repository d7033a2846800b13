"""Deployment (§4.2), infiltrators and ambushes, and the set-up-as-it-stands start."""

from __future__ import annotations

import pytest
from bn_campaign_support import events, new_game, rolls, run
from playing import names, refused

from core.language.i18n import naming, render
from core.language.reader import reading
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def test_rolloff_adds_the_commanders_leadership_and_rerolls_ties(demo):
    # regulars 1 + 2 = 3, irregulars 2 + 1 = 3: tied; then 3 + 2 = 5 against 5 + 1 = 6
    """§4.2: 1d6 + the squad commander's leadership each: 1 + 2 against 2 + 1 is a tie, rolled again; 3 +
    2 against 5 + 1: the militia are the First player.

    Digest: AMB-05, DEP-1.
    """
    out = demo.execute("rolloff dice=1,2,3,5", role=REFEREE)
    assert [r.outcome for r in rolls(out)] == ["total 3", "total 3", "total 5", "total 6"]
    assert demo.state.vars["first_player"] == "irregulars"
    assert demo.state.vars["second_player"] == "regulars"
    assert all(u.has("off-table") for u in demo.state.units.values())
    refused(demo, "rolloff", "won the deployment roll already", rule="DEP-1")


def test_deployment_follows_the_order_of_4_2(demo):
    """§4.2: the Second player fields at least half his force, then the First player half, then the Second
    the rest, then the First; out of turn is refused.

    Digest: DEP-3.
    """
    demo.execute("rolloff dice=5,1", role=REFEREE)  # regulars first (7 against 2): irregulars deploy first
    with pytest.raises(Refused, match="roll for deployment first") as no:
        new_game(demo.path.parent, name="other.ft").execute("deploy aden", role="irregulars")
    names(no.value, "DEP-3")
    refused(demo, "@regulars deploy rossi", "Second player, field at least half", rule="DEP-3")
    # the irregular force is 5 (Faysal waits in ambush): half is 3
    demo.execute("deploy aden ahmed", role="irregulars")
    refused(demo, "@regulars deploy rossi", "Second player, field at least half", rule="DEP-3")
    demo.execute("deploy bashir", role="irregulars")
    demo.execute("deploy rossi bianchi", role="regulars")
    refused(demo, "@irregulars deploy dahir", "First player, field at least half", rule="DEP-3")
    demo.execute("deploy conti", role="regulars")
    demo.execute("deploy dahir", role="irregulars")
    refused(demo, "@regulars deploy greco", "deploy the rest of their force", rule="DEP-3")
    demo.execute("deploy egal", role="irregulars")
    demo.execute("deploy greco marino ferri", role="regulars")
    refused(demo, "@irregulars deploy aden", "on the table already", rule="DEP-3")
    refused(
        demo,
        "next",
        "before the first turn: Bersaglieri to deploy Lia Lupo.*Market trader, Water carrier.*objective die",
        rule="DEP-3",
    )
    run(demo, "deploy lupo", role="regulars")
    run(demo, "deploy civ1 civ2", "objective-roll dice=2", role="irregulars")
    out = demo.execute("next", role=REFEREE)
    assert events(out, ev.PhaseBegan)[0].phase == "initiative"
    assert demo.state.units["faysal"].has("off-table")


def test_figures_held_for_an_ambush_do_not_deploy(demo):
    """§4.2, Extras: Ambush: Faysal, held back for an ambush, is not deployed with the force.

    Digest: DEP-4, EXT-2.
    """
    demo.execute("rolloff dice=1,5", role=REFEREE)
    refused(demo, "@irregulars deploy faysal", "held back for an ambush", rule="EXT-2")


def test_a_player_deploys_only_his_own_figures(demo):
    demo.execute("rolloff dice=1,5", role=REFEREE)
    refused(demo, "@irregulars deploy rossi", "no unit", rule=TYPING)


def test_set_up_as_it_stands_rolls_the_secret_die_for_the_irregulars(demo):
    out = demo.execute("next", role=REFEREE)
    (roll,) = [e for e in events(out, ev.Rolled)]
    assert roll.vis == ("irregulars",)
    assert "objective.die" in demo.state.secrets
    assert not demo.state.units["rossi"].has("off-table")
    assert demo.state.units["faysal"].has("off-table")  # still waiting in ambush


def test_ambush_at_the_end_of_a_turn_gives_plus_one_initiative(demo):
    """Extras: Ambush: Faysal springs his ambush at the end of turn 1; the militia's next initiative has
    +1: 3,4 + 1 + 3 + 1 = 12 against 3,3 + 2 + 4 − 1 = 11.

    Digest: AMB-57, EXT-2, INI-1.
    """
    run(demo, "next", "next dice=6,6,1,1", "next")
    refused(demo, "@irregulars ambush ahmed", "not waiting in ambush", rule="EXT-2")
    out = demo.execute("ambush faysal", role="irregulars")
    assert events(out, ev.StatusChanged)[0].remove == ("off-table",)
    refused(demo, "@irregulars ambush faysal", "no ambush left", rule="EXT-2")
    demo.execute("next", role=REFEREE)
    # regulars 6 + 2 + 4 - 1 (won turn 1) = 11; irregulars 7 + 1 + 3 + 1 (ambush) = 12
    out = demo.execute("next dice=3,3,4,3", role=REFEREE)
    mods = [e.roll.mods for e in events(out, ev.Rolled) if e.side == "irregulars"][0]
    assert [e.roll.purpose for e in events(out, ev.Rolled)] == ["initiative", "initiative"]
    assert ("ambush last turn", 1) in [(m.label, m.value) for m in mods]
    assert demo.state.active_side == "irregulars"
    assert demo.state.vars["ambush.irregulars"] == 0


def test_off_table_figures_cannot_act(demo):
    run(demo, "next", "next dice=1,1,6,6")  # irregulars active
    refused(demo, "@irregulars move faysal 10 run", "not on the table yet", rule="DEP-4")


def test_roster_and_infiltrators(tmp_path):
    game = new_game(tmp_path, "open")
    run(game, "roster bersaglieri regulars", "roster militia irregulars")
    assert {u.side for u in game.state.units.values()} == {"regulars", "irregulars"}
    assert game.state.vars["extra.regulars.negotiation"] == 3
    assert game.state.vars["extra.irregulars.ambush"] == 1
    refused(game, "roster bersaglieri regulars", "have their figures already", rule="ENG-7")
    refused(game, "roster bersaglieri irregulars", "is a regular roster", rule="PTS-5")


SPECIAL_FORCES = """
name = "Task Force 45"
army = "regular"
[extras]
infiltrators = true
[[units]]
id = "cap"
name = "Capt Neri"
team = "A"
cls = "R1"
leadership = 2
weapons = ["AR"]
roles = ["commander"]
[[units]]
id = "sf1"
name = "Sgt Lupi"
team = "A"
cls = "R1"
weapons = ["AR"]
[[units]]
id = "sf2"
name = "Cpl Volpe"
team = "B"
cls = "R1"
weapons = ["AR"]
roles = ["infiltrator"]
"""


def test_infiltrators_deploy_after_everyone(tmp_path):
    """§4.2, Extras: Infiltrators: Cpl Volpe infiltrates only after both sides have deployed.

    Digest: AMB-57, DEP-4, EXT-1.
    """
    path = tmp_path / "sf.toml"
    path.write_text(SPECIAL_FORCES)
    game = new_game(tmp_path, "open")
    run(game, f"roster {path} regulars", "roster militia irregulars")
    run(game, "objectives regulars 1 2 3", "objectives irregulars 3 1 5", "objective-roll dice=5", "rolloff dice=6,1")
    refused(game, "@regulars deploy sf2", "infiltrates after both sides have deployed", rule="EXT-1")
    run(game, "deploy aden ahmed bashir hassan dahir egal jama omar civ1 civ2 reed", role="irregulars")
    run(game, "deploy cap sf1", role="regulars")
    out = game.execute("deploy sf2", role="regulars")
    assert any("infiltrators" in e.text for e in events(out, ev.Noted))
    game.execute("next", role=REFEREE)
    assert game.state.phase == "initiative"


def test_completion_offers_the_figures_still_off_the_table_last_and_first_to_deploy(demo):
    """§4.2: a figure waiting off the table is refused by every command but those placing
    him: Tab offers him after the figures on the table, and before them to ``deploy``."""
    demo.execute("rolloff dice=5,1", role=REFEREE)  # the militia deploy first
    demo.execute("deploy dahir egal", role="irregulars")
    waiting = ["aden", "ahmed", "bashir", "faysal", "civ1", "civ2"]  # in the roster's order, as the placed
    units = [c for c in demo.complete("fire ", "irregulars") if c in {"dahir", "egal", *waiting}]
    assert units == ["dahir", "egal", *waiting]
    # first the teams with a figure still to deploy (the Next line says deploy TEAM), then those
    # figures; Faysal, held back for an ambush, with those placed: deploy refuses them (#48)
    taken = ["aden", "ahmed", "bashir", "civ1", "civ2"]
    assert demo.complete("deploy ", "irregulars") == ["Civilians", "Warsame", *taken, "dahir", "egal", "faysal"]
    with reading("it"):  # a team as an Italian reads it (ruling I18N-TEAM, #61), and so deployed
        assert demo.complete("deploy ", "irregulars") == ["Civili", "Warsame", *taken, "dahir", "egal", "faysal"]
        assert demo.complete("deploy civ", "irregulars")[:1] == ["Civili"]
        out = demo.execute("deploy civili", role="irregulars")
    assert [e.unit for e in events(out, ev.StatusChanged)] == ["civ1", "civ2"]
    # By a word of the name too (Egal Yusuf, Ahmed Noor...), still after those on the table.
    assert demo.complete("fire e", "irregulars")[:1] == ["egal"]
    assert [c for c in demo.complete("fire ", "referee") if c in {"dahir", "rossi"}] == ["dahir", "rossi"]


def _next_line(game) -> str:
    """What the phase pane's Next line says, sides by name."""
    with naming(sides_of(game.state)):
        return render(game.ruleset.expects(game.state), game.ruleset.domain)


def test_a_team_deploys_at_once_and_the_next_line_says_whose_step_it_is(demo):
    """§4.2 (#48): after the roll (the militia Second), each step names its side and what it fields;
    `deploy TEAM` fields the team's figures still off the table (not Faysal, held for an ambush)."""
    assert _next_line(demo).startswith("objectives, rolloff, deploy in turn")
    demo.execute("rolloff dice=5,1", role=REFEREE)  # the Bersaglieri first (7 against 2): the militia deploy first
    how = "(deploy TEAM, or figures one by one)"
    assert _next_line(demo) == f"Somali militia, the Second player: deploy at least half their force {how}"
    assert demo.complete("deploy war", "irregulars") == ["Warsame"]  # Tab offers the team
    out = demo.execute("deploy warsame", role="irregulars")
    assert [e.unit for e in events(out, ev.StatusChanged)] == ["aden", "ahmed", "bashir"]
    assert "Warsame" not in demo.complete("deploy ", "irregulars")  # nobody of it left to deploy
    assert _next_line(demo) == f"Bersaglieri, the First player: deploy at least half their force {how}"
    demo.execute("deploy alpha", role=REFEREE)  # the referee names a team of either side
    assert _next_line(demo) == f"Somali militia, the Second player: deploy the rest of their force {how}"
    demo.execute("deploy market", role="irregulars")
    assert demo.state.units["faysal"].has("off-table")
    assert _next_line(demo) == f"Bersaglieri, the First player: deploy the rest of their force {how}"
    refused(
        demo, "@irregulars deploy warsame", "no one of team Warsame can be named here", rule=TYPING
    )  # all on the table already
    demo.execute("deploy bravo", role="regulars")
    assert _next_line(demo) == (
        "before the first turn: Bersaglieri to deploy Lia Lupo (press); Somali militia to deploy Market trader, "
        "Water carrier; Somali militia to roll the secret objective die (objective-roll)"
    )
    run(demo, "deploy press", role="regulars")
    run(demo, "deploy civilians", "objective-roll dice=2", role="irregulars")
    assert _next_line(demo) == "everyone is deployed: next begins the first turn"


def test_tab_offers_deploy_the_side_whose_step_it_is_first(demo):
    """§4.2 (#48): the Bersaglieri Second, ``deploy `` offered Rossi, Bianchi… and the militia's
    figures (refused: "Bersaglieri, the Second player, field at least half their force
    first"), with the teams under "… 9 more".  The stepping side's teams, then its figures;
    the other side's force after them, until its step comes."""
    demo.execute("rolloff dice=1,6", role=REFEREE)  # the militia First: the Bersaglieri deploy first
    offered = demo.complete("deploy ", "referee")
    assert offered[:2] == ["Alpha", "Bravo"]
    militia = ["aden", "ahmed", "bashir", "dahir", "egal"]
    assert all(offered.index(m) > offered.index("ferri") for m in ["Warsame", *militia])
    assert demo.complete("deploy a", "referee")[0] == "Alpha"  # not Aden Farah, refused now
    refused(demo, "deploy aden", "field at least half their force first", rule="DEP-3")
    demo.execute("deploy alpha bravo", role=REFEREE)  # the Bersaglieri's force fielded: the militia's step
    offered = demo.complete("deploy ", "referee")
    assert offered.index("Warsame") < offered.index("aden") < offered.index("rossi")


def test_the_refusals_of_the_order_name_the_sides_in_words(demo):
    demo.execute("rolloff dice=5,1", role=REFEREE)
    refused(demo, "@regulars deploy rossi", "^Somali militia, the Second player, field at least half", rule="DEP-3")
