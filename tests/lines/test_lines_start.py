"""``fireteam --plain`` with no save (issue #49): the last games and a new game of any ruleset's
scenario, as lines; "No games yet" only when there are none."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_lines_terminal import run

from core.game import Game

pytestmark = pytest.mark.subprocess

SAVES = Path(__file__).resolve().parents[2] / "saves"


def plain(tmp_path: Path, text: str, *options: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return run(tmp_path, "--plain", *options, text=text, cwd=home)


def data_saves(tmp_path: Path) -> Path:
    return tmp_path / "data" / "fireteam" / "saves"


def test_with_no_game_it_says_so_and_demo_starts_one(tmp_path):
    done = plain(tmp_path, "demo\nstatus\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("No games yet: new starts one of any ruleset")
    assert len(list(data_saves(tmp_path).glob("demo-*.ft"))) == 1
    assert any(line.startswith("You are the referee, at Breaking News 1.5.1, scenario Checkpoint") for line in lines)


def test_the_games_in_the_data_folder_are_listed_and_a_number_plays_one(tmp_path):
    saves = data_saves(tmp_path)
    saves.mkdir(parents=True)
    shutil.copyfile(SAVES / "demo-game.ft", saves / "older.ft")
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", saves / "newer.ft")
    os.utime(saves / "older.ft", (1_000, 1_000))
    done = plain(tmp_path, "3\nreplay 2\nnote no\n", "--bot")
    assert done.returncode == 0, done.stderr
    assert "No games yet" not in done.stdout
    lines = done.stdout.splitlines()
    at = lines.index("The last games, the most recent first:")
    # who won and the scores, from the end's data
    won = "ended: US 30th Infantry won (US 30th Infantry 0, Rearguard 2)."
    assert lines[at + 1] == f"1. newer.ft: Linea di Tiro, Night at the Vire bridge, {won}"
    won = "ended: Somali militia won (Bersaglieri 30, Somali militia 20)."
    assert lines[at + 2] == f"2. older.ft: Breaking News, Checkpoint at Afgooye, {won}"
    assert "Refused: no game 3: the games are numbered 1 to 2." in lines
    assert "The save is older.ft." in lines
    assert any(line.startswith("Refused: read-only: replay") for line in lines)  # replay 2: nothing written


def test_new_starts_any_ruleset_s_scenario(tmp_path):
    done = plain(tmp_path, "new\n", "--json")
    listed = json.loads(done.stdout.splitlines()[1])["lines"]
    rulesets = [line.split(". ", 1)[1] for line in listed[1:]]
    assert rulesets[:2] == ["Bassa Intensità 1.9.", "Breaking News 1.5.1."] and "Linea di Tiro 1.0." in rulesets
    ldt = rulesets.index("Linea di Tiro 1.0.") + 1
    done = plain(tmp_path, f"new\n{ldt}\n2\nstatus\n", "--json", "--strict")
    assert done.returncode == 0, done.stdout
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[2]["lines"][0] == "The scenarios of Linea di Tiro:"
    assert answers[3]["lines"][0].startswith("A new game of Night at the Vire bridge, saved in ")
    (made,) = data_saves(tmp_path).glob("linea-di-tiro-*.ft")
    game = Game.open(made, writable=False)
    assert game.ruleset.name == "Linea di Tiro" and game.state.scenario == "Night at the Vire bridge"
    game.close()


def test_an_empty_line_goes_back_from_the_rulesets_and_quit_leaves(tmp_path):
    done = plain(tmp_path, "new\n\n9\nquit\n", "--json", "--strict")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[2]["lines"][0].startswith("No games yet")  # back to the games
    assert answers[3]["refused"] is True  # 9: no such game
    assert done.returncode == 1  # --strict: a line was refused
    assert not data_saves(tmp_path).exists() or not list(data_saves(tmp_path).iterdir())


def test_the_italian_draft_is_named_in_words_in_the_list_and_in_the_game(tmp_path):
    """#48: the variant it-2009-12-09 is the Italian draft, said so, never by its id nor as the English book."""
    done = plain(tmp_path, "new\n", "--json")
    rulesets = [line.split(". ", 1)[1] for line in json.loads(done.stdout.splitlines()[1])["lines"][1:]]
    draft = "Breaking News, Italian draft of 9 December 2009."  # #61: not the English book's 1.5.1
    assert draft in rulesets and not any("it-2009-12-09" in r for r in rulesets)
    done = plain(tmp_path, f"new\n{rulesets.index(draft) + 1}\n1\nstatus\n", "--json", "--strict")
    assert done.returncode == 0, done.stdout
    said = [line for answer in map(json.loads, done.stdout.splitlines()) for line in answer["lines"]]
    assert any(line.startswith("You are the referee, at Breaking News, Italian draft of 9") for line in said)


def test_in_italian_the_start_says_its_words_in_italian_and_takes_them_and_the_english(tmp_path):
    done = plain(tmp_path, "elenco\nnuova\n2\n1\nesci\n", "--lang", "it")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "Fireteam, in righe semplici. Scegli una partita: scrivi il suo numero, oppure nuova, demo, apri FILE, esci."
    )
    assert lines[1].startswith("Ancora nessuna partita: nuova ne inizia una di qualsiasi regolamento")
    assert lines.count(lines[1]) == 2  # elenco: the list again
    assert "I regolamenti (una riga vuota o esci torna indietro):" in lines
    (made,) = data_saves(tmp_path).glob("*.ft")  # nuova, Breaking News, its first scenario
    game = Game.open(made, writable=False)
    assert game.ruleset.name == "Breaking News"
    game.close()
    done = plain(tmp_path, "new\n\nfoo\nquit\n", "--lang", "it")
    lines = done.stdout.splitlines()
    assert "I regolamenti (una riga vuota o esci torna indietro):" in lines  # new, in English, taken too
    assert "Rifiutato: scrivi il numero di una partita, rileggi N, nuova, demo, apri FILE, elenco o esci." in lines
