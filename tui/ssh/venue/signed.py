"""Who published a venue message: an SSH key's signature in its headers (issue #75).

NATS cannot tell a subscriber who published a message: anyone whose credentials may publish
on a subject is believed by its readers.  So a table signs each view and each chances message
it publishes with its server's SSH host key (``ssh_host_ed25519_key``, the key its players
already know by the fingerprint ``fireteam serve`` prints), and a relay signs its announcements
with its own host key; the readers check the signature with asyncssh (``SSHKey.verify``) and
know each message by its signer's fingerprint (docs/ssh.md, *Who published a message*).

What is signed is the subject and the body together (a view signed for one table is no other
table's), behind a label of its own (a venue signature is no signature of anything else).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping

import asyncssh

KEY_HEADER = "Fireteam-Key"
SIGNATURE_HEADER = "Fireteam-Signature"
#: A public key's header at most (an ed25519 key is 80 characters; a 4096-bit RSA key's 720).
MAX_KEY_CHARS = 1024
#: A signature's header at most (an ed25519 signature is 112 characters in base64; RSA 4096's 700).
MAX_SIGNATURE_CHARS = 1024
_LABEL = b"fireteam venue message\0"
#: A public key's header: ``ALGORITHM BASE64``, as ``public_line`` writes it, and nothing else.
_KEY_LINE = re.compile(r"[a-z0-9@.-]{1,64} [A-Za-z0-9+/]+={0,2}")


def _signed(subject: str, body: bytes) -> bytes:
    return _LABEL + subject.encode("utf-8") + b"\0" + body


def public_line(key: asyncssh.SSHKey) -> str:
    """The key as ``ALGORITHM BASE64``, without its comment."""
    return f"{key.algorithm.decode('ascii')} {base64.b64encode(key.public_data).decode('ascii')}"


def signed_headers(key: asyncssh.SSHKey, subject: str, body: bytes) -> dict[str, str]:
    """The headers that say ``key`` published ``body`` on ``subject``."""
    signature = key.sign(_signed(subject, body), key.sig_algorithms[0])
    return {KEY_HEADER: public_line(key), SIGNATURE_HEADER: base64.b64encode(signature).decode("ascii")}


def signer(subject: str, body: bytes, headers: Mapping[str, str] | None) -> str | None:
    """The fingerprint (``SHA256:...``) of the key that signed ``body`` on ``subject``; None when the
    message is unsigned or its signature is not that key's (every header is hostile input)."""
    headers = headers or {}
    line, signature = headers.get(KEY_HEADER, ""), headers.get(SIGNATURE_HEADER, "")
    if len(line) > MAX_KEY_CHARS or len(signature) > MAX_SIGNATURE_CHARS or not _KEY_LINE.fullmatch(line):
        return None
    try:
        key = asyncssh.import_public_key(line)
        if not key.verify(_signed(subject, body), base64.b64decode(signature, validate=True)):
            return None
    except (asyncssh.KeyImportError, binascii.Error, ValueError):
        return None
    return key.get_fingerprint()
