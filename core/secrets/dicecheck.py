"""``fireteam verify``'s dice: every sealed roll re-derived from its inputs.

A sealed roll (:class:`~core.events.SealedRoll`) names the commitment of the key
it was drawn with (``seal``), the contribution its command's issuer sent and its
draw number; its faces must be ``core.dice.derive`` of them.  The key is known
from its opening (an ``Opened`` at the end of the game or at a ``dice-key``, which
must match its commitment), or, in a full save, from the referee's own fact that
set it (which must match its commitment too).  A roll whose key is still sealed
(a side's copy of a game under way) cannot be checked yet, and says so.

The same contribution used twice under one key (with the same draw number)
would give the same faces again, which its issuer had seen: it fails too.
Typed table dice and the seeded dice of older saves have no inputs to re-derive:
they are counted, not checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core import events as ev
from core.dice import KEY_BYTES, derive
from core.language.i18n import N_, _, render
from core.secrets import commitments
from core.secrets.sidecopy import Step
from core.state import DICE_KEY

#: A roll's status (an id, shown in the reader's language).
OK, MISMATCH, SEALED = N_("ok"), N_("mismatch"), N_("key not opened yet")


@dataclass
class RollCheck:
    step: int
    roll: ev.SealedRoll
    status: str = SEALED
    why: str = ""

    def line(self) -> str:
        r = self.roll.roll
        faces = ",".join(map(str, r.faces))
        said = _(
            "roll at step {step}, {purpose} {count}d{sides} = {faces} (key {seal}, contribution {mine}, draw {draw})"
        )
        head = said.format(
            step=self.step,
            purpose=_shown(render(r.purpose)),
            count=len(r.faces),
            sides=r.sides,
            faces=faces,
            seal=_shown(self.roll.seal[:16]),
            mine=_shown(self.roll.contribution[:16]),
            draw=self.roll.draw,
        )
        why = f": {self.why}" if self.why else ""
        return f"{head}: {_(self.status)}{why}"


@dataclass
class DiceChecked:
    rolls: list[RollCheck] = field(default_factory=list)
    typed: int = 0
    seeded: int = 0

    def failed(self, ended: bool) -> list[RollCheck]:
        """Mismatches; a roll whose key is not known, once the game is over (its opening was
        removed) or in a full save (the referee's fact of it is in the file, or was removed)."""
        bad = {MISMATCH, SEALED} if ended else {MISMATCH}
        return [c for c in self.rolls if c.status in bad]

    def report(self, ended: bool) -> list[str]:
        lines = [c.line() for c in self.rolls]
        if not self.rolls and not self.typed and not self.seeded:
            return lines
        failed = len(self.failed(ended))
        verdict = _("each is the roll its inputs give") if not failed else _("{n} failed").format(n=failed)
        said = _(
            "dice: {n} sealed rolls re-derived: {verdict}; {typed} typed at the table and "
            "{seeded} seeded (older dice: no contribution to check them by) not checked"
        )
        lines.append(said.format(n=len(self.rolls), verdict=verdict, typed=self.typed, seeded=self.seeded))
        return lines


def _shown(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _key(value: object) -> bytes | None:
    """A key as written (hex of ``KEY_BYTES``), or None: the file is hostile until checked."""
    if not isinstance(value, str) or len(value) != 2 * KEY_BYTES:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def check(events: list[Step]) -> DiceChecked:
    """Every roll of an effective history (a full save's or a side's copy's) checked."""
    out = DiceChecked()
    keys: dict[str, bytes] = {}  # a key's commitment -> the key, from an opening or the fact
    bad_keys: dict[str, str] = {}  # a commitment -> why the key shown for it is not the one
    sealed: list[RollCheck] = []
    for s in events:
        e = s.event
        if isinstance(e, ev.SealedRoll):
            sealed.append(RollCheck(s.step, e))
        elif isinstance(e, ev.Rolled):
            if e.roll.manual:
                out.typed += 1
            else:
                out.seeded += 1
        elif isinstance(e, ev.Opened | ev.Revealed) and e.key == DICE_KEY and e.digest:
            _take_key(keys, bad_keys, e.digest, e.value, commitments.matches(e), s.step)
        elif isinstance(e, ev.VarSet) and e.key == DICE_KEY and e.salt:
            _take_key(keys, bad_keys, None, e.value, True, s.step, fact=e)
    seen: dict[tuple[str, str, int], int] = {}
    for c in sealed:
        r = c.roll
        first = seen.setdefault((r.seal, r.contribution, r.draw), c.step)
        key = keys.get(r.seal)
        contribution = _contribution(r.contribution)
        if first != c.step:
            c.status = MISMATCH
            c.why = _("the same inputs as the roll at step {step}: its faces were known").format(step=first)
        elif contribution is None:
            c.status, c.why = MISMATCH, _("the contribution is not hex")
        elif key is None:
            if r.seal in bad_keys:
                c.status, c.why = MISMATCH, bad_keys[r.seal]
            continue
        else:
            c.status, c.why = _derived(c, key, contribution)
    out.rolls = sealed
    return out


def _take_key(
    keys: dict[str, bytes],
    bad: dict[str, str],
    digest: str | None,
    value: object,
    matches: bool,
    step: int,
    fact: ev.VarSet | None = None,
) -> None:
    if fact is not None:
        digest = commitments.fact_digest(fact)  # a changed key has another digest: its rolls name none
    assert digest is not None
    key = _key(value)
    if key is None or not matches:
        bad[digest] = _("the key opened at step {step} does not match its commitment").format(step=step)
        return
    keys[digest] = key


def _contribution(text: str) -> bytes | None:
    try:
        return bytes.fromhex(text) if text and len(text) <= 256 else None
    except ValueError:
        return None


def _derived(c: RollCheck, key: bytes, contribution: bytes) -> tuple[str, str]:
    r = c.roll.roll
    try:
        faces = derive(key, contribution, c.roll.draw, len(r.faces), r.sides)
    except ValueError:
        return MISMATCH, _("no roll of {count}d{sides} can be derived").format(count=len(r.faces), sides=r.sides)
    if faces != r.faces:
        said = _("its inputs give {faces}")
        return MISMATCH, said.format(faces=",".join(map(str, faces)))
    return OK, ""
