"""The signatures in an event file: who decided each record (``core.event.records``).

A record's *statement* is what is signed: the event's identity (the SHA-256 of its signed
settings' line), a newline, then the record's JSON without its time and signature; the settings'
own statement is their JSON without the signature.  So a signature binds its record to its event,
and a player can sign a statement away from the organiser's machine (``fireteam event drop …
--statement`` prints it).  Signatures are made the standard OpenSSH way, in the namespace
``fireteam-event`` (never a result's nor a login's), by running ``ssh-keygen -Y sign`` on the
statement (a private key file, or its ``.pub`` with the key in ssh-agent; ssh-keygen asks a
passphrase itself): no private key is ever read by Fireteam.  They are checked against the
league's allowed signers (``core.league.signatures``) every time the file is read.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import msgspec

from core.event import league
from core.event.records import Opened, Record
from core.language.i18n import _

NAMESPACE = "fireteam-event"
#: ``ssh-keygen -Y sign`` may ask a passphrase at the terminal: the organiser's time, bounded.
SIGN_TIMEOUT_S = 300


class SigningError(league.NotCounted):
    """A statement that could not be signed, and why (exit status 1: nothing written)."""


def event_id(opened: Opened) -> str:
    """The event's identity: the SHA-256 (hex) of its signed settings."""
    return hashlib.sha256(msgspec.json.encode(opened)).hexdigest()


def statement(event: str, record: Record) -> bytes:
    """What is signed of ``record`` in the event whose identity is ``event`` ("" for the settings)."""
    bare = msgspec.json.encode(msgspec.structs.replace(record, at=0, signature=""))
    return bare if isinstance(record, Opened) else event.encode() + b"\n" + bare


def sign(data: bytes, key: Path) -> str:
    """``data`` signed with ``key`` by ``ssh-keygen -Y sign`` in the event's namespace: the armored signature."""
    command = ["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", NAMESPACE]
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=SIGN_TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise SigningError(_("ssh-keygen was not found: signing needs OpenSSH 8.1 or later")) from None
    except subprocess.TimeoutExpired:
        raise SigningError(_("ssh-keygen did not sign within {n} s").format(n=SIGN_TIMEOUT_S)) from None
    except OSError as e:
        raise SigningError(_("ssh-keygen could not be run: {error}").format(error=e.strerror or e)) from None
    said = done.stderr.decode("utf-8", "replace").replace("Signing data on standard input", "").strip()
    if done.returncode != 0 or not done.stdout.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        raise SigningError(_("{key}: ssh-keygen could not sign with it: {why}").format(key=key, why=said or "-"))
    return done.stdout.decode("ascii")


def signed(event: str, record: Record, key: Path) -> Record:
    """``record`` with its signature by ``key``."""
    return msgspec.structs.replace(record, signature=sign(statement(event, record), key))


def signer(event: str, record: Record, signers: tuple[league.Signer, ...]) -> league.Signer:
    """The club's key that signed ``record``; BadSignature saying why not."""
    if not record.signature:
        raise league.BadSignature(_("not signed"))
    data = statement(event, record)
    return league.check(data, record.signature.encode("ascii", "replace"), list(signers), namespace=NAMESPACE)
