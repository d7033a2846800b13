"""Scenario, force, roster and seats files the TOML parser cannot bound are refused
before it sees them, and every refusal is ``FILE:LINE: message`` (issue 28)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from playing import refused

import core.scenarios.files
from core.game import Game
from core.log.views import REFEREE
from core.refusal import TYPING
from core.registry import get_ruleset
from core.scenarios.files import MAX_DEPTH, MAX_KEY_PARTS, MAX_LINE
from tui.main import main as fireteam
from tui.ssh.seatsfile import Seats, SeatsError

ROSTERS = Path(get_ruleset("breaking-news").scenarios["open"].file).parent / "rosters"
_real_loads = tomllib.loads


@pytest.fixture
def parser_sees(monkeypatch):
    """What the TOML parser is given: never a line longer than MAX_LINE."""
    seen: list[str] = []

    def loads(text: str, **kwargs):
        assert max(map(len, text.split("\n"))) <= MAX_LINE, "the parser was given a line past the limit"
        seen.append(text)
        return _real_loads(text, **kwargs)

    monkeypatch.setattr(core.scenarios.files.tomllib, "loads", loads)
    return seen


HOSTILE = {
    # name: (the file's text, the line refused, the reason)
    "a 40 KB dotted key": ('ruleset = "ludonet"\n' + ".".join(["k"] * 20_000) + " = 1\n", 2, "longer than"),
    "a key of many dotted parts": (
        'ruleset = "ludonet"\n\n' + ".".join(["k"] * (MAX_KEY_PARTS + 1)) + " = 1\n",
        3,
        "dotted parts",
    ),
    "a table header of many dotted parts": (
        'ruleset = "ludonet"\n[' + ".".join(["k"] * (MAX_KEY_PARTS + 1)) + "]\n",
        2,
        "dotted parts",
    ),
    "arrays nested 3,000 deep": ('ruleset = "ludonet"\nx = ' + "[\n" * 3000 + "]\n" * 3000, 2 + MAX_DEPTH, "nested"),
    "inline tables nested deep": (
        'ruleset = "ludonet"\nx = ' + "{a = " * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1) + "\n",
        2,
        "nested",
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_what_the_parser_cannot_bound_is_refused_at_its_line_by_scenario_check(tmp_path, capsys, parser_sees, name):
    text, line, why = HOSTILE[name]
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    assert fireteam(["scenario", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{line}: ") and why in err
    assert parser_sees == []


@pytest.mark.parametrize("name", list(HOSTILE))
def test_what_the_parser_cannot_bound_is_refused_by_the_scenario_command(tmp_path, parser_sees, name):
    text, line, why = HOSTILE[name]
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
    before = game.path.read_bytes()
    refused(game, f"scenario {path}", rf"^{path}:{line}: .*{why}", rule=TYPING)
    assert game.path.read_bytes() == before
    game.close()


def test_fireteam_scenarios_lists_a_hostile_file_as_refused(tmp_path, capsys, monkeypatch, parser_sees):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path))
    own = tmp_path / "scenarios" / "ludonet"
    own.mkdir(parents=True)
    (own / "dots.toml").write_text(HOSTILE["a 40 KB dotted key"][0], encoding="utf-8")
    (own / "deep.toml").write_text(HOSTILE["arrays nested 3,000 deep"][0], encoding="utf-8")
    assert fireteam(["scenarios", "--ruleset", "ludonet", "--json"]) == 0
    rows = {Path(r["path"]).name: r for r in json.loads(capsys.readouterr().out) if not r["builtin"]}
    assert rows["dots.toml"]["error"].startswith(f"{own / 'dots.toml'}:2: line longer than")
    assert rows["deep.toml"]["error"].startswith(f"{own / 'deep.toml'}:{2 + MAX_DEPTH}: arrays or inline tables")


def test_a_file_within_the_bounds_parses_as_before(tmp_path, parser_sees):
    text = (
        'ruleset = "ludonet"\n'
        "a.b.c.d.e.f.g.h = 1\n"  # MAX_KEY_PARTS parts
        'note = "a.b.c.d.e.f.g.h.i.j [[[[[[[[[[[[[[[[[[["\n'  # what a string holds does not count
        "more = '''\n" + "[" * 40 + "\n'''\n"
        "x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    )
    core.scenarios.files.check_bounds(text, "f.toml")
    assert parser_sees == []


def test_a_roster_unit_with_an_empty_id_is_refused_at_its_line(tmp_path, capsys):
    text = (ROSTERS / "militia.toml").read_text(encoding="utf-8").replace('id = "aden"', 'id = ""')
    roster = tmp_path / "militia.toml"
    roster.write_text(text, encoding="utf-8")
    line = text.split("\n").index('id = ""') + 1
    assert fireteam(["scenario", "check", str(roster), "--ruleset", "breaking-news"]) == 1
    assert capsys.readouterr().err.startswith(f"{roster}:{line}: units[0].id = '': ")
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=1)
    game.execute("scenario open", role=REFEREE)
    before = game.path.read_bytes()
    refused(game, f"roster {roster} irregulars", rf"^{roster}:{line}: units\[0\]\.id", rule=TYPING)
    assert game.path.read_bytes() == before
    game.close()


def test_a_syntax_error_on_the_last_line_is_reported_at_that_line(tmp_path, capsys):
    path = tmp_path / "cut.toml"
    path.write_text('ruleset = "ludonet"\ntitle = "x"\nunits = [1,\n', encoding="utf-8")
    assert fireteam(["scenario", "check", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:3: not valid TOML")


def test_without_a_ruleset_the_syntax_error_comes_first_at_its_line(tmp_path, capsys):
    path = tmp_path / "open-string.toml"
    path.write_text('id = "x"\ntitle = "no end\n', encoding="utf-8")
    assert fireteam(["scenario", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:2: not valid TOML") and "which ruleset" not in err


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_seats_file_the_parser_cannot_bound_is_refused_at_its_line(tmp_path, parser_sees, name):
    text, line, why = HOSTILE[name]
    path = tmp_path / "seats.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SeatsError, match=rf"^{path}:{line}: .*{why}"):
        Seats.load(path)
    assert parser_sees == []


def test_a_seats_file_past_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "seats.toml"
    path.write_text("# x\n" * (core.scenarios.files.MAX_BYTES // 4 + 1), encoding="utf-8")
    with pytest.raises(SeatsError, match=rf"^{path}:0: larger than the limit"):
        Seats.load(path)


def test_every_built_in_scenario_force_and_roster_is_within_the_bounds():
    roots = [Path(core.scenarios.files.BUILTIN_ROOT)]
    files = [p for root in roots for p in root.rglob("*.toml") if "data" not in p.parts]
    assert len(files) > 20
    for path in files:
        core.scenarios.files.check_bounds(path.read_text(encoding="utf-8"), str(path))


def test_a_string_left_open_ends_the_scan_and_the_parser_refuses_it_at_its_line(tmp_path, capsys, parser_sees):
    # Going on from each quote of an open string, the scan once took 3.4 s on
    # 240 KB of `"\`: it stops at the string; what follows it is never TOML.
    path = tmp_path / "open.toml"
    path.write_text('ruleset = "ludonet"\ntitle = "' + '\\"' * 2000 + "\n" + "x = [\n" * 40, encoding="utf-8")
    core.scenarios.files.check_bounds(path.read_text(encoding="utf-8"), str(path))
    assert fireteam(["scenario", "check", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:2: not valid TOML")
