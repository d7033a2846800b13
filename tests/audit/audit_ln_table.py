"""The Ludonet audit's table: a game on the demo farm with the pieces the demo lacks
(tests/rulesets/ludonet/ln_support.py), pieces of the audit's own added as a scenario
would add them, moving the game to a phase, and reading what the dice decided."""

from __future__ import annotations

import sys
from pathlib import Path

from audit_common import allowed, copied, game_fixture, has, out, refused, rolled, said  # noqa: F401  (re-exported)

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets" / "ludonet"))
from ln_support import ludonet_game, play, to_phase  # noqa: E402, F401  (re-exported)


def ln_game(
    tmp_path: Path, monkeypatch, variables: dict[str, int | str] | None = None, at: tuple[int, str] | None = None
) -> Game:
    """The demo farm and its extra pieces (``variables`` set as its scenario file would
    set them), in deployment or, ``at`` (turn, phase), played on to that phase."""

    def build(folder: Path) -> Game:
        g = ludonet_game(folder, monkeypatch, variables)
        if at is not None:
            to_phase(g, *at)
        return g

    return copied(repr(("ln", variables, at)), build, tmp_path)


def ln_table(name: str = "ln", **options):
    """A fixture ``name``: a game of :func:`ln_game` with these options, closed after."""
    return game_fixture(name, lambda tmp_path, monkeypatch: ln_game(tmp_path, monkeypatch, **options))


#: The demo farm and its extra pieces, still in deployment; on in turn 1's fire phase; in
#: turn 1's first move (the paras', who won the initiative 6 to 1).
ln = ln_table()
fire = ln_table("fire", at=(1, "fire"))
move = ln_table("move", at=(1, "move-first"))


def inject(g: Game, *facts: ev.Event) -> None:
    """Facts put straight into the game, as a scenario file would at set-up."""
    cmd = g.history.next_cmd
    group = [ev.Issued(cmd=cmd, n=len(facts), by="referee", text="(test set-up)"), *facts]
    g._append(cmd, group, [g.describe(e, "referee") for e in group])


def support(g: Game, key: str, name: str, kind: str, ammo: int | None = None) -> None:
    """The garrison's off-table support ``key`` (``kind``: artillery or aircraft), given as
    the scenario would, with ``ammo`` rounds or passes when it says."""
    facts = [
        ev.VarSet(key=f"support.{key}", value=name),
        ev.VarSet(key=f"support.{key}.side", value="garrison"),
        ev.VarSet(key=f"support.{key}.kind", value=kind),
    ]
    if ammo is not None:
        facts.append(ev.VarSet(key=f"support.{key}.ammo", value=ammo))
    inject(g, *facts)


def add(g: Game, uid: str, side: str, *, kind: str = "man", team: str = "Audit", **spec) -> None:
    """A piece of the audit's own, put on the table as the scenario would."""
    inject(g, ev.UnitAdded(unit=ev.UnitSpec(id=uid, name=uid.title(), side=side, team=team, kind=kind, **spec)))


def unit(g: Game, team: str, *uids: str, side: str = "garrison") -> None:
    """Plain men of the audit's own, a unit ``team`` of ``side``."""
    for uid in uids:
        add(g, uid, side, team=team)


def four(g: Game, *lost: str) -> None:
    """Four, a garrison unit of four plain men, F1 to F4, and the ``lost`` of them taken out
    by the referee."""
    unit(g, "Four", "f1", "f2", "f3", "f4")
    lose(g, *lost)


def four_shaken(g: Game, phase: str) -> None:
    """Four loses F1 and F2 (half) and fails its test (a 1) in turn 1's morale step; the
    game on to turn 2's ``phase``."""
    four(g, "f1", "f2")
    to_phase(g, 1, "morale")
    play(g, "morale four dice=1")
    to_phase(g, 2, phase)


def plain_at_melee(g: Game) -> None:
    """Plain, a para of the audit's, and the game on to turn 1's melee step."""
    add(g, "plain", "paras")
    to_phase(g, 1, "melee")


def tied(g: Game) -> None:
    """Plain and Fritz tie, 2 against 2, in turn 1's melee: the two stay locked (LN-R050,
    LN-AMB-12)."""
    plain_at_melee(g)
    play(g, "@paras melee plain fritz dice=2,2")


def lose(g: Game, *uids: str) -> None:
    """The referee takes these men out."""
    for uid in uids:
        play(g, f"out {uid}")


def hits(g: Game, line: str) -> bool:
    """Whether the first roll of ``line`` hits."""
    return outcomes(play(g, line))[0] == "hit"


def hit_if_seen(g: Game, line: str, seen: bool) -> None:
    """``line``, a shot: its first roll hits when the target is ``seen``; when it is not,
    the shot is refused."""
    if seen:
        assert hits(g, line)
    else:
        refused(g, line, rule="LN-R020")


def outcomes(facts: list[ev.Event]) -> list[str]:
    return [plain(r.outcome) for r in rolled(facts)]


def after_fire(g: Game) -> None:
    """Leave the fire phase: the held hits take effect together (LN-R021)."""
    assert g.state.phase == "fire"
    play(g, "next")
