"""A command that fails on an error of the program, at a line client: said as an error in
one line (never as a refusal), and the client goes on (issue 45: before, ``fireteam
--plain`` ended with a traceback)."""

from __future__ import annotations

from lines_support import Seat, demo_game

from core.ruleset import CommandSpec

FAILED = "Error: the command failed on an error of the program; nothing was recorded."


def broken(ctx, args):
    raise KeyError("aden")


def test_a_bug_in_a_command_is_one_error_line_and_the_client_goes_on(tmp_path):
    game = demo_game(tmp_path / "g.ft")
    game.commands.append(CommandSpec("broken", "a command with a bug", broken, who="referee"))
    before = game.path.read_bytes()
    seat = Seat(game)
    assert seat.say("broken") == [FAILED]
    assert game.path.read_bytes() == before
    assert seat.say("note still here")[-1] == "Note: still here."


def test_a_bug_in_an_undo_is_one_error_line_and_the_client_goes_on(tmp_path, monkeypatch):
    game = demo_game(tmp_path / "g.ft")
    seat = Seat(game)
    seat.say("note to take back")

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(game, "_undo", crash)
    seat.say("undo")
    said = seat.say("y")
    assert said == [
        "Error: the command failed on an error of the program; open the game again to see what was recorded."
    ]
    assert seat.say("note still here")[-1] == "Note: still here."
