"""Breaking News hidden troops and sighting (§7.0): hiding, hidden moves, sighting
rolls, bonus moves, firing reveals, and that no side's view or log ever shows a
hidden enemy or his moves."""

from __future__ import annotations

import pytest
from bn_combat_support import facts, new_game, rolls, status
from playing import refused

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING


def _mentions(g: Game, role: str, name: str, start: int = 0) -> list[str]:
    return [line.text for line in g.log_lines(role, start) if name in line.text]


def test_a_hidden_enemy_is_absent_from_view_and_log(rng):
    assert "shadow" not in rng.view("regulars").units
    assert "shadow" in rng.view("irregulars").units
    assert _mentions(rng, "regulars", "Shadow") == []
    assert _mentions(rng, "spectator", "Shadow") == []
    assert _mentions(rng, "referee", "Shadow")


def test_players_cannot_name_a_hidden_enemy(rng):
    """§7.0: a player cannot name hidden Shadow, to fire at or to sight: only his marker.

    Digest: AMB-18.
    """
    refused(rng, "@regulars fire sarge shadow range=20", "no unit", rule=TYPING)
    refused(rng, "@regulars react-spot sarge shadow range=20", "no unit", rule=TYPING)


def test_hide_and_hidden_move_stay_private(rng):
    """§7.0: Emfour hides, then moves hidden (5 − 2 = 3 cm): the militia see him go out of sight, and
    nothing after.

    Digest: MOV-7, SPOT-1.
    """
    start = rng.log_length
    rng.execute("hide m4", role="regulars")
    assert "m4" not in rng.view("irregulars").units
    mark = rng.log_length
    out = rng.execute("move m4 hidden dice=2", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 3  # 5 - 2
    assert all(e.vis == ("regulars",) for e in out.events)
    assert _mentions(rng, "irregulars", "Emfour", mark) == []
    assert [line for line in rng.log_lines("irregulars", mark)] == []
    # The hiding itself was seen: the figure was in view when he went to ground.
    assert any("out of sight" in t for t in _mentions(rng, "irregulars", "Emfour", start))


def test_hidden_move_caps_the_distance(rng):
    """§7.0: a hidden move is 5 − 1d6: Emfour asks 4 cm and rolls 4, so he moves 1 cm, still hidden.

    Digest: MOV-7.
    """
    rng.execute("hide m4", role="regulars")
    out = rng.execute("move m4 4 hidden dice=4", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 1
    assert "hidden" in status(rng, "m4")


def test_moving_normally_or_firing_reveals(rng):
    """§7.0: a hidden man who moves in the open (10 cm) or fires is sighted by everyone.

    Digest: MOV-7, SPOT-7.
    """
    rng.execute("hide m4", role="regulars")
    rng.execute("hide saw", role="regulars")
    rng.execute("move m4 10", role="regulars")
    assert "hidden" not in status(rng, "m4") and "m4" in rng.view("irregulars").units
    rng.execute("fire saw kalash range=20 dice=1,1,1,1", role="regulars")
    assert "hidden" not in status(rng, "saw")


def test_failed_sighting_gives_a_private_bonus_move(tmp_path, monkeypatch):
    """§7.0: Sgt Stone needs 3 at 15 cm and rolls 2: not sighted, and Shadow's owner may move him 5 cm,
    once; Stone may not try again this turn; Saw rolls 3 and sights him, and the regulars may then shoot
    him.

    Digest: AMB-21, SPOT-3, SPOT-4, SPOT-5, SPOT-6.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch)
    mark = g.log_length
    out = g.execute("move shadow hidden dice=1", role="irregulars")
    assert facts(out, ev.Moved)[0].cm == 4
    out = g.execute("react-spot sarge shadow range=15 dice=2", role=REFEREE)
    roll = rolls(out)[0]
    assert (roll.target, roll.outcome) == (3, "not sighted")
    assert "Shadow" not in roll.purpose
    g.execute("react-shift shadow 3", role="irregulars")
    refused(g, "@irregulars react-shift shadow 3", "no sighting bonus", rule="SPOT-6")
    assert "shadow" not in g.view("regulars").units
    assert _mentions(g, "regulars", "Shadow", mark) == []
    assert any("sighting of a hidden figure" in line.text for line in g.log_lines("regulars", mark))
    refused(g, "react-spot sarge shadow range=15 dice=6", "already tried", rule="MOV-7")
    out = g.execute("react-spot saw shadow range=15 dice=3", role=REFEREE)
    assert facts(out, ev.Spotted)[0].by_side == "regulars"
    assert "shadow" in g.view("regulars").units
    # Once sighted the regulars may name and shoot him.
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    from bn_combat_support import to_activation

    to_activation(g, "regulars")
    g.execute("fire sarge shadow range=15 dice=1", role="regulars")


def test_sighting_modifiers_and_limits(rng):
    """§7.0: Rook (R5, +1) looks at Shadow in the open (−1) at 60 cm: needs 6, a 5 fails; nothing is
    sighted past 100 cm; a man in sight needs no sighting.

    Digest: AMB-03, AMB-19, AMB-61, DIFF-19, T-07.
    """
    out = rng.execute("react-spot rook shadow range=60 open dice=5", role=REFEREE)
    roll = rolls(out)[0]
    assert roll.target == 6 and roll.outcome == "not sighted"
    assert {m.label for m in roll.mods} == {"target in the open", "spotter R5"}
    refused(rng, "react-spot sarge shadow range=101", "beyond", rule="AMB-03")
    refused(rng, "react-spot sarge kalash range=10", "not hidden", rule="AMB-19")


def test_sighting_within_5_cm_is_automatic(rng):
    """§7.0: within 5 cm a hidden man is sighted without a roll.

    Digest: AMB-20.
    """
    out = rng.execute("react-spot sarge shadow range=5", role=REFEREE)
    assert not rolls(out) and facts(out, ev.Spotted)


def test_a_sighting_that_cannot_succeed_is_not_an_attempt(tmp_path, monkeypatch):
    """§7.0: each figure may try to sight once a turn, and each failed try lets the
    hidden figure move up to 5 cm.  At 40 cm a sighting needs 5, +2 against Special
    Forces and +1 for an Irr3 spotter: 8, which no die reaches.  Nothing is tried:
    Kid keeps his attempt and Delta gets no bonus move (ruling BN-C-SPOT-IMPOSSIBLE).

    Digest: AMB-20, SPOT-4.
    """
    g = new_game(tmp_path, "combat", active="regulars", monkeypatch=monkeypatch)
    g.execute("hide delta", role="regulars")
    g.execute("hide sarge", role="regulars")
    mark = g.log_length
    refused(g, "react-spot kid delta range=40", "needs 8 on 1d6.*cannot succeed", rule="SPOT-4")
    assert g.log_length == mark
    assert "looked" not in status(g, "kid")
    assert "spot-bonus.delta" not in g.state.secrets
    refused(g, "@regulars react-shift delta 5", "no sighting bonus move", rule="SPOT-6")
    # his one attempt of the turn is still his: at 15 cm Sgt Stone needs 3 + 1 (Irr3) = 4
    out = g.execute("react-spot kid sarge range=15 dice=4", role=REFEREE)
    assert rolls(out)[0].target == 4 and facts(out, ev.Spotted)
    assert "looked" in status(g, "kid")


def test_a_hidden_firer_is_seen_when_he_fires(tmp_path, monkeypatch):
    """§7.0: hidden Shadow fires at Sgt Stone (a 1 misses): he is sighted, and the regulars see him.

    Digest: SPOT-7.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch)
    mark = g.log_length
    g.execute("fire shadow sarge range=20 dice=1", role="irregulars")
    assert "shadow" in g.view("regulars").units
    assert _mentions(g, "regulars", "Shadow", mark)


def test_demo_hidden_militia_never_leak(demo):
    """The demo's hidden Dahir and Egal: the regulars see neither in any view or line."""
    for role in ("regulars", "spectator"):
        units = demo.view(role).units
        assert "dahir" not in units and "egal" not in units
        assert not _mentions(demo, role, "Dahir") and not _mentions(demo, role, "Egal")


def test_a_hidden_figure_firing_by_opportunity_is_revealed_before_anything_names_him(rng):
    """§7.0: hidden Shadow fires by opportunity: his reveal comes first, so no line names him before he is
    seen.

    Digest: SPOT-7.
    """
    rng.execute("move sarge 10", role="regulars")
    out = rng.execute("react-fire shadow sarge range=20 dice=1", role="irregulars")
    first = out.events[1]
    assert isinstance(first, ev.StatusChanged) and first.remove == ("hidden",)
    assert all(not e.vis for e in out.events)
    assert "shadow" in rng.view("regulars").units


def test_bookkeeping_about_a_hidden_man_stays_with_his_side(tmp_path, monkeypatch):
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    mark = g.log_length
    g.execute("speculative rook shadow range=40 weapon=GL dice=5,1,4", role=REFEREE)
    assert plain(g.state.units["shadow"].out).startswith("wounded")
    assert "secret.wound.shadow" not in g.view("regulars").vars
    assert _mentions(g, "regulars", "Shadow", mark) == []
    assert not any("shadow" in line.text for line in g.log_lines("regulars", mark))


def test_a_blast_over_a_hidden_man_does_not_name_him(rng):
    mark = rng.log_length
    rng.execute("blast kalash shadow source=mortar by=regulars dice=6,6", role=REFEREE)
    assert _mentions(rng, "regulars", "Shadow", mark) == []
    assert _mentions(rng, "referee", "Shadow", mark)


@pytest.mark.parametrize(("variant", "allowed"), [("", True), ("it-2009-12-09", False)])
def test_a_suppressed_reacting_man_sights_only_in_the_english_draft(tmp_path, monkeypatch, variant, allowed):
    """§10.0: suppressed Sgt Stone may still sight in the English draft, not in the Italian one (DIFF-41).

    Digest: AMB-49.
    """
    g = new_game(tmp_path, "combat", variant=variant, active="irregulars", monkeypatch=monkeypatch)
    g.execute("mark sarge suppressed", role=REFEREE)
    if allowed:
        g.execute("react-spot sarge shadow range=15 dice=6", role=REFEREE)
        assert "shadow" in g.view("regulars").units
    else:
        refused(g, "react-spot sarge shadow range=15 dice=6", "Italian", rule="SUP-1")


def _night_range(tmp_path, monkeypatch) -> Game:
    """The combat range played at night (``night = true``), Spc Saw with night visors."""
    from bn_combat_support import HERE, to_activation

    import core.rulesets.breaking_news as bn

    text = (HERE / "scenarios" / "combat.toml").read_text(encoding="utf-8")
    text = text.replace('title = "Combat test range"', 'title = "Combat test range"\nnight = true', 1)
    text = text.replace('weapons = ["LMG"]', 'weapons = ["LMG"]\nroles = ["night-visors"]', 1)
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "combat.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(bn, "SCENARIOS", folder)
    g = Game.new(tmp_path / "g.ftlog", "breaking-news", "", seed=7)
    g.execute("scenario combat", role=REFEREE)
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    return g


def test_a_night_scenario_makes_sighting_harder_without_being_typed(tmp_path, monkeypatch):
    """§7.0: "+2 target in Jungle or at night (without night visors)".  At 15 cm a
    sighting needs 3; at night Sgt Stone, without visors, needs 5, so a 4 fails
    though nobody typed ``night``.  Spc Saw has night visors: he needs 3 and a 3
    sights Shadow.

    Digest: T-07.
    """
    g = _night_range(tmp_path, monkeypatch)
    out = g.execute("react-spot sarge shadow range=15 dice=4", role=REFEREE)
    roll = rolls(out)[0]
    assert (roll.target, roll.outcome) == (5, "not sighted")
    assert [(m.label, m.value, m.rule) for m in roll.mods] == [("at night, without night visors", 2, "§7.0")]
    out = g.execute("react-spot saw shadow range=15 dice=3", role=REFEREE)
    roll = rolls(out)[0]
    assert (roll.target, roll.mods, roll.outcome) == (3, (), "sighted")
    g.close()


def test_jungle_is_still_typed_and_counts_once_at_night(tmp_path, monkeypatch):
    """§7.0: jungle and night are one +2, not two: at night in jungle Sgt Stone needs
    3 + 2 = 5 at 15 cm; Spc Saw's visors do not see through jungle (5 too).

    Digest: AMB-61, T-07.
    """
    g = _night_range(tmp_path, monkeypatch)
    assert rolls(g.execute("react-spot sarge shadow range=15 night dice=4", role=REFEREE))[0].target == 5
    assert rolls(g.execute("react-spot saw shadow range=15 night dice=4", role=REFEREE))[0].target == 5
    g.close()
