"""``fireteam --plain`` for programs (issue #49): each answer ends with a line holding a full stop
(``--bot``) or is one JSON object (``--json``); ``--strict`` exits 1 if a command was refused;
``status`` names the save, never the folder it was opened from."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_lines_terminal import run

from tui.lines.protocol import END

pytestmark = pytest.mark.subprocess

DEMO_SAVE = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


@pytest.fixture
def save(tmp_path) -> Path:
    path = tmp_path / "game.ft"
    path.write_bytes(DEMO_SAVE.read_bytes())
    return path.resolve()


def plain(tmp_path: Path, save: Path, text: str, *options: str) -> subprocess.CompletedProcess[str]:
    return run(tmp_path, "--plain", *options, str(save), text=text)


def answers(stdout: str) -> list[list[str]]:
    """The ``--bot`` output cut where each answer ends."""
    out: list[list[str]] = [[]]
    for line in stdout.splitlines():
        if line == END:
            out.append([])
        else:
            out[-1].append(line)
    assert out[-1] == [], "the output ends with an answer's end"
    return out[:-1]


def test_bot_ends_every_answer_with_a_full_stop_alone(tmp_path, save):
    done = plain(tmp_path, save, "note hi\n\nnxet\nundo\ny\nlog 1\n", "--bot")
    assert done.returncode == 0, done.stderr
    said = answers(done.stdout)
    assert len(said) == 7  # the start, then one for each line read
    assert said[0][0].startswith("Game over:")  # the recorded game has ended: its result first
    assert said[0][1].startswith("Fireteam, in plain lines.")
    assert said[1] == ["Note: hi."]
    assert said[2] == []  # an empty line: answered by nothing
    assert said[3] == ["Refused: no command 'nxet'; did you mean next?"]
    assert said[4][-1] == "Undo #92 note hi? y or n:"  # the question last
    assert said[5] == ["Referee undid command #92: note hi."]
    assert said[6][-1] == "Referee undid command #92: note hi."


def test_json_is_one_object_an_answer(tmp_path, save):
    done = plain(tmp_path, save, "note hi\nnxet\nundo\n", "--json")
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["kind"] for o in objects] == ["start", "answer", "answer", "answer", "end"]
    assert objects[1] == {"kind": "answer", "input": "note hi", "lines": ["Note: hi."]}
    assert objects[2]["refused"] is True and objects[2]["input"] == "nxet"
    assert objects[3]["question"] == "Undo #92 note hi? y or n:"
    assert objects[4]["lines"] == ["The question is dropped, the input ended: nothing was undone."]


def test_strict_exits_1_at_the_end_of_input_after_a_refusal_and_0_without_one(tmp_path, save):
    assert plain(tmp_path, save, "nxet\nstatus\n", "--strict").returncode == 1
    assert plain(tmp_path, save, "nxet\nstatus\n").returncode == 0
    assert plain(tmp_path, save, "note fine\nstatus\n", "--strict", "--bot").returncode == 0


def test_the_options_go_with_plain_only(tmp_path, save):
    done = run(tmp_path, "--bot", str(save))
    assert done.returncode == 2 and "go with --plain" in done.stderr


def test_status_names_the_save_not_the_folder_it_was_opened_from(tmp_path, save):
    done = plain(tmp_path, save, "status\n")
    assert "The save is game.ft." in done.stdout.splitlines()
    assert str(tmp_path) not in done.stdout
