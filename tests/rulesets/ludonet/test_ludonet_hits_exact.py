"""Ludonet's hits held until the fire phase ends (LN-R021, R037, R041), each case with
the exact facts it records (issue #33: these tests kill the mutants that survived)."""

from __future__ import annotations

from core.dice.faces import ManualDice
from core.language.i18n import render
from core.log import events as ev
from core.log.state import GameState, Side, Unit
from core.ruleset import Context
from core.rulesets.ludonet import Ludonet, hits

WOUND, IMMOBILISE, KILL = hits.WOUND, hits.IMMOBILISE, hits.KILL


def _ctx(*units: Unit, turn: int = 3, variables: dict | None = None) -> Context:
    state = GameState(
        turn=turn,
        sides={s: Side(id=s, name=s) for s in ("paras", "garrison")},
        units={u.id: u for u in units},
        vars=dict(variables or {}),
    )
    return Context(state, ManualDice([]), "referee", Ludonet())


def _man(*status: str, side: str = "garrison") -> Unit:
    return Unit(id="hans", name="Schtz Hans Bauer", side=side, status=tuple(sorted(status)))


def _tank(*status: str) -> Unit:
    return Unit(id="panzer", name="Panzer IV", side="garrison", kind="vehicle", status=tuple(sorted(status)))


def _facts(ctx: Context) -> list[tuple]:
    out = []
    for e in ctx.events:
        if isinstance(e, ev.StatusChanged):
            out.append(("status", e.unit, e.add, e.remove, e.vis))
        elif isinstance(e, ev.UnitOut):
            out.append(("out", e.unit, render(e.cause, "ludonet"), e.vis))
        elif isinstance(e, ev.VarSet):
            out.append(("var", e.key, e.value, e.vis))
        elif isinstance(e, ev.Noted):
            out.append(("note", render(e.text, "ludonet"), e.vis))
    return out


# ------------------------------------------------------------------------ hold


def test_no_effect_leaves_nothing_and_a_kill_already_held_stands():
    for target, result in ((_man(), "none"), (_man(WOUND), "none"), (_man(KILL), "wound"), (_man(KILL), "eliminated")):
        ctx = _ctx(target)
        hits.hold(ctx, target, result)
        assert ctx.events == [], (target.status, result)


def test_a_second_wound_in_the_phase_is_a_kill_that_replaces_the_lesser_hits():
    ctx = _ctx(_man(WOUND))
    hits.hold(ctx, ctx.state.units["hans"], "wound")
    assert _facts(ctx) == [("status", "hans", (KILL,), (WOUND,), ())]
    ctx = _ctx(_tank(IMMOBILISE))
    hits.hold(ctx, ctx.state.units["panzer"], "destroyed")
    assert _facts(ctx) == [("status", "panzer", (KILL,), (IMMOBILISE,), ())]


def test_a_first_wound_and_an_immobilisation_are_held_once():
    ctx = _ctx(_man())
    hits.hold(ctx, ctx.state.units["hans"], "wound")
    assert _facts(ctx) == [("status", "hans", (WOUND,), (), ())]
    ctx = _ctx(_tank())
    hits.hold(ctx, ctx.state.units["panzer"], "immobilised")
    assert _facts(ctx) == [("status", "panzer", (IMMOBILISE,), (), ())]
    ctx = _ctx(_tank(IMMOBILISE))
    hits.hold(ctx, ctx.state.units["panzer"], "immobilised")
    assert ctx.events == []


# --------------------------------------------------------------------- resolve


def test_a_wounded_man_wounded_again_is_out_with_two_wounds():
    ctx = _ctx(_man("wounded", WOUND))
    hits.resolve(ctx)
    assert _facts(ctx) == [("status", "hans", (), (WOUND,), ()), ("out", "hans", "2 wounds", ())]


def test_a_first_wound_takes_effect():
    ctx = _ctx(_man(WOUND))
    hits.resolve(ctx)
    assert _facts(ctx) == [("status", "hans", ("wounded",), (WOUND,), ())]


def test_a_hidden_vehicle_destroyed_keeps_its_wreck_with_its_side():
    ctx = _ctx(_tank(KILL, "hidden"))
    hits.resolve(ctx)
    assert _facts(ctx) == [
        ("status", "panzer", (), (KILL,), ("garrison",)),
        ("out", "panzer", "destroyed", ("garrison",)),
        ("note", "the wreck of Panzer IV: remove it or mark it with cotton wool (LN-R071)", ("garrison",)),
    ]


def test_a_hidden_vehicle_immobilised_keeps_its_last_turn_with_its_side():
    ctx = _ctx(_tank(IMMOBILISE, "hidden"), turn=3)
    hits.resolve(ctx)
    assert _facts(ctx) == [
        ("status", "panzer", (hits.IMMOBILISED,), (IMMOBILISE,), ("garrison",)),
        ("var", "immobilised_until.panzer", 5, ("garrison",)),
    ]


def test_immobilised_goes_at_the_end_of_the_last_turn_it_binds():
    for turn, until, gone in ((4, 5, False), (5, 5, True), (6, 5, True)):
        ctx = _ctx(_tank(hits.IMMOBILISED), turn=turn, variables={"immobilised_until.panzer": until})
        hits.end_of_turn(ctx)
        assert _facts(ctx) == ([("status", "panzer", (), (hits.IMMOBILISED,), ())] if gone else []), turn
    # Immobilised by the scenario, with no last turn recorded: it goes at the first turn's end.
    ctx = _ctx(_tank(hits.IMMOBILISED), turn=1)
    hits.end_of_turn(ctx)
    assert _facts(ctx) == [("status", "panzer", (), (hits.IMMOBILISED,), ())]
