"""The sealed dice of one game (docs/secrets.md, "Sealed dice"): the key in force, the facts
that seal a new one, the shares of the dice its commands used, and the dice a command rolls
(typed, sealed with its issuer's share, or seeded).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from core.dice.faces import (
    CONTRIBUTION_BYTES,
    KEY_BYTES,
    Dice,
    ManualDice,
    SealedDice,
    SeededDice,
    Share,
)
from core.dice.shares import Counts, check_share, command_digest
from core.language.i18n import _
from core.log import events as ev
from core.log.state import DICE_KEY
from core.log.views import (
    REFEREE,
    REFEREE_ONLY,
)
from core.refusal import Refused
from core.secrets import commitments

if TYPE_CHECKING:
    from core.commands import Parsed
    from core.log.replay import Timeline
    from core.storage.decoding import Header


#: The command that opens the sealed key so far and seals a new one (a referee's; its spec ``reseals``).
SEAL_DICE = "dice-key"


#: Commands waiting for an answer after their sealed dice rolled that one game keeps
#: (``Sealing.ask_later``): past it the oldest is forgotten, and given again draws afresh.
MAX_ASKED = 64

#: A command as its answer gives it again: its role, its seat, its command and its arguments, however spelt.
Asking = tuple[str, str, str, str]


class Asked(NamedTuple):
    """A command that asked a question after its sealed dice rolled: what it drew them with,
    kept for its answer (issue #60) until another command is written."""

    sealing: list[ev.Event]
    contribution: bytes
    saw: str  # the key's commitment its sender saw


def new_contribution() -> bytes:
    """A contribution to a roll drawn in this process: the referee's client's at a single
    table (a seat's client sends its own: docs/secrets.md, "Sealed dice")."""
    import secrets  # (drawn for a roll or a key: not at a client's start)

    return secrets.token_bytes(CONTRIBUTION_BYTES)


def new_dice_key() -> str:
    import secrets

    return secrets.token_hex(KEY_BYTES)


def sealing_facts(old: ev.VarSet | None, key: str, salt: str) -> list[ev.Event]:
    """The facts that seal the dice with ``key``: the opening of the ``old`` key if any, the
    key (the referee's) and its commitment (everyone's)."""
    out: list[ev.Event] = []
    if old is not None:
        opened = commitments.fact_digest(old)
        out.append(ev.Opened(key=DICE_KEY, value=old.value, salt=old.salt, digest=opened))
    fact = ev.VarSet(key=DICE_KEY, value=key, salt=salt, vis=REFEREE_ONLY)
    return [*out, fact, ev.Committed(digest=commitments.fact_digest(fact), owner=REFEREE)]


class Sealing:
    """A game's sealed dice.  What it learns of the log (the key's fact, the shares used, each
    seat's count of them) it gathers when first asked, and keeps level with every command
    written (:meth:`took`) or read from another writer (:meth:`reread`)."""

    def __init__(self, timeline: Timeline, header: Header, salt: Callable[[], str], *, seeded: bool) -> None:
        self._timeline = timeline
        self._header = header
        self._salt = salt  # the game's (a test, or a re-derivation, gives its own)
        #: Where a command's contribution to its sealed dice comes from when its issuer sent
        #: none (the referee at this process).
        self.contribute: Callable[[], bytes] = new_contribution
        #: Where a new sealed key comes from.
        self.new_key: Callable[[], str] = new_dice_key
        #: A game made with a seed it was given (``Game.new(seed=…)``, ``script --seed``) rolls
        #: seeded dice that the seed foresees, for reproducible scripts; any other new game
        #: seals its dice with its first command.
        self.seeded = seeded
        #: The contributions the sealed rolls in the file used, by their seal.
        self._used: set[tuple[str, str]] | None = None
        #: Each seat's count of the shares its commands rolled (``core.dice.shares``).
        self._counts: Counts | None = None
        #: The keys a what-if copied from its parent (:meth:`rolls_parents_key`).
        self._parents_keys: set[object] | None = None
        #: Each issuer's command that asked a question after its sealed dice rolled: given
        #: again, with the answer, it rolls the same dice (issue #60).
        self._asked: dict[Asking, Asked] = {}
        #: The fact that set the sealed key last looked up (:meth:`key_fact`).
        self._key: ev.VarSet | None = None

    def dice(
        self, parsed: Parsed, cmd: int, typed: list[int] | None, share: Share | None, asking: Asking
    ) -> tuple[list[ev.Event], Dice]:
        """The facts that seal the dice first in this command (or none), and the dice it rolls:
        the faces ``typed``, else the sealed key's, else the seed's.

        A command given again after it asked a question past a sealed roll (the answer, as
        every client gives it: the line again, with its answers) goes on with the dice it
        drew, whatever contribution comes with it now: fresh dice would undo a roll the
        question told, and let its issuer roll again by not answering (issue #60).

        Sealed dice roll the seat's share (``share``, checked once they roll: :meth:`check`), or
        one drawn here; either counts as the seat's next share (:meth:`next_share`), and is for
        this command (``core.dice.shares.command_digest``)."""
        kept = self._asked.get(asking) if typed is None else None
        sealing = kept.sealing if kept is not None else self._facts_first(parsed)
        key = sealing[-2] if sealing else self.key_fact()
        if typed is not None:
            # Faces typed, on the line or at the table's prompt: a table that types its dice, with table
            # dice on or not (a script's dice=).  A roll that cannot but pass or fail, where its rule reads
            # nothing more of it, is drawn by the game's own dice, not asked (ruling CORE-CERTAIN).
            manual = ManualDice(typed)
            manual.drawer = self._drawn(parsed, cmd, share, asking, kept, key)
            return sealing, manual
        return sealing, self._drawn(parsed, cmd, share, asking, kept, key)

    def _drawn(
        self, parsed: Parsed, cmd: int, share: Share | None, asking: Asking, kept: Asked | None, key: ev.Event | None
    ) -> Dice:
        """The game's own dice for the command: the sealed key's, else the seed's."""
        if key is None:
            return SeededDice(self._header.seed, cmd)
        assert isinstance(key, ev.VarSet) and isinstance(key.value, str)
        by, sent = asking[1], None
        if kept is not None:
            drawn, saw = kept.contribution, kept.saw
        elif share is None:
            # A contribution drawn here is drawn now, under the key in force.
            drawn, saw = self.contribute(), self.seal()
        else:
            sent, drawn = share, share.contribution
            saw = self.seal() if share.saw is None else share.saw  # (refused if it rolls: no key named)
        seal = commitments.fact_digest(key)
        line = command_digest(parsed)
        dice = SealedDice(bytes.fromhex(key.value), drawn, seal, by=by, nonce=self.next_share(by), line=line, saw=saw)
        dice.sent = sent
        return dice

    def check(self, drew: SealedDice, in_force: str) -> None:
        """Refuse sealed dice that rolled from a share the table could have steered: ``in_force``
        is the key's commitment as the command began (docs/secrets.md, "Who makes the contribution")."""
        if drew.sent is not None:
            # A share that names no key or no count, or not the seat's next count: the host could choose.
            check_share(drew.sent, drew.nonce)
        if drew.saw != in_force:
            # Its sender saw another key: one chosen after his bytes were seen could steer them.
            raise Refused(
                _("the dice were sealed with a new key after this share of them was drawn; give the command again"),
                rule="ENG-5",
            )
        if (drew.seal, drew.contribution.hex()) in self._uses():
            # Another command's dice from the same inputs would be its faces again, which its issuer saw.
            raise Refused(_("this contribution to the dice was used before; send a fresh one"), rule="ENG-5")

    def ask_later(self, asking: Asking, asked: Asked) -> None:
        """Keep what a command that asked after a sealed roll drew its dice with, for its answer."""
        self._asked.pop(asking, None)
        while len(self._asked) >= MAX_ASKED:
            del self._asked[next(iter(self._asked))]
        self._asked[asking] = asked

    def took(self, group: list[ev.Event]) -> None:
        """A command (or an undo, a redo) was written: its rolls' shares are used, and what
        commands that asked a question drew is forgotten (given again, they draw afresh)."""
        if self._used is not None:
            self._used.update((e.seal, e.contribution) for e in group if isinstance(e, ev.SealedRoll))
        if self._counts is not None:
            self._counts.took(group)
        self._asked.clear()

    def reread(self) -> None:
        """Another process wrote to the save: what was gathered of it is gathered again when next needed."""
        self._used = self._counts = None
        self._asked.clear()

    def _facts_first(self, parsed: Parsed) -> list[ev.Event]:
        """The facts that seal the dice with a new key, first in this command, or none.

        A new game seals its dice with its first command (unless it was given a seed), a
        what-if with its first command past its parent's (:meth:`rolls_parents_key`), and
        ``dice-key`` seals them again, opening the key so far to everyone: the part already
        played can then be verified.  The key's commitment is public whoever may see the rest:
        every player checks his rolls against it.
        """
        history = self._timeline.history
        if parsed.spec.reseals:
            old = self.key_fact()
        elif DICE_KEY not in self._timeline.state.vars and not self.seeded and not history.eff_cmds:
            old = None
        elif self.rolls_parents_key():
            old = None  # the parent's key is the parent's secret: this game does not open it
        else:
            return []
        return sealing_facts(old, self.new_key(), self._salt())

    def rolls_parents_key(self) -> bool:
        """Whether the key in force is one a what-if copied from its parent (docs/secrets.md,
        "What-if games"): its own commands must not roll it, since whoever holds the parent
        holds its key, and once the parent ends everyone does.

        The fork copies its parent's commands, facts unchanged, as the first ``parent.step``
        events of its file; a key set among them is the parent's, however the what-if's
        own commands were since undone.  Nothing is written at the fork: the what-if's
        first command of its own seals its key, as a new game's first command does.
        """
        key = self._timeline.state.vars.get(DICE_KEY)
        if key is None or self._header.parent is None:
            return False
        if self._parents_keys is None:
            store = self._timeline.history.store
            copied = store.slice(0, min(self._header.parent.step, len(store)))
            self._parents_keys = {e.value for e in copied if type(e) is ev.VarSet and e.key == DICE_KEY}
        return key in self._parents_keys

    def seal(self) -> str:
        """The commitment of the sealed key in force ("" when the dice are not sealed): what a
        seat's device names with the contribution it draws (docs/secrets.md, "Sealed dice")."""
        key = self.key_fact()
        return commitments.fact_digest(key) if key is not None else ""

    def key_fact(self) -> ev.VarSet | None:
        """The fact that set the sealed key in force (None when the dice are not sealed)."""
        value = self._timeline.state.vars.get(DICE_KEY)
        if value is None:
            return None
        if self._key is not None and self._key.value == value:
            return self._key  # a key is 32 random bytes: one value, one fact
        for e in reversed(self._timeline.history.timeline()):
            if type(e) is ev.VarSet and e.key == DICE_KEY and e.value == value:
                self._key = e
                return e
        raise AssertionError("a sealed key in the state with no fact that set it")

    def next_share(self, by: str) -> int:
        """The count seat ``by``'s next share of the dice must name (``core.dice.shares``): what a browser
        page is told before it draws one."""
        if self._counts is None:
            store = self._timeline.history.store
            self._counts = Counts(store.slice(0, len(store)))
        return self._counts.next(by)

    def _uses(self) -> set[tuple[str, str]]:
        """Every (seal, contribution) of the sealed rolls in the file, undone ones too."""
        if self._used is None:
            store = self._timeline.history.store
            self._used = {(e.seal, e.contribution) for e in store.slice(0, len(store)) if isinstance(e, ev.SealedRoll)}
        return self._used
