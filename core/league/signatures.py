"""A club's allowed signers and the OpenSSH signatures of results (``ssh-keygen -Y sign``).

The club's players' keys are an OpenSSH allowed_signers file (ssh-keygen(1), "ALLOWED
SIGNERS"): one line a key, ``IDENTITY [OPTIONS] KEYTYPE BASE64KEY [COMMENT]``.  Read here as
hostile input: at most ``MAX_SIGNERS`` lines of at most ``MAX_LINE`` characters, identities
named exactly (no pattern: a club names its players), ``namespaces=`` honoured, a
``cert-authority`` line refused.  A signature is checked with the ``sshsig`` package (pure
Python over ``cryptography``): made in the namespace ``fireteam-result``, over exactly
the certificate's bytes, by a key of the club.  It reads Ed25519 and RSA keys.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import sshsig
from sshsig.allowed_signers import load_allowed_signers_file

from core.language.i18n import _
from core.league.certificate import NAMESPACE

#: A club's list is its players' keys and its organiser's: a few dozen.
MAX_SIGNERS = 1000
MAX_LINE = 16 << 10
#: An armored signature is under 2 KB for an RSA-4096 key.
MAX_SIGNATURE_BYTES = 16 << 10


class BadSignature(ValueError):
    """A signature that does not count, and why."""


@dataclass(frozen=True)
class Signer:
    """One key of the club: who it names, its ``KEYTYPE BASE64KEY``, its fingerprint."""

    identity: str
    key: str
    fingerprint: str


def parse_signers(text: str) -> list[Signer]:
    """The signers of an allowed_signers file's ``text``; ValueError naming the line if one is not sound."""
    lines = text.split("\n")
    if len(lines) > MAX_SIGNERS:
        raise ValueError(_("more than {n} lines: not a club's list of keys").format(n=MAX_SIGNERS))
    found: list[Signer] = []
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise ValueError(_("line {line}: longer than {n} characters").format(line=number, n=MAX_LINE))
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            (allowed,) = load_allowed_signers_file(io.StringIO(line.strip() + "\n"))
            public = sshsig.PublicKey.from_openssh_str(f"{allowed.key_type} {allowed.base64_key}")
        except NotImplementedError:
            said = _(
                "line {line}: a key of type {kind}: Fireteam checks Ed25519 and RSA keys "
                "(ssh-keygen -t ed25519 makes one)"
            )
            raise ValueError(said.format(line=number, kind=allowed.key_type)) from None
        except ValueError as e:
            raise ValueError(_("line {line}: {error}").format(line=number, error=e)) from None
        options = allowed.options or {}
        if "cert-authority" in options:
            raise ValueError(_("line {line}: a certificate authority is not a player's key").format(line=number))
        spaces = options.get("namespaces")
        if spaces is not None and NAMESPACE not in spaces.split(","):
            continue  # the club's key, but not for results
        for identity in allowed.principals.split(","):
            if not identity or any(c in identity for c in "*?!") or not identity.isprintable():
                said = _("line {line}: {identity} is not one player's name (no patterns)")
                raise ValueError(said.format(line=number, identity=repr(identity)))
            found.append(Signer(identity, public.openssh_str(), public.sha256_str()))
    return found


def check(data: bytes, armored: bytes, signers: list[Signer], namespace: str = NAMESPACE) -> Signer:
    """The club's signer whose key signed ``data`` (a certificate's bytes) in ``namespace`` (the
    results'; an event's statements have their own: ``core.event.signing``); BadSignature saying why not."""
    if len(armored) > MAX_SIGNATURE_BYTES:
        raise BadSignature(_("larger than a signature can be"))
    try:
        key = sshsig.check_signature(data, armored, namespace=namespace)
    except sshsig.InvalidSignature as e:
        raise BadSignature(
            _("not a valid signature of this certificate in the namespace {ns} ({error})").format(ns=namespace, error=e)
        ) from None
    except (ValueError, NotImplementedError) as e:
        raise BadSignature(_("not a signature Fireteam reads ({error})").format(error=e)) from None
    theirs = key.openssh_str()
    for signer in signers:
        if signer.key == theirs:
            return signer
    said = _("signed by the key {fingerprint}, which is not in the club's allowed signers")
    raise BadSignature(said.format(fingerprint=key.sha256_str()))
