"""Waiting on an app under Pilot for something that happens, never for a time."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Only ever an upper bound on waiting for something that happens (CI shares two cores).
PATIENCE_S = 60.0


async def until(pilot, predicate: Callable[[], object], what: str) -> None:
    """Let the app work until ``predicate()`` holds; fail, naming ``what``, past the patience."""
    deadline = time.monotonic() + PATIENCE_S
    while not predicate():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await pilot.pause(0.05)
