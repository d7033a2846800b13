"""``fireteam bench --flood N``: what a flood of N typed characters costs the client.

A terminal that does not bracket a paste sends it as keys.  The bench starts
the ``fireteam`` command (its entry point, in a fresh ``python``) on the
demo save, copied into a temporary folder, on a pseudo-terminal of its own
(100x30), waits for its command line, types ``note `` and N characters
(``abcdefghij `` over and over) as fast as the child reads them, then Enter
(again every half second until the note is in the save, for up to 30 s) and
Ctrl+Q, and prints:

* the seconds the terminal took to pass the flood on (the child reads it);
* the seconds from Ctrl+Q to the child's exit (or that it had not quit after
  ``--patience`` seconds, when it is killed);
* the child's peak memory (its largest resident set, ``ru_maxrss``) against
  the same start quit at once without a flood;
* how many characters of the note reached the save.

``--unbounded`` runs the client on Textual's own Linux driver instead
(``TEXTUAL_DRIVER``), as it was before ``tui.input_limits``: the figures to
compare.  A user's files are never touched: the child's home, settings and
cache are in the bench's folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from tui.bench.client import DEMO_SAVE, SIZE

#: The ``fireteam`` command's entry point, as the console script runs it.
ENTRY = "import sys; from tui.main import entry; sys.exit(entry())"
#: What a terminal prints once the client's command line is up (its placeholder).
READY = b"type a command"
#: The flood's text, repeated.
WORDS = b"abcdefghij "
UNBOUNDED = "textual.drivers.linux_driver:LinuxDriver"
#: How long Enter is typed again until the note reaches the save.
NOTE_WAIT_S = 30.0


class _Client:
    """``fireteam SAVE`` on a pty of its own; its output drained as a terminal would."""

    def __init__(self, save: Path, home: Path, unbounded: bool) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "LC_", "LANG"))}
        env.update(LC_ALL="C", TERM="xterm-256color", HOME=str(home))
        for folder in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            env[folder] = str(home / folder.lower())
        if unbounded:
            env["TEXTUAL_DRIVER"] = UNBOUNDED
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ENTRY, str(save)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=home,
            env=env,
            start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # noqa: PLW1509  (no threads here)
        )
        os.close(slave)
        self.seen = b""

    def _drain(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            with contextlib.suppress(OSError):
                self.seen = (self.seen + os.read(self.master, 65536))[-4096:]

    def drain_for(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._drain(0.05)

    def wait_ready(self, patience: float) -> None:
        deadline = time.monotonic() + patience
        while READY not in self.seen:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the client's command line never came up: {self.seen[-500:]!r}")
            self._drain(0.1)

    def type(self, data: bytes) -> None:
        """Write ``data`` as fast as the child takes it, draining its output meanwhile."""
        view = memoryview(data)
        while view:
            _, writable, _ = select.select([], [self.master], [], 0.05)
            if writable:
                view = view[os.write(self.master, view[:4096]) :]
            self._drain(0)

    def wait_exit(self, patience: float) -> tuple[bool, int]:
        """Whether the child quit within ``patience`` seconds (else it is killed), and its peak RSS in KB."""
        deadline = time.monotonic() + patience
        quit_ = True
        while True:  # os.wait4, not Popen.wait: it gives the child's peak memory
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                quit_ = False
                self.proc.kill()
                _pid, status, usage = os.wait4(self.proc.pid, 0)
                break
            self._drain(0.1)
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        os.close(self.master)
        return quit_, usage.ru_maxrss


def _notes(save: Path) -> list[str]:
    from core.game import Game
    from core.log import events as ev

    game = Game.open(save, writable=False)
    try:
        return [e.text for e in game.history.store.slice(0, game.log_length) if isinstance(e, ev.Issued)]
    finally:
        game.close()


def _run(folder: Path, chars: int, unbounded: bool, patience: float) -> dict:
    save = folder / "demo.ft"
    shutil.copy(DEMO_SAVE, save)
    before = len(_notes(save))
    client = _Client(save, folder, unbounded)
    client.wait_ready(patience)
    flood = b"note " + (WORDS * (chars // len(WORDS) + 1))[:chars]
    start = time.monotonic()
    client.type(flood)
    typed = time.monotonic() - start
    # Enter, until the note is in the save: an Enter typed while the flood has used up
    # the characters a second the terminal may type is dropped with it (up to NOTE_WAIT_S).
    deadline = time.monotonic() + NOTE_WAIT_S
    while len(_notes(save)) == before and time.monotonic() < deadline:
        client.type(b"\r")
        client.drain_for(0.5)
    client.type(b"\x11")  # Ctrl+Q
    asked = time.monotonic()
    quit_, peak_kb = client.wait_exit(patience)
    after = _notes(save)[before:]
    return {
        "chars": chars,
        "typed_s": round(typed, 2),
        "quit_s": round(time.monotonic() - asked, 2) if quit_ else None,
        "peak_mb": round(peak_kb / 1024, 1),
        "note_chars": len(after[0]) if after else 0,
    }


def _baseline(folder: Path, patience: float) -> float:
    """The peak memory (MB) of the same start, quit at once."""
    save = folder / "demo.ft"
    shutil.copy(DEMO_SAVE, save)
    client = _Client(save, folder, unbounded=False)
    client.wait_ready(patience)
    client.type(b"\x11")
    _quit, peak_kb = client.wait_exit(patience)
    return round(peak_kb / 1024, 1)


def run_flood_bench(chars: int, *, unbounded: bool = False, patience: float = 120.0, as_json: bool = False) -> int:
    with tempfile.TemporaryDirectory(prefix="fireteam-flood-") as tmp:
        base = Path(tmp)
        (base / "idle").mkdir()
        (base / "flood").mkdir()
        idle = _baseline(base / "idle", patience)
        result = {"driver": "textual" if unbounded else "bounded", "idle_peak_mb": idle}
        result |= _run(base / "flood", chars, unbounded, patience)
    if as_json:
        print(json.dumps(result))
        return 0
    quit_ = f"{result['quit_s']} s" if result["quit_s"] is not None else f"had not quit after {patience:.0f} s (killed)"
    print(f"flood of {chars:,} characters typed at the client ({result['driver']} input)")
    print(f"  passed on by the terminal in {result['typed_s']} s")
    print(f"  Ctrl+Q to exit: {quit_}")
    print(f"  peak memory: {result['peak_mb']} MB (the same start without the flood: {idle} MB)")
    print(f"  the note in the save: {result['note_chars']:,} characters")
    return 0
