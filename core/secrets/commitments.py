"""Secrets anyone can verify: every secret is committed when it is set, and opened when shown.

A *secret fact* is a :class:`~core.log.events.SecretSet` (a side's written secret:
objective markers, IEDs, mines, a scenario file's secrets), a ``secret.``
:class:`~core.log.events.VarSet` that some role may not see (the referee's: Linea
di Tiro's shuffled deck and ambushes, Bassa Intensità's hidden death rolls,
covering-fire screens and fire missions; a hidden figure's bookkeeping), or a
hidden piece's :class:`~core.log.events.UnitAdded` (its key is ``unit.<id>``, its
value the canonical JSON of its ``UnitSpec``).  When a command sets one, the game
(:func:`seal`) gives it a random salt and puts a :class:`~core.log.events.Committed`
right after it: the SHA-256 of its canonical encoding.  The salt stays with the
fact, as private as its value (``vis``); the commitment is seen by everyone who
sees the rest of the command.  A command of secrets alone (an IED laid, explosives
bought) and a hidden piece, or a fact about one, are committed only to those who
see the fact: that they exist at all is the secret.  A reveal carries the value, the salt and the
digest it opens, so anyone can check it; when a command ends the game, every
commitment not yet opened is (``Revealed`` for the secrets still standing,
:class:`~core.log.events.Opened` for the rest).  ``core.secrets.verify`` checks them all.

The canonical encoding is the compact JSON of ``["fireteam-secret/1", key,
value, salt]`` (msgspec: no spaces, UTF-8), so it can be checked by hand:
``sha256(b'["fireteam-secret/1","ied.usa.1","vehicle","9f…"]')``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import TypeGuard

import msgspec

from core.log import events as ev
from core.log.state import SEALED_ORDERS, SECRET_VARS, GameState
from core.log.views import REFEREE, REFEREE_ONLY

DOMAIN = "fireteam-secret/1"
#: Bytes of randomness in a salt (as hex: twice as many characters).
SALT_BYTES = 16

SecretFact = ev.SecretSet | ev.VarSet | ev.UnitAdded
Opening = ev.Revealed | ev.Opened


def new_salt() -> str:
    import secrets  # (a secret recorded: not at a client's start)

    return secrets.token_hex(SALT_BYTES)


def digest(key: str, value: int | str, salt: str) -> str:
    return hashlib.sha256(msgspec.json.encode([DOMAIN, key, value, salt])).hexdigest()


def is_secret(e: ev.Event) -> TypeGuard[SecretFact]:
    """Whether ``e`` sets a secret that needs a commitment."""
    if isinstance(e, ev.SecretSet):
        return True
    if isinstance(e, ev.UnitAdded):
        return bool(e.vis)
    return isinstance(e, ev.VarSet) and bool(e.vis) and e.key.startswith(SECRET_VARS)


def key_of(e: SecretFact) -> str:
    return f"unit.{e.unit.id}" if isinstance(e, ev.UnitAdded) else e.key


def value_of(e: SecretFact) -> int | str:
    return msgspec.json.encode(e.unit).decode() if isinstance(e, ev.UnitAdded) else e.value


def fact_digest(e: SecretFact) -> str:
    return digest(key_of(e), value_of(e), e.salt)


def owner_of(e: SecretFact) -> str:
    """Whose secret: a side's, or, for a variable, those who may see it (the referee alone
    for his own; a hidden figure's side for its bookkeeping)."""
    if isinstance(e, ev.SecretSet):
        return e.owner
    if isinstance(e, ev.UnitAdded):
        return e.unit.side
    return "+".join(v for v in e.vis if v != REFEREE) or REFEREE


def opens(e: ev.Event) -> TypeGuard[Opening]:
    """Whether ``e`` opens a commitment (a reveal made since commitments exist)."""
    return isinstance(e, ev.Revealed | ev.Opened) and bool(e.salt)


def matches(e: Opening) -> bool:
    """Whether an opening's value and salt hash to the commitment it names."""
    return digest(e.key, e.value, e.salt) == e.digest


def seal(
    events: list[ev.Event],
    state: GameState,
    history: Iterable[ev.Event] | None,
    salt: Callable[[], str] = new_salt,
) -> list[ev.Event]:
    """A command's facts with its secrets salted and committed and its reveals opened.

    ``state`` is the table before the command (for the salts of the secrets a
    reveal shows).  ``history`` is the effective history before it, read only
    if the command ends the game: every commitment not opened yet is opened then.
    """
    # A commitment tells that the command happened: it is seen by whoever sees any of its other
    # facts; a command of secrets alone (an IED laid) stays as unseen as it was.
    others = [e.vis for e in events if not is_secret(e)]
    audience = _widest(others) if others else None
    salts: dict[str, tuple[str, str]] = {}  # this command's secrets so far: key -> (value, salt)
    out: list[ev.Event] = []
    for e in events:
        if is_secret(e) and not e.salt:
            e = msgspec.structs.replace(e, salt=salt())
            out.append(e)
            if _sealed_order(e):
                vis: tuple[str, ...] = ()
            else:
                vis = e.vis if audience is None or _of_a_figure(e) else audience
            out.append(ev.Committed(digest=fact_digest(e), owner=owner_of(e), vis=vis))
            if type(e) is ev.SecretSet:
                salts[e.key] = e.value, e.salt
            continue
        if type(e) is ev.Revealed and not e.salt:
            e = _opened(e, salts, state)
        out.append(e)
    if any(type(e) is ev.GameEnded for e in out) and history is not None:
        end = next(i for i, e in enumerate(out) if type(e) is ev.GameEnded)
        out[end:end] = _open_all([*history, *out[:end]])
    return out


def _sealed_order(e: SecretFact) -> bool:
    """A side's sealed order (``seal``): committed to everyone, so every side sees that it was
    written and when, and can hold its opening to it; its words stay its side's."""
    return type(e) is ev.SecretSet and e.key.startswith(SEALED_ORDERS)


def _of_a_figure(e: SecretFact) -> bool:
    """A hidden piece, or a fact about one (seen by its side and those who spotted it): its
    commitment is seen only by them, since that such a piece exists, or that the command
    touched it, is itself the secret."""
    return type(e) is ev.UnitAdded or type(e) is ev.VarSet and e.vis != REFEREE_ONLY


def _widest(audiences: list[tuple[str, ...]]) -> tuple[str, ...]:
    """Those who may see at least one of ``audiences`` (() = everyone)."""
    if not all(audiences):
        return ()
    return tuple(sorted(set().union(*audiences)))


def _opened(e: ev.Revealed, salts: dict[str, tuple[str, str]], state: GameState) -> ev.Revealed:
    if e.key in salts:
        value, salt = salts[e.key]
    else:
        secret = state.secrets.get(e.key)
        if secret is None or not secret.salt:
            return e  # set before commitments existed: nothing to open
        value, salt = secret.value, secret.salt
    # The digest named is the commitment's; ``e.value`` is what is shown (the narration says if they differ).
    return msgspec.structs.replace(e, salt=salt, digest=digest(e.key, value, salt))


def _open_all(events: list[ev.Event]) -> list[ev.Event]:
    """The openings of every commitment in ``events`` not opened in them (the end of a game).

    A secret still standing is revealed to all; any other opening is seen by
    those who saw its commitment (a hidden figure's bookkeeping stays theirs).
    """
    committed: dict[str, tuple[SecretFact, tuple[str, ...]]] = {}  # digest -> fact, commitment's vis
    current: dict[str, str] = {}  # a SecretSet key -> the digest of its value now
    revealed: set[str] = set()  # SecretSet keys shown
    opened: set[str] = set()
    previous: ev.Event | None = None
    for e in events:
        if isinstance(e, ev.Committed) and previous is not None and is_secret(previous) and previous.salt:
            committed[e.digest] = previous, e.vis
            if isinstance(previous, ev.SecretSet):
                current[previous.key] = e.digest
                revealed.discard(previous.key)
        elif isinstance(e, ev.Revealed):
            revealed.add(e.key)
            if e.digest:
                opened.add(e.digest)
        elif isinstance(e, ev.Opened):
            opened.add(e.digest)
        previous = e
    out: list[ev.Event] = []
    for d, (fact, vis) in committed.items():
        if d in opened:
            continue
        if isinstance(fact, ev.SecretSet) and current.get(fact.key) == d and fact.key not in revealed:
            out.append(ev.Revealed(key=fact.key, value=fact.value, salt=fact.salt, digest=d))
        else:
            replaced = isinstance(fact, ev.SecretSet) and current.get(fact.key) != d
            out.append(
                ev.Opened(key=key_of(fact), value=value_of(fact), salt=fact.salt, digest=d, vis=vis, replaced=replaced)
            )
    return out
