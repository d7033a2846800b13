"""core.language.i18n: readers, messages kept as data, rendering that never evaluates a save's text."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from core.language.i18n import (
    MAX_RENDERED,
    NAME_LIMIT,
    M,
    Msg,
    Names,
    fill,
    naming,
    piece_name,
    plain,
    render,
    side_name,
)
from core.language.reader import Reader, from_environment, lang, reading
from core.log import events as ev


def test_a_message_is_stored_as_its_template_and_arguments_and_reads_back_equal():
    e = ev.Noted(text=M("{side} fired first", side="regulars"))
    raw = msgspec.json.encode(e)
    assert raw == b'{"t":"note","text":["{side} fired first",{"side":"regulars"}]}'
    assert msgspec.json.decode(raw, type=ev.AnyEvent) == e


def test_an_older_save_sentence_reads_back_as_the_string_it_was():
    raw = b'{"t":"note","text":"regulars fired first"}'
    assert msgspec.json.decode(raw, type=ev.AnyEvent).text == "regulars fired first"


def test_english_fills_the_template_and_nested_messages():
    assert render(M("{who} is {what}", who="Rossi", what=M("pinned"))) == "Rossi is pinned"
    assert render(M("{n} hits", n=3)) == "3 hits"


@pytest.mark.parametrize("template", ["{x.__class__}", "{x[0]}", "{x!r}", "{x:>99999}", "{0}", "{missing}", "{"])
def test_a_hostile_template_is_shown_as_written_never_evaluated(template):
    assert fill(template, {"x": "a"}) is None
    assert render(Msg(template, {"x": "a"})) == template


@pytest.mark.parametrize(
    "env, want",
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, "en"),
        ({"LANGUAGE": "it:en", "LANG": "en_US.UTF-8"}, "it"),
        ({"LC_MESSAGES": "it_CH"}, "it"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_locale_chooses_italian_or_else_english(env, want):
    assert from_environment(env) == want


async def test_each_reader_keeps_its_language_in_the_tasks_it_starts():
    seen: dict[str, list[str]] = {"a": [], "b": []}
    a, b = Reader("it"), Reader("en")

    async def seat(name: str, r: Reader) -> None:
        with reading(r):
            child = asyncio.create_task(asyncio.sleep(0, result=None))
            await child
            seen[name].append(lang())
            r.set("en" if r.lang == "it" else "it")  # a seat's setting, changed live
            await asyncio.sleep(0)
            seen[name].append(lang())

    await asyncio.gather(seat("a", a), seat("b", b))
    assert seen == {"a": ["it", "en"], "b": ["en", "it"]}
    assert lang() == "en"


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        Reader("fr")


def test_a_decimal_argument_reads_with_the_readers_decimal_point():
    m = M("{unit} crawls {cm} cm", unit="Rossi", cm="25.5")  # in no catalogue: the English template
    assert render(m, language="en") == "Rossi crawls 25.5 cm"
    assert render(m, language="it") == "Rossi crawls 25,5 cm"
    assert render(M("{unit}", unit="Pvt 1.5"), language="it") == "Pvt 1.5"


# ------------------------------------------------------------ a game's names (#26)

SIDES = Names({"regulars": "Bersaglieri", "irregulars": "Somali militia", "2": "Blue force"}, {"rossi": "Sgt Rossi"})


def test_a_side_a_message_records_by_id_reads_as_its_name_while_its_game_is_shown():
    bought = M("{side} bought {extra}", side="regulars", extra=M("Motivation"))
    marker = M("{whose} marker {n} is a fake (§4.1)", whose=M("{name}'", name="irregulars"), n="2")
    killed = M("{what} by {side}", what=M("killed"), side="regulars")
    with naming(SIDES):
        assert render(bought, language="en") == "Bersaglieri bought Motivation"
        # the possessive as the name shown ends, not as the id did ("irregulars'")
        assert render(marker, language="en") == "Somali militia's marker 2 is a fake (§4.1)"
        assert render(killed, "breaking_news", language="it") == "ucciso da Reparto Bersaglieri"
        assert side_name("irregulars") == "Somali militia" and piece_name("rossi") == "Sgt Rossi"
        assert side_name("nobody") == "nobody"
    assert render(bought, language="en") == "regulars bought Motivation"  # no game: as recorded
    assert side_name("regulars") == "regulars"


def test_what_naming_leaves_as_recorded():
    hint = M(
        "{whose} artillery opens fire (barrage {side_id} PIECE)", whose=M("{name}'s", name="us"), side_id="regulars"
    )
    with naming(SIDES):
        # an argument named ..._id is what a command takes: the hint keeps it
        assert render(hint, language="en") == "us' artillery opens fire (barrage regulars PIECE)"
        # a number is a count far more often than a side whose id it is
        assert render(M("marker {n}", n="2"), language="en") == "marker 2"
        # the rules read their own words back (a cause's side): plain never names
        assert plain(M("{what} by {side}", what=M("killed"), side="regulars")) == "killed by regulars"


def test_a_name_never_lets_a_hostile_message_render_past_its_limit():
    long = Names({"a": "x" * 10_000})
    # 20,000 references to a one-letter side: within the limit as recorded (40 KB), far past it named
    wide = M("{s}" * 20_000, s="a")
    with naming(long):
        said = render(wide, language="en")
        assert len(said) <= MAX_RENDERED and said == "a" * 20_000
        assert render(M("{s} wins", s="a"), language="en") == "x" * (NAME_LIMIT - 1) + "… wins"  # a name is cut
