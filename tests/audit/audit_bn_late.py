"""Helpers for the Breaking News audit of §9–§14, the Extras and the points list
(tests/audit/test_audit_bn_*.py): a game on a scenario of the audit's own, written from
the book's troop table (§3.0), and its events read back."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from audit_common import allowed, copied, game_fixture, play, refused  # noqa: F401  (re-exported)

import core.rulesets.breaking_news as bn
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from english import english  # noqa: E402  (test folders are not packages)

#: One figure of each class the late sections need, each a team of its own unless said.
RANGE = """
id = "audit"
title = "Audit range"
{head}

[[sides]]
id = "regulars"
name = "Rangers"
army = "regular"

[[sides]]
id = "irregulars"
name = "Militia"
army = "irregular"
{units}
"""


def unit(uid: str, side: str, cls: str, team: str, *, weapons=("AR",), kind="man", lead=0, roles=(), status=()):
    lines = [
        "[[units]]",
        f'id = "{uid}"',
        f'name = "{uid}"',
        f'side = "{side}"',
        f'team = "{team}"',
        f'kind = "{kind}"',
    ]
    if cls:
        lines.append(f'cls = "{cls}"')
    if weapons and kind in ("man", "vehicle"):
        lines.append("weapons = [" + ", ".join(f'"{w}"' for w in weapons) + "]")
    if lead:
        lines.append(f"leadership = {lead}")
    if roles:
        lines.append("roles = [" + ", ".join(f'"{r}"' for r in roles) + "]")
    if status:
        lines.append("status = [" + ", ".join(f'"{s}"' for s in status) + "]")
    return "\n".join(lines) + "\n"


def with_commanders(units: str) -> str:
    """``units`` with one main commander a side, as a scenario must field (§5.0, §12.0; ruling
    BN-ONE-COMMANDER): a side whose figures name none gets one, the figure §13.0 would follow
    without him (its leader of the highest Leadership, the first listed of equals), or, with
    no leader, its first man listed.  His Leadership stays the test's, so the initiative
    and deployment rolls add what they added before (``forces.commander`` then fell back on
    that same leader); what changes is that his loss counts two at the morale test (§12.0)."""
    blocks = ["[[units]]" + b for b in units.split("[[units]]")[1:]]
    pieces = [tomllib.loads(b)["units"][0] for b in blocks]
    chosen = []
    for side in dict.fromkeys(p["side"] for p in pieces):
        theirs = [i for i, p in enumerate(pieces) if p["side"] == side]
        if any("commander" in pieces[i].get("roles", ()) for i in theirs):
            continue
        leaders = [i for i in theirs if "leader" in pieces[i].get("roles", ())]
        men = [i for i in theirs if pieces[i].get("kind", "man") == "man"]
        if leaders or men:
            chosen.append(max(leaders, key=lambda i: pieces[i].get("leadership", 0)) if leaders else men[0])
    for i in chosen:
        roles = ", ".join(f'"{r}"' for r in ("commander", *pieces[i].get("roles", ())))
        head, _, rest = blocks[i].partition("\n")
        rest = re.sub(r"^roles = \[.*\]\n", "", rest, flags=re.MULTILINE)
        blocks[i] = f"{head}\nroles = [{roles}]\n{rest}"
    return units.split("[[units]]")[0] + "".join(blocks)


def new_game(
    tmp_path: Path,
    monkeypatch,
    units: str,
    *,
    head: str = "",
    active: str | None = "regulars",
    options=(),
    variant: str = "",
) -> Game:
    """A game on the audit range at turn 1's activation, ``active`` the active player
    (None: left in the deployment phase)."""
    folder = tmp_path / "scenarios"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "audit.toml").write_text(RANGE.format(head=head, units=with_commanders(units)))
    monkeypatch.setattr(bn, "SCENARIOS", folder)

    def build(where: Path) -> Game:
        g = Game.new(where / "g.ftlog", "breaking-news", variant, seed=7)
        g.execute("scenario audit", role=REFEREE)
        for name in options:
            g.execute(f"option {name} on", role=REFEREE)
        if active is None:
            return g
        g.execute("next", role=REFEREE)  # deployment -> initiative
        to_activation(g, active)
        return g

    return copied(repr(("bn-late", units, head, active, tuple(options), variant)), build, tmp_path)


def table(units: str, name: str = "g", **options):
    """A fixture ``name``: a game of :func:`new_game` on ``units`` with these options, closed
    after."""
    return game_fixture(name, lambda tmp_path, monkeypatch: new_game(tmp_path, monkeypatch, units, **options))


def to_activation(g: Game, active: str) -> None:
    """Leave the initiative phase with ``active`` winning (the first side rolls first)."""
    first = list(g.state.sides)[0]
    faces = "6,6,1,1" if active == first else "1,1,6,6"
    g.execute(f"next dice={faces}", role=REFEREE)
    assert g.state.phase == "activation" and g.state.active_side == active


def next_turn(g: Game, active: str, end_dice: str = "") -> None:
    g.execute("next", role=REFEREE)
    g.execute(f"next dice={end_dice}" if end_dice else "next", role=REFEREE)
    to_activation(g, active)


def facts(outcome, kind: type) -> list:
    return [english(e) for e in outcome.events if isinstance(e, kind)]


def rolls(outcome) -> list[ev.Roll]:
    return [e.roll for e in facts(outcome, ev.Rolled)]


def status(g: Game, uid: str) -> tuple[str, ...]:
    return g.state.units[uid].status


def out(g: Game, uid: str) -> str:
    from core.language.i18n import plain

    return plain(g.state.units[uid].out)


def extras(side: str, **bought) -> str:
    """The ``[extras.SIDE]`` table of a scenario file buying these extras (a bool as TOML's)."""
    return f"[extras.{side}]\n" + "".join(
        f"{k} = {str(v).lower() if isinstance(v, bool) else v}\n" for k, v in bought.items()
    )


def ledger(g: Game, side: str) -> dict:
    """A side's defeat points by category, the categories it has any in."""
    return {k: v for k, v in g.state.sides[side].dp_by_category.items() if v}


def dp(g: Game, side: str) -> int:
    """A side's defeat points."""
    return g.state.sides[side].defeat_points


def rolled(out, purpose: str = "") -> list[ev.Rolled]:
    """The command's rolls whose purpose says ``purpose``."""
    return [e for e in out.events if isinstance(e, ev.Rolled) and purpose in str(e.roll.purpose)]


def morale_roll(out) -> ev.Rolled:
    """The command's one morale roll (§12)."""
    found = rolled(out, "morale")
    assert len(found) == 1, found
    return found[0]


def over(g: Game) -> bool:
    """Whether the game has ended (§14)."""
    return "game_over" in g.state.vars or g.state.phase == "final"


def to_end(g: Game) -> None:
    """The last activation ended: the game on to the turn's end."""
    g.execute("next", role=REFEREE)
    assert g.state.phase == "end"


def saves(outcome) -> list[ev.Roll]:
    return [r for r in rolls(outcome) if "save" in str(r.purpose)]


def final_count(g: Game) -> str:
    """The words of the final count, made by ending the game."""
    return " ".join(n.text for n in facts(g.execute("victory the patrol withdraws", role=REFEREE), ev.Noted))


def platoon(sizes: tuple[int, ...]) -> str:
    """A Veteran platoon of teams of the given sizes (the first man of the first team its
    commander), and one Militiaman."""
    out = ""
    for t, size in enumerate(sizes, 1):
        for i in range(1, size + 1):
            roles = ("commander",) if (t, i) == (1, 1) else ()
            out += unit(f"t{t}m{i}", "regulars", "R3", f"team{t}", roles=roles, lead=1 if roles else 0)
    return out + unit("m1", "irregulars", "Irr3", "C")
