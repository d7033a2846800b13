"""Every event of a save, in file order, held compactly.

A million decoded events would cost several hundred megabytes of Python
objects.  The store keeps them instead as the JSON they were read from, packed
``CHUNK`` records to a JSON array; a chunk decodes in one msgspec call when it
is needed, and a small cache keeps the chunks in use decoded.  Per event it
keeps only one byte: its kind (a fact that changes the state, a variable set, a
command marker, an undo, a redo, a fact that only lives in the log, a phase).
Beside them it keeps where each command that names the Fireteam that wrote it
stands, and that version (``claims``: a session's first command names it).

A store restored by ``core.storage.opencache`` does not even hold that JSON for the
chunks it restored: it holds the save's own bytes, and a chunk's lines are
stripped of their frames and joined into the array when it is first needed.
Where those chunks start comes from the cache's entry, which is not believed:
before a restored chunk is first used, it and every restored chunk before it
are counted to be exactly ``CHUNK`` lines, its events to be of the kinds the
store holds for them, and its commands to name the versions its claims say
(``RestoreMismatch`` if not).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable
from itertools import compress, pairwise
from operator import attrgetter, itemgetter
from typing import cast

import msgspec

from core.language.i18n import _
from core.log import events as ev
from core.log.state import CHANGING

CHUNK = 1024
CACHE_CHUNKS = 48
#: Chunks a load keeps decoded (``append_chunk``): its fold reads only the newest
#: two, and a chunk's events freed a few chunks after they were made are freed
#: while their memory is still in the processor's cache (with 48 kept, 0.08 s more
#: of a million-event load's CPU went on freeing them).
LOADING_CACHE_CHUNKS = 3
#: A line of the save is its payload, framed by the 8-digit check, a space and a newline.
FRAME_BYTES = 10

#: The kinds: ``FACT`` changes the state, ``LOGGED`` (a roll, a note, a commitment: most
#: of a game) only lives in the log, so a fold passes over it by its kind alone
#: (``core.log.replay``).  ``VAR``, a variable set (``VarSet``), changes the state too: a
#: kind of its own tells the chunks that hold one without decoding them (the referee's log
#: pane looks for the inner variables so, ``tui.logindex``).  The markers run from
#: ``ISSUED`` to ``REDONE``; ``PHASE`` is the highest.
FACT, ISSUED, UNDONE, REDONE, LOGGED, VAR, PHASE = range(7)
_KIND = {t: FACT if t in CHANGING else LOGGED for t in ev.EVENT_TYPES} | {
    ev.Issued: ISSUED,
    ev.Undone: UNDONE,
    ev.Redone: REDONE,
    ev.VarSet: VAR,
    ev.PhaseBegan: PHASE,
}
assert {ev.VarSet, ev.PhaseBegan} <= CHANGING and not CHANGING & {ev.Issued, ev.Undone, ev.Redone}
_IS_ISSUED = bytes(kind == ISSUED for kind in range(256))
_version_of = attrgetter("version")
_at = itemgetter(0)

_list_decoder = msgspec.json.Decoder(list[ev.AnyEvent])


def kinds_of(events: list[ev.Event]) -> bytes:
    return bytes(map(_KIND.__getitem__, map(type, events)))


def claims_of(events: list[ev.Event], kinds: bytes | bytearray, base: int) -> list[tuple[int, str]]:
    """Where each command of ``events`` (of kinds ``kinds``, from store index ``base``)
    that names a version stands, and the version.  Its commands found by the kinds, the
    question is a pass of C over them (about 2.5 ms of a load of 100,000 events, 33,000
    commands, where a search of their JSON for a claim takes 4.5); only a batch that
    holds a claim, one a session, is gone through in Python."""
    if not any(map(_version_of, compress(events, kinds.translate(_IS_ISSUED)))):
        return []
    return [(base + i, e.version) for i, e in enumerate(events) if type(e) is ev.Issued and e.version]


class RestoreMismatch(Exception):
    """A chunk of a restored store is not what the open cache's entry said it is:
    its lines are not ``CHUNK`` from where the store expects them, or its events are
    of other kinds, or its commands name other versions.  Nothing of it has been
    shown, and the entry is gone."""

    def __rich__(self) -> str:
        # What a Textual app shows, instead of a traceback, as this ends it (``App.panic``):
        # a game cannot go on from an entry that lied.  The message is Fireteam's own.
        return f"fireteam: {self}"


class EventStore:
    def __init__(self) -> None:
        self._sealed: list[bytes | memoryview] = []  # JSON arrays of exactly CHUNK events
        #: The first ``_framed`` sealed chunks are the save's lines themselves (``restored``).
        self._framed = 0
        #: Of those, the first ``_counted`` have been found to hold CHUNK lines each.
        self._counted = 0
        self._save: bytes = b""  # the save's bytes and where each chunk of them starts
        self._offsets: list[int] = []
        self._distrust: Callable[[], None] = lambda: None
        self._tail: list[ev.Event] = []  # the last, unsealed chunk, decoded
        self._tail_json: list[bytes] = []
        self._cache: OrderedDict[int, list[ev.Event]] = OrderedDict()
        self.kinds = bytearray()
        #: (store index, version) of each command naming the Fireteam that wrote it, in order.
        self.claims: list[tuple[int, str]] = []

    @classmethod
    def restored(
        cls,
        data: bytes,
        offsets: list[int],
        kinds: bytearray,
        claims: list[tuple[int, str]],
        tail: list[ev.Event],
        tail_json: list[bytes],
        distrust: Callable[[], None],
    ) -> EventStore:
        """A store whose sealed chunk ``k`` is the whole lines of ``data`` in
        ``[offsets[k], offsets[k + 1])`` (the caller checks that they are whole
        lines; this store, that there are CHUNK of them, as each is first used),
        then the events ``tail``; ``kinds`` and ``claims`` cover them all.  ``distrust`` is
        called before ``RestoreMismatch`` is raised (it forgets the entry)."""
        store = cls()
        view = memoryview(data)
        store._sealed = [view[a:b] for a, b in pairwise(offsets)]
        store._framed = len(store._sealed)
        store._save, store._offsets, store._distrust = data, offsets, distrust
        store._tail, store._tail_json = tail, tail_json
        store.kinds, store.claims = kinds, claims
        return store

    def file_offsets(self, start: int) -> list[int]:
        """Where each sealed chunk would start in a save whose first event's line
        starts at ``start`` and whose lines hold exactly the store's payloads, and
        where the unsealed tail would start (``core.storage.opencache`` checks the claim)."""
        offsets = [start]
        for k, chunk in enumerate(self._sealed):
            # "[" and "]" and a comma between payloads in place of a frame on each line.
            size = len(chunk) if k < self._framed else len(chunk) - 2 - (CHUNK - 1) + CHUNK * FRAME_BYTES
            offsets.append(offsets[-1] + size)
        return offsets

    @property
    def tail_json(self) -> list[bytes]:
        """The payloads of the events after the last sealed chunk."""
        return self._tail_json

    @property
    def last_claimed(self) -> str:
        """The version the last command that names one names ("" if none does): the version of the
        save's last session (which claims are believed is ``core.secrets.sessions``'s to say)."""
        return self.claims[-1][1] if self.claims else ""

    def __len__(self) -> int:
        return len(self.kinds)

    def append(self, events: list[ev.Event], payloads: list[bytes]) -> None:
        """Add events with their JSON encodings (as written to the file)."""
        kinds = self.kinds
        for e, p in zip(events, payloads, strict=True):
            self._tail.append(e)
            self._tail_json.append(p)
            kinds.append(_KIND.get(type(e), FACT))
            if type(e) is ev.Issued and e.version:
                self.claims.append((len(kinds) - 1, e.version))
            if len(self._tail) == CHUNK:
                self._seal()

    def append_chunk(self, events: list[ev.Event], array_json: bytes) -> None:
        """Fast path for loading: a whole chunk, already an encoded JSON array."""
        assert not self._tail and len(events) == CHUNK
        index = len(self._sealed)
        self._sealed.append(array_json)
        kinds = kinds_of(events)
        self.claims += claims_of(events, kinds, len(self.kinds))
        self.kinds.extend(kinds)
        self._remember(index, events, min(LOADING_CACHE_CHUNKS, CACHE_CHUNKS))

    def _seal(self) -> None:
        index = len(self._sealed)
        self._sealed.append(b"[" + b",".join(self._tail_json) + b"]")
        self._remember(index, self._tail)
        self._tail = []
        self._tail_json = []

    def _remember(self, index: int, events: list[ev.Event], keep: int | None = None) -> None:
        """Keep chunk ``index`` decoded, and no more than ``keep`` (``CACHE_CHUNKS``) chunks in all."""
        self._cache[index] = events
        self._cache.move_to_end(index)
        while len(self._cache) > (CACHE_CHUNKS if keep is None else keep):
            self._cache.popitem(last=False)

    def _chunk(self, index: int) -> list[ev.Event]:
        if index == len(self._sealed):
            return self._tail
        events = self._cache.get(index)
        if events is None:
            events = cast(list[ev.Event], _list_decoder.decode(self._json(index)))  # each of the union is an Event
            if index < self._framed:
                kinds = kinds_of(events)
                if kinds != self.kinds[index * CHUNK : (index + 1) * CHUNK] or claims_of(
                    events, kinds, index * CHUNK
                ) != self._claims_from(index * CHUNK, (index + 1) * CHUNK):
                    self._mismatch(index)
            self._remember(index, events)
        else:
            self._cache.move_to_end(index)
        return events

    def _json(self, index: int) -> bytes | memoryview:
        chunk = self._sealed[index]
        if index >= self._framed:
            return chunk
        self._count_through(index)
        lines = bytes(chunk).split(b"\n")
        lines.pop()  # after the last newline
        return b"[" + b",".join([line[9:] for line in lines]) + b"]"  # past the check and its space

    def _count_through(self, index: int) -> None:
        """Count the lines of the restored chunks up to ``index``: only if each before
        it holds CHUNK lines does chunk ``index`` start at event ``index * CHUNK``.
        (Counting them all as the store is restored took 10 ms for 100,000 events, and
        a game seldom reads further back than its last chunks.)"""
        save, offsets = self._save, self._offsets
        while self._counted <= index:
            k = self._counted
            if save.count(b"\n", offsets[k], offsets[k + 1]) != CHUNK:
                self._mismatch(k)
            self._counted += 1

    def _mismatch(self, index: int) -> None:
        self._distrust()
        said = _("events {first} to {last} are not where the open cache's entry for this save said; open it again")
        raise RestoreMismatch(said.format(first=index * CHUNK + 1, last=(index + 1) * CHUNK))

    def __getitem__(self, i: int) -> ev.Event:
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._chunk(i // CHUNK)[i % CHUNK]

    def _claims_from(self, start: int, end: int) -> list[tuple[int, str]]:
        """The claims of the commands at store indices ``start`` to ``end``."""
        claims = self.claims
        return claims[bisect_left(claims, start, key=_at) : bisect_left(claims, end, key=_at)]

    def slice(self, start: int, end: int) -> list[ev.Event]:
        end = min(end, len(self))
        out: list[ev.Event] = []
        while start < end:
            c, off = divmod(start, CHUNK)
            take = min(end - start, CHUNK - off)
            out.extend(self._chunk(c)[off : off + take])
            start += take
        return out

    def truncate(self, n: int) -> None:
        """Drop events from ``n`` on (a command torn by a crash at the end of a file)."""
        if n >= len(self):
            return
        keep = self.slice(n - n % CHUNK, n)
        del self._sealed[n // CHUNK :]
        self._framed = min(self._framed, len(self._sealed))
        for k in [k for k in self._cache if k >= n // CHUNK]:
            del self._cache[k]
        del self.kinds[n - n % CHUNK :]
        del self.claims[bisect_left(self.claims, n - n % CHUNK, key=_at) :]
        self._tail, self._tail_json = [], []
        enc = msgspec.json.encode
        self.append(keep, [enc(e) for e in keep])
