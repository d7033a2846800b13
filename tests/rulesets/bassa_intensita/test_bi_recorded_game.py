"""The recorded Bassa Intensità game: saves/bassa-intensita-game.ft is what
saves/bassa-intensita-game.script makes, and it is a whole game of the built-in
scenario convoy, from the set-up to the recorded result."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest

from core import events as ev
from core.cli import run_script
from core.game import Game

ROOT = Path(__file__).parents[3]
SCRIPT = ROOT / "saves" / "bassa-intensita-game.script"
SAVE = ROOT / "saves" / "bassa-intensita-game.ft"
SEED = 2026
REGENERATE = (
    "rm saves/bassa-intensita-game.ft && fireteam script saves/bassa-intensita-game.script "
    f"--save saves/bassa-intensita-game.ft --seed {SEED} --ruleset bassa-intensita"
)


def effective_facts(path: Path) -> list[dict]:
    """Every event of the file, without the wall-clock time of the commands."""
    game = Game.open(path, writable=False)
    out = []
    for line in game.log_lines():
        data = msgspec.to_builtins(line.event)
        data.pop("at", None)
        out.append(data)
    return out


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    save = tmp_path_factory.mktemp("bassa") / "bassa-intensita-game.ft"
    assert run_script(SCRIPT, save, SEED, "bassa-intensita", "", out=io.StringIO()) == 0
    return save


def test_the_script_makes_the_committed_save(regenerated):
    """A change to what any command records changes the game: regenerate the save
    (and read its log) when this fails."""
    assert effective_facts(regenerated) == effective_facts(SAVE), f"the Bassa Intensità save is stale: {REGENERATE}"


def test_the_recorded_game_ends_with_a_result():
    game = Game.open(SAVE, writable=False)
    state = game.state
    assert state.phase == "ended" and state.turn == 5
    assert state.result == (
        "Italian convoy win: the truck crossed the bridge and left by the north edge. "
        "Losses: Italian convoy: 1 wounded; Road militia: 1 killed, 1 wounded"
    )
    assert isinstance(game.log_lines()[-1].event, ev.GameEnded)


def test_the_game_shows_vehicles_he_indirect_fire_night_and_smoke():
    game = Game.open(SAVE, writable=False)
    texts = [line.text for line in game.log_lines()]
    assert game.state.vars["scenario.night"] == "dark"
    # Vehicles: the mine immobilises the Puma; the section gets out of the truck.
    assert "Puma armoured car now immobilised, now damaged" in texts
    assert any(t.startswith("Pte Russo moves 0 cm (dismounts from ACM 90 truck") for t in texts)
    # Night without moon: every shot in the dark at -2 (A.9.4).
    shots = [t for t in texts if " fires his " in t]
    assert shots and all("night, no moon -2" in t for t in shots)
    # HE: the RPG's miss deviates; the 81 mm bursts catch two men.
    assert any("the HE round deviates" in t for t in texts)
    assert "Abdi the gunner out of action: killed by a Cannoni/mortai <103mm burst" in texts
    # Indirect fire: contact, ranging shot, fire for effect, in three turns (BI-R102..R104).
    for step in ("contacted in turn 2", "ranged in turn 3", "ranged in turn 4"):
        assert f"gatti's fire support (gun-102): {step}" in texts, step
    # Smoke: the Puma's dischargers, lasting 6 + 1d6 turns.
    assert any(
        t.startswith("smoke: smoke dischargers") and t.endswith("by Puma armoured car, until the end of turn 12")
        for t in texts
    )
    rolls = [line.event.roll for line in game.log_lines() if isinstance(line.event, ev.Rolled)]
    assert any(r.purpose.startswith("morale") for r in rolls)
