"""What a side or a spectator is shown: the players' words, never the referee's disk.

A scenario loaded from a file is named by its title; the file's folder reaches
the referee's log alone, never a side's or a spectator's log, report, replay or
exported copy (issue #26).
"""

from __future__ import annotations

import re
import shutil
from contextlib import closing
from pathlib import Path

import pytest

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE, roles
from core.registry import get_ruleset
from tui.main import main as fireteam

#: Each ruleset with a built-in scenario of its own.
GAMES = (
    ("breaking-news", "demo"),
    ("bassa-intensita", "convoy"),
    ("linea-di-tiro", "bridge"),
    ("ludonet", "tanks"),
)
#: The name of the referee's folder the scenario file is read from.
FOLDER = "refs-private-club-folder"


def _game_from_a_file(tmp_path: Path, ruleset: str, scenario: str) -> tuple[Path, str]:
    """A game set up from a copy of a built-in scenario in the referee's folder: the
    save and the scenario's title."""
    loaded = get_ruleset(ruleset).scenarios[scenario]
    folder = tmp_path / FOLDER
    folder.mkdir()
    copy = folder / f"{scenario}.toml"
    shutil.copy(loaded.file, copy)
    save = tmp_path / "game.ft"
    with closing(Game.new(save, ruleset, seed=5)) as game:
        game.execute(f"scenario {copy}", role=REFEREE)
        game.execute("next", role=REFEREE)
    return save, loaded.title


@pytest.mark.parametrize(("ruleset", "scenario"), GAMES)
def test_a_scenario_files_folder_reaches_no_side_and_no_spectator(ruleset, scenario, tmp_path, capsys):
    save, title = _game_from_a_file(tmp_path, ruleset, scenario)
    assert fireteam(["log", str(save)]) == 0
    assert FOLDER in capsys.readouterr().out  # the referee's own log says which file he loaded
    game = Game.open(save, writable=False)
    watchers = [r for r in roles(game.state) if r != REFEREE]
    game.close()
    for role in watchers:
        assert fireteam(["log", str(save), "--as", role]) == 0
        log = capsys.readouterr().out
        assert title in log, role  # the scenario is named by its title
        for command in (["report"], ["export"], ["replay"], ["replay", "--json"]):
            assert fireteam([command[0], str(save), "--as", role, *command[1:]]) == 0
            shown = capsys.readouterr().out
            assert FOLDER not in shown, (role, command)
        assert FOLDER not in log, role


SAVES = Path(__file__).resolve().parents[2] / "saves"
RECORDED = ("demo-game.ft", "bassa-intensita-game.ft", "linea-di-tiro-game.ft", "ludonet-game.ft")
#: A variable of the rules as the code names it: ``weapon.rifle.range = 60``.
_VARIABLE = re.compile(r"^\s*[a-z_]+(\.[\w-]+)+ = ", re.MULTILINE)


@pytest.mark.parametrize("name", RECORDED)
def test_the_rules_variables_stay_in_the_referees_log(name, capsys):
    save = SAVES / name
    game = Game.open(save, writable=False)
    variables = [e for e in game.history.timeline() if type(e) is ev.VarSet and not e.vis]
    if not any(game.ruleset.describe_var(e.key, e.value) is None for e in variables):
        pytest.skip("every public variable of this game is put in words")
    watchers = [r for r in roles(game.state) if r != REFEREE]
    game.close()
    # The referee reads them as they are where he digs (--all), not between the rule
    # lines of his log (issue #61: the game's inner variables, Reading.inner).
    assert _VARIABLE.search(_log(save, REFEREE, capsys, "--all"))
    assert not _VARIABLE.search(_log(save, REFEREE, capsys))
    for role in watchers:
        log = _log(save, role, capsys, "--all")
        assert not _VARIABLE.search(log), (role, _VARIABLE.search(log))


def _log(save: Path, role: str, capsys, *options: str) -> str:
    assert fireteam(["log", str(save), "--as", role, *options]) == 0
    return capsys.readouterr().out


#: A status or a phase as the code names it: ``now attacks-1``, ``Turn 2: move-second``.
_STATUS_ID = re.compile(r"(?:\bnow|\bno longer) ((?!aboard-)[a-z]+-[a-z0-9-]+)")
_PHASE_ID = re.compile(r"^\s*Turn \d+: ([a-z]+-[a-z0-9-]+)", re.MULTILINE)


@pytest.mark.parametrize("name", RECORDED)
def test_statuses_and_phases_are_said_in_the_players_words(name, capsys):
    """``aboard-VEHICLE`` (Bassa Intensità's passengers) names a vehicle's id: left out here."""
    save = SAVES / name
    game = Game.open(save, writable=False)
    every = roles(game.state)
    game.close()
    for role in every:
        log = _log(save, role, capsys)
        assert not _STATUS_ID.findall(log), (role, sorted(set(_STATUS_ID.findall(log))))
        assert not _PHASE_ID.findall(log), (role, sorted(set(_PHASE_ID.findall(log))))


@pytest.mark.parametrize("name", RECORDED)
def test_a_piece_joins_its_side_by_name_and_its_class_by_the_books_word(name):
    game = Game.open(SAVES / name, writable=False)
    joined = [line for line in game.log_lines("spectator") if type(line.event) is ev.UnitAdded]
    assert joined
    for line in joined:
        unit = line.event.unit
        side = game.state.sides[unit.side].name
        assert f" joins {side}" in line.text, line.text
        if unit.cls and game.ruleset.class_name(unit.cls) != unit.cls:
            assert f" {unit.cls} " not in f"{line.text} " and game.ruleset.class_name(unit.cls) in line.text
    game.close()
