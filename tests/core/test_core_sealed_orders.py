"""A side's sealed order (issue #60): ``seal TEXT`` at its own seat, as Bassa Intensità's
observer writes his target down (BI-R102).  Committed at once, to everyone; its words its
side's and the referee's only; opened by the referee's ``reveal`` or at the game's end;
checked by ``fireteam verify``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing

import msgspec
import pytest
from coretests_support import Skirmish, file_events
from forged import rewrite
from playing import names, refused

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.registry import get_ruleset, register, unregister
from core.ruleset import CommandSpec, Refused
from core.secrets.commitments import digest
from core.secrets.sidecopy import export, write
from core.secrets.verify import MISMATCH, OK, verify
from tui.main import main as fireteam

ORDER = "the mortars fire on the farm"


class _Ending(Skirmish):
    """The test skirmish with a command that ends the game."""

    def commands(self):
        over = CommandSpec(
            "over", "End the game.", lambda ctx, args: ctx.emit(ev.GameEnded(result="over")), who="referee"
        )
        return [*super().commands(), over]


@pytest.fixture
def game(tmp_path) -> Iterator[Game]:
    register(_Ending)
    try:
        game = Game.new(tmp_path / "g.ft", _Ending.id, seed=5, clock=lambda: 2_000)
        game.execute("setup", role=REFEREE)
        game.execute(f'seal "{ORDER}"', role="blue")
        yield game
        game.close()
    finally:
        unregister(_Ending.id)


def _seen(game: Game, role: str) -> str:
    """Everything ``role`` may know of the game: its copy and its log."""
    log = "\n".join(line.text for line in game.log_lines(role))
    return msgspec.json.encode(export(game, role)).decode() + log


def test_the_other_sides_see_only_that_a_sealed_order_was_written(game):
    events = file_events(game.path)
    (order,) = [e for e in events if isinstance(e, ev.SecretSet) and e.owner == "blue"]
    commit = events[events.index(order) + 1]
    assert order.key == "order.blue.1" and order.value == ORDER and order.vis == ("blue",)
    assert isinstance(commit, ev.Committed) and commit.vis == () and commit.owner == "blue"
    assert commit.digest == digest(order.key, order.value, order.salt)
    for other in ("red", "spectator"):
        seen = _seen(game, other)
        assert commit.digest in seen and "commitment to a secret of Blue" in seen
        assert "mortars" not in seen and order.salt not in seen and "seal" not in seen
    for knows in ("blue", REFEREE):
        assert "Blue's sealed order 1: the mortars fire on the farm" in _seen(game, knows)


def test_a_sides_orders_are_numbered_and_only_its_own(game):
    game.execute('seal "hold the ford"', role="blue")
    game.execute('seal "flank right"', role="red")
    assert [k for k in game.state.secrets if k.startswith("order.")] == ["order.blue.1", "order.blue.2", "order.red.1"]
    assert "hold the ford" not in _seen(game, "red") and "flank right" not in _seen(game, "blue")


def test_an_empty_order_is_refused(game):
    refused(game, "@blue seal", rule=TYPING)


def test_the_referee_seals_no_order(game):
    """Issue #77: the referee could seal an order "for the referee", sealed from no one (ruling
    CORE-SEALED-ORDER): refused, and nothing recorded."""
    length = game.log_length
    assert "a sealed order is a side's" in refused(game, 'seal "the storm comes at dusk"', rule="ENG-1")
    assert game.log_length == length and not [k for k in game.state.secrets if k.startswith("order.referee")]


def test_revealed_by_the_referee_all_see_it_and_verify_checks_it(game, tmp_path):
    game.execute("reveal order.blue.1", role=REFEREE)
    for role in ("red", "spectator"):
        assert "revealed: Blue's sealed order 1: the mortars fire on the farm (matches its commitment" in _seen(
            game, role
        )
    write(export(game, "red"), tmp_path / "red.json")
    for path in (game.path, tmp_path / "red.json"):
        result = verify(path)
        (check,) = [c for c in result.checks if c.key == "order.blue.1"]
        assert check.status == OK and check.opened and result.ok


def test_the_end_of_the_game_opens_it(game, tmp_path):
    game.execute("over", role=REFEREE)
    seen = _seen(game, "red")
    assert "Blue's sealed order 1: the mortars fire on the farm" in seen
    write(export(game, "red"), tmp_path / "red.json")
    result = verify(tmp_path / "red.json")
    (check,) = [c for c in result.checks if c.key == "order.blue.1"]
    assert check.status == OK and result.ok and result.ended


def test_an_opening_edited_fails_verify(game, tmp_path):
    game.execute("reveal order.blue.1", role=REFEREE)
    game.close()

    def edit(events):
        return [
            msgspec.structs.replace(e, value="the mortars fire on the church")
            if isinstance(e, ev.Revealed) and e.key == "order.blue.1"
            else e
            for e in events
        ]

    write(export(game, "red"), tmp_path / "red.json")
    rewrite(game.path, edit)
    result = verify(game.path)
    (check,) = [c for c in result.checks if c.key == "order.blue.1"]
    assert check.status == MISMATCH and "does not match its commitment" in check.why and not result.ok
    # The side's copy kept the opening as it was: the save no longer gives it.
    assert fireteam(["verify", str(game.path), "--side-copy", str(tmp_path / "red.json")]) == 1


def test_a_side_cannot_take_back_its_sealed_order_alone(game):
    """Every side saw it committed: a side that could undo it could seal orders until one suited
    it and keep that one.  The referee can (CORE-UNDO)."""
    with pytest.raises(Refused, match="only the referee can undo it") as no:
        game.undo(role="blue", by="blue")
    names(no.value, "ENG-3")
    game.undo(role=REFEREE)
    assert "order.blue.1" not in game.state.secrets


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [("bassa-intensita", "convoy"), ("linea-di-tiro", None), ("ludonet", None), ("breaking-news", None)],
)
def test_every_ruleset_lets_each_side_seal_out_of_its_turn(ruleset, scenario, tmp_path):
    """Writing an order down is no action of the rules: no ruleset's turn refuses it (BI-R102)."""
    with closing(Game.new(tmp_path / "g.ft", ruleset, seed=3)) as game:
        scenarios = get_ruleset(ruleset).scenarios
        game.execute(f"scenario {scenario or next(iter(scenarios))}", role=REFEREE)
        for side in game.state.sides:
            game.execute(f'seal "{side} holds"', role=side)
        assert [k for k in game.state.secrets if k.startswith("order.")] == [f"order.{s}.1" for s in game.state.sides]


@pytest.mark.parametrize(
    ("ruleset", "to_play"), [("breaking-news", ("next dice=3", "next dice=6,6,1,1")), ("ludonet", ())]
)
def test_reveal_and_tab_offers_the_referee_the_sealed_orders_first_by_their_keys(ruleset, to_play, tmp_path):
    """Issue #77: ``reveal`` + Tab offered no sealed order, and no screen showed its key: Tab offers the
    referee the keys of the secrets not open yet, the sealed orders first; an opened one no more."""
    game = Game.new(tmp_path / "g.ft", ruleset, seed=5)
    game.execute("scenario demo", role=REFEREE)
    side, other = list(game.state.sides)
    game.execute(f'seal "{ORDER}"', role=side)
    game.execute('seal "hold the ford"', role=other)
    offered = game.complete("reveal ", REFEREE)
    assert offered[:2] == sorted([f"order.{side}.1", f"order.{other}.1"])
    assert set(offered[2:]) == {k for k in game.state.secrets if not k.startswith("order.")} and offered[2:]
    assert game.complete(f"reveal order.{side[:2]}", REFEREE) == [f"order.{side}.1"]
    for line in to_play:  # (Breaking News reveals from its initiative phase)
        game.execute(line, role=REFEREE)
    game.execute(f"reveal order.{side}.1", role=REFEREE)
    assert f"order.{side}.1" not in game.complete("reveal ", REFEREE)
    assert not [k for k in game.complete("reveal ", side) if k.startswith("order.")]  # the referee's to open
    game.close()
