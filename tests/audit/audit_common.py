"""What the audit's four tables share: a game set up once and copied for each case (and
closed after it), and
the idioms every case writes: a line refused, a line allowed on one side of an edge and
refused on the other, the rolls and notes among its facts, a figure out or with a badge.

Only how to drive a game is Fireteam's; what must happen is the book's, written in each
case."""

from __future__ import annotations

import itertools
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from playing import play, refused  # noqa: E402  (test folders are not packages)

#: The session's folder of templates (``keep_templates_in``, called by conftest.py), and
#: the templates made so far: key -> (the save, whether its game was made with a seed).
_folder: list[Path] = []
_templates: dict[str, tuple[Path, bool]] = {}
_numbers = itertools.count()
#: The games the running case has opened, closed after it by :func:`close_games`.
OPEN: list[Game] = []


def keep_templates_in(folder: Path) -> None:
    _folder[:] = [folder]
    _templates.clear()


def copied(key: str, build: Callable[[Path], Game], folder: Path) -> Game:
    """A game of the case's own in ``folder``: a copy of the save ``build`` makes in a
    folder of its own the first time ``key`` is asked for in the session, opened to be
    played on.  ``key`` names everything ``build`` depends on.

    Setting a table up and playing it to a phase is most of what a case costs (every
    command is synced to disk); a copy costs one open.  Each case has its own copy, so no
    case sees another's commands, and the copy goes on as the template would have: the
    same facts, and, the game being made with a seed, the same dice (the seed's for the
    command's number) wherever a line gives none."""
    found = _templates.get(key)
    if found is None:
        where = _folder[0] / f"template-{next(_numbers)}"
        where.mkdir()
        template = build(where)
        template.close()
        found = _templates[key] = (template.path, template.sealing.seeded)
    path, seeded = found
    folder.mkdir(parents=True, exist_ok=True)
    g = Game.open(shutil.copyfile(path, folder / path.name))
    g.sealing.seeded = seeded  # as Game.new(seed=...) made it: a copy seals no dice of its own
    OPEN.append(g)
    return g


@pytest.fixture(autouse=True)
def close_games():
    """Every game a case opens is closed after it (an open save holds its lock)."""
    yield
    while OPEN:
        OPEN.pop().close()


def game_fixture(name: str, make: Callable[[Path, pytest.MonkeyPatch], Game]):
    """A fixture ``name``: the game ``make(tmp_path, monkeypatch)`` returns (a test module
    writes ``game = table(...)`` for its table's games)."""

    @pytest.fixture(name=name)
    def fixture(tmp_path, monkeypatch):
        return make(tmp_path, monkeypatch)

    return fixture


def allowed(g: Game, line: str, ok: bool, rule: str | None) -> list[ev.Event]:
    """``line`` played when ``ok`` (its facts), and refused when not (no facts), naming
    ``rule`` (None only where ``ok``: nothing is refused)."""
    if ok:
        return play(g, line)
    assert rule is not None, f"{line!r}: a refusal checked names the rule it expects"
    refused(g, line, rule=rule)
    return []


def cases(table: dict[str, tuple]) -> list:
    """A parametrize table's rows, each named by its key: the rulebook case it is."""
    return [pytest.param(*row, id=name) for name, row in table.items()]


def rolled(facts: list[ev.Event]) -> list[ev.Roll]:
    return [e.roll for e in facts if isinstance(e, ev.Rolled)]


def moved(facts: list[ev.Event]) -> list[float]:
    """How far each piece moved, in order."""
    return [e.cm for e in facts if isinstance(e, ev.Moved)]


def said(facts: list[ev.Event]) -> str:
    return " | ".join(plain(e.text) for e in facts if isinstance(e, ev.Noted))


def out(g: Game, uid: str) -> bool:
    return not g.state.units[uid].in_play


def has(g: Game, uid: str, badge: str) -> bool:
    return g.state.units[uid].has(badge)
