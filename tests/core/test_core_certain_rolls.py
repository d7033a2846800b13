"""A roll that cannot but pass (issues #77, #91, ruling CORE-CERTAIN): at a table that types
its dice (table dice on, or a line typing some of its dice) it is drawn by the game, not asked,
and the seat is told why; a roll the faces decide is asked as before, one no face passes whose
face decides what happens too (issue #90, point 10); replayed, each roll is drawn or typed as
the save records it."""

from __future__ import annotations

from core.dice.faces import ManualDice, SeededDice
from core.dice.handler import certain, certain_said
from core.game import Game
from core.language.i18n import render
from core.language.reader import reading
from core.log import events as ev
from core.log.outcome import DiceNeeded, Outcome
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from core.secrets.verify import verify


def test_certain_on_exact_checks():
    """Every face passes (True), every face fails (False), or the faces decide (None)."""
    assert [certain(ev.AtLeast(face=f), 1, 6) for f in (0, 1, 2, 6, 7)] == [True, True, None, None, False]
    assert [certain(ev.All(face=f), 3, 6) for f in (1, 2, 7)] == [True, None, False]
    assert [certain(ev.Each(face=f), 4, 6) for f in (1, 4, 7)] == [True, None, False]
    assert [certain(ev.Sum(total=t), 2, 6) for t in (2, 3, 12, 13)] == [True, None, None, False]
    assert certain(ev.AtLeast(face=2, under=True), 1, 6) is None and certain(ev.AtLeast(face=6, under=True), 1, 6)
    assert certain(ev.AtLeast(face=1, need=2), 1, 6) is False  # two successes of one die: never
    assert certain(ev.Read(), 1, 6) is None and certain(ev.Opposed(), 1, 6) is None and certain(None, 1, 6) is None


def test_a_certain_roll_is_drawn_only_where_it_would_be_asked_or_the_save_drew_it():
    """Live: a typed face is taken as it comes, and the game draws only when none is left.
    Replayed (``recorded``): the save says which rolls the game drew, whatever is typed."""
    dice = ManualDice([5])
    assert dice.draws() is None  # no game dice to draw with: every roll typed
    dice.drawer = SeededDice(1, 1)
    assert dice.draws() is None and dice.roll(1) == (5,)  # a face typed for it: taken
    assert dice.draws() is dice.drawer  # none left: drawn, not asked
    replayed = ManualDice([4])
    replayed.drawer, replayed.recorded = SeededDice(1, 1), (True, False, True)
    assert replayed.draws() is replayed.drawer  # the first roll was drawn, though a face is typed
    assert replayed.roll(1) == (4,) and replayed.draws() is replayed.drawer
    assert replayed.draws() is None  # past the recorded rolls: typed


def served(tmp_path) -> Game:
    g = Game.new(tmp_path / "g.ft", "breaking-news")  # (sealed dice)
    g.execute("scenario urban-armour", role=REFEREE)
    # The irregulars, listed second, win the initiative: 1,1 against 6,6.
    for line in ("next", "next dice=1,1,6,6", f"{TABLE_DICE} on"):
        g.execute(line, role=REFEREE)
    assert g.state.active_side == "irregulars"
    g.seated = lambda: {"regulars", "irregulars", REFEREE}
    return g


def test_at_a_served_table_the_seat_is_told_why_it_was_not_asked(tmp_path):
    """§9.2: Hirsi's RPG hits the tank's front on a 4; its save needs 1+: not asked at the
    regulars' seat, drawn, and every seat that sees it reads why."""
    g = served(tmp_path)
    out = g.submit("fire hirsi ariete range=20", role="irregulars", by="bea", faces=[4])
    assert isinstance(out, Outcome) and g.awaiting.held is None and not g.rolling.rolls
    said = "note: no need to roll: any face succeeds (needs 1+)"
    assert said in out.lines
    (note,) = [e for e in out.events if type(e) is ev.Noted]
    assert g.describe(note, "regulars") == said
    save = [e.roll for e in out.events if isinstance(e, ev.Rolled)][1]
    assert isinstance([e for e in out.events if isinstance(e, ev.Rolled)][1], ev.SealedRoll) and not save.manual
    assert verify(g.path).ok
    g.close()


def test_at_a_served_table_a_save_of_2_plus_is_held_for_its_seat(tmp_path):
    """§9.2: in the tank's side the save needs 2+: held for the regulars' seat, as before."""
    g = served(tmp_path)
    held = g.submit("fire hirsi ariete range=20 flank", role="irregulars", by="bea", faces=[4])
    assert not isinstance(held, DiceNeeded | Outcome) and g.awaiting.held is not None
    assert g.awaiting.held.asked == "regulars" and "needs 2+" in g.awaiting.held.request.text()
    g.close()


def test_the_reason_is_recorded_as_words_each_reader_renders():
    """The note holds a message, not words: the same fact reads in English and in Italian,
    the need as the prompt says it (a need of 0+ reads 1+)."""
    once = certain_said(True, ev.AtLeast(face=0), 1, 6)
    every = certain_said(True, ev.All(face=1), 2, 6)
    never = certain_said(False, ev.AtLeast(face=7), 1, 6)
    assert [render(m) for m in (once, every, never)] == [
        "no need to roll: any face succeeds (needs 1+)",
        "no need to roll: any face succeeds (needs 1+ on every die)",
        "no need to roll: no face succeeds (needs 6+)",
    ]
    with reading("it"):
        assert render(once) == "non serve tirare: ogni faccia riesce (serve 1+)"
        assert render(every).startswith("non serve tirare: ogni faccia riesce (serve 1+ ") and "every" not in render(
            every
        )


def test_a_squad_morale_test_that_cannot_fail_is_drawn_not_asked(tmp_path):
    """§12.0: the militia lost Ahmed, one loss: a die at or over 1 passes, any face of their 3
    (their Morale value).  At a table with table dice the referee's `next` rolled it no more than
    it asks a 1+ save: drawn, told why, and the turn goes on (ruling CORE-CERTAIN)."""
    g = Game.new(tmp_path / "g.ft", "breaking-news")
    for line in ("scenario demo", "next", "next dice=6,6,1,1", "out ahmed killed by regulars", "next"):
        g.execute(line, role=REFEREE)
    g.execute(f"{TABLE_DICE} on", role=REFEREE)
    g.seated = lambda: {"regulars", "irregulars", REFEREE}
    out = g.submit("next", role=REFEREE, faces=[])
    assert isinstance(out, Outcome) and g.awaiting.held is None, out
    (morale,) = [e.roll for e in out.events if isinstance(e, ev.Rolled) and e.roll.purpose.id == "morale (squad)"]
    assert (len(morale.faces), morale.check, morale.manual) == (3, ev.AtLeast(face=1), False)
    assert "note: no need to roll: any face succeeds (needs 1+ on at least one die)" in out.lines
    assert g.state.phase == "initiative" and g.state.turn == 2
    assert verify(g.path).ok
    g.close()


def test_a_line_that_types_the_to_hit_die_alone_is_not_stopped_by_a_save_of_1_plus(tmp_path):
    """§9.2: a script (table dice off) types Hirsi's RPG hit, 4, and no more: the tank's front
    saves at 1+, which the table would not be asked; the line types its dice, so the game draws
    that save as it would at a table with table dice, where it stopped the script (ruling
    CORE-CERTAIN).  A face typed for it is still taken."""
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=5)
    for line in ("scenario urban-armour", "next", "next dice=1,1,6,6"):
        g.execute(line, role=REFEREE)
    out = g.submit("fire hirsi ariete range=20 dice=4", role="irregulars")
    assert isinstance(out, Outcome), out
    hit, save = [e.roll for e in out.events if isinstance(e, ev.Rolled)]
    assert (hit.faces, hit.manual, save.purpose.id, save.manual) == ((4,), True, "vehicle save", False)
    assert "note: no need to roll: any face succeeds (needs 1+)" in out.lines
    g.execute("undo", role=REFEREE)
    typed = g.submit("fire hirsi ariete range=20 dice=4,2", role="irregulars")
    assert isinstance(typed, Outcome) and [e.roll.faces for e in typed.events if isinstance(e, ev.Rolled)] == [
        (4,),
        (2,),
    ]
    assert not any(type(e) is ev.Noted and "no need to roll" in render(e.text) for e in typed.events)
    assert verify(g.path).ok
    g.close()


def test_a_roll_no_face_passes_whose_face_decides_the_result_is_asked_not_drawn(tmp_path):
    """Issue #90, point 10: a vehicle save no face can pass is not certain in what it does, for its
    face decides it: §9.2, the technical (unprotected, 7+ against a grenade launcher) is knocked out
    on a 5 or 6 and explodes on 4 or less (a fail by 3).  At a table that types its dice it is
    asked, never drawn: typed on a line, and at a served table with table dice (held for the
    militia's seat); ruling CORE-CERTAIN's "where the face says more than pass or fail"."""
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=5)
    for line in ("scenario urban-armour", "next", "next dice=6,6,1,1"):
        g.execute(line, role=REFEREE)
    asked = g.submit("fire pace technical range=20 weapon=GL dice=6", role="regulars")
    assert isinstance(asked, DiceNeeded) and "vehicle save: 1d6, needs 7+" in asked.request.text()
    g.execute(f"{TABLE_DICE} on", role=REFEREE)
    g.seated = lambda: {"regulars", "irregulars", REFEREE}
    held = g.submit("fire pace technical range=20 weapon=GL", role="regulars", by="ugo", faces=[6])
    assert not isinstance(held, DiceNeeded | Outcome) and g.awaiting.held is not None
    assert g.awaiting.held.asked == "irregulars" and "needs 7+" in g.awaiting.held.request.text()
    for faces, fate in (("6,5", "knocked out"), ("6,4,6", "destroyed")):  # (blown up: Gedi inside saves, 6)
        again = Game.new(tmp_path / f"g{faces}.ft", "breaking-news", seed=5)
        for line in ("scenario urban-armour", "next", "next dice=6,6,1,1"):
            again.execute(line, role=REFEREE)
        again.execute(f"fire pace technical range=20 weapon=GL dice={faces}", role="regulars")
        assert render(again.state.units["technical"].out).startswith(fate)
        again.close()
    g.close()
