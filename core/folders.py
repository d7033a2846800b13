"""Where Fireteam keeps its files: one rule, the system's folders, one override variable each.

Every kind of file has one folder, platformdirs' for the system (the XDG
folders on Linux: ``XDG_DATA_HOME`` and the others are honoured), unless its
variable names another (a test, a server with its own folder, a portable copy):

======  ====================  ==================================================
kind    override              what is in it
======  ====================  ==================================================
data    FIRETEAM_DATA_DIR     ``saves/`` (every game Fireteam makes unless told
                              where), ``scenarios/``, ``forces/``, the server's
                              host key, seats, invitations; ``screenshots/``
config  FIRETEAM_CONFIG_DIR   ``settings.json`` (the client's settings, keys),
                              ``themes/*.toml``
state   FIRETEAM_STATE_DIR    ``history/`` (each save's commands), ``errors.log``,
                              ``serve.log``
cache   FIRETEAM_CACHE_DIR    ``open/`` (what loading a big save found); what can
                              be made again, never user data
======  ====================  ==================================================

The current folder is never written unless a path names it: ``fireteam``,
``--demo``, ``--plain`` and ``fireteam script`` put new games in the data
folder's ``saves/`` alike.  ``fireteam paths`` prints the folders
(docs/files.md).  Nothing here makes a folder: whoever writes one makes it.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "fireteam"
#: Each kind of folder: its override variable, and platformdirs' function for it.
KINDS = {
    "data": ("FIRETEAM_DATA_DIR", "user_data_path"),
    "config": ("FIRETEAM_CONFIG_DIR", "user_config_path"),
    "state": ("FIRETEAM_STATE_DIR", "user_state_path"),
    "cache": ("FIRETEAM_CACHE_DIR", "user_cache_path"),
}
#: The data folder's subfolder of saves.
SAVES = "saves"


def folder(kind: str) -> Path:
    """The folder of ``kind`` (a key of :data:`KINDS`): its variable's, else the system's."""
    variable, function = KINDS[kind]
    override = os.environ.get(variable)
    if override:
        return Path(override)
    import platformdirs  # only a command that needs a folder pays for it

    return getattr(platformdirs, function)(APP)


def saves() -> Path:
    """Where new games go when no path is given, and the folder the client lists."""
    return folder("data") / SAVES


def doc(name: str) -> Path:
    """Where a document of docs/ is: installed beside the program (``share/doc/fireteam``, the
    wheel's data files), else the checkout's (``pip install -e .`` from a tree not yet installed)."""
    import sysconfig

    installed = Path(sysconfig.get_path("data")) / "share" / "doc" / APP / name
    if installed.is_file():
        return installed
    return Path(__file__).resolve().parents[1] / "docs" / name


def where() -> dict[str, Path]:
    """Every folder, and the saves' (what ``fireteam paths`` prints)."""
    data = folder("data")
    return {"data": data, "saves": data / SAVES, **{kind: folder(kind) for kind in KINDS if kind != "data"}}
