"""The recorded Linea di Tiro game: saves/linea-di-tiro-game.ft is what
saves/linea-di-tiro-game.script makes, it plays a built-in scenario to its recorded
result, and on the way it uses vehicles, artillery and every kind of assault."""

from __future__ import annotations

import pytest
from recorded import RecordedGame

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev

GAME = RecordedGame("linea-di-tiro-game", "linea-di-tiro", 9)
SAVE = GAME.save


@pytest.fixture(scope="module")
def events() -> list:
    return [line.event for line in Game.open(SAVE, writable=False).log_lines(role="referee")]


def test_the_script_makes_the_committed_save(tmp_path):
    GAME.assert_regenerates(tmp_path)


def test_the_game_is_a_built_in_scenario_played_to_its_recorded_result(events):
    state = Game.open(SAVE, writable=False).state
    assert state.scenario == "Night at the Vire bridge"
    assert state.phase == "ended" and state.turn == 15
    assert plain(state.result) == (
        "US 30th Infantry win: two half-squads hold the far bank and the rearguard is destroyed "
        "(US 30th Infantry lost 0 of 4; Rearguard lost 2 of 2; after 15 cards)"
    )
    assert isinstance(events[-1], ev.GameEnded) and events[-1].result == state.result
    cards = [e.card for e in events if isinstance(e, ev.PhaseBegan) and e.phase == "card"]
    assert len(cards) == 15 and "Joker" in cards
    actives = [e.active for e in events if isinstance(e, ev.PhaseBegan) and e.phase == "card"]
    assert actives.count("us") >= 5 and actives.count("german") >= 5, actives


def _rolls(events: list) -> list[tuple[str, str, str]]:
    return [(e.unit, plain(e.roll.purpose), plain(e.roll.outcome)) for e in events if isinstance(e, ev.Rolled)]


def test_the_game_uses_vehicles_artillery_and_assaults(events):
    rolls = _rolls(events)
    purposes = [p for _, p, _ in rolls]
    # vehicles: the StuG's anti-tank fire at the halftrack, short and long range
    assert sum(p.startswith("AT fire at Halftrack Able") for p in purposes) == 2
    # artillery: called on a face card, opening on the joker, on both squares' units
    assert ev.VarSet(key="artillery.us", value="requested") in events
    assert ev.VarSet(key="artillery.us", value="firing") in events
    shelled = [(p.partition(" (")[0], o) for u, p, o in rolls if p.startswith("artillery fire on")]
    assert shelled == [
        ("artillery fire on MG 42 in the mill", "modified total 3, column +1: I: immobilised, loses its ready attacks"),
        ("artillery fire on StuG Berta", "modified total 1, column 0: I: a tank tests morale"),
    ]
    # the assaults: a failed close assault, a melee won, an overrun stopped by a first strike
    assert ("second", "no effect") in [(u, o) for u, p, o in rolls if p.startswith("close assault at StuG")]
    melee = [(u, o) for u, p, o in rolls if p.startswith("melee with")]
    assert melee == [("first", "total 7"), ("mg", "total 5")]
    assert ("second", "passed: it strikes first") in [(u, o) for u, p, o in rolls if "overrun" in p]
    assert ("second", "tank destroyed") in [(u, o) for u, p, o in rolls if p.startswith("first strike")]
    outs = {e.unit: plain(e.cause) for e in events if isinstance(e, ev.UnitOut)}
    assert outs == {
        "mg": "captured or destroyed in a melee with 1st squad, first half",
        "stug": "destroyed in a close assault",
    }


def test_the_game_shows_spotting_an_ambush_reply_morale_and_a_rout(events):
    assert ev.Spotted(unit="mg", by_side="us", vis=("german", "us")) in events
    issued = [(e.by, e.text) for e in events if isinstance(e, ev.Issued)]
    assert ("german", "mg mg second ambush defence=still-open dice=5") in issued
    assert ("us", "rout m3") in issued
    morale = [(u, o) for u, p, o in _rolls(events) if p.startswith("morale test,")]
    assert morale == [("stug", "modified total 2: steady")]
    texts = [plain(e.text) for e in events if isinstance(e, ev.Noted)]
    assert any("a voluntary rout" in t for t in texts)
    assert any(t.startswith("joker: a German flare") for t in texts)


def test_the_americans_log_keeps_the_hidden_mg_secret_until_it_is_spotted():
    texts = [line.text for line in Game.open(SAVE, writable=False).log_lines("us")]
    spotted = texts.index("MG 42 in the mill spotted by US 30th Infantry")  # the side by its name (issue #26)
    before = texts[:spotted]
    assert not [t for t in before if "MG 42" in t or "mg mg" in t or "activate mg" in t]
    assert "1st squad, second half now immobilised" in before, "the Americans see what the fire did"
    during = [t for t in texts if not t.startswith("opened at the end: ")]  # the end opens every commitment
    assert not [t for t in during if "deck is shuffled" in t], "the deck's order is the referee's"
    assert any("deck is shuffled" in line.text for line in Game.open(SAVE, writable=False).log_lines(role="referee"))
