"""``fireteam verify``'s dice: every sealed roll re-derived from its inputs.

A sealed roll (:class:`~core.log.events.SealedRoll`) names the commitment of the key
it was drawn with (``seal``), the contribution its command's issuer sent and its
draw number; its faces must be ``core.dice.faces.derive`` of them.  The key is known
from its opening (an ``Opened`` at the end of the game or at a ``dice-key``, which
must match its commitment), or, in a full save, from the referee's own fact that
set it (which must match its commitment too).  A roll whose key is still sealed
(a side's copy of a game under way) cannot be checked yet, and says so.

A roll of today (:class:`~core.log.events.SharedRoll`) is bound to its game, its seat, the
seat's own count of its shares, its command, its place among the command's rolls and its
purpose (``derive_share``): in a full save its seat must be its command's (its command's
name and arguments are checked when the command is resolved again, ``rederive``), and a
seat's counts must rise from one command to the next (a share used or passed is not
taken again); a command's rolls must be at places 0, 1, 2… in order, so a roll moved,
swapped or dropped before another is seen; and the key that rolled it must be the one its
share's sender saw (``saw``), unless the command that rolled it sealed that key itself (a
game's first command).  The sealed rolls of older saves are checked by their own
derivation: ``BoundRoll`` by ``derive_bound`` (bound to the command's number, not a count
of the seat's), ``SealedRoll`` by ``derive``.

The same contribution used twice under one key (with the same draw number)
would give the same faces again, which its issuer had seen: it fails too.
Typed table dice and the seeded dice of older saves have no inputs to re-derive:
they are counted, not checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.dice.faces import KEY_BYTES, derive, derive_bound, derive_share
from core.language.i18n import N_, _, render
from core.log import events as ev
from core.log.state import DICE_KEY
from core.secrets import commitments, shown
from core.secrets.sidecopy import Step

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
            purpose=shown(render(r.purpose)),
            count=len(r.faces),
            sides=r.sides,
            faces=faces,
            seal=shown(self.roll.seal[:16]),
            mine=shown(self.roll.contribution[:16]),
            draw=self.roll.draw,
        )
        if isinstance(self.roll, ev.SharedRoll):  # what its seat's page kept: its count and seal
            said = _("{roll}, share {nonce} of {seat}")
            head = said.format(roll=head, nonce=self.roll.nonce, seat=shown(self.roll.by))
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


def _key(value: object) -> bytes | None:
    """A key as written (hex of ``KEY_BYTES``), or None: the file is hostile until checked."""
    if not isinstance(value, str) or len(value) != 2 * KEY_BYTES:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def check(events: list[Step], *, full: bool = True, copied: int = 0) -> DiceChecked:
    """Every roll of an effective history (a full save's, or with ``full`` false a side's
    copy's, whose commands are numbered as the side knows them) checked.  The first ``copied``
    steps are a what-if's parent's commands, numbered again: checked as in a copy."""
    out = DiceChecked()
    keys: dict[str, bytes] = {}  # a key's commitment -> the key, from an opening or the fact
    bad_keys: dict[str, str] = {}  # a commitment -> why the key shown for it is not the one
    sealed: list[RollCheck] = []
    placed: list[str] = []  # why each roll of ``sealed`` is out of its place ("" when in it)
    at = _Command()  # the command the events stand in
    places: dict[tuple[str, int], int] = {}  # (key, command) -> the place its next roll must be at, or pass
    counts: dict[str, tuple[int, int]] = {}  # a seat -> its last share's count and the command that used it
    for s in events:
        e = s.event
        if isinstance(e, ev.Issued):
            at = _Command(e.cmd, e.by)
        elif isinstance(e, ev.Committed):
            at.sealed_here.add(e.digest)
        if isinstance(e, ev.SealedRoll):
            sealed.append(RollCheck(s.step, e))
            whole = full and s.step > copied
            if isinstance(e, ev.SharedRoll):
                placed.append(_shared(e, at, whole, places, counts))
            elif isinstance(e, ev.BoundRoll):
                placed.append(_placed(e, at, whole, places))
            else:
                placed.append("")
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
    for c, misplaced in zip(sealed, placed, strict=True):
        r = c.roll
        first = seen.setdefault((r.seal, r.contribution, r.draw), c.step)
        key = keys.get(r.seal)
        contribution = _contribution(r.contribution)
        if misplaced:
            c.status, c.why = MISMATCH, misplaced
        elif first != c.step:
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


@dataclass
class _Command:
    """The command a history's events stand in: its number (a full save's, or as a side knows
    it), its seat, and the keys it committed."""

    cmd: int = 0
    by: str = ""
    sealed_here: set[str] = field(default_factory=set)


def _placed(r: ev.BoundRoll, at: _Command, full: bool, places: dict[tuple[str, int], int]) -> str:
    """Why a bound roll is not where it says it was rolled ("" when it is): another command
    (a full save's), a place out of order, or a key sealed after its contribution was drawn.
    A side's copy numbers commands as the side knows them and lacks the rolls hidden from it:
    there a roll's own command and places only need to be in order."""
    if full and r.cmd != at.cmd:
        return _("rolled for command {cmd}, found in command {found}").format(cmd=r.cmd, found=at.cmd)
    return _in_place(r, at, full, places, (r.seal, r.cmd))


def _in_place(r: ev.BoundRoll | ev.SharedRoll, at: _Command, full: bool, places: dict, where: tuple) -> str:
    want = places.get(where, 0)
    if r.draw != want if full else r.draw < want:
        return _("the roll at place {place} of its command is missing").format(place=want)
    places[where] = r.draw + 1
    if r.saw != r.seal and r.seal not in at.sealed_here:
        # Only a command that seals its key rolls it with a contribution drawn before (a game's first).
        said = _("its key was sealed after its contribution was drawn (under key {saw})")
        return said.format(saw=shown(r.saw[:16]) or "-")
    return ""


def _shared(r: ev.SharedRoll, at: _Command, full: bool, places: dict, counts: dict[str, tuple[int, int]]) -> str:
    """Why a roll drawn from a seat's share is not where it says it was rolled ("" when it is):
    another seat's command (a full save's, which holds every command's seat), a share
    whose count its seat had used or passed in an earlier command, a place out of order, or a
    key sealed after the share was drawn."""
    if full and r.by != at.by:
        return _("rolled for seat {seat}, found in a command of {found}").format(seat=shown(r.by), found=shown(at.by))
    last = counts.get(r.by)
    if last is not None and (r.nonce < last[0] or (r.nonce == last[0] and last[1] != at.cmd)):
        said = _("share {nonce} of seat {seat} was used or passed before (share {last})")
        return said.format(nonce=r.nonce, seat=shown(r.by), last=last[0])
    counts[r.by] = (r.nonce, at.cmd)
    return _in_place(r, at, full, places, (r.seal, r.by, r.nonce))


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
    r, bound = c.roll.roll, c.roll
    try:
        if isinstance(bound, ev.SharedRoll):
            faces = derive_share(
                key,
                bound.seal,
                bound.by,
                bound.nonce,
                bound.draw,
                r.purpose,
                bound.line,
                contribution,
                len(r.faces),
                r.sides,
            )
        elif isinstance(bound, ev.BoundRoll):  # a save from before shares were counted
            faces = derive_bound(key, bound.seal, bound.cmd, bound.draw, r.purpose, contribution, len(r.faces), r.sides)
        else:  # a save from before the bound derivation: its own (docs/secrets.md, "Sealed dice")
            faces = derive(key, contribution, bound.draw, len(r.faces), r.sides)
    except ValueError:
        return MISMATCH, _("no roll of {count}d{sides} can be derived").format(count=len(r.faces), sides=r.sides)
    if faces != r.faces:
        said = _("its inputs give {faces}")
        return MISMATCH, said.format(faces=",".join(map(str, faces)))
    return OK, ""
