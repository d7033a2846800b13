"""The child of ``fireteam bench --client``'s timed starts (``tui.bench.client``).

It starts the bare Textual app or Fireteam, and at the first full frame writes
the CPU time it used to the pipe the bench gave it.  It is a module of its own,
importing nothing either start would not import anyway (``os``, ``sys``,
``time``): run from ``tui.bench.client``, each start paid for that module's imports
(``json``, ``statistics``) as well, the same few milliseconds added to both
sides of every start ratio.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType


def start_child() -> None:
    """In the child: start the bare app or Fireteam; at the first full frame, write its CPU time to the pipe.

    ``sys.argv``: [-c, pipe fd, "bare" or a save path, and Fireteam's ``--lang`` if
    any].  Imports nothing of Fireteam for the bare app, so both pay only for what they use.
    """
    fd, what = int(sys.argv[1]), sys.argv[2]
    lang = sys.argv[3] if len(sys.argv) > 3 else None

    drawn = False

    def hook(app: Any) -> None:
        nonlocal drawn
        if not drawn and (what == "bare" or getattr(app.screen, "_shown_view", None) is not None):
            drawn = True
            os.write(fd, b"%.6f\n" % time.process_time())  # the CPU time it took, for the record
            app.exit()

    if what != "bare":
        # The ``fireteam`` command's own entry point, run as ``python -m tui.main SAVE``
        # would run it (by name: the client's modules never import the entry
        # point, which also starts the SSH server).  It imports Textual where the
        # command does, after what it does first (it pauses the cycle collector):
        # the hook is put on Textual's app as soon as it is imported.
        import runpy

        _when_imported("textual.app", lambda module: setattr(module.App, "post_display_hook", hook))
        sys.argv = ["fireteam", *(["--lang", lang] if lang else []), what]
        runpy.run_module("tui.main", run_name="__main__")
        return
    from rich.text import Text
    from textual.app import App, ComposeResult
    from textual.widget import Widget

    class One(Widget):
        def render(self) -> Text:
            return Text("Fireteam")

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield One()

        def post_display_hook(self) -> None:
            hook(self)

    Bare().run()


def _when_imported(name: str, then: Callable[[ModuleType], None]) -> None:
    """Call ``then`` with module ``name`` as soon as it has been imported (by whoever imports it)."""
    import importlib.util  # (not importlib.abc, which would be a dozen modules more in the timed start)

    class Finder:
        def find_spec(
            self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
        ) -> ModuleSpec | None:
            if fullname != name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            assert spec is not None and spec.loader is not None, fullname
            run = spec.loader.exec_module

            def exec_module(module: ModuleType) -> None:
                run(module)
                then(module)

            # (This one loader's, wrapped: importlib has no hook that runs once a module has run.)
            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder())
