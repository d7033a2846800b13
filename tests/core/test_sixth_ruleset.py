"""Snowball, the sixth ruleset kept among the tests (tests/sixth_ruleset), is installed as a
plugin is: an entry point of ``fireteam.rulesets`` that the registry's own search finds
(tests/registry_walk.py puts its folder on the path), never ``register``.  Unlike Outpost it
lists no ``demo`` scenario, its ``next`` rolls nothing, it measures no distance and its code
is outside core/; it plays to its result in every front end (the engine, ``fireteam script``,
the Textual client, the line client), every guard test passes for it, and the commands that
list the rulesets list it, saying a plugin they leave out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from fifth_ruleset import Outpost
from playing import refused
from registry_walk import SIXTH_SITE

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.registry import BUILTIN, ENTRY_POINTS, NotARuleset, available, register, ruleset_class, unregister
from core.ruleset import Refused
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.panes.phase import PhasePane
from tui.screens.game import GameScreen
from tui.screens.newgame import NewGameScreen
from tui.screens.start import StartScreen
from tui.userdata import UserStore

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS / "tui"))
from waiting import press, until  # noqa: E402

FIRETEAM = Path(sys.executable).with_name("fireteam")
RESULT = "The Reds win the snowball fight"
#: What every reader is told of it: who won and the scores from the end's data, then its words.
OVER = f"Game over: The Reds won (The Reds 0, The Blues 2) — {RESULT}"

#: A game of Snowball on its first scenario, its dice typed: the lines a referee types.
GAME = (
    "throw ann cat open dice=3",  # §2: in the open a 3 hits: Cat is soaked
    "next",  # §1: the Blues' turn, no dice
    "throw dan ben tree dice=3",  # behind a tree a 3 misses
    "next",  # turn 2: the Reds again
    "throw ben dan wall dice=5",  # behind a wall a 5 hits: the Blues are all soaked (§3)
)


def test_snowball_is_installed_by_its_entry_point_and_never_registered():
    (point,) = [ep for ep in entry_points(group=ENTRY_POINTS) if ep.name == "snowball"]
    assert point.value == "snowball:Snowball" and point.dist is not None and point.dist.name == "snowball"
    snowball = ruleset_class("snowball")
    code = Path(sys.modules[snowball.__module__].__file__ or "")
    assert code.is_relative_to(SIXTH_SITE) and not code.is_relative_to(ROOT / "core")
    unregister("snowball")  # forgets only what register made known: an installed plugin stays
    assert "snowball" in available() and ruleset_class("snowball") is snowball

    class Copycat(Outpost):
        id = "snowball"

    with pytest.raises(NotARuleset, match="already installed"):
        register(Copycat)


def test_snowball_plays_a_game_to_its_recorded_result(tmp_path):
    game = Game.new(tmp_path / "g.ft", "snowball", seed=1)
    assert list(game.ruleset.scenarios) == ["schoolyard", "village-green"]  # no demo
    game.execute("scenario schoolyard", role=REFEREE)
    assert (game.state.phase, game.state.active_side) == ("fight", "reds")  # §1: named first, throws first
    refused(game, "@blues throw dan ann open dice=6", r"^it is The Reds's turn \(§1\)$", rule="ENG-2")
    game.execute(GAME[0], role=REFEREE)
    with pytest.raises(Refused, match=r"^Ann has thrown this turn \(§2\)$") as no:
        game.execute("throw ann dan open dice=6", role="reds")
    assert no.value.rules == ()  # Snowball keeps no rules map: its own rules name no id (test_refusal_rules.NOT_YET)
    next_turn = game.execute(GAME[1], role=REFEREE)
    assert not [e for e in next_turn.events if isinstance(e, ev.Rolled)]  # next rolls nothing
    assert "next" not in [s.name for s in game.commands if s.rolls]  # nor offers dice= for it
    for line in GAME[2:]:
        game.execute(line, role=REFEREE)
    assert game.state.phase == "ended" and plain(game.state.result) == RESULT
    assert [u.id for u in game.state.units.values() if u.out] == ["cat", "dan"]
    assert (game.state.winner, game.state.draw, game.state.scores) == ("reds", False, {"reds": 0, "blues": 2})
    assert [line.text for line in game.log_lines(role=REFEREE)][-6:] == [
        "Turn 2: fight, The Reds active",
        "» referee: throw ben dan wall dice=5",
        "Ben's throw at Dan: 1d6 needing 5+: 5 [table dice]",
        "Ben now thrown",
        "Dan out of action: soaked by Ben",
        OVER,
    ]
    assert "Dan's throw at Ben: 1d6 needing 4+: 3 [table dice]" in [line.text for line in game.log_lines(role=REFEREE)]
    game.close()
    again = Game.open(tmp_path / "g.ft", writable=False)
    assert plain(again.state.result) == RESULT and again.history.next_cmd == 1 + 1 + len(GAME)


def _installed(*more: Path) -> dict[str, str]:
    """The environment of a child process with Snowball installed (and any other site); a help
    as wide as it likes, its lines uncut."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (ROOT, SIXTH_SITE, *more))), "COLUMNS": "300"}


@pytest.mark.subprocess
def test_fireteam_script_plays_it_to_its_result(tmp_path):
    script, save = tmp_path / "fight.txt", tmp_path / "fight.ft"
    script.write_text("\n".join(["scenario schoolyard", *GAME]) + "\n", encoding="utf-8")
    done = subprocess.run(
        [str(FIRETEAM), "script", str(script), "--save", str(save), "--ruleset", "snowball", "--seed", "1"],
        capture_output=True,
        text=True,
        env=_installed(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == [OVER, f"6 commands, 25 effective events in {save}"]
    game = Game.open(save, writable=False)
    assert game.ruleset.id == "snowball" and plain(game.state.result) == RESULT


@pytest.mark.long
async def test_the_textual_client_plays_it_to_its_result_from_the_new_game_screen(tmp_path):
    app = FireteamApp(None, role=REFEREE, store=UserStore(tmp_path / "config", tmp_path / "data"), start=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await press(pilot, "n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen), "the New game screen")
        screen = app.screen
        screen.saves = tmp_path / "saves"
        below = screen.rulesets.index("snowball") - screen.rulesets.index(screen.first)
        await press(pilot, "enter", *["down"] * below, "enter")  # the ruleset; its first scenario comes with it
        await until(pilot, lambda: screen.query_one("#scenario").value == "schoolyard", "Snowball's first scenario")
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        game = app.game
        assert game.ruleset.id == "snowball" and game.state.active_side == "reds"
        for line in GAME:
            done = game.history.next_cmd
            app.screen.query_one(CommandInput).focus()
            await press(pilot, *["space" if c == " " else c for c in line], "enter")
            await until(pilot, lambda done=done: game.history.next_cmd > done, line)
        assert plain(game.state.result) == RESULT
        phase = app.screen.query_one(PhasePane)
        await until(pilot, lambda: OVER in str(phase.render()), "the phase pane saying so")


@pytest.mark.subprocess
def test_the_line_client_plays_it_to_its_result_from_its_new_game(tmp_path):
    def plain_client(lines: list[str]) -> list[dict]:
        done = subprocess.run(
            [str(FIRETEAM), "--plain", "--json", "--strict"],
            input="".join(f"{line}\n" for line in lines),
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=_installed(),
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]

    (number,) = [line.split(". ")[0] for line in plain_client(["new"])[1]["lines"] if line.endswith(". Snowball 1.")]
    answers = plain_client(["new", number, "1", *GAME])
    assert answers[2]["lines"][:2] == ["The scenarios of Snowball:", "1. Break time."]
    assert answers[-1]["input"] == GAME[-1] and answers[-1]["lines"][0] == f"{OVER}."
    (save,) = (Path(os.environ["FIRETEAM_DATA_DIR"]) / "saves").glob("snowball-schoolyard-*.ft")
    assert plain(Game.open(save, writable=False).state.result) == RESULT


# ------------------------------------------------------- the commands that list the rulesets


@pytest.fixture
def broken(tmp_path) -> Path:
    """A folder of the path with a plugin installed whose import fails."""
    info = tmp_path / "broken_rules-1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-rules\nVersion: 1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\nbroken-rules = broken_rules:Rules\n", encoding="utf-8")
    (tmp_path / "broken_rules.py").write_text("raise RuntimeError('a bug\\nover two lines')\n", encoding="utf-8")
    return tmp_path


BROKEN = "fireteam: ruleset plugin 'broken-rules' (broken_rules:Rules) left out: RuntimeError: a bug over two lines"


def _fireteam(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(FIRETEAM), *args], capture_output=True, text=True, env=_installed(site), timeout=120)


@pytest.mark.subprocess
def test_script_help_names_every_ruleset_installed_and_a_plugin_left_out_in_a_line(broken):
    done = _fireteam(broken, "script", "--help")
    assert done.returncode == 0 and done.stderr.splitlines() == [BROKEN]
    (said,) = [line.split() for line in done.stdout.splitlines() if line.lstrip().startswith("--ruleset")]
    assert " ".join(said[2:]) == (
        "the ruleset of a new save: bassa-intensita, breaking-news, linea-di-tiro, ludonet, snowball "
        "(default: the one its first command's scenario file names, else breaking-news)"
    )
    done = _fireteam(broken, "script", "nowhere.txt", "--ruleset", "broken-rules")
    assert done.returncode == 2 and "invalid choice: 'broken-rules'" in done.stderr and BROKEN in done.stderr


@pytest.mark.subprocess
def test_rules_says_a_ruleset_with_no_map_and_a_plugin_left_out_in_a_line_each(broken):
    for json_or_text in ([], ["--json"]):
        done = _fireteam(broken, "rules", *json_or_text)
        assert done.returncode == 0 and done.stderr.splitlines() == [BROKEN, "Snowball has no rules map yet"]
    assert {row["ruleset"] for row in json.loads(done.stdout)} == set(BUILTIN)  # the rulesets with a map
    done = _fireteam(broken, "rules", "--ruleset", "snowball")
    assert done.returncode == 1 and done.stderr.splitlines() == [BROKEN, "Snowball has no rules map yet"]
