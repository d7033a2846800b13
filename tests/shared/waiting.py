"""Waiting on an app under Pilot for something that happens, never for a time.

``until`` waits for what a test then asserts.  ``settled`` waits for the app to have
done all it was given (every message of every node handled, every worker ended, the
screen drawn): what a test needs before it asserts that something did NOT happen, or
before it looks at many things at once.  Both poll, and fail past the patience naming
what they waited for: neither ever stands for a guess at how long the app takes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import unicodedata
import weakref
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypeVar

from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

#: The first line of a test's child program (``python -c``) that waits as these helpers do.
IN_CHILD = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); from waiting import press, settled\n"

S = TypeVar("S")

#: What each app run by :func:`piloted` has notified (:func:`told`).
_TOLD: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

#: Only ever an upper bound on waiting for something that happens (CI shares two cores).
PATIENCE_S = 60.0
#: How often a wait looks again: the app runs in the same event loop, between looks.
POLL_S = 0.005


async def until(pilot, predicate: Callable[[], object], what: str) -> None:
    """Let the app work until ``predicate()`` holds; fail, naming ``what``, past the patience."""
    deadline = time.monotonic() + PATIENCE_S
    while not predicate():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(POLL_S)


def busy(app, *, workers: bool = True) -> list[str]:
    """What the app has still to do: nodes with messages queued or being handled, the screen's
    pending layout, repaint and after-refresh callbacks, running workers and animations.

    It reads Textual's private attributes directly: one renamed fails here, loudly, rather
    than letting a wait end early."""
    left = []
    nodes = [app]
    for screen in app.screen_stack:
        nodes += screen.walk_children(with_self=True)
    left += [f"messages of {node!r}" for node in nodes if _handling(node)]
    screen = app.screen
    if screen._callbacks:
        left.append("callbacks after the refresh")
    if (
        screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._recompose_required
        or screen._dirty_widgets
    ):
        left.append("the screen's refresh")
    if workers:
        left += [f"worker {worker.name or worker}" for worker in app.workers if not worker.is_finished]
    if app.animator._animations or app.animator._scheduled:
        left.append("animations")
    return left


def _handling(node) -> bool:
    """Whether ``node`` has messages queued, or is handling one: its task, running, is not
    waiting on its queue (Textual's ``_queue.Queue``, whose ``get`` waits on ``ready_event``)."""
    queue = node._message_queue
    if queue.values or node._pending_message is not None or node._next_callbacks:
        return True
    if node._task is None or node._task.done():
        return False
    return not any(not waiter.done() for waiter in queue.ready_event._waiters)


async def settled(pilot, *, workers: bool = True) -> None:
    """Let the app work until it has nothing left to do (``busy``), twice in a row across a turn
    of the event loop (a callback scheduled with ``call_soon`` posts its message then); or until
    it stopped running.  Fail past the patience, naming what was left."""
    app = pilot.app
    deadline = time.monotonic() + PATIENCE_S
    quiet = 0
    while quiet < 2:
        if app._exception is not None or not app.is_running:
            return
        left = busy(app, workers=workers)
        if left:
            quiet = 0
            assert time.monotonic() < deadline, f"gave up waiting for the app to settle: {left}"
            await asyncio.sleep(POLL_S)
        else:
            quiet += 1
            await asyncio.sleep(0)


def key_event(key: str) -> events.Key:
    """The event Textual's Pilot makes of ``key`` (a key's name, or a character)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def press(pilot, *keys: str, workers: bool = True) -> None:
    """Press ``keys`` one at a time, each handled before the next (``settled``; with ``workers``
    false, a worker a key started is left running, as a player goes on while a thread works).

    Pilot's own ``press`` waits after each key until the process's CPU time has been still for
    20 ms, twice: a guess, 40 ms or more a key, that a loaded machine can make wrong."""
    app = pilot.app
    for key in keys:
        if not app.is_running:
            return
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
        await settled(pilot, workers=workers)


async def type_text(pilot, text: str, *keys: str) -> None:
    """Type ``text``, then ``keys`` (``"enter"``), as a fast typist's keys reach the app: all
    queued at once, then handled (``settled``).  The app draws once, not once a key (the
    frames between are what a burst never shows); a test of what each key shows uses ``press``."""
    app = pilot.app
    for key in [*(c if c != " " else "space" for c in text), *keys]:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
    await settled(pilot)


@contextlib.asynccontextmanager
async def piloted(game, size: tuple[int, int] = (100, 30), *, settle: bool = False, **options) -> AsyncIterator[tuple]:
    """The client on ``game`` (the referee's seat unless ``options`` give a ``role``), run under Pilot at
    ``size``: the app and its pilot; ``settle``: once the app has done all it was given (``settled``)."""
    from core.log.views import REFEREE
    from tui.app import FireteamApp  # here: a child process's first import is this module (``IN_CHILD``)

    app = FireteamApp(game, **{"role": REFEREE, **options})
    said = _TOLD[app] = []
    notify = app.notify

    def recorded(message, *args, **kwargs):
        said.append(str(message))
        return notify(message, *args, **kwargs)

    app.notify = recorded  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        if settle:
            await settled(pilot)
        yield app, pilot


def told(app) -> list[str]:
    """Every notification the app has shown since it began, those that have since timed out too (on a
    loaded machine the start alone may outlast a notice's ten seconds)."""
    return _TOLD[app]


def hint(app) -> str:
    """What the line under the command line says (``#cmd-hint``)."""
    return str(app.screen.query_one("#cmd-hint").render())


def screen_lines(app) -> list[str]:
    """The screen as drawn, one string a row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def type_command(pilot, text: str) -> None:
    """Type ``text`` and Enter."""
    await type_text(pilot, text, "enter")


def screen_of(app, kind: type[S]) -> S:
    """The app's screen, which must be a ``kind``."""
    screen = app.screen
    assert isinstance(screen, kind), screen
    return screen
