"""``fireteam --plain``, run as a user runs it: at a terminal (a pseudo-terminal the test types
into), through pipes (a script, a bot), and on a first run outside a checkout."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lines_support import DEMO_SAVE, demo_game, problems_of

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE

pytestmark = pytest.mark.subprocess

FIRETEAM = Path(sys.executable).with_name("fireteam")
#: A safety net, not a speed goal: each wait ends as soon as what it waits for is there.
WAIT_S = 60.0


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The command's environment: its data, settings and state in the test's folder (the XDG
    folders, as a user's: no FIRETEAM_*_DIR), English."""
    dropped = ("NO_COLOR", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")
    env = {k: v for k, v in os.environ.items() if k not in dropped and k != "FIRETEAM_DATA_DIR"}
    env = {k: v for k, v in env.items() if k not in ("FIRETEAM_CONFIG_DIR", "FIRETEAM_STATE_DIR")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="xterm-256color")
    env.update(XDG_STATE_HOME=str(tmp_path / "state"))
    env.update(extra)
    return env


def run(tmp_path: Path, *args: str, text: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``fireteam args`` to its end, ``text`` its input, in the test's :func:`environment`."""
    return subprocess.run(
        [str(FIRETEAM), *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment(tmp_path),
        timeout=120,
    )


class Terminal:
    """``fireteam`` on a pseudo-terminal: what it writes is kept as bytes, keys are typed into it."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path) -> None:
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [str(FIRETEAM), *args], stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
        )
        os.close(slave)
        self.fd = master
        self.out = b""

    def _read(self, timeout: float) -> bool:
        poller = select.poll()  # (not select: it refuses a descriptor past 1023, which a long run reaches)
        poller.register(self.fd, select.POLLIN)
        if not poller.poll(timeout * 1000):
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the other end closed: the command has ended
            return False
        self.out += data
        return bool(data)

    def wait_for(self, text: str, *, last: bool = False) -> None:
        """Until ``text`` is written (``last``: until it is the last thing written, as a prompt
        waiting for a line is: keys typed before readline reads them would meet a cooked terminal)."""
        deadline = time.monotonic() + WAIT_S
        while not (self.out.endswith(text.encode()) if last else text.encode() in self.out):
            if time.monotonic() > deadline or not self._read(0.1):
                raise AssertionError(f"{text!r} never came; got:\n{self.out.decode(errors='replace')}")

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def line(self, text: str, answer: str, prompt: str = "referee> ") -> None:
        """Type ``text`` and Enter once the prompt is up; wait for ``answer`` and the next prompt."""
        self.wait_for(prompt, last=True)
        self.type(text + "\r")
        self.wait_for(answer)
        self.wait_for(prompt, last=True)

    def ended(self) -> int:
        """The exit status, once the command has ended (what it writes as it ends is kept)."""
        deadline = time.monotonic() + WAIT_S
        while self.proc.poll() is None or self._read(0):
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError(f"it never ended; got:\n{self.out.decode(errors='replace')}")
            if not self._read(0.1) and self.proc.poll() is not None:
                break
        os.close(self.fd)
        return self.proc.wait()

    def lines(self) -> list[str]:
        return self.out.decode().replace("\r\n", "\n").split("\n")


@pytest.fixture
def save(tmp_path) -> Path:
    path = tmp_path / "game.ft"
    path.write_bytes(DEMO_SAVE.read_bytes())
    return path


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}], ids=["NO_COLOR", "TERM=dumb"])
def test_at_a_terminal_only_lines_a_note_lands_in_the_save_and_ctrl_d_ends(tmp_path, save, env):
    term = Terminal(["--plain", str(save)], environment(tmp_path, **env), tmp_path)
    term.line("note hello from a terminal", "Note: hello from a terminal.")
    term.line("nxet", "did you mean next?")
    term.line("roster", "Market trader: no status; civilian.")
    # Every pane one word away, each answer whole sentences (checked below with the rest).
    term.line("phase", "The phases of a turn, in order:")
    term.line("who rossi", "Sgt Rossi (rossi) is a Veteran of Bersaglieri, team Alpha.")
    term.line("log 3", "The last 3 lines of the log, of")
    term.line("dice", "Last roll: Points cancelled.")
    term.line("odds fire rossi ahmed range=30", "cannot be given now: fire is not allowed in the ended phase")
    term.line("help", "help COMMAND tells one in full")
    term.type("\x04")  # Ctrl+D
    assert term.ended() == 0
    assert b"\x1b" not in term.out  # no colour, no cursor movement, no alternate screen
    said = [line for line in term.lines() if line and not line.startswith("referee> ")]
    assert problems_of(said) == []
    assert "Refused: no command 'nxet'; did you mean next?" in said
    game = Game.open(save, writable=False)
    notes = [e.text for e in game.history.store.slice(0, game.log_length) if isinstance(e, ev.Noted)]
    assert notes[-1] == "hello from a terminal"


def test_at_a_colour_terminal_the_outcomes_and_refusals_are_coloured(tmp_path, save):
    # The other side of the test above: without NO_COLOR the same words are coloured.
    term = Terminal(["--plain", str(save)], environment(tmp_path), tmp_path)
    term.line("nxet", "did you mean next?")
    term.type("quit\r")
    assert term.ended() == 0
    assert b"\x1b[1;31mRefused:\x1b[0m no command 'nxet'" in term.out
    escapes = {part.split(b"m", 1)[0] for part in term.out.split(b"\x1b[")[1:]}
    assert escapes <= {b"0", b"1", b"1;31", b"1;32"}  # colours only, never a cursor movement


def test_the_arrows_recall_what_was_typed_and_tab_completes(tmp_path, save):
    term = Terminal(["--plain", str(save)], environment(tmp_path, NO_COLOR="1"), tmp_path)
    term.wait_for("referee> ", last=True)
    term.type("not\t")  # completed to "note "
    term.wait_for("note ", last=True)
    term.type("first\r")
    term.wait_for("Note: first.")
    term.wait_for("referee> ", last=True)
    term.type("\x1b[A")  # ↑: the same line again
    term.wait_for("referee> note first", last=True)
    term.type("\r")
    term.wait_for("referee> ", last=True)
    term.type("log 2\r")  # its own command is not said back: the log numbers it
    term.wait_for("#93 referee: note first.")
    term.wait_for("referee> ", last=True)
    term.type("\x04")
    assert term.ended() == 0


def test_tab_at_the_table_dice_prompt_offers_no_words(tmp_path):
    """Faces are all the prompt takes: Tab there listed the reading words, each refused."""
    term = Terminal(["--plain", "--demo"], environment(tmp_path, NO_COLOR="1"), tmp_path)
    term.line("table-dice on", "Table dice on")
    term.type("next\r")
    term.wait_for("Type 1 die: ", last=True)
    term.type("\t\t")
    term.type("3\r")
    term.wait_for("3: Regular marker 3 becomes a main objective too")  # the 3 taken, nothing else typed
    term.type("quit\r")
    assert term.ended() == 0
    after = term.out.split(b"secret objective die", 1)[1]
    assert b"status" not in after and b"roster" not in after


def test_through_pipes_lines_in_lines_out_and_questions_on_their_own_line(tmp_path, save):
    done = run(tmp_path, "--plain", str(save), text="note from a pipe\nundo\ny\nlog 2\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "\x1b" not in done.stdout and "referee> " not in done.stdout  # no colour and no prompt for a bot
    assert problems_of(lines) == []
    assert "Undo #92 note from a pipe? y or n:" in lines
    at = lines.index("Undo #92 note from a pipe? y or n:")
    assert lines[at + 1] == "Referee undid command #92: note from a pipe."
    rows = Game.open(save, writable=False).log_length  # the recorded game's lines, the note and the undo
    assert lines[-3:] == [
        f"The last 2 lines of the log, of {rows:,}, oldest first:",
        "Undone: Note: from a pipe.",
        "Referee undid command #92: note from a pipe.",
    ]
    assert Game.open(save, writable=False).history.eff_cmds[-1] != 92


def test_verbose_is_kept_in_the_settings_for_the_next_session(tmp_path, save):
    def plain(lines: str) -> list[str]:
        done = run(tmp_path, "--plain", str(save), text=lines)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    settings = tmp_path / "config" / "fireteam" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"theme": "club-night", "table_dice": true}')
    assert "Verbose: rolls are asked and said back in full." in plain("verbose on\n")
    assert '"plain_verbose": true' in settings.read_text() and '"theme": "club-night"' in settings.read_text()
    assert plain("verbose\n")[-1] == "Verbose: rolls are asked and said back in full."  # the next session
    plain("verbose off\n")
    assert plain("verbose\n")[-1].startswith("Brief: ")


def test_a_line_over_the_limit_is_refused_and_the_next_one_read(tmp_path, save):
    done = run(tmp_path, "--plain", str(save), text="note " + "x" * 100_000 + "\nnote after\n")
    lines = done.stdout.splitlines()
    assert any(line.startswith("Refused: a line of more than ") for line in lines)
    assert lines[-1] == "Note: after."


def test_the_line_client_starts_without_textual(tmp_path, save):
    code = (
        "import sys\n"
        "from tui.main import main\n"
        f"main(['--plain', {str(save)!r}])\n"
        "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input="status\n", capture_output=True, text=True, env=environment(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_first_run_outside_a_checkout_starts_a_demo_game_in_the_data_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    done = run(tmp_path, "--plain", "--demo", text="status\n", cwd=home)
    assert done.returncode == 0, done.stderr
    assert list(home.iterdir()) == []  # no saves/ made in the user's folder
    saves = tmp_path / "data" / "fireteam" / "saves"
    (made,) = saves.glob("demo-*.ft")
    assert done.stdout.splitlines()[0] == f"A new demo game, saved in {made}."
    assert Game.open(made, writable=False).state.scenario == "Checkpoint at Afgooye"


def test_a_big_save_is_announced_in_one_line_not_a_spinner(tmp_path, save, monkeypatch, capsys):
    # A save that takes seconds to read is said once, before; nothing is redrawn while it loads.
    from tui.lines import terminal

    monkeypatch.setattr(terminal, "SLOW_OPEN_BYTES", 1000)  # the demo save is bigger
    game, read_only = terminal._open(save, replay=False)
    game.close()
    out = capsys.readouterr().out
    assert out == f"Reading {save}, {save.stat().st_size:,} bytes: it takes a few seconds.\n"
    assert read_only == ""


def test_a_second_tab_lists_the_candidates_in_the_games_order(tmp_path):
    """Readline lists what Tab offers sorted: ``fire`` listed ``aimed`` among the militia's
    names, and a civilian with no weapon among those who may fire. The game's order is
    kept: the active side's figures fire refuses last (the civilians, Faysal off the
    table), then the other side's, then the options; row by row."""
    game = demo_game(tmp_path / "game.ft")
    game.execute("next", role=REFEREE)  # the set-up as it stands
    game.execute("next dice=1,1,6,6", role=REFEREE)  # the militia active
    game.close()
    term = Terminal(["--plain", str(tmp_path / "game.ft")], environment(tmp_path, NO_COLOR="1"), tmp_path)
    term.wait_for("referee> ", last=True)
    term.type("fire \t\t")
    term.wait_for("flank")  # the last of the options
    term.wait_for("referee> fire ", last=True)
    listed = term.out.decode().rsplit("referee> fire ", 2)[-2].replace("\a", "")  # less the bell
    entries = [e.strip() for e in re.split(r" {2,}|\r?\n", listed) if e.strip()]  # cells two spaces apart
    ids = [e.split()[0] for e in entries]
    assert ids[:9] == ["aden", "ahmed", "bashir", "dahir", "egal", "faysal", "civ1", "civ2", "rossi"]
    assert ids[-5:] == ["aimed", "burst", "cover", "lone", "flank"]
    # each figure said with its name beside the id Tab would type, as the client's command line says it
    assert entries[:2] == ["aden (Aden Farah)", "ahmed (Ahmed Noor)"] and "flank" in entries
    term.type("\x15\x04")
    assert term.ended() == 0


def test_a_dumb_terminal_gets_the_plain_lines_and_a_line_saying_so(tmp_path):
    """``TERM=dumb`` (Emacs's shell, a serial console) cannot draw the screen: the client gives the
    plain lines, as ``--plain`` does, and says so in one line on its standard error."""
    env = environment(tmp_path, TERM="dumb")
    done = subprocess.run(
        [str(FIRETEAM), "--demo"], input="status\n", capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "fireteam: TERM=dumb cannot show the screen: plain lines instead (--plain)\n"
    assert done.stdout.startswith("A new demo game, saved in ") and "\x1b[" not in done.stdout  # no screen drawn
    assert "Checkpoint at Afgooye" in done.stdout  # status answered
