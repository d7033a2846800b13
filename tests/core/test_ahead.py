"""``? COMMAND`` (``core.explain.ahead``): a command resolved on a copy, nothing recorded, nothing
rolled, equal to what giving it records on the same faces (issue #76).

Every command of the four recorded games of ``saves/`` is asked ahead on the faces it
rolled there, in a game brought to the same point, and what ``?`` says it would record is
compared with what the save recorded; then the command is given, on those faces, and the
next one is asked.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from playing import opened
from recorded import recorded_games

from core.cli.main import _COMMENT, script_lines
from core.dice.faces import DiceRequest, NeedDice, SeededDice, SupposedDice
from core.explain.ahead import ahead, resolved
from core.game import Game
from core.language.i18n import M
from core.log import events as ev
from core.log.questions import NeedAnswer
from core.refusal import Refused
from tui.lines.answers.rolls import table_dice
from tui.lines.why import ask

SAVES = sorted((Path(__file__).resolve().parents[2] / "saves").glob("*.ft"))


def _commands(save: Path) -> list[tuple[ev.Issued, list[ev.Event]]]:
    """The save's commands in force, each with its facts, in order."""
    game = Game.open(save, writable=False)
    try:
        lines = [line for line in game.log_lines("referee") if not line.undone]
        header = game.header
    finally:
        game.close()
    out: list[tuple[ev.Issued, list[ev.Event]]] = []
    for line in lines:
        if isinstance(line.event, ev.Issued):
            out.append((line.event, []))
        elif out and line.cmd == out[-1][0].cmd:
            out[-1][1].append(line.event)
    return out, header


def _same(e: ev.Event) -> dict:
    """A fact as both games must agree on it: not the salts and digests of secrets (random),
    nor whether a roll's faces were typed (the recorded game rolled its seeded dice)."""
    data = msgspec.to_builtins(e)
    for chance in ("salt", "digest"):
        data.pop(chance, None)
    if isinstance(data.get("roll"), dict):
        data["roll"].pop("manual", None)
    return data


class _Seeded(SupposedDice):
    """The faces a recorded command drew, where its save does not hold them all (a deck's
    shuffle draws faces no roll records): its seeded dice's, drawn as it drew them."""

    def __init__(self, seed: int, cmd: int) -> None:
        super().__init__(manual=False)
        self._seeded = SeededDice(seed, cmd)

    def roll(self, count: int, sides: int = 6, purpose="roll") -> tuple[int, ...]:
        return self._seeded.roll(count, sides, purpose)


@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.stem)
def test_asking_ahead_says_what_every_recorded_command_did_on_its_faces(save, tmp_path):
    """Each command asked ahead on the faces its rolls show in the save, as ``?`` asks it;
    a command that drew faces no roll records (a shuffle) on the faces its seeded dice drew.
    Then it is given on the game's seeded dice, as the save was made (``saves/*.script``)."""
    commands, header = _commands(save)
    game = Game.new(tmp_path / save.name, header.ruleset, header.variant, seed=header.seed)
    on_recorded = on_seeded = 0
    for issued, facts in commands:
        role = issued.role or issued.by
        parsed = game.parse(issued.text, role)
        faces = [] if parsed.faces else [f for e in facts if isinstance(e, ev.Rolled) for f in e.roll.faces]
        try:
            predicted = resolved(game, issued.text, role, faces)  # as `?` asks it
            on_recorded += 1
        except NeedDice:
            predicted = game.resolved(issued.text, role, _Seeded(header.seed, game.history.next_cmd))
            on_seeded += 1
        assert [_same(e) for e in predicted] == [_same(e) for e in facts], issued.text
        game.execute(issued.text, role=role, by=issued.by)  # on the game's seeded dice, as it was recorded
    assert on_recorded + on_seeded == len(commands) > 40
    assert on_seeded <= 2  # the set-up's shuffle, a reshuffle: every other command on its recorded faces


def ludonet_at_first_fire(path: Path) -> Game:
    """The Ludonet recorded game (seed 2026) up to the British Firefly's first shot."""
    script = Path(__file__).resolve().parents[2] / "saves" / "ludonet-game.script"
    lines = []
    for raw in script.read_text(encoding="utf-8").splitlines():
        line = _COMMENT.sub("", raw).strip()
        if line.startswith("@british fire sherman"):
            break
        if line:
            lines.append(line)
    return opened(path / "g.ft", "ludonet", *lines, seed=2026)


def test_asking_ahead_records_nothing_rolls_nothing_and_says_each_face(tmp_path):
    game = ludonet_at_first_fire(tmp_path)
    length, seeded = game.log_length, game.state
    said = ahead(game, "fire sherman panzer range=90", "british")
    assert game.log_length == length and game.state == seeded
    assert said.roll is not None and (said.roll.count, said.roll.sides) == (1, 6)
    assert {"LN-R030", "LN-R041"} <= set(said.rules)
    by_face = {faces: o for o in said.outcomes for faces in o.faces}
    assert [by_face[(f,)].outcome for f in range(1, 6)] == ["miss"] * 5
    assert by_face[(6,)].then.startswith("Sherman Firefly's combat value roll")
    # the real command on a 6 goes on to that roll; on a 3 it records the miss
    assert resolved(game, "fire sherman panzer range=90", "british", [3])[0].roll.outcome == M("miss")


def test_asking_ahead_is_refused_as_the_command_is(tmp_path):
    game = ludonet_at_first_fire(tmp_path)
    line = "fire sherman panzer range=500"
    with pytest.raises(Refused) as asked:
        ahead(game, line, "british")
    with pytest.raises(Refused) as given:
        game.execute(line, role="british")
    assert (str(asked.value), asked.value.rules) == (str(given.value), given.value.rules)
    assert asked.value.rules == ("LN-R030",)


#: A line's own faces (``dice=4,5``).
_TYPED = re.compile(r"\s+dice=\S*")


def _ranges(request: DiceRequest) -> str:
    """What the faces mean, as the table-dice prompt states them before the roll (verbose)."""
    said = [line for line in table_dice(request, first=True, verbose=True) if str(line).startswith("What the faces")]
    return str(said[0]).removeprefix("What the faces mean: ").removesuffix(".") if said else ""


@pytest.mark.parametrize("game", recorded_games(), ids=lambda g: g.name)
def test_asking_ahead_states_every_face_range_the_command_states(game, tmp_path):
    """Issue #91: `? at stug m3` (Linea di Tiro, a 2d6 total read off the AT table) listed
    twelve of its 36 faces and not the ranges the command states (2-7: D: destroyed; 8-12:
    no effect).  Every command of the recorded games whose first roll is read off a table
    with ranges is asked ahead where it is given, and `?` states each range as the table's
    prompt does; a roll read off a table after the first (a hit's damage) is stated in the
    "then" of each face that leads to it, with its ranges, as giving it there would ask it."""
    g = Game.new(tmp_path / game.save.name, game.ruleset, seed=game.seed)
    stated = followed = 0
    for raw in script_lines(game.script.read_text(encoding="utf-8")):
        text, role = _COMMENT.sub("", raw).strip(), "referee"
        if not text:
            continue
        if text.startswith("@"):
            role, _sep, text = text[1:].partition(" ")
        asked = _TYPED.sub("", text)  # (asked as a player asks it: his dice not thrown yet)
        try:
            resolved(g, asked, role, [])
        except NeedDice as need:
            if need.request.meanings:
                said = "\n".join(ask(g, role, asked))
                assert _ranges(need.request) in said, (asked, _ranges(need.request), said)
                stated += 1
            for outcome in ahead(g, asked, role).outcomes:
                try:
                    resolved(g, asked, role, list(outcome.faces[0]))
                except NeedDice as then:
                    if then.request.meanings:
                        assert _ranges(then.request) in outcome.then, (asked, outcome.then)
                        followed += 1
                except (NeedAnswer, Refused):
                    pass
        except (NeedAnswer, Refused):
            pass
        g.execute(text, role=role)
    g.close()
    # the recorded games' rolls read off a table with ranges (18, 2, 7 and 7 of them when written)
    least = {"linea-di-tiro": 5, "bassa-intensita": 10, "breaking-news": 1, "ludonet": 5}[game.ruleset]
    assert stated + followed >= least, (stated, followed)
