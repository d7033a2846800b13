# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""The command language: prefixes, case, ambiguity, options, choices, quotes,
completion, and hidden units that a side cannot tell from units that do not exist."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from importlib import import_module

import pytest
from coretests_support import demo, skirmish  # noqa: F401  (fixtures)
from playing import names
from playing import parse_refusal as refusal

import core.commands
from core.commands import distance
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def test_prefixes_and_case(demo):
    a = demo.parse("mark ahmed suppressed", REFEREE)
    for text in ("ma ah sup", "MARK AHMED SUPPRESSED", "Ma Noor Su", "mark Ahmed suppr"):
        b = demo.parse(text, REFEREE)
        assert (b.spec.name, b.args) == (a.spec.name, a.args), text
    assert a.args == {"unit": "ahmed", "status": "suppressed"}
    assert demo.parse("dp IRR 3 shot", REFEREE).args == {"side": "irregulars", "points": 3, "reason": "shot"}
    assert demo.parse("end", REFEREE).spec.name == "next"  # alias


def test_ambiguous_verbs_name_the_candidates(skirmish):
    assert refusal(skirmish, "re", rule=TYPING) == "'re' could be redo or reveal"
    assert refusal(skirmish, "n", rule=TYPING) == "'n' could be next or note"
    assert refusal(skirmish, "s alpha gunner", rule=TYPING) == "'s' could be seal, setup or shoot"
    assert skirmish.parse("sh alpha gunner", "blue").spec.name == "shoot"


def test_ambiguous_units_and_choices_name_the_candidates(demo):
    expected = sorted(
        f"{u.id} ({u.name})"  # each by the id to type, said with its name (#26)
        for u in demo.state.units.values()
        if u.id.startswith("a") or any(w.lower().startswith("a") for w in u.name.split())
    )
    assert len(expected) >= 3
    message = refusal(demo, "mark a suppressed", rule=TYPING)
    assert message == "'a' could be " + ", ".join(expected[:-1]) + " or " + expected[-1]
    assert refusal(demo, "mark ahmed s", rule=TYPING) == "'s' could be stabilised or suppressed"


def test_unknown_words(demo):
    assert refusal(demo, "frobnicate", rule=TYPING).startswith("no command 'frobnicate'")
    assert refusal(demo, "mark nobody suppressed", rule=TYPING) == "no unit 'nobody'"
    assert refusal(demo, "mark ahmed asleep", rule=TYPING).startswith("no status 'asleep'")
    assert refusal(demo, "dp nobody 3", rule=TYPING).startswith("no side 'nobody'")
    assert (
        refusal(demo, "dp regulars many", rule=TYPING) == "points must be a whole number from -999 to 999, not 'many'"
    )
    assert refusal(demo, "mark ahmed", rule=TYPING).startswith("mark: missing status; usage: mark unit status")
    assert refusal(demo, "back ahmed now", rule=TYPING).startswith("back: unexpected 'now'")
    assert refusal(demo, "roll 2d6 colour=red", rule=TYPING).startswith("no option for roll 'colour'")
    assert refusal(demo, "", rule=TYPING) == "empty command"
    assert refusal(demo, 'note "unclosed', rule=TYPING).startswith("cannot read the command")


def test_name_value_options(demo):
    p = demo.parse("roll 3d6 target=4 purpose=smoke", REFEREE)
    assert p.args == {"dice_spec": "3d6", "target": 4, "under": None, "purpose": "smoke"}
    assert demo.parse("roll 3d6 t=4 p=smoke", REFEREE).args == p.args
    assert demo.parse('roll 3d6 purpose="two words"', REFEREE).args["purpose"] == "two words"
    assert demo.parse('roll 3d6 d="6 4 3"', REFEREE).faces == [6, 4, 3]
    assert demo.parse("mark status=pinned unit=bashir", REFEREE).args == {"unit": "bashir", "status": "pinned"}
    out = demo.execute("roll 3d6 target=4 purpose=smoke dice=4,1,6", role=REFEREE)
    assert out.events[-1].roll.purpose == "smoke" and plain(out.events[-1].roll.outcome) == "2 successes"


def test_bare_choice_words(skirmish):
    assert skirmish.parse("walk alpha 5 run", "blue").args == {"unit": "alpha", "cm": 5, "how": "run"}
    assert skirmish.parse("walk alpha cr 5", "blue").args == {"unit": "alpha", "cm": 5, "how": "crawl"}
    assert skirmish.parse("walk alpha 5 how=RUN", "blue").args["how"] == "run"
    assert skirmish.parse("walk alpha 5", "blue").args["how"] == "walk"  # the default


def test_quotes_group_words(demo):
    out = demo.execute('note "ambush at the well"  ', role=REFEREE)
    assert out.events[-1] == ev.Noted(text="ambush at the well")
    assert demo.execute("note two  words", role=REFEREE).events[-1] == ev.Noted(text="two words")
    assert demo.history.issued(out.cmd).text == 'note "ambush at the well"'


def test_quoted_text_is_literal(demo):
    """A quoted word is text even if it holds '=': quotes are how one writes one."""
    assert demo.execute('note "range=30 was wrong"', role=REFEREE).events[-1] == ev.Noted(text="range=30 was wrong")
    assert demo.execute("note 'x=1' then", role=REFEREE).events[-1] == ev.Noted(text="x=1 then")


def test_a_text_option_given_by_name_takes_the_words_after_it(demo):
    """``reason=the militia broke`` was refused ("unexpected 'militia'"): a text option takes the
    rest of the line whether it is typed bare or by name, up to the next ``name=value``."""
    said = {"side": "irregulars", "points": 3, "reason": "the market burned"}
    assert demo.parse("dp irr 3 reason=the market burned", REFEREE).args == said
    assert demo.parse("dp reason=the market burned side=irr points=3", REFEREE).args == said
    assert demo.parse("dp irr 3 the market burned", REFEREE).args == said  # bare, as before
    assert demo.parse('dp irr 3 reason="the market burned"', REFEREE).args == said  # quoted, as before


def test_an_apostrophe_inside_a_word_is_text(demo):
    assert demo.execute("note Rossi's team moves", role=REFEREE).events[-1] == ev.Noted(text="Rossi's team moves")
    assert demo.complete("note Rossi's te", role="referee") == []


# -------------------------------------------------------------------- completion


def test_completion_of_verbs(skirmish):
    assert skirmish.complete("ma", role="referee") == ["mark"]
    assert skirmish.complete("re", role="referee") == ["redo", "reveal"]
    # An empty line: those made for the phase the game is in, then those of any phase,
    # then those of other phases (setup: the set-up phase, over), each alphabetically.
    assert skirmish.state.phase == "play"
    assert skirmish.complete("", role="referee") == [
        *sorted({s.name for s in skirmish.commands} - {"setup"}),
        "setup",
    ]


def test_completion_of_units_and_choices(demo):
    assert demo.complete("mark ah", role="referee") == ["ahmed"]
    assert demo.complete("mark ahmed su", role="referee") == ["suppressed"]
    assert set(demo.complete("mark ahmed ", role="referee")) == {
        "hidden",
        "suppressed",
        "wounded",
        "down",
        "retreating",
        "pinned",
        "stabilised",
        "captured",
        "in-vehicle",
    }
    assert demo.complete("dp i", role="referee") == ["irregulars"]
    assert "target=" in demo.complete("roll 3d6 t", role="referee")
    assert demo.complete("roll 3d6 di", role="referee") == ["dice="]
    assert demo.complete("frobnicate x", role="referee") == []


def test_completion_offers_the_referee_targets_of_the_other_side_and_what_is_still_needed(demo):
    regulars = {u.id for u in demo.state.units.values() if u.side == "regulars" and u.in_play}
    offered = demo.complete("fire aden ", role="referee")
    assert regulars <= set(offered)
    assert not {"aden", "ahmed", "bashir"} & set(offered)  # the firer's own side is no target (§8.0)
    assert demo.complete("fire aden b", role="referee") == ["bianchi", "burst"]
    # Once a target is named, the range fire cannot go without comes first, and the
    # named target is not offered again; once given, the range is not offered again.
    after = demo.complete("fire aden conti ", role="referee")
    assert after[0] == "range=" and "conti" not in after and "rossi" in after
    assert demo.complete("fire aden conti r", role="referee") == ["range=", "rossi"]  # Tab on "r" gives the range first
    assert "range=" not in demo.complete("fire aden conti range=40 ", role="referee")
    assert "range=" not in demo.complete("fire aden ", role="referee")  # a target comes first
    assert demo.complete("fire aden conti", "irregulars") == ["conti"]  # a side's own view, as before


def test_completion_hides_hidden_enemies(demo):
    assert "dahir" in demo.complete("mark d", role="referee")
    assert "dahir" in demo.complete("mark d", "irregulars")
    assert "dahir" not in demo.complete("mark d", "regulars")
    assert "dahir" not in demo.complete("mark d", "spectator")
    everyone = demo.complete("mark ", "referee")
    assert set(everyone) - set(demo.complete("mark ", "regulars")) == {"dahir", "egal"}


def test_completion_in_the_test_ruleset(skirmish):
    assert skirmish.complete("walk alpha 5 r", "blue") == ["run"]
    assert skirmish.complete("shoot alpha g", "blue") == ["gunner", "grunt"]
    assert skirmish.complete("shoot gunner a", "red") == ["alpha"]
    assert skirmish.complete("walk g", "red") == ["ghost", "gunner", "grunt"]
    assert skirmish.complete("walk ", "blue") == ["alpha", "bravo", "run", "crawl"]  # units, then bare choices


# ---------------------------------------------------------------- hidden units


def _same_refusal(game, role: str, template: str, hidden: str, missing: str) -> str:
    a = refusal(
        game, template.format(hidden), role, rule=TYPING
    )  # the same words and no rule, as for a word that names nothing
    b = refusal(game, template.format(missing), role, rule=TYPING)
    assert a == b.replace(missing, hidden), (a, b)
    return a


def test_a_hidden_enemy_is_no_such_unit_for_the_other_side(skirmish):
    for word in ("ghost", "Ghost", "gho", "rider"):
        message = _same_refusal(skirmish, "blue", "shoot alpha {}", word, "zzzz")
        assert message == f"no unit {word!r} on that side"
    assert _same_refusal(skirmish, "blue", 'shoot alpha "{}"', "Ghost Rider", "Zed Zulu") == (
        "no unit 'Ghost Rider' on that side"
    )
    # An ambiguous prefix does not name the hidden unit either.
    assert (
        refusal(skirmish, "shoot alpha g", "blue", rule=TYPING)
        == "'g' could be grunt (Grunt Green) or gunner (Gunner Grey)"
    )
    assert refusal(skirmish, "shoot alpha g", "referee", rule=TYPING) == (
        "'g' could be ghost (Ghost Rider), grunt (Grunt Green) or gunner (Gunner Grey)"
    )


def test_a_hidden_unit_in_the_demo_is_no_such_unit_for_regulars(demo):
    for word in ("dahir", "DAHIR", "omar", "egal", "Yusuf"):
        assert _same_refusal(demo, "regulars", "mark {} wounded", word, "nobody") == f"no unit {word!r}"
        assert _same_refusal(demo, "spectator", "mark {} wounded", word, "nobody") == f"no unit {word!r}"
    assert demo.parse("mark dahir wounded", "irregulars").args["unit"] == "dahir"
    assert demo.parse("mark dahir wounded", "referee").args["unit"] == "dahir"
    # "e" would be egal alone for the referee; for the regulars it is nothing at all.
    assert demo.parse("mark e wounded", "referee").args["unit"] == "egal"
    assert refusal(demo, "mark e wounded", "regulars", rule=TYPING) == "no unit 'e'"


def test_a_hidden_unit_is_resolvable_for_its_owner_and_the_referee(skirmish):
    assert skirmish.parse("walk ghost 3", "red").args["unit"] == "ghost"
    assert skirmish.parse("walk rider 3", "red").args["unit"] == "ghost"
    assert skirmish.parse("shoot alpha ghost", "referee").args["target"] == "ghost"
    skirmish.execute("walk ghost 3", role="red")
    assert skirmish.state.units["ghost"].moved_cm == 3
    # Once it is no longer hidden, the other side can name it.
    skirmish.execute("clear ghost hidden", role=REFEREE)
    assert skirmish.parse("shoot alpha ghost", "blue").args["target"] == "ghost"


def test_a_side_cannot_move_the_enemys_units(skirmish):
    assert refusal(skirmish, "walk gunner 3", "blue", rule=TYPING) == "no unit 'gunner' on that side"


def test_an_option_that_takes_several_units_is_a_list_typed_either_way(demo):
    from core.commands import parse
    from core.ruleset import CommandSpec, Param

    spec = CommandSpec(
        "group",
        "test",
        lambda ctx, args: None,
        params=(Param("lead", "unit"), Param("also", "unit", many=True, optional=True, keyword=True)),
    )
    state = demo.state
    assert parse("group rossi also=conti", [spec], state, "referee").args["also"] == ["conti"]
    assert parse("group rossi also=conti,bianchi", [spec], state, "referee").args["also"] == ["conti", "bianchi"]
    assert parse("group rossi", [spec], state, "referee").args["also"] == []


def test_a_distance_is_read_exactly_in_either_unit():
    """Issue 10: half centimetres and inches, exact; an int when whole."""
    assert distance("25", "range", 0, 100) == 25 and type(distance("25", "range", 0, 100)) is int
    assert distance("25.50", "range", 0, 100) == Decimal("25.5")
    assert str(distance("25.50", "range", 0, 100)) == "25.5"
    assert distance("10in", "range", 0, 100) == Decimal("25.4")
    assert distance('10.25"', "range", 0, 100) == Decimal("26.035")
    assert distance("10IN", "range", 0, 100) == Decimal("25.4")
    assert distance("100cm", "range", 0, 100) == 100
    # A table in inches: inches as given, centimetres converted (and kept exact).
    assert distance("10", "range", 0, 60, "in") == 10
    assert distance("25.4cm", "range", 0, 60, "in") == 10
    assert distance("10cm", "range", 0, 60, "in") == Fraction(500, 127)
    with pytest.raises(Refused, match=r"range must be a distance from 0 to 60 in: .*25cm; not '61'") as no:
        distance("61", "range", 0, 60, "in")
    names(no.value, TYPING)
    with pytest.raises(Refused, match=r"from 0 to 100 cm: .*\(25 or 25\.5\), or 10in or 10\"; not '100\.5'") as no:
        distance("100.5", "range", 0, 100)
    names(no.value, TYPING)


def test_the_package_offers_each_name_its_module_defines():
    # core.commands imports a name's module only when the name is first asked for (issue #93).
    assert set(core.commands._HOMES) == set(core.commands.__all__)
    for name, home in core.commands._HOMES.items():
        assert getattr(core.commands, name) is getattr(import_module(home), name), name
    assert not hasattr(core.commands, "nothing")
