"""No number, line or character a player writes can poison a game (issue 13).

Through the API (``Game.execute``) and ``fireteam script``: every command of every
ruleset with absurd numbers, control characters, markup and random lines is
either carried out or refused in words; a refusal never changes the save, and
the game goes on.
"""

from __future__ import annotations

import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import hostile
import pytest
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import names
from registry_walk import RULESETS, set_up

from core.cli.main import run_script, script_lines
from core.commands import MAX_LINE
from core.dice.faces import NeedDice
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE, roles
from core.refusal import TYPING
from core.registry import BUILTIN
from core.ruleset import CommandSpec, Refused
from tui.main import main as fireteam

FIRETEAM = Path(sys.executable).with_name("fireteam")


def in_play(path: Path, ruleset: str) -> Game:
    """A new game of ``ruleset``, set up with a scenario it lists (``registry_walk.set_up``)."""
    return set_up(Game.new(path, ruleset, seed=3))


def refused(game: Game, line: str, role: str = "referee", *, rule: str) -> str:
    """The refusal of ``line``, naming ``rule``; the save must be byte for byte as it was."""
    before = game.path.read_bytes()
    with pytest.raises(Refused) as refusal:
        game.execute(line, role=role)
    names(refusal.value, rule)
    assert game.path.read_bytes() == before, f"{line!r} wrote to the save"
    return str(refusal.value)


def test_the_four_rulesets_are_here():
    assert set(BUILTIN) <= set(RULESETS)


def test_a_huge_number_of_defeat_points_is_refused_and_the_game_goes_on(tmp_path):
    game = in_play(tmp_path / "g.ft", "breaking-news")
    why = refused(game, "dp regulars 18446744073709551616", rule=TYPING)
    assert why == "points must be a whole number from -999 to 999, not '18446744073709551616'"
    game.execute("dp regulars 5 shelling", role=REFEREE)
    game.execute("note the game goes on", role=REFEREE)
    game.close()
    again = Game.open(game.path, writable=False)
    assert again.state.sides["regulars"].defeat_points == 5


def test_a_huge_count_is_refused_at_once_and_allocates_nothing(tmp_path):
    game = in_play(tmp_path / "g.ft", "breaking-news")
    tracemalloc.start()
    try:
        for count in ("1000000", "10000000000000000000000", "51", "0", "-1"):
            why = refused(game, f"score building regulars count={count}", rule=TYPING)
            assert why == f"count must be a whole number from 1 to 50, not '{count}'"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # bytes: the refusal reads a word, nothing more


def _checked_some(ruleset: str, checked: int, kind: str, built_in: int) -> None:
    """The check above had teeth: a built-in's commands take at least ``built_in`` such
    parameters (as many as they took when it was written), and any other ruleset's that
    declares none is skipped, saying so (the contract asks none of it)."""
    if ruleset in BUILTIN:
        assert checked >= built_in, (ruleset, kind, checked)
    elif not checked:
        pytest.skip(f"{ruleset} declares no parameter of the kind {kind!r}: there is none to bound")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_number_a_command_takes_is_bounded_and_named(tmp_path, ruleset):
    """Every ``int`` parameter of every command, the shared tools' and the ruleset's own
    (and any added later: an undeclared one gets the default bounds)."""
    game = in_play(tmp_path / "g.ft", ruleset)
    checked = 0
    for spec in game.commands:
        for p in spec.params:
            if p.kind != "int":
                continue
            assert -1_000_000 <= p.lo <= p.hi <= 1_000_000, (spec.name, p.name)
            for word in (str(p.lo - 1), str(p.hi + 1), "18446744073709551616", "-9223372036854775809", "9" * 1900):
                why = refused(game, f"{spec.name} {p.name}={word}", rule=TYPING)
                assert f"{p.name} must be a whole number from {p.lo} to {p.hi}, not " in why, why
                assert len(why) < 200
            for word in ("1_0", "\u0663", "1e3", "0x10", "three", "+-1"):  # int() would take the first two
                assert f"{p.name} must be a whole number from" in refused(
                    game, f"{spec.name} {p.name}={word}", rule=TYPING
                )
            checked += 1
    _checked_some(ruleset, checked, "int", 10 if ruleset == "breaking-news" else 2)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_distance_a_command_takes_is_bounded_and_refused_in_words(tmp_path, ruleset):
    """Every ``distance`` parameter (issue 10): past its bounds, or anything but a
    tape's reading (exponents, nan, a comma, a sign, other digits), is refused
    naming the bounds and what is accepted; never a float, never a crash."""
    game = in_play(tmp_path / "g.ft", ruleset)
    checked = 0
    for spec in game.commands:
        for p in spec.params:
            if p.kind != "distance":
                continue
            assert p.hi <= 1_000, (spec.name, p.name)
            over = f"{p.hi}.01"
            for word in (over, f"{p.hi + 1}in", "1e9", "nan", "inf", "-3", "25,5", "1.234", "\u0663", "9" * 1900):
                why = refused(game, f"{spec.name} {p.name}={word}", rule=TYPING)
                assert why.startswith(f"{p.name} must be a distance from {p.lo} to {p.hi} {p.measure}: "), why
                assert "25.5" in why and len(why) < 250
            checked += 1
    _checked_some(ruleset, checked, "distance", 5 if ruleset == "breaking-news" else 2)


def test_a_free_roll_takes_a_bounded_number_of_dice(tmp_path):
    game = in_play(tmp_path / "g.ft", "ludonet")
    for spec in ("51d6", "1d101", "99999999999999999999d6", "2d" + "9" * 1900, "\u0662d6", "2d6x"):
        why = refused(game, f"roll {spec}", rule=TYPING)
        assert why in ("between 1 and 50 dice of 2 to 100 sides", "write dice as NdS, e.g. 2d6"), why
    assert refused(game, "roll 2d6 target=101", rule=TYPING) == "target must be a whole number from 1 to 100, not '101'"
    game.execute("roll 50d100 target=100", role=REFEREE)


@pytest.mark.parametrize("char", hostile.CONTROL)
def test_a_control_character_in_a_command_is_refused_by_name(tmp_path, char):
    game = in_play(tmp_path / "g.ft", "breaking-news")
    why = refused(game, f"note before{char}after", rule=TYPING)
    assert why.startswith("a command cannot hold the control character ")
    assert char not in why and all(c.isprintable() for c in why)


def test_a_tab_is_a_space_and_markup_is_just_text(tmp_path):
    game = in_play(tmp_path / "g.ft", "breaking-news")
    game.execute("mark\tahmed\tsuppressed", role=REFEREE)
    assert "suppressed" in game.state.units["ahmed"].status
    game.execute('note "[b]bold[/b] [@click=app.quit]"', role=REFEREE)
    assert game.log_lines(role="referee")[-1].text.endswith("[b]bold[/b] [@click=app.quit]")


def test_a_line_too_long_is_refused_before_it_is_read(tmp_path):
    game = in_play(tmp_path / "g.ft", "breaking-news")
    assert (
        refused(game, "note " + "x" * MAX_LINE, rule=TYPING)
        == f"a command is at most 2,000 characters; this one has {MAX_LINE + 5:,}"
    )
    started = time.process_time()
    refused(game, "mark " + "a" * 10_000_000, rule=TYPING)
    assert game.complete("mark " + "a" * 10_000_000, role="referee") == []
    assert time.process_time() - started < 5  # seconds of CPU, however loaded the machine: it is not read


def test_a_number_a_rule_computes_out_of_range_is_refused(tmp_path):
    """Past the parameters' bounds, the game refuses any fact the state could not hold."""
    game = in_play(tmp_path / "g.ft", "breaking-news")
    game.commands.append(
        CommandSpec(
            "inflate", "test", lambda ctx, args: ctx.emit(ev.DefeatPoints(side="regulars", points=2**64, reason="x"))
        )
    )
    assert refused(game, "inflate", rule=TYPING) == "a number in this command is out of range; nothing was recorded"
    game.execute("next", role=REFEREE)


def _run_all(game: Game, lines: list[str]) -> tuple[int, int]:
    """Each line as every role; returns (done, refused)."""
    done = refusals = 0
    for line in lines:
        for role in roles(game.state):
            before = game.path.read_bytes()
            try:
                game.execute(line, role=role)
                done += 1
            except (Refused, NeedDice):
                assert game.path.read_bytes() == before, f"{line!r} by {role} wrote to the save"
                refusals += 1
    return done, refusals


@pytest.mark.long
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_command_with_an_argument_missing_or_poisoned(tmp_path, ruleset):
    game = in_play(tmp_path / "g.ft", ruleset)
    lines = hostile.missing_lines(game) + hostile.poisoned_lines(game, hostile.MARKUP[:3] + hostile.CONTROL[:3])
    lines += hostile.poisoned_lines(game, hostile.NUMBERS[:3])
    done, refusals = _run_all(game, lines)
    assert refusals > done
    game.close()
    Game.open(game.path, writable=False)  # and the save still loads


@pytest.mark.long
@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_lines_never_raise_and_a_refusal_never_writes(tmp_path_factory, ruleset):
    game = in_play(tmp_path_factory.mktemp(ruleset) / "g.ft", ruleset)

    @settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(line=hostile.command_lines(game), role=st.sampled_from(roles(game.state)))
    def check(line: str, role: str) -> None:
        before = game.path.read_bytes()
        try:
            game.execute(line, role=role)
        except (Refused, NeedDice):
            assert game.path.read_bytes() == before

    check()
    game.close()
    Game.open(game.path, writable=False)


# ------------------------------------------------------------------ scripts


@pytest.mark.subprocess
@pytest.mark.parametrize("seed", ["-1", "9223372036854775808", "9" * 4000])
def test_a_seed_the_save_could_not_hold_is_refused(tmp_path, capsys, seed):
    script = tmp_path / "s.txt"
    script.write_text("scenario demo\n", encoding="utf-8")
    assert fireteam(["script", str(script), "--save", str(tmp_path / "s.ft"), "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "a seed is a whole number from 0 to 9223372036854775807" in err or "invalid int" in err
    assert not (tmp_path / "s.ft").exists()


def test_only_a_line_feed_ends_a_script_line():
    text = "note a\x0cb\nnote c\u2028d\r\nnote e\x1cf\x85g\n\nlast"
    assert script_lines(text) == ["note a\x0cb", "note c\u2028d", "note e\x1cf\x85g", "", "last"]
    assert script_lines("one\n") == ["one"] and script_lines("") == []


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_a_separator_inside_a_script_line_is_refused_on_that_line(tmp_path, capsys, separator):
    script = tmp_path / "s.txt"
    script.write_text(f"scenario demo\nnote one{separator}dp regulars 9\nnote never\n", encoding="utf-8")
    save = tmp_path / "s.ft"
    assert run_script(script, save, 1, "breaking-news", "") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{script}:2: a command cannot hold the control character ")
    game = Game.open(save, writable=False)
    assert game.state.sides["regulars"].defeat_points == 0 and game.history.next_cmd == 2


@pytest.mark.subprocess
def test_a_hostile_script_stops_in_words_through_the_installed_command(tmp_path, capsys):
    """The escape sequence through the installed command; the others through the same
    function in this process (a process of its own costs a second)."""
    for n, bad in enumerate(
        ["note a\x1b[2Jb", "dp regulars 18446744073709551616", "mark " + "9" * 100_000, "roll 9d\u0669"]
    ):
        script, save = tmp_path / f"s{n}.txt", tmp_path / f"s{n}.ft"
        script.write_text(f"scenario demo\nnote fine\n{bad}\nnote never\n", encoding="utf-8")
        if n == 0:
            result = subprocess.run(
                [str(FIRETEAM), "script", str(script), "--save", str(save)], capture_output=True, text=True, timeout=120
            )
            code, err = result.returncode, result.stderr
        else:
            code, err = fireteam(["script", str(script), "--save", str(save)]), capsys.readouterr().err
        assert code == 1, err
        assert "Traceback" not in err and err.startswith(f"{script}:3: ")
        assert "\x1b" not in err and len(err) < 500
        assert Game.open(save, writable=False).history.next_cmd == 3  # the two commands before it, and no more
        if n == 0:
            replay = subprocess.run([str(FIRETEAM), "replay", str(save)], capture_output=True, text=True, timeout=120)
            code, err = replay.returncode, replay.stderr
        else:
            code, err = fireteam(["replay", str(save)]), capsys.readouterr().err
        assert code == 0, err
