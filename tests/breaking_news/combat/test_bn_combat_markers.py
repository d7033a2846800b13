"""A hidden enemy on the table is a marker a side can name (issue 10, rulings BN-C-MARKER).

§7.0 puts a marker down where a hidden figure is.  The side that cannot see him
sees the marker's label, drawn at random and recorded for the referee alone, and
names it to sight him (§7.0) or fire at him speculatively (§8.6); everything it
is told names the label, never the man, until a sighting or his fire reveals him."""

from __future__ import annotations

import json
import re
from contextlib import closing

import pytest
from bn_combat_support import facts, new_game, rolls
from playing import refused

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.replay import visible_steps
from core.log.views import MarkerLabels
from core.refusal import TYPING

LABEL = re.compile(r"[A-HJ-NP-Z][2-9][A-HJ-NP-Z]")


def _label(g: Game, side: str = "regulars") -> str:
    (label,) = g.view(side).markers
    return label


def _told(g: Game, role: str, start: int) -> str:
    return "\n".join(line.text for line in g.log_lines(role, start))


def test_a_hidden_enemy_is_a_marker_in_the_view_and_nothing_more(rng):
    label = _label(rng)
    assert LABEL.fullmatch(label)
    assert rng.state.units["shadow"].marker == label
    assert rng.view("spectator").markers == (label,)
    # His own side sees him, and the label of his marker; the referee sees all of it.
    assert rng.view("irregulars").markers == ()
    assert rng.view("irregulars").units["shadow"].marker == label
    assert rng.view("referee").markers == ()
    # The label is the referee's alone in the log.
    placed = [ln for ln in rng.log_lines("referee") if isinstance(ln.event, ev.MarkerPlaced)]
    assert [(ln.event.unit, ln.event.label, ln.event.vis) for ln in placed] == [("shadow", label, ("referee",))]
    assert "under the marker" in placed[0].text
    for role in ("regulars", "irregulars", "spectator"):
        assert not any(isinstance(ln.event, ev.MarkerPlaced) for ln in rng.log_lines(role))


def test_a_side_sights_a_marker_with_the_books_dice(rng):
    """§7.0: at 15 cm a sighting needs 3 (R2 spotter, Irr1 target: no modifier).
    Sgt Stone rolls 2 and fails; the Saw gunner rolls 3 and sights him.

    Digest: SPOT-3.
    """
    label = _label(rng)
    mark = rng.log_length
    out = rng.execute(f"react-spot sarge {label.lower()} range=15 dice=2", role="regulars")
    (roll,) = rolls(out)
    assert (roll.faces, roll.target, roll.outcome) == ((2,), 3, "not sighted")
    assert roll.purpose == f"sighting of a hidden figure (marker {label}) at 15 cm"
    told = _told(rng, "regulars", mark)
    assert f"react-spot sarge {label.lower()} range=15" in told  # the side sees its own command
    assert "Shadow" not in told and "shadow" not in told
    assert rng.view("regulars").markers == (label,)
    out = rng.execute(f"react-spot saw {label} range=15 dice=3", role="regulars")
    assert facts(out, ev.Spotted)[0].by_side == "regulars"
    # The reveal the book allows: the man under the marker, and the marker is his.
    assert rng.view("regulars").markers == ()
    assert rng.view("regulars").units["shadow"].marker == label
    assert "Shadow" in _told(rng, "regulars", mark)


def test_a_side_fires_speculatively_at_a_marker_with_the_books_dice(tmp_path, monkeypatch):
    """§8.6: resolved as normal fire with +2 on the save.  The GL at 40 cm needs 5: a 5 hits;
    Shadow (Irr1) saves on 4+ with +2 against speculative fire, rolls 1 and falls; his
    wound die 4 is a bad wound (§9.3).  The regulars are told of their hit, not of him.

    Digest: SPEC-1.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    label = _label(g)
    mark = g.log_length
    out = g.execute(f"speculative rook {label} range=40 weapon=GL dice=5,1,4", role="regulars")
    to_hit, save, wound = rolls(out)
    assert (to_hit.faces, to_hit.target, to_hit.outcome) == ((5,), 5, "1 hit")
    assert to_hit.purpose == f"speculative fire with Grenade launcher at marker {label}, 40 cm"
    assert (save.faces, save.target) == ((1,), 4) and "speculative fire" in save.mods[0].label
    assert wound.faces == (4,) and "badly wounded" in wound.outcome
    assert plain(g.state.units["shadow"].out).startswith("wounded")
    told = _told(g, "regulars", mark)
    assert f"at marker {label}, 40 cm: 1d6 needing 5+: 5 → 1 hit" in told
    assert "Shadow" not in told and "shadow" not in told and "save" not in told
    assert "Shadow" not in _told(g, "spectator", mark)
    # His figure is off the table, and his marker with him (rulings BN-C-MARKER).
    assert g.view("regulars").markers == ()


def test_a_side_cannot_aim_a_normal_shot_at_a_marker_nor_suspect_a_man_in_sight(rng):
    """§7.0: a normal shot cannot aim at a hidden man's marker; a man in sight is fired at, not suspected.

    Digest: SPOT-2.
    """
    label = _label(rng)
    refused(rng, f"@regulars fire sarge {label} range=20 dice=1", f"no unit '{label}'", rule=TYPING)
    refused(
        rng, "@regulars speculative rook kalash range=20 dice=1", "Kalash Man is in sight: fire at him", rule="SPEC-1"
    )
    refused(rng, "@regulars speculative rook shadow range=20 dice=1", "no unit 'shadow'", rule=TYPING)
    refused(rng, "@regulars react-spot sarge Z9Z range=20 dice=1", "no unit 'Z9Z'", rule=TYPING)


def test_a_man_who_hides_gets_a_new_label_and_his_side_is_told_it(rng):
    """§7.0: Emfour is declared hidden: a marker with a new label stands for him; his side is told it;
    moving in the open lifts it.

    Digest: SPOT-1.
    """
    before = _label(rng)
    rng.execute("hide m4", role="regulars")
    (label,) = rng.view("irregulars").markers
    assert LABEL.fullmatch(label) and label != before
    assert rng.view("regulars").units["m4"].marker == label
    assert sorted(rng.view("spectator").markers) == list(rng.view("spectator").markers) == sorted([before, label])
    rng.execute("move m4 10", role="regulars")  # a normal move reveals him (§7.0): the marker is lifted
    assert rng.view("irregulars").markers == ()
    assert rng.state.units["m4"].marker == ""


def test_labels_come_from_the_seed_and_the_command_not_from_the_unit():
    """The same seed and command give the same labels (scripts replay); another seed
    others; and a label never spells a unit's id or a word of its name."""
    from core.log.state import GameState, Unit

    state = GameState(units={"k7q": Unit("k7q", "Bob K2A", "x")})
    same = [MarkerLabels(7, 3).draw(state) for _ in range(2)]
    assert same[0] == same[1]
    assert {MarkerLabels(seed, 3).draw(state) for seed in range(40)} != {same[0]}
    labels = MarkerLabels(7, 3)
    drawn = {labels.draw(state) for _ in range(300)}
    assert all(LABEL.fullmatch(x) for x in drawn) and not drawn & {"K7Q", "BOB", "K2A"}
    assert LABEL.fullmatch(MarkerLabels().draw(state))  # no seed: the system's CSPRNG


@pytest.mark.long
def test_replays_and_logs_as_a_side_name_the_label_never_the_man(demo, capsys):
    """``fireteam replay --as`` at every step and ``fireteam log --as``: the regulars and the
    spectator see the demo's two markers by label, never Dahir or Egal, nor which is which."""
    from tui.main import main as fireteam

    first, second = demo.view("regulars").markers
    demo.execute(f"react-spot conti {first} range=30 dice=1", role="regulars")
    demo.execute(f"speculative greco {second} range=30 dice=6,6", role="regulars")
    demo.close()
    hidden = ("dahir", "egal", "Dahir", "Egal", "under the marker")
    done = Game.open(demo.path, writable=False)
    for role in ("regulars", "spectator"):
        # a side's steps count the events it may see (core.log.replay.visible_steps)
        total = len(visible_steps(done.history, role, done.timeline.length))
        assert fireteam(["log", str(demo.path), "--as", role]) == 0
        log = capsys.readouterr().out
        assert not [w for w in hidden if w in log], role
        assert f"(marker {first}) at 30 cm" in log or role == "spectator"
        assert f"at marker {second}, 30 cm" in log
        for step in range(total + 1):
            assert fireteam(["replay", str(demo.path), "--as", role, "--json", "--step", str(step)]) == 0
            text = capsys.readouterr().out
            assert not [w for w in hidden if w in text], (role, step)
        assert json.loads(text)["markers"] == sorted([first, second])
        assert fireteam(["replay", str(demo.path), "--as", role]) == 0
        assert f"hidden markers on the table: {first}, {second}" in capsys.readouterr().out
    assert fireteam(["log", str(demo.path)]) == 0
    referee = capsys.readouterr().out
    assert "Dahir Omar is under the marker" in referee and "Egal Yusuf is under the marker" in referee


def test_a_man_who_drops_out_of_sight_under_fire_leaves_a_marker_and_the_firer_sees_his_command(rng):
    """§10.0 (ruling BN-C-SUPPRESS-HIDE): Kalash saves behind cover (6 on 5+), is suppressed
    and hidden; the regulars see a new marker, and their own fire command (ruling CORE-TEXT)."""
    mark = rng.log_length
    out = rng.execute("fire sarge kalash range=20 cover dice=6,6", role="regulars")
    assert [r.faces for r in rolls(out)] == [(6,), (6,)]
    assert {"suppressed", "hidden"} <= set(rng.state.units["kalash"].status)
    label = rng.state.units["kalash"].marker
    assert label in rng.view("regulars").markers and len(rng.view("regulars").markers) == 2
    assert rng.log_lines("regulars", mark)[0].text == "» Rangers: fire sarge kalash range=20 cover dice=6,6"
    assert label not in _told(rng, "regulars", mark)


def test_a_man_spotted_by_one_side_is_named_only_to_those_who_see_him(tmp_path):
    """In the demo, the regulars sight the hidden Dahir Omar and shoot him: the shot
    names him to the regulars and to his own side, never to a spectator, who never
    sees the man (nor the opening of his hidden deployment, committed to his side).

    Digest: SPOT-5.
    """
    import shutil
    from pathlib import Path

    save = tmp_path / "demo.ft"
    shutil.copy(Path(__file__).parents[3] / "saves" / "demo-game.ft", save)
    with closing(Game.open(save, writable=False)) as g:
        shot = [ln.text for ln in g.log_lines("referee") if "fire with Light machine gun at Dahir Omar" in ln.text]
        assert len(shot) == 1
        for role in ("regulars", "irregulars"):
            assert shot[0] in [ln.text for ln in g.log_lines(role)]
        spectator = [ln.text for ln in g.log_lines("spectator")]
        assert any("Cpl Bianchi now fired" in t for t in spectator)  # the table shows that he fired
        assert not [t for t in spectator if "Dahir" in t]
