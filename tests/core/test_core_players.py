"""People in the log (issue #74): who plays each side (``players``, ``Seated``), and who typed a
roll for another seat (``Rolled.given_by``), each a fact of the save its copies and ``verify`` cover."""

from __future__ import annotations

from contextlib import closing

import pytest
from coretests_support import new_demo
from playing import names

from core.game import Game
from core.language.reader import Reader, reading
from core.log import events as ev
from core.log.outcome import Held, Outcome
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused
from core.secrets.sidecopy import export
from core.secrets.verify import run

KEY = "SHA256:" + "A" * 43


@pytest.fixture
def game(tmp_path):
    with closing(new_demo(tmp_path / "game.ft")) as game:
        yield game


def seated(game: Game) -> list[tuple[str, str, str, str]]:
    return [(s.side, s.name, s.key, s.via) for s in game.reading.players()]


def test_players_names_each_side_by_any_of_its_names_and_records_it_by_its_id(game):
    said = game.execute("players regulars=anna militia=bruno", role=REFEREE).lines
    assert said[1:] == ["anna plays Bersaglieri", "bruno plays Somali militia"]
    assert seated(game) == [("regulars", "anna", "", "named"), ("irregulars", "bruno", "", "named")]
    with reading(Reader("it")):
        assert game.execute("giocatori milizia=carla", role=REFEREE).lines[1:] == ["carla gioca Milizia somala"]
    # Recorded in English, by the side's id: the line reads the same in any language, and verifies.
    assert [e.text for e in game.history.timeline() if type(e) is ev.Issued][-1] == "players irregulars=carla"
    # A public fact: every side's copy holds it.
    assert sum(isinstance(e, ev.Seated) for _s, e in export(game, "regulars").events) == 3


def test_a_seats_key_is_recorded_with_it_one_side_at_a_time(game):
    game.execute(f"players irregulars=irr key={KEY} via=key", role=REFEREE)
    assert seated(game) == [("irregulars", "irr", KEY, "key")]
    assert game.log_lines("regulars")[-1].text == f"irr sits for Somali militia, by the SSH key {KEY}"
    for line, why in (
        ("players regulars=anna key=SHA256:short", "an SSH key's fingerprint is SHA256: and 43 letters"),
        (f"players regulars=anna irregulars=bruno key={KEY}", "one side's player at a time"),
        ("players regulars=anna via=key", "give the key's fingerprint too"),
        ("players regulars", "each side with the one word its player goes by"),
        ("players regulars=two words", "each side with the one word"),
        ("players nobody=anna", "no side 'nobody'"),
    ):
        with pytest.raises(Refused, match=why) as no:
            game.execute(line, role=REFEREE)
        names(no.value, TYPING)
    with pytest.raises(Refused, match="only the referee") as no:
        game.execute("players regulars=anna", role="regulars")
    names(no.value, "ENG-1")


def test_who_typed_a_held_roll_is_recorded_said_and_verified(game):
    """The militia's save, held for its seat, is typed by the referee's seat ``rita``: the roll says
    so in every log, and ``verify`` resolves the command again with it."""
    for line in ("next", "next", "table-dice on"):
        game.execute(line, role=REFEREE)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    game.submit("fire rossi noor range=20", role="regulars", by="reg", faces=[])
    assert isinstance(game.submit("fire rossi noor range=20", role="regulars", by="reg", faces=[6]), Held)
    done = game.answer_held(role=REFEREE, by="rita", faces=[4])
    assert isinstance(done, Outcome)
    assert [(e.roll.faces, e.given_by) for e in done.events if isinstance(e, ev.Rolled)] == [((6,), ""), ((4,), "rita")]
    for role in ("irregulars", "regulars", REFEREE):
        lines = [x.text for x in game.log_lines(role)]
        assert "rita gave Ahmed Noor's save: 1d6 needing 5+: 4 → failed: out of action [table dice]" in lines
    with reading(Reader("it")):
        assert any(x.text.startswith("rita ha dato ") for x in game.log_lines("irregulars"))
    game.close()
    status, said = run(game.path)
    assert status == 0 and said[-1].startswith("facts: ") and said[-1].endswith("each gives the facts recorded")


def test_a_typed_dies_author_is_not_shifted_when_the_line_carries_its_own_dice(game):
    """Issue #90, point 10: the faces a line carries (``dice=``) are its issuer's and come first; the
    faces typed at another seat follow them.  Had the givers not been shifted past the line's own, the
    issuer's 6 would be recorded as typed by ``rita`` and her 4 as the issuer's; ``verify`` resolves
    the command again with each face from the seat that typed it."""
    for line in ("next", "next", "table-dice on"):
        game.execute(line, role=REFEREE)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    assert isinstance(game.submit("fire rossi noor range=20 dice=6", role="regulars", by="reg", faces=[]), Held)
    done = game.answer_held(role=REFEREE, by="rita", faces=[4])
    assert isinstance(done, Outcome)
    assert [(e.roll.faces, e.given_by) for e in done.events if isinstance(e, ev.Rolled)] == [((6,), ""), ((4,), "rita")]
    game.close()
    status, said = run(game.path)
    assert status == 0 and said[-1].endswith("each gives the facts recorded")
