"""``fireteam --help`` and ``fireteam --version`` (issue #26)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

import core
from core.cachedir import CACHE_DIR_ENV
from tui.main import _commands, _parser
from tui.main import main as fireteam

ROOT = Path(__file__).resolve().parents[2]


def test_help_shows_the_clients_usage_beside_the_subcommands(capsys):
    with pytest.raises(SystemExit) as done:
        fireteam(["--help"])
    assert done.value.code == 0
    said = capsys.readouterr().out
    assert "fireteam [SAVE] [--replay] [--as ROLE] [--lang LANG]" in said
    for option in ("--replay", "--as ROLE", "--demo", "--version"):
        assert option in said, option
    for command in ("script", "replay", "report", "serve"):  # and the subcommands still
        assert command in said, command


def test_version_answers_with_the_packages_version(capsys):
    for words in (["--version"], ["--lang", "it", "--version"], ["--lang=en", "--version"]):
        assert fireteam(words) == 0
        assert capsys.readouterr().out == f"fireteam {core.__version__}\n"


#: What ``fireteam --version`` and ``--help`` never import (issue #93: --version took 379 ms of CPU, the
#: engine and pygal): the engine, the report and its charts, the rulesets, the rules search, Textual.
NOT_FOR_VERSION_OR_HELP = ("core.game", "core.report", "pygal", "core.rulesets", "core.explain.rulesearch", "textual")


@pytest.mark.subprocess
@pytest.mark.parametrize("words", [["--version"], ["--help"], ["--lang", "it", "--help"]])
def test_version_and_help_import_no_engine(words):
    code = (
        "import contextlib, io, sys\n"
        "from tui.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    main({words!r})\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded = done.stdout.split()
    assert [m for m in loaded if m.split(".")[0] in ("core", "tui", "pygal", "textual")] != []  # it ran
    assert [m for m in loaded if m.startswith(NOT_FOR_VERSION_OR_HELP)] == []
    if words == ["--version"]:  # nothing of Fireteam's but the version and the --lang words
        assert {m for m in loaded if m.split(".")[0] in ("core", "tui")} == {
            "core", "core.language", "core.language.reader", "tui", "tui.main"
        }  # fmt: skip


#: What a command's start never imports unless it is that command's (issue #92: ``fireteam event pair
#: --help`` took 0.46 s of CPU building every command's options): the rulesets' registry and their base,
#: the SSH server's limits and asyncio, the league's commands, the client's words (Rich's text with them).
NOT_FOR_EVENT = ("core.registry", "core.ruleset", "asyncio", "tui.ssh", "core.league.cli", "tui.i18n", "rich")


@pytest.mark.subprocess
@pytest.mark.parametrize("words", [["event", "pair", "--help"], ["--lang", "it", "event", "pair", "--help"]])
def test_an_events_command_builds_and_imports_its_own_parser_alone(words):
    code = (
        "import contextlib, io, sys\n"
        "from tui.main import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        f"    main({words!r})\n"
        "print(' '.join(sorted(sys.modules)))\n"
        "print(out.getvalue().splitlines()[0])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded, usage = done.stdout.splitlines()[0].split(), done.stdout.splitlines()[1]
    assert usage.split(":")[1].startswith(" fireteam event pair ")  # it ran, and said the command's help (usage, uso)
    assert "core.event.cli" in loaded
    assert [m for m in loaded if m.startswith(NOT_FOR_EVENT)] == []


def _helps(parser: argparse.ArgumentParser, name: str = "fireteam") -> dict[str, str]:
    """Every parser's help under ``parser`` (the commands', their actions'), by its command line."""
    found = {name: parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, child in action.choices.items():
                found |= _helps(child, f"{name} {word}")
    return found


def test_a_command_built_alone_has_the_help_and_usage_it_has_among_all():
    every = _helps(_parser())
    for command in _commands():
        alone = _helps(_parser(command))
        top = alone.pop("fireteam")
        assert f"fireteam {command}" in alone, command
        # (its builder's siblings with it: replay and log are built together)
        assert alone == {line: every[line] for line in alone}, command
        assert {line for line in every if line.split()[1:2] == [command]} <= set(alone), command
        # the top a line naming the command can still show (an error's usage) is the whole parser's
        assert top.split("\n\n")[0] == every["fireteam"].split("\n\n")[0], command
    assert len(every) > 1 + len(_commands())  # (the actions of event, league, scenario counted too)


@pytest.mark.subprocess
def test_version_is_the_same_when_the_package_is_not_installed(tmp_path):
    # A source tree run with PYTHONPATH, no metadata: the version is still core's, written once.
    code = (
        "import importlib.metadata as m, sys\n"
        "def missing(name): raise m.PackageNotFoundError(name)\n"
        "m.version = missing\n"
        "from tui.main import main\n"
        "sys.exit(main(['--version']))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        # (and the test run's cache folder: the parser's commands read rule tables, kept there)
        env={"PYTHONPATH": str(ROOT), CACHE_DIR_ENV: os.environ[CACHE_DIR_ENV]},
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"fireteam {core.__version__}\n"


def test_a_mistyped_command_is_said_with_the_nearest_ones_not_opened_as_a_save(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert fireteam(["reprot"]) == 2
    assert capsys.readouterr().err == "fireteam: no command reprot; did you mean report, export?\n"
    assert fireteam(["nosuchcmd", "--plain"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fireteam: no command and no save nosuchcmd; the commands: script, replay, log,")
    assert list(tmp_path.iterdir()) == []  # nothing made, no demo game started


def test_a_file_by_a_command_like_name_is_opened_and_a_path_is_a_save(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reprot").write_text("not a save\n")
    assert fireteam(["reprot", "--plain"]) == 2  # opened as the save it names: and it is none
    assert "no command" not in capsys.readouterr().err
    assert fireteam(["nope.ft", "--plain"]) == 2
    assert "nope.ft: no such save" in capsys.readouterr().err


def test_serve_help_points_at_a_doc_that_is_there(capsys):
    with pytest.raises(SystemExit):
        fireteam(["serve", "--help"])
    said = capsys.readouterr().out
    docs = {line.split("(see ", 1)[1].split(",", 1)[0] for line in said.splitlines() if "(see " in line}
    assert len(docs) == 1 and Path(docs.pop()).is_file()  # installed (share/doc/fireteam) or the checkout's
