"""Playing a game from a test: command lines, each given by the referee or by a side.

A test module imports it with ``tests/shared`` on ``sys.path`` (see ``hostile.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from core.game import Game
from core.log import events as ev
from core.ruleset import Refused


def play(g: Game, *lines: str) -> list[ev.Event]:
    """Run each line (``@side text`` gives it as that side); the facts of the last one."""
    out = None
    for line in lines:
        role = "referee"
        if line.startswith("@"):
            role, _, line = line[1:].partition(" ")
        out = g.execute(line, role=role)
    return list(out.events[1:]) if out else []


def opened(path: Path, ruleset: str, *lines: str, **options) -> Game:
    """A new game of ``ruleset`` (``options`` as ``Game.new`` takes them), then ``lines`` played."""
    game = Game.new(path, ruleset, **options)
    play(game, *lines)
    return game


def tried(g: Game, line: str, run: Callable[[Game, str], list[ev.Event]] = play) -> list[ev.Event] | None:
    """The facts of ``line`` (as ``run`` plays it), taken back; None if it is refused."""
    try:
        facts = run(g, line)
    except Refused:
        return None
    g.execute("undo", role="referee")
    return facts


def names(refused: Refused, rule: str) -> None:
    """``refused`` names ``rule`` among its rules (a map's id, or ``TYPING``): a refusal for
    another reason fails the check (``tests/core/test_refusal_checks.py`` holds every check to it)."""
    assert rule in refused.rules, f"{refused} names {refused.rules}, not {rule}"


def refusal(call, *args, rule: str, **kwargs) -> str:
    """The words ``call(*args, **kwargs)`` is refused with: it must be, naming ``rule``."""
    with pytest.raises(Refused) as no:
        call(*args, **kwargs)
    names(no.value, rule)
    return str(no.value)


def parse_refusal(g: Game, text: str, role: str = "referee", *, rule: str) -> str:
    """The words ``text`` is refused with when only parsed (nothing carried out): it must be,
    naming ``rule``."""
    return refusal(g.parse, text, role, rule=rule)


def refused(g: Game, line: str, match: str | None = None, *, rule: str) -> str:
    """The words ``line`` (``@side text`` for a side's) is refused with: it must be, naming
    ``rule`` (among ``core.refusal.Refused.rules``)."""
    with pytest.raises(Refused, match=match) as no:
        play(g, line)
    names(no.value, rule)
    return str(no.value)


def all_refused(g: Game, *lines: str, match: str | None = None, rule: str) -> None:
    """Each of ``lines`` refused, as ``refused`` says it must be, naming ``rule``: none is played."""
    for line in lines:
        refused(g, line, match, rule=rule)
