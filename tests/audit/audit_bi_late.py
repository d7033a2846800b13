"""The table of the Bassa Intensità audit of A.12-A.16 (damage, morale, observation,
smoke, aircraft and helicopters, special rules): the book table of the ruleset's own tests
(tests/rulesets/bassa_intensita/bi_table.py) and the pieces those chapters need beside
it: vests, an Elite squad with a scout, engineers, snipers of every Quality, guns of
known calibre, armour of three kinds, a stabilised tank, AA gunners of every Quality."""

from __future__ import annotations

import sys
from pathlib import Path

from audit_bi_early import played, vehicle
from audit_common import allowed, game_fixture, refused  # noqa: F401  (re-exported)

from core import registry
from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE

sys.path.insert(0, str(Path(__file__).parents[1] / "rulesets" / "bassa_intensita"))
from bi_table import PIECES, TABLE, BookTable, goto, play, rolls  # noqa: E402

__all__ = [
    "allowed",
    "goto",
    "late_game",
    "late_table",
    "notes",
    "outcomes",
    "play",
    "refused",
    "rolls",
    "unit",
    "waive_morale",
]

U = ev.UnitSpec
EXTRA = (
    # an Elite squad: a leader, a scout, a man with each kind of vest, an engineer
    U(id="leo", name="Sgt Leo", side="blue", team="E", cls="elite", weapons=("assault-rifle",), roles=("leader",)),
    U(id="sandro", name="Cpl Sandro", side="blue", team="E", cls="elite", weapons=("carbine",), roles=("scout",)),
    U(id="fabio", name="Pte Fabio", side="blue", team="E", cls="elite", weapons=("carbine",), roles=("frag-vest",)),
    U(id="piero", name="Pte Piero", side="blue", team="E", cls="elite", weapons=("carbine",), roles=("bullet-vest",)),
    U(id="genio", name="Pte Genio", side="blue", team="E", cls="elite", weapons=("carbine",), roles=("engineer",)),
    U(id="vasco", name="Cpl Vasco", side="blue", team="V", cls="veteran", weapons=("sniper-rifle",), roles=("sniper",)),
    U(id="ettore", name="Sgt Ettore", side="blue", team="X", cls="elite", weapons=("sniper-rifle",), roles=("sniper",)),
    U(id="rubens", name="Pte Rubens", side="blue", team="P", cls="regular", weapons=("rubber",)),
    # armour: a 120 mm tank with a stabilised gun, tanks of advanced and high-tech armour,
    # a tracked carrier with no turret, an unarmoured car
    vehicle("leopard", "blue", "regular", "gun-heavy", "mg", roles=("tank", "stabilised", "dischargers"), gun_mm=120),
    vehicle("abrams", "red", "elite", "gun-heavy", "mg", roles=("tank", "hightech-armour")),
    U(
        id="t72",
        name="T-72",
        side="red",
        kind="vehicle",
        cls="regular",
        weapons=("gun-heavy", "mg"),
        roles=("tank", "advanced-armour"),
    ),
    U(id="m113", name="M113", side="red", kind="vehicle", cls="regular", weapons=("mg",), roles=("tracked-apc",)),
    U(id="jeep", name="Jeep", side="red", kind="vehicle", cls="regular", weapons=(), roles=("car",)),
    # a transport helicopter carrying a man trained to fast-rope
    U(id="puma", name="Puma", side="blue", kind="vehicle", cls="regular", roles=("helicopter",)),
    U(
        id="rocco",
        name="Pte Rocco",
        side="blue",
        team="HR",
        cls="veteran",
        weapons=("carbine",),
        roles=("fast-rope",),
        status=("aboard-puma",),
    ),
    # a Regular squad's would-be scout (A.16.3: only Elite or Veteran infantry have scouts)
    U(id="sergio", name="Sgt Sergio", side="blue", team="S2", cls="regular", weapons=("rifle",), roles=("leader",)),
    U(id="rolando", name="Pte Rolando", side="blue", team="S2", cls="regular", weapons=("rifle",), roles=("scout",)),
    # a fanatic (A.13.2: +1 or +2 to pass morale, from the scenario)
    U(id="jamal", name="Jamal", side="red", team="F", cls="regular", weapons=("smg",), stats={"fanatic": 2}),
    # AA gunners of every Quality
    U(id="aelite", name="Aa Elite", side="red", team="AE", cls="elite", weapons=("aa-cannon",)),
    U(id="avet", name="Aa Veteran", side="red", team="AV", cls="veteran", weapons=("manpads",)),
    U(id="areg", name="Aa Regular", side="red", team="AR", cls="regular", weapons=("aa-cannon",)),
    U(id="arec", name="Aa Recruit", side="red", team="AC", cls="recruit", weapons=("aa-missile",)),
    U(id="arab", name="Aa Rabble", side="red", team="AB", cls="rabble", weapons=("aa-missile",)),
)
SCENARIO = TABLE.__class__(
    id="late",
    title="The audit's table",
    sides=TABLE.sides,
    units=(*PIECES, *EXTRA),
)


class LateTable(BookTable):
    """The book table's ruleset, with the audit's scenario ``late`` beside ``book``."""

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios = {**self.scenarios, "late": SCENARIO}

    def _scenario(self, ctx, args) -> None:
        super()._scenario(ctx, args)
        if args["name"] == "late":
            ctx.emit(ev.VarSet(key="scenario.turns", value=self.turns))
            ctx.emit(ev.VarSet(key="scenario.night", value=self.night))


def late_game(
    tmp_path: Path, monkeypatch, night: str = "day", turns: int = 6, at: tuple[str, int] | None = None
) -> Game:
    """A new game on the audit's table; ``night`` is the scenario's (day, moon, dark),
    ``turns`` its last turn (0: no limit); ``at`` (phase, turn), played on to that phase."""
    monkeypatch.setattr(LateTable, "night", night)
    monkeypatch.setattr(LateTable, "turns", turns)
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", LateTable)
    return played(tmp_path, ("bi-late", night, turns, at), "late", at, goto)


def late_table(name: str = "game", **options):
    """A fixture ``name``: a game of :func:`late_game` with these options, closed after."""
    return game_fixture(name, lambda tmp_path, monkeypatch: late_game(tmp_path, monkeypatch, **options))


def unit(g: Game, uid: str):
    return g.state.units[uid]


def outcomes(facts: list[ev.Event], rule: str = "") -> list[tuple[str, int | None, str]]:
    """Each roll of the facts as (rule, target, outcome in words)."""
    return [(r.rule, r.target, plain(r.outcome)) for r in rolls(facts, rule)]


def notes(facts: list[ev.Event]) -> list[str]:
    return [plain(e.text) for e in facts if hasattr(e, "text")]


def waive_morale(g: Game) -> None:
    """The referee waives every check still due (to go on to the next phase)."""
    for u in list(g.state.units.values()):
        if u.in_play and u.has("morale-due"):
            g.execute(f"clear {u.id} morale-due", role=REFEREE)
