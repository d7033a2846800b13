"""Objectives (§4.1, §4.1.1) and Intelligence as commands on the demo (mission 2)."""

from __future__ import annotations

import pytest
from bn_campaign_support import dp, events, new_game, rolls, run, to_activation
from playing import names, refused

from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused
from core.secrets.commitments import matches


def _end_phase(game, die: int) -> None:
    """Mission 2 with the Irregular's die showing ``die``, then to turn 1's end phase."""
    game.execute(f"objective-roll dice={die}", role="irregulars")
    to_activation(game, "6,6,1,1")
    game.execute("next", role=REFEREE)


def test_the_secret_die_is_the_irregulars_alone(demo):
    """§4.1 mission 2: the Irregular player's die, 3, makes Regular marker 3 a main objective too; the die
    is his secret.

    Digest: OBJ-2.
    """
    out = demo.execute("objective-roll dice=3", role="irregulars")
    (roll,) = rolls(out)
    assert roll.faces == (3,) and roll.outcome == "3: Regular marker 3 becomes a main objective too"
    secret = demo.state.secrets["objective.die"]
    assert (secret.owner, secret.value, secret.revealed) == ("irregulars", "3", False)
    assert "objective.die" in demo.view("irregulars").secrets
    assert "objective.die" not in demo.view("regulars").secrets
    assert "objective.die" not in demo.view("spectator").secrets
    regular_log = [line.text for line in demo.log_lines("regulars")]
    assert not any("secret objective die:" in t or "objective.die" in t for t in regular_log)
    assert any("roll the secret objective die" in t for t in regular_log)  # that it was rolled is public


def test_only_the_irregular_player_rolls_it_once(demo):
    refused(demo, "@regulars objective-roll", "Irregular player rolls", rule="OBJ-2")
    demo.execute("objective-roll dice=5", role="irregulars")
    refused(demo, "@irregulars objective-roll dice=5", "has been rolled", rule="OBJ-2")


def test_ex01_taking_the_redesignated_marker_costs_a_main_objective(demo):
    """EX-01: the die's 3 made marker 3 a main objective too; the militia take it at the end of the turn:
    50 to the Bersaglieri, and the die is shown.

    Digest: AMB-06, OBJ-5, OBJ-6.
    """
    _end_phase(demo, 3)
    out = demo.execute("take 3 irregulars", role=REFEREE)
    assert [e.key for e in events(out, ev.Revealed)] == ["marker.regulars.3", "objective.die"]
    (points,) = events(out, ev.DefeatPoints)
    assert (points.side, points.points, points.category) == ("regulars", 50, "objective-main")
    assert demo.state.vars["taken.regulars.3"] == "irregulars"
    refused(demo, "take 3 irregulars", "taken for good", rule="OBJ-5")


def test_a_six_makes_the_original_main_a_fake(demo):
    """§4.1 mission 2: a 6 turns the original main objective (4) into a fake: taking it costs nothing, and
    shows the die.

    Digest: OBJ-2, OBJ-6.
    """
    _end_phase(demo, 6)
    out = demo.execute("take 4 irregulars", role=REFEREE)
    assert not events(out, ev.DefeatPoints)
    assert dp(demo, "regulars") == 0
    assert demo.state.secrets["objective.die"].revealed  # taking it shows why it was worth nothing


def test_secondary_objectives_english_20_italian_0(tmp_path):
    """§14.0: losing a secondary objective is 20 in the English draft, nothing in the Italian one
    (DIFF-49).

    Digest: OBJ-6.
    """
    en = new_game(tmp_path, name="en.ft")
    it = new_game(tmp_path, name="it.ft", variant="it-2009-12-09")
    for game in (en, it):
        _end_phase(game, 4)
        game.execute("take 2 irregulars", role=REFEREE)
    assert dp(en, "regulars") == 20  # §14.0 "20 points for losing a Secondary objective"
    assert dp(it, "regulars") == 0  # DIFF-49: the Italian list has no such line


def test_taking_an_unchanged_main_keeps_the_die_secret(demo):
    _end_phase(demo, 2)
    demo.execute("take 4 irregulars", role=REFEREE)
    assert dp(demo, "regulars") == 50
    assert not demo.state.secrets["objective.die"].revealed


def test_regulars_take_the_irregulars_main(demo):
    """§4.1.1: the Bersaglieri take the militia's main marker at the end of a turn: the militia lose 50.

    Digest: OBJ-5.
    """
    _end_phase(demo, 2)
    demo.execute("take 3 regulars", role=REFEREE)
    assert demo.state.sides["irregulars"].dp_by_category == {"objective-main": 50}


def test_reveal_a_marker_within_10cm(demo):
    """§4.1: an enemy came within 10 cm of Regular marker 4: its owner reveals it (main), to everyone,
    once.

    Digest: AMB-07, OBJ-3.
    """
    to_activation(demo, "6,6,1,1")
    refused(demo, "@irregulars reveal 4 regulars", "owner of a marker", rule="OBJ-3")
    out = demo.execute("reveal 4 regulars", role="regulars")
    shown = events(out, ev.Revealed)[0]
    assert (shown.key, shown.value) == ("marker.regulars.4", "main") and matches(shown)
    assert "marker.regulars.4" in demo.view("irregulars").secrets
    refused(demo, "reveal regulars.4", "already revealed", rule="OBJ-3")


def test_reveal_needs_the_owner_when_both_sides_have_markers(demo):
    to_activation(demo, "6,6,1,1")
    refused(demo, "reveal 4", "whose marker 4", rule=TYPING)


def test_a_player_cannot_probe_the_other_sides_secrets(demo):
    demo.execute("objective-roll dice=3", role="irregulars")
    to_activation(demo, "6,6,1,1")
    with pytest.raises(Refused) as real:
        demo.execute("reveal objective.die", role="regulars")
    names(real.value, TYPING)
    with pytest.raises(Refused) as fake:
        demo.execute("reveal objective.nothing", role="regulars")
    names(fake.value, TYPING)
    assert str(real.value).replace("die", "X") == str(fake.value).replace("nothing", "X")


def test_objectives_command_sets_secret_roles(tmp_path):
    """§4.1: each side secretly gives its five markers one main, two secondary and two fake roles; only
    that side sees them.

    Digest: OBJ-1.
    """
    game = new_game(tmp_path, "open")
    run(game, "roster bersaglieri regulars", "roster militia irregulars")
    out = game.execute("objectives regulars 2 1 5", role="regulars")
    assert {e.key: e.value for e in events(out, ev.SecretSet)} == {
        "marker.regulars.1": "secondary",
        "marker.regulars.2": "main",
        "marker.regulars.3": "fake",
        "marker.regulars.4": "fake",
        "marker.regulars.5": "secondary",
    }
    assert out.events[0].vis == ("regulars",)  # even the command line is theirs alone
    assert not any("marker.regulars" in k for k in game.view("irregulars").secrets)
    refused(game, "@irregulars objectives regulars 2 1 5", "own objectives", rule="OBJ-1")
    refused(game, "@irregulars objectives irregulars 2 2 5", "two secondary", rule="OBJ-1")


def test_mission_must_fit_the_forces(tmp_path):
    game = new_game(tmp_path, "open")
    refused(game, "mission 1", "markers are already set|Regulars against Regulars", rule="OBJ-1")


def test_intelligence_reveals_the_enemy_main(demo):
    """Extras: Intelligence: level 1, no counter-intelligence: a 1 succeeds and the militia's main marker
    is shown; one roll a game.

    Digest: AMB-57, EXT-8, OBJ-3.
    """
    to_activation(demo, "6,6,1,1")
    out = demo.execute("intelligence dice=1", role="regulars")
    (roll,) = rolls(out)
    assert (roll.outcome, roll.target, roll.under) == ("success", 1, True)  # level 1, no counter-intelligence
    assert [(e.key, e.value) for e in events(out, ev.Revealed)] == [("marker.irregulars.3", "main")]
    assert all(map(matches, events(out, ev.Revealed)))
    refused(demo, "@regulars intelligence dice=1", "one Intelligence roll per game", rule="EXT-8")


def test_intelligence_fails_over_the_level_and_needs_the_extra(demo):
    to_activation(demo, "6,6,1,1")
    refused(demo, "@irregulars intelligence", "bought no Intelligence", rule="EXT-8")
    out = demo.execute("intelligence dice=2", role="regulars")
    assert rolls(out)[0].outcome == "failure" and not events(out, ev.Revealed)


def test_intelligence_before_deployment_is_for_special_forces(demo):
    """Extras: Intelligence: before deployment only Special Forces may roll it.

    Digest: EXT-8.
    """
    refused(demo, "@regulars intelligence", "only Special Forces", rule="EXT-8")


@pytest.mark.parametrize(
    ("variant", "rule"), [("", "reached within 10 cm"), ("it-2009-12-09", "within 10 cm and in line of sight")]
)
def test_diff_06_the_italian_draft_reveals_a_marker_seen_within_10cm(tmp_path, variant, rule):
    """§4.1 (digest DIFF-06, ruling BN-OBJ-REVEAL): the English draft reveals a marker the enemy
    reached within 10 cm; the Italian one a marker a figure is within 10 cm of and sees.  The
    owner reveals Regular marker 4 (main) and the log says which rule he applied."""
    game = new_game(tmp_path, "open", variant=variant)
    run(game, "roster bersaglieri regulars", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5")
    to_activation(game, "6,6,1,1")
    out = game.execute("reveal 4 regulars", role="regulars")
    assert [(e.key, e.value) for e in events(out, ev.Revealed)] == [("marker.regulars.4", "main")]
    (note,) = [str(e.text) for e in events(out, ev.Noted)]
    assert note == f"regulars marker 4 is revealed: an enemy {rule} (§4.1)"
