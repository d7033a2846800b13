"""The recorded games in ``saves/``: each save is what its script makes.

A test module imports it with ``tests/shared`` on ``sys.path`` (see ``hostile.py``).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import msgspec

from core.cli.main import _COMMENT, run_script, script_lines
from core.dice.faces import DiceRequest, NeedDice, SeededDice
from core.dice.handler import certain
from core.game import Game
from core.log import events as ev
from core.log.questions import NeedAnswer, Question
from core.rulesets.linea_di_tiro import turn

SAVES = Path(__file__).resolve().parents[2] / "saves"


def effective_facts(path: Path, *, languages: bool = True) -> list[dict]:
    """Every event of the file, without the wall-clock time of the commands and the
    random salts of the secrets (and so the digests of their commitments); ``languages``
    False: without the language each command was given in either (``Issued.lang``), to
    hold a game typed in Italian against its English."""
    game = Game.open(path, writable=False)
    out = []
    for line in game.log_lines(role="referee"):
        data = msgspec.to_builtins(line.event)
        for chance in ("at", "salt", "digest", *(() if languages else ("lang",))):
            data.pop(chance, None)
        out.append(data)
    return out


#: A commitment's digest as the log (its first 16 hex digits) or the details (all 64) show it.
_DIGEST = re.compile(r"\b[0-9a-f]{16}(?:[0-9a-f]{48})?\b")


def without_digests(text: str) -> str:
    """``text`` with every commitment's digest blanked: a digest hashes a secret random
    salt, so two games that differ only by their salts (or by a hidden value under a
    fixed salt) differ there, and nowhere else it tells anything."""
    return _DIGEST.sub("<digest>", text)


@dataclass(frozen=True)
class RecordedGame:
    """``saves/NAME.ft``, made by ``saves/NAME.script`` with ``seed`` under ``ruleset``."""

    name: str
    ruleset: str
    seed: int

    @property
    def script(self) -> Path:
        return SAVES / f"{self.name}.script"

    @property
    def save(self) -> Path:
        return SAVES / f"{self.name}.ft"

    def command(self) -> str:
        """How the committed save is made again."""
        return (
            f"rm saves/{self.name}.ft && fireteam script saves/{self.name}.script "
            f"--save saves/{self.name}.ft --seed {self.seed} --ruleset {self.ruleset}"
        )

    def regenerate(self, folder: Path) -> Path:
        """The save the script makes now, written in ``folder``."""
        save = folder / self.save.name
        assert run_script(self.script, save, self.seed, self.ruleset, "", out=io.StringIO()) == 0
        return save

    def assert_regenerates(self, folder: Path) -> None:
        """A change to what any command records changes the game: regenerate the save
        (and read its log) when this fails."""
        fresh = self.regenerate(folder)
        assert effective_facts(fresh) == effective_facts(self.save), f"{self.save.name} is stale: {self.command()}"


def recorded_games() -> list[RecordedGame]:
    """Every recorded game in ``saves/``, its ruleset and seed read from its save's header."""
    games = []
    for script in sorted(SAVES.glob("*.script")):
        header = Game.open(script.with_suffix(".ft"), writable=False).header
        games.append(RecordedGame(script.stem, header.ruleset, header.seed))
    return games


@dataclass(frozen=True)
class Asked:
    """One request for dice made while a script was played with table dice."""

    line: str
    role: str
    command: str
    request: DiceRequest
    #: The command's number in the file, once given (the one its rolls are recorded in).
    cmd: int = 0


def play_with_table_dice(game: RecordedGame, folder: Path) -> tuple[Game, list[Asked]]:
    """Play ``game``'s script as a referee with real dice would: every command is given
    no faces, and each request is answered with the faces the seeded dice would have
    shown, so the game is the recorded one.  A roll every face of which passes is one the
    game would draw rather than ask (ruling CORE-CERTAIN): its seeded faces are typed ahead,
    with those before it, so that it is the recorded one too (:func:`typed_ahead`).
    Returns the game (open) and every request."""
    g = Game.new(folder / game.save.name, game.ruleset, seed=game.seed)
    recorded = Game.open(game.save, writable=False)
    asked = []
    try:
        for raw in script_lines(game.script.read_text()):
            text = _COMMENT.sub("", raw).strip()
            if not text:
                continue
            role = "referee"
            if text.startswith("@"):
                role, _, text = text[1:].partition(" ")
            cmd = g.history.next_cmd
            rolls = [e.roll for e in recorded.history.group(cmd) if isinstance(e, ev.Rolled)]
            seeded = SeededDice(game.seed, cmd)
            faces: list[int] = []
            answers: list[str] = []
            made = _ahead(seeded, rolls, 0, faces)
            while True:
                try:
                    g.execute(text, role=role, faces=None if "dice=" in text else faces, answers=answers)
                    break
                except NeedDice as need:
                    asked.append(Asked(text, role, g.parse(text, role).spec.name, need.request, cmd))
                    faces += seeded.roll(need.count, need.sides)
                    if need.request.purpose != "deck shuffle":  # (a deck's shuffle records no roll)
                        made = _ahead(seeded, rolls, made + 1, faces)
                except NeedAnswer as need:
                    answers.append(_as_recorded(g, need.question))
    finally:
        recorded.close()
    return g, asked


def typed_ahead(roll: ev.Roll) -> bool:
    """Whether :func:`play_with_table_dice` types ``roll``'s faces ahead: every face passes it,
    so a table that types its dice is not asked for it (ruling CORE-CERTAIN)."""
    return certain(roll.check, len(roll.faces), roll.sides) is True


def _ahead(seeded: SeededDice, rolls: list[ev.Roll], made: int, faces: list[int]) -> int:
    """The seeded faces of the rolls from ``made`` on that are :func:`typed_ahead`, put after
    ``faces``; the number of the command's rolls given faces so far."""
    while made < len(rolls) and typed_ahead(rolls[made]):
        faces += seeded.roll(len(rolls[made].faces), rolls[made].sides)
        made += 1
    return made


def _as_recorded(g: Game, question: Question) -> str:
    """The answer that plays a question as the recorded game decided it: a question's
    default, or, for the card a table drew (Linea di Tiro), the game's own deck's next."""
    if question.default:
        return question.default
    order, drawn = turn.game_order(g.state), g.state.vars["deck.drawn"]
    assert order[drawn] in question.choices, question
    return order[drawn]


def worded(save: Path) -> list:
    """The words the events of a save carry: each roll's purpose, outcome and modifiers, why a
    unit is out, how one moved, how the game ended (a Msg each where a catalogue has it)."""
    words = []
    for line in Game.open(save, writable=False).log_lines(role="referee"):
        match line.event:
            case ev.Rolled(roll=r):
                words += [r.purpose, r.outcome, *(m.label for m in r.mods)]
            case ev.UnitOut(cause=said) | ev.GameEnded(result=said):
                words.append(said)
            case ev.Moved(how=how) if how:
                words.append(how)
    return words
