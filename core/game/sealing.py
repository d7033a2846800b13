"""The sealed dice: the key in force, the facts that seal a new one, and the dice a
command rolls (typed, sealed with its issuer's share, or seeded) (docs/secrets.md, "Sealed dice").
"""

from __future__ import annotations

import secrets as _secrets
from typing import TYPE_CHECKING

from core.commands import Parsed
from core.dice.faces import (
    CONTRIBUTION_BYTES,
    KEY_BYTES,
    Dice,
    ManualDice,
    SealedDice,
    SeededDice,
    Share,
)
from core.dice.shares import Counts, command_digest
from core.log import events as ev
from core.log.state import DICE_KEY
from core.log.views import (
    REFEREE,
    REFEREE_ONLY,
)
from core.secrets import commitments

if TYPE_CHECKING:
    from core.game.table import Asked, Table


#: The command that opens the sealed key so far and seals a new one (a referee's: ``Game._sealing``).
SEAL_DICE = "dice-key"


#: Commands waiting for an answer after their sealed dice rolled that one game keeps
#: (``Game._asked``): past it the oldest is forgotten, and given again draws afresh.
MAX_ASKED = 64


def new_contribution() -> bytes:
    """A contribution to a roll drawn in this process: the referee's client's at a single
    table (a seat's client sends its own: docs/secrets.md, "Sealed dice")."""
    return _secrets.token_bytes(CONTRIBUTION_BYTES)


def new_dice_key() -> str:
    return _secrets.token_hex(KEY_BYTES)


def sealing_facts(old: ev.VarSet | None, key: str, salt: str) -> list[ev.Event]:
    """The facts that seal the dice with ``key``: the opening of the ``old`` key if any, the
    key (the referee's) and its commitment (everyone's)."""
    out: list[ev.Event] = []
    if old is not None:
        opened = commitments.fact_digest(old)
        out.append(ev.Opened(key=DICE_KEY, value=old.value, salt=old.salt, digest=opened))
    fact = ev.VarSet(key=DICE_KEY, value=key, salt=salt, vis=REFEREE_ONLY)
    return [*out, fact, ev.Committed(digest=commitments.fact_digest(fact), owner=REFEREE)]


def _dice(
    game: Table,
    parsed: Parsed,
    cmd: int,
    given: list[int] | None,
    share: Share | None,
    asking: tuple[str, str, str, str],
) -> tuple[list[ev.Event], Dice]:
    """The facts that seal the dice first in this command (or none), and the dice it rolls:
    the faces typed, else the sealed key's, else the seed's.

    A command given again after it asked a question past a sealed roll (the answer, as
    every client gives it: the line again, with its answers) goes on with the dice it
    drew, whatever contribution comes with it now: fresh dice would undo a roll the
    question told, and let its issuer roll again by not answering (issue #60).

    Sealed dice roll the seat's share (``share``, checked once they roll: ``core.dice.shares``), or
    one drawn here; either counts as the seat's next share (``next_share``), and is for this
    command (``core.dice.shares.command_digest``)."""
    kept = game._asked.get(asking) if given is None else None
    if kept is not None and kept.at != game.saved_bytes:
        kept = None
    sealing = kept.sealing if kept is not None else game._sealing(parsed)
    key = sealing[-2] if sealing else game._key_fact()
    if given is not None:
        # Faces typed, on the line or at the table's prompt: a table that types its dice, with table
        # dice on or not (a script's dice=).  A roll that cannot but pass or fail, where its rule reads
        # nothing more of it, is drawn by the game's own dice, not asked (ruling CORE-CERTAIN).
        typed = ManualDice(given)
        typed.drawer = _drawn(game, parsed, cmd, share, asking, kept, key)
        return sealing, typed
    return sealing, _drawn(game, parsed, cmd, share, asking, kept, key)


def _drawn(
    game: Table,
    parsed: Parsed,
    cmd: int,
    share: Share | None,
    asking: tuple[str, str, str, str],
    kept: Asked | None,
    key: ev.Event | None,
) -> Dice:
    """The game's own dice for the command: the sealed key's, else the seed's."""
    if key is None:
        return SeededDice(game.header.seed, cmd)
    assert isinstance(key, ev.VarSet) and isinstance(key.value, str)
    by, sent = asking[1], None
    if kept is not None:
        drawn, saw = kept.contribution, kept.saw
    elif share is None:
        # A contribution drawn here is drawn now, under the key in force.
        drawn, saw = game.contribute(), game.dice_seal()
    else:
        sent, drawn = share, share.contribution
        saw = game.dice_seal() if share.saw is None else share.saw  # (refused if it rolls: no key named)
    seal = commitments.fact_digest(key)
    dice = SealedDice(
        bytes.fromhex(key.value), drawn, seal, by=by, nonce=game.next_share(by), line=command_digest(parsed), saw=saw
    )
    dice.sent = sent
    return dice


def _ask_later(game: Table, asking: tuple[str, str, str, str], asked: Asked) -> None:
    """Keep what a command that asked after a sealed roll drew its dice with, for its answer."""
    game._asked = {k: v for k, v in game._asked.items() if v.at == game.saved_bytes and k != asking}
    while len(game._asked) >= MAX_ASKED:
        del game._asked[next(iter(game._asked))]
    game._asked[asking] = asked


def _sealing(game: Table, parsed: Parsed) -> list[ev.Event]:
    """The facts that seal the dice with a new key, first in this command, or none.

    A new game seals its dice with its first command (unless it was given a seed), a
    what-if with its first command past its parent's (:meth:`_rolls_parents_key`), and
    ``dice-key`` seals them again, opening the key so far to everyone: the part already
    played can then be verified.  The key's commitment is public whoever may see the rest:
    every player checks his rolls against it.
    """
    if parsed.spec.name == SEAL_DICE:
        old = game._key_fact()
    elif DICE_KEY not in game.state.vars and not game.seeded and not game.history.eff_cmds:
        old = None
    elif game._rolls_parents_key():
        old = None  # the parent's key is the parent's secret: this game does not open it
    else:
        return []
    return sealing_facts(old, game.dice_key(), game.salt())


def _rolls_parents_key(game: Table) -> bool:
    """Whether the key in force is one a what-if copied from its parent (docs/secrets.md,
    "What-if games"): its own commands must not roll it, since whoever holds the parent
    holds its key, and once the parent ends everyone does.

    The fork copies its parent's commands, facts unchanged, as the first ``parent.step``
    events of its file; a key set among them is the parent's, however the what-if's
    own commands were since undone.  Nothing is written at the fork: the what-if's
    first command of its own seals its key, as a new game's first command does.
    """
    key = game.state.vars.get(DICE_KEY)
    if key is None or game.header.parent is None:
        return False
    if game._parents_keys is None:
        copied = game.history.store.slice(0, min(game.header.parent.step, len(game.history.store)))
        game._parents_keys = {e.value for e in copied if type(e) is ev.VarSet and e.key == DICE_KEY}
    return key in game._parents_keys


def dice_seal(game: Table) -> str:
    """The commitment of the sealed key in force ("" when the dice are not sealed): what a
    seat's device names with the contribution it draws (docs/secrets.md, "Sealed dice")."""
    key = game._key_fact()
    return commitments.fact_digest(key) if key is not None else ""


def _key_fact(game: Table) -> ev.VarSet | None:
    """The fact that set the sealed key in force (None when the dice are not sealed)."""
    value = game.state.vars.get(DICE_KEY)
    if value is None:
        return None
    if game._key is not None and game._key.value == value:
        return game._key  # a key is 32 random bytes: one value, one fact
    for e in reversed(game.history.timeline()):
        if type(e) is ev.VarSet and e.key == DICE_KEY and e.value == value:
            game._key = e
            return e
    raise AssertionError("a sealed key in the state with no fact that set it")


def next_share(game: Table, by: str) -> int:
    """The count seat ``by``'s next share of the dice must name (``core.dice.shares``): what a browser
    page is told before it draws one."""
    if game._counts is None:
        store = game.history.store
        game._counts = Counts(store.slice(0, len(store)))
    return game._counts.next(by)


def _uses(game: Table) -> set[tuple[str, str]]:
    """Every (seal, contribution) of the sealed rolls in the file, undone ones too."""
    if game._used is None:
        store = game.history.store
        game._used = {(e.seal, e.contribution) for e in store.slice(0, len(store)) if isinstance(e, ev.SealedRoll)}
    return game._used
