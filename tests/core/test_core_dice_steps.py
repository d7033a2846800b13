"""Which step of its command's dice a roll is (``DiceRequest.step``), so a referee typing
real dice through a long sequence keeps his place.

Each roll names its step of the command's order (``Context.roll(step=...)``, the
phrase ``CommandSpec.dice`` says, from the one constant both use), or is rolled under
one (``Context.at_step``).  A roll placed on no step of its command's order is a bug:
the tests check it on every roll they play (tests/conftest.py sets
``core.dice.faces.CHECK_STEPS``), the recorded games of every ruleset are played here with
table dice, and every roll in the rulesets' code names a step (read statically).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import msgspec
import pytest

from core.dice import faces as core_dice
from core.dice.faces import DiceRequest, ManualDice, NeedDice, UnplacedRoll
from core.game import Game
from core.log import events as ev
from core.log.outcome import DiceNeeded
from core.log.state import GameState
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.ruleset import Context
from core.rulesets import common
from core.rulesets.breaking_news import dice_order as bn_steps
from tui.ssh.workers import wire

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "shared"))
sys.path.insert(0, str(TESTS / "breaking_news" / "combat"))
from bn_combat_support import at_initiative, new_game  # noqa: E402
from recorded import play_with_table_dice, recorded_games  # noqa: E402

RULESETS = Path(common.__file__).parent


def requests(game: Game, line: str, faces_per_roll: list[list[int]]) -> list[DiceRequest]:
    """Give ``line`` with table dice, answering each roll it asks for with the next of
    ``faces_per_roll``; every request made, in order.  The line must be done at the end."""
    asked, faces = [], []
    answers = iter(faces_per_roll)
    while True:
        try:
            game.execute(line, role=REFEREE, faces=faces)
            return asked
        except NeedDice as need:
            asked.append(need.request)
            faces += next(answers)


def test_a_fire_sequence_asks_to_hit_then_the_save_then_the_wound_each_as_its_step(tmp_path):
    g = new_game(tmp_path, "demo", options=("wounded",))
    asked = requests(g, "fire conti bashir range=40", [[6], [1], [3]])
    order = g.parse("fire conti bashir range=40", REFEREE).spec.dice
    assert order == (bn_steps.SUPPRESSION, bn_steps.TO_HIT, bn_steps.MISSED_AREA_SHOT, bn_steps.SAVES, bn_steps.WOUND)
    assert [(r.purpose.id, r.step) for r in asked] == [
        ("fire with {weapon} at {target}, {cm} cm", 1),
        ("save", 3),
        ("wound", 4),
    ]
    assert [r.step_text() for r in asked] == [
        "now step 2 of 5: to hit: the weapon's dice, per target",
        "now step 4 of 5: each hit's save: 1d6 per hit (a vehicle's own save first, then each man aboard)",
        "now step 5 of 5: with the wounded rule, each failed save: the wound, 1d6",
    ]
    # the faces decided it as given: hit on the 6 (needs 4+), the save's 1 fails, the
    # wound's 3 is three turns to live (§8.0, §9.0, §9.3)
    assert not g.state.units["bashir"].in_play
    wound = [e for e in g.log_lines(role="referee") if isinstance(e.event, ev.Rolled)][-1].event.roll
    assert wound.faces == (3,) and wound.manual


def test_a_storms_failed_save_under_the_wounded_rule_asks_the_wound_as_its_step(tmp_path, monkeypatch):
    """storm's order lacked the wound its saves can lead to (hits.casualty): the walk found it."""
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    # Rook's 1 die hits on the 6 (§11.1), Tali1's 1 misses; Tali1's save of 1 fails, the wound's 4 (§9.3)
    asked = requests(g, "storm rook against=tali1", [[6], [1], [1], [4]])
    assert [r.step for r in asked] == [1, 2, 3, 4]
    assert asked[3].order[4] == bn_steps.WOUND and asked[3].purpose.id == "wound"
    assert not g.state.units["tali1"].in_play


def test_an_isolated_mans_smoke_asks_his_isolation_test_first(tmp_path):
    """Bassa Intensità's smoke (and aa, call, dress) rolled the isolation test (BI-R024)
    with no step for it in its order: the walk of the rolls found it."""
    g = Game.new(tmp_path / "bi.ft", "bassa-intensita", seed=11)
    g.execute("scenario demo", role=REFEREE)
    g.execute("next dice=5,2", role=REFEREE)  # Folgore first: the covering fire phase
    # the 2 passes his isolation test (5 or less, BI-R024); the smoke lasts 6 + 3 turns (BI-R171)
    asked = requests(g, "smoke deiana isolated", [[2], [3]])
    assert [(r.purpose.id, r.step) for r in asked] == [
        ("isolation test", 0),
        ("duration of the {what}", 1),
    ]
    assert [r.step_text() for r in asked] == [
        "now step 1 of 2: if isolated: his isolation test, 1d10",
        "now step 2 of 2: how long the smoke lasts: 1d6",
    ]
    smoke = [v for k, v in g.state.vars.items() if k.startswith("smoke.")]
    assert len(smoke) == 1 and smoke[0].endswith("|9"), smoke


def test_an_initiative_tied_is_asked_again_as_the_same_step(tmp_path):

    g = at_initiative(tmp_path, "demo")
    # Bersaglieri +6, Somali militia +4: 1,1 and 2,2 tie at 8, then 6,6 beats 1,1 (§5.0)
    asked = requests(g, "next", [[1, 1], [2, 2], [6, 6], [1, 1]])
    assert [(r.step, r.again) for r in asked] == [(2, 0), (2, 0), (2, 1), (2, 1)]
    assert asked[0].order[2] == bn_steps.NEXT_INITIATIVE
    assert g.state.phase == "activation" and g.state.active_side == "regulars"


def _context(order: tuple[str, ...]) -> Context:
    return Context(GameState(), ManualDice(), "referee", get_ruleset("breaking-news"), order=order)


def _asked(ctx: Context, **kw) -> DiceRequest:
    with pytest.raises(NeedDice) as need:
        ctx.roll("a roll", 1, **kw)
    return need.value.request


def test_a_roll_is_the_step_it_names_or_the_one_it_is_rolled_under(monkeypatch):
    ctx = _context(("first: 1d6", "second: 1d6", "third: 1d6"))
    assert _asked(ctx, step="second: 1d6").step == 1
    assert _asked(ctx, step=("not this one", "third: 1d6")).step == 2  # the first wording the order holds
    with ctx.at_step("first: 1d6"):
        assert _asked(ctx, step="third: 1d6").step == 0  # rolled as part of the first step
        with ctx.at_step("second: 1d6"):
            assert _asked(ctx, step="third: 1d6").step == 0  # the command's (outer) step wins over a helper's
    with ctx.at_step("a step of another command"):
        assert _asked(ctx, step="third: 1d6").step == 2
    assert _asked(_context(("the only one: 1d6",))).step == 0  # a roll naming nothing, in an order of one step
    assert _asked(_context(())).step is None  # a command with no order (a test's ruleset)


def test_a_roll_placed_on_no_step_of_its_order_is_a_bug_when_checked(monkeypatch):
    ctx = _context(("first: 1d6", "second: 1d6"))
    assert core_dice.CHECK_STEPS, "tests/conftest.py checks every roll the tests play"
    with pytest.raises(UnplacedRoll, match="names 'third: 1d6'"):
        ctx.roll("a roll", 1, step="third: 1d6")
    with pytest.raises(UnplacedRoll):
        ctx.roll("a roll", 1)  # naming nothing, in an order of two steps
    monkeypatch.setattr(core_dice, "CHECK_STEPS", False)  # a game: the list is shown unmarked
    assert _asked(ctx, step="third: 1d6").step is None


@pytest.mark.parametrize("game", recorded_games(), ids=lambda g: g.name)
def test_every_roll_of_the_recorded_games_is_a_step_of_its_commands_order(game, tmp_path):
    g, asked = play_with_table_dice(game, tmp_path)  # an unplaced roll fails the command (CHECK_STEPS)
    g.close()
    assert asked
    for a in asked:
        assert a.request.current() is not None, f"{game.name}: {a.line!r} asked {a.request.text()!r} at no step"


def _rolls(tree: ast.AST):
    """Every ``x.roll(purpose, count, ...)`` and ``x.shuffle(items, purpose, ...)`` call."""
    for node in ast.walk(tree):
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        if call and node.func.attr in ("roll", "shuffle") and len(node.args) >= 2:
            yield node


@pytest.mark.long
def test_every_roll_in_the_rulesets_code_names_its_step():
    """A roll added without its step fails here, before any game reaches it."""
    unnamed, seen = [], 0
    for path in sorted(RULESETS.rglob("*.py")):
        for call in _rolls(ast.parse(path.read_text())):
            seen += 1
            if not any(k.arg == "step" for k in call.keywords):
                unnamed.append(f"{path.relative_to(RULESETS)}:{call.lineno}")
    assert seen > 70 and not unnamed, unnamed  # 76 calls today: the walk reached the rulesets' rolls


def test_the_static_check_finds_a_roll_that_names_no_step():
    named = ast.parse("ctx.roll(M('save'), 2, step=SAVES)")
    bare = ast.parse("ctx.roll(M('save'), 2, target=4)")
    assert [any(k.arg == "step" for k in c.keywords) for c in [*_rolls(named), *_rolls(bare)]] == [True, False]


def test_the_step_crosses_the_pools_wire_and_an_older_request_without_it_still_reads():
    asked = DiceRequest(1, 6, "save", order=("to hit: 1d6", "save: 1d6"), step=1)
    data = msgspec.msgpack.encode(wire.Settled(7, DiceNeeded(asked)))
    got = wire.ANSWER.decode(data).result
    assert got.request == asked and got.request.step_text() == "now step 2 of 2: save: 1d6"
    older = msgspec.msgpack.encode(wire.Settled(7, DiceNeeded(msgspec.structs.replace(asked, step=None))))
    assert b"step" not in older  # omitted when unknown: an older Fireteam reads the same bytes as before
    assert wire.ANSWER.decode(older).result.request.step is None


def test_a_step_out_of_its_order_is_no_step():
    """A hostile or confused peer's step is never an index into the order."""
    for step in (-1, 2, 10**9):
        req = DiceRequest(1, 6, "save", order=("a: 1d6", "b: 1d6"), step=step)
        assert req.current() is None and req.step_text() == ""
    assert DiceRequest(1, 6, "save", step=0).current() is None  # no order at all
