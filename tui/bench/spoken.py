"""``fireteam bench --spoken``: how long a plain seat's answers take to hear (issues #61, #91).

Each answer as a plain seat (``tui.lines``) says it, in English and in Italian, read by eSpeak NG
at its default rate into a WAV on its standard output; its seconds are its data's bytes over the
byte rate its header gives (22,050 samples a second of 16 bits, one channel: 44,100).  Where
eSpeak NG is not installed, the seconds ``tui.lines.heard`` estimates, said to be estimates.

* ``fire``: a new Breaking News demo game, the Bersaglieri's seat with the table's dice,
  ``fire greco aden range=20``, faces 6 then 2 (a hit, a save with the team leader's +1 failed):
  both questions with their prompts, and the result;
* ``why``: ``why`` right after that fire (its last roll, the save);
* ``ask``: ``? fire bianchi ahmed range=35`` at the same seat (four dice of a light machine gun);
* ``rule``: ``rule? how far does an assault rifle reach`` (``regola? fin dove arriva un fucile
  d'assalto``); ``rule_longest``: the longest first answer of the tuned question set's
  (``tests/data/rule_questions/rule_questions.toml``) of that language, each asked at a seat of
  its ruleset reading its language (found by the estimate, then read by eSpeak NG);
* ``end``: the recorded demo game's end (the referee's last ``next``) as the Bersaglieri's seat
  hears it, each side's player seated by an invitation;
* ``confirm``: then each side's ``confirm`` at its seat, as the longest of the other seats hears it.

The target: each under :data:`TARGET_S` in both languages.  What an answer leaves out is said by
``more`` (docs/client.md); the figures are the first answer, what a player hears unless he asks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from core.explain.rulewords import language_of
from core.game import Game
from core.language.reader import Reader, reading
from core.log.views import REFEREE
from tui.i18n import pgettext
from tui.lines import heard
from tui.lines.client import LineClient

#: Before the fire, the referee's: the game into its first activation (the set-up's rolls by the game),
#: then the table's dice.
SET_UP = ("next", "next", "table-dice on")
#: The seat that fires and asks.
SEAT = "regulars"
#: The fire, and the faces typed at its two questions.
FIRE = ("fire greco aden range=20", "6", "2")
#: ``?`` before a fire, as issue #91 timed it, in each language.
ASK = {"en": "? fire bianchi ahmed range=35", "it": "? spara bianchi ahmed distanza=35"}
#: ``why`` in each language.
WHY = {"en": "why", "it": "perché"}
#: A rules question a player asks, in each language.
RULE = {"en": "rule? how far does an assault rifle reach", "it": "regola? fin dove arriva un fucile d'assalto"}
#: The tuned question set, every first answer of which is estimated.
QUESTIONS = Path(__file__).resolve().parents[2] / "tests" / "data" / "rule_questions" / "rule_questions.toml"
#: The recorded demo game, played to its end.
DEMO_SAVE = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"
#: Each side's player, seated by an invitation (a confirmation counts only at a seat bound to its player).
PLAYERS = {"regulars": "anna", "irregulars": "bruno"}
#: The target: every answer heard in under this, in each language.
TARGET_S = 30.0
LANGS = ("en", "it")


class Seat:
    """A plain seat of ``game`` writing into a list of lines."""

    def __init__(self, game: Game, role: str, lang: str, seat: str = "") -> None:
        self.out: list[str] = []
        self.client = LineClient(game, role=role, seat=seat, reader=Reader(lang), write=self._write)
        self.client.start()

    def _write(self, text: str) -> None:
        self.out.extend(text.removesuffix("\n").split("\n"))

    def word(self, key: str) -> str:
        """The client's or the game's command ``key`` as this seat's player types it."""
        with reading(self.client.reader):
            return pgettext("command", key)

    def say(self, line: str) -> list[str]:
        """Feed ``line``: what the seat answers, its next question's prompt included."""
        before = len(self.out)
        self.client.feed(line)
        said = self.out[before:]
        return said + [self.client.prompt.strip()] if self.client.asking else said


@contextmanager
def demo(lang: str) -> Iterator[Seat]:
    """The Bersaglieri's plain seat at a new demo game in its first activation, the table's dice on."""
    with tempfile.TemporaryDirectory(prefix="fireteam-spoken-") as folder:
        game = Game.new(Path(folder) / "fire.ft", "breaking-news", seed=7)
        try:
            game.execute("scenario demo", role=REFEREE)
            seat = Seat(game, SEAT, lang)
            for line in SET_UP:
                game.execute(line, role=REFEREE)
            yield seat
        finally:
            game.close()


def heard_fire(seat: Seat) -> list[str]:
    """What ``seat`` hears of the fire (see the module's doc)."""
    return [line for typed in FIRE for line in seat.say(typed)]


def fire(lang: str) -> list[str]:
    with demo(lang) as seat:
        return heard_fire(seat)


def why(lang: str) -> list[str]:
    with demo(lang) as seat:
        heard_fire(seat)
        return seat.say(WHY[lang])


def ask(lang: str) -> list[str]:
    with demo(lang) as seat:
        return seat.say(ASK[lang])


def rule(lang: str) -> list[str]:
    with demo(lang) as seat:
        return seat.say(RULE[lang])


def rule_answers(lang: str) -> list[list[str]]:
    """The first answer to each question of the tuned set in ``lang``, at a seat of its ruleset."""
    questions = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"]
    said: list[list[str]] = []
    with tempfile.TemporaryDirectory(prefix="fireteam-spoken-") as folder:
        for name in dict.fromkeys(q["ruleset"] for q in questions):
            game = Game.new(Path(folder) / f"{name}.ft", name, seed=7)
            try:
                seat = Seat(game, REFEREE, lang)
                word = seat.word("rule?")
                asked = (q["text"] for q in questions if q["ruleset"] == name and language_of(q["text"]) == lang)
                said += [seat.say(f"{word} {text}") for text in asked]
            finally:
                game.close()
    return said


def rule_longest(lang: str) -> list[str]:
    return max(rule_answers(lang), key=lambda lines: heard.seconds(lines, lang))


@contextmanager
def ended(lang: str) -> Iterator[tuple[Game, dict[str, Seat]]]:
    """The recorded demo game just before its end, each side's player seated by an invitation, a
    plain seat for the referee and each side."""
    with tempfile.TemporaryDirectory(prefix="fireteam-spoken-") as folder:
        shutil.copyfile(DEMO_SAVE, Path(folder) / "demo.ft")
        game = Game.open(Path(folder) / "demo.ft")
        try:
            game.undo(role=REFEREE, by=REFEREE)
            for side, name in PLAYERS.items():
                game.execute(f"players {side}={name} via=invitation", role=REFEREE)
            seats = {role: Seat(game, role, lang, PLAYERS.get(role, "")) for role in (REFEREE, *PLAYERS)}
            yield game, seats
        finally:
            game.close()


def _news(seat: Seat, since: int) -> list[str]:
    return seat.out[since:]


def end(lang: str) -> list[str]:
    with ended(lang) as (_game, seats):
        side = seats[SEAT]
        before = len(side.out)
        seats[REFEREE].say(seats[REFEREE].word("next"))
        return _news(side, before)


def confirm(lang: str) -> list[str]:
    """The longest that another seat hears of a side's ``confirm``, of both sides' and both other seats'."""
    with ended(lang) as (_game, seats):
        seats[REFEREE].say(seats[REFEREE].word("next"))
        heard_of: list[list[str]] = []
        for side in PLAYERS:
            before = {role: len(seat.out) for role, seat in seats.items()}
            seats[side].say(seats[side].word("confirm"))
            heard_of += [_news(seat, before[role]) for role, seat in seats.items() if role != side]
        return max(heard_of, key=lambda lines: heard.seconds(lines, lang))


#: Each answer timed, by its name in the figures.
ANSWERS: dict[str, Callable[[str], list[str]]] = {
    "fire": fire,
    "why": why,
    "ask": ask,
    "rule": rule,
    "rule_longest": rule_longest,
    "end": end,
    "confirm": confirm,
}


def spoken_seconds(text: str, lang: str) -> float | None:
    """``text`` read by eSpeak NG at its default rate, in seconds (None: eSpeak NG is not installed)."""
    espeak = shutil.which("espeak-ng") or shutil.which("espeak")
    if espeak is None:
        return None
    wav = subprocess.run([espeak, "-v", lang, "--stdout"], input=text.encode(), capture_output=True, check=True)
    return wav_seconds(wav.stdout)


def wav_seconds(wav: bytes) -> float:
    """A canonical WAV's length: its data's bytes (after the 44 of its header) over the byte rate its
    header gives (eSpeak NG writes its data's size as unknown, so the bytes are counted)."""
    byte_rate = int.from_bytes(wav[28:32], "little")
    return (len(wav) - 44) / byte_rate


def run_spoken_bench(*, as_json: bool = False) -> int:
    """Print each answer's words and seconds; 0 if each was measured under the target."""
    figures: dict[str, object] = {}
    measured = True
    for name, answer in ANSWERS.items():
        for lang in LANGS:
            lines = answer(lang)
            text = "\n".join(lines)
            seconds = spoken_seconds(text, lang)
            measured = measured and seconds is not None
            figures[f"{name}_{lang}_words"] = len(text.split())
            figures[f"{name}_{lang}_estimated_s"] = round(heard.seconds(lines, lang), 1)
            figures[f"{name}_{lang}_s"] = None if seconds is None else round(seconds, 1)
    times = [figures[f"{name}_{lang}_s"] for name in ANSWERS for lang in LANGS]
    met = measured and all(isinstance(s, float) and s < TARGET_S for s in times)  # unmeasured: not met
    figures["targets_met"] = met
    if as_json:
        print(json.dumps(figures))
    else:
        print("A plain seat's answers, at eSpeak NG's default rate (estimated: tui.lines.heard):")
        for name in ANSWERS:
            for lang in LANGS:
                measured_s = figures[f"{name}_{lang}_s"]
                said = "eSpeak NG not installed" if measured_s is None else f"{measured_s} s"
                words, estimated = figures[f"{name}_{lang}_words"], figures[f"{name}_{lang}_estimated_s"]
                print(f"  {name:13} {lang} {words:4} words  {said:>8}  (estimated {estimated} s)")
        print(f"target: each under {TARGET_S:g} s in each language: {'met' if met else 'MISSED'}")
    return 0 if met else 1
