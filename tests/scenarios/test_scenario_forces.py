"""Forces between games: a side's force in its own file, fielded by any scenario of
its ruleset; checked at its own lines; kept in the save; the book's composition and
points checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scenario_support import dumps

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.rulesets.common import parse_scenario
from core.scenarios.files import ScenarioError
from core.scenarios.forces import find_force
from tui.main import main as fireteam


def fmt(ruleset: str):
    return get_ruleset(ruleset).scenario_format


def scenario(tmp_path: Path, ruleset: str, doc: dict) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    return path


SIDES = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]


def test_a_force_file_beside_the_scenario_fields_a_side_and_is_kept_in_the_save(tmp_path):
    force = {
        "name": "My section",
        "weapons": [{"id": "rifle", "range": 50}],
        "units": [{"id": "x1", "name": "X", "weapons": ["rifle"]}],
    }
    (tmp_path / "mine.toml").write_text(dumps(force), encoding="utf-8")
    path = scenario(tmp_path, "ludonet", {"id": "s", "title": "S", "rosters": {"a": "./mine.toml"}, "sides": SIDES})
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
    game.execute(f"scenario {path}", role=REFEREE)
    assert game.state.units["x1"].side == "a"
    assert game.state.vars["weapon.rifle.range"] == 50
    kept = {e.file: e.text for e in game.history.store.slice(0, game.log_length) if isinstance(e, ev.ScenarioRead)}
    assert kept[str(tmp_path / "mine.toml")] == dumps(force)


def test_a_force_is_found_by_name_in_the_users_forces_folder_then_the_builtins(tmp_path, monkeypatch):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path))
    builtin = find_force(fmt("ludonet"), "paras-section", None)
    assert builtin == fmt("ludonet").forces_dir / "paras-section.toml"
    own = tmp_path / "forces" / "ludonet"
    own.mkdir(parents=True)
    shutil.copy(builtin, own / "paras-section.toml")
    assert find_force(fmt("ludonet"), "paras-section", None) == own / "paras-section.toml"
    assert find_force(fmt("ludonet"), "nothing", None) is None


def test_a_mistake_in_a_force_file_is_reported_at_its_own_line(tmp_path):
    force = {"name": "Squad", "units": [{"id": "x1", "name": "X", "cls": "veteran", "weapons": ["rilfe"]}]}
    (tmp_path / "squad.toml").write_text(dumps(force), encoding="utf-8")
    path = scenario(
        tmp_path, "bassa-intensita", {"id": "s", "title": "S", "rosters": {"a": "squad.toml"}, "sides": SIDES}
    )
    with pytest.raises(ScenarioError) as info:
        parse_scenario(fmt("bassa-intensita"), path.read_text(), str(path))
    assert (
        str(info.value)
        == f"{tmp_path / 'squad.toml'}:7: units[0].weapons[0] = 'rilfe': unknown weapon; did you mean rifle?"
    )


def test_what_clashes_on_the_table_is_reported_at_the_rosters_line(tmp_path):
    doc = {
        "id": "s",
        "title": "S",
        "rosters": {"a": "folgore-squad"},
        "sides": SIDES,
        "units": [{"id": "f-leader", "name": "Twin", "side": "b", "cls": "regular"}],
    }
    path = scenario(tmp_path, "bassa-intensita", doc)
    with pytest.raises(ScenarioError) as info:
        parse_scenario(fmt("bassa-intensita"), path.read_text(), str(path))
    assert f"{path}:3: force " in str(info.value) and "units[0].id = 'f-leader': used twice" in str(info.value)
    doc["rosters"] = {"a": "no-such-force"}
    path = scenario(tmp_path, "bassa-intensita", doc)
    with pytest.raises(ScenarioError, match=":3: rosters.a = 'no-such-force': no force of that name"):
        parse_scenario(fmt("bassa-intensita"), path.read_text(), str(path))


def test_a_force_profile_that_differs_from_the_scenarios_is_refused(tmp_path):
    force = fmt("linea-di-tiro").forces_dir / "us-armor.toml"
    doc = {
        "id": "s",
        "title": "S",
        "rosters": {"a": str(force)},
        "sides": [{"id": "a", "name": "A", "army": "allied"}, {"id": "b", "name": "B", "army": "axis"}],
        "profiles": [{"id": "m4", "name": "Other", "vehicle": True, "morale": 3}],
    }
    path = scenario(tmp_path, "linea-di-tiro", doc)
    with pytest.raises(ScenarioError, match="its profiles 'm4' differs from the scenario's"):
        parse_scenario(fmt("linea-di-tiro"), path.read_text(), str(path))


def test_a_linea_di_tiro_force_must_fit_its_sides_army(tmp_path):
    force = fmt("linea-di-tiro").forces_dir / "us-armor.toml"
    doc = {
        "id": "s",
        "title": "S",
        "rosters": {"b": str(force)},
        "sides": [{"id": "a", "name": "A", "army": "allied"}, {"id": "b", "name": "B", "army": "axis"}],
    }
    path = scenario(tmp_path, "linea-di-tiro", doc)
    with pytest.raises(ScenarioError, match="us-armor.toml:4: army = 'allied': fielded on b, whose army is 'axis'"):
        parse_scenario(fmt("linea-di-tiro"), path.read_text(), str(path))


@pytest.mark.parametrize(
    ("units", "words"),
    [
        (
            [{"id": "s", "name": "S", "cls": "recruit", "roles": ["scout"]}],
            "scouts are elite or veteran only (BI-R212)",
        ),
        (
            [{"id": f"s{i}", "name": "S", "team": "T", "cls": "elite", "roles": ["scout"]} for i in range(2)],
            "one scout per squad ('T', BI-R212)",
        ),
        ([{"id": "l", "name": "L", "cls": "rabble", "roles": ["section-leader"]}], "may not lead a section (BI-R021"),
    ],
)
def test_bassa_intensita_composition_follows_the_book(tmp_path, units, words):
    """Rules: BI-R020, BI-R212."""
    force = tmp_path / "f.toml"
    force.write_text(dumps({"name": "F", "units": units}), encoding="utf-8")
    assert fireteam(["scenario", "check", str(force), "--ruleset", "bassa-intensita"]) == 1
    with pytest.raises(ScenarioError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_scenario(
            fmt("bassa-intensita"),
            dumps({"id": "s", "title": "S", "sides": SIDES, "units": [dict(u, side="a") for u in units]}),
            "x.toml",
        )


def test_breaking_news_rosters_are_priced_against_the_scenarios_points(tmp_path, capsys):
    doc = {
        "id": "s",
        "title": "S",
        "mission": 2,
        "points": 100,
        "rosters": {"regulars": "bersaglieri", "irregulars": "militia"},
        "sides": [
            {"id": "regulars", "name": "R", "army": "regular"},
            {"id": "irregulars", "name": "I", "army": "irregular"},
        ],
    }
    path = scenario(tmp_path, "breaking-news", doc)
    assert fireteam(["scenario", "check", str(path), "--ruleset", "breaking-news"]) == 1
    assert "bersaglieri.toml:1: 132 points is 32 over the limit of 100" in capsys.readouterr().err
    doc["points"] = 150
    path = scenario(tmp_path, "breaking-news", doc)
    assert fireteam(["scenario", "check", str(path), "--ruleset", "breaking-news"]) == 0
    assert "regulars: R (regular), 9 units, 132 of 150 points" in capsys.readouterr().out
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=1)
    game.execute(f"scenario {path}", role=REFEREE)
    assert game.state.vars["points"] == 150 and len(game.state.units) == 21


def test_a_force_file_checks_on_its_own(capsys):
    path = get_ruleset("breaking-news").scenario_format.forces_dir / "bersaglieri.toml"
    assert fireteam(["scenario", "check", str(path), "--ruleset", "breaking-news"]) == 0
    assert "force 'Bersaglieri, 3rd squad' (Breaking News): valid, 9 units, 132 points" in capsys.readouterr().out


def test_a_mistake_in_a_scenario_reads_in_the_readers_language(tmp_path):
    from core.language.reader import reading

    force = {"name": "Squad", "units": [{"id": "x1", "name": "X", "cls": "veteran", "weapons": ["rilfe"]}]}
    (tmp_path / "squad.toml").write_text(dumps(force), encoding="utf-8")
    path = scenario(
        tmp_path, "bassa-intensita", {"id": "s", "title": "S", "rosters": {"a": "squad.toml"}, "sides": SIDES}
    )
    with reading("it"), pytest.raises(ScenarioError) as info:
        parse_scenario(fmt("bassa-intensita"), path.read_text(), str(path))
    where = tmp_path / "squad.toml"
    assert str(info.value) == f"{where}:7: units[0].weapons[0] = 'rilfe': arma inesistente; forse rifle?"
