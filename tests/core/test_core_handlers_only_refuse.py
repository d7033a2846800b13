"""A bug never passes for a refusal (issue 33).

A ruleset's handler refuses a command by raising ``Refused`` with the reason;
anything else it raises is a bug, which ``Game`` logs with its traceback and
raises as ``CommandFailed`` (the save untouched), never as a refusal in the
player's words.  So here every command of every ruleset is driven with fuzzed
arguments of the kinds it declares (units of any side, numbers and distances
within their bounds and at their edges, its choices, teams, dice faces), by
every role, through the phases of a game: each is carried out or refused, and
nothing else.  A ``CommandFailed`` fails the test with the handler's own
exception as its cause.
"""

from __future__ import annotations

import functools
import logging
import random
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import names, refused
from registry_walk import RULESETS, set_up

from core.commands import teams
from core.dice.faces import NeedDice
from core.game import Game
from core.log import events as ev
from core.log.questions import NeedAnswer
from core.log.views import REFEREE
from core.refusal import LOG, CommandFailed
from core.ruleset import CommandSpec, Param, Refused


def _units(game: Game, side: str, kind: str) -> tuple[str, ...]:
    """The units a ``kind`` parameter of a command for ``side`` most likely names."""
    units = game.state.units.values()
    if kind in ("own", "unit"):  # a command's first unit is mostly the acting side's
        pool = [u.id for u in units if u.side == side]
    elif kind == "enemy":
        pool = [u.id for u in units if u.side != side]
    else:
        pool = [u.id for u in units]
    return tuple(sorted(pool) or sorted(game.state.units) or ["nobody"])


def _value(param: Param, game: Game, side: str) -> st.SearchStrategy[str]:
    """One value of ``param``'s kind: mostly one the command could take, sometimes not."""
    state = game.state
    kind = param.kind
    if kind in ("unit", "own", "enemy"):
        names = _units(game, side, kind)
    elif kind == "side":
        names = tuple(sorted(state.sides) or ["nobody"])
    elif kind == "team":
        names = tuple(teams(state, REFEREE) or ["nobody"])
    else:
        names = ()
    return _strategy(param, names)


@functools.lru_cache(maxsize=4096)
def _strategy(param: Param, names: tuple[str, ...]) -> st.SearchStrategy[str]:
    """``_value``'s strategy, from what the game offers ``param`` (``names``): built once per
    parameter and offer, not at every draw (a fresh strategy is validated and its properties
    worked out again, which cost a walk as much as the commands it drives)."""
    kind = param.kind
    if kind in ("unit", "own", "enemy", "side", "team"):
        one = st.sampled_from(names)
    elif kind == "int":
        edges = sorted({param.lo, param.hi, max(param.lo, min(param.hi, 0)), max(param.lo, min(param.hi, 1))})
        one = st.one_of(st.sampled_from(edges), st.integers(param.lo, param.hi)).map(str)
    elif kind == "distance":
        near = st.integers(param.lo, min(param.hi, param.lo + 40)).map(str)  # a move's, a fire's
        whole = st.one_of(near, st.integers(param.lo, param.hi).map(str))
        cents = st.integers(param.lo * 100, param.hi * 100).map(lambda c: f"{c // 100}.{c % 100:02d}")
        one = st.one_of(st.sampled_from([str(param.lo), str(param.hi)]), whole, cents)
    elif kind == "choice" and param.choices:
        one = st.sampled_from(tuple(param.choices))
    else:  # text, or a choice of any word
        one = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=1, max_size=12)
    if param.many:
        return st.lists(one, min_size=1, max_size=3, unique=True).map(",".join)
    return one


@st.composite
def command_line(draw: st.DrawFn, spec: CommandSpec, game: Game, side: str) -> str:
    """``spec`` for ``side`` with its required arguments and some optional ones, each by name."""
    words = [spec.name]
    for param in spec.params:
        if param.optional and draw(st.integers(0, 2)) != 0:
            continue
        if param.kind in ("unit", "own", "enemy") and draw(st.integers(0, 4)) == 0:  # any unit, of any side
            value = ",".join(
                draw(st.lists(st.sampled_from(tuple(sorted(game.state.units) or ["nobody"])), min_size=1, max_size=3))
            )
        else:
            value = draw(_value(param, game, side))
        words.append(f'{param.name}="{value}"' if " " in value else f"{param.name}={value}")
    if spec.rolls and draw(st.integers(0, 4)) == 0:  # faces typed on the line, right or wrong
        words.append("dice=" + ",".join(map(str, draw(st.lists(st.integers(0, 12), min_size=1, max_size=8)))))
    return " ".join(words)


def _now(game: Game) -> list[CommandSpec]:
    """The commands the phase allows, but the ends of the game (tried now and then)."""
    return [
        s
        for s in game.commands
        if (not s.phases or game.state.phase in s.phases) and s.name not in ENDS and s.name != "scenario"
    ]


#: Commands that end the game, or start it again: drawn seldom, so a game goes on long enough to reach its phases.
ENDS = frozenset({"victory", "result", "end-game", "scenario"})


@st.composite
def move(draw: st.DrawFn, game: Game) -> tuple[str, str]:
    """A command line and the role that gives it."""
    if draw(st.integers(0, 7), label="next?") == 0:  # on through the phases
        return "next", REFEREE
    sides = sorted(game.state.sides)
    active = [s for s in (game.state.active_side, game.state.reacting_side) if s in game.state.sides]
    # Tuples, not lists: hypothesis reuses the strategy of a hashable argument it has built before.
    side = draw(st.sampled_from(tuple(active + sides or [REFEREE])), label="side")
    now = _now(game)
    if not now or draw(st.integers(0, 30), label="any command?") == 0:
        now = game.commands
    rolling = [s for s in now if s.rolls]  # the rules' heart: fire, melee, morale, their tables
    if rolling and draw(st.booleans(), label="a rolling one?"):
        now = rolling
    spec = draw(st.sampled_from(tuple(now)), label="command")
    if spec.who == REFEREE and draw(st.integers(0, 9), label="as a side?") != 0:
        role = REFEREE
    else:
        role = draw(st.sampled_from((REFEREE, side)), label="role")
    return draw(command_line(spec, game, side), label="line"), role


def _carried_out_or_refused(game: Game, line: str, role: str) -> None:
    before = game.path.read_bytes()
    try:
        game.odds(line, role=role)
    except CommandFailed as failed:
        raise AssertionError(f"odds of {line!r} as {role} failed on a bug") from failed.__cause__
    try:
        game.execute(line, role=role)
    except (Refused, NeedDice, NeedAnswer):  # refused, or waiting for the table's dice or answer
        assert game.path.read_bytes() == before, f"{line!r} as {role} was refused but wrote to the save"
    except CommandFailed as failed:
        assert game.path.read_bytes() == before, f"{line!r} as {role} failed and wrote to the save"
        raise AssertionError(f"{line!r} as {role} failed on a bug") from failed.__cause__


def _new(path: Path, ruleset: str, seed: int) -> Game:
    """A game whose dice all come from ``seed``: its seeded dice, and the sealed ones that
    follow a drawn ``dice-key`` (their key, its salt, the contributions), so that the same
    draws play the same game (as hypothesis needs, to shrink one)."""
    game = Game.new(path, ruleset, seed=seed)
    sealing = random.Random(seed)
    game.sealing.new_key = lambda: sealing.randbytes(32).hex()
    game.sealing.contribute = lambda: sealing.randbytes(16)
    # The key's commitment (its salt too) is an input of every sealed roll (core.dice.faces.derive_bound).
    game.salt = lambda: sealing.randbytes(16).hex()
    return game


def _on(game: Game, phases: int) -> None:
    """The game moved on ``phases`` times by the referee first (the set-up phases
    refuse most commands, and a random walk can hold a game in them)."""
    for _ in range(phases):
        try:
            game.execute("next", role=REFEREE)
        except Refused:
            return


@pytest.mark.long
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_command_with_fuzzed_arguments_is_carried_out_or_refused(tmp_path, ruleset):
    quiet = logging.NullHandler()  # the failures are the assertion's; keep lastResort off the output
    LOG.addHandler(quiet)

    @settings(max_examples=examples(60), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def play(data: st.DataObject) -> None:
        path = Path(tempfile.mkdtemp(dir=tmp_path)) / "g.ft"
        with closing(_new(path, ruleset, data.draw(st.integers(0, 2**16), label="seed"))) as game:
            set_up(game)
            _on(game, data.draw(st.integers(0, 4), label="phases first"))
            for _step in range(data.draw(st.integers(10, 60), label="steps")):
                line, role = data.draw(move(game), label="move")
                _carried_out_or_refused(game, line, role)
        Game.open(path, writable=False)  # and what was written loads

    try:
        play()
    finally:
        LOG.removeHandler(quiet)


#: The phases a sweep walks through with ``next``: a turn or two of every ruleset.
SWEPT_PHASES = 12
#: Tried by the random walk but not swept: they end the game, set it up again or move it on.
NOT_SWEPT = ENDS | {"next", "undo", "redo"}


@pytest.mark.long
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_command_is_driven_in_every_phase_it_is_allowed_in(tmp_path, ruleset):
    """The random walk may miss a command; this gives every command allowed in a phase a
    fuzzed line in that phase, as the referee or a side, phase after phase."""
    quiet = logging.NullHandler()
    LOG.addHandler(quiet)
    tried: set[str] = set()

    @settings(max_examples=3, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def sweep(data: st.DataObject) -> None:
        path = Path(tempfile.mkdtemp(dir=tmp_path)) / "g.ft"
        with closing(_new(path, ruleset, data.draw(st.integers(0, 2**16), label="seed"))) as game:
            set_up(game)
            for _phase in range(SWEPT_PHASES):
                now = [s for s in game.commands if (not s.phases or game.state.phase in s.phases)]
                for spec in now:
                    if spec.name in NOT_SWEPT:
                        continue
                    sides = sorted(game.state.sides) or [REFEREE]
                    side = data.draw(st.sampled_from(sides), label="side")
                    role = REFEREE if spec.who == REFEREE else data.draw(st.sampled_from([REFEREE, side]), label="role")
                    _carried_out_or_refused(game, data.draw(command_line(spec, game, side), label="line"), role)
                    tried.add(spec.name)
                try:
                    game.execute("next", role=REFEREE)
                except (Refused, NeedDice):
                    break

    try:
        sweep()
    finally:
        LOG.removeHandler(quiet)
    every = {s.name for s in Game.new(tmp_path / "all.ft", ruleset, seed=1).commands} - NOT_SWEPT
    assert len(tried) >= 0.9 * len(every), sorted(every - tried)  # the few left are in phases the sweep may not reach


# ------------------------------------------------------------------ what Game does with a bug


def _demo(path: Path) -> Game:
    game = Game.new(path, "ludonet", seed=3)
    game.execute("scenario demo", role=REFEREE)
    return game


def _with(game: Game, name: str, handler) -> None:
    game.commands.append(CommandSpec(name, "test", handler, who="referee"))


@pytest.mark.parametrize("bug", [KeyError("aden"), ValueError("bad"), TypeError("x"), ZeroDivisionError()])
def test_a_handler_s_bug_is_logged_with_its_traceback_and_never_a_refusal(tmp_path, caplog, bug):
    """Before issue 33, a KeyError or ValueError reached the player as a refusal ("aden")
    with its traceback dropped, and any other exception escaped the game."""
    game = _demo(tmp_path / "g.ft")

    def broken(ctx, args):
        ctx.emit(ev.Noted(text="half done"))
        raise bug

    _with(game, "broken", broken)
    before = game.path.read_bytes()
    with caplog.at_level(logging.ERROR, logger=LOG.name), pytest.raises(CommandFailed) as failed:
        game.execute("broken", role=REFEREE)
    assert not isinstance(failed.value, Refused)
    assert str(failed.value) == "the command failed on an error of the program; nothing was recorded"
    assert failed.value.__cause__ is bug
    assert game.path.read_bytes() == before and game.history.next_cmd == 2
    (record,) = [r for r in caplog.records if r.name == LOG.name]
    assert record.exc_info is not None and record.exc_info[1] is bug
    assert "'broken'" in record.getMessage() and "referee" in record.getMessage()
    game.execute("note the game goes on", role=REFEREE)
    assert game.history.next_cmd == 3


def test_a_handler_s_refusal_is_a_refusal_and_logs_nothing(tmp_path, caplog):
    game = _demo(tmp_path / "g.ft")

    def refusing(ctx, args):
        raise Refused("not now", rule="ENG-2")

    _with(game, "refusing", refusing)
    with caplog.at_level(logging.DEBUG, logger=LOG.name), pytest.raises(Refused, match="^not now$") as no:
        game.execute("refusing", role=REFEREE)
    names(no.value, "ENG-2")  # its rule comes through whole
    assert not [r for r in caplog.records if r.name == LOG.name]


def test_odds_of_a_command_that_fails_on_a_bug_say_so(tmp_path, caplog):
    """The dry run before a roll: a bug is not "nothing to roll"."""
    game = _demo(tmp_path / "g.ft")

    def broken(ctx, args):
        raise KeyError("aden")

    _with(game, "broken", broken)
    with caplog.at_level(logging.ERROR, logger=LOG.name), pytest.raises(CommandFailed):
        game.odds("broken", role="referee")
    (record,) = [r for r in caplog.records if r.name == LOG.name]
    assert isinstance(record.exc_info[1], KeyError)


def _broken_at(monkeypatch, line: str) -> None:
    """``line`` fails on a bug of the program (a KeyError) wherever it is given."""
    resolve = Game._resolve

    def broken(self, parsed, *args, **kwargs):  # (whatever else the game passes on, as it is)
        if parsed.text == line:
            raise KeyError("aden")
        return resolve(self, parsed, *args, **kwargs)

    monkeypatch.setattr(Game, "_resolve", broken)


def test_a_die_face_the_die_cannot_show_is_refused(tmp_path):
    game = _demo(tmp_path / "g.ft")
    before = game.path.read_bytes()
    refused(game, "roll 2d6 dice=3,7", "a d6 cannot show 7", rule="ENG-5")
    assert game.path.read_bytes() == before


def test_a_script_stops_on_a_bug_in_one_line_its_traceback_in_the_error_log_and_status_3(tmp_path, capsys, monkeypatch):
    """``fireteam script``: a bug is not the script's mistake (status 1).  Its stderr says it in
    one line and where the details are; the traceback goes to the user's ``errors.log``, not
    to a terminal a screen reader speaks whole (issue 59)."""
    import stat

    from core import folders
    from core.cli.main import run_script

    script = tmp_path / "s.txt"
    script.write_text("scenario demo\nnote fine\nnote broken\nnote never\n", encoding="utf-8")
    _broken_at(monkeypatch, "note broken")
    save = tmp_path / "s.ft"
    errors = folders.folder("state") / "errors.log"
    assert not errors.exists()
    handlers = list(LOG.handlers)
    assert run_script(script, save, 1, "ludonet", "") == 3
    assert capsys.readouterr().err == (
        f"{script}:3: error: the command failed on an error of the program; nothing was recorded\n"
        f"the details are in {errors}\n"
    )
    logged = errors.read_text(encoding="utf-8")
    assert "command failed, nothing recorded: 'note broken' as referee\nTraceback" in logged
    assert "KeyError: 'aden'" in logged
    assert stat.S_IMODE(errors.stat().st_mode) == 0o600
    assert LOG.handlers == handlers  # its handler went with it
    assert Game.open(save, writable=False).history.next_cmd == 3  # the two commands before it


def test_a_script_whose_error_log_cannot_be_written_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    """A full disk or a state folder that cannot be made: the logging module's own report of
    that (seventy lines, the traceback among them) is not written either, and stderr does not
    say the details are where they are not."""
    from core.cli.main import run_script

    script = tmp_path / "s.txt"
    script.write_text("scenario demo\nnote broken\n", encoding="utf-8")
    _broken_at(monkeypatch, "note broken")
    (tmp_path / "home").write_text("a file where a folder should be\n", encoding="utf-8")
    monkeypatch.setenv("FIRETEAM_STATE_DIR", str(tmp_path / "home" / "state"))
    assert run_script(script, tmp_path / "s.ft", 1, "ludonet", "") == 3
    errors = tmp_path / "home" / "state" / "errors.log"
    assert capsys.readouterr().err == (
        f"{script}:2: error: the command failed on an error of the program; nothing was recorded\n"
        f"the details could not be written to {errors}: Not a directory\n"
    )
