"""``fireteam script / replay / log / bench``, run as a user would (the installed
command in a subprocess) and in-process through ``tui.main.main``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from coretests_support import file_events, sha

from core.game import Game
from core.log import events as ev
from tui.main import main as fireteam

FIRETEAM = Path(sys.executable).with_name("fireteam")

SCRIPT = """\
# a short evening at the checkpoint
scenario demo
mark ahmed suppressed   # he saw the patrol
roll 3d6 target=5
note "ambush at the well"
@irregulars note we wait
mark dahir wounded
dp regulars 5 building hit
undo
next
"""


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(FIRETEAM), *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def without_times(events: list[ev.Event]) -> list[dict]:
    """Events as data, less the wall-clock time each command was given and the random
    salts of the secrets (and so the digests of their commitments)."""
    out = []
    for e in events:
        data = msgspec.to_builtins(e)
        for chance in ("at", "salt", "digest"):
            data.pop(chance, None)
        out.append(data)
    return out


@pytest.fixture
def script(tmp_path) -> Path:
    path = tmp_path / "evening.txt"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


@pytest.mark.subprocess
def test_the_installed_command_runs_a_script(script, tmp_path):
    assert FIRETEAM.exists()
    save = tmp_path / "s.ftlog"
    result = run("script", str(script), "--save", str(save), "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert "» referee: mark ahmed suppressed" in result.stdout
    game = Game.open(save, writable=False)
    assert game.header.seed == 5
    issued = [e for e in file_events(save) if isinstance(e, ev.Issued)]
    assert [e.text for e in issued] == [
        "scenario demo",
        "mark ahmed suppressed",
        "roll 3d6 target=5",
        'note "ambush at the well"',
        "note we wait",
        "mark dahir wounded",
        "dp regulars 5 building hit",
        "next",
    ]
    assert issued[4].by == "irregulars"  # '@side' issues the line as that side
    assert game.state.units["ahmed"].status == ("suppressed",)
    assert game.state.sides["regulars"].defeat_points == 0  # undone
    assert game.state.turn == 1


def test_the_same_script_and_seed_give_the_same_events(script, tmp_path):
    a, b, c = tmp_path / "a.ftlog", tmp_path / "b.ftlog", tmp_path / "c.ftlog"
    for save, seed in ((a, "77"), (b, "77"), (c, "78")):
        assert fireteam(["script", str(script), "--save", str(save), "--seed", seed]) == 0
    assert without_times(file_events(a)) == without_times(file_events(b))
    rolls = [[e.roll.faces for e in file_events(p) if isinstance(e, ev.Rolled)] for p in (a, c)]
    assert rolls[0] != rolls[1]


def test_a_script_stops_at_the_first_invalid_command(tmp_path, capsys):
    script = tmp_path / "bad.txt"
    script.write_text("scenario demo\n\n# fine so far\nmark ahmed suppressed\nmark ahmed levitating\nnote never\n")
    save = tmp_path / "bad.ftlog"
    assert fireteam(["script", str(script), "--save", str(save)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{script}:5: no status 'levitating'")
    issued = [e.text for e in file_events(save) if isinstance(e, ev.Issued)]
    assert issued == ["scenario demo", "mark ahmed suppressed"]
    # Appending to the same save goes on from there.
    fix = tmp_path / "fix.txt"
    fix.write_text("mark ahmed pinned\n")
    before = save.read_bytes()
    assert fireteam(["script", str(fix), "--save", str(save)]) == 0
    assert save.read_bytes().startswith(before)


def test_script_errors_name_file_and_line(tmp_path, capsys):
    cases = {
        "@nobody note hi\n": ":1: no role 'nobody'",
        "scenario demo\nroll 3d6 dice=6\n": ":2: needs dice: referee's free roll: 3d6; 1 typed, 2 more to type (give",
        "scenario demo\n@regulars mark ahmed pinned\n": ":2: only the referee may mark",
        "scenario demo\n@regulars undo\n": ":2: the last command is not yours",
    }
    for i, (text, message) in enumerate(cases.items()):
        script = tmp_path / f"s{i}.txt"
        script.write_text(text)
        assert fireteam(["script", str(script), "--save", str(tmp_path / f"s{i}.ftlog")]) == 1
        err = capsys.readouterr().err
        assert f"{script}{message}" in err, err


def test_a_script_on_a_scenario_file_takes_the_file_s_ruleset(tmp_path, capsys):
    """Issue #91: a Linea di Tiro scenario file (`ruleset = "linea-di-tiro"`) set up by a script
    run without --ruleset was read as Breaking News's, nine errors and nothing played; the new
    save takes the ruleset the file names (docs/scenarios.md: "when given, it must be the one
    loading it").  A --ruleset given still decides, and a built-in scenario is the default's."""
    rulesets = Path(__file__).resolve().parents[2] / "core" / "rulesets"
    breakout = rulesets / "linea_di_tiro" / "scenarios" / "breakout.toml"
    scenario = tmp_path / "club" / "breakout.toml"
    scenario.parent.mkdir()
    scenario.write_text(breakout.read_text(encoding="utf-8"), encoding="utf-8")
    script = tmp_path / "lt.script"
    script.write_text(f"# a club's game\n\nscenario {scenario}\nnext\n", encoding="utf-8")
    save = tmp_path / "lt.ft"
    assert fireteam(["script", str(script), "--save", str(save), "--seed", "5"]) == 0, capsys.readouterr().err
    assert Game.open(save, writable=False).header.ruleset == "linea-di-tiro"
    assert "Turn 1: card" in capsys.readouterr().out
    refused = tmp_path / "bn.ft"
    assert fireteam(["script", str(script), "--save", str(refused), "--ruleset", "breaking-news"]) == 1
    assert "this file is for another ruleset than breaking-news" in capsys.readouterr().err
    plain = tmp_path / "plain.script"
    plain.write_text("scenario demo\n", encoding="utf-8")
    assert fireteam(["script", str(plain), "--save", str(tmp_path / "demo.ft")]) == 0
    assert Game.open(tmp_path / "demo.ft", writable=False).header.ruleset == "breaking-news"


def test_script_bad_paths(tmp_path, capsys, script):
    assert fireteam(["script", str(tmp_path / "missing.txt"), "--save", str(tmp_path / "x.ftlog")]) == 2
    assert "missing.txt" in capsys.readouterr().err
    save = tmp_path / "s.ftlog"
    assert fireteam(["script", str(script), "--save", str(save), "--seed", "1"]) == 0
    capsys.readouterr()
    assert fireteam(["script", str(script), "--save", str(save), "--seed", "1"]) == 2  # the seed is fixed
    assert "exists" in capsys.readouterr().err


@pytest.fixture
def save(script, tmp_path) -> Path:
    path = tmp_path / "replay.ftlog"
    assert fireteam(["script", str(script), "--save", str(path), "--seed", "3"]) == 0
    return path


def test_replay_json(save, capsys):
    game = Game.open(save, writable=False)
    before = sha(save)
    assert fireteam(["replay", str(save), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"turn", "phase", "active_side", "sides", "event_count"} <= set(data)
    assert data["event_count"] == game.timeline.length
    assert (data["turn"], data["phase"], data["active_side"]) == (
        game.state.turn,
        game.state.phase,
        game.state.active_side,
    )
    assert [s["id"] for s in data["sides"]] == ["regulars", "irregulars"]
    for side in data["sides"]:
        assert {"name", "units", "defeat_points"} <= set(side)
        assert isinstance(side["defeat_points"], int)
        assert {u["id"] for u in side["units"]} == {u.id for u in game.state.units_of(side["id"])}
    assert fireteam(["replay", str(save), "--step", "2", "--json"]) == 0  # the command and its set-up
    early = json.loads(capsys.readouterr().out)
    assert early["event_count"] == 2 and early["phase"] == "setup" and early["sides"][0]["units"] == []
    assert fireteam(["replay", str(save), "--step", "5", "--json"]) == 0  # three units joined
    assert [u["id"] for u in json.loads(capsys.readouterr().out)["sides"][0]["units"]] == ["rossi", "bianchi", "conti"]
    assert fireteam(["replay", str(save), "--step", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sides"] == []
    assert sha(save) == before  # replay never writes


def test_replay_as_a_side_hides_what_it_may_not_see(save, capsys):
    assert fireteam(["replay", str(save), "--as", "regulars", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    militia = next(s for s in data["sides"] if s["id"] == "irregulars")
    assert "dahir" not in {u["id"] for u in militia["units"]}
    assert fireteam(["replay", str(save), "--as", "irregulars", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    militia = next(s for s in data["sides"] if s["id"] == "irregulars")
    assert "dahir" in {u["id"] for u in militia["units"]}


def test_log_prints_one_line_per_event(save, capsys):
    game = Game.open(save, writable=False)
    assert fireteam(["log", str(save)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == game.log_length
    assert out[0] == "» referee: scenario demo"
    assert any(line.endswith("(undone)") and "building hit" in line for line in out)
    assert "↶ referee undid command #7: dp regulars 5 building hit" in out
    assert fireteam(["log", str(save), "--as", "spectator"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(game.log_lines("spectator")) < len(out)


def test_log_json_is_the_same_lines_as_data_and_a_side_sees_only_its_own(save, capsys):
    assert fireteam(["log", str(save)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert fireteam(["log", str(save), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [set(row) for row in rows] == [{"command", "kind", "text", "undone", "inner"}] * len(text)
    assert [r["text"] + ("  (undone)" if r["undone"] else "") for r in rows] == [line.strip() for line in text]
    assert rows[0] == {
        "command": 1,
        "kind": "Issued",
        "text": "» referee: scenario demo",
        "undone": False,
        "inner": False,
    }
    undid = {
        "command": 7,
        "kind": "Undone",
        "text": "↶ referee undid command #7: dp regulars 5 building hit",
        "undone": False,
        "inner": False,
    }
    assert undid in rows
    assert fireteam(["log", str(save), "--json", "--as", "regulars"]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert len(seen) == len(Game.open(save, writable=False).log_lines("regulars")) < len(rows)
    assert not [r for r in seen if "dahir" in r["text"].lower()]  # the hidden militiaman
    assert [r for r in rows if "dahir" in r["text"].lower()]


@pytest.mark.parametrize("command", ["replay", "log"])
def test_bad_paths_and_roles_give_a_clear_error(command, save, tmp_path, capsys):
    assert fireteam([command, str(tmp_path / "nope.ftlog")]) == 2
    assert "nope.ftlog: no such save file" in capsys.readouterr().err
    assert fireteam([command, str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    garbage = tmp_path / "garbage.ftlog"
    garbage.write_bytes(b"\x00\xff garbage\n")
    assert fireteam([command, str(garbage)]) == 2
    assert "garbage.ftlog:1" in capsys.readouterr().err
    assert fireteam([command, str(save), "--as", "martians"]) == 2
    assert "no role 'martians'" in capsys.readouterr().err


def test_replay_bad_step_and_turn(save, capsys):
    assert fireteam(["replay", str(save), "--step", "99999"]) == 2
    assert "step must be between 0 and" in capsys.readouterr().err
    assert fireteam(["replay", str(save), "--turn", "42"]) == 2
    assert "no turn 42" in capsys.readouterr().err
    assert fireteam(["replay", str(save), "--turn", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turn"] == 1 and data["phase"] == "initiative"


@pytest.mark.subprocess
def test_bad_role_from_the_installed_command(save):
    result = run("log", str(save), "--as", "martians")
    assert result.returncode == 2
    assert "no role 'martians'" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.subprocess
def test_bench_times_the_demo_games_chances(tmp_path):
    """One re-roll a step: the figures come, and the 200-a-step target is not claimed met."""
    result = run("bench", "--chances", "1", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["chances_points"] > 2 and data["chances_games"] == data["chances_points"] - 1
    assert data["chances_s"] > 0 and data["targets_met"] is False


@pytest.mark.subprocess
def test_bench_json_keys(tmp_path):
    result = run("bench", "--events", "20000", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.strip().splitlines()
    data = json.loads(line)
    for key in ("load_ratio", "seek_p99_ms", "append_p50_ms", "append_p99_ms", "peak_mb"):
        assert isinstance(data[key], int | float) and data[key] >= 0, key
    assert data["events"] >= 20000


def test_script_saves_into_the_data_folder_s_saves_even_beside_a_saves_folder(tmp_path, monkeypatch, capsys):
    from tui.main import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "saves").mkdir()  # a checkout: one rule all the same (core.folders)
    (tmp_path / "opening.txt").write_text("scenario demo\nnext\n")
    assert main(["script", "opening.txt", "--seed", "4"]) == 0
    save = tmp_path / "data" / "saves" / "opening.ft"
    assert f"No --save: the game goes into {save}" in capsys.readouterr().err
    game = Game.open(save, writable=False)
    assert game.state.phase != "setup" and game.header.seed == 4
    assert list((tmp_path / "saves").iterdir()) == []


@pytest.mark.subprocess
def test_script_outside_a_checkout_saves_into_the_xdg_data_folder_and_says_where(tmp_path):
    # The installed command, run in a user's home: no saves/ is made there; the game goes
    # into the data folder's (XDG_DATA_HOME's, with no FIRETEAM_DATA_DIR), and the command says so.
    home = tmp_path / "home"
    home.mkdir()
    (home / "opening.txt").write_text("scenario demo\nnext\n")
    env = {k: v for k, v in os.environ.items() if k != "FIRETEAM_DATA_DIR"} | {"XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run(
        [str(FIRETEAM), "script", "opening.txt", "--seed", "4"],
        capture_output=True,
        text=True,
        cwd=home,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    save = tmp_path / "data" / "fireteam" / "saves" / "opening.ft"
    assert sorted(p.name for p in home.iterdir()) == ["opening.txt"]
    assert f"No --save: the game goes into {save}" in done.stderr
    assert done.stdout.rstrip().endswith(f"effective events in {save}")
    assert Game.open(save, writable=False).header.seed == 4
