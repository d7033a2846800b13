"""The recorded demo game: saves/demo-game.ft is what saves/demo-game.script makes,
it plays the whole game to the final count, and it hides what it should."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest

from core import events as ev
from core.cli import run_script
from core.game import Game

ROOT = Path(__file__).parents[3]
SCRIPT = ROOT / "saves" / "demo-game.script"
SAVE = ROOT / "saves" / "demo-game.ft"


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
    save = tmp_path_factory.mktemp("demo") / "demo-game.ft"
    assert run_script(SCRIPT, save, 2026, "breaking-news", "", out=io.StringIO()) == 0
    return save


REGENERATE = "rm saves/demo-game.ft && fireteam script saves/demo-game.script --save saves/demo-game.ft --seed 2026"


def test_the_script_makes_the_committed_save(regenerated):
    """A change to what any command records changes the game: regenerate the save
    (and read its log) when this fails."""
    assert effective_facts(regenerated) == effective_facts(SAVE), f"the demo save is stale: {REGENERATE}"


def test_the_demo_is_a_whole_game():
    game = Game.open(SAVE, writable=False)
    state = game.state
    assert state.phase == "ended" and state.turn == 6
    assert state.result.startswith("Bersaglieri win with 20 defeat points against 165")
    kinds = {type(line.event) for line in game.log_lines()}
    assert {ev.PhaseBegan, ev.Rolled, ev.UnitOut, ev.DefeatPoints, ev.SecretSet, ev.Revealed, ev.GameEnded} <= kinds
    texts = [line.text for line in game.log_lines()]
    for step in ("rolloff", "deploy", "negotiate", "objective-roll", "ambush", "morale", "take", "react-fire"):
        assert any(t.startswith("» ") and f": {step}" in t or f"@{step}" in t for t in texts), step


def test_the_demo_log_keeps_the_militias_secrets_until_the_end():
    game = Game.open(SAVE, writable=False)
    end = next(i for i, line in enumerate(game.log_lines("regulars")) if "revealed: marker.regulars.1" in line.text)
    before = [line.text for line in game.log_lines("regulars")[:end]]
    assert not [t for t in before if "objective.die" in t or "secret objective die:" in t or "ied." in t]
    assert any("irregulars roll the secret objective die" in t for t in before)
