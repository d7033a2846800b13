"""A side's log groups every line it sees under its own command's header (issue #61).

A command hidden from a side (the German player's shot with his hidden Pak 40, ruling
CORE-TEXT) may still make facts the side sees (its Sherman knocked out).  Those lines
were drawn straight under the side's previous header, so a Sherman lost to the Pak
read as the fact of the referee's ``next`` before it.  They now stand under a header
of their own that names neither the command nor its author, and carries no number:
the side's numbers count only the commands it may see (core.log.numbering).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playing import opened
from waiting import piloted, until

from core.game import Game
from core.log.views import REFEREE
from tui.lines import answers
from tui.logindex import RowIndex
from tui.panes.log import LogView
from tui.screens.dialogs import event_details

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets"))
from linea_di_tiro_support import faces_for, play, stacked  # noqa: E402

SIZE = (120, 50)
HIDDEN = "» (one or more commands hidden from you)"


def pak_game(path: Path) -> Game:
    """The Linea di Tiro demo, its deck stacked: the hidden Pak knocks out a Sherman."""
    game = opened(path, "linea-di-tiro", "scenario demo dice=" + ",".join(map(str, faces_for(stacked()))), seed=5)
    play(game, "next", "@us activate sherman1 A1")  # 7♥: the Sherman prepares an attack
    play(game, "next", "@german activate pak A2")  # Q♠: the hidden Pak fires
    play(game, "@german at pak sherman1 dice=1,1")  # 2: the Sherman is destroyed
    play(game, "next")  # the Joker
    return game


def rows(app) -> list[str]:
    view = app.screen.query_one(LogView)
    return [view.render_line(y).text.rstrip() for y in range(view.size.height)]


async def test_a_side_sees_a_hidden_command_s_facts_under_a_header_of_their_own(tmp_path):
    game = pak_game(tmp_path / "lt.ft")
    async with piloted(game, SIZE, role="us", seat="anna") as (app, pilot):
        await until(pilot, lambda: any("out of action" in r for r in rows(app)), "the Sherman's loss in the log")
        shown = [r.strip() for r in rows(app) if r.strip()]
        lost = next(i for i, r in enumerate(shown) if "Sherman Easy out of action" in r)
        # The row above the Sherman's loss is a header, not the card drawn by #4 next.
        assert shown[lost - 1] == HIDDEN
        assert "card Q♠" in shown[lost - 2]
        assert "#5 » referee: next" in shown[lost + 2 :]  # the side's own numbers go on
        assert not any("pak" in r.lower() for r in shown)  # the hidden command's words stay hidden
    game.close()


def test_every_view_of_the_side_has_the_header_the_referee_has_none(tmp_path):
    game = pak_game(tmp_path / "lt.ft")
    lines = game.log_lines("us")
    headers = [line for line in lines if line.text == HIDDEN]
    assert len(headers) == 1 and headers[0].number == 0
    assert "Pak" not in repr(headers[0].event)  # the details read the event: nothing of it
    details = event_details(headers[0], {}, facts=game.reading.facts_seen(headers[0].cmd, "us")).plain
    assert "2 facts follow" in details and "given by" not in details  # the loss and its commitment
    index = RowIndex(game, "us")
    assert [index.position(r) for r in range(index.rows())] == [line.index for line in lines if not line.inner]
    assert HIDDEN not in [line.text for line in game.log_lines(REFEREE)]
    assert HIDDEN not in [line.text for line in game.log_lines("german")]  # his own command
    # A plain seat's ``log`` reads the same lines: the header, unnumbered, before the loss.
    said = [str(line) for line in answers.last_lines(game, RowIndex(game, "us"), "us", 10)]
    lost = next(i for i, line in enumerate(said) if "Sherman Easy out of action" in line)
    assert said[lost - 1] == "(one or more commands hidden from you)."
    game.close()
