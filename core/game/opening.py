"""Opening a game: a new save, a save opened (with or without the open cache), closed,
and a read-only copy following what another process appends to the save.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import core
from core.language.i18n import _
from core.log import events as ev
from core.log.history import History, HistoryError
from core.log.replay import Timeline
from core.log.state import GameState, apply_in_place
from core.registry import BUILTIN, get_ruleset
from core.releases import newer
from core.ruleset import Ruleset
from core.storage.decoding import FORMAT_VERSION, Header
from core.storage.errors import SaveError, salvage_hint
from core.storage.savefile import load, read_commands
from core.storage.writer import SaveWriter

if TYPE_CHECKING:
    from core.storage.opencache import Mark, OpenCache


#: A game's dice seed is a whole number below this: it fits every integer the
#: save and its readers hold (a new game draws 48 random bits).
SEED_LIMIT = 2**63


class Opened(NamedTuple):
    """A save created or opened: what a ``Game`` is made of."""

    path: Path
    header: Header
    ruleset: Ruleset
    timeline: Timeline
    writer: SaveWriter | None
    #: What the load noted of the file (a torn tail dropped, …); none for a new save.
    notes: tuple[str, ...] = ()
    saved_bytes: int = 0
    saved_check: int = 0
    #: Where the open cache's entry for this save stands (``core.storage.opencache``), if opened with one.
    cache_mark: Mark | None = None
    #: With ``open(..., cache_later=True)``: what ``Game.keep_cache`` finishes.
    cache_finish: Callable[[], Mark | None] | None = None


def now_ms() -> int:
    return int(time.time() * 1000)


def _inconsistent(path: Path, history: History) -> SaveError:
    """The error naming the first effective event the fold cannot apply (only on this error path)."""
    state = GameState()
    for step, e in enumerate(history.timeline()):
        try:
            apply_in_place(state, (e,))
        except KeyError as missing:
            ((index, _end),) = history.ranges(step, step + 1)
            # +1 for the header line, +1 to count lines from 1.
            return SaveError(
                _(
                    "{path}:{line}: the event refers to {missing}, which this game does not have; "
                    "the file was not changed. {hint}"
                ).format(path=path, line=index + 2, missing=missing, hint=salvage_hint(path))
            )
    return SaveError(
        _("{path}: the events do not make a consistent game; the file was not changed. {hint}").format(
            path=path, hint=salvage_hint(path)
        )
    )


def loaded_ruleset(ruleset_id: str, variant: str = "") -> Ruleset:
    """The ruleset a game is made or opened with. A plugin's or a registered one's commands are
    gathered as it loads, and a word naming two of them refused (``game_commands``:
    ``NotARuleset``, naming both); a built-in's, which its tests check so, when first used, so
    that a start does not pay for them."""
    ruleset = get_ruleset(ruleset_id, variant)
    if ruleset.id not in BUILTIN:
        from core.game.builtins import game_commands  # (a built-in's start does without the commands)

        game_commands(ruleset)
    return ruleset


def new(path: str | os.PathLike[str], ruleset_id: str, variant: str = "", seed: int | None = None) -> Opened:
    """A new save of a game of ``ruleset_id``, its dice seeded with ``seed`` if given."""
    import secrets  # (a new game's seed: not at an open save's start)

    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise ValueError(_("a seed is a whole number from 0 to {limit}").format(limit=SEED_LIMIT - 1))
    ruleset = loaded_ruleset(ruleset_id, variant)
    header = Header(
        fireteam=FORMAT_VERSION,
        ruleset=ruleset.id,
        ruleset_version=ruleset.version,
        engine=core.__version__,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        seed=secrets.randbits(48) if seed is None else seed,
        variant=variant,
    )
    return Opened(Path(path), header, ruleset, Timeline(History()), SaveWriter.create(path, header))


def open(
    path: str | os.PathLike[str],
    *,
    writable: bool = True,
    progress: Callable[[int, int], None] | None = None,
    cache: OpenCache | None = None,
    cached_only: bool = False,
    cache_later: bool = False,
) -> Opened:
    """Open a save.  Read-only opens (replay) never touch the file and take no lock.

    A writable open takes the save's lock first (``SaveLocked`` if another
    process writes it) and holds it until ``Game.close``.  ``progress`` is
    told (bytes read, bytes in all) as the save loads (``core.storage.savefile.load``).
    With ``cache``, what a load of the same bytes found before is restored
    from it if it holds, and kept in it after a full load and as a game that
    grew closes (``core.storage.opencache``).  ``cached_only``: raise ``NotCached``
    rather than load in full.  ``cache_later``: the cache's entry is brought up to
    date by ``Game.keep_cache``, not as the game opens (the client shows the game first).
    """
    writer = SaveWriter.lock(path) if writable else None
    try:
        return _open(Path(path), writer, progress, cache, cached_only, cache_later)
    except BaseException:
        if writer is not None:
            writer.close()
        raise


def _open(
    path: Path,
    writer: SaveWriter | None,
    progress: Callable[[int, int], None] | None = None,
    cache: OpenCache | None = None,
    cached_only: bool = False,
    cache_later: bool = False,
) -> Opened:
    opening = cache.opening(path) if cache is not None else None
    hit = opening.hit if opening is not None else None
    if cached_only and hit is None:
        from core.storage.opencache import NotCached  # only a big save's open has a cache

        raise NotCached(path)
    timeline = hit.timeline if hit is not None else Timeline(History())
    hasher = opening.full_load_hasher() if opening is not None and hit is None else None
    try:
        loaded = load(
            path,
            history=timeline.history,
            after_batch=timeline.loading(),
            progress=progress,
            resume=hit.resume if hit is not None else None,
            hasher=hasher,
        )
        timeline.catch_up()
    except KeyError:
        # Well-formed records that do not make a game (a fact about a unit,
        # side or secret that was never set up): a damaged or hand-edited save.
        raise _inconsistent(path, timeline.history) from None
    try:
        ruleset = loaded_ruleset(loaded.header.ruleset, loaded.header.variant)
    except ValueError as e:  # (NotARuleset too)
        raise SaveError(f"{loaded.path}: {e}") from None
    finish = partial(opening.finish, loaded, timeline, hasher) if opening is not None else None
    mark = finish() if finish is not None and not cache_later else None
    if writer is not None:
        _not_newer(path, timeline.history)
        writer.adopt(loaded)
    return Opened(
        loaded.path,
        loaded.header,
        ruleset,
        timeline,
        writer,
        tuple(loaded.notes),
        loaded.good_bytes,
        loaded.check,
        mark,
        _later(finish, timeline) if finish is not None and cache_later else None,
    )


def _not_newer(path: Path, history: History) -> None:
    """SaveError if a Fireteam newer than this one wrote the save's last session: this one would
    write its older version after it, which ``fireteam verify`` takes for a claim made since
    (``core.secrets.sessions``), and might write what that version's rules read otherwise."""
    last = history.store.last_claimed
    if newer(last):
        said = _(
            "{path}: written by Fireteam {version}, newer than this one ({mine}): play it on with {version} or "
            "later; this one opens it read-only (`fireteam {path} --replay`)"
        )
        raise SaveError(said.format(path=path, version=last, mine=core.__version__))


def _later(finish: Callable[[], Mark | None], timeline: Timeline) -> Callable[[], Mark | None]:
    """``finish``, for the game as it opened: an entry of a game that changed since would not match its bytes."""
    length = len(timeline.history.store)
    return lambda: finish() if len(timeline.history.store) == length else None


def appended(
    path: Path, history: History, saved: tuple[int, int], version: int, upto: int | None
) -> tuple[list[list[ev.Event]], int, int]:
    """What the save's writer (another process) appended past ``saved`` (the bytes and the check
    this copy holds), up to byte ``upto``, taken into ``history``: each command's group, and the
    bytes and the check held now.  With no ``upto``, the whole commands the file holds now are taken
    (a client watching another process's game).  Raises SaveError if the new bytes are damaged."""
    store = history.store
    base = len(store)
    events, payloads, check, end = read_commands(path, saved[0], upto, base, saved[1], version)
    if not events:
        return [], *saved
    # The writer only names sizes between whole commands: anything else is
    # damage, and this copy cannot be trusted after it (open the save again).
    store.append(events, payloads)
    try:
        history.feed(events, base)
    except HistoryError as e:
        raise SaveError(f"{path}: {e}") from None
    if history.pending() is not None:
        raise SaveError(
            _("{path}: bytes {start}-{end} end inside a command").format(path=path, start=saved[0], end=end)
        )
    groups = []
    i = 0
    while i < len(events):
        first = events[i]
        size = 1 + first.n if isinstance(first, ev.Issued) else 1
        groups.append(events[i : i + size])
        i += size
    return groups, end, check
