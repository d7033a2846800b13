"""The headless commands of ``fireteam``: script, replay, log, salvage, fork, export, verify, certify,
league, bench (``event``'s are ``core.event.cli``'s, run by ``tui.main`` without this module's game engine).

The interactive client and the SSH server live in ``tui``; ``tui.main``
dispatches here for everything that needs no terminal UI.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from pathlib import Path
from typing import Any, TextIO

import msgspec

from core import errorlog, folders
from core.cli.output import UNWRITTEN, written
from core.cli.parsers import DEFAULT_RULESET
from core.game import Game, LogLine
from core.game.builtins import copy_role_error, reading_role
from core.language.i18n import Domain, _, ngettext, scenario_words
from core.log import events as ev
from core.log.outcome import AnswerNeeded, DiceNeeded, Failure, Outcome, Refusal, Result
from core.log.replay import shown_step, step_of_shown, visible_steps
from core.log.state import GameState
from core.log.views import REFEREE, roles
from core.storage.errors import NoGameYet, SaveError

#: A comment starts at a "#" at the start of a line or after a space.
_COMMENT = re.compile(r"(^|\s)#.*$")


def state_json(state: GameState, step: int, total: int) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "phase": state.phase,
        "active_side": state.active_side,
        "reacting_side": state.reacting_side,
        "card": state.card,
        "scenario": state.scenario,
        "result": msgspec.to_builtins(state.result),  # a message as data: the same in every language
        # The result as data (ruling CORE-RESULT-DATA): none while the game goes on.
        "winner": state.winner,
        "draw": state.draw,
        "scores": dict(state.scores),
        "event_count": step,
        "total_events": total,
        "sides": [
            {
                "id": side.id,
                "name": side.name,
                "defeat_points": side.defeat_points,
                "units": [msgspec.to_builtins(u) for u in state.units.values() if u.side == side.id],
            }
            for side in state.sides.values()
        ],
        "secrets": {k: msgspec.to_builtins(v) for k, v in state.secrets.items()},
        "markers": list(state.markers),
    }


def _role_error(game: Game, role: str) -> str | None:
    if game.copy_role:
        return copy_role_error(game, role)
    valid = roles(game.state)
    if role not in valid:
        return _("{path}: no role {role} in this game (choose from {roles})").format(
            path=game.path, role=repr(role), roles=", ".join(valid)
        )
    return None


# ---------------------------------------------------------------------- script


def script_lines(text: str) -> list[str]:
    """The lines of a script: only a line feed ends one (a CR before it goes with it).

    ``str.splitlines`` would also break at a form feed, U+2028 and other
    separators, making two commands of one line; here such a character stays in
    its line, where the command refuses it by name.
    """
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def run_script(
    path: Path, save: Path, seed: int | None, ruleset: str | None, variant: str, out: TextIO | None = None
) -> int:
    """``fireteam script``: ``ruleset`` None, a new save's is the one its scenario file names
    (``core.cli.scenarios.script_ruleset``), else :data:`DEFAULT_RULESET`."""
    # sys.stdout as it is now, not as it was when this module was imported (a test's capture may have closed since)
    out = out if out is not None else sys.stdout
    try:
        lines = script_lines(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        print(_("{path}: cannot read: {error}").format(path=path, error=e), file=sys.stderr)
        return 2
    created = not save.exists()
    if ruleset is None and created:
        from core.cli.scenarios import script_ruleset  # (the scenario tools: only for a new save)

        ruleset = script_ruleset(lines)
    ruleset = ruleset or DEFAULT_RULESET
    try:
        game = _open_or_start(save, seed, ruleset, variant)
    except (SaveError, ValueError) as e:
        print(str(e), file=sys.stderr)
        return 2
    count = 0
    # A command that fails on an error of the program is logged with its traceback in the user's
    # error log, and stderr says where: a traceback there is fifteen lines a screen reader speaks.
    error_log = folders.folder("state") / errorlog.NAME
    try:
        with errorlog.logging_to(error_log):
            for number, raw in enumerate(lines, start=1):
                text = _COMMENT.sub("", raw).strip()
                if not text:
                    continue
                role = REFEREE
                if text.startswith("@"):
                    role_word, _sep, text = text[1:].partition(" ")
                    role = role_word.strip()
                    if role not in roles(game.state):
                        print(
                            _("{path}:{line}: no role {role}").format(path=path, line=number, role=repr(role)),
                            file=sys.stderr,
                        )
                        return 1
                outcome = game.submit(text, role=role, by=role)
                stopped = _stopped(path, number, outcome, error_log)
                if stopped is not None:
                    return stopped
                assert isinstance(outcome, Outcome)  # (a script's game is no served table: never Held)
                count += 1
                for event, line in zip(outcome.events, outcome.lines, strict=True):
                    if not game.reading.inner(event):  # the code's key = value: fireteam log --all shows it
                        print(line, file=out)
    finally:
        game.close()
        if created and count == 0:
            # Nothing was played: leave no empty save behind (the file is ours, just made).
            # A disk gone away refuses that too: what was said already is all there is to say.
            with contextlib.suppress(OSError):
                save.unlink(missing_ok=True)
    said = ngettext(
        "{count} commands, {events} effective events in {save}",
        "{count} commands, {events} effective events in {save}",
        count,
    )
    print(said.format(count=count, events=game.timeline.length, save=save), file=out)
    return 0


def _stopped(path: Path, number: int, outcome: Result, error_log: Path) -> int | None:
    """Why line ``number`` of a script stops it, said on stderr, and the exit status; None
    when the command was carried out."""
    if isinstance(outcome, DiceNeeded):
        request = outcome.request
        if request.order:
            said = _("{path}:{line}: needs dice: {dice} (give them with dice=...; its dice, in order: {order})")
        else:
            said = _("{path}:{line}: needs dice: {dice} (give them with dice=...)")
        dice, order = request.text(), request.order_text()
        if len(request.order) > 1 and request.current() is not None:
            order += "; " + request.step_text()  # where in the order it stopped
        print(said.format(path=path, line=number, dice=dice, order=order), file=sys.stderr)
        return 1
    if isinstance(outcome, AnswerNeeded):
        said = _("{path}:{line}: needs an answer: {question} (give it with answers=...; one of: {choices})")
        choices = ", ".join(outcome.question.choices)
        print(
            said.format(path=path, line=number, question=outcome.question.text(), choices=choices),
            file=sys.stderr,
        )
        return 1
    if isinstance(outcome, Refusal):
        print(f"{path}:{number}: {outcome.why}", file=sys.stderr)
        return 1
    if isinstance(outcome, Failure):
        print(f"{path}:{number}: " + _("error: {error}").format(error=outcome.message), file=sys.stderr)
        print(errorlog.details_in(error_log), file=sys.stderr)
        return 3
    return None


def _open_or_start(save: Path, seed: int | None, ruleset: str, variant: str) -> Game:
    """The save to append to (its lock taken), or a new game there if it holds none yet."""
    if save.exists():
        try:
            game = Game.open(save)
        except NoGameYet:
            pass  # a crash cut its header short: start it again (the bytes are set aside)
        else:
            if seed is not None:
                game.close()
                raise SaveError(
                    _("{save}: exists; its seed was fixed when it was created (drop --seed)").format(save=save)
                )
            return game
    return Game.new(save, ruleset, variant, seed=seed)


# ---------------------------------------------------------------------- replay


def _open_to_read(path: Path, role: str) -> Game | None:
    """The save (or a side's copy) opened read-only for ``role``, or None after saying why
    on stderr."""
    from core.secrets.sidecopy import open_to_read

    try:
        game = open_to_read(path)
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return None
    if error := _role_error(game, role):
        print(error, file=sys.stderr)
        return None
    return game


def run_replay(args: argparse.Namespace) -> int:
    game = _open_to_read(args.path, args.as_role)
    if game is None:
        return 2
    role = reading_role(game, args.as_role)
    # Steps as this role counts them (core.log.replay.visible_steps): every effective
    # event for the referee, only those it may see for a side, as the client's replay.
    steps = visible_steps(game.history, role, game.timeline.length)
    total = len(steps)
    step = game.timeline.length
    if args.turn is not None:
        found = game.timeline.turn_start(args.turn)
        if found is None:
            print(_("{path}: there is no turn {turn}").format(path=args.path, turn=args.turn), file=sys.stderr)
            return 2
        step = found
    if args.step is not None:
        if not 0 <= args.step <= total:
            print(_("{path}: step must be between 0 and {total}").format(path=args.path, total=total), file=sys.stderr)
            return 2
        step = step_of_shown(steps, args.step)
    state = game.view(role, step)
    shown = shown_step(steps, step)
    data = state_json(state, shown, total)
    if args.json:
        import json  # here: the client imports this module, and needs no json

        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        book = Domain(game.ruleset.domain)
        print(
            _("{scenario} — step {step}/{total}, turn {turn}, {phase}").format(
                scenario=scenario_words(state.scenario) or _("game"),
                step=shown,
                total=total,
                turn=state.turn,
                phase=book.pgettext("phase", state.phase),
            )
        )
        if state.active_side:
            print(_("active: {side}, reacting: {other}").format(side=state.active_side, other=state.reacting_side))
        for side in data["sides"]:
            alive = sum(1 for u in side["units"] if not u.get("out"))
            said = _("{side}: {alive}/{units} in play, {points} DP")
            print(said.format(side=side["name"], alive=alive, units=len(side["units"]), points=side["defeat_points"]))
        if state.markers:
            print(_("hidden markers on the table: {markers}").format(markers=", ".join(state.markers)))
        if state.result:
            print(_("result: {result}").format(result=book.render(state.result)))
    return 0


def _log_row(line: LogLine) -> dict[str, Any]:
    """A line of ``log --json``: its command's number, the kind of its fact, its text; the end
    of the game with its result as data, as the end fact holds it (ruling CORE-RESULT-DATA)."""
    row: dict[str, Any] = {
        "command": line.number,
        "kind": type(line.event).__name__,
        "text": line.text,
        "undone": line.undone,
        "inner": line.inner,
    }
    if isinstance(line.event, ev.GameEnded):
        row |= {"winner": line.event.winner, "draw": line.event.draw, "scores": dict(line.event.scores)}
    return row


def run_log(args: argparse.Namespace) -> int:
    game = _open_to_read(args.path, args.as_role)
    if game is None:
        return 2
    role = reading_role(game, args.as_role)
    for note in game.notes:
        print(f"({note})", file=sys.stderr)
    if args.json:
        import json  # here: the client imports this module, and needs no json

        # What the role sees, as the text does: no file position, no event's fields (a side's
        # copy holds only what it saw; core.secrets.sidecopy), the kind of each fact as data.
        # Every line, the game's inner variables too: ``inner`` says which the text leaves out.
        rows = [_log_row(line) for line in game.log_lines(role)]
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for line in game.log_lines(role):
        if line.inner and not args.all:
            continue
        mark = "  " + _("(undone)") if line.undone else ""
        indent = "" if type(line.event).__name__ in ("Issued", "Undone", "Redone") else "    "
        print(f"{indent}{line.text}{mark}")
    return 0


def run_salvage(args: argparse.Namespace) -> int:
    from core.storage.salvage import salvage

    try:
        done = salvage(args.path, args.to)
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return 2
    print(done.report())
    return 0


def run_fork(args: argparse.Namespace) -> int:
    from core.storage.fork import fork

    try:
        done = fork(args.path, args.step, args.save, seed=args.seed)
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return 2
    print(done.report())
    return 0


def run_export(args: argparse.Namespace) -> int:
    from core.secrets import sidecopy

    game = _open_to_read(args.path, args.as_role)
    if game is None:
        return 2
    copy = sidecopy.export(game, reading_role(game, args.as_role))
    if args.out is None:
        return 0 if written(msgspec.json.encode(copy) + b"\n", "export") else UNWRITTEN
    try:
        sidecopy.write(copy, args.out)
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return 2
    said = _("{file}: the copy of {role}: {shown} of {steps} events")
    said = said.format(file=args.out, role=args.as_role, shown=len(copy.events), steps=game.timeline.length)
    return 0 if written(said + "\n", "export") else UNWRITTEN


def run_verify(args: argparse.Namespace) -> int:
    """``fireteam verify``: its verdict written whole, or its own status (``UNWRITTEN``) saying it
    could not be: a reader must never take half a verdict (half its JSON) for the whole one."""
    from core.secrets.verify import run

    status, lines = run(args.path, as_json=args.json, side_copy=args.side_copy)
    if not written("".join(f"{line}\n" for line in lines), "verify", err=status == 2):
        return UNWRITTEN
    return status


def run_headless(args: argparse.Namespace) -> int:
    if args.command == "script":
        if args.save is None:
            from core.folders import saves

            save = saves() / f"{args.file.stem}.ft"  # (its folder made by the writer)
            print(_("No --save: the game goes into {save}").format(save=save), file=sys.stderr)
        else:
            save = args.save
        return run_script(args.file, save, args.seed, args.ruleset, args.variant)
    if args.command == "replay":
        return run_replay(args)
    if args.command == "log":
        return run_log(args)
    if args.command == "report":
        from core.report import cli as report_cli

        return report_cli.run(args)
    if args.command == "salvage":
        return run_salvage(args)
    if args.command == "fork":
        return run_fork(args)
    if args.command == "export":
        return run_export(args)
    if args.command == "verify":
        return run_verify(args)
    if args.command in ("certify", "league"):
        from core.league import cli as league_cli

        return league_cli.run(args)
    if args.command in ("scenarios", "scenario"):
        from core.cli import scenarios as scenario_cli

        return scenario_cli.run(args)
    if args.command == "rules":
        from core.cli import rules as rules_cli

        return rules_cli.run(args)
    if args.command == "paths":
        from core.cli import paths as paths_cli

        return paths_cli.run(args)
    raise AssertionError(args.command)
