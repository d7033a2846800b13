"""The report's facts worked out from hand-made events, exactly: the decisive moments
of a command that takes out (or brings back) two pieces of a side, of one that costs
both sides alike, of a one-sided game; a turn in which the reader saw nothing; a piece's
class as the game knows it by its end; the causes in the ruleset's own words; the side a
roll for no piece and no side favours; the rules named by the version a save records; the
optional rules in force."""

from __future__ import annotations

from core.language.i18n import M
from core.language.reader import reading
from core.log import events as ev
from core.log.state import apply_in_place
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.report.facts import collect
from core.report.model import Moment, TurnFacts, UnitFacts
from core.storage.decoding import Header

HEADER = Header(fireteam=3, ruleset="breaking-news", ruleset_version="1.5.1", engine="0", created="then", seed=1)
BN = get_ruleset("breaking-news")


def _unit(uid: str, side: str, cls: str = "") -> ev.UnitAdded:
    return ev.UnitAdded(unit=ev.UnitSpec(id=uid, name=uid.title(), side=side, cls=cls))


def _setup(*sides: str) -> list[ev.Event]:
    return [
        ev.Issued(cmd=1, n=0, by="referee", text="scenario"),
        ev.GameSetUp(scenario="Test", sides=tuple(ev.SideSpec(s, s.title()) for s in sides)),
        *(_unit(f"{s}{i}", s) for s in sides for i in (1, 2)),
        ev.PhaseBegan(turn=1, phase="play"),
    ]


def _command(number: int, text: str, *facts: ev.Event) -> list[ev.Event]:
    return [ev.Issued(cmd=number, n=len(facts), by="referee", text=text), *facts]


def _facts(events: list[ev.Event], ruleset=BN, role: str = REFEREE):
    return collect(events, HEADER, ruleset, role, steps=len(events))


def test_a_command_taking_out_two_pieces_of_a_side_counts_both():
    events = [
        *_setup("blue", "red"),
        *_command(2, "fire", ev.UnitOut(unit="blue1", cause="shot"), ev.UnitOut(unit="blue2", cause="shot")),
        *_command(3, "heal", ev.UnitBack(unit="blue1"), ev.UnitBack(unit="blue2")),
    ]
    f = _facts(events)
    assert f.moments == [
        Moment(1, "fire", {"blue": 2, "red": 0}, "red", 2, ("Blue1 out of action: shot", "Blue2 out of action: shot")),
        Moment(1, "heal", {"blue": -2, "red": 0}, "blue", 2, ("Blue1 back in action", "Blue2 back in action")),
    ]
    assert f.losses_by_turn == {"blue": [0, 0], "red": [0, 0]}
    assert f.domain == BN.domain == "breaking_news"


def test_a_command_costing_both_sides_alike_is_no_decisive_moment():
    events = [
        *_setup("blue", "red"),
        *_command(2, "melee", ev.UnitOut(unit="blue1", cause="hit"), ev.UnitOut(unit="red1", cause="hit")),
        *_command(3, "fire", ev.UnitOut(unit="red2", cause="shot")),
    ]
    f = _facts(events)
    assert [m.command for m in f.moments] == ["fire"]
    assert f.score_by_turn == {"blue": [0, 1], "red": [0, 2]}


def test_a_one_sided_games_moments_swing_by_what_its_side_lost():
    events = [
        *_setup("solo"),
        *_command(2, "ambush", ev.UnitOut(unit="solo1", cause="hit"), ev.UnitOut(unit="solo2", cause="hit")),
        *_command(3, "rally", ev.UnitBack(unit="solo1")),
        *_command(4, "wait"),
    ]
    f = _facts(events)
    assert [(m.command, m.change, m.favours, m.swing) for m in f.moments] == [
        ("ambush", {"solo": 2}, "solo", 2),
        ("rally", {"solo": -1}, "solo", 1),
    ]


def test_a_turn_the_reader_saw_nothing_of_is_in_the_report_empty():
    events = [
        *_setup("blue", "red"),
        ev.PhaseBegan(turn=2, phase="play", vis=("red",)),
        *_command(2, "move", ev.Moved(unit="red1", cm=5, vis=("red",))),
        ev.PhaseBegan(turn=3, phase="play"),
        *_command(3, "note x", ev.Noted(text="x")),
    ]
    f = _facts(events, role="blue")
    assert [t.turn for t in f.turns] == [0, 1, 2, 3]
    assert f.turns[2] == TurnFacts(2)
    assert f.turns[3].notes == ["x"]
    assert f.score_by_turn == {"blue": [0, 0, 0, 0], "red": [0, 0, 0, 0]}


class _Profiled(type(BN)):
    """A ruleset whose class names come from the game (a scenario's profiles, read later)."""

    def piece_class(self, state, cls):
        return state.vars.get(f"profile.{cls}", f"unknown {cls}")


def test_a_pieces_class_is_named_as_the_game_knows_it_by_its_end():
    events = [
        *_setup("blue", "red"),
        *_command(2, "hide", _unit("scout", "blue", cls="S1")),
        *_command(3, "profiles", ev.VarSet(key="profile.S1", value="Scout")),
    ]
    f = _facts(events, ruleset=_Profiled())
    assert {u.id: u.cls for u in f.units}["scout"] == "Scout"
    assert {u.id: u.cls for u in f.units}["blue1"] == ""  # no class: nothing to name


def test_causes_points_and_results_are_in_the_rulesets_words():
    events = [
        *_setup("blue", "red"),
        *_command(2, "fire", ev.UnitOut(unit="blue1", cause=M("killed"))),
        *_command(3, "end", ev.GameEnded(result=M("killed"))),
    ]
    with reading("it"):
        f = _facts(events)
    assert f.units[0].out == "ucciso" and f.turns[1].losses[0].cause == "ucciso"
    assert f.result == "ucciso"


def test_a_piece_seen_acting_but_never_set_up_is_an_unseen_piece_and_nothing_more():
    """A side's copy holds what its side came to see: a piece spotted, never its set-up."""

    def lenient(state, events):  # a copy's fold: a fact about a piece it lacks changes nothing
        try:
            return apply_in_place(state, events)
        except KeyError:
            return state

    events = [
        *_setup("blue", "red"),
        *_command(2, "spot", ev.Spotted(unit="ghost", by_side="blue")),
        *_command(3, "fire", ev.UnitOut(unit="ghost", cause="shot")),
    ]
    f = collect(events, HEADER, BN, "blue", steps=len(events), apply=lenient)
    assert f.units[-1] == UnitFacts("ghost", "an unseen piece", "", "", "", "shot", 1)
    assert f.turns[1].spotted == [("an unseen piece", "blue")]


def test_the_games_names_rolls_and_reveals_as_the_reader_saw_them():
    events = [
        ev.Issued(cmd=1, n=0, by="referee", text="scenario"),
        ev.GameSetUp(scenario="Test", sides=(ev.SideSpec("blue", "Blue", "regular"), ev.SideSpec("red", "Red"))),
        ev.SecretSet(key="marker.blue.1", owner="blue", value="fake", vis=("blue",)),
        ev.PhaseBegan(turn=1, phase="play"),
        *_command(2, "roll 2d6", ev.Rolled(roll=ev.Roll(purpose="free roll", faces=(3, 6)))),
        *_command(3, "reveal", ev.Revealed(key="marker.blue.1", value="fake")),
        *_command(4, "end", ev.GameEnded(result=M("{side} hold the village", side="red"))),
    ]
    f = _facts(events)
    assert (f.ruleset, f.ruleset_version) == (BN.name, "1.5.1")
    assert [(s.id, s.name, s.army) for s in f.sides] == [("blue", "Blue", "regular"), ("red", "Red", "")]
    assert [(r.side, r.unit) for r in f.turns[1].rolls] == [("", "")]  # the referee's roll, for no piece
    assert f.turns[1].revealed == [("marker.blue.1", "fake", "Blue's marker 1 is a fake (§4.1)")]
    assert f.result == "Red hold the village"  # a side an event names by id reads as its name


def test_defeat_points_make_the_score_and_a_moment_in_words():
    events = [
        *_setup("blue", "red"),
        *_command(
            2, "fire", ev.UnitOut(unit="red1", cause="shot"), ev.DefeatPoints(side="red", points=5, reason="a man lost")
        ),
    ]
    f = _facts(events)
    assert f.score_name == "defeat points" and f.score_by_turn == {"blue": [0, 0], "red": [0, 5]}
    assert [(p.side, p.points, p.reason) for p in f.turns[1].points] == [("red", 5, "a man lost")]
    assert f.moments == [
        Moment(
            1,
            "fire",
            {"blue": 0, "red": 5},
            "blue",
            5,
            ("Red1 out of action: shot", "Red: +5 defeat points, a man lost"),
        )
    ]


def test_a_piece_the_reader_sees_only_move_is_among_the_reports_pieces():
    hidden = ev.UnitAdded(unit=ev.UnitSpec(id="scout", name="Scout", side="red"), vis=("red",))
    events = [
        *_setup("blue", "red"),
        *_command(2, "hide", hidden),
        *_command(3, "move", ev.Moved(unit="scout", cm=5)),
    ]
    assert "scout" not in [u.id for u in _facts(events[:-2], role="blue").units]
    assert [(u.id, u.name) for u in _facts(events, role="blue").units][-1] == ("scout", "Scout")


def test_a_roll_for_no_piece_and_no_side_favours_the_side_that_gave_the_command():
    events = [
        *_setup("blue", "red"),
        ev.Issued(cmd=2, n=1, by="blue", text="roll 2d6"),
        ev.Rolled(roll=ev.Roll(purpose="free roll", faces=(3, 6))),
        *_command(3, "roll 2d6", ev.Rolled(roll=ev.Roll(purpose="free roll", faces=(1, 2)))),
    ]
    f = _facts(events)
    assert [(r.side, r.roll.faces) for r in f.turns[1].rolls] == [("blue", (3, 6)), ("", (1, 2))]


def test_a_roll_a_seat_gave_for_no_piece_favours_the_side_it_sits_for():
    # A seat of fireteam serve types as itself ("anna") for its side: the command records
    # both, and the roll is its side's, not nobody's (as when only the seat's name was read).
    events = [
        *_setup("blue", "red"),
        ev.Issued(cmd=2, n=1, by="anna", role="blue", text="roll 2d6"),
        ev.Rolled(roll=ev.Roll(purpose="free roll", faces=(3, 6))),
    ]
    assert [(r.side, r.roll.faces) for r in _facts(events).turns[1].rolls] == [("blue", (3, 6))]


def test_the_rules_are_named_by_the_version_the_save_records():
    older = Header(fireteam=3, ruleset="breaking-news", ruleset_version="1.4", engine="0", created="then", seed=1)
    f = collect(_setup("blue", "red"), older, BN, REFEREE, steps=4)
    assert (f.rules, f.ruleset_version) == ("Breaking News 1.4", "1.4")
    assert _facts(_setup("blue", "red")).rules == "Breaking News 1.5.1"


def test_the_optional_rules_in_force_are_named_in_words_and_none_where_a_ruleset_has_none():
    switched_on = [*_setup("blue", "red"), *_command(2, "option wounded on", ev.VarSet(key="option.wounded", value=1))]
    assert _facts(switched_on).options == ["§9.3 wounded men, medics and stabilisation"]  # the words, not "§9.3"
    assert _facts(_setup("blue", "red")).options == []  # optional rules, none of them in force
    assert _facts(switched_on, ruleset=get_ruleset("ludonet")).options is None  # a ruleset without optional rules
