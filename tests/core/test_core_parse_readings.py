"""A bare word that could be a unit or a choice (issue #27): a unit's exact id wins,
an exact choice wins over the start of a unit's name, and a word that only begins
both is refused naming both readings."""

from __future__ import annotations

import pytest
from playing import names

from core.commands import parse
from core.log.state import GameState, Side, Unit
from core.refusal import TYPING
from core.ruleset import CommandSpec, Param, Refused

FIRE = CommandSpec(
    "fire",
    "a test shot",
    lambda ctx, args: None,
    params=(
        Param("shooter", "own"),
        Param("target", "enemy"),
        Param("band", "choice", optional=True, choices=("half", "full"), keyword=True),
        Param("defence", "choice", optional=True, choices=("entrenched", "tank", "vehicle"), keyword=True),
    ),
)


def state(*units: Unit) -> GameState:
    sides = {s: Side(s, s.title()) for s in ("allies", "axis")}
    return GameState(phase="play", sides=sides, units={u.id: u for u in units})


TABLE = state(
    Unit("m3", "M3 Lee", "allies"),
    Unit("a", "Able", "allies"),
    Unit("f", "Fritz", "axis"),
    Unit("e", "Emil", "axis"),
    Unit("v", "Volker", "axis"),
    Unit("tank", "Tiger", "axis"),
    Unit("enemy", "Feind", "axis"),
)


def args(text: str) -> dict:
    return parse(text, [FIRE], TABLE, "referee").args


@pytest.mark.parametrize(("target", "flag"), [("f", "full"), ("e", "entrenched"), ("v", "vehicle"), ("tank", "tank")])
def test_a_units_exact_id_is_the_unit_not_a_flag(target, flag):
    got = args(f"fire m3 {target}")
    assert (got["target"], got["band"], got["defence"]) == (target, None, None)
    # the flag is still there after the unit, by its name or with its option
    got = args(f"fire m3 {target} {flag}")
    assert got["target"] == target and flag in (got["band"], got["defence"])


def test_the_unit_a_and_the_unit_enemy():
    got = args("fire a enemy full")
    assert (got["shooter"], got["target"], got["band"]) == ("a", "enemy", "full")


def test_a_word_that_begins_a_unit_and_a_choice_is_refused_naming_both():
    with pytest.raises(Refused) as refused:
        args("fire m3 t")  # Tiger (tank) or the defence tank
    names(refused.value, TYPING)
    assert str(refused.value) == "'t' could be the unit tank or the defence tank"
    assert args("fire m3 ti")["target"] == "tank"  # only Tiger begins so
    assert args("fire m3 f fu")["band"] == "full"  # no unit slot is left: only the choice


def test_an_exact_choice_wins_over_the_start_of_a_name():
    table = state(Unit("m3", "M3 Lee", "allies"), Unit("h1", "Half-track", "axis"), Unit("f", "Fritz", "axis"))
    got = parse("fire m3 f half", [FIRE], table, "referee").args
    assert (got["target"], got["band"]) == ("f", "half")


def test_a_unit_by_any_word_of_its_id_or_name():
    table = state(Unit("m3", "M3 Lee", "allies"), Unit("mg-team", "Spandau", "axis"), Unit("h1", "Half-track", "axis"))
    assert parse("fire m3 team", [FIRE], table, "referee").args["target"] == "mg-team"
    assert parse("fire m3 track", [FIRE], table, "referee").args["target"] == "h1"


def test_tab_offers_a_unit_by_any_word_of_its_name():
    from core.commands import complete

    assert complete("fire m3 fri", [FIRE], TABLE, "referee") == ["f"]  # Fritz
    assert complete("fire m3 tig", [FIRE], TABLE, "referee") == ["tank"]  # Tiger


def test_a_name_said_whole_is_one_unit():
    """``dismount cpl pinna``: a referee says a figure's name whole; its words after the
    first go on with that figure, not into the next argument (#26)."""
    table = state(
        Unit("pinna", "Cpl Pinna", "allies"),
        Unit("abdi", "Abdi the gunner", "axis"),
        Unit("noor", "Ahmed Noor", "axis"),
        Unit("m3", "M3 Lee", "allies"),
    )
    got = parse("fire cpl pinna abdi the gunner half", [FIRE], table, "referee").args
    assert (got["shooter"], got["target"], got["band"]) == ("pinna", "abdi", "half")
    assert parse("fire Cpl Pinna Ahmed Noor", [FIRE], table, "referee").args["target"] == "noor"
    assert (
        parse("fire m3 lee ahm", [FIRE], table, "referee").args == parse("fire m3 ahm", [FIRE], table, "referee").args
    )
    with pytest.raises(Refused, match="unexpected 'pinna'") as no:  # a word that is no more of that name
        parse("fire m3 noor pinna", [FIRE], table, "referee")
    names(no.value, TYPING)
