"""``confirm`` at this machine's client (issue #74, record 5): a side's player, once the game has
ended, types ``confirm`` on the command line and the client adds the certificate's digest; before
the end the line says why not and its rule.  It counts only at your own seat (issue
#90): the client opened as a side at a single table is no one's seat, and says so."""

from __future__ import annotations

from contextlib import closing

import pytest
from waiting import hint, piloted, settled, type_command

from core.language.reader import reading
from core.league import certificate
from core.league.atseat import with_digest
from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused
from tui.bench.screenshots import demo_game


def _invited(game) -> None:
    game.execute("players regulars=anna via=invitation", role=REFEREE)
    game.execute("players irregulars=bruno via=invitation", role=REFEREE)


async def test_a_single_tables_side_is_told_to_sign_not_to_confirm(tmp_path):
    """Issue #90: one person typing confirm as each side at one table was both players' word."""
    with closing(demo_game(tmp_path / "game.ft")) as game:
        game.execute("players regulars=anna irregulars=bruno", role=REFEREE)
        game.execute("end-game", role=REFEREE)
        async with piloted(game, role="regulars") as (app, pilot):
            await type_command(pilot, "confirm")
            await settled(pilot)
            assert "only at your own seat" in hint(app)
        assert not any(isinstance(e, ev.Confirmed) for e in game.history.timeline())


async def test_a_side_confirms_at_the_clients_command_line(tmp_path):
    with closing(demo_game(tmp_path / "game.ft")) as game:
        _invited(game)
        async with piloted(game, role="regulars", seat="anna") as (app, pilot):
            await type_command(pilot, "confirm")
            await settled(pilot)
            assert "once the game has ended" in hint(app)
            game.execute("end-game", role=REFEREE)
            await type_command(pilot, "confirm")
            await settled(pilot)
        (fact,) = [e for e in game.history.timeline() if isinstance(e, ev.Confirmed)]
        cert, _verified = certificate.certify(game.path)
        assert (fact.side, fact.name, fact.result) == ("regulars", "anna", certificate.digest(cert))


async def test_a_side_confirms_from_the_palette_without_a_form(tmp_path):
    """The palette's ``confirm`` (it takes one argument, the digest) was given with none and refused:
    the seat adds it, as on the command line; before the end it says why not."""
    with closing(demo_game(tmp_path / "game.ft")) as game:
        _invited(game)
        async with piloted(game, role="regulars", seat="anna") as (app, pilot):
            (spec,) = [c for c in game.commands if c.name == "confirm"]
            app.screen.runner.start(spec)
            await settled(pilot)
            assert "once the game has ended" in hint(app)
            game.execute("end-game", role=REFEREE)
            app.screen.runner.start(spec)
            await settled(pilot)
        (fact,) = [e for e in game.history.timeline() if isinstance(e, ev.Confirmed)]
        cert, _verified = certificate.certify(game.path)
        assert (fact.side, fact.name, fact.result) == ("regulars", "anna", certificate.digest(cert))


def test_a_second_confirmation_is_refused_naming_the_side_in_the_readers_language(tmp_path):
    """Seen at a served table: "Bersaglieri ha già confermato …" in an Italian refusal."""
    with closing(demo_game(tmp_path / "game.ft")) as game:
        _invited(game)
        game.execute("players regulars=carla via=invitation", role=REFEREE)
        game.execute("end-game", role=REFEREE)
        game.execute(with_digest(game, "confirm", "regulars", "anna"), role="regulars", by="anna")
        with reading("it"), pytest.raises(Refused) as no:
            game.execute(with_digest(game, "confirm", "regulars", "carla"), role="regulars", by="carla")
    assert no.value.rules == ("ENG-9",)
    assert str(no.value).startswith("Reparto Bersaglieri ha già confermato questo risultato")


async def test_once_confirmed_the_screen_offers_no_undo_of_it(tmp_path):
    """The phase pane said "Ctrl+Z undoes #9 confirm …" at the seat that had just confirmed, and the
    key was refused: a confirmation is final (ENG-3), so the hint offers no undo the key would not do."""
    with closing(demo_game(tmp_path / "game.ft")) as game:
        _invited(game)
        game.execute("end-game", role=REFEREE)
        async with piloted(game, role="regulars", seat="anna") as (app, pilot):
            await type_command(pilot, "confirm")
            await settled(pilot)
            assert any(isinstance(e, ev.Confirmed) for e in game.history.timeline())
            assert app.screen.undo_redo.hint() == ""
            assert app.screen.undo_redo.undo_preview() is not None  # (what undo would take back: the confirm)
