"""The organiser's signatures in a league file: the season's settings and each ruling (issue #90).

What the club agreed at ``league new`` (its points, its organiser, its players' keys, which games
count) is signed by the organiser with his own SSH key, the standard OpenSSH way, in the
namespace ``fireteam-league``; so is each ruling of his (``league rule``), bound to its league
(the SHA-256 of the settings' line, which the signature of the settings covers).  Whoever holds
the file can still append to it or cut its end, but not change what the organiser signed without
his key: the standings check both signatures again every time (``core.league.season``).

A confirmation typed at a seat is the word of the table that hosted it, and at a club the table's
host is its organiser: a game's seat confirmations count only when he vouches for them, signing
the league's identity, the certificate's digest and the sides confirmed (``vouch_data``) as he
adds the game (``league add --key``, ``serve --event --organiser-key``).

Fireteam signs by running ``ssh-keygen -Y sign -f KEY -n fireteam-league`` on the bytes (the
organiser's private key file, or its ``.pub`` with the key in ssh-agent; it asks his passphrase
itself), as a player signs a result: no private key is ever read by Fireteam.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterable
from pathlib import Path

import msgspec

from core.language.i18n import _
from core.league.certificate import Certificate, NotCounted, digest
from core.league.records import Opened, Ruled

#: The namespace of the organiser's signatures of a league's own records (never a result's).
NAMESPACE = "fireteam-league"
#: ``ssh-keygen -Y sign`` asks a passphrase at the terminal: the organiser's time, bounded.
SIGN_TIMEOUT_S = 300


def settings_data(opened: Opened) -> bytes:
    """What the organiser signs of the season: its record without the signature."""
    return msgspec.json.encode(msgspec.structs.replace(opened, signature=""))


def league_id(opened: Opened) -> str:
    """The league's identity: the SHA-256 (hex) of its signed settings, signature included."""
    return hashlib.sha256(msgspec.json.encode(opened)).hexdigest()


def ruling_data(opened: Opened, ruled: Ruled) -> bytes:
    """What the organiser signs of a ruling: its league's identity, then the ruling without the signature."""
    return league_id(opened).encode() + b"\n" + msgspec.json.encode(msgspec.structs.replace(ruled, signature=""))


def vouch_data(opened: Opened, cert: Certificate, confirmed: Iterable[str]) -> bytes:
    """What the organiser signs of a game's seat confirmations: its league's identity, the
    certificate's digest (what each seat confirmed), then the sides confirmed, sorted, as a JSON
    list (so that no list of sides reads as another: ``british,german`` is not two sides)."""
    return b"\n".join((league_id(opened).encode(), digest(cert).encode(), msgspec.json.encode(sorted(confirmed))))


def key_check_data(opened: Opened) -> bytes:
    """What a key signs to show, before it vouches for anything, that it is the organiser's
    (``serve --event`` at its start): no record's data (a record's begins with its JSON, or the
    league's identity)."""
    return b"fireteam: the organiser's key of the league " + league_id(opened).encode() + b"\n"


def sign(data: bytes, key: Path, namespace: str = NAMESPACE) -> str:
    """``data`` signed with ``key`` by ``ssh-keygen -Y sign`` in ``namespace`` (the league's; an
    event's records have their own: ``core.event.signing``): the armored signature; NotCounted
    saying why not (no ssh-keygen, a key it cannot use)."""
    command = ["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", namespace]
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=SIGN_TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise NotCounted(_("ssh-keygen was not found: signing needs OpenSSH 8.1 or later")) from None
    except subprocess.TimeoutExpired:
        raise NotCounted(_("ssh-keygen did not sign within {n} s").format(n=SIGN_TIMEOUT_S)) from None
    except OSError as e:
        raise NotCounted(_("ssh-keygen could not be run: {error}").format(error=e.strerror or e)) from None
    said = done.stderr.decode("utf-8", "replace").replace("Signing data on standard input", "").strip()
    if done.returncode != 0 or not done.stdout.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        raise NotCounted(_("{key}: ssh-keygen could not sign with it: {why}").format(key=key, why=said or "-"))
    return done.stdout.decode("ascii")
