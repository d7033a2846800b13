"""``fireteam bench --spoken``: how long a plain seat's typical fire takes to hear (issue #61).

A new Breaking News demo game, the Bersaglieri's plain seat (``tui.lines``) with the
table's dice: ``fire greco aden range=20``, its faces 6 then 2 (a hit, a save with the
team leader's +1 failed: the fire a club evening timed).  What the seat is told, both
questions with their prompts and the result, is counted in words and, where eSpeak NG is
installed, read by it at its default rate into a WAV on its standard output: 22,050
samples a second of 16 bits, one channel, so its seconds are its bytes / 44,100 (a header
of 44 bytes, left in).  Brief answers (the default) and verbose ones, in English and in
Italian; the target is a brief fire heard in under 30 s in both.

Where eSpeak NG is not at hand (the tests), :func:`estimated_seconds` counts words at
:data:`WORDS_PER_SECOND`: calibrated by reading brief transcripts with eSpeak NG, each
language's slowest rate, so the estimate errs long (this fire before issue #61's cuts:
English 58 words in 27.8 s, Italian 61 in 32.0 s; the fire ``rossi noor``: 47 in 24.6 s,
51 in 27.3 s).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from core.game import Game
from core.language.reader import Reader
from core.log.views import REFEREE
from tui.lines.client import LineClient

#: Before the fire, the referee's: the game into its first activation (the set-up's rolls by the game),
#: then the table's dice.
SET_UP = ("next", "next", "table-dice on")
#: The seat that fires.
SEAT = "regulars"
#: The fire, and the faces typed at its two questions.
FIRE = ("fire greco aden range=20", "6", "2")
#: eSpeak NG's WAV: 22,050 samples a second, 2 bytes each.
BYTES_PER_SECOND = 44_100
#: The target: a brief fire heard in under this, in each language.
TARGET_S = 30.0
#: eSpeak NG's default rate on brief answers, the slowest measured (see above): words a second.
WORDS_PER_SECOND = {"en": 1.9, "it": 1.85}


def estimated_seconds(text: str, lang: str) -> float:
    """``text`` read at eSpeak NG's default rate, estimated from its words (erring long)."""
    return len(text.split()) / WORDS_PER_SECOND[lang]


def heard_fire(client: LineClient, out: list[str]) -> list[str]:
    """What ``client`` (the Bersaglieri's seat or the referee's, writing its lines into ``out``)
    says of the fire, its prompts included, on a new demo game (set up by the referee, then the fire)."""
    for line in SET_UP:
        client.game.execute(line, role=REFEREE)
    heard: list[str] = []
    for typed in FIRE:
        before = len(out)
        client.feed(typed)
        heard += out[before:]
        if client.asking:
            heard.append(client.prompt.strip())
    return heard


def fire_transcript(lang: str, *, verbose: bool) -> list[str]:
    """The fire as the referee's plain seat hears it, in ``lang``."""
    out: list[str] = []

    def write(text: str) -> None:
        out.extend(text.removesuffix("\n").split("\n"))

    with tempfile.TemporaryDirectory(prefix="fireteam-spoken-") as folder:
        game = Game.new(Path(folder) / "fire.ft", "breaking-news", seed=7)
        try:
            game.execute("scenario demo", role=REFEREE)
            client = LineClient(game, role=SEAT, reader=Reader(lang), write=write, verbose=verbose)
            client.start()
            return heard_fire(client, out)
        finally:
            game.close()


def spoken_seconds(text: str, lang: str) -> float | None:
    """``text`` read by eSpeak NG at its default rate, in seconds (None: eSpeak NG is not installed)."""
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        return None
    wav = subprocess.run([espeak, "-v", lang, "--stdout"], input=text.encode(), capture_output=True, check=True)
    return len(wav.stdout) / BYTES_PER_SECOND


def run_spoken_bench(*, as_json: bool = False) -> int:
    """Print each transcript's words and seconds; 0 if every brief one was measured under the target."""
    figures: dict[str, float | None] = {}  # words (int), seconds (None: unmeasured), targets met (bool)
    for lang in ("en", "it"):
        for verbose in (False, True):
            text = "\n".join(fire_transcript(lang, verbose=verbose))
            seconds = spoken_seconds(text, lang)
            name = f"fire_{lang}_{'verbose' if verbose else 'brief'}"
            figures[f"{name}_words"] = len(text.split())
            figures[f"{name}_s"] = None if seconds is None else round(seconds, 1)
    briefs = [figures[f"fire_{lang}_brief_s"] for lang in ("en", "it")]
    met = all(seconds is not None and seconds < TARGET_S for seconds in briefs)  # unmeasured: not met
    figures["targets_met"] = met
    if as_json:
        print(json.dumps(figures))
    else:
        print("A fire with the table's dice, both questions and the result, at eSpeak NG's default rate:")
        for lang in ("en", "it"):
            for mode in ("brief", "verbose"):
                seconds = figures[f"fire_{lang}_{mode}_s"]
                said = "eSpeak NG not installed" if seconds is None else f"{seconds} s"
                print(f"  {lang} {mode:8} {figures[f'fire_{lang}_{mode}_words']:4} words  {said}")
        print(f"target: brief under {TARGET_S:g} s in each language: {'met' if met else 'MISSED'}")
    return 0 if met else 1
