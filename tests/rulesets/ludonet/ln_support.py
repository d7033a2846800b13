"""A Ludonet game on the demo farm with the pieces the demo lacks, built here rather
than from a scenario file: vehicles with the scenario's combat values and moves, a
PIAT, a mortar, an aircraft with its passes, an anti-aircraft gun, a reserve to reinforce."""

from __future__ import annotations

from playing import play

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.rulesets.ludonet import Ludonet

EXTRA = (
    ev.UnitSpec(
        id="piat",
        name="Pte Hill",
        side="paras",
        team="PIAT team",
        weapons=("PIAT",),
        roles=("expert",),
        stats={"cv": 2},
    ),
    ev.UnitSpec(
        id="sherman",
        name="Sherman Firefly",
        side="paras",
        team="Troop",
        kind="vehicle",
        stats={"cv": 4, "move": 25},
    ),
    ev.UnitSpec(id="mortar", name="3-inch mortar", side="paras", team="Mortar", roles=("indirect",)),
    ev.UnitSpec(
        id="typhoon",
        name="Typhoon",
        side="paras",
        kind="aircraft",
        status=("hidden",),
        stats={"cv": 4, "passes": 2},
    ),
    ev.UnitSpec(
        id="panzer", name="Panzer IV", side="garrison", team="Panzer", kind="vehicle", stats={"cv": 3, "move": 20}
    ),
    ev.UnitSpec(id="lorry", name="Opel lorry", side="garrison", team="Transport", kind="vehicle"),
    ev.UnitSpec(id="flak", name="Flak 38", side="garrison", team="Flak", roles=("aa", "heavy")),
    ev.UnitSpec(id="karl", name="Schtz Karl Roth", side="garrison", team="Reserve"),
    ev.UnitSpec(id="max", name="Schtz Max Ernst", side="garrison", team="Reserve"),
    ev.UnitSpec(id="paul", name="Schtz Paul Kern", side="garrison", team="Reserve"),
)


def ludonet_game(tmp_path, monkeypatch, variables: dict[str, int | str] | None = None) -> Game:
    """The demo plus EXTRA; ``variables`` are set as the scenario file would set them
    (after the demo's own, so they win)."""
    demo_setup = Ludonet._scenario

    def scenario(self, ctx, args):
        demo_setup(self, ctx, args)
        for u in EXTRA:
            ctx.emit(ev.UnitAdded(unit=u, vis=(u.side,) if "hidden" in u.status else ()))
        for key, value in (variables or {}).items():
            ctx.emit(ev.VarSet(key=key, value=value))

    monkeypatch.setattr(Ludonet, "_scenario", scenario)
    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=5)
    game.execute("scenario demo", role=REFEREE)
    return game


def rolls(events) -> list[ev.Roll]:
    return [e.roll for e in events if isinstance(e, ev.Rolled)]


def to_phase(g: Game, turn: int, phase: str) -> None:
    """``next`` until the game reaches this turn and phase (the paras move first)."""
    if g.state.phase == "deployment":
        play(g, "next dice=6,1")
    while (g.state.turn, g.state.phase) != (turn, phase):
        play(g, "next")
