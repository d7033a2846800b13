"""A side's copy (``fireteam export``) opens wherever a save opens to be read:
``fireteam log``, ``report`` and ``replay`` show it as its side saw the game, and
it can never be played on (issue #26)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from playing import refused

from core.game import Game
from core.log.views import REFEREE, roles
from core.secrets.sidecopy import open_copy
from tui.main import main as fireteam

SAVES = Path(__file__).resolve().parents[2] / "saves"
RECORDED = ("demo-game.ft", "bassa-intensita-game.ft", "linea-di-tiro-game.ft", "ludonet-game.ft")


def _export(save: Path, role: str, to: Path, capsys) -> Path:
    assert fireteam(["export", str(save), "--as", role, "-o", str(to)]) == 0
    capsys.readouterr()
    return to


def _out(argv: list[str], capsys) -> str:
    assert fireteam(argv) == 0, argv
    return capsys.readouterr().out


@pytest.mark.long
@pytest.mark.parametrize("name", RECORDED)
def test_a_sides_copy_reads_as_its_side_saw_the_game(name, tmp_path, capsys):
    save = SAVES / name
    game = Game.open(save, writable=False)
    watchers = [r for r in roles(game.state) if r != REFEREE]
    for role in watchers:
        copy = _export(save, role, tmp_path / f"{role}.json", capsys)
        assert _out(["log", str(copy)], capsys) == _out(["log", str(save), "--as", role], capsys)
        assert _out(["report", str(copy)], capsys) == _out(["report", str(save), "--as", role], capsys)
        shown = json.loads(_out(["replay", str(copy), "--json"], capsys))
        full = json.loads(_out(["replay", str(save), "--as", role, "--json"], capsys))
        for key in ("turn", "phase", "active_side", "scenario", "result", "event_count", "total_events"):
            assert shown[key] == full[key], (role, key)
        assert [s["id"] for s in shown["sides"]] == [s["id"] for s in full["sides"]]
        half = full["total_events"] // 2
        early = json.loads(_out(["replay", str(copy), "--step", str(half), "--json"], capsys))
        assert (early["turn"], early["phase"]) == tuple(
            json.loads(_out(["replay", str(save), "--as", role, "--step", str(half), "--json"], capsys))[k]
            for k in ("turn", "phase")
        )
    game.close()


def test_a_copy_is_its_sides_alone_and_cannot_be_played(tmp_path, capsys):
    copy = _export(SAVES / "demo-game.ft", "regulars", tmp_path / "regulars.json", capsys)
    for command in ("log", "report", "replay"):
        assert fireteam([command, str(copy), "--as", "irregulars"]) == 2
        assert "holds only what regulars saw" in capsys.readouterr().err
    game = open_copy(copy)
    assert game.copy_role == "regulars" and not game.writable
    refused(game, "@regulars note we were here", "read-only", rule="ENG-4")
    assert fireteam(["fork", str(copy), "--step", "1", "--save", str(tmp_path / "what-if.ft")]) == 2
    assert "cannot be forked" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d["events"].insert(3, [2, {"t": "out", "unit": "rossi", "cause": "x"}]), "out of order"),
        (lambda d: d["seen"].append([9, {"t": "note", "text": "x"}]), "not a piece or a secret"),
        (lambda d: d["events"][0][1].update(t="bogus"), "not a valid side's copy"),
        (lambda d: d.update(events=[[1, {"t": "out", "unit": "nobody", "cause": "x"}]]), ""),
    ],
)
def test_a_damaged_copy_is_refused_by_every_reader(change, said, tmp_path, capsys):
    copy = _export(SAVES / "demo-game.ft", "regulars", tmp_path / "regulars.json", capsys)
    data = json.loads(copy.read_text(encoding="utf-8"))
    change(data)
    copy.write_text(json.dumps(data), encoding="utf-8")
    for command in ("log", "report", "replay"):
        status = fireteam([command, str(copy)])
        err = capsys.readouterr().err
        if said:
            assert status == 2 and said in err and "Traceback" not in err, command
        else:
            assert status == 0  # a fact about a piece the copy never saw set up: kept in the log only


def _table(path: Path, hidden: bool) -> Game:
    """The demo at turn 1, the regulars' few commands, and (``hidden``) the referee's marks
    on the irregulars' hidden fighters between them, which the regulars cannot see."""
    game = Game.new(path, "breaking-news", seed=7, clock=lambda: 1_000, salt=lambda: "0" * 32)
    for line in ("scenario demo", "next", "next"):
        game.execute(line, role=REFEREE)
    for line, unseen in (("move conti 3", "mark dahir pinned"), ("note all quiet", "mark egal wounded"),
                         ("undo", "mark egal suppressed"), ("move greco 2", "clear dahir pinned")):  # fmt: skip
        if hidden:
            game.execute(unseen, role=REFEREE)
        game.execute(line, role="regulars", by="reg")
    return game


def _made_at_one_moment(header):
    """``header`` as if its game had been made when the other was: the time a game was made is its
    own, not a fact of its play (``Game.new`` writes the wall clock's, not the game's clock's)."""
    return msgspec.structs.replace(header, created="")


def test_a_sides_copy_numbers_only_what_the_side_saw(tmp_path):
    """Issue 28: the copy held the game's step count, each event's step in the whole game and
    the game's own command numbers (and each command's count of facts, hidden ones too): the
    referee's hidden commands showed in it.  The copies of two games that differ only by them
    are the same, byte for byte."""
    from core.secrets import sidecopy

    copies = []
    for hidden in (False, True):
        game = _table(tmp_path / f"{hidden}.ft", hidden)
        copy = sidecopy.export(game, "regulars")
        # The copy's header is its game's (when the game was made: the two games' are their own,
        # a second apart or not); everything else is what the side saw, and must be the same.
        assert copy.header.created == game.header.created
        copies.append(msgspec.json.encode(msgspec.structs.replace(copy, header=_made_at_one_moment(copy.header))))
        game.close()
    assert copies[0] == copies[1]
    copy = msgspec.json.decode(copies[1], type=sidecopy.SideCopy)
    assert copy.steps == len(copy.events) and [s for s, _e in copy.events] == list(range(1, copy.steps + 1))
