"""A player's own copy of the game, kept as it goes (issue #74): the key and the word that keep it.

A seat's copy is its role's side's copy (``core.secrets.sidecopy``): every fact the role may see,
counted as it counts them, what ``fireteam export --as ROLE`` makes of the save now.  Kept on the
player's own machine, it binds the referee's save later (``fireteam verify SAVE --side-copy COPY``).
Where it goes depends on the door:

* at this machine's client (``fireteam SAVE``, ``--plain`` too), into the data folder's ``copies/``,
  a new file each time (:func:`keep_here`);
* at a seat of ``fireteam serve`` the seat's door says (``tui.ssh.seating.seat.SeatSession.keep_copy``):
  a browser's page downloads it; a terminal is told the command its own machine runs.
"""

from __future__ import annotations

import time

from core.game import Game
from core.secrets.sidecopy import export, write
from core.storage.errors import SaveError
from tui.i18n import _
from tui.userdata import UserStore

#: What a kept copy's name ends with: a side's copy opens wherever a save does (``fireteam COPY``).
SUFFIX = ".ft"


#: Copies one second may keep under one name (``-2``, ``-3``…): past it, none is kept.
MAX_SAME_NAME = 100


def copy_name(game: Game, role: str, now: float | None = None) -> str:
    """``SAVE-ROLE-YYYYMMDD-HHMMSS``: the save's name, the role and when, in one word."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return f"{game.path.stem}-{role}-{stamp}"


def keep_here(game: Game, role: str, store: UserStore | None = None) -> tuple[str, bool]:
    """``role``'s copy of ``game`` written into a new file of the data folder's ``copies/`` (never over
    another: a name taken gets ``-2``, ``-3``…); the sentence that says where (or why not), and whether
    it was kept."""
    if game.copy_role:
        return _("this is a copy already: it is kept where it was opened from"), False
    folder = (store or UserStore.default()).copies
    name = copy_name(game, role)
    copy = export(game, role)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for n in range(1, MAX_SAME_NAME + 1):
            path = folder / f"{name}{'' if n == 1 else f'-{n}'}{SUFFIX}"
            if not path.exists():
                write(copy, path)  # (never over a file: one made meanwhile is refused, and said)
                break
        else:
            return _("no copy kept: {folder} holds {n} copies of this second already").format(
                folder=folder, n=MAX_SAME_NAME
            ), False
    except (OSError, SaveError) as e:
        return _("no copy kept: {error}").format(error=getattr(e, "strerror", None) or e), False
    return _("your copy of the game so far is kept in {folder}: {name}").format(folder=folder, name=path.name), True
