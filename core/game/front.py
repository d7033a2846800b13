"""A game as a screen uses it, and as a built-in command's hook does: :class:`Front`.

``core.game.Game`` is one (mypy checks it: ``engine``), and so is a seat worker's copy of a
table's game, which carries its commands out at the table.  A screen typed against it
reads the game and gives it commands, and never needs the engine's own workings; a
built-in's hook (``core.game.builtins``) is typed against it, not against the engine that
imports the built-ins.  What each member does is said where it is defined: ``Game``'s, or
its concerns' (``Sealing``, ``Awaiting``, ``Rolling``, ``Reading``, ``Undoing``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Unpack

if TYPE_CHECKING:
    from core.commands import Parsed
    from core.game.awaiting import Awaiting
    from core.game.given import Given
    from core.game.reading import LogLine, Reading
    from core.game.rolling import Rolling
    from core.game.sealing import Sealing
    from core.game.undoing import Undoing
    from core.log import events as ev
    from core.log.history import History
    from core.log.outcome import Outcome, Result
    from core.log.replay import Timeline
    from core.log.state import GameState
    from core.ruleset import CommandSpec, Ruleset
    from core.storage.decoding import Header


class Front(Protocol):
    """What a screen, or a built-in's hook, uses of a game."""

    path: Path
    header: Header
    ruleset: Ruleset
    timeline: Timeline
    history: History
    notes: list[str]
    copy_role: str
    clock: Callable[[], int]
    sealing: Sealing
    awaiting: Awaiting
    rolling: Rolling
    reading: Reading
    undoing: Undoing

    @property
    def state(self) -> GameState: ...
    @property
    def writable(self) -> bool: ...
    @property
    def log_length(self) -> int: ...
    @property
    def commands(self) -> list[CommandSpec]: ...

    def view(self, role: str, step: int | None = None) -> GameState: ...
    def log_lines(self, role: str, start: int = 0, end: int | None = None) -> list[LogLine]: ...
    def describe(self, e: ev.Event, role: str) -> str: ...
    def localize(self, text: str) -> str: ...
    def names(self, spec: CommandSpec) -> tuple[str, str]: ...
    def parse(self, text: str, role: str) -> Parsed: ...
    def complete(self, text: str, role: str) -> list[str]: ...
    def subscribe(self, listener: Callable[[Outcome], None], *, role: str) -> Callable[[], None]: ...
    def submit(self, text: str, **given: Unpack[Given]) -> Result: ...
    def answer_held(
        self, *, role: str, by: str = "", faces: list[int] | None = None, answer: str | None = None
    ) -> Result: ...
    def unasked(self, by: str) -> None: ...
