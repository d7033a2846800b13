"""Every field of every ruleset's scenario schema, with a good and a bad value; errors
at the field's line; limits; the read policy; the file text kept in the save."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect
import pytest
from playing import refused
from scenario_support import FULL, dumps, full

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.registry import get_ruleset
from core.rulesets.common import parse_scenario
from core.scenarios.files import MAX_BYTES, ScenarioError, locate, restrict_reads

RULESETS = tuple(FULL)


def fmt(ruleset: str):
    return get_ruleset(ruleset).scenario_format


def refuse(ruleset: str, doc: dict) -> ScenarioError:
    text = dumps(doc)
    with pytest.raises(ScenarioError) as info:
        parse_scenario(fmt(ruleset), text, "bad.toml")
    return info.value


def _leaves(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    if isinstance(value, dict) and not (path and path[-1] == "stats"):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [(path, value)]


def _wrong_type(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int):
        return "seven"
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return "not a list"
    if isinstance(value, dict):
        return 3
    raise TypeError(value)


def _set(doc: dict, path: tuple, value: Any) -> None:
    for part in path[:-1]:
        doc = doc[part]
    doc[path[-1]] = value


def _schema_fields(t: Any, prefix: str = "") -> set[str]:
    info: Any = msgspec.inspect.type_info(t)
    out: set[str] = set()

    def walk(info: Any, prefix: str) -> None:
        while isinstance(info, msgspec.inspect.Metadata):
            info = info.type
        if isinstance(info, msgspec.inspect.StructType):
            for f in info.fields:
                out.add(prefix + f.encode_name)
                walk(f.type, prefix + f.encode_name + ".")
        elif isinstance(info, msgspec.inspect.VarTupleType | msgspec.inspect.ListType):
            walk(info.item_type, prefix)
        elif isinstance(info, msgspec.inspect.DictType) and not prefix.endswith("stats."):
            walk(info.value_type, prefix + "*.")

    walk(info, prefix)
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_scenario_with_every_field_is_accepted_and_sets_the_game_up(ruleset, tmp_path):
    path = tmp_path / "full.toml"
    path.write_text(dumps(full(ruleset)), encoding="utf-8")
    game = Game.new(tmp_path / "g.ft", ruleset, seed=1)
    game.execute(f"scenario {path}", role=REFEREE)
    assert set(game.state.units) == {"car", "man1", "man2"}
    f = fmt(ruleset)
    assert game.state.vars[f.turns_key] == 6 or ruleset == "breaking-news"
    assert all(game.state.vars[k] == v for k, v in f.night_facts(get_sc(game, ruleset, path)))
    assert game.state.vars[f.victory_key] == "Hold the well." and game.state.vars["visibility"] == 40
    assert game.state.vars["victory.objectives"] == "well" and game.state.vars["victory.break_at"] == 50
    assert game.state.secrets["objective.cache"].owner == "b"
    assert "in-vehicle" in game.state.units["man1"].status
    assert game.view("b").units.get("man1") is not None and "man2" not in game.view("a").units


def get_sc(game: Game, ruleset: str, path: Path):
    return parse_scenario(fmt(ruleset), path.read_text(encoding="utf-8"), str(path)).sc


def _covered(ruleset: str) -> set[str]:
    covered = {".".join(str(p) for p in path if not isinstance(p, int)) for path, _ in _leaves(full(ruleset))}
    covered |= {k.rsplit(".", 1)[0] for k in covered}
    covered = {c.replace("extras.a", "extras.*").replace("forces.a", "forces.*") for c in covered}
    missing = {f for f in _schema_fields(fmt(ruleset).schema) if f not in covered and not f.startswith("rosters")}
    # the extras' own fields are the roster's (tested with rosters)
    missing = {f for f in missing if not f.startswith("extras.*.")}
    assert not missing


def _bad_type_cases() -> list:
    out = []
    for ruleset in RULESETS:
        for path, value in _leaves(FULL[ruleset]):
            if value in ([], {}) or path[0] == "translations":  # a text's words: at their table (below)
                continue
            out.append(pytest.param(ruleset, path, _wrong_type(value), id=f"{ruleset}:{'.'.join(map(str, path))}"))
    return out


@pytest.mark.parametrize(("ruleset", "path", "bad"), _bad_type_cases())
def test_every_field_refuses_a_value_of_the_wrong_type_at_its_line(ruleset, path, bad):
    doc = full(ruleset)
    _set(doc, path, bad)
    error = refuse(ruleset, doc)
    text = dumps(doc)
    assert error.line == locate(text, path)
    key = text.splitlines()[error.line - 1].split("=")[0].strip()
    assert key in {str(p) for p in path} | {f"[[{path[0]}]]"}


VOCABULARY = [
    # ruleset, path, bad value, words the message must hold
    ("bassa-intensita", ("units", 1, "weapons", 0), "rilfe", "did you mean rifle"),
    ("bassa-intensita", ("units", 1, "cls"), "veterna", "did you mean veteran"),
    ("bassa-intensita", ("units", 0, "kind"), "tank", "unknown kind of piece"),
    ("bassa-intensita", ("units", 1, "roles", 0), "leadr", "did you mean leader"),
    ("bassa-intensita", ("units", 1, "status", 0), "asleep", "unknown starting status"),
    ("bassa-intensita", ("units", 1, "stats"), {"gun_m": 1}, "did you mean gun_mm"),
    ("bassa-intensita", ("units", 1, "stats"), {"motivation": 2}, "from -1 to 1"),
    ("bassa-intensita", ("units", 0, "roles"), ["truck", "tank"], "names its type once"),
    ("bassa-intensita", ("units", 0, "stats"), {"capacity": 0}, "1 men are aboard"),
    ("bassa-intensita", ("units", 1, "side"), "c", "unknown side"),
    ("bassa-intensita", ("units", 1, "aboard"), "man2", "unknown vehicle"),
    ("bassa-intensita", ("units", 1, "leadership"), 12, "<= 9"),
    ("bassa-intensita", ("units", 1, "name"), "x" * 61, "length <= 60"),
    ("bassa-intensita", ("units", 1, "name"), "Bad\x1b[31m", "without control or text-direction characters"),
    ("bassa-intensita", ("units", 1, "name"), "Bad\x9b31m", "without control or text-direction characters"),
    ("bassa-intensita", ("units", 1, "name"), "Ahmed \u202eReverse", "without control or text-direction characters"),
    ("bassa-intensita", ("units", 1, "name"), "two\u2028lines", "one line of text"),
    ("bassa-intensita", ("description",), "fine\nthen \u2066isolated", "text without control or text-direction"),
    ("bassa-intensita", ("units", 1, "id"), "has space", "letters, digits"),
    ("bassa-intensita", ("units", 2, "id"), "man1", "used twice"),
    ("ludonet", ("options", 0), "igo-ugu", "did you mean igo-ugo"),
    ("bassa-intensita", ("support", 0, "kind"), "generl", "did you mean general"),
    ("bassa-intensita", ("support", 0, "cls"), "good", "unknown quality"),
    ("bassa-intensita", ("support", 0, "weapon"), "howitzer", "unknown weapon"),
    ("bassa-intensita", ("mines", 0, "kind"), "claymore", "unknown kind of mine"),
    ("bassa-intensita", ("mines", 0, "owner"), "c", "unknown side"),
    ("bassa-intensita", ("objectives", 0, "owner"), "c", "unknown side"),
    ("bassa-intensita", ("victory", "objectives", 0), "wel", "did you mean well"),
    ("bassa-intensita", ("secrets", 0, "owner"), "c", "unknown side"),
    ("bassa-intensita", ("ruleset",), "ludonet", "another ruleset"),
    ("bassa-intensita", ("visibility",), -1, ">= 0"),
    ("linea-di-tiro", ("units", 0, "cls"), "tnak", "did you mean tank"),
    ("linea-di-tiro", ("units", 0, "kind"), "man", "says vehicle = true"),
    ("linea-di-tiro", ("profiles", 0, "defence"), "tnak", "did you mean tank"),
    ("linea-di-tiro", ("profiles", 0, "morale"), 9, "<= 6"),
    ("linea-di-tiro", ("sides", 1, "army"), "allied", "one side must be"),
    ("linea-di-tiro", ("units", 1, "stats"), {"moral": 1}, "did you mean morale"),
    ("ludonet", ("units", 1, "weapons", 0), "rifel", "did you mean rifle"),
    ("ludonet", ("units", 1, "cls"), "elite", "unknown quality/class"),
    ("ludonet", ("units", 0, "stats"), {"passes": 4}, "1 to 3 passes"),
    ("ludonet", ("support", 0, "ammo"), 5, "at most 3 passes"),
    ("ludonet", ("weapons", 0, "range"), 0, ">= 1"),
    ("breaking-news", ("units", 1, "cls"), "R9", "unknown quality/class"),
    ("breaking-news", ("units", 1, "weapons", 0), "RPG7", "did you mean RPG"),
    ("breaking-news", ("forces", "a"), "navy", "unknown force"),
    ("breaking-news", ("mission",), 4, "<= 3"),
    ("breaking-news", ("platoon", 0), "c", "unknown side"),
    ("breaking-news", ("extras", "a", "ambush"), "two", "expected `int`"),
    ("breaking-news", ("sides", 0, "army"), "navy", "unknown army"),
]


@pytest.mark.parametrize(("ruleset", "path", "bad", "words"), VOCABULARY)
def test_a_bad_name_or_number_is_refused_with_what_is_allowed(ruleset, path, bad, words):
    doc = full(ruleset)
    _set(doc, path, bad)
    error = refuse(ruleset, doc)
    assert words in str(error)
    assert str(error).startswith(f"bad.toml:{error.line}: ")
    assert error.line == locate(dumps(doc), path)


@pytest.mark.parametrize("commanders", [0, 2])
def test_a_breaking_news_side_has_one_commander_as_its_roster_would(commanders):
    """§5.0 (the initiative adds the main commander's Leadership) and §12.0 (his loss counts
    2): a scenario side with none or two is refused, as a roster with the same figures is."""
    doc = full("breaking-news")
    doc["units"][2]["roles"] = ["commander"] if commanders else []
    if commanders == 2:
        doc["units"].append(doc["units"][2] | {"id": "man3", "name": "Pte Three"})
    error = refuse("breaking-news", doc)
    assert f"side b: one figure must be the commander (role commander); found {commanders}" in str(error)
    assert error.line == locate(dumps(doc), ("sides", 1))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_translation_of_the_wrong_type_is_refused_at_its_table(ruleset):
    """A text's words are a table's values: the decoder names the table, not the key."""
    doc = full(ruleset)
    doc["translations"]["it"]["The car"] = 7
    error = refuse(ruleset, doc)
    assert "translations.it: expected `str`, got `int`" in str(error)
    assert error.line == locate(dumps(doc), ("translations", "it"))


def test_a_breaking_news_side_with_its_one_commander_is_accepted():
    """The other side of the edge: one commander a side loads, as FULL fields them."""
    doc = full("breaking-news")
    loaded = parse_scenario(fmt("breaking-news"), dumps(doc), "good.toml")
    sc = loaded.sc
    theirs = {s.id: [u.id for u in sc.units if u.side == s.id and "commander" in u.roles] for s in sc.sides}
    assert theirs == {"a": ["man1"], "b": ["man2"]}


def test_bassa_intensita_sets_its_own_keys_and_badges(tmp_path):
    doc = full("bassa-intensita")
    path = tmp_path / "s.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    game = Game.new(tmp_path / "g.ft", "bassa-intensita", seed=1)
    game.execute(f"scenario {path}", role=REFEREE)
    v = game.state.vars
    assert (v["scenario.turns"], v["scenario.night"], v["scenario.victory"]) == (6, "moon", "Hold the well.")
    assert "turns" not in v and "night" not in v
    assert {"in-vehicle", "aboard-car"} <= set(game.state.units["man1"].status)
    doc["night"] = False
    error = refuse("bassa-intensita", doc)
    assert "moon = true: a moon is for a game at night" in str(error)


def test_an_unknown_field_is_a_typo_with_the_close_field_named():
    doc = full("ludonet")
    doc["sides"][0]["nmae"] = "x"
    error = refuse("ludonet", doc)
    assert "sides[0].nmae: no such field; did you mean name?" in str(error)
    assert dumps(doc).splitlines()[error.line - 1].startswith("nmae")


def test_toml_syntax_errors_give_their_line():
    with pytest.raises(ScenarioError) as info:
        parse_scenario(fmt("ludonet"), 'id = "x"\ntitle = \n', "bad.toml")
    assert str(info.value).startswith("bad.toml:2: not valid TOML")


def test_limits_are_named(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_BYTES)
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
    refused(game, f"scenario {big}", "larger than the limit of 256 KB", rule=TYPING)
    doc = full("ludonet")
    doc["units"] = [dict(doc["units"][2], id=f"u{i}") for i in range(401)]
    assert "length <= 400" in str(refuse("ludonet", doc))
    assert game.timeline.length == 0


def test_a_fifo_or_a_device_is_not_read(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
    for path in (fifo, Path("/dev/zero")):
        refused(game, f"scenario {path}", "not a regular file", rule=TYPING)
    refused(game, f"scenario {tmp_path / 'missing.toml'}", "cannot read", rule=TYPING)
    assert game.timeline.length == 0


def test_the_file_is_kept_in_the_save_for_the_referee_only(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(dumps(full("ludonet")), encoding="utf-8")
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
    game.execute(f"scenario {path}", role=REFEREE)
    path.unlink()
    game.close()
    again = Game.open(tmp_path / "g.ft", writable=False)
    kept = [line.event for line in again.log_lines(role="referee") if isinstance(line.event, ev.ScenarioRead)]
    assert [e.text for e in kept] == [dumps(full("ludonet"))]
    assert not [line for line in again.log_lines("a") if isinstance(line.event, ev.ScenarioRead)]
    assert set(again.state.units) == {"car", "man1", "man2"}


def test_a_refused_file_writes_nothing(tmp_path):
    doc = full("bassa-intensita")
    doc["units"][0]["weapons"] = ["lazer"]
    path = tmp_path / "bad.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    game = Game.new(tmp_path / "g.ft", "bassa-intensita", seed=1)
    with pytest.raises(ScenarioError, match=f"{path}:\\d+: units\\[0\\].weapons\\[0\\] = 'lazer'"):
        game.execute(f"scenario {path}", role=REFEREE)
    assert game.timeline.length == 0 and not game.state.sides


def test_a_server_reads_scenario_files_from_its_folder_only(tmp_path, monkeypatch):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    own = tmp_path / "data" / "scenarios" / "ludonet"
    own.mkdir(parents=True)
    (own / "raid.toml").write_text(dumps(full("ludonet")), encoding="utf-8")
    outside = tmp_path / "secret.toml"
    outside.write_text(dumps(full("ludonet")), encoding="utf-8")
    restrict_reads([tmp_path / "data" / "scenarios"])
    try:
        game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
        refused(game, f"scenario {outside}", "reads scenario files only from", rule=TYPING)
        refused(game, f"scenario {own}/../../../secret.toml", "reads scenario files only from", rule=TYPING)
        game.execute("scenario raid", role=REFEREE)  # by name, from the user's folder
        assert set(game.state.units) == {"car", "man1", "man2"}
    finally:
        restrict_reads(None)


def test_player_seats_cannot_load_a_scenario(tmp_path):
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=1)
    refused(game, "@paras scenario /etc/passwd", rule="ENG-1")
    assert game.timeline.length == 0


def test_locate_finds_tables_keys_and_elements():
    text = 'id = "x"\n\n[victory]\nsummary = "s"\n\n[[units]]\nid = "a"\n\n[[units]]\nid = "b"\nweapons = ["c"]\n'
    assert locate(text, ("id",)) == 1
    assert locate(text, ("victory", "summary")) == 4
    assert locate(text, ("units", 1)) == 9
    assert locate(text, ("units", 1, "weapons", 0)) == 11
    assert locate(text, ("units", 0, "missing")) == 6


def test_every_builtin_scenario_passes_its_format():
    for ruleset in RULESETS:
        scenarios = get_ruleset(ruleset).scenarios
        assert len(scenarios) >= 3, ruleset
        for loaded in scenarios.values():
            assert Path(loaded.file).is_file()


DOCS = Path(__file__).parents[2] / "docs"
#: Breaking News's rosters and extras are documented with them, in rosters.md.
DOC = "".join((DOCS / name).read_text(encoding="utf-8") for name in ("scenarios.md", "rosters.md"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_docs_name_every_field_and_every_word_of_each_vocabulary(ruleset):
    f = fmt(ruleset)
    fields = {name.rsplit(".", 1)[-1] for name in _schema_fields(f.schema) | _schema_fields(f.force_schema)}
    words = set(f.kinds) | set(f.roles) | set(f.stats) | set(f.options) | set(f.support_kinds)
    missing = sorted(w for w in fields | words if not any(f in DOC for f in (f"`{w}`", f"[{w}]", f"\n{w} = ")))
    assert not missing
