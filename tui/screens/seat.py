"""The game screen as the parts it composes see it: whose seat it is, in which mode, and its panes.

The replay bar, the held rolls, undo and redo, the command runner and the menu each own their
state and reach the screen only through this (``tui.screens.game.GameScreen`` is one), so none
of them imports the screen, and the screen is its compose plus the wiring between them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from textual.widget import Widget

if TYPE_CHECKING:
    from textual.app import App

    from core.game import Game
    from tui.viewpoint import Viewpoint

Part = TypeVar("Part", bound=Widget)


class SeatScreen(Protocol):
    """What a part of the game screen reads and calls on it."""

    game: Game
    #: Whose screen it is (a side, the referee, a spectator) and who types at it (``by``: the seat's player).
    role: str
    replay: bool
    remote: bool
    watching: bool
    #: Where the panes stand: the game's end live, a step in replay.
    vp: Viewpoint

    @property
    def app(self) -> App: ...

    @property
    def by(self) -> str: ...

    @property
    def table_dice(self) -> bool: ...

    def part(self, kind: type[Part]) -> Part: ...

    def refresh_game(self, *, force: bool = True) -> None: ...

    def action_help(self, query: str = "") -> None: ...

    def action_keep_copy(self) -> None: ...

    def call_after_refresh(self, callback: Callable[..., object], *args: object) -> bool: ...

    def mount(self, *widgets: Widget, before: int | str | Widget | None = None) -> object: ...
