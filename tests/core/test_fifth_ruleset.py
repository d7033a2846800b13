"""Outpost, the fifth ruleset kept among the tests (tests/fifth_ruleset), proves the
ruleset contract: a ruleset that gives only what ``core.ruleset.Ruleset`` requires,
and a little of what it allows, plays a game to its result; and every guard test
collects it, as it collects any ruleset the registry holds (tests/registry_walk.py):
Snowball, the sixth, installed by an entry point, and Bare, a seventh installed beside them
(tests/seventh_ruleset.py), which gives only what the contract requires and passes every
guard test: none asks more of a ruleset."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from playing import refused
from seventh_ruleset import Bare

from core.game import Game
from core.language.i18n import plain
from core.log.views import REFEREE
from core.refusal import TYPING
from core.registry import BUILTIN, ENTRY_POINTS, register, unregister

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

#: A game of Outpost, its dice typed: each line and what the log shows of it.
GAME = (
    "scenario demo dice=2,5",  # §1: South wins the initiative, 5 to 2
    "fire cole ash 15 dice=3",  # §2: within 20 cm a 3 hits
    "move dale 5",
    "fire dale birch 40 dice=4",  # beyond 20 cm a 4 misses ...
    "fire dale birch 40 dice=6",  # ... a 6 hits: North has no scout left (§4)
)


def test_outpost_plays_a_game_to_its_recorded_result(tmp_path):
    game = Game.new(tmp_path / "g.ft", "outpost", seed=1)
    for line in GAME:
        game.execute(line, role="referee")
    assert game.state.phase == "ended" and plain(game.state.result) == "South holds the outpost"
    assert [u.id for u in game.state.units.values() if u.out] == ["ash", "birch"]
    assert (game.state.winner, game.state.draw, game.state.scores) == ("south", False, {"north": 2, "south": 0})
    log = [line.text for line in game.log_lines(role="referee")]
    assert (
        log[-9:]
        == [
            "» referee: fire cole ash 15 dice=3",
            "Cole's fire at Ash: 1d6 needing 3+: 3 [table dice]",
            "Ash out of action: shot by Cole",
            "» referee: move dale 5",
            "Dale moves 5 cm",
            "» referee: fire dale birch 40 dice=4",
            "Dale's fire at Birch: 1d6 needing 5+: 4 [table dice]",
            "» referee: fire dale birch 40 dice=6",
            "Dale's fire at Birch: 1d6 needing 5+: 6 [table dice]",
        ][-9:]
        or log
    )
    game.close()
    again = Game.open(tmp_path / "g.ft", writable=False)
    assert plain(again.state.result) == "South holds the outpost" and again.history.next_cmd == len(GAME) + 1


def guard_files() -> list[Path]:
    """The test modules that walk the registry (import ``registry_walk``)."""
    return sorted(p for p in TESTS.rglob("test_*.py") if "\nfrom registry_walk import" in p.read_text("utf-8"))


def _bare_installed(tmp_path: Path) -> dict[str, str]:
    """The environment of a test session of its own with Bare, the seventh ruleset
    (tests/seventh_ruleset.py), installed beside the six: an entry point, as a package declares one."""
    info = tmp_path / "bare-1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bare\nVersion: 1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\nbare = seventh_ruleset:Bare\n", encoding="utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS), str(tmp_path)])}


def _guards(env: dict[str, str], *options: str) -> subprocess.CompletedProcess[str]:
    """pytest over the guard tests (with the project's -q), in a session of its own."""
    files = [str(p) for p in guard_files()]
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, *files]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)


#: Why a guard skips Bare: it gives none of what the check is about (the contract asks none of it).
BARE_SKIPS = {
    "bare declares no parameter of the kind 'int': there is none to bound",
    "bare declares no parameter of the kind 'distance': there is none to bound",
    "bare gives no free roll (the referee's tools' roll): there is none to judge",
}


@pytest.mark.subprocess
def test_every_guard_test_collects_every_ruleset_and_asks_of_one_only_what_the_contract_requires(tmp_path):
    """One pytest session of the guard tests, with a seventh ruleset installed beside the six
    (one session, not a collection and a run: a run collects every test before ``-k`` leaves
    some out, and a plugin of the session writes down each it collects).

    Its collection: every test parametrized by the rulesets has an instance for Outpost
    (registered), Snowball (installed by tests/registry_walk.py) and Bare.  Its run: every
    guard test run for Bare, which gives only what the contract requires (and the scenario
    files' attack, which must leave out a ruleset that reads none): none fails, and the few
    that find nothing to check skip it, saying why."""
    env = _bare_installed(tmp_path)
    collected = tmp_path / "collected.txt"
    (tmp_path / "collected_ids.py").write_text(
        "def pytest_itemcollected(item):\n"
        f"    with open({str(collected)!r}, 'a', encoding='utf-8') as ids:\n"
        "        ids.write(item.nodeid + '\\n')\n",
        encoding="utf-8",
    )
    done = _guards(env, "-p", "collected_ids", "-rs", "-k", "bare or hostile_scenario_file")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-3000:]

    params: defaultdict[str, set[str]] = defaultdict(set)
    for line in collected.read_text(encoding="utf-8").splitlines():
        test, bracket, param = line.partition("[")
        if bracket:
            params[test].add(param.rstrip("]"))
    walking = {test: ids for test, ids in params.items() if set(BUILTIN) <= ids}
    assert len(walking) >= 10, sorted(params)  # the guards of tests/core, tests/rulesets, tests/scenarios
    others = {"outpost", "snowball", "bare"}
    assert {test: sorted(others - ids) for test, ids in walking.items()} == dict.fromkeys(walking, [])

    skipped = {line.split(": ", 1)[1] for line in done.stdout.splitlines() if line.startswith("SKIPPED")}
    assert skipped == BARE_SKIPS
    assert re.search(r"^\d+ passed, 3 skipped, \d+ deselected", done.stdout.splitlines()[-1]), done.stdout[-500:]


def test_a_ruleset_that_reads_no_scenario_files_plays_its_own_and_refuses_a_file_in_words(tmp_path):
    """Bare keeps its scenario as a ready table (``scenario_format`` None): a word that names no
    scenario of its own, or a file, is refused in words, not failed on (no format to read it by)."""
    register(Bare)
    try:
        game = Game.new(tmp_path / "g.ft", "bare", seed=1)
        refused(game, "scenario nowhere", r"^no scenario 'nowhere' \(choose from noon\)$", rule=TYPING)
        refused(game, f"scenario {tmp_path / 'noon.toml'}", "^Bare reads no scenario files$", rule="ENG-7")
        game.execute("scenario no", role=REFEREE)
        game.execute("concede west", role=REFEREE)
        assert plain(game.state.result) == "West concedes" and game.history.next_cmd == 3
        assert (game.state.winner, game.state.scores) == ("east", {})  # Bare keeps no score
        game.close()
    finally:
        unregister("bare")


#: Test modules that list the four built-ins by name for checks that are theirs only:
#: what ships with them (catalogues, scenario files) or a whole client per ruleset.
OVER_THE_BUILT_INS = {
    "tests/scenarios/test_scenario_files_e2e.py": "every built-in scenario file, end to end",
    "tests/tui/test_tui_hostile.py": "the Textual client per ruleset (not yet walked: issue #45)",
    "tests/tui/test_tui_loop.py": "the Textual client per ruleset (not yet walked: issue #45)",
    "tests/tui/test_tui_badges.py": "the badges the client draws for each shipped ruleset",
    "tests/tui/test_tui_nothing_cut.py": "the roster of each shipped ruleset's demo scenario, at two sizes",
    "tests/report/test_report_games.py": "the recorded games shipped in saves/, one per built-in",
    "tests/core/test_command_examples.py": "each shipped ruleset's help examples, typed into its own scenarios",
    "tests/lines/test_lines_help_words.py": "each shipped ruleset's help as its Italian catalogues say it",
}


@pytest.mark.long
def test_no_other_test_lists_the_four_rulesets_by_name():
    """A new guard written over ``("breaking-news", "bassa-intensita", …)`` would skip any
    other ruleset: it walks ``registry_walk.RULESETS`` instead (or says why above)."""
    listing = set()
    for path in sorted(TESTS.rglob("*.py")):
        text = path.read_text("utf-8")
        if not all(ruleset_id in text for ruleset_id in BUILTIN):  # most files: none to parse (seconds in all)
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                words = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                if set(BUILTIN) <= words:
                    listing.add(path.relative_to(ROOT).as_posix())
    assert listing == set(OVER_THE_BUILT_INS)
