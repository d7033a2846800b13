"""A table's notice at its seats: what every seat shows beside the game (an event's round clock,
``tui.ssh.host.eventtables``), each in its own language.

A screen's seat shows it in the lower border of its phase pane, said again each time it changes
(a minute gone, a clock started, a table's time extended); a plain seat says it as it sits down and
as a line of its own when something happens (a clock started, extended, or up), never a line a
minute: a screen reader would speak every one.  The notice is worded when shown, in the reader's
context of the seat (its app's task, or the plain seat's reader).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from core.language.reader import reading

if TYPE_CHECKING:
    from tui.lines.client import LineClient


class Noticed(Protocol):
    """A table as its notice is shown (``tui.ssh.host.tables.Table``)."""

    #: What every seat shows beside the game, in the reader's words (None: nothing).
    notice: Callable[[], str] | None

    def follow_notice(self, listener: Callable[[bool], None]) -> Callable[[], None]: ...


def nothing() -> None:
    """What stops following a table that has no notice."""


def at_screen(table: Noticed, app: Any) -> Callable[[], None]:
    """Show ``table``'s notice on ``app``'s game screen (a ``FireteamApp``), now and as it changes;
    what stops following it."""
    if table.notice is None:
        return nothing
    app.table_notice = table.notice  # the game screen shows it as it mounts (``GameScreen.show_notice``)
    return table.follow_notice(lambda _news: app.call_later(_shown, app))


def _shown(app: Any) -> None:
    from tui.screens.game import GameScreen

    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            screen.show_notice()


def at_plain(table: Noticed, client: LineClient, reader: Any) -> Callable[[], None]:
    """Say ``table``'s notice at a plain seat now, and again when something happens; what stops it."""
    notice = table.notice
    if notice is None:
        return nothing

    def say(news: bool) -> None:
        if news and not client.done:
            with reading(reader):
                client.tell(notice())

    say(True)
    return table.follow_notice(say)
