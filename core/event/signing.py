"""The signatures in an event file: who decided each record (``core.event.records``).

A record's *statement* is what is signed: the event's identity (the SHA-256 of its signed
settings' line), a newline, then the record's JSON without its time and signature; the settings'
own statement is their JSON without the signature.  So a signature binds its record to its event,
and a player can sign a statement away from the organiser's machine (``fireteam event drop …
--statement`` prints it).  Signatures are made as the league's organiser makes his
(``core.league.organiser.sign``: ``ssh-keygen -Y sign``, no private key ever read by Fireteam),
in the namespace ``fireteam-event`` (never a result's, a league's nor a login's), and judged
against the league's allowed signers at the time each record was made, every time the file is read.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

from core.event import league
from core.event.records import Opened, Record
from core.language.i18n import _

NAMESPACE = "fireteam-event"


def event_id(opened: Opened) -> str:
    """The event's identity: the SHA-256 (hex) of its signed settings."""
    return hashlib.sha256(msgspec.json.encode(opened)).hexdigest()


def statement(event: str, record: Record) -> bytes:
    """What is signed of ``record`` in the event whose identity is ``event`` ("" for the settings)."""
    bare = msgspec.json.encode(msgspec.structs.replace(record, at=0, signature=""))
    return bare if isinstance(record, Opened) else event.encode() + b"\n" + bare


def signed(event: str, record: Record, key: Path) -> Record:
    """``record`` with its signature by ``key``."""
    return msgspec.structs.replace(record, signature=league.sign(statement(event, record), key, NAMESPACE))


def signer(event: str, record: Record, club: league.League) -> league.Signer:
    """The club's key that signed ``record``, judged at the time it was recorded; BadSignature saying why not."""
    if not record.signature:
        raise league.BadSignature(_("not signed"))
    return club.signer(statement(event, record), record.signature, record.at, NAMESPACE)
