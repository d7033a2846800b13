"""``fireteam verify``: every commitment of a game checked against its secret and its opening.

It reads a full save or a side's copy (``core.secrets.sidecopy``) as an effective
history of numbered steps and checks, for each :class:`~core.log.events.Committed`:

* where its secret fact is in the history (the full save; a side's own
  secrets), that the fact hashes to it: a secret changed after it was
  committed fails here, named with its step;
* that an opening (a ``Revealed`` or ``Opened`` naming its digest) comes after
  it, and that the value and salt shown hash to it.

An opening naming no earlier commitment, or a salted secret with no commitment
after it, fails too.  A game with no salted secret at all is an older save:
nothing to check.  The result is one line per secret, then one per sealed roll
(``core.secrets.dicecheck``).  A full save's commands are then resolved again through
the rules with the recorded dice (``core.secrets.rederive``): each must give the
facts recorded.  A side's copy cannot be: it lacks the facts the side did not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core.game import Game
from core.language.i18n import N_, _
from core.log import events as ev
from core.secrets import commitments, copycheck, dicecheck, sharecheck, shown
from core.secrets.rederive import Differs, Rederived, rederive
from core.secrets.sidecopy import Step, looks_like_side_copy, read, seen_out_of_place, steps
from core.storage.decoding import Header
from core.storage.errors import SaveError
from core.storage.linecheck import MAX_LINE_BYTES

#: A check's status: an id, shown in the reader's language.
OK, MISMATCH, NEVER, UNSEEN = N_("ok"), N_("mismatch"), N_("never revealed"), N_("commitment not seen")
#: verify's exit status for a save an older Fireteam recorded whose rules changed since: every
#: commitment and die checks out, and some commands give other facts now (docs/secrets.md).
RULES_CHANGED = 3
#: verify's exit status for a save a Fireteam newer than this one wrote a session of (its version
#: newer than ``core.__version__``): nothing else failed, and this one cannot judge its commands.
NEWER = 5
NOT_CHECKED = N_("not checked")
NOT_BELIEVED = N_("not believed")


@dataclass
class Check:
    """One secret: its commitment's step, its opening's, and what was found."""

    digest: str
    owner: str
    step: int  # the step of the secret (just before its commitment); 0 if the copy never showed it
    key: str = ""
    opened: int = 0
    status: str = NEVER
    why: str = ""

    def line(self) -> str:
        name = shown(self.key) if self.key else _("a secret of {owner}").format(owner=shown(self.owner))
        at = _("set at step {step}").format(step=self.step) if self.step else _("set out of this copy's sight")
        opened = _("revealed at step {step}").format(step=self.opened) if self.opened else _("not revealed")
        why = f": {shown(self.why)}" if self.why else ""
        status = _(self.status)
        return f"{name} ({shown(self.digest[:16])}): {at}, {opened}: {status}{why}"


@dataclass
class Verified:
    source: Path
    role: str
    ended: bool
    checks: list[Check] = field(default_factory=list)
    #: Problems that belong to no commitment (a secret set with none).
    stray: list[str] = field(default_factory=list)
    #: Secrets set with no salt: made before commitments existed.
    older: int = 0
    dice: dicecheck.DiceChecked = field(default_factory=dicecheck.DiceChecked)
    #: Every command resolved again (a full save only: a side's copy cannot be).
    replayed: Rederived | None = None

    @property
    def failed_rolls(self) -> list[dicecheck.RollCheck]:
        return self.dice.failed(self.ended or self.role == "referee")

    @property
    def failed(self) -> list[Check]:
        """Mismatches; in the full save also an opening of no commitment (one was removed)
        and, once the game is over, a commitment never opened (its opening was removed).
        A side's copy lacks the commitments made out of its sight (a hidden figure's
        bookkeeping): those openings are listed, not failed."""
        bad = {MISMATCH}
        if self.role == "referee":
            bad.add(UNSEEN)
        if self.ended:
            bad.add(NEVER)
        return [c for c in self.checks if c.status in bad]

    @property
    def ok(self) -> bool:
        """Nothing found forged or damaged (a save a newer Fireteam wrote may still not be judged)."""
        replayed = self.replayed
        forged = replayed is not None and bool(replayed.differs or replayed.claims)
        return not self.failed and not self.stray and not self.failed_rolls and not forged

    @property
    def newer(self) -> bool:
        """Nothing is forged, but a Fireteam newer than this one wrote a session of it (``NEWER``)."""
        return self.ok and self.replayed is not None and bool(self.replayed.newer)

    @property
    def rules_changed(self) -> bool:
        """Every commitment and die checks out, but commands an older version wrote give other facts
        under this version's rules: the rules changed since (``RULES_CHANGED``), no forgery."""
        return self.ok and not self.newer and self.replayed is not None and bool(self.replayed.changed)

    @property
    def status(self) -> int:
        """The exit status: 0 every check passes, ``RULES_CHANGED`` recorded by an older version
        whose rules changed since, ``NEWER`` written by a newer one, 1 forged or damaged (``run``)."""
        if not self.ok:
            return 1
        return NEWER if self.newer else RULES_CHANGED if self.rules_changed else 0

    @property
    def countable(self) -> bool:
        """Whether a club may count its result (``certify``, ``league add``): it verifies whole, or
        its commands an older version wrote meet rules changed since, which is said."""
        return self.status in (0, RULES_CHANGED)

    def report(self) -> list[str]:
        return self._secrets_report() + self.dice.report(self.ended or self.role == "referee") + self._replay_report()

    def _replay_report(self) -> list[str]:
        r = self.replayed
        if r is None:
            return [
                _(
                    "facts: this side's copy lacks what the side did not see, so its commands cannot be "
                    "resolved again: what its rolls and secrets decided is not checked here (verify the full save)"
                )
            ]
        lines = []
        said = _("command #{cmd} at step {step} ({text}): {status}: {why}")
        for d, status in [
            *((d, NOT_BELIEVED) for d in r.claims),
            *((d, MISMATCH) for d in r.differs),
            *((d, NOT_CHECKED) for d in r.unsure),
        ]:
            lines.append(said.format(cmd=d.cmd, step=d.step, text=shown(d.text), status=_(status), why=shown(d.why)))
        for d in r.newer:
            lines.append(
                _("command #{cmd} at step {step} ({text}): {why}").format(
                    cmd=d.cmd, step=d.step, text=shown(d.text), why=shown(d.why)
                )
            )
        for d in r.ahead:
            ahead = _(
                "command #{cmd} at step {step} ({text}): recorded by {version}, a newer Fireteam: not judged ({why})"
            )
            lines.append(
                ahead.format(cmd=d.cmd, step=d.step, text=shown(d.text), version=shown(d.written_by), why=shown(d.why))
            )
        for d in r.changed:
            said = _(
                "command #{cmd} at step {step} ({text}): recorded by {version}; rules changed since ({rule}): {why}"
            )
            rule = shown(d.rule) or _("its rule")
            lines.append(
                said.format(
                    cmd=d.cmd, step=d.step, text=shown(d.text), version=shown(d.written_by), rule=rule, why=shown(d.why)
                )
            )
        if r.played_under:
            said = _(
                "facts: played under the ruleset's version {was}, re-derived under {now}: "
                "a difference may be a rule changed since"
            )
            lines.append(said.format(was=shown(r.played_under), now=r.rules))
        if r.claims and not r.differs:
            verdict = _("{n} claim what no Fireteam wrote there: forged or damaged").format(n=len(r.claims))
        elif r.differs:
            verdict = _("{n} differ from what the rules give: forged or damaged").format(n=len(r.differs))
            if r.claims:
                verdict += "; " + _("{n} claim what no Fireteam wrote there").format(n=len(r.claims))
        elif r.newer:
            said = _("written in part by a Fireteam newer than this one ({version}): not judged here")
            verdict = said.format(version=shown(r.newer[-1].written_by))
        elif r.changed:
            said = _(
                "{n} recorded by an older Fireteam give other facts under this version's rules "
                "(rules changed since: CHANGELOG.md); none forged"
            )
            verdict = said.format(n=len(r.changed))
        else:
            verdict = _("each gives the facts recorded")
        said = _(
            "facts: {n} commands resolved again through the rules with the recorded dice (seeded dice "
            "drawn again from the save's seed, typed ones as the table gave them; {carried} carried past "
            "an undo, {unsure} not checked): {verdict}"
        )
        lines.append(said.format(n=r.commands, carried=r.carried, unsure=len(r.unsure), verdict=verdict))
        return lines

    def as_json(self) -> dict:
        """What ``verify --json`` prints: every check, with its status as an id."""
        return {
            "file": str(self.source),
            "role": self.role,
            "finished": self.ended,
            "ok": self.ok,
            "secrets": [
                {
                    "digest": c.digest,
                    "key": c.key,
                    "owner": c.owner,
                    "set": c.step,
                    "opened": c.opened,
                    "status": c.status,
                    "why": c.why,
                }
                for c in self.checks
            ],
            "stray": self.stray,
            "rolls": [
                {
                    "step": c.step,
                    "faces": list(c.roll.roll.faces),
                    "sides": c.roll.roll.sides,
                    "seal": c.roll.seal,
                    "contribution": c.roll.contribution,
                    "draw": c.roll.draw,
                    # A roll from a seat's share: the seat and its count, as its page kept them.
                    **(
                        {"by": c.roll.by, "nonce": c.roll.nonce, "saw": c.roll.saw}
                        if isinstance(c.roll, ev.SharedRoll)
                        else {}
                    ),
                    "status": c.status,
                    "why": c.why,
                }
                for c in self.dice.rolls
            ],
            "typed": self.dice.typed,
            "seeded": self.dice.seeded,
            "facts": None if self.replayed is None else _facts_json(self.replayed),
        }

    def _secrets_report(self) -> list[str]:
        source = str(self.source)
        if self.role != "referee":
            source = _("{file} (the copy of {role})").format(file=self.source, role=self.role)
        if not self.checks and not self.stray:
            if self.older:
                said = _("{source}: no commitments (older save): {n} secrets set unchecked")
                return [said.format(source=source, n=self.older)]
            return [
                _("{source}: no commitments: no secret was set in this game, nothing to verify").format(source=source)
            ]
        lines = [c.line() for c in self.checks] + self.stray
        state = _("finished") if self.ended else _("not finished: secrets still hidden are not revealed yet")
        if self.ok:
            verdict = _("every secret matches its commitment")
        else:
            verdict = _("{n} failed").format(n=len(self.failed) + len(self.stray))
        said = _("{source}: {n} commitments checked, game {state}: {verdict}")
        lines.append(said.format(source=source, n=len(self.checks), state=state, verdict=verdict))
        return lines


def history(path: Path) -> tuple[str, list[Step], Rederived | None, list[str]]:
    """(role, the effective history with its steps, its commands resolved again, what the copy
    says out of place) of a save or a side's copy (which cannot be resolved again: None)."""
    if looks_like_side_copy(path):
        copy = read(path)
        return copy.role, steps(copy), None, seen_out_of_place(copy)
    game = Game.open(path, writable=False)
    return "referee", [Step(i + 1, e) for i, e in enumerate(game.history.timeline())], rederive(game), []


def verify(path: Path) -> Verified:
    role, events, replayed, misplaced = history(Path(path))
    result = Verified(Path(path), role, ended=False, replayed=replayed)
    result.stray.extend(misplaced)
    by_digest: dict[str, Check] = {}
    before: Step | None = None
    pending: Step | None = None  # a salted secret, waiting for its commitment
    pending_key = ""  # its key
    for s in events:
        e = s.event
        if pending is not None and not (isinstance(e, ev.Committed) and s.step == pending.step + 1):
            result.stray.append(_unpaired(pending_key, pending.step))
        pending = None
        if commitments.is_secret(e):
            if e.salt:
                pending, pending_key = s, commitments.key_of(e)
            else:
                result.older += 1
        elif isinstance(e, ev.Committed):
            check = by_digest.get(e.digest)
            if check is None:
                # The secret it commits to is the fact just before it (in a side's copy, perhaps unseen).
                check = by_digest[e.digest] = Check(e.digest, e.owner, s.step - 1)
                result.checks.append(check)
            fact = before.event if before is not None and before.step == s.step - 1 else None
            if fact is not None and commitments.is_secret(fact) and fact.salt:
                check.key = commitments.key_of(fact)
                if commitments.fact_digest(fact) != e.digest:
                    _fail(
                        check, _("the secret set at step {step} does not match its commitment").format(step=s.step - 1)
                    )
        elif commitments.opens(e):
            _opening(result, by_digest, s, e)
        elif isinstance(e, ev.GameEnded):
            result.ended = True
        before = s
    if pending is not None:
        result.stray.append(_unpaired(pending_key, pending.step))
    full = role == "referee"
    result.dice = dicecheck.check(events, full=full, copied=_copied(Path(path)) if full else 0)
    return result


def _copied(path: Path) -> int:
    """The steps a what-if copied from its parent (its header's ``parent.step``; 0 for any other
    save): their commands were numbered again, their rolls still name the parent's numbers."""
    with path.open("rb") as f:
        line = f.readline(MAX_LINE_BYTES)
    header = msgspec.json.decode(line.partition(b" ")[2], type=Header)  # read (and checked) by ``history``
    return header.parent.step if header.parent is not None else 0


def _facts_json(r: Rederived) -> dict:
    def command(d: Differs) -> dict:
        return {"cmd": d.cmd, "step": d.step, "text": d.text, "why": d.why}

    return {
        "commands": r.commands,
        "carried": r.carried,
        "differ": [command(d) for d in r.differs],
        "not_checked": [command(d) for d in r.unsure],
        "rules_changed": [{**command(d), "written_by": d.written_by, "rule": d.rule} for d in r.changed],
        "not_believed": [command(d) for d in r.claims],
        "newer_sessions": [command(d) for d in r.newer],
        "newer_differ": [{**command(d), "written_by": d.written_by} for d in r.ahead],
        "played_under": r.played_under,
    }


def _unpaired(key: str, step: int) -> str:
    said = _("{key}: set at step {step} with no commitment after it: mismatch")
    return said.format(key=shown(key), step=step)


def _opening(result: Verified, by_digest: dict[str, Check], s: Step, e: ev.Revealed | ev.Opened) -> None:
    check = by_digest.get(e.digest)
    if check is None:
        check = by_digest[e.digest] = Check(e.digest, "", 0, key=e.key)
        result.checks.append(check)
        check.opened = s.step
        _fail(check, _("revealed, but no commitment to it came before in this history"), UNSEEN)
        return
    if check.key and check.key != e.key:
        said = _("opened at step {step} as {key}, but it was the commitment to {other}")
        _fail(check, said.format(step=s.step, key=repr(e.key), other=repr(check.key)))
        return
    check.key = check.key or e.key
    if not check.opened:
        check.opened = s.step
    if not commitments.matches(e):
        said = _("the value revealed at step {step} ({value}) does not match its commitment")
        _fail(check, said.format(step=s.step, value=repr(e.value)))
    elif check.status == NEVER:
        check.status = OK


def _fail(check: Check, why: str, status: str = MISMATCH) -> None:
    if check.status != MISMATCH:
        check.status, check.why = status, why
    else:
        check.why += f"; {why}"


def run(path: Path, *, as_json: bool = False, side_copy: Path | None = None) -> tuple[int, list[str]]:
    """(exit status, lines to print): 0 if every commitment and roll checks out, 1 if not,
    2 if unreadable, ``RULES_CHANGED`` (3) if they do but commands an older version wrote give
    other facts under this version's rules (docs/secrets.md).  ``as_json``: one line, the JSON of
    every check (``Verified.as_json``).
    ``side_copy``: a side's copy, checked against ``path``, which must then be the full save
    (``core.secrets.copycheck``); or a browser page's record of the shares of the dice it sent, checked
    against the rolls of ``path``, a full save or a side's copy (``core.secrets.sharecheck``)."""
    compared: copycheck.Compared | sharecheck.SharesCompared | None = None
    try:
        record = side_copy is not None and sharecheck.looks_like_record(Path(side_copy))
        if side_copy is not None and not record and looks_like_side_copy(Path(path)):
            said = _("{path}: a side's copy; {option} checks a copy against the full save, given first")
            raise SaveError(said.format(path=path, option="--side-copy"))
        result = verify(path)
        if side_copy is not None and record:  # a browser page's record of its shares of the dice
            compared = sharecheck.compare(Path(path), Path(side_copy))
        elif side_copy is not None:
            game = Game.open(Path(path), writable=False)
            try:
                compared = copycheck.compare(game, Path(side_copy))
            finally:
                game.close()
    except SaveError as e:
        return 2, [str(e)]
    status = result.status if compared is None or compared.ok else 1
    if as_json:
        document = result.as_json()
        if compared is not None:
            document["page_record" if record else "side_copy"] = compared.as_json()
        return status, [msgspec.json.encode(document).decode()]
    lines = result.report() + ([] if compared is None else compared.report())
    return status, lines
