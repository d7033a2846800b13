# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Undo and redo: unlimited, recorded, visible to every seat, and limited for players."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from coretests_support import builtins, demo, skirmish  # noqa: F401  (fixtures)
from playing import names, refused

from core.game import Game
from core.log import events as ev
from core.log.state import fold
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def test_undo_and_redo_are_unlimited_and_recorded(demo):
    start = builtins(demo.state)
    states = []
    for i in range(40):
        demo.execute(f"dp regulars {i % 5 + 1} turn {i}", role=REFEREE)
        states.append(builtins(demo.state))
    for i in reversed(range(40)):
        assert builtins(demo.state) == states[i]
        demo.execute("undo", role=REFEREE)
    assert builtins(demo.state) == start
    demo.execute("undo", role=REFEREE)  # the scenario itself
    assert builtins(demo.state) == builtins(fold([]))
    refused(demo, "undo", "nothing to undo", rule="ENG-3")
    demo.execute("redo", role=REFEREE)
    assert builtins(demo.state) == start
    for i in range(40):
        demo.execute("redo", role=REFEREE)
        assert builtins(demo.state) == states[i]
    refused(demo, "redo", "nothing to redo", rule="ENG-3")
    markers = [e for e in demo.history.store.slice(0, demo.log_length) if isinstance(e, ev.Undone | ev.Redone)]
    assert len(markers) == 41 + 41


def test_undo_takes_back_the_last_command_and_its_events_stay_in_the_file(demo):
    demo.execute("mark ahmed suppressed", role=REFEREE)
    size = demo.path.stat().st_size
    outcome = demo.execute("undo", role=REFEREE)
    assert outcome.lines == ["undone: #2 mark ahmed suppressed"]
    assert demo.state.units["ahmed"].status == ()
    assert demo.path.stat().st_size > size
    demo.close()
    replay = Game.open(demo.path, writable=False)
    assert any(isinstance(e, ev.StatusChanged) for e in replay.history.store.slice(0, replay.log_length))
    assert not any(isinstance(e, ev.StatusChanged) for e in replay.history.timeline())


def test_redo_works_after_reload(demo):
    demo.execute("mark ahmed suppressed", role=REFEREE)
    demo.execute("undo", role=REFEREE)
    demo.close()
    again = Game.open(demo.path)
    assert again.undoing.redo_preview(role="referee") == "#2 mark ahmed suppressed"
    again.execute("redo", role=REFEREE)
    assert again.state.units["ahmed"].status == ("suppressed",)
    again.close()


def test_a_new_command_after_undo_clears_redo(demo):
    demo.execute("mark ahmed suppressed", role=REFEREE)
    demo.execute("undo", role=REFEREE)
    demo.execute("mark ahmed pinned", role=REFEREE)
    assert demo.undoing.redo_preview(role="referee") is None
    refused(demo, "redo", "nothing to redo", rule="ENG-3")
    demo.close()
    again = Game.open(demo.path)
    assert again.undoing.redo_preview(role="referee") is None
    assert again.state.units["ahmed"].status == ("pinned",)
    again.close()


def test_an_undo_after_dice_is_visible_in_every_roles_log(demo):
    demo.execute("roll 3d6 target=5", role=REFEREE)
    demo.execute("undo", role=REFEREE)
    for role in ("referee", "regulars", "irregulars", "spectator"):
        lines = demo.log_lines(role)
        rolls = [line for line in lines if isinstance(line.event, ev.Rolled)]
        assert len(rolls) == 1 and rolls[0].undone, role
        assert "3d6" in rolls[0].text
        assert lines[-1].text == "↶ referee undid command #2: roll 3d6 target=5", role
        assert isinstance(lines[-1].event, ev.Undone)
    demo.execute("redo", role=REFEREE)
    assert demo.log_lines("regulars")[-1].text == "↷ referee redid command #2: roll 3d6 target=5"


def test_the_undo_of_a_command_hidden_from_a_side_names_nothing_to_it(tmp_path):
    """An undo names the command it takes back (#61), to those who may see that command:
    the hidden Pak's shot stays hidden from the US player, its undo with it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets"))
    from linea_di_tiro_support import faces_for, play, stacked

    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=5)
    game.execute("scenario demo dice=" + ",".join(map(str, faces_for(stacked()))), role=REFEREE)
    play(game, "next", "@us activate sherman1 A1", "next", "@german activate pak A2")
    play(game, "@german at pak sherman1 dice=1,1")  # hidden from the US side
    shot = game.history.last_effective()
    seen = len(game.log_lines("us"))
    game.execute("undo", role=REFEREE)
    assert game.log_lines(REFEREE)[-1].text.startswith(f"↶ referee undid command #{shot}: ")
    assert "pak" in game.log_lines("german")[-1].text
    assert not [line for line in game.log_lines("us")[seen:] if isinstance(line.event, ev.Undone)]
    assert not [line for line in game.log_lines("us") if "pak" in line.text.lower() and "undid" in line.text]
    game.close()


# ---------------------------------------------------------------- who may undo


def test_a_player_may_undo_his_own_last_command(skirmish):
    skirmish.execute("walk alpha 5", role="blue")
    skirmish.execute("undo", role="blue")
    assert skirmish.state.units["alpha"].moved_cm == 0
    skirmish.execute("redo", role="blue")
    assert skirmish.state.units["alpha"].moved_cm == 5


def test_a_player_may_not_undo_another_seats_command(skirmish):
    skirmish.execute("walk gunner 5", role="red")
    refused(skirmish, "@blue undo", "not yours; ask the referee", rule="ENG-3")
    skirmish.execute("walk alpha 3", role="blue")
    skirmish.execute("undo", role="blue")  # his own, the last
    refused(skirmish, "@blue undo", "not yours", rule="ENG-3")  # red's is the last now
    skirmish.execute("undo", role="referee")
    assert skirmish.state.units["gunner"].moved_cm == 0


def test_a_player_may_not_undo_a_command_that_rolled_dice(skirmish):
    skirmish.execute("shoot alpha gunner", role="blue")
    size = skirmish.path.stat().st_size
    refused(skirmish, "@blue undo", "dice were rolled", rule="ENG-3")
    assert skirmish.path.stat().st_size == size
    skirmish.execute("undo", role=REFEREE)  # the referee may
    assert skirmish.history.last_effective() == 1


def test_the_refusal_a_seat_asks_before_its_question_is_the_undos_own(skirmish):
    """Issue #61: the seats ask ``undo_refusal`` before "y or n"; it must be the undo's own check."""
    skirmish.execute("walk alpha 5", role="blue")
    assert skirmish.undoing.undo_refusal("blue") is None
    assert skirmish.undoing.undo_refusal("red") == "the last command is not yours; ask the referee to undo it"
    skirmish.execute("shoot alpha gunner", role="blue")
    why = skirmish.undoing.undo_refusal("blue")
    assert why == "dice were rolled or something was revealed; only the referee can undo that"
    refused(skirmish, "@blue undo", f"^{why}$", rule="ENG-3")
    assert skirmish.undoing.undo_refusal(REFEREE) is None


def test_a_player_may_not_undo_a_command_that_revealed_something(skirmish):
    skirmish.execute("peek plan", role="red")
    assert skirmish.view("blue").secrets["plan"].value == "flank left"
    refused(skirmish, "@red undo", "revealed", rule="ENG-3")
    skirmish.execute("undo", role="referee")
    assert "plan" not in skirmish.view("blue").secrets


def test_a_player_may_not_undo_the_referees_command(skirmish):
    refused(skirmish, "@red undo", "not yours", rule="ENG-3")
    skirmish.execute("note hello", role="red")
    skirmish.execute("undo", role="red")


def test_a_spectator_can_undo_nothing(skirmish):
    refused(skirmish, "@spectator undo", "spectators", rule="ENG-1")


def test_state_is_the_fold_after_players_undo(skirmish):
    for line, role in (
        ("walk alpha 5", "blue"),
        ("walk gunner 4 run", "red"),
        ("undo", "red"),
        ("walk bravo 2", "blue"),
    ):
        skirmish.execute(line, role=role)
    assert builtins(skirmish.state) == builtins(fold(skirmish.history.timeline()))
    assert skirmish.state.units["gunner"].moved_cm == 0


def test_a_player_may_not_redo_a_roll_the_referee_took_back(skirmish):
    skirmish.execute("shoot alpha gunner", role="blue")
    skirmish.execute("undo", role=REFEREE)  # the referee takes the shot back
    refused(skirmish, "@blue redo", "only the referee can redo", rule="ENG-3")
    skirmish.execute("redo", role=REFEREE)  # the referee may
    assert skirmish.history.last_effective() == 2


def test_a_private_command_is_taken_back_privately(skirmish):
    skirmish.execute("walk ghost 3", role="red")  # the ghost is hidden: blue never saw the move
    skirmish.execute("undo", role="red")
    skirmish.execute("redo", role="red")
    blue = [line.event for line in skirmish.log_lines("blue")]
    red = [line.event for line in skirmish.log_lines("red")]
    assert not any(isinstance(e, ev.Undone | ev.Redone | ev.Moved) for e in blue)
    assert sum(isinstance(e, ev.Undone | ev.Redone) for e in red) == 2


def test_a_save_that_cannot_be_written_is_refused_untouched(skirmish, monkeypatch):
    import os

    import core.storage.writer
    from core.storage.errors import SaveError

    skirmish.close()
    before = skirmish.path.read_bytes()
    real_open = os.open

    def no_append(file, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied")
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(core.storage.writer.os, "open", no_append)
    with pytest.raises(SaveError, match="cannot open the save for writing: Permission denied"):
        Game.open(skirmish.path)
    monkeypatch.undo()
    assert skirmish.path.read_bytes() == before
    Game.open(skirmish.path, writable=False)  # still readable


def test_every_refusal_is_told_with_its_text_seat_role_and_reason(demo):
    refusals = []
    stop = demo.subscribe_refusals(refusals.append)
    demo.execute('note "fine"', role="regulars", by="bruno")
    with pytest.raises(Refused) as no:
        demo.execute("  teleport rossi  ", role="regulars", by="bruno")
    names(no.value, TYPING)
    with pytest.raises(Refused) as no:
        demo.execute("undo", role="irregulars", by="carla")  # through the command line
    names(no.value, "ENG-3")
    with pytest.raises(Refused) as no:
        demo.redo(role="regulars", by="bruno")  # directly
    names(no.value, "ENG-3")
    assert [(r.text, r.role, r.by) for r in refusals] == [
        ("teleport rossi", "regulars", "bruno"),
        ("undo", "irregulars", "carla"),
        ("redo", "regulars", "bruno"),
    ]
    assert "teleport" in refusals[0].why
    assert refusals[1].why == "the last command is not yours; ask the referee to undo it"
    assert refusals[2].why == "nothing to redo"
    stop()
    refused(demo, "teleport rossi", rule=TYPING)
    assert len(refusals) == 3
