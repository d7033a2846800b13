"""`fireteam script --ruleset ID` plays each of the three Italian rulesets headlessly."""

from __future__ import annotations

import io

import pytest

from core.cli.main import run_script
from core.game import Game

SCRIPTS = {
    "bassa-intensita": (
        "scenario demo\nnext dice=3,5\n@militia order second\nnext\n@folgore move marra 10\n"
        "@militia fire omar marra range=20 dice=9,9\n",
        ("move-first", "folgore"),
    ),
    "linea-di-tiro": ("scenario demo\nnext\nnext\nnext\n", ("card", None)),
    "ludonet": ("scenario demo\nnext dice=2,5\n@garrison move hans 10\n@garrison next\n", ("move-second", "paras")),
}


@pytest.mark.parametrize("ruleset", sorted(SCRIPTS))
def test_script_runs_each_ruleset(tmp_path, ruleset):
    text, (phase, active) = SCRIPTS[ruleset]
    script = tmp_path / "game.script"
    script.write_text(text, encoding="utf-8")
    save = tmp_path / "game.ft"
    out = io.StringIO()
    assert run_script(script, save, 2026, ruleset, "", out=out) == 0
    assert f"{text.count(chr(10))} commands" in out.getvalue()
    game = Game.open(save, writable=False)
    assert game.header.ruleset == ruleset
    assert game.state.phase == phase
    if active is not None:
        assert game.state.active_side == active
    else:
        assert game.state.turn == 3 and game.state.card  # three cards drawn


def test_a_refused_line_stops_the_script_with_its_number(tmp_path, capsys):
    script = tmp_path / "bad.script"
    script.write_text("scenario demo\n@folgore next\nnext dice=3,5\n", encoding="utf-8")
    assert run_script(script, tmp_path / "bad.ft", 1, "bassa-intensita", "", out=io.StringIO()) == 1
    assert f"{script}:2: only the referee moves the game on" in capsys.readouterr().err
    game = Game.open(tmp_path / "bad.ft", writable=False)
    assert game.state.phase == "initiative"  # nothing after the refused line was run
