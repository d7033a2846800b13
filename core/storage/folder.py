"""Where a save goes when none is named: ``saves/`` where there is one, else the user's data folder.

A checkout of Fireteam, or a folder where the user keeps his games, has a
``saves/`` folder: the games go there, next to the others.  Anywhere else
(``fireteam script turn1.txt`` run in a home folder, a first ``fireteam
--plain``) no ``saves/`` is made in the user's folder: the game goes into the
data folder's (platformdirs: ``~/.local/share/fireteam/saves`` on Linux,
``$XDG_DATA_HOME/fireteam/saves`` when that is set), and the command says
where.
"""

from __future__ import annotations

from pathlib import Path

#: The folder of saves beside the user, when he has one.
LOCAL = Path("saves")


def default_saves() -> Path:
    """``saves/`` if the current folder has one, else the data folder's ``saves``."""
    if LOCAL.is_dir():
        return LOCAL
    import platformdirs  # only a command that needs the folder pays for it

    return platformdirs.user_data_path("fireteam") / "saves"


def in_data_folder(folder: Path) -> bool:
    """Whether ``folder`` is the data folder's (a command then says where the save went)."""
    return folder != LOCAL
