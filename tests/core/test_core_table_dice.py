# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Table dice is the referee's choice for his whole table (issue #61): a fact of the log,
so every seat of a served table reads it from the save."""

from __future__ import annotations

import re

import pytest
from coretests_support import skirmish  # noqa: F401  (fixtures)
from playing import names, refused

from core.game import Game
from core.language.catalogues import DOMAINS, read
from core.language.reader import reading
from core.log.state import table_dice
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def test_the_referee_turns_table_dice_on_and_off_for_every_role(skirmish):
    assert not table_dice(skirmish.state)
    skirmish.execute("table-dice on", role=REFEREE)
    again = Game.open(skirmish.path, writable=False)  # a seat's copy reads it from the save
    for role in (REFEREE, "blue", "red"):
        assert table_dice(again.view(role))
    said = [line.text for line in again.log_lines("blue")]
    assert "table dice on: each player is asked for the faces of his own rolls" in said
    skirmish.execute("table-dice off", role=REFEREE)
    assert not table_dice(skirmish.state)


def test_a_side_may_not_turn_table_dice_on_or_off(skirmish):
    refused(skirmish, "@blue table-dice on", "only the referee", rule="ENG-1")
    skirmish.execute("table-dice on", role=REFEREE)
    refused(skirmish, "@red table-dice off", "only the referee", rule="ENG-1")
    assert table_dice(skirmish.state)


def test_turning_table_dice_on_twice_is_refused(skirmish):
    skirmish.execute("table-dice on", role=REFEREE)
    refused(skirmish, "table-dice on", "already on", rule="ENG-7")


def test_the_switch_typed_as_two_words_points_to_its_one_word_name(skirmish):
    """Issue #61: ``table dice on`` took ``table`` for ``table-dice`` and refused ``dice`` as
    its choice, never naming the command; the refusal now gives the line to type."""
    assert refused(skirmish, "table dice on", rule=TYPING) == "no command 'table dice'; did you mean table-dice on?"
    with reading("it"), pytest.raises(Refused) as no:
        skirmish.execute("dadi tavolo sì", role=REFEREE)
    names(no.value, TYPING)
    assert str(no.value) == "comando 'dadi tavolo': non esiste; forse intendevi dadi-tavolo sì?"
    assert not table_dice(skirmish.state)


@pytest.mark.parametrize(("typed", "on"), [("sì", True), ("si", True), ("SI", True), ("attivi", True), ("no", False)])
def test_an_italian_referee_switches_table_dice_with_yes_or_no(skirmish, typed, on):
    """Issue #61: Italian answers a switch with *sì* or *no*; ``attivi``/``spenti`` stay the
    names shown, and the record keeps the English choice."""
    if not on:
        skirmish.execute("table-dice on", role=REFEREE)
    with reading("it"):
        skirmish.execute(f"dadi-tavolo {typed}", role=REFEREE)
    assert table_dice(skirmish.state) is on
    assert skirmish.history.issued(skirmish.history.last_effective()).text == f"table-dice {'on' if on else 'off'}"


def test_an_italian_s_that_may_be_si_or_spenti_is_refused_naming_both(skirmish):
    """Issue #61: with *sì* taken for ``on``, an ``s`` (a cut *sì*) began *spenti* alone and
    turned table dice off: a switch read the wrong way round is refused instead."""
    skirmish.execute("table-dice on", role=REFEREE)
    with reading("it"):
        assert refused(skirmish, "dadi-tavolo s", rule=TYPING) == "'s' può essere spenti o sì"
    assert table_dice(skirmish.state)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("n", "scelta 'n': non esiste; forse intendevi no?"),
        ("xyz", "scelta 'xyz': non esiste (scegli fra attivi, spenti)"),
    ],
)
def test_a_wrong_italian_switch_suggests_the_italian_words_it_takes(skirmish, typed, said):
    """Found at a table (#61): ``dadi-tavolo n`` answered "forse intendevi on?", an English
    word; the refusal names what an Italian referee types (``no``, ``attivi``, ``spenti``)."""
    with reading("it"):
        assert refused(skirmish, f"dadi-tavolo {typed}", rule=TYPING) == said


def test_table_dice_is_one_phrase_in_every_italian_catalogue():
    """Found at a table (#61): the log's tag said "[dadi al tavolo]" where the switch, its
    lines and the client say "dadi al tavolo"; one phrase for one thing."""
    said = [
        s
        for domain in DOMAINS
        for m in read("it", domain)
        if m.id
        for s in (m.string if isinstance(m.string, tuple) else (m.string,))
        if re.search(r"\bdadi \w+ tavolo\b", s, flags=re.I)
    ]
    assert said
    assert [s for s in said if not re.search(r"\bdadi al tavolo\b", s, flags=re.I)] == []
