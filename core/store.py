"""Every event of a save, in file order, held compactly.

A million decoded events would cost several hundred megabytes of Python
objects.  The store keeps them instead as the JSON they were read from, packed
``CHUNK`` records to a JSON array; a chunk decodes in one msgspec call when it
is needed, and a small cache keeps the chunks in use decoded.  Per event it
keeps only one byte: its kind (fact, command marker, undo, redo, phase).
"""

from __future__ import annotations

from collections import OrderedDict

import msgspec

from core import events as ev

CHUNK = 1024
CACHE_CHUNKS = 48

FACT, ISSUED, UNDONE, REDONE, PHASE = range(5)
_KIND = {t: FACT for t in ev.EVENT_TYPES} | {
    ev.Issued: ISSUED,
    ev.Undone: UNDONE,
    ev.Redone: REDONE,
    ev.PhaseBegan: PHASE,
}

_list_decoder = msgspec.json.Decoder(list[ev.AnyEvent])


def kind_of(e: ev.Event) -> int:
    return _KIND[type(e)]


class EventStore:
    def __init__(self) -> None:
        self._sealed: list[bytes] = []  # JSON arrays of exactly CHUNK events
        self._tail: list[ev.Event] = []  # the last, unsealed chunk, decoded
        self._tail_json: list[bytes] = []
        self._cache: OrderedDict[int, list[ev.Event]] = OrderedDict()
        self.kinds = bytearray()

    def __len__(self) -> int:
        return len(self.kinds)

    def append(self, events: list[ev.Event], payloads: list[bytes]) -> None:
        """Add events with their JSON encodings (as written to the file)."""
        kinds = self.kinds
        for e, p in zip(events, payloads, strict=True):
            self._tail.append(e)
            self._tail_json.append(p)
            kinds.append(_KIND.get(type(e), FACT))
            if len(self._tail) == CHUNK:
                self._seal()

    def append_chunk(self, events: list[ev.Event], array_json: bytes) -> None:
        """Fast path for loading: a whole chunk, already an encoded JSON array."""
        assert not self._tail and len(events) == CHUNK
        index = len(self._sealed)
        self._sealed.append(array_json)
        self.kinds.extend(map(_KIND.__getitem__, map(type, events)))
        self._remember(index, events)

    def _seal(self) -> None:
        index = len(self._sealed)
        self._sealed.append(b"[" + b",".join(self._tail_json) + b"]")
        self._remember(index, self._tail)
        self._tail = []
        self._tail_json = []

    def _remember(self, index: int, events: list[ev.Event]) -> None:
        self._cache[index] = events
        self._cache.move_to_end(index)
        while len(self._cache) > CACHE_CHUNKS:
            self._cache.popitem(last=False)

    def _chunk(self, index: int) -> list[ev.Event]:
        if index == len(self._sealed):
            return self._tail
        events = self._cache.get(index)
        if events is None:
            events = _list_decoder.decode(self._sealed[index])
            self._remember(index, events)
        else:
            self._cache.move_to_end(index)
        return events

    def __getitem__(self, i: int) -> ev.Event:
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._chunk(i // CHUNK)[i % CHUNK]

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
        for k in [k for k in self._cache if k >= n // CHUNK]:
            del self._cache[k]
        del self.kinds[n - n % CHUNK :]
        self._tail, self._tail_json = [], []
        enc = msgspec.json.encode
        self.append(keep, [enc(e) for e in keep])
