"""The folder Fireteam keeps its caches in: what can be made again, never user data.

``platformdirs.user_cache_path("fireteam")`` (``~/.cache/fireteam`` on Linux),
or ``$FIRETEAM_CACHE_DIR`` when set (tests, a server's own folder).  Each cache
has a subfolder: ``locale`` (compiled catalogues, ``core.language.cache``),
``open`` (what loading a save found, ``core.storage.opencache``), ``tables``
(rule tables decoded from their TOML, ``core.tablecache``) and ``css`` (the
client's parsed stylesheets, ``tui.stylesheet``).
"""

from __future__ import annotations

import os
from pathlib import Path

#: ``FIRETEAM_CACHE_DIR`` overrides platformdirs' cache folder (tests, servers).
CACHE_DIR_ENV = "FIRETEAM_CACHE_DIR"


def cache_root() -> Path:
    """The folder the caches' subfolders are in (not made here: a cache makes its own when it writes)."""
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs  # only a process that uses a cache pays for it

    return platformdirs.user_cache_path("fireteam")
