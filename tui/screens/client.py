"""What the screens ask of the app they run in, Fireteam's: :class:`ClientApp`, and the breakpoint classes of its size.

``tui.app.FireteamApp`` imports the screens, so they cannot import it: they name it by this
Protocol, which it declares it is (mypy checks that it is one).  A screen whose app must be
Fireteam's (a game switched, the quit keys read) asks :func:`client_app`; one that may run in
another app (a test's) asks ``isinstance(app, ClientApp)`` and does without.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from textual.app import App

    from core.game import Game
    from tui.textual_internals import InApp
    from tui.userdata import UserStore


@runtime_checkable
class ClientApp(Protocol):
    """Fireteam's app, as the screens use it."""

    #: The keys that quit the app (a question on the game screen lets them through).
    QUIT_KEYS: ClassVar[frozenset[str]]
    #: Where settings, histories and screenshots are kept (None: nothing is remembered).
    store: UserStore | None

    def switch_game(self, game: Game, *, replay: bool = False) -> None:
        """Play (or replay) another game in this app."""

    def write_user_data(self, write: Callable[..., object], *args: object) -> None:
        """Run ``write`` (a ``UserStore`` method; in a worker thread): a failure is told, not raised."""

    def show_notices(self) -> None:
        """Tell the player what was wrong with the files read (once each)."""

    def keep_copy(self, game: Game, role: str) -> None:
        """The player's own copy of ``game`` as ``role`` sees it, kept where his door puts it."""


def client_app(node: InApp) -> ClientApp:
    """``node``'s app, Fireteam's: every screen that asks for it runs in one."""
    app = node.app
    assert isinstance(app, ClientApp), f"{type(app).__name__} is not Fireteam's app"
    return app


def size_classes(app: App | None) -> set[str]:
    """The breakpoint classes (``-narrow``, ``-short`` …) Textual gives a screen of the app's size:
    a screen made with them is laid out for that size from its first frame."""
    if app is None:
        return set()
    classes = set()
    width, height = app.size
    for extent, breakpoints in ((width, app.HORIZONTAL_BREAKPOINTS), (height, app.VERTICAL_BREAKPOINTS)):
        reached = [(at, name) for at, name in breakpoints or () if extent >= at]
        if reached:
            classes.add(max(reached)[1])
    return classes
