"""The recorded demo game: saves/demo-game.ft is what saves/demo-game.script makes,
it plays the whole game to the final count, and it hides what it should."""

from __future__ import annotations

from english import english_roll
from recorded import RecordedGame

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev

GAME = RecordedGame("demo-game", "breaking-news", 2026)
SAVE = GAME.save


def test_the_script_makes_the_committed_save(tmp_path):
    GAME.assert_regenerates(tmp_path)


def test_the_demo_is_a_whole_game():
    game = Game.open(SAVE, writable=False)
    state = game.state
    assert state.phase == "ended" and state.turn == 6
    assert plain(state.result).startswith("Somali militia win with 20 defeat points against 30 for Bersaglieri")
    kinds = {type(line.event) for line in game.log_lines(role="referee")}
    assert {ev.PhaseBegan, ev.Rolled, ev.UnitOut, ev.DefeatPoints, ev.SecretSet, ev.Revealed, ev.GameEnded} <= kinds
    texts = [line.text for line in game.log_lines(role="referee")]
    steps = ("rolloff", "deploy", "negotiate", "objective-roll", "ambush", "morale", "take", "react-fire", "ied")
    for step in steps:
        assert any(t.startswith("» ") and f": {step}" in t or f"@{step}" in t for t in texts), step


def test_the_demo_log_keeps_the_militias_secrets_until_the_end():
    game = Game.open(SAVE, writable=False)
    end = next(
        i for i, line in enumerate(game.log_lines("regulars")) if "revealed: Bersaglieri's marker 1 is" in line.text
    )
    texts = [line.text for line in game.log_lines("regulars")]
    assert not [t for t in texts[:end] if "objective.die" in t or "secret objective die:" in t or "die shows" in t]
    set_off = next(i for i, t in enumerate(texts) if t.startswith("Somali militia's IED at Somali militia's marker 4"))
    assert not [t for t in texts[:set_off] if "ied." in t or "plant" in t], "the IED is secret until it goes off"
    before = texts[:end]
    assert any("Somali militia roll the secret objective die" in t for t in before)


def test_the_demo_shows_a_close_fight_from_both_sides():
    """What a first replay should show: each side active in turn, hits and misses, saves
    passed and failed, suppression and its tests both ways, a sighting, morale tests,
    and a count decided by a few points."""
    game = Game.open(SAVE, writable=False)
    events = [line.event for line in game.log_lines(role="referee")]
    actives = [e.active for e in events if isinstance(e, ev.PhaseBegan) and e.phase == "activation"]
    assert actives.count("regulars") >= 2 and actives.count("irregulars") >= 2, actives
    rolls = [english_roll(e.roll) for e in events if isinstance(e, ev.Rolled)]
    shots = {r.outcome for r in rolls if r.purpose.startswith("fire with")}
    assert "miss" in shots and "1 hit" in shots
    saves = {r.outcome for r in rolls if r.purpose == "save"}
    assert saves == {"saved: suppressed", "failed: out of action"}
    tests = {r.outcome for r in rolls if r.purpose == "suppression test"}
    assert tests == {"passes", "fails: in panic"}
    assert any(r.purpose.startswith("sighting") and r.outcome == "sighted" for r in rolls)
    assert any(isinstance(e, ev.Spotted) for e in events)
    assert _ied_set_off_in_the_enemys_activation(events)
    assert len([r for r in rolls if r.purpose.startswith("morale")]) >= 4
    points = sorted(side.defeat_points for side in game.state.sides.values())
    assert points[1] - points[0] <= 10, points


def _ied_set_off_in_the_enemys_activation(events: list) -> bool:
    """The militia, reacting, set off their own IED (rulings BN-C-REACTING-SUPPORT)."""
    active = ""
    for e in events:
        if isinstance(e, ev.PhaseBegan):
            active = e.active
        if isinstance(e, ev.Issued) and e.text == "ied 4":
            return e.by == "irregulars" and active == "regulars"
    return False
