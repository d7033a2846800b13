"""``fireteam verify SAVE --side-copy COPY`` (issue #60): a finished game's full save against a
side's copy.  Every event of the copy must be in the save at its step, and the save must give
the side nothing the copy lacks.

The copies are attacked as a side that wants to claim the game went otherwise would: decoded
with the product's own schema (``SideCopy``), edited, their steps numbered again so the copy
reads as a well-formed copy, and written back."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import msgspec
import pytest
from forged import rewrite

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.secrets.copycheck import MAX_NAMED, compare
from core.secrets.sidecopy import SideCopy, export, read, write
from core.storage.errors import SaveError
from tui.main import main as fireteam

SAVES = Path(__file__).resolve().parents[2] / "saves"
DEMO = SAVES / "demo-game.ft"


@pytest.fixture(scope="module")
def demo():
    with closing(Game.open(DEMO, writable=False)) as game:
        yield game


@pytest.fixture
def copy(demo, tmp_path) -> Path:
    path = tmp_path / "regulars.json"
    write(export(demo, "regulars"), path)
    return path


def edited(path: Path, edit) -> Path:
    """``path``'s copy with its events given to ``edit`` (which returns them changed), each
    numbered again 1, 2, 3… and its steps counted again: a copy that reads as well-formed."""
    copy = read(path)
    events = edit([e for _step, e in copy.events])
    renumbered = [(k, e) for k, e in enumerate(events, start=1)]
    out = path.with_name("edited.json")
    write(msgspec.structs.replace(copy, events=renumbered, steps=len(renumbered)), out)
    read(out)  # the copy's own checks pass
    return out


def first_roll(events: list) -> int:
    return next(k for k, e in enumerate(events) if isinstance(e, ev.Rolled))


def test_the_copy_the_save_gives_passes_and_the_cli_says_so(copy, capsys):
    assert fireteam(["verify", str(DEMO), "--side-copy", str(copy)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.endswith(
        "489 events checked against the save: each is in the save at its step, "
        "and the save gives this side nothing more"
    )


def test_a_changed_face_fails_naming_its_step(demo, copy, capsys):
    def edit(events):
        k = first_roll(events)
        roll = events[k].roll
        faces = (7 - roll.faces[0], *roll.faces[1:])
        events[k] = msgspec.structs.replace(events[k], roll=msgspec.structs.replace(roll, faces=faces))
        return events

    changed = edited(copy, edit)
    step = first_roll([e for _s, e in read(copy).events]) + 1
    result = compare(demo, changed)
    assert not result.ok and len(result.differs) == 1
    (line,) = result.differs
    assert (
        line.startswith(f"step {step}: the copy holds the event ") and '"faces"' in line and f"at step {step}" in line
    )
    assert fireteam(["verify", str(DEMO), "--side-copy", str(changed)]) == 1
    assert "1 differ from the save" in capsys.readouterr().out


def test_an_added_fact_fails_naming_its_step(demo, copy):
    def edit(events):
        k = first_roll(events)
        return [*events[: k + 1], events[k], *events[k + 1 :]]

    result = compare(demo, edited(copy, edit))
    step = first_roll([e for _s, e in read(copy).events]) + 2
    assert not result.ok
    assert result.differs[0] == "the copy counts 490 steps, the save gives this side 489"
    assert result.differs[1].startswith(f"step {step}: the copy holds the event ")
    # Every later event moved: they are counted past the ones named.
    assert len(result.differs) == MAX_NAMED and result.more > 0


def test_a_dropped_fact_fails_naming_its_step(demo, copy):
    def edit(events):
        del events[first_roll(events)]
        return events

    result = compare(demo, edited(copy, edit))
    step = first_roll([e for _s, e in read(copy).events]) + 1
    assert result.differs[0] == "the copy counts 488 steps, the save gives this side 489"
    assert result.differs[1].startswith(f"step {step}: the copy holds the event ")


def test_the_last_fact_dropped_fails_as_missing(demo, copy):
    changed = edited(copy, lambda events: events[:-1])
    result = compare(demo, changed)
    assert result.differs[-1].startswith("step 489: the save gives this side the event ")
    assert result.differs[-1].endswith(", which the copy lacks")


def test_two_facts_swapped_fail_naming_both_steps(demo, copy):
    def edit(events):
        i, j = [k for k, e in enumerate(events) if isinstance(e, ev.Rolled)][:2]
        events[i], events[j] = events[j], events[i]
        return events

    original = [e for _s, e in read(copy).events]
    i, j = [k + 1 for k, e in enumerate(original) if isinstance(e, ev.Rolled)][:2]
    result = compare(demo, edited(copy, edit))
    assert [line.split(":")[0] for line in result.differs] == [f"step {i}", f"step {j}"]


def test_a_copy_of_another_game_fails_on_its_header(demo, tmp_path):
    with closing(Game.open(SAVES / "bassa-intensita-game.ft", writable=False)) as other:
        write(export(other, "referee"), tmp_path / "other.json")
    result = compare(demo, tmp_path / "other.json")
    (line,) = result.differs
    assert "the copy of another game" in line


def test_a_save_given_as_the_copy_or_a_copy_as_the_save_is_refused(copy, capsys):
    with pytest.raises(SaveError, match="not a side's copy"):
        compare(Game.open(DEMO, writable=False), DEMO)
    assert fireteam(["verify", str(copy), "--side-copy", str(copy)]) == 2
    assert "checks a copy against the full save, given first" in capsys.readouterr().err
    assert fireteam(["verify", str(DEMO), "--side-copy", str(copy.with_name("missing.json"))]) == 2
    assert "missing.json: no such file" in capsys.readouterr().err


def test_a_copy_changed_as_another_role_fails(demo, copy, tmp_path):
    data = msgspec.json.decode(copy.read_bytes(), type=SideCopy)
    write(msgspec.structs.replace(data, role="militia"), tmp_path / "as-militia.json")
    assert not compare(demo, tmp_path / "as-militia.json").ok


def test_a_set_up_seen_at_another_step_fails_naming_both_steps(tmp_path, capsys):
    """The Americans first saw the hidden MG 42 at step 103 (it fired): a copy that says it saw
    it set up at step 20 claims it knew of the gun before it opened up."""
    save = SAVES / "linea-di-tiro-game.ft"
    with closing(Game.open(save, writable=False)) as game:
        honest = export(game, "us")
        assert [(step, e.unit.name) for step, e in honest.seen if isinstance(e, ev.UnitAdded)] == [
            (103, "MG 42 in the mill")
        ]
        moved = tmp_path / "us.json"
        write(msgspec.structs.replace(honest, seen=[(20, e) for _step, e in honest.seen]), moved)
        read(moved)  # the copy's own checks pass
        result = compare(game, moved)
    (line,) = result.differs
    assert line.startswith('step 20: the copy holds the set-up seen {"t":"unit"')
    assert '"name":"MG 42 in the mill"' in line and line.endswith("the save gives it to this side at step 103")
    assert fireteam(["verify", str(save), "--side-copy", str(moved)]) == 1
    assert "1 differ from the save" in capsys.readouterr().out
    # The copy alone says so too: its first fact of the gun is at step 103.
    assert fireteam(["verify", str(moved)]) == 1
    out = capsys.readouterr().out
    assert (
        "the copy says its side saw the piece MG 42 in the mill set up at step 20; its first fact of it is at step 103"
        in out
    )


def played_on(tmp_path: Path) -> Game:
    """A demo game at the Bersaglieri's first fire, the dice typed at the table."""
    game = Game.new(tmp_path / "live.ft", "breaking-news", seed=7, clock=lambda: 1_000)
    for line in ("scenario demo", "next", "next"):
        game.execute(line, role=REFEREE)
    game.execute("fire rossi noor range=20 dice=6,4", role="regulars")
    return game


def test_a_copy_kept_during_the_game_passes_against_the_save_played_on(tmp_path, capsys):
    game = played_on(tmp_path)
    kept = tmp_path / "kept.json"
    write(export(game, "regulars"), kept)
    game.execute('note "later"', role=REFEREE)
    game.execute("next", role=REFEREE)
    result = compare(game, kept)
    steps = export(game, "regulars").steps
    assert result.ok and result.kept_of == steps > result.events
    (line,) = result.report()
    assert line.endswith(
        f"{result.events} events checked against the save: the copy was kept at step {result.events} "
        f"of the {steps} the save gives this side now: each is in the save at its step"
    )
    game.close()
    assert fireteam(["verify", str(game.path), "--side-copy", str(kept)]) == 0


def test_a_copy_kept_during_the_game_convicts_a_step_changed_after_it(tmp_path):
    """The referee types the save's face again after the side kept its copy (typed faces are the
    table's word, so the save alone still verifies): the copy names the step."""
    game = played_on(tmp_path)
    kept = tmp_path / "kept.json"
    write(export(game, "regulars"), kept)
    game.execute('note "later"', role=REFEREE)
    game.close()
    step = next(s for s, e in read(kept).events if isinstance(e, ev.Rolled) and e.roll.manual and e.roll.faces == (4,))

    def edit(events):
        k = next(k for k, e in enumerate(events) if isinstance(e, ev.Rolled) and e.roll.manual and e.roll.faces == (4,))
        events[k] = msgspec.structs.replace(events[k], roll=msgspec.structs.replace(events[k].roll, faces=(5,)))
        return events

    rewrite(game.path, edit)
    with closing(Game.open(game.path, writable=False)) as changed:
        result = compare(changed, kept)
    assert not result.ok
    assert result.differs[0].startswith(f"step {step}: the copy holds the event ")
    assert '"faces":[4]' in result.differs[0] and '"faces":[5]' in result.differs[0]


def test_a_copy_cut_inside_a_command_is_not_taken_for_one_kept_early(tmp_path):
    game = played_on(tmp_path)
    game.execute('note "later"', role=REFEREE)
    whole = export(game, "regulars")
    cut = tmp_path / "cut.json"
    # The fire's last fact dropped: the copy ends inside the command, which no seat was ever sent.
    fire = max(s for s, e in whole.events if isinstance(e, ev.Issued) and e.text.startswith("fire"))
    end = fire + next(e for s, e in whole.events if s == fire).n
    write(msgspec.structs.replace(whole, steps=end - 1, events=whole.events[: end - 1]), cut)
    result = compare(game, cut)
    assert not result.ok and result.kept_of == 0
    assert result.differs[0] == f"the copy counts {end - 1} steps, the save gives this side {whole.steps}"
    assert result.differs[1].startswith(f"step {end}: the save gives this side the event ")
