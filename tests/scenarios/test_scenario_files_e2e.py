"""The issue's "Done when", as a user would run it: each built-in scenario copied to
another folder, loaded by path in ``fireteam script``, shown by ``fireteam replay
--json``; one bad value refused with ``FILE:LINE:`` and no save written; and any
scenario the schema accepts sets up and plays to its first ``next``."""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_support import dumps

from core.game import Game
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.ruleset import Refused
from core.rulesets.bassa_intensita.scenario_format import SCOUTS, SECTION_LEADERS
from core.rulesets.common import parse_scenario
from core.scenarios.files import ScenarioError
from tui.main import main as fireteam

RULESETS = ("bassa-intensita", "breaking-news", "linea-di-tiro", "ludonet")
BUILTINS = [(r, s) for r in RULESETS for s in get_ruleset(r).scenarios]


@pytest.mark.parametrize(("ruleset", "scenario"), BUILTINS)
def test_a_copied_builtin_loads_by_path_and_replays_with_its_sides_and_units(ruleset, scenario, tmp_path, capsys):
    loaded = get_ruleset(ruleset).scenarios[scenario]
    copy = tmp_path / "mine" / f"{scenario}.toml"
    copy.parent.mkdir()
    shutil.copy(loaded.file, copy)
    script = tmp_path / "setup.txt"
    script.write_text(f"scenario {copy}\n", encoding="utf-8")
    save = tmp_path / "game.ft"
    assert fireteam(["script", str(script), "--ruleset", ruleset, "--save", str(save), "--seed", "3"]) == 0
    copy.unlink()  # the save replays without the file
    capsys.readouterr()
    assert fireteam(["replay", str(save), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["scenario"] == loaded.sc.title
    assert [s["id"] for s in shown["sides"]] == [s.id for s in loaded.sc.sides]
    units = {u["id"]: u for side in shown["sides"] for u in side["units"]}
    assert set(units) == {u.id for u in loaded.sc.units}
    for u in loaded.sc.units:
        assert units[u.id]["side"] == u.side and units[u.id]["name"] == u.name


def _one_bad_value(text: str) -> tuple[str, int, str]:
    """The text with the first unit's side misspelt (or, with no unit, the title
    emptied), that line, and the message."""
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith("[[units]]")), None)
    if first is None:
        at = next(i for i, line in enumerate(lines) if line.startswith("title = "))
        lines[at] = 'title = ""'
        message = "title = '': expected `str` of length >= 1"
    else:
        at = next(i for i in range(first, len(lines)) if lines[i].startswith("side = "))
        lines[at] = 'side = "nobody"'
        message = "units[0].side = 'nobody': unknown side"
    return "\n".join(lines) + "\n", at + 1, message


@pytest.mark.parametrize(("ruleset", "scenario"), BUILTINS)
def test_the_same_file_with_one_bad_value_is_refused_at_its_line_and_writes_no_save(
    ruleset, scenario, tmp_path, capsys
):
    text, line, message = _one_bad_value(Path(get_ruleset(ruleset).scenarios[scenario].file).read_text("utf-8"))
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    script = tmp_path / "setup.txt"
    script.write_text(f"scenario {bad}\n", encoding="utf-8")
    save = tmp_path / "game.ft"
    assert fireteam(["script", str(script), "--ruleset", ruleset, "--save", str(save)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:{line}: {message}" in err
    assert not save.exists()
    assert fireteam(["scenario", "check", str(bad), "--ruleset", ruleset]) == 1
    assert capsys.readouterr().err.startswith(f"{bad}:{line}: ")


def test_scenario_check_prints_sides_units_and_points(capsys):
    path = get_ruleset("breaking-news").scenarios["demo"].file
    assert fireteam(["scenario", "check", path]) == 0  # its ruleset = "breaking-news"
    out = capsys.readouterr().out
    assert "regulars: Bersaglieri (regular), 7 units, 105 of 125 points" in out
    assert "rossi: Sgt Rossi [man, Veteran, AR]" in out


def test_scenario_check_lists_every_problem_of_a_file_in_file_order(tmp_path, capsys):
    """Three distinct problems (a wrong type, a misspelt field, an unknown class): a
    mistake the schema finds does not hide the ones after it, nor those the rules find."""
    text = Path(get_ruleset("linea-di-tiro").scenarios["demo"].file).read_text("utf-8")
    text = text.replace('description = "', 'turns = "six"\ndescription = "', 1)
    text = text.replace('name = "Sherman Easy"', 'nmae = "Sherman Easy"', 1)
    text = text.replace('cls = "rifles"', 'cls = "rilfes"', 1)
    bad = tmp_path / "three.toml"
    bad.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    turns, name, cls = (lines.index(w) + 1 for w in ('turns = "six"', 'nmae = "Sherman Easy"', 'cls = "rilfes"'))
    assert fireteam(["scenario", "check", str(bad)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{bad}:{turns}: turns = 'six': expected `int`, got `str`",
        f"{bad}:{name}: units[0].nmae: no such field; did you mean name?",
        f"{bad}:{cls}: units[2].cls = 'rilfes': unknown quality/class for a man; did you mean rifles?",
    ]


def test_scenarios_lists_builtins_and_the_users_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path))
    own = tmp_path / "scenarios" / "ludonet"
    own.mkdir(parents=True)
    shutil.copy(get_ruleset("ludonet").scenarios["tanks"].file, own / "my-tanks.toml")
    (own / "broken.toml").write_text('id = "x"\n', encoding="utf-8")
    assert fireteam(["scenarios", "--ruleset", "ludonet", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["id"], r["builtin"]) for r in rows} >= {("demo", True), ("tanks", True), ("night-raid", True)}
    mine = next(r for r in rows if r["path"] == str(own / "my-tanks.toml"))
    assert mine == {
        "ruleset": "ludonet",
        "id": "tanks",
        "title": "Tanks at Cagny",
        "path": mine["path"],
        "builtin": False,
    }
    broken = next(r for r in rows if r["path"].endswith("broken.toml"))
    assert broken["error"].startswith(f"{own / 'broken.toml'}:1: ")
    assert all({"ruleset", "id", "title", "path"} <= set(r) for r in rows)


# ------------------------------------------------------------------- property


def _scenario(ruleset: str) -> st.SearchStrategy[dict]:
    """Scenarios drawn from the ruleset's vocabularies: sides, pieces of every kind,
    vehicles with passengers, objectives (some hidden), support, options, night."""
    fmt = get_ruleset(ruleset).scenario_format
    word = st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=8)
    name = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20)
    armies = {"linea-di-tiro": ["allied", "axis"], "breaking-news": ["regular", "irregular"]}.get(ruleset)
    linea = ruleset == "linea-di-tiro"

    def some(vocabulary, most: int = 2) -> st.SearchStrategy[list]:
        return st.lists(st.sampled_from(sorted(vocabulary)), max_size=most, unique=True) if vocabulary else st.just([])

    @st.composite
    def build(draw) -> dict:
        n_sides = 2 if linea else draw(st.integers(1, 3))
        side_ids = draw(st.lists(word, min_size=n_sides, max_size=n_sides, unique=True))
        sides = [{"id": s, "name": draw(name)} for s in side_ids]
        for i, s in enumerate(sides):
            if armies:
                s["army"] = armies[i] if linea else draw(st.sampled_from(armies))
        doc: dict = {"id": draw(word), "title": draw(name), "sides": sides}
        if linea:
            doc["profiles"] = [
                {"id": "veh", "name": "V", "vehicle": True, "morale": draw(st.integers(1, 6)), "at": 5, "front": 4},
                {"id": "inf", "name": "I", "vehicle": False, "morale": draw(st.integers(1, 6)), "mg": 3},
            ]
        weapons: list[str] = []
        if ruleset == "ludonet":
            doc["weapons"] = [{"id": "rifle", "range": draw(st.integers(1, 200))}]
            weapons = ["rifle"]
        elif not linea:
            weapons = sorted(fmt.weapons(None))
        units = []
        vehicles: dict[str, str] = {}
        kinds = ["man", "vehicle"] if linea else sorted(fmt.kinds)
        if ruleset == "breaking-news" and len(sides) > 1 and {s.get("army") for s in sides} != {"regular", "irregular"}:
            kinds.remove("journalist")  # war correspondents only with Regulars against Irregulars (Extras: Media)
        for uid in draw(st.lists(word, max_size=6, unique=True)):
            kind = draw(st.sampled_from(kinds))
            u = {"id": uid, "name": draw(name), "side": draw(st.sampled_from(side_ids)), "kind": kind}
            probe = type("Probe", (), {"kind": kind, "cls": ""})
            classes = (["veh"] if kind == "vehicle" else ["inf"]) if linea else sorted(fmt.classes(None, probe))
            if classes:
                u["cls"] = draw(st.sampled_from(classes))
            # a ruleset may say who carries what (Breaking News: a tank gun on a tank)
            carries = getattr(fmt, "carries", None)
            fits = [w for w in weapons if carries(kind, u.get("cls", ""), w)] if carries else weapons
            if fits:
                u["weapons"] = draw(st.lists(st.sampled_from(fits), max_size=2))
            u["roles"] = draw(some(fmt.roles))
            extra_roles = sorted(set(fmt.role_names(None)) - set(fmt.roles))  # a vehicle's type (BI)
            if kind == "vehicle" and extra_roles:
                u["roles"].append(draw(st.sampled_from(extra_roles)))
            u["status"] = draw(some(["hidden", "wounded", "down"], 1))
            ranges = getattr(fmt, "STAT_RANGES", {}) | {"capacity": (20, 99)}
            u["stats"] = {k: draw(st.integers(*ranges.get(k, (0, 3)))) for k in draw(some(fmt.stats))}
            if "passes" in u["stats"]:
                u["stats"]["passes"] = draw(st.integers(1, 3))
            if ruleset == "bassa-intensita":  # the book's composition (BI-R021, BI-R212)
                scouts = {(x["side"], x.get("team", "")) for x in units if "scout" in x["roles"]}
                if u.get("cls") not in SCOUTS or (u["side"], "") in scouts:
                    u["roles"] = [r for r in u["roles"] if r != "scout"]
                if u.get("cls") not in SECTION_LEADERS:
                    u["roles"] = [r for r in u["roles"] if r != "section-leader"]
            aboard = [v for v, side in vehicles.items() if side == u["side"]]
            if kind == "man" and aboard and draw(st.booleans()):
                u["aboard"] = draw(st.sampled_from(aboard))
            if kind in fmt.vehicle_kinds:
                vehicles[uid] = u["side"]
            units.append(u)
        if ruleset == "breaking-news":  # one commander a side that fields men (§5.0, INI-1)
            for u in units:
                u["roles"] = [r for r in u["roles"] if r != "commander"]
            for side in side_ids:
                men = [u for u in units if u["side"] == side and u["kind"] == "man"]
                if men:
                    men[0]["roles"].append("commander")
        doc["units"] = units
        objectives = []
        for oid in draw(st.lists(word, max_size=3, unique=True)):
            hidden = draw(st.booleans())
            owner = draw(st.sampled_from(side_ids)) if hidden or draw(st.booleans()) else ""
            objectives.append({"id": oid, "name": draw(name), "owner": owner, "hidden": hidden})
        doc["objectives"] = objectives
        doc["victory"] = {"summary": draw(name), "objectives": draw(some([o["id"] for o in objectives]))}
        if fmt.support_kinds:
            doc["support"] = [
                {"id": "s1", "name": draw(name), "side": draw(st.sampled_from(side_ids)), "kind": kind}
                for kind in draw(some(fmt.support_kinds, 1))
            ]
        doc["options"] = draw(some(fmt.options))
        doc["turns"] = draw(st.integers(0, 12))
        doc["night"] = draw(st.booleans())
        doc["visibility"] = draw(st.integers(0, 100))
        return doc

    return build()


@pytest.mark.long
@pytest.mark.parametrize("ruleset", RULESETS)
def test_any_scenario_the_schema_accepts_sets_up_and_plays_to_its_first_next(ruleset):
    accepted = []

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_scenario(ruleset))
    def check(doc: dict) -> None:
        text = dumps(doc)
        try:
            parse_scenario(get_ruleset(ruleset).scenario_format, text, "any.toml")
        except ScenarioError:
            return  # refused cleanly: not a scenario the schema accepts
        accepted.append(doc["id"])
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "any.toml"
            path.write_text(text, encoding="utf-8")
            with closing(Game.new(Path(folder) / "g.ft", ruleset, seed=1)) as game:
                game.execute(f"scenario {path}", role=REFEREE)
                assert set(game.state.units) == {u["id"] for u in doc["units"]}
                # A rule that wants something first (objectives…) refuses in words, not a traceback.
                with contextlib.suppress(Refused):
                    game.execute("next", role=REFEREE)

    check()
    assert len(accepted) >= 20  # the strategy draws scenarios the schema accepts
