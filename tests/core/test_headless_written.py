"""Issue #90, point 9: ``verify --json`` with its standard output closed (``>&-``) gave a traceback.

Each headless command that says what it found or made (``verify``, ``export``, ``certify``,
``league add``) is run as a shell runs it, its output closed from the start, and to a pipe whose
reader has gone: no traceback, and the status of output not written whole (``UNWRITTEN``), said on
standard error. Their honest control, the same command to a file, exits 0.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import run_script
from core.cli.output import UNWRITTEN
from core.league import certificate, season
from tests.shared.keys import keygen, signer_line

pytestmark = pytest.mark.subprocess

FIRETEAM = Path(sys.executable).with_name("fireteam")


@pytest.fixture
def played(tmp_path: Path) -> Path:
    script, save = tmp_path / "g.script", tmp_path / "g.ft"
    script.write_text("scenario tanks\nplayers german=anna british=bruno\nnext\nvictory german held\n")
    assert run_script(script, save, 7, "ludonet", "", out=io.StringIO()) == 0
    return save


def _commands(save: Path) -> dict[str, list[str]]:
    folder = save.parent
    key = keygen(folder, "org")
    signers = folder / "allowed_signers"
    signers.write_text(signer_line(key, "org") + "\n")
    league = folder / "club.league"
    season.new(league, "Club", signers, "org", (3, 1, 0), key)
    cert = folder / "added.result"
    certificate.write(certificate.certify(save)[0], cert)
    return {
        "verify": ["verify", "--json", str(save)],
        "export": ["export", str(save), "--as", "german"],
        "certify": ["certify", str(save), "-o", str(folder / "{n}.result")],
        "league add": ["league", "add", str(league), str(save), str(cert)],
    }


def fireteam_to(out: Any, argv: list[str], **how: Any) -> subprocess.CompletedProcess[str]:
    """The installed ``fireteam`` run with ``argv``, its standard output to ``out`` (a file, a
    descriptor; None: this process's), its standard error kept."""
    return subprocess.run(
        [str(FIRETEAM), *argv], stdout=out, stderr=subprocess.PIPE, text=True, timeout=300, check=False, **how
    )


def _run(argv: list[str], how: str) -> subprocess.CompletedProcess[str]:
    """``argv`` run with its standard output closed from the start, or to a pipe nobody reads."""
    if how == "closed":
        closed = lambda: os.close(1)  # noqa: E731 (the shell's >&-, in the child before it runs)
        return fireteam_to(None, argv, preexec_fn=closed)
    read, write = os.pipe()
    os.close(read)  # the reader has gone: every write fails (EPIPE)
    try:
        return fireteam_to(write, argv)
    finally:
        os.close(write)


@pytest.mark.parametrize("how", ["closed", "broken pipe"])
def test_a_headless_commands_output_closed_or_broken_gives_no_traceback_and_its_own_status(played, how):
    for n, (name, argv) in enumerate(_commands(played).items()):
        done = _run([a.format(n=f"{how}-{n}") for a in argv], how)
        assert done.returncode == UNWRITTEN, (name, done.stderr)
        assert "Traceback" not in done.stderr, name
        assert f"fireteam {name}: what it prints could not be written whole" in done.stderr, name


def test_the_same_commands_to_a_file_exit_0(played, tmp_path):
    for n, (name, argv) in enumerate(_commands(played).items()):
        with open(tmp_path / f"out-{n}", "w") as out:
            done = fireteam_to(out, [a.format(n=n) for a in argv])
        assert done.returncode == 0, (name, done.stderr)
        assert (tmp_path / f"out-{n}").stat().st_size > 0


#: Commands whose output is all they do, and the version: to a full disk each gave a traceback.
SAID = [["--version"], ["paths"], ["log", "{save}"], ["replay", "{save}"], ["report", "{save}"]]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("argv", SAID, ids=lambda argv: argv[0])
def test_every_commands_output_to_a_full_disk_ends_without_a_traceback(played, argv):
    """Issue #90, point 9's ``league standings`` to a failing output, for every other command."""
    words = [a.format(save=played) for a in argv]
    with open("/dev/full", "w") as full:
        done = fireteam_to(full, words)
    assert done.returncode == UNWRITTEN, done.stderr
    assert "Traceback" not in done.stderr
    assert f"fireteam {argv[0]}: what it prints could not be written whole (No space left on device)" in done.stderr


@pytest.mark.parametrize("argv", SAID, ids=lambda argv: argv[0])
def test_the_same_commands_to_a_file_say_all_and_exit_0(played, tmp_path, argv):
    with open(tmp_path / "out", "w") as out:
        done = fireteam_to(out, [a.format(save=played) for a in argv])
    assert done.returncode == 0, done.stderr
    assert "could not be written" not in done.stderr and (tmp_path / "out").stat().st_size > 0
