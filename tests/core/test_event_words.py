"""Every fact has words in both languages (issue #93): each event type of the log's tagged
union (``core.log.events.EVENT_TYPES``, as the fold's test walks them) is put in a sentence by
the narrator (``core.log.narrate``), in English and in Italian, never as its class's name, and
each message of the core's or the ruleset's its Italian line is made of has its Italian.  A new
kind of fact fails here, by its name, until it has its words (docs/architecture.md, "How to
add a fact").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

import msgspec
import pytest
from msgspec import inspect as mi

import core.language.i18n as i18n
from core.game import Game
from core.language.catalogues import read
from core.language.i18n import CLIENT_DOMAIN, CORE_DOMAIN, SCENARIO
from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE

#: What a sample fact says where it is free to say anything: a word no catalogue holds.
WORD = "alpha"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[Game]:
    game = Game.new(tmp_path_factory.mktemp("words") / "demo.ft", "breaking-news", seed=7)
    game.execute("scenario demo", role=REFEREE)
    game.execute(f"note {WORD}", role=REFEREE)
    yield game
    game.close()


def sample(cls: type[ev.Event], game: Game) -> ev.Event:
    """A fact of type ``cls`` with every field given (but its audience and its secrets' salt
    and digest), naming what ``game`` holds where it names a piece, a side or a command."""
    named = {
        "unit": next(iter(game.state.units)),
        "side": next(iter(game.state.sides)),
        "by": REFEREE,
        "cmd": game.history.next_cmd - 1,
    }
    for alias in ("by_side", "owner", "winner"):
        named[alias] = named["side"]
    return msgspec.convert(_value(mi.type_info(cls), "", named), cls)


def _value(t: mi.Type, name: str, named: dict[str, object]) -> object:
    if isinstance(t, mi.Metadata):
        return _value(t.type, name, named)
    if name in named and isinstance(t, mi.StrType | mi.IntType):
        return named[name]
    if isinstance(t, mi.UnionType):
        return _value(next(u for u in t.types if not isinstance(u, mi.NoneType)), name, named)
    if isinstance(t, mi.StructType):
        given = {
            f.encode_name: _value(f.type, f.name, named)
            for f in t.fields
            if f.name != "vis" and (f.required or f.name != "salt")
        }
        config = t.cls.__struct_config__
        return {**given, config.tag_field: config.tag} if config.tag is not None else given
    if isinstance(t, mi.TupleType):
        return [_value(u, name, named) for u in t.item_types]
    if isinstance(t, mi.VarTupleType | mi.ListType):
        return [_value(t.item_type, name, named)]
    simple = {mi.StrType: WORD, mi.IntType: 2, mi.BoolType: False, mi.DictType: {}}
    return next(v for k, v in simple.items() if isinstance(t, k))


class _Looked:
    """A catalogue that notes each message looked up in it: (its domain, its context, the message)."""

    def __init__(self, inner: object, domain: str, seen: set[tuple[str, str, str]]) -> None:
        self._inner, self._domain, self._seen = inner, domain, seen

    def gettext(self, message: str) -> str:
        self._seen.add((self._domain, "", message))
        return self._inner.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self._seen.add((self._domain, "", singular))
        return self._inner.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        self._seen.add((self._domain, context, message))
        return self._inner.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        self._seen.add((self._domain, context, singular))
        return self._inner.npgettext(context, singular, plural, n)

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


@contextmanager
def looked_up() -> Iterator[set[tuple[str, str, str]]]:
    seen: set[tuple[str, str, str]] = set()
    real = i18n.translations
    i18n.translations = lambda lang, domain=CORE_DOMAIN: _Looked(real(lang, domain), domain, seen)
    try:
        yield seen
    finally:
        i18n.translations = real


@cache
def _italian(domain: str) -> frozenset[tuple[str, str]]:
    """The (context, message) pairs ``domain``'s Italian catalogue translates."""
    return frozenset(
        (m.context or "", m.id if isinstance(m.id, str) else m.id[0]) for m in read("it", domain) if m.id and m.string
    )


def untranslated(seen: set[tuple[str, str, str]]) -> list[str]:
    """The messages among ``seen`` that no Italian catalogue of their chain translates (the
    words of a scenario, and the sample's own, aside: they are the data, not the narrator's)."""
    out = []
    for domain, context, message in sorted(seen):
        if context == SCENARIO or message == WORD or not any(c.isalpha() for c in message):
            continue
        chain = (domain, CLIENT_DOMAIN, CORE_DOMAIN)
        if not any((context, message) in _italian(d) for d in chain):
            out.append(f"{domain}:{context}:{message!r}")
    return out


def missing_words(game: Game, e: ev.Event) -> list[str]:
    """What is missing of ``e``'s words: its English line, its Italian line, or the Italian of
    a message its Italian line is made of."""
    name = type(e).__name__
    english = game.describe(e, REFEREE)
    with reading("it"), looked_up() as seen:
        italian = game.describe(e, REFEREE)
    missing = [f"{name}: no English line (core/log/narrate.py says its class's name)"] if english in ("", name) else []
    if italian in ("", name):
        missing.append(f"{name}: no Italian line")
    return missing + [f"{name}: no Italian for {m}" for m in untranslated(seen)]


@pytest.mark.parametrize("cls", ev.EVENT_TYPES, ids=lambda cls: cls.__name__)
def test_every_fact_has_words_in_english_and_in_italian(demo, cls):
    assert missing_words(demo, sample(cls, demo)) == []


def test_a_fact_without_words_is_named(demo):
    """So that the test above can fail: a kind of fact the narrator has no words for is said
    by its class's name, and found so."""

    class Bookmark(ev.Event, frozen=True, tag="test-bookmark"):
        label: str

    missing = missing_words(demo, sample(Bookmark, demo))
    assert missing[:2] == [
        "Bookmark: no English line (core/log/narrate.py says its class's name)",
        "Bookmark: no Italian line",
    ]
    # and words of its own that the Italian catalogue lacks
    assert untranslated({(CORE_DOMAIN, "", "{unit} is bookmarked")}) == ["fireteam::'{unit} is bookmarked'"]
