"""Playing a game from a test: command lines, each given by the referee or by a side.

A test module imports it with ``tests/shared`` on ``sys.path`` (see ``hostile.py``).
"""

from __future__ import annotations

from core import events as ev
from core.game import Game


def play(g: Game, *lines: str) -> list[ev.Event]:
    """Run each line (``@side text`` gives it as that side); the facts of the last one."""
    out = None
    for line in lines:
        role = "referee"
        if line.startswith("@"):
            role, _, line = line[1:].partition(" ")
        out = g.execute(line, role=role)
    return list(out.events[1:]) if out else []
