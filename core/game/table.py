"""What the modules of a game's concerns use of it: :class:`Table`, which ``engine``'s
``Game`` is (mypy checks it there).  Each concern is a module of functions taking the
game first, which ``Game`` names as its methods; typed against this, none of them
imports the engine that imports it.

The members are listed by the module that defines them.  A function calls another
that a game has as a method through the game, its own module's too, so that a
subclass's (the re-deriving replica's ``_dice`` and ``_rolls_parents_key``) is called.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from core.commands import Parsed
    from core.dice.shares import Counts
    from core.log import events as ev
    from core.log.history import History
    from core.log.numbering import Numbering
    from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Outcome, OwnRoll, Refusal, Result
    from core.log.replay import Timeline
    from core.log.state import GameState
    from core.ruleset import Ruleset
    from core.storage.opencache import Mark
    from core.storage.savefile import Header
    from core.storage.writer import SaveWriter


class Asked(NamedTuple):
    """A command that asked a question after its sealed dice rolled: what it drew them with
    (``sealing`` keeps them, issue #60).  Defined here, where the table's ``_asked`` holds
    them, so that this module imports none of the concerns'."""

    at: int  # the save's length when it asked: any command written since, and it is forgotten
    sealing: list[ev.Event]
    contribution: bytes
    saw: str  # the key's commitment its sender saw


class Table(Protocol):
    """A game, as the modules of its concerns use it (``Game``'s docs say what each is)."""

    # What a game holds (engine: ``Game.__init__``).
    path: Path
    header: Header
    ruleset: Ruleset
    timeline: Timeline
    history: History
    writer: SaveWriter | None
    clock: Callable[[], int]
    salt: Callable[[], str]
    contribute: Callable[[], bytes]
    dice_key: Callable[[], str]
    seeded: bool
    saved_bytes: int
    saved_check: int
    copy_role: str
    cache_mark: Mark | None
    _cache_finish: Callable[[], Mark | None] | None
    seated: Callable[[], set[str]] | None
    awaiting: Awaited | None
    held_dropped: Refusal | Failure | None
    _awaiting_listeners: list[Callable[[], None]]
    rolling: tuple[OwnRoll, ...]
    _rolling_listeners: list[Callable[[], None]]
    _used: set[tuple[str, str]] | None
    _counts: Counts | None
    _parents_keys: set[object] | None
    _asked: dict[tuple[str, str, str, str], Asked]
    _key: ev.VarSet | None
    _numberings: dict[str, Numbering]
    _views: dict[str, tuple[tuple[int, int], GameState]]

    # A game is made (``opening``: ``cls(...)``) as ``Game.__init__`` makes it.
    def __init__(
        self,
        path: Path,
        header: Header,
        ruleset: Ruleset,
        timeline: Timeline,
        writer: SaveWriter | None,
        *,
        clock: Callable[[], int] = ...,
        salt: Callable[[], str] = ...,
        notes: list[str] | None = None,
        saved_bytes: int = 0,
        saved_check: int = 0,
        seeded: bool = False,
    ) -> None: ...

    @property
    def state(self) -> GameState: ...

    # The engine's.
    def execute(
        self,
        text: str,
        *,
        role: str,
        by: str = "",
        faces: list[int] | None = None,
        contribution: bytes | None = None,
        answers: list[str] | None = None,
        saw: str | None = None,
        nonce: int | None = None,
        givers: list[str] | None = None,
        given_in: str = "",
    ) -> Outcome: ...
    def parse(self, text: str, role: str) -> Parsed: ...
    def localize(self, text: str) -> str: ...
    def _check_allowed(self, parsed: Parsed, role: str) -> None: ...
    def _told_if_refused(self, text: str, role: str, by: str, act: Callable[[], Outcome]) -> Outcome: ...
    def _append(self, cmd: int, group: list[ev.Event], lines: list[str]) -> Outcome: ...
    def _tell(self, outcome: Outcome) -> None: ...

    # Sealing's.
    def _sealing(self, parsed: Parsed) -> list[ev.Event]: ...
    def _rolls_parents_key(self) -> bool: ...
    def dice_seal(self) -> str: ...
    def _key_fact(self) -> ev.VarSet | None: ...
    def next_share(self, by: str) -> int: ...

    # Awaiting's.
    def set_awaiting(self, held: Awaited | None, dropped: Refusal | Failure | None = None) -> None: ...
    def _hold(self, held: Awaited, result: DiceNeeded | AnswerNeeded, *, first: bool = False) -> Result: ...
    def awaited_said(self, role: str) -> str: ...
    def set_rolling(self, rolling: tuple[OwnRoll, ...]) -> None: ...

    # Undoing's.
    def numbering(self, role: str) -> Numbering: ...
    def shown_cmd(self, cmd: int, role: str) -> int | None: ...
    def undo_target(self, role: str) -> int | None: ...
    def redo_target(self, role: str) -> int | None: ...
    def _preview(self, cmd: int | None, role: str) -> str | None: ...
    def _undo(self, role: str, by: str) -> Outcome: ...
    def undo_refusal(self, role: str, by: str = "") -> str | None: ...
    def _undoing(self, role: str, by: str) -> tuple[int, list[ev.Event], list[str]]: ...
    def _carry_past(self, cmd: int, after: list[int], by: str, undone: ev.Undone) -> list[ev.Event]: ...
    def _size(self, cmd: int) -> int: ...
    def _redo(self, role: str, by: str) -> Outcome: ...
    def _redoing(self, role: str, by: str) -> tuple[int, ev.Redone, str]: ...

    # Reading's.
    def describe(
        self,
        e: ev.Event,
        role: str,
        *,
        sides: Mapping[str, str] | None = None,
        words: Mapping[str, Mapping[str, str]] | None = None,
    ) -> str: ...
    def _said_var(self, key: str, value: int | str) -> str: ...
    def hidden_header(self, index: int, e: ev.Event, role: str) -> bool: ...
    def inner(self, e: ev.Event) -> bool: ...
