"""A club's allowed signers and the OpenSSH signatures of results (``ssh-keygen -Y sign``).

The club's players' keys are an OpenSSH allowed_signers file (ssh-keygen(1), "ALLOWED
SIGNERS"): one line a key, ``IDENTITY [OPTIONS] KEYTYPE BASE64KEY [COMMENT]``.  Read here as
hostile input: at most ``MAX_SIGNERS`` lines of at most ``MAX_LINE`` characters, identities
named exactly (no pattern: a club names its players), one name a player (names compared folded,
``core.league.names``) and one player a key; a ``cert-authority`` line refused.  Each line's
options are judged as ``ssh-keygen -Y verify`` judges them (issue #90), with its reasons:

* ``namespaces="…"``: the key counts only for signatures made in one of them;
* ``valid-after="…"``, ``valid-before="…"`` (``YYYYMMDD[Z]`` or ``YYYYMMDDHHMM[SS][Z]``, the
  system's time zone unless ``Z``): the key counts only for a signature judged in that span.
  A signature carries no time of its own: ``league add`` judges it now, as ``ssh-keygen -Y
  verify`` does; the standings judge it again at the time the league recorded it (as ``-Overify-time``
  would), so a key that expires later does not void what it signed while valid.
* ``@revoked`` before a line (known_hosts' marker; ssh-keygen has none in this file and reads
  such a line as no key): the key never counts, whatever other line names it.

A signature is checked with the ``sshsig`` package (pure Python over ``cryptography``): made in
the namespace asked, over exactly the bytes given, by a key of the club.  It reads Ed25519 and
RSA keys.
"""

from __future__ import annotations

import calendar
import io
import re
import time
from dataclasses import dataclass

import sshsig
from sshsig.allowed_signers import load_allowed_signers_file
from sshsig.sshsig import SshsigSignature

from core.language.i18n import _
from core.league.certificate import NAMESPACE
from core.league.names import folded

#: A club's list is its players' keys and its organiser's: a few dozen.
MAX_SIGNERS = 1000
MAX_LINE = 16 << 10
#: An armored signature is under 2 KB for an RSA-4096 key.
MAX_SIGNATURE_BYTES = 16 << 10
#: What ``ssh-keygen -Y sign`` writes first.
ARMOR = b"-----BEGIN SSH SIGNATURE-----"
#: ``@revoked`` before a line: its key never counts.
REVOKED = "@revoked"
#: A key's type, as a .pub file's first word gives it (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, sk-…).
_KEY_TYPE = re.compile(r"(ssh|ecdsa|sk)-[\w@.-]+")
#: ssh-keygen(1)'s forms of a time in an allowed_signers file.
_WHEN = re.compile(r"(\d{8})(\d{4}(\d{2})?)?(Z?)")


class BadSignature(ValueError):
    """A signature that does not count, and why."""


@dataclass(frozen=True)
class Signer:
    """One key of the club on one line: who it names, its ``KEYTYPE BASE64KEY``, its fingerprint,
    and what its line allows."""

    identity: str
    key: str
    fingerprint: str
    line: int = 0
    #: The namespaces it may sign in; None: any.
    namespaces: tuple[str, ...] | None = None
    #: Unix seconds: valid at or after / at or before (None: no bound), and as written.
    valid_after: int | None = None
    valid_before: int | None = None
    revoked: bool = False

    def allows(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces


def parse_signers(text: str, strict: bool = True) -> list[Signer]:
    """The signers of an allowed_signers file's ``text`` (``@revoked`` lines among them, marked);
    ValueError naming the line if one is not sound.  Not ``strict`` (a format-1 league's file,
    taken before issue #90): a key may name several players, and a name be written two ways."""
    lines = text.split("\n")
    if len(lines) > MAX_SIGNERS:
        raise ValueError(_("more than {n} lines: not a club's list of keys").format(n=MAX_SIGNERS))
    found: list[Signer] = []
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise ValueError(_("line {line}: longer than {n} characters").format(line=number, n=MAX_LINE))
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found += _line(number, line.strip())
    if strict:
        _one_player_a_key(found)
    return found


def _line(number: int, line: str) -> list[Signer]:
    revoked = False
    if line.startswith("@"):
        marker, _sp, line = line.partition(" ")
        if marker.lower() != REVOKED:
            said = _("line {line}: {marker} is no marker of an allowed_signers file (only @revoked is read here)")
            raise ValueError(said.format(line=number, marker=marker))
        revoked, line = True, line.strip()
        if not line:
            raise ValueError(_("line {line}: @revoked names no key").format(line=number))
    words = line.split()
    typed = [i for i, word in enumerate(words) if _KEY_TYPE.fullmatch(word)]
    if not typed or typed[0] == 0 or typed[0] == len(words) - 1:  # no name, no key's type, or no key after it
        said = _("line {line}: not a player's line: his name, then the first two words of his .pub file (NAME {key})")
        raise ValueError(said.format(line=number, key="ssh-ed25519 AAAA…"))
    try:
        (allowed,) = load_allowed_signers_file(io.StringIO(line + "\n"))
    except ValueError as e:
        raise ValueError(_("line {line}: {error}").format(line=number, error=str(e) or _("not a key's line"))) from None
    try:
        public = sshsig.PublicKey.from_openssh_str(f"{allowed.key_type} {allowed.base64_key}")
    except NotImplementedError:
        said = _(
            "line {line}: a key of type {kind}: Fireteam checks Ed25519 and RSA keys (ssh-keygen -t ed25519 makes one)"
        )
        raise ValueError(said.format(line=number, kind=allowed.key_type)) from None
    except ValueError as e:
        said = _("line {line}: {kind} {key}… is not a public key ({error})")
        shown = {"kind": allowed.key_type[:40], "key": allowed.base64_key[:12], "error": str(e) or _("unreadable")}
        raise ValueError(said.format(line=number, **shown)) from None
    options = allowed.options or {}
    if "cert-authority" in options:
        raise ValueError(_("line {line}: a certificate authority is not a player's key").format(line=number))
    spaces = options.get("namespaces")
    common = {
        "key": public.openssh_str(),
        "fingerprint": public.sha256_str(),
        "line": number,
        "namespaces": None if spaces is None else tuple(s.strip() for s in spaces.split(",")),
        "valid_after": _when(number, "valid-after", options.get("valid-after")),
        "valid_before": _when(number, "valid-before", options.get("valid-before")),
        "revoked": revoked,
    }
    out = []
    for identity in allowed.principals.split(","):
        if not identity or any(c in identity for c in "*?!") or not identity.isprintable():
            said = _("line {line}: {identity} is not one player's name (no patterns)")
            raise ValueError(said.format(line=number, identity=repr(identity)))
        out.append(Signer(identity, **common))  # type: ignore[arg-type]
    return out


def _when(line: int, option: str, text: str | None) -> int | None:
    """An allowed_signers time (ssh-keygen(1)): a date or a time, the system's zone unless ``Z``."""
    if text is None:
        return None
    found = _WHEN.fullmatch(text)
    try:
        if found is None:
            raise ValueError
        digits = found.group(1) + (found.group(2) or "0000") + ("" if found.group(3) else "00")
        parsed = time.strptime(digits, "%Y%m%d%H%M%S")
    except ValueError:
        said = _('line {line}: {option}="{text}": a date YYYYMMDD or a time YYYYMMDDHHMM[SS], with Z for UTC')
        raise ValueError(said.format(line=line, option=option, text=text)) from None
    return calendar.timegm(parsed) if found.group(4) else int(time.mktime(parsed))


def _one_player_a_key(found: list[Signer]) -> None:
    """One name a player (compared folded) and one player a key: a key named for two people, or a
    name written two ways, would let one person count as two."""
    names: dict[str, Signer] = {}
    keys: dict[str, Signer] = {}
    for s in found:
        if s.revoked:
            continue
        same = names.setdefault(folded(s.identity), s)
        if same.identity != s.identity:
            said = _("line {line}: {name} is {other} (line {at}) written another way: write one player's name one way")
            raise ValueError(said.format(line=s.line, name=repr(s.identity), other=repr(same.identity), at=same.line))
        owner = keys.setdefault(s.key, s)
        if folded(owner.identity) != folded(s.identity):
            said = _("line {line}: this key is {other}'s already (line {at}): a key is one player")
            raise ValueError(said.format(line=s.line, other=repr(owner.identity), at=owner.line))


def _stamp(seconds: float) -> str:
    """A time as ssh-keygen shows one (the system's zone)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(seconds))


def check(
    data: bytes, armored: bytes, signers: list[Signer], at: float, namespace: str = NAMESPACE, recorded: bool = False
) -> Signer:
    """The club's signer whose key signed ``data`` in ``namespace``, judged at ``at`` (unix
    seconds), as ``ssh-keygen -Y verify`` judges it; BadSignature saying why not.  ``recorded``:
    ``at`` is the time the signature was recorded (a re-check), else now; a refusal says which."""
    if len(armored) > MAX_SIGNATURE_BYTES:
        raise BadSignature(_("larger than a signature can be"))
    if not armored.lstrip().startswith(ARMOR) or not armored.isascii():
        said = _("not an SSH signature (it does not begin {armor}): give the file ssh-keygen -Y sign wrote")
        raise BadSignature(said.format(armor=ARMOR.decode()))
    try:
        SshsigSignature.from_armored(armored)
    except ValueError:  # (random bytes in the armor, a file cut short: no signature, not a changed result)
        said = _(
            "not an SSH signature: what lies between its BEGIN and END lines is not what ssh-keygen -Y sign writes"
        )
        raise BadSignature(said) from None
    try:
        key = sshsig.check_signature(data, armored, namespace=namespace)
    except sshsig.InvalidSignature as e:
        if str(e).startswith("Namespace"):  # (sshsig's own words, and nothing else says which)
            said = _("a signature made in another namespace than {ns} (ssh-keygen -Y sign -n {ns} makes one)")
        else:  # the key's signature does not hold over these bytes
            said = _("it does not verify over these bytes: they are not the ones that were signed")
        raise BadSignature(said.format(ns=namespace)) from None
    except (ValueError, NotImplementedError) as e:
        raise BadSignature(_("not a signature Fireteam reads ({error})").format(error=e)) from None
    theirs = key.openssh_str()
    lines = [s for s in signers if s.key == theirs]
    if not lines:
        said = _("signed by the key {fingerprint}, which is not in the club's allowed signers")
        raise BadSignature(said.format(fingerprint=key.sha256_str()))
    return judged(lines, at, namespace, recorded)


def judged(lines: list[Signer], at: float, namespace: str, recorded: bool = False) -> Signer:
    """Of the club's ``lines`` of one key, the one that lets it sign in ``namespace`` at ``at``;
    BadSignature with the reason of each line that does not (ssh-keygen's reasons), naming it,
    and the time it was judged at: now, or the time it was recorded (``recorded``)."""
    when = _("at the time it was recorded ({at})") if recorded else _("now ({at})")
    for s in lines:
        if s.revoked:
            said = _("signed by the key {fingerprint}, revoked in the club's allowed signers (line {line}: @revoked)")
            raise BadSignature(said.format(fingerprint=s.fingerprint, line=s.line))
    reasons = []
    for s in lines:
        if not s.allows(namespace):
            said = _(
                "the club's keys, line {line}: {name}'s key is not permitted for signatures "
                'in the namespace {ns} (namespaces="{spaces}")'
            )
            reasons.append(said.format(line=s.line, name=s.identity, ns=namespace, spaces=",".join(s.namespaces or ())))
        elif s.valid_before is not None and at > s.valid_before:
            said = _("the club's keys, line {line}: {name}'s key has expired: judged {when}, valid before {before}")
            shown = {"when": when.format(at=_stamp(at)), "before": _stamp(s.valid_before)}
            reasons.append(said.format(line=s.line, name=s.identity, **shown))
        elif s.valid_after is not None and at < s.valid_after:
            said = _("the club's keys, line {line}: {name}'s key is not yet valid: judged {when}, valid after {after}")
            shown = {"when": when.format(at=_stamp(at)), "after": _stamp(s.valid_after)}
            reasons.append(said.format(line=s.line, name=s.identity, **shown))
        else:
            return s
    raise BadSignature("; ".join(reasons))
