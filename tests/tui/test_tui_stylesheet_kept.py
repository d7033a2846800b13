"""The CSS a start parsed is kept in Fireteam's cache for the next process, which reads
back the pieces it asks for instead of parsing them (``tui.stylesheet``); a kept file is
hostile input: one that is damaged is not used, nor a piece that would make anything
but Textual's CSS model."""

from __future__ import annotations

import hashlib
import os
import pickle

import msgspec
import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from waiting import until

import tui.stylesheet as kept
from core.cachedir import CACHE_DIR_ENV
from tui.app import FireteamApp
from tui.screens.game import GameScreen

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def _new_process(tmp_path, monkeypatch):
    """A cache folder of the test's own, and this process's parsed CSS as a new process has it: none."""
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    _as_new_process(monkeypatch)


def _as_new_process(monkeypatch) -> None:
    monkeypatch.setattr(kept, "_RULES", LRUCache(1024))
    monkeypatch.setattr(kept, "_kept", None)
    monkeypatch.setattr(kept, "_parsed", {})


def _parses(monkeypatch) -> list[str]:
    """Every piece of CSS Textual parses from now on (where it came from)."""
    parsed: list[str] = []
    parse = Stylesheet._parse_rules

    def counted(self, css, read_from, *args, **kwargs):
        parsed.append(str(read_from))
        return parse(self, css, read_from, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "_parse_rules", counted)
    return parsed


def _rules(app: FireteamApp) -> list[tuple[str, list[tuple[str, str]], bool, int]]:
    """What the app's rule sets say, comparable between processes."""
    return [
        (
            str(rule.selector_set),
            sorted((name, repr(value)) for name, value in rule.styles.get_rules().items()),
            rule.is_default_rules,
            rule.tie_breaker,
        )
        for rule in app.stylesheet.rules
    ]


async def _shown(game) -> list[tuple[str, list[tuple[str, str]], bool, int]]:
    app = FireteamApp(game)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.pause()
        return _rules(app)


async def test_the_css_a_start_parsed_is_read_back_by_the_next_process_not_parsed(game, monkeypatch):
    parsed = _parses(monkeypatch)
    first = await _shown(game)
    assert len(parsed) > 10 and kept.kept_file().is_file()  # kept once its first frame was drawn
    _as_new_process(monkeypatch)
    parsed.clear()
    again = await _shown(game)
    assert parsed == []  # nothing parsed: all of it read back
    assert again == first and len(first) > 50


def _write_kept(groups: list[tuple[list[bytes], bytes]]) -> None:
    _write_kept_body(msgspec.msgpack.encode(groups))


def _write_kept_body(body: bytes) -> None:
    path = kept.kept_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(kept.MAGIC + hashlib.sha256(body).digest() + body)


class _Runs:
    """Unpickled, it would make a folder (any code at all)."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __reduce__(self):
        return (os.makedirs, (self.where,))


async def test_a_start_unpickles_only_the_kept_groups_it_asks_for(game, monkeypatch):
    first = await _shown(game)
    [(digests, body)] = kept._read(kept.kept_file())  # the pieces one start parsed: one group
    some = kept._unpickled(body, len(digests))[0]
    others = [bytes([n]) * 16 for n in range(8)]  # pieces no start of this game asks for
    _write_kept([(digests, body), (others, pickle.dumps([some] * 8))])
    _as_new_process(monkeypatch)
    unpickled: list[int] = []
    unpickle = kept._unpickled
    monkeypatch.setattr(kept, "_unpickled", lambda body, pieces: unpickled.append(pieces) or unpickle(body, pieces))
    parsed = _parses(monkeypatch)
    assert await _shown(game) == first and parsed == []
    assert unpickled == [len(digests)] and len(kept._kept_rules()) == len(digests) + 8


async def test_a_kept_group_that_would_run_code_is_not_run_and_its_css_is_parsed(game, monkeypatch, tmp_path):
    first = await _shown(game)
    [(digests, body)] = kept._read(kept.kept_file())
    canary = tmp_path / "ran"
    pieces = kept._unpickled(body, len(digests))
    _write_kept([(digests, pickle.dumps([[_Runs(str(canary))], *pieces[1:]]))])
    _as_new_process(monkeypatch)
    parsed = _parses(monkeypatch)
    assert await _shown(game) == first
    assert not canary.exists() and len(parsed) == len(digests)  # the whole group, parsed as before
    _as_new_process(monkeypatch)
    assert await _shown(game) == first and len(parsed) == len(digests)  # kept afresh: read back
    assert not canary.exists()
    # Not even through what the unpickler lets by: getattr is only an enum's member or a rule dict's lookup.
    _write_kept([([b"0" * 16], pickle.dumps([[os.system]]))])
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) == 1 and kept._kept_rules().get(b"0" * 16) is None


def _building(target: object, attributes: dict) -> bytes:
    """A pickle that, as it is read, sets ``attributes`` on ``target`` (something of Textual's it
    may name: a class, a function, an enum member), then is a group of one piece with no rules:
    BUILD sets the attributes of whatever it is given."""

    def inner(thing: object) -> bytes:
        return pickle.dumps(thing, protocol=2)[2:-1]  # without its PROTO and STOP

    return (
        (pickle.PROTO + b"\x02" + inner(target) + pickle.NONE + inner(attributes) + pickle.TUPLE2 + pickle.BUILD)
        + pickle.POP
        + pickle.EMPTY_LIST
        + pickle.EMPTY_LIST
        + pickle.APPEND
        + pickle.STOP
    )


def _what_textual_is():
    from textual.color import Color
    from textual.css.model import RuleSet, _check_class
    from textual.css.scalar import Unit

    return (
        sorted(vars(RuleSet)),
        repr(Color(1, 2, 3)),
        _check_class.__defaults__,
        Unit.CELLS.value,
        type(Unit.CELLS),
    )


def _rebuilt():
    from textual.color import Color
    from textual.css.model import RuleSet, SelectorType, _check_class
    from textual.css.scalar import Unit

    return {
        "a class given an attribute": (RuleSet, {"planted": 1}),
        "a class's method replaced": (Color, {"__repr__": RuleSet}),
        "a function's defaults": (_check_class, {"__defaults__": (1,)}),
        "an enum member's value": (Unit.CELLS, {"_value_": 99}),
        "an enum member's class": (Unit.CELLS, {"__class__": SelectorType}),
    }


@pytest.mark.parametrize("change", list(_rebuilt()))
def test_a_kept_file_that_would_change_textuals_own_classes_changes_nothing_and_is_not_used(change, monkeypatch):
    # The unpickler makes only Textual's CSS model, but BUILD sets attributes on what it is
    # given: the model's classes, functions and enum members themselves, for the whole process.
    before = _what_textual_is()
    target, attributes = _rebuilt()[change]
    body = _building(target, attributes)
    with pytest.raises(pickle.UnpicklingError):
        kept._unpickled(body, 1)
    assert _what_textual_is() == before
    _write_kept([([b"0" * 16], body)])
    assert len(kept._kept_rules()) == 1 and kept._kept_rules().get(b"0" * 16) is None
    assert _what_textual_is() == before


async def test_a_damaged_kept_file_is_ignored_and_written_again(game, monkeypatch):
    await _shown(game)
    path = kept.kept_file()
    good = path.read_bytes()
    path.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))  # one bit flipped: its digest no longer matches
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) == 0
    parsed = _parses(monkeypatch)
    await _shown(game)
    assert len(parsed) > 10
    assert path.read_bytes() != good[:-1] + bytes([good[-1] ^ 1])  # kept afresh
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) > 10
    _write_kept_body(pickle.dumps({b"0" * 16: []}))  # signed, but not groups (a file of format 2)
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) == 0
    many = [n.to_bytes(16, "big") for n in range(kept.MAX_KEPT + 1)]
    _write_kept([(many[:-1], pickle.dumps([[]] * kept.MAX_KEPT))])
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) == kept.MAX_KEPT  # as many pieces as a file may hold
    _write_kept([(many[:-1], pickle.dumps([[]] * kept.MAX_KEPT)), (many[-1:], pickle.dumps([[]]))])
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) == 0  # one more, in any group: not read at all
    path.unlink()
    path.mkdir()  # not a regular file
    _as_new_process(monkeypatch)
    assert len(kept._kept_rules()) == 0


def test_a_fifo_in_the_kept_files_place_never_holds_a_start_up():
    # Opened as a file, a FIFO waits for a writer: the start would never come.
    import threading

    path = kept.kept_file()
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    read = threading.Thread(target=kept._kept_rules, daemon=True)
    read.start()
    read.join(timeout=120)  # (it answers at once; the wait only bounds a failure)
    assert not read.is_alive()
    assert len(kept._kept_rules()) == 0


async def test_a_start_that_would_keep_more_pieces_than_a_file_holds_starts_the_file_again(game, monkeypatch):
    first = await _shown(game)
    [(digests, body)] = kept._read(kept.kept_file())
    monkeypatch.setattr(kept, "MAX_KEPT", 2 * len(digests) - 1)
    _as_new_process(monkeypatch)
    others = [bytes([n]) * 16 for n in range(len(digests))]  # another theme's, say: this start parses all again
    monkeypatch.setattr(kept, "_kept", kept.KeptPieces([(others, body)]))
    await _shown(game)
    [(again, _body)] = kept._read(kept.kept_file())  # not two groups: over the bound, this start's alone
    assert again == digests
    monkeypatch.setattr(kept, "MAX_KEPT", len(digests) - 1)
    _as_new_process(monkeypatch)
    monkeypatch.setattr(kept, "_kept", kept.KeptPieces([]))
    before = kept.kept_file().read_bytes()
    assert await _shown(game) == first
    assert kept.kept_file().read_bytes() == before  # more than a file may hold: nothing written
