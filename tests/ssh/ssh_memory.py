"""Every string a session's widgets hold in memory, to prove a secret never got there.

The walk starts at each widget of the app and follows references, but not into
the shared ``Game`` (which holds everything, for every seat, by design), the
ruleset (its scenario tables name every unit), other DOM nodes (walked on
their own) or code objects.  A widget that copied the full state, a hidden
unit's name, or a secret value into itself is found.
"""

from __future__ import annotations

import asyncio
import gc
import types
from typing import Any

import asyncssh
from textual.app import App
from textual.dom import DOMNode
from textual.driver import Driver

from core.game import Game
from core.ruleset import Ruleset

_SKIP_TYPES = (
    Game,
    Ruleset,
    App,
    Driver,
    asyncio.AbstractEventLoop,
    asyncio.Future,
    asyncssh.SSHClientConnection,
    asyncssh.SSHServerConnection,
    asyncssh.SSHClientChannel,
    asyncssh.SSHServerChannel,
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.CodeType,
    types.FrameType,
)
_LIMIT = 500_000


def widget_strings(app: App[Any]) -> list[str]:
    seen: set[int] = set()
    found: list[str] = []
    nodes = [app.screen, *app.screen.walk_children(with_self=False)]
    for screen in app.screen_stack:
        if screen is not app.screen:
            nodes += [screen, *screen.walk_children(with_self=False)]
    for node in nodes:
        stack: list[object] = [node]
        while stack and len(seen) < _LIMIT:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            if isinstance(obj, _SKIP_TYPES) or (isinstance(obj, DOMNode) and obj is not node):
                continue  # not marked seen: another DOM node is walked from its own start
            seen.add(id(obj))
            if isinstance(obj, str):
                found.append(obj)
                continue
            if isinstance(obj, (bytes, int, float, bool)) or obj is None:
                continue
            stack.extend(gc.get_referents(obj))
    return found
