"""The recorded Ludonet game: saves/ludonet-game.ft is what saves/ludonet-game.script
makes, and it is a whole game, from the scenario to the recorded result."""

from __future__ import annotations

from recorded import RecordedGame

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev

GAME = RecordedGame("ludonet-game", "ludonet", 2026)
SAVE = GAME.save


def test_the_script_makes_the_committed_save(tmp_path):
    GAME.assert_regenerates(tmp_path)


def test_the_recorded_game_is_a_whole_game():
    game = Game.open(SAVE, writable=False)
    state = game.state
    assert state.phase == "ended" and state.turn == 7
    assert plain(state.result).startswith(
        "Kampfgruppe von Luck win: Fife and Forfar Yeomanry have nothing left in play"
    )
    texts = [line.text for line in game.log_lines(role="referee")]
    for verb in ("move", "prone", "fire", "pass", "strike", "grenade", "melee", "morale"):
        assert any(t.startswith("» ") and f": {verb} " in t for t in texts), verb
    rolls = [line.event.roll for line in game.log_lines(role="referee") if isinstance(line.event, ev.Rolled)]
    assert any(r.rule == "LN-R041" for r in rolls)  # the opposed combat-value roll
    assert any(t.endswith("now immobilised, no longer hit: immobilised") for t in texts)
    assert any("flew its last pass" in t for t in texts)
    assert any(t.endswith("lost with Sherman Firefly") for t in texts)  # its driver (ruling LN-CREW)
    assert isinstance(game.log_lines(role="referee")[-1].event, ev.GameEnded)


def test_the_british_never_read_of_the_hidden_mg_until_it_is_seen():
    game = Game.open(SAVE, writable=False)
    texts = [line.text for line in game.log_lines("british")]
    seen = next(i for i, t in enumerate(texts) if t == "MG 34 team no longer hidden")
    assert not [t for t in texts[:seen] if "MG 34 team" in t]
    assert any("MG 34 team joins Kampfgruppe von Luck" in t for t in game.log_lines("german") for t in [t.text])
