"""A table for the audit of Bassa Intensità's A.2-A.11 (dice, quality, command, movement,
opportunity and covering fire, actions, direct fire, HE, indirect fire): the pieces each
rule needs, set up as a scenario would, and short ways to play and read a game.

Only how to drive a game comes from Fireteam; what must happen comes from the book.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from audit_common import allowed, copied, game_fixture, play, refused  # noqa: F401  (re-exported)

from core import registry
from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Context, Refused
from core.rulesets.bassa_intensita import BassaIntensita
from core.rulesets.common import Scenario

U = ev.UnitSpec


def man(uid: str, side: str, cls: str, *weapons: str, team: str = "", roles: tuple[str, ...] = (), **stats: int):
    return U(id=uid, name=uid.title(), side=side, team=team, cls=cls, weapons=weapons, roles=roles, stats=stats)


def vehicle(uid: str, side: str, cls: str, *weapons: str, roles: tuple[str, ...], team: str = "", **stats: int):
    return msgspec.structs.replace(man(uid, side, cls, *weapons, team=team, roles=roles, **stats), kind="vehicle")


PIECES = (
    # Blue: a regular squad (leader and men), a veteran squad with a section, an elite shooter
    man("sarge", "blue", "regular", "assault-rifle", team="A", roles=("leader",)),
    man("bruno", "blue", "regular", "assault-rifle", team="A"),
    man("carlo", "blue", "regular", "rifle", team="A"),
    man("vito", "blue", "veteran", "assault-rifle", team="V", roles=("leader",)),
    man("cpl", "blue", "veteran", "assault-rifle", team="VS", roles=("section-leader",)),
    man("valerio", "blue", "veteran", "assault-rifle", team="VS"),
    man("vasco", "blue", "veteran", "assault-rifle", team="VS"),
    man("elia", "blue", "elite", "assault-rifle"),
    man("recluta", "blue", "recruit", "carbine", team="RC", roles=("leader",)),
    man("remo", "blue", "recruit", "assault-rifle", team="RC"),
    man("rabbi", "blue", "rabble", "pistol"),
    man("fo", "blue", "veteran", "carbine", team="FO", roles=("observer",)),
    man("sam", "blue", "regular", "saw"),
    man("lino", "blue", "regular", "lmg"),
    man("dario", "blue", "regular", "mg"),
    man("gino", "blue", "regular", "gl"),
    man("rocco", "blue", "regular", "rpg"),
    man("sandro", "blue", "regular", "shotgun"),
    man("pietro", "blue", "regular", "smg"),
    man("nico", "blue", "regular", "sniper-rifle", team="A", roles=("sniper",)),
    man("rino", "blue", "recruit", "sniper-rifle", team="RC", roles=("sniper",)),
    # a regular section, and a rabble squad
    man("rsl", "blue", "regular", "assault-rifle", team="RS", roles=("section-leader",)),
    man("rsm", "blue", "regular", "assault-rifle", team="RS"),
    man("rsn", "blue", "regular", "assault-rifle", team="RS"),
    man("marm", "blue", "rabble", "pistol", team="M", roles=("leader",)),
    man("marmo", "blue", "rabble", "pistol", team="M"),
    vehicle("ariete", "blue", "veteran", "gun-heavy", "mg", roles=("tank",)),
    vehicle("camion", "blue", "regular", roles=("truck",), team="A"),
    vehicle("tank2", "blue", "regular", "gun-heavy", roles=("tank",), team="A"),
    vehicle("jeep", "blue", "regular", roles=("car",)),
    vehicle("vcc", "blue", "regular", "mg", roles=("tracked-apc",)),
    vehicle("puma", "blue", "regular", "mg", roles=("wheeled-apc",), team="A", capacity=4),
    vehicle("tecnica", "blue", "regular", "mg", roles=("technical",)),
    vehicle("blindo", "blue", "regular", "mg", roles=("armoured-car",)),
    vehicle("lynx", "blue", "veteran", "mg", roles=("helicopter",)),
    # Red: targets
    man("omar", "red", "regular", "assault-rifle", team="H", roles=("leader",)),
    man("ali", "red", "regular", "assault-rifle", team="H"),
    man("yusuf", "red", "regular", "assault-rifle", team="H"),
    man("karim", "red", "veteran", "assault-rifle"),
    man("zaki", "red", "elite", "assault-rifle"),
    # loners: targets whose death calls no squad to a morale check
    *(man(uid, "red", "regular", "assault-rifle") for uid in ("tariq", "fares", "nabil", "samir", "walid")),
    man("rafi", "red", "regular", "rifle"),
    vehicle("t55", "red", "regular", "gun-heavy", roles=("tank",)),
    vehicle("ural", "red", "regular", roles=("truck",)),
)


class AuditTable(BassaIntensita):
    """The ruleset with the pieces above and a test's ``extra`` ones; ``night`` set as a
    scenario would."""

    id = "bassa-intensita"
    night = "day"
    extra: tuple[ev.UnitSpec, ...] = ()

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        table = Scenario(
            id="audit",
            title="The audit's table",
            sides=(ev.SideSpec("blue", "Blue"), ev.SideSpec("red", "Red")),
            units=(*PIECES, *self.extra),
        )
        self.scenarios = {**self.scenarios, "audit": table}

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        super()._scenario(ctx, args)
        if args["name"] == "audit":
            ctx.emit(ev.VarSet(key="scenario.turns", value=0))
            ctx.emit(ev.VarSet(key="scenario.night", value=self.night))


def new_game(
    tmp_path: Path,
    monkeypatch,
    night: str = "day",
    extra: tuple[ev.UnitSpec, ...] = (),
    at: tuple[str, int] | None = None,
) -> Game:
    """A game on the audit's table, in its set-up or, ``at`` (phase, turn), played on to
    that phase (:func:`goto`)."""
    monkeypatch.setattr(AuditTable, "night", night)
    monkeypatch.setattr(AuditTable, "extra", extra)
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", AuditTable)
    return played(tmp_path, ("bi-early", night, extra, at), "audit", at, goto)


def played(tmp_path: Path, key: tuple, scenario: str, at: tuple[str, int] | None, to: Callable) -> Game:
    """A copy of the game made with the seed 11 on the ruleset registered now, its
    ``scenario`` set up and played on ``to`` ``at`` (phase, turn): ``key`` names them."""

    def build(folder: Path) -> Game:
        g = Game.new(folder / f"{scenario}.ft", "bassa-intensita", seed=11)
        g.execute(f"scenario {scenario}", role=REFEREE)
        if at is not None:
            to(g, *at)
        return g

    return copied(repr(key), build, tmp_path)


def table(name: str = "game", **options):
    """A fixture ``name``: a game of :func:`new_game` with these options, closed after."""
    return game_fixture(name, lambda tmp_path, monkeypatch: new_game(tmp_path, monkeypatch, **options))


def rolls(events: list[ev.Event], rule: str = "") -> list[ev.Roll]:
    return [e.roll for e in events if isinstance(e, ev.Rolled) and (not rule or e.roll.rule == rule)]


#: A hit's damage die that kills outright (a natural 10, A.12.1), so no further dice follow.
KILL = "10"


def chances(events: list[ev.Event], rule: str = "A.9.4") -> list[int | None]:
    """The chance each roll of ``rule`` was rolled under."""
    return [r.target for r in rolls(events, rule)]


def outcomes(events: list[ev.Event], rule: str = "") -> list[str]:
    return [plain(r.outcome) for r in rolls(events, rule)]


def notes(events: list[ev.Event]) -> list[str]:
    return [plain(e.text) for e in events if isinstance(e, ev.Noted)]


def goto(g: Game, phase: str, turn: int | None = None, waive: bool = False) -> None:
    """On to ``phase`` (of ``turn``); blue wins every initiative and moves first.  With
    ``waive``, every morale check still due is cleared on the way."""
    turn = g.state.turn if turn is None else turn
    while (g.state.turn, g.state.phase) != (turn, phase):
        assert g.state.turn <= turn, f"turn {turn} went by without its {phase} phase"
        if waive:
            for u in list(g.state.units.values()):
                if u.in_play and u.has("morale-due"):
                    g.execute(f"clear {u.id} morale-due", role=REFEREE)
        if g.state.phase == "initiative":
            g.execute("next dice=6,1", role=REFEREE)
            if g.state.phase == "initiative":
                g.execute("order first", role="blue")
        else:
            g.execute("next", role=REFEREE)


def isolation(facts: list[ev.Event]) -> list[int | None]:
    """What each isolation roll (BI-R024) needed."""
    return [r.target for r in rolls(facts, "BI-R024")]


def has_moved(facts: list[ev.Event]) -> bool:
    """Whether a piece moved in these facts."""
    return any(type(e).__name__ == "Moved" for e in facts)


def burst_chances(g: Game, source: str, cms: tuple[float, ...]) -> list[list[int | None] | None]:
    """A burst of ``source`` at Fares ``cm`` away, for each of ``cms``, undone after: what
    it needed to hit him (A.10.3), or None where it is refused."""
    seen: list[list[int | None] | None] = []
    for cm in cms:
        try:
            facts = play(g, f"burst fares source={source} cm={cm} dice=10")
        except Refused:
            seen.append(None)
            continue
        g.execute("undo", role=REFEREE)
        seen.append(chances(facts, "A.10.3"))
    return seen
