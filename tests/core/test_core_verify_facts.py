"""``fireteam verify`` re-derives every fact (issue #60): each command of a save is resolved
again through the rules with its recorded dice, and must give the facts recorded.

The saves are attacked as a careful referee would: decoded with the product's own
schema (msgspec, ``core.log.events``), changed, encoded again and every line's check
re-chained, so the file itself is well-formed and loads."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest
from coretests_support import Skirmish, file_events, new_demo, skirmish_registered
from forged import rewrite
from recorded import SAVES

from core.game import Game
from core.language.i18n import Msg
from core.log import events as ev
from core.log.questions import Question
from core.log.views import REFEREE
from core.registry import register, unregister
from core.ruleset import CommandSpec, Param
from core.secrets.sidecopy import export, write
from core.secrets.verify import verify
from tui.main import main as fireteam

RECORDED = ("demo-game", "bassa-intensita-game", "linea-di-tiro-game", "ludonet-game")


def command(events: list[ev.Event], text: str) -> tuple[int, list[ev.Event]]:
    """(index of its ``Issued``, its group) of the first command given as ``text``."""
    at = next(i for i, e in enumerate(events) if type(e) is ev.Issued and e.text == text)
    head = events[at]
    assert isinstance(head, ev.Issued)
    return at, events[at : at + 1 + head.n]


def with_n(head: ev.Event, n: int) -> ev.Event:
    assert isinstance(head, ev.Issued)
    return msgspec.structs.replace(head, n=n)


def saved(tmp_path: Path, name: str) -> Path:
    copy = tmp_path / f"{name}.ft"
    shutil.copyfile(SAVES / f"{name}.ft", copy)
    return copy


def failure(capsys, save: Path) -> str:
    """The one line ``fireteam verify`` fails a command with (exit status 1)."""
    assert fireteam(["verify", str(save)]) == 1
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if line.startswith("command #")]
    assert "1 differ from what the rules give" in out
    return line


@pytest.mark.parametrize("name", RECORDED)
def test_every_recorded_game_gives_its_facts_again(name, capsys):
    assert fireteam(["verify", str(SAVES / f"{name}.ft")]) == 0
    out = capsys.readouterr().out.splitlines()
    result = verify(SAVES / f"{name}.ft")
    assert result.replayed is not None and result.replayed.commands > 50 and not result.replayed.unsure
    said = f"facts: {result.replayed.commands} commands resolved again through the rules with the recorded dice ("
    assert out[-1].startswith(said) and out[-1].endswith("each gives the facts recorded")


def test_a_changed_target_and_outcome_with_the_face_kept_fails_naming_the_command(tmp_path, capsys):
    # Bassa Intensità, "morale hassan": a d10 of 5 against 5 passed; made to read as a failure.
    save = saved(tmp_path, "bassa-intensita-game")

    def edit(events):
        at, group = command(events, "morale hassan")
        k = next(k for k, e in enumerate(group) if type(e) is ev.Rolled)
        was = group[k]
        assert was.roll.faces == (5,) and was.roll.target == 5 and was.roll.outcome == Msg("passed")
        check = msgspec.structs.replace(was.roll.check, face=1)
        roll = msgspec.structs.replace(was.roll, target=1, outcome=Msg("failed: roll the effect"), check=check)
        events[at + k] = msgspec.structs.replace(was, roll=roll)
        return events

    rewrite(save, edit)
    line = failure(capsys, save)
    assert line.startswith("command #44 at step ") and "(morale hassan): mismatch: fact " in line
    assert '"target":1' in line and '"target":5' in line and "failed: roll the effect" in line


def test_a_dropped_roll_fails(tmp_path, capsys):
    # "morale farah": a failed check and its effect die (shocked); the effect dropped.
    save = saved(tmp_path, "bassa-intensita-game")

    def edit(events):
        at, group = command(events, "morale farah")
        k = next(k for k, e in enumerate(group) if type(e) is ev.Rolled and e.roll.purpose == Msg("morale effect"))
        del events[at + k]
        events[at] = with_n(group[0], len(group) - 2)
        return events

    rewrite(save, edit)
    line = failure(capsys, save)
    assert line.startswith("command #43 ") and "(morale farah): mismatch" in line and "morale effect" in line


def test_two_rolls_swapped_inside_a_command_fail(tmp_path, capsys):
    # The demo's roll-off for deployment: each side's d6, in the order the rules roll them.
    save = saved(tmp_path, "demo-game")

    def edit(events):
        at, group = command(events, "rolloff")
        i, j = [at + k for k, e in enumerate(group) if type(e) is ev.Rolled]
        assert events[i].roll.faces != events[j].roll.faces
        events[i], events[j] = events[j], events[i]
        return events

    rewrite(save, edit)
    line = failure(capsys, save)
    assert line.startswith("command #6 ") and "(rolloff): mismatch: fact " in line


@pytest.fixture
def sealed_game(tmp_path):
    """A skirmish with sealed dice (made with no seed): two shots, a contribution each."""
    with skirmish_registered():
        game = Game.new(tmp_path / "sealed.ft", "test-skirmish", clock=lambda: 2_000)
        game.execute("setup", role=REFEREE)
        game.execute("shoot alpha gunner", role="blue", saw=game.sealing.seal(), contribution=bytes(range(16)))
        game.execute("shoot bravo grunt", role="blue", saw=game.sealing.seal(), contribution=bytes(range(1, 17)))
        game.close()
        yield game.path


def test_a_sealed_game_gives_its_facts_again(sealed_game):
    result = verify(sealed_game)
    assert result.ok and result.replayed is not None and result.replayed.commands == 3


def test_a_commands_only_sealed_roll_dropped_fails(sealed_game, capsys):
    def edit(events):
        at, group = command(events, "shoot bravo grunt")
        (k,) = [k for k, e in enumerate(group) if isinstance(e, ev.SealedRoll)]
        del events[at + k]
        events[at] = with_n(group[0], len(group) - 2)
        return events

    rewrite(sealed_game, edit)
    with skirmish_registered():
        line = failure(capsys, sealed_game)
    assert line.startswith("command #3 ") and "recorded nothing, re-derived" in line


def test_two_commands_sealed_rolls_swapped_whole_fail(sealed_game, capsys):
    def edit(events):
        (i, j) = [k for k, e in enumerate(events) if isinstance(e, ev.SealedRoll)]
        events[i], events[j] = events[j], events[i]
        return events

    rewrite(sealed_game, edit)
    with skirmish_registered():
        assert fireteam(["verify", str(sealed_game)]) == 1
    out = capsys.readouterr().out
    assert "command #2 " in out and "command #3 " in out and "2 differ from what the rules give" in out


def test_a_sides_copy_says_its_facts_are_not_re_derived(tmp_path, capsys):
    copy = tmp_path / "regulars.json"
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    write(export(game, "regulars"), copy)
    result = verify(copy)
    assert result.replayed is None and result.ok
    assert "its commands cannot be resolved again" in result.report()[-1]


def _aim(ctx, args) -> None:
    cover = ctx.ask(Question("cover?", ("none", "light", "heavy"), default="none"), unit=args["shooter"])
    target = 4 + ("none", "light", "heavy").index(cover)
    ctx.roll("aim", 1, target=target, unit=args["shooter"], outcome=lambda f: "hit" if f[0] >= target else "miss")


class _Asking(Skirmish):
    """The test skirmish with a command that asks the table a question before it rolls."""

    id = "test-asking"

    def commands(self):
        aim = CommandSpec("aim", "Aim.", _aim, params=(Param("shooter", "own"), Param("target", "enemy")), rolls=True)
        return [*super().commands(), aim]


def test_an_answer_the_file_does_not_record_is_found_and_a_changed_target_still_fails(tmp_path, capsys):
    """The table's answers are not in the save: each question's choices are tried until
    the rules give the recorded facts; no answer gives a target made up afterwards."""
    register(_Asking)
    try:
        game = Game.new(tmp_path / "asking.ft", _Asking.id, clock=lambda: 2_000)
        game.execute("setup", role=REFEREE)
        for cover in ("heavy", "light"):  # none is the default; the file keeps neither answer
            game.execute("aim alpha gunner", role="blue", answers=[cover])
        game.close()
        rolls = [e.roll for e in file_events(game.path) if isinstance(e, ev.SealedRoll)]
        assert [r.target for r in rolls] == [6, 5]
        assert verify(game.path).ok

        def edit(events):
            k = next(k for k, e in enumerate(events) if isinstance(e, ev.SealedRoll))
            was = events[k]
            events[k] = msgspec.structs.replace(was, roll=msgspec.structs.replace(was.roll, target=3))
            return events

        rewrite(game.path, edit)
        line = failure(capsys, game.path)
    finally:
        unregister(_Asking.id)
    assert line.startswith("command #2 ") and "(aim alpha gunner): mismatch: fact 1: " in line
    assert '"target":3' in line and '"target":4' in line


def test_undone_and_carried_commands_are_checked_too(tmp_path, capsys):
    """An undo, a redo, and a side's undo that carries the referee's hidden command past it:
    each command is resolved again where it was given, a carried one is its original's copy."""
    game = new_demo(tmp_path / "demo.ft")
    save = game.path
    game.execute('note "mine"', role="regulars", by="reg")
    game.execute("mark dahir pinned", role=REFEREE)  # the irregulars' hidden fighter
    game.execute("undo", role=REFEREE)
    game.execute("redo", role=REFEREE)
    carried = game.execute("undo", role="regulars", by="reg")
    game.close()
    assert any(type(e) is ev.Issued and e.carries for e in carried.events)
    result = verify(save)
    assert result.replayed is not None and result.replayed.carried == 1 and not result.replayed.differs

    def edit(events):
        # The carried command made to say another fighter was pinned than the one its original pinned.
        at = max(i for i, e in enumerate(events) if type(e) is ev.Issued and e.carries)
        (k,) = [k for k in range(at + 1, at + 1 + events[at].n) if type(events[k]) is ev.StatusChanged]
        events[k] = msgspec.structs.replace(events[k], add=("suppressed",))
        return events

    rewrite(save, edit)
    line = failure(capsys, save)
    assert "(mark dahir pinned): mismatch: it carries command #" in line
