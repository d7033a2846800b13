"""A Bassa Intensità game on a test table of pieces built here (UnitSpec), for the rules
the rules map found untested: squads with leaders, snipers of two Qualities, an unarmed
truck in a squad, open and closed vehicles, a helicopter with passengers, AA weapons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playing import play, refused  # noqa: F401  (re-exported)

from core import registry
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Context
from core.rulesets.bassa_intensita import BassaIntensita
from core.rulesets.common import Scenario

U = ev.UnitSpec
#: Red's anti-aircraft machine gunners, one shot each a turn (BI-R260).
GUNNERS = ("zaid", "zoran", "zeno", "ziad", "zuhair")
PIECES = (
    U(id="capo", name="Sgt Capo", side="blue", team="A", cls="regular", weapons=("assault-rifle",), roles=("leader",)),
    U(id="bruno", name="Pte Bruno", side="blue", team="A", cls="regular", weapons=("assault-rifle",)),
    U(id="carlo", name="Pte Carlo", side="blue", team="A", cls="regular", weapons=("rifle",)),
    U(id="camion", name="Truck", side="blue", team="A", kind="vehicle", cls="regular", roles=("truck",)),
    U(id="elio", name="Cpl Elio", side="blue", team="B", cls="regular", weapons=("sniper-rifle",), roles=("sniper",)),
    U(id="rino", name="Pte Rino", side="blue", team="R", cls="recruit", weapons=("sniper-rifle",), roles=("sniper",)),
    U(id="remo", name="Cpl Remo", side="blue", team="R", cls="recruit", weapons=("carbine",), roles=("leader",)),
    U(id="fo", name="Lt Foschi", side="blue", team="FO", cls="veteran", weapons=("carbine",), roles=("observer",)),
    U(
        id="lince",
        name="Lince",
        side="blue",
        kind="vehicle",
        cls="regular",
        weapons=("mg",),
        roles=("wheeled-apc", "open"),
        stats={"capacity": 4},
    ),
    U(
        id="ariete",
        name="Ariete",
        side="blue",
        kind="vehicle",
        cls="veteran",
        weapons=("gun-heavy", "mg"),
        roles=("tank",),
    ),
    U(id="lynx", name="Lynx", side="blue", kind="vehicle", cls="veteran", weapons=("mg", "rpg"), roles=("helicopter",)),
    U(id="dino", name="Pte Dino", side="blue", team="HB", cls="veteran", weapons=("carbine",), status=("aboard-lynx",)),
    U(id="ezio", name="Pte Ezio", side="blue", team="HB", cls="veteran", weapons=("carbine",), status=("aboard-lynx",)),
    U(id="omar", name="Omar", side="red", team="H", cls="regular", weapons=("assault-rifle",), roles=("leader",)),
    U(id="ali", name="Ali", side="red", team="H", cls="regular", weapons=("rpg",)),
    U(id="hassan", name="Hassan", side="red", team="H", cls="recruit", weapons=("smg",)),
    U(id="said", name="Said", side="red", team="S", cls="regular", weapons=("sniper-rifle",), roles=("sniper",)),
    *(U(id=z, name=z.title(), side="red", team="AA", cls="regular", weapons=("aa-mg",)) for z in GUNNERS),
    U(id="tecnica", name="Technical", side="red", kind="vehicle", cls="rabble", weapons=("mg",), roles=("technical",)),
    U(id="bmp", name="BMP", side="red", kind="vehicle", cls="recruit", weapons=("autocannon",), roles=("tracked-apc",)),
)
TABLE = Scenario(
    id="book",
    title="The book's table",
    sides=(ev.SideSpec("blue", "Blue"), ev.SideSpec("red", "Red")),
    units=PIECES,
)


class BookTable(BassaIntensita):
    """The ruleset with the pieces above; ``night`` and ``turns`` set as a scenario would."""

    id = "bassa-intensita"
    night = "day"
    turns = 6

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios = {**self.scenarios, "book": TABLE}

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        super()._scenario(ctx, args)
        if args["name"] == "book":
            ctx.emit(ev.VarSet(key="scenario.turns", value=self.turns))
            ctx.emit(ev.VarSet(key="scenario.night", value=self.night))


def book_game(tmp_path: Path, monkeypatch, night: str = "day") -> Game:
    monkeypatch.setattr(BookTable, "night", night)
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", BookTable)
    g = Game.new(tmp_path / "book.ft", "bassa-intensita", seed=7)
    g.execute("scenario book", role=REFEREE)
    return g


def rolls(events: list[ev.Event], rule: str = "") -> list[ev.Roll]:
    return [e.roll for e in events if isinstance(e, ev.Rolled) and (not rule or e.roll.rule == rule)]


def goto(g: Game, phase: str, turn: int | None = None) -> None:
    """On to ``phase`` (of ``turn``); blue wins every initiative and moves first."""
    turn = g.state.turn if turn is None else turn
    while (g.state.turn, g.state.phase) != (turn, phase):
        g.execute("next dice=6,1" if g.state.phase == "initiative" else "next", role=REFEREE)
