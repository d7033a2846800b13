"""A Breaking News table for the audit of §3–§8 (tests/audit/test_audit_bn_s0*.py): a
scenario of our own with one man of every class and weapon the book's tables name, a game
driven by its commands with typed dice, and the rolls it made read back in plain words.

Only how to drive a game is taken from Fireteam; what must happen is the book's, written in
each test."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from audit_common import allowed, copied, game_fixture, play, refused  # noqa: F401  (re-exported)

from core.dice.faces import NeedDice
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from english import english  # noqa: E402  (test folders are not packages)

#: (id, side, team, class, weapons, roles, status); kind "vehicle" when the class is a
#: vehicle type.  Teams: the Regulars' Alpha stand together (a group), Bravo apart.
MEN = (
    ("sf", "regulars", "Delta", "R1", "AR", "", ""),
    ("sfsnipe", "regulars", "Delta", "R1", "SNIPER", "sniper", ""),
    ("elite", "regulars", "Alpha", "R2", "AR", "", ""),
    ("elite2", "regulars", "Alpha", "R2", "AR", "", ""),
    ("gunner", "regulars", "Alpha", "R2", "LMG", "", ""),
    ("vet", "regulars", "Bravo", "R3", "AR", "", ""),
    ("trained", "regulars", "Bravo", "R4", "AR", "", ""),
    ("recruit", "regulars", "Bravo", "R5", "AR", "", ""),
    ("smg", "regulars", "Bravo", "R3", "SMG", "", ""),
    ("mmg", "regulars", "Bravo", "R3", "MMG", "", ""),
    ("hmg", "regulars", "Bravo", "R3", "HMG", "", ""),
    ("pistol", "regulars", "Bravo", "R3", "PISTOL", "", ""),
    ("rifle", "regulars", "Bravo", "R3", "RIFLE", "", ""),
    ("snipe", "regulars", "Bravo", "R3", "SNIPER", "sniper", ""),
    ("bomber", "regulars", "Bravo", "R3", "GRENADE", "", ""),
    ("flamer", "regulars", "Bravo", "R3", "FLAMER", "", ""),
    ("rpg", "regulars", "Bravo", "R3", "RPG", "", ""),
    ("gl", "regulars", "Bravo", "R3", "GL", "", ""),
    ("milan", "regulars", "Bravo", "R3", "ATH", "", ""),
    ("mortar", "regulars", "Bravo", "R3", "MORTAR", "", ""),
    ("hummer", "regulars", "Motor", "protected", "HMG", "", ""),
    ("tank", "regulars", "Motor", "tank", "TANKGUN,HMG", "tracked", ""),
    ("puma", "regulars", "Motor", "light", "HMG", "", ""),
    ("irr1", "irregulars", "Cell", "Irr1", "AR", "", ""),
    ("irr2", "irregulars", "Cell", "Irr2", "AR", "", ""),
    ("irr3", "irregulars", "Cell", "Irr3", "AR", "", ""),
    ("irr3b", "irregulars", "Cell", "Irr3", "AR", "", ""),
    ("boss", "irregulars", "Cell", "Irr1", "AR", "leader", ""),
    ("isnipe", "irregulars", "Cell", "Irr1", "SNIPER", "sniper", ""),
    ("irpg", "irregulars", "Cell", "Irr1", "RPG", "", ""),
    ("imilan", "irregulars", "Cell", "Irr1", "ATH", "", ""),
    ("igl", "irregulars", "Cell", "Irr1", "GL", "", ""),
    ("immg", "irregulars", "Cell", "Irr1", "MMG", "", ""),
    ("isf", "irregulars", "Commando", "R1", "AR", "", ""),
    ("ghost", "irregulars", "Hidden", "Irr1", "AR", "", "hidden"),
    ("ghost2", "irregulars", "Hidden", "Irr1", "AR", "", "hidden"),
    ("techie", "irregulars", "Wheels", "protected", "HMG", "", ""),
    ("heli", "regulars", "Air", "light", "HMG", "helicopter", ""),
    ("driver", "regulars", "Motor", "R4", "PISTOL", "driver", ""),
    ("lt", "regulars", "Bravo", "R4", "AR", "leader", ""),
    ("hsf", "irregulars", "Hidden", "R1", "AR", "", "hidden"),
    ("hsnipe", "irregulars", "Hidden", "Irr1", "SNIPER", "sniper", "hidden"),
    ("civ", "irregulars", "Civilians", "", "", "", ""),
)

VEHICLE_CLASSES = {"tank", "heavy", "light", "protected", "unprotected"}


def with_commanders(men: tuple[tuple, ...]) -> tuple[tuple, ...]:
    """``men`` with one main commander a side, as a scenario must field (§5.0, §12.0; ruling
    BN-ONE-COMMANDER): a side whose figures name none gets one, the figure §13.0 would follow
    without him (its leader of the highest Leadership, the first listed of equals: ``lt``
    and ``boss`` on the range), or, with no leader, its first man listed.  His Leadership
    stays as given, so the initiative and deployment rolls add what they added before;
    what changes is that his loss counts two at the morale test (§12.0)."""
    out = list(men)

    def roles(m: tuple) -> list[str]:
        return [r for r in m[5].split(",") if r]

    for side in dict.fromkeys(m[1] for m in men):
        theirs = [i for i, m in enumerate(men) if m[1] == side]
        if any("commander" in roles(men[i]) for i in theirs):
            continue
        leaders = [i for i in theirs if "leader" in roles(men[i])]
        fighting = [i for i in theirs if men[i][3] and men[i][3] not in VEHICLE_CLASSES]
        if not (leaders or fighting):
            continue
        i = max(leaders, key=lambda i: int(men[i][7]) if len(men[i]) > 7 else 0) if leaders else fighting[0]
        m = men[i]
        out[i] = (*m[:5], ",".join(["commander", *roles(m)]), *m[6:])
    return tuple(out)


def scenario_text(extras: tuple[str, ...] = (), men: tuple[tuple, ...] = MEN, night: bool = False) -> str:
    """The audit range; ``extras`` are the Regulars' (``rules_of_engagement``, …), or the
    Irregulars' when they start ``irregulars.`` (``irregulars.ambush``), the Irregulars
    having their Mortars; ``men`` may replace the figures (a figure's eighth
    field, when given, is his leadership)."""
    lines = [
        'id = "audit-early"',
        'title = "Audit range"',
        f"night = {'true' if night else 'false'}",
        "[extras.irregulars]",
        "mortars = true",
        *(f"{name.removeprefix('irregulars.')} = 1" for name in extras if name.startswith("irregulars.")),
        "[extras.regulars]",
        *(f"{name} = true" for name in extras if not name.startswith("irregulars.")),
        "[[sides]]",
        'id = "regulars"',
        'name = "Rangers"',
        'army = "regular"',
        "[[sides]]",
        'id = "irregulars"',
        'name = "Militia"',
        'army = "irregular"',
    ]
    for uid, side, team, cls, weapons, roles, status, *leadership in with_commanders(men):
        lines += ["[[units]]", f'id = "{uid}"', f'name = "{uid.title()}"', f'side = "{side}"', f'team = "{team}"']
        if cls:
            lines.append(f'cls = "{cls}"')
            lines.append("weapons = [" + ", ".join(f'"{w}"' for w in weapons.split(",")) + "]")
        else:
            lines.append('kind = "civilian"')
        if cls in VEHICLE_CLASSES:
            lines.append('kind = "vehicle"')
        if roles:
            lines.append("roles = [" + ", ".join(f'"{r}"' for r in roles.split(",")) + "]")
        if status:
            lines.append(f'status = ["{status}"]')
        if leadership:
            lines.append(f"leadership = {leadership[0]}")
    return "\n".join(lines) + "\n"


def new_game(
    tmp_path: Path,
    *,
    active: str = "regulars",
    options: tuple[str, ...] = (),
    variant: str = "",
    extras: tuple[str, ...] = (),
    stop: str = "activation",
    men: tuple[tuple, ...] = MEN,
    night: bool = False,
) -> Game:
    """A game at turn 1's activation, ``active`` the Active Player (it won initiative 12 to 2),
    or stopped earlier: ``stop`` is "deployment" (the set-up) or "initiative" (turn 1's)."""

    def build(folder: Path) -> Game:
        path = folder / "audit-early.toml"
        path.write_text(scenario_text(extras, men, night), encoding="utf-8")
        g = Game.new(folder / "g.ftlog", "breaking-news", variant, seed=7)
        g.execute(f"scenario {path}", role=REFEREE)
        for name in options:
            g.execute(f"option {name} on", role=REFEREE)
        if stop == "deployment":
            return g
        g.execute("next", role=REFEREE)
        if stop == "initiative":
            return g
        first = list(g.state.sides)[0]
        g.execute("next dice=" + ("6,6,1,1" if active == first else "1,1,6,6"), role=REFEREE)
        assert g.state.phase == "activation" and g.state.active_side == active
        return g

    return copied(repr(("bn-early", active, options, variant, extras, stop, men, night)), build, tmp_path)


def table(name: str = "g", **options):
    """A fixture ``name``: a game of :func:`new_game` with these options, closed after."""
    return game_fixture(name, lambda tmp_path, _: new_game(tmp_path, **options))


@dataclass(frozen=True)
class Rolled:
    unit: str
    purpose: str
    faces: tuple[int, ...]
    target: int | None
    outcome: str
    need: int | None  # what a die must show, every modifier applied


def _need(roll) -> int | None:
    face = getattr(roll.check, "face", None)
    return face if face is not None else roll.target


def rolls(outcome) -> list[Rolled]:
    """Every roll the command made, in order, in plain English."""
    out = []
    for e in outcome.events:
        if isinstance(e, ev.Rolled):
            r = english(e).roll
            out.append(Rolled(e.unit, str(r.purpose), tuple(r.faces), r.target, str(r.outcome), _need(e.roll)))
    return out


def status(g: Game, unit: str) -> tuple[str, ...]:
    return g.state.units[unit].status


def is_out(g: Game, unit: str) -> bool:
    return bool(g.state.units[unit].out)


def dice_asked(g: Game, command: str) -> str:
    """The words of the dice a command still wants (it must want more than were typed)."""
    with pytest.raises(NeedDice) as err:
        g.execute(command, role=REFEREE)
    return str(err.value)


def shot(g: Game, command: str) -> Rolled:
    """The to-hit roll of a fire command (its first roll that is not a suppression test)."""
    first = [
        r
        for r in rolls(g.execute(command, role=REFEREE))
        if r.purpose.startswith(("fire", "opportunity", "speculative"))
    ]
    assert first, "no to-hit roll"
    return first[0]


def notes(out) -> str:
    """The notes among the lines a command wrote."""
    return " ".join(line for line in out.lines if line.startswith("note"))


def to_hit(out) -> list[Rolled]:
    """The rolls to hit a command made: its fire, opportunity and speculative fire (§8)."""
    return [r for r in rolls(out) if r.purpose.startswith(("fire", "opportunity", "speculative"))]
