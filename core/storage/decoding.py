"""A save's records decoded: the header (its shape, and the format it must not be
newer than) and the events, upgraded from an older format by the upcasters given.

A record that does not decode is refused by its line (``SaveError``); the reader
(``core.storage.savefile``), the open cache and salvage all decode with these.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import msgspec

from core.language.i18n import _
from core.log.events import TAGS, AnyEvent, Event
from core.log.recordint import RecordInt
from core.storage.errors import SaveError, corrupt, not_a_save

#: Version of the on-disk format.  Bump it when a record changes shape, and
#: register an upcaster for every tag that changed (``core.storage.savefile.UPCASTERS``).
#: 1: each line's check covers its own JSON.  2: the checks are chained.
#: 3: secrets are committed (``core.secrets.commitments``) and words are messages
#: (``core.language.i18n.Msg``), which a reader of format 2 cannot decode.
FORMAT_VERSION = 3


class Parent(msgspec.Struct, frozen=True):
    """The save a fork was made from (``fireteam fork``, ``core.storage.fork``): its path when
    forked, the SHA-256 of the bytes read from it, and the effective step forked at."""

    path: str
    sha256: str
    step: RecordInt


class Header(msgspec.Struct, frozen=True, omit_defaults=True):
    fireteam: RecordInt
    ruleset: str
    ruleset_version: str
    engine: str
    created: str
    seed: RecordInt
    variant: str = ""
    #: Set on a what-if game forked from another save; absent otherwise (older saves too).
    parent: Parent | None = None


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

_event_decoder = msgspec.json.Decoder(AnyEvent)
_events_decoder = msgspec.json.Decoder(list[AnyEvent])
#: One record of today's format as the reader decodes it (msgspec.ValidationError or DecodeError if it would refuse it).
decode_event = _event_decoder.decode
_any_decoder = msgspec.json.Decoder()


def decode_batch(
    path: Path,
    payloads: list[bytes],
    base: int,
    version: int,
    upcasters: dict[int, dict[str, Upcaster]],
    fast: bool = True,
) -> list[Event]:
    """The events ``payloads`` hold, from line ``base + 2`` on (``fast``: records of
    today's format; else upgraded from ``version``); SaveError naming the first
    line that is not a valid event."""
    if fast:
        return decode_joined(path, payloads, base, b"[" + b",".join(payloads) + b"]")
    return _decode_each(path, payloads, base, lambda payload: _upcast(payload, version, upcasters))


def decode_joined(path: Path, payloads: list[bytes], base: int, joined: bytes) -> list[Event]:
    """Records of today's format, ``joined`` into a JSON array: decoded in one call,
    or line by line to name the one that is not a valid event (a number out of
    range among them: the events' integers are ``RecordInt``s, ``core.log.recordint``)."""
    try:
        events = cast(list[Event], _events_decoder.decode(joined))  # each of the union is an Event
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        pass  # find the culprit line by line, below (UnicodeDecodeError: msgspec on bad UTF-8)
    else:
        if len(events) == len(payloads):
            return events
    return _decode_each(path, payloads, base, _event_decoder.decode)


def _decode_each(path: Path, payloads: list[bytes], base: int, decode: Callable[[bytes], Event]) -> list[Event]:
    events: list[Event] = []
    for i, payload in enumerate(payloads):
        try:
            events.append(decode(payload))
        except (msgspec.ValidationError, msgspec.DecodeError, KeyError, TypeError, ValueError, RecursionError) as e:
            # +1 for the header line, +1 to count lines from 1.  (RecursionError: messages
            # nested in one another deeper than the decoder goes, which no game writes.)
            raise corrupt(path, base + i + 2, _("invalid event: {error}").format(error=e)) from None
    return events


def decode_header(path: Path, payload: bytes) -> Header:
    try:
        raw = _any_decoder.decode(payload)
    except (msgspec.DecodeError, UnicodeDecodeError):
        raw = None
    if not isinstance(raw, dict) or "fireteam" not in raw:
        raise not_a_save(path)
    version = raw.get("fireteam")
    if isinstance(version, int) and version > FORMAT_VERSION:
        raise SaveError(
            _(
                "{path}: written by a newer Fireteam (save format {version}; this version reads up to {known}). "
                "Upgrade Fireteam to open it."
            ).format(path=path, version=version, known=FORMAT_VERSION)
        )
    try:
        header = msgspec.convert(raw, Header)
    except msgspec.ValidationError as e:
        raise SaveError(
            _("{path}:1: invalid header: {error}; is this the right file?").format(path=path, error=e)
        ) from None
    if header.fireteam < 0:
        said = _("{path}:1: invalid header: format version {version}; is this the right file?")
        raise SaveError(said.format(path=path, version=header.fireteam))
    return header


def _upcast(payload: bytes, version: int, upcasters: dict[int, dict[str, Upcaster]]) -> Event:
    record = _any_decoder.decode(payload)
    if not isinstance(record, dict):
        raise ValueError("record is not an object")
    for v in range(version, FORMAT_VERSION):
        tag = record.get("t")
        step = upcasters.get(v, {}).get(tag) if isinstance(tag, str) else None
        if step is not None:
            record = step(dict(record))
    if record.get("t") not in TAGS:
        raise ValueError(f"unknown event tag {record.get('t')!r}")
    return msgspec.convert(record, AnyEvent)
