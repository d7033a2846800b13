"""The server's log, ``serve.log``: one line a record that no client's value can forge, and
a line for every command recorded or refused at a table."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from core.log import events as ev
from core.log.outcome import Outcome, Refusal
from core.log.views import REFEREE
from core.refusal import LOG as CORE_LOG
from tui.ssh.host.hostfiles import private_file, private_folder
from tui.ssh.seatsfile import Seats

if TYPE_CHECKING:
    from tui.ssh.host.tables import Table

LOG_NAME = "serve.log"


def escaped(text: str) -> str:
    """``text`` with every control character but newline (escape, carriage return...) written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


class OneLineFormatter(logging.Formatter):
    """No value a client chose can start a line of the log, or forge one.

    Control characters are escaped, and every line after a record's first (a
    traceback, or a newline in a client's TERM) is indented under it with
    ``    | ``: a line that begins with a time is always a record.
    """

    def format(self, record: logging.LogRecord) -> str:
        out = super().format(record)
        head, _, rest = escaped(out).partition("\n")
        return head + "".join(f"\n    | {line}" for line in rest.split("\n")) if rest else head


def server_log(folder: Path | None, *, to_stderr: bool = True, tag: str = "") -> logging.Logger:
    """``fireteam.serve``: every connection and command, with seat, role and time (UTC), and
    the core's errors (``core.refusal.LOG``: a command that failed, with its traceback).

    ``tag`` starts every message of a seat worker's (they share the file).  The
    file is its owner's only, as its folder is: it names hidden units.  The console
    (``to_stderr``) shows what the host must act on, the warnings and errors; the file
    keeps every line (a login, a command: INFO), which would bury them on screen (#77).
    """
    log = logging.getLogger("fireteam.serve")
    log.setLevel(logging.INFO)
    prefix = f"{tag} " if tag else ""
    formatter = OneLineFormatter(f"%(asctime)s.%(msecs)03dZ %(levelname)s {prefix}%(message)s", "%Y-%m-%dT%H:%M:%S")
    formatter.converter = time.gmtime
    handlers: list[logging.Handler] = []
    if folder is not None:
        handlers.append(logging.FileHandler(private_file(private_folder(folder) / LOG_NAME), encoding="utf-8"))
    if to_stderr:
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.WARNING)
        handlers.append(console)
    for handler in handlers:
        handler.setFormatter(formatter)
        log.addHandler(handler)
        CORE_LOG.addHandler(handler)  # a command that failed on an error of the program, with its traceback
    return log


def close_server_log(log: logging.Logger) -> None:
    """The server has stopped: ``server_log``'s handlers closed and taken off both logs it gave them to.
    One left on the core's log, closed (its file or its stream gone), would fail the next error
    logged in this process, whatever then logs it."""
    for handler in list(log.handlers):
        log.removeHandler(handler)
        CORE_LOG.removeHandler(handler)
        handler.close()


def log_table(table: Table, seats: Callable[[], Seats], log: logging.Logger) -> Callable[[], None]:
    """Log every command recorded at ``table`` with the seat and role that gave it, and every one refused.

    Returns what stops it.
    """

    def recorded(outcome: Outcome) -> None:
        first = outcome.events[0]
        by = getattr(first, "by", "")
        seat = seats().by_name(by)
        role = seat.role if seat else "?"
        if isinstance(first, ev.Issued):
            log.info("command game=%s #%d seat=%s role=%s: %s", table.name, first.cmd, by, role, first.text)
        else:
            # An undo may carry hidden commands past it: name every marker, not only the first.
            markers = [
                line
                for line, e in zip(outcome.lines, outcome.events, strict=True)
                if isinstance(e, ev.Issued | ev.Undone | ev.Redone)
            ]
            log.info("command game=%s seat=%s role=%s: %s", table.name, by, role, "; ".join(markers))

    def refused(refusal: Refusal) -> None:
        log.info(
            "refused game=%s seat=%s role=%s: %s (%s)", table.name, refusal.by, refusal.role, refusal.text, refusal.why
        )

    stop_recorded = table.game.subscribe(recorded, role=REFEREE)  # every command, hidden ones too
    stop_refused = table.game.subscribe_refusals(refused)

    def stop() -> None:
        stop_recorded()
        stop_refused()

    return stop
