"""What the client remembers between runs: settings, each save's command history, screenshots, copies.

Settings live in the user's config folder, each save's command history and the
error log in the state folder, screenshots in the data folder (``core.folders``:
``~/.config/fireteam``, ``~/.local/state/fireteam`` and ``~/.local/share/fireteam``
on Linux); what loading a big save found, in the cache folder (``core.storage.opencache``).
They are conveniences, not saves: a file that is missing, corrupt, too big or
hostile is ignored with a notice (never a crash), and every value read is
checked before use.  Writes replace a file whole (a temporary file, fsynced,
then renamed over it), so a crash leaves the old file or the new one, never half.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from pathlib import Path

import msgspec

from core import errorlog, folders
from core.language.reader import LANGUAGES
from core.ruleset import Refused
from tui.i18n import _, ngettext, number

#: Commands remembered per save; older ones are forgotten first.
HISTORY_LINES = 1000
#: Characters of one remembered command (a longer one is not kept).
HISTORY_LINE_CHARS = 500
#: A settings or history file larger than this is not read.
MAX_FILE_BYTES = 1_000_000
#: Games the start screen offers to resume, at most.
RECENT_SAVES = 50
#: Replay speeds a setting may choose (indices into tui.screens.replay_bar.SPEEDS).
SPEED_INDICES = range(8)


class Settings(msgspec.Struct, forbid_unknown_fields=False, kw_only=True):
    """``settings.json`` in the config folder, documented for editing (docs/files.md)."""

    theme: str = ""  # "" is Textual's default
    #: The plain client's answers in full (``verbose on``), else brief.
    plain_verbose: bool = False
    replay_speed: int = 2
    #: The language chosen in the client ("" until one is: then ``--lang`` or the locale decides).
    lang: str = ""
    #: False: the command line's cursor is steady.
    cursor_blink: bool = True
    #: Keys of the client's actions, as the user binds them: an action's id to its keys
    #: (``"help": "f1,ctrl+f"``); the ids are ``tui.keymap.actions()``.
    keys: dict[str, str] = msgspec.field(default_factory=dict)


class _History(msgspec.Struct):
    save: str
    lines: list[str]


def history_lines(lines: list[str]) -> list[str]:
    """The lines worth keeping: valid command lines of bounded length, the newest ``HISTORY_LINES``."""
    from core.commands import check_line  # a save with no history yet starts without the command language

    kept = []
    for line in lines:
        if not isinstance(line, str) or not line.strip() or len(line) > HISTORY_LINE_CHARS:
            continue
        try:
            check_line(line)  # no control character, within a command's length
        except Refused:
            continue
        kept.append(line)
    return kept[-HISTORY_LINES:]


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` whole: a temporary file beside it, fsynced, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself is durable once the folder is synced
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def read_small(path: Path) -> bytes | None:
    """The file's bytes; None if it does not exist.  Raises ValueError if it is not a small regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ValueError(e.strerror or str(e)) from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not (info.st_mode & 0o170000 == 0o100000):
            raise ValueError(_("not a regular file"))
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(_("larger than {limit} bytes").format(limit=number(MAX_FILE_BYTES)))
    return data


class UserStore(msgspec.Struct):
    """The folders the client keeps its own files in (``core.folders``'s by default)."""

    config: Path
    state: Path
    #: Where screenshots go (None: the data folder's, ``core.folders``).
    data: Path | None = None
    #: Problems met reading the files, to tell the player once.
    notices: list[str] = msgspec.field(default_factory=list)
    _lock: threading.Lock = msgspec.field(default_factory=threading.Lock)

    @classmethod
    def default(cls) -> UserStore:
        return cls(folders.folder("config"), folders.folder("state"))

    @property
    def settings_path(self) -> Path:
        return self.config / "settings.json"

    @property
    def themes_folder(self) -> Path:
        """The user's theme files (``tui.themes.user_themes``)."""
        return self.config / "themes"

    @property
    def screenshots(self) -> Path:
        return (self.data if self.data is not None else folders.folder("data")) / "screenshots"

    @property
    def copies(self) -> Path:
        """Where a player's own copies of his games go (``tui.copies``)."""
        return (self.data if self.data is not None else folders.folder("data")) / "copies"

    @property
    def error_log(self) -> Path:
        """Where a command that failed on an error of the program is logged, with its traceback
        (``core.errorlog``)."""
        return self.state / errorlog.NAME

    def history_path(self, save: Path) -> Path:
        # One file a save, named by its absolute path's hash: a save's name may
        # hold any character, and the file says which save it is for.
        key = hashlib.sha256(str(save.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.state / "history" / f"{key}.json"

    # ------------------------------------------------------------- settings

    def load_settings(self) -> Settings:
        path = self.settings_path
        try:
            data = read_small(path)
            if data is None:
                return Settings()
            settings = msgspec.json.decode(data, type=Settings)
            if (
                settings.replay_speed not in SPEED_INDICES
                or len(settings.theme) > 64
                or settings.lang not in ("", *LANGUAGES)
            ):
                raise ValueError(_("a value out of range"))
        except (ValueError, msgspec.DecodeError) as e:
            self.notices.append(_("settings ignored ({path}): {error}").format(path=path, error=e))
            return Settings()
        return settings

    def save_settings(self, settings: Settings) -> None:
        with self._lock:
            write_atomic(self.settings_path, msgspec.json.format(msgspec.json.encode(settings)) + b"\n")

    # -------------------------------------------------------------- history

    def load_history(self, save: Path) -> list[str]:
        path = self.history_path(save)
        try:
            data = read_small(path)
            if data is None:
                return []
            history = msgspec.json.decode(data, type=_History)
        except (ValueError, msgspec.DecodeError) as e:
            self.notices.append(_("command history ignored ({path}): {error}").format(path=path, error=e))
            return []
        if history.save != str(save.resolve()):
            return []  # another save's (a hash collision, or a hand-made file)
        kept = history_lines(history.lines)
        if len(kept) < len(history.lines) and len(history.lines) <= HISTORY_LINES:
            n = len(history.lines) - len(kept)
            self.notices.append(
                ngettext(
                    "command history: {n} unreadable line left out", "command history: {n} unreadable lines left out", n
                ).format(n=n)
            )
        return kept

    def save_history(self, save: Path, lines: list[str]) -> None:
        record = _History(str(save.resolve()), history_lines(list(lines)))
        with self._lock:
            write_atomic(self.history_path(save), msgspec.json.encode(record) + b"\n")

    # --------------------------------------------------------- recent games

    def recent_saves(self, folder: Path) -> list[Path]:
        """The games played last, the most recent first: the saves each command history
        names (wherever they are) and those of ``folder``, by when each was last written.
        A save that is gone is left out; one that cannot be read is kept (the start
        screen says why).  A history file that cannot be read names nothing."""
        found: set[Path] = set()
        with contextlib.suppress(OSError):
            for path in (self.state / "history").glob("*.json"):
                try:
                    data = read_small(path)
                    if data is not None:
                        found.add(Path(msgspec.json.decode(data, type=_History).save))
                except (ValueError, msgspec.DecodeError):
                    continue
        with contextlib.suppress(OSError):
            found.update(p.resolve() for p in folder.glob("*.ft"))
        dated = []
        for path in found:
            try:
                dated.append((path.stat().st_mtime, str(path), path))
            except (OSError, ValueError):
                continue  # gone since (or a name no file can have)
        return [path for _t, _n, path in sorted(dated, reverse=True)[:RECENT_SAVES]]
