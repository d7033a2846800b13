"""Random and hostile scenario, roster and seats files and save records, fed to their
readers: no traceback (only each reader's documented refusal), the TOML parser never
given more than its bounds, no message rendered past its limit, and nothing written
on a refusal (issue 28).  Work is bounded by the inputs' size and what the parser is
given, never timed."""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest
from examples import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from registry_walk import RULESETS

import core.scenarios.files
from core.game import Game
from core.language.i18n import MAX_RENDERED, Msg, plain
from core.log.events import TAGS
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.rulesets.breaking_news.campaign.army import Roster
from core.rulesets.common import parse_scenario
from core.scenarios.files import MAX_LINE, ScenarioError, decode
from core.storage.errors import SaveError
from core.storage.salvage import salvage
from core.storage.savefile import Chain, load
from tui.ssh.seatsfile import Seats, SeatsError

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck), database=None)

# Pieces of TOML, good and hostile: concatenated, they make files the parser
# accepts, files it refuses, and files it could not bound.
PIECES = st.sampled_from(
    [
        "[", "]", "[[", "]]", "{", "}", "=", " = ", ".", ",", "\n", "#", '"', "'", '"""', "'''", "\\",
        "a", "units", "sides", "id", "ruleset", '"ludonet"', "1", "1.5", "true", "x = ", "[units]",
        "[[units]]", "k.k.k.k.k.k.k.k.k.k", "[" * 40, "{a = " * 20, "\n" * 3, "\x00", "\u202e", "é",
        'id = ""', 'name = "x"', "x" * 5000,
    ]
)  # fmt: skip
TOML_TEXT = st.one_of(
    st.lists(PIECES, max_size=60).map("".join),
    st.text(max_size=300),
    st.builds(lambda n, open_: "x = " + open_ * n, st.integers(0, 4000), st.sampled_from(["[", "[\n", "{a=", "["])),
    st.builds(lambda n: ".".join(["k"] * n) + " = 1\n", st.integers(1, 3000)),
)


@pytest.fixture
def parser_sees(monkeypatch):
    """Every text given to the TOML parser, which never holds a line past MAX_LINE."""
    real = tomllib.loads
    seen: list[str] = []

    def loads(text: str, **kwargs):
        assert max(map(len, text.split("\n"))) <= MAX_LINE
        seen.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(core.scenarios.files.tomllib, "loads", loads)
    return seen


#: The rulesets that read scenario files: each has a reader to attack (a ruleset whose
#: ``scenario_format`` is None reads none, and its ``scenario`` command refuses a file).
READERS = [r for r in RULESETS if get_ruleset(r).scenario_format is not None]


@pytest.mark.long
@SETTINGS
@given(text=TOML_TEXT, ruleset=st.sampled_from(READERS))
def test_a_hostile_scenario_file_is_read_or_refused_at_a_line(parser_sees, tmp_path_factory, text, ruleset):
    folder = tmp_path_factory.mktemp("scenario")
    file = folder / "s.toml"
    file.write_text(text, encoding="utf-8", errors="surrogatepass")
    fmt = get_ruleset(ruleset).scenario_format
    assert fmt is not None
    try:
        parse_scenario(fmt, text, str(file))
        event("read")
    except ScenarioError as e:
        event("refused by the bounds" if not parser_sees else "refused")
        assert str(e).startswith(f"{file}:") and e.line >= 0
    assert [p.name for p in folder.iterdir()] == ["s.toml"]


@SETTINGS
@given(text=TOML_TEXT)
def test_a_hostile_roster_is_read_or_refused_at_a_line(parser_sees, text):
    try:
        decode(text, Roster, "r.toml")
    except ScenarioError as e:
        assert str(e).startswith("r.toml:")


@SETTINGS
@given(text=TOML_TEXT)
def test_a_hostile_seats_file_is_read_or_refused(parser_sees, text):
    try:
        Seats.parse(text, "seats.toml")
    except SeatsError as e:
        assert str(e).startswith("seats.toml")


# ------------------------------------------------------------------- save records


def _msg(depth: int) -> st.SearchStrategy[object]:
    leaf = st.one_of(st.text(max_size=20), st.integers(-(2**60), 2**60))
    if depth == 0:
        return leaf
    template = st.lists(st.sampled_from(["{a}", "{b}", "x", "{", "}", "{a!r}", "{0}"]), max_size=12).map("".join)
    return st.one_of(
        leaf,
        st.tuples(template, st.dictionaries(st.sampled_from(["a", "b", "c"]), _msg(depth - 1), max_size=3)).map(list),
    )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
#: Values the demo game knows (its sides, a unit, a status, a phase), and edges.
KNOWN = st.sampled_from(["regulars", "irregulars", "dahir", "omar", "referee", "pinned", "movement", "", 0, 1, -1])
#: Any event's tag, with its own fields set to anything, often to what the game knows.
EVENT = st.sampled_from(sorted(TAGS)).flatmap(
    lambda tag: st.fixed_dictionaries(
        {"t": st.just(tag)},
        optional={f: KNOWN | JSON | st.lists(KNOWN, max_size=3) for f in TAGS[tag].__struct_fields__ if f != "t"},
    )
)
RECORD = st.one_of(
    EVENT,
    st.builds(lambda m: {"t": "note", "text": m}, _msg(6)),
    st.builds(lambda n: {"t": "note", "text": "[" * n + "]" * n}, st.integers(0, 20_000)),
    st.builds(
        lambda n, r: {"t": "note", "text": _nested(n, r)},
        st.integers(0, 40),
        st.integers(1, 12),
    ),
    st.dictionaries(st.sampled_from(["t", "text", "cmd", "n", "by"]), st.integers() | st.text(max_size=10)),
)


def _nested(levels: int, repeat: int) -> object:
    msg: object = ["xxxxxxxxxx"]
    for _ in range(levels):
        msg = ["{a}" * repeat, {"a": msg}]
    return msg


@pytest.fixture(scope="module")
def demo_save(tmp_path_factory) -> tuple[bytes, int, int]:
    """A demo save's bytes, its last check and its next command number."""
    game = Game.new(tmp_path_factory.mktemp("demo") / "demo.ft", "breaking-news", seed=3)
    game.execute("scenario demo", role=REFEREE)
    game.close()
    loaded = load(game.path)
    return game.path.read_bytes(), loaded.check, loaded.history.next_cmd


def _encode(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


@pytest.mark.long
@SETTINGS
@given(record=RECORD, deep=st.booleans())
def test_a_hostile_save_record_loads_bounded_or_is_refused_and_salvage_never_crashes(
    demo_save, tmp_path_factory, record, deep
):
    data, check, cmd = demo_save
    folder = tmp_path_factory.mktemp("save")
    save = folder / "s.ft"
    chain = Chain(check)
    marker = _encode({"t": "cmd", "cmd": cmd, "n": 1, "by": "referee", "text": "note x"})
    body = (b"[" * 50_000 + b"]" * 50_000) if deep else _encode(record)
    save.write_bytes(data + chain.frame_payload(marker) + chain.frame_payload(body))
    before = save.read_bytes()
    try:
        game = Game.open(save, writable=False)
    except SaveError as e:
        event("refused")
        assert str(e).startswith(f"{save}")
    else:
        event("loaded")
        for fact in game.history.store.slice(0, len(game.history.store)):
            for text in (getattr(fact, f, None) for f in ("text", "label", "purpose", "outcome", "reason")):
                if isinstance(text, Msg):
                    assert len(plain(text)) <= MAX_RENDERED
        game.close()
    assert save.read_bytes() == before and [p.name for p in folder.iterdir()] == ["s.ft"]
    try:
        done = salvage(save)
    except SaveError as e:
        assert str(e).startswith(f"{save}")
    else:
        Game.open(done.to, writable=False).close()
    assert save.read_bytes() == before
    shutil.rmtree(folder)
