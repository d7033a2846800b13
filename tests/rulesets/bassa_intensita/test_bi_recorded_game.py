"""The recorded Bassa Intensità game: saves/bassa-intensita-game.ft is what
saves/bassa-intensita-game.script makes, and it is a whole game of the built-in
scenario convoy, from the set-up to the recorded result."""

from __future__ import annotations

from recorded import RecordedGame

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev

GAME = RecordedGame("bassa-intensita-game", "bassa-intensita", 2026)
SAVE = GAME.save


def test_the_script_makes_the_committed_save(tmp_path):
    GAME.assert_regenerates(tmp_path)


def test_the_recorded_game_ends_with_a_result():
    game = Game.open(SAVE, writable=False)
    state = game.state
    assert state.phase == "ended" and state.turn == 5
    assert plain(state.result) == (
        "Italian convoy win: the truck crossed the bridge and left by the north edge. "
        "Losses: Italian convoy: 1 wounded; Road militia: 1 killed, 1 wounded"
    )
    assert isinstance(game.log_lines(role="referee")[-1].event, ev.GameEnded)


def test_the_game_shows_vehicles_he_indirect_fire_night_and_smoke():
    game = Game.open(SAVE, writable=False)
    texts = [line.text for line in game.log_lines(role="referee")]
    assert game.state.vars["scenario.night"] == "dark"
    # Vehicles: the mine immobilises the Puma; the section gets out of the truck.
    assert "Puma armoured car now immobilised, now damaged" in texts
    assert any(t.startswith("Pte Russo moves 0 cm (dismounts from ACM 90 truck") for t in texts)
    # Night without moon: every shot in the dark at -2 (A.9.4).
    shots = [t for t in texts if " fire with his " in t]
    assert shots and all("night, no moon -2" in t for t in shots)
    # HE: the RPG's miss deviates; the 81 mm bursts catch two men.
    assert any("the HE round deviates" in t for t in texts)
    assert "Abdi the gunner out of action: killed by a Cannoni/mortai <103mm burst" in texts
    # Indirect fire: contact, ranging shot, fire for effect, in three turns (BI-R102..R104).
    for step in ("contacted in turn 2", "ranged in turn 3", "ranged in turn 4"):
        assert f"Sgt Gatti's fire support (Cannoni/mortai <103mm): {step}" in texts, step  # by name and row (#26)
    # Smoke: the Puma's dischargers, lasting 6 + 1d6 turns.
    assert any(
        t.startswith("smoke: smoke dischargers") and t.endswith("by Puma armoured car, until the end of turn 12")
        for t in texts
    )
    rolls = [line.event.roll for line in game.log_lines(role="referee") if isinstance(line.event, ev.Rolled)]
    assert any(plain(r.purpose).startswith("morale") for r in rolls)
