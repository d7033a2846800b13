"""How the client is run from the command line: the process's language first, then the save
opened before the app starts (or while it starts, behind a progress bar, for a big one), then
``FireteamApp``; what cannot be opened is said on standard error (``fireteam [SAVE]``)."""

from __future__ import annotations

import gc
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from core.language.reader import set_process_language
from core.storage.errors import SaveError
from tui.app import FireteamApp
from tui.i18n import _, start_language
from tui.opening import OpenAhead, check_role, open_cache, open_or_follow
from tui.userdata import UserStore

if TYPE_CHECKING:
    from core.storage.opencache import OpenCache
    from core.storage.readahead import ReadAhead
    from tui.app import Opener

#: A save this big whose open cache has no entry loads while the app starts (``OpenAhead``),
#: behind a progress bar if it takes a while; a smaller one loads before.
LOAD_IN_APP_BYTES = 8 << 20


def _size(save: Path | None) -> int:
    try:
        return save.stat().st_size if save is not None else 0
    except OSError:
        return 0  # opened the usual way, which says why it cannot be


def prepare_language(lang: str | None) -> None:
    """The process's language before the app starts: ``--lang``, else the locale.

    What is said before the app is up (a save that cannot be opened) is in it; the
    app, as it mounts and before its first screen, puts the language saved in its
    settings in the locale's place (``FireteamApp.on_mount``), so the order is
    ``--lang``, the saved setting, the locale, English.
    """
    set_process_language(start_language(lang, ""))


def run_app(
    save: Path | None,
    replay: bool,
    role: str,
    lang: str | None = None,
    typed: str = "",
    *,
    demo: bool = False,
    ahead: ReadAhead | None = None,
) -> int:
    """Open the client; ``lang`` is ``--lang`` (None: the saved setting, else the locale);
    ``typed``: keys typed before it runs, for the command line (``tui.typeahead``);
    ``ahead``: the save's bytes being read meanwhile (``core.storage.readahead``).
    With no save: ``demo``, a new demo game; else the start screen chooses the game."""
    prepare_language(lang)
    if save is None and not demo and not replay:
        app = FireteamApp(None, role=role, store=UserStore.default(), lang=lang, typed=typed, start=True)
        app.gc_paused = not gc.isenabled()  # resumed at the start screen's first frame
        app.run()
        return app.return_code or 0
    size = _size(save)
    cache = open_cache(size, ahead)
    not_cached: type[Exception] | tuple[()] = ()
    if cache is not None:
        from core.storage.opencache import NotCached as not_cached
    try:
        # A big save opens here only if the cache holds it (in milliseconds); else
        # while the app starts (behind a progress bar if it takes a while), and the
        # cache keeps it for next time, once the game is shown (``cache_later``).
        game, locked_by = open_or_follow(
            save, replay, cache=cache, cached_only=size > LOAD_IN_APP_BYTES, cache_later=True
        )
    except not_cached:
        assert save is not None
        return _run_opening(save, replay, role, lang, typed, _opener(save, replay, cache))
    except SaveError as e:
        print("fireteam: " + _("cannot open the save: {error}").format(error=e), file=sys.stderr)
        return 2
    except OSError as e:
        print("fireteam: " + _("cannot open {save}: {error}").format(save=save, error=e.strerror or e), file=sys.stderr)
        return 2
    problem = check_role(game, role)
    if problem:
        game.close()
        print(f"fireteam: {problem}", file=sys.stderr)
        return 2
    app = FireteamApp(
        game,
        role=role,
        replay=replay or bool(locked_by) or bool(game.copy_role),
        store=UserStore.default(),
        lang=lang,
        typed=typed,
    )
    app.owns_game = True
    app.locked_by = locked_by
    app.gc_paused = not gc.isenabled()
    app.run()
    return app.return_code or 0


def _opener(save: Path, replay: bool, cache: OpenCache | None) -> Opener:
    return partial(open_or_follow, save, replay, cache=cache, cache_later=True)


def _run_opening(save: Path, replay: bool, role: str, lang: str | None, typed: str, open: Opener) -> int:
    """The client, with ``open`` started now in a thread of its own (``OpenAhead``),
    going on while Textual starts; the app waits for it, with a progress bar if it
    outlasts PROGRESS_AFTER_S (``FireteamApp._opened_soon``)."""
    app = FireteamApp(
        None,
        role=role,
        replay=replay,
        store=UserStore.default(),
        opener=OpenAhead(open),
        opening=save.name,
        lang=lang,
        typed=typed,
    )
    app.gc_paused = not gc.isenabled()  # resumed at the game's first frame, as below
    app.run()
    if app.load_error:
        print(f"fireteam: {app.load_error}", file=sys.stderr)
    return app.return_code or 0
