"""Opening a game: a new save, a save opened (with or without the open cache), closed,
and a read-only copy following what another process appends to the save.
"""

from __future__ import annotations

import os
import secrets as _secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import core
from core.game.builtins import game_commands
from core.language.i18n import _
from core.log import events as ev
from core.log.history import History, HistoryError
from core.log.outcome import Outcome
from core.log.replay import Timeline
from core.log.state import GameState, apply_in_place
from core.log.views import (
    REFEREE,
)
from core.registry import BUILTIN, get_ruleset
from core.releases import newer
from core.ruleset import Ruleset
from core.secrets import commitments
from core.secrets.sessions import last_claimed
from core.storage.savefile import FORMAT_VERSION, Header, SaveError, load, read_commands, salvage_hint
from core.storage.writer import SaveWriter

if TYPE_CHECKING:
    from core.game.table import Table
    from core.storage.opencache import OpenCache


#: A game's dice seed is a whole number below this: it fits every integer the
#: save and its readers hold (a new game draws 48 random bits).
SEED_LIMIT = 2**63

#: The class a game is made or opened as: ``Game``, or a subclass of it (a seat worker's copy).
G = TypeVar("G", bound="Table")


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
        game_commands(ruleset)
    return ruleset


def new(
    cls: type[G],
    path: str | os.PathLike[str],
    ruleset_id: str,
    variant: str = "",
    *,
    seed: int | None = None,
    clock: Callable[[], int] = now_ms,
    salt: Callable[[], str] = commitments.new_salt,
) -> G:
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise ValueError(_("a seed is a whole number from 0 to {limit}").format(limit=SEED_LIMIT - 1))
    ruleset = loaded_ruleset(ruleset_id, variant)
    header = Header(
        fireteam=FORMAT_VERSION,
        ruleset=ruleset.id,
        ruleset_version=ruleset.version,
        engine=core.__version__,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        seed=_secrets.randbits(48) if seed is None else seed,
        variant=variant,
    )
    writer = SaveWriter.create(path, header)
    seeded = seed is not None
    return cls(Path(path), header, ruleset, Timeline(History()), writer, clock=clock, salt=salt, seeded=seeded)


def open(
    cls: type[G],
    path: str | os.PathLike[str],
    *,
    writable: bool = True,
    clock: Callable[[], int] = now_ms,
    progress: Callable[[int, int], None] | None = None,
    cache: OpenCache | None = None,
    cached_only: bool = False,
    cache_later: bool = False,
) -> G:
    """Open a save.  Read-only opens (replay) never touch the file and take no lock.

    A writable open takes the save's lock first (``SaveLocked`` if another
    process writes it) and holds it until :meth:`close`.  ``progress`` is
    told (bytes read, bytes in all) as the save loads (``core.storage.savefile.load``).
    With ``cache``, what a load of the same bytes found before is restored
    from it if it holds, and kept in it after a full load and as a game that
    grew closes (``core.storage.opencache``).  ``cached_only``: raise ``NotCached``
    rather than load in full.  ``cache_later``: the cache's entry is brought up to
    date by :meth:`keep_cache`, not as the game opens (the client shows the game first).
    """
    writer = SaveWriter.lock(path) if writable else None
    try:
        return _open(cls, Path(path), writer, clock, progress, cache, cached_only, cache_later)
    except BaseException:
        if writer is not None:
            writer.close()
        raise


def _open(
    cls: type[G],
    path: Path,
    writer: SaveWriter | None,
    clock: Callable[[], int],
    progress: Callable[[int, int], None] | None = None,
    cache: OpenCache | None = None,
    cached_only: bool = False,
    cache_later: bool = False,
) -> G:
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
    game = cls(
        loaded.path,
        loaded.header,
        ruleset,
        timeline,
        writer,
        clock=clock,
        notes=loaded.notes,
        saved_bytes=loaded.good_bytes,
        saved_check=loaded.check,
    )
    game.cache_mark = mark
    if finish is not None and cache_later:
        length = len(timeline.history.store)
        # Only for the game as it opened: an entry of a game that changed since would not match its bytes.
        game._cache_finish = lambda: finish() if len(timeline.history.store) == length else None
    return game


def _not_newer(path: Path, history: History) -> None:
    """SaveError if a Fireteam newer than this one wrote the save's last session: this one would
    write its older version after it, which ``fireteam verify`` takes for a claim made since
    (``core.secrets.sessions``), and might write what that version's rules read otherwise."""
    last = last_claimed(history.store)
    if newer(last):
        said = _(
            "{path}: written by Fireteam {version}, newer than this one ({mine}): play it on with {version} or "
            "later; this one opens it read-only (`fireteam {path} --replay`)"
        )
        raise SaveError(said.format(path=path, version=last, mine=core.__version__))


def keep_cache(game: Table) -> None:
    """What ``open(..., cache_later=True)`` left for later: write the cache's entry if the
    load found more than it held, and take the mark a game that grows goes on from.
    Once (later calls do nothing); nothing if the game changed since it opened."""
    finish, game._cache_finish = game._cache_finish, None
    if finish is not None:
        game.cache_mark = finish()


def close(game: Table) -> None:
    if game.writer is not None:
        mark = game.cache_mark
        if mark is not None and game.saved_bytes > mark.size:
            mark.keep(game.path, game.timeline, game.saved_bytes, game.saved_check, game.header.fireteam)
        game.writer.close()
        game.writer = None


def follow(game: Table, upto: int | None = None) -> list[Outcome]:
    """Take in what the save's writer (another process) appended, up to byte ``upto``.

    A game opened read-only can so follow a live table: the writer says how
    far its file is synced, and this copy reads the new records, folds them
    and tells its listeners, a command at a time.  Sizes it already holds
    are ignored, so the same news may arrive twice.  With no ``upto``, the
    whole commands the file holds now are taken (a client watching another
    process's game).  Raises SaveError if the new bytes are damaged.
    """
    if game.copy_role or (upto is not None and upto <= game.saved_bytes):
        return []  # a side's copy is written once: it never grows
    store = game.history.store
    base = len(store)
    events, payloads, check, end = read_commands(
        game.path, game.saved_bytes, upto, base, game.saved_check, game.header.fireteam
    )
    if not events:
        return []
    # The writer only names sizes between whole commands: anything else is
    # damage, and this copy cannot be trusted after it (open the save again).
    store.append(events, payloads)
    game._used = None  # gathered again when next needed, with the rolls just read
    game._counts = None
    try:
        game.history.feed(events, base)
    except HistoryError as e:
        raise SaveError(f"{game.path}: {e}") from None
    if game.history.pending() is not None:
        raise SaveError(
            _("{path}: bytes {start}-{end} end inside a command").format(
                path=game.path, start=game.saved_bytes, end=end
            )
        )
    game.timeline.catch_up()
    game.saved_bytes = end
    game.saved_check = check
    outcomes = []
    i = 0
    while i < len(events):
        first = events[i]
        size = 1 + first.n if isinstance(first, ev.Issued) else 1
        group = events[i : i + size]
        cmd = first.cmd if isinstance(first, ev.Issued | ev.Undone | ev.Redone) else 0
        outcomes.append(Outcome(cmd, group, [game.describe(e, REFEREE) for e in group]))
        i += size
    for outcome in outcomes:
        game._tell(outcome)
    return outcomes
