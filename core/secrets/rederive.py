"""``fireteam verify``'s replay: every command of a full save given again through the rules.

A save's rolls are checked against their key (``core.secrets.dicecheck``) and its
secrets against their commitments (``core.secrets.verify``); neither says that what
the dice *decided* is what the rules decide.  Here each command of the file is
resolved again, in file order, on the table as it stood when it was given (undone
commands too: they were played), by the game's own ``Game._resolve``, with what the
file records of what the table chose and nothing else:

* the dice: typed table dice their recorded faces (the faces are the table's); sealed
  dice re-drawn from the key in force and the contribution the command recorded;
  seeded dice re-drawn from the header's seed and the command's number;
* the new key of a command that seals the dice, the salts of its secrets and its time;
* the answers to its questions, which the file does not record: each question's
  default first, then its choices, searched until an answer gives the recorded facts
  (the table chose it; ``MAX_TRIES`` resolutions at most).

Each command must give exactly the facts recorded, in the same order; the first
that differs is named (the command's number and text, the fact recorded and the one
re-derived).  A command another Fireteam wrote (``Issued.version``: a session's first
command names the version that wrote the session; a save that names none, 0.1.0) whose
dice are the ones the file records (its faces drawn again, in their order) and whose
facts differ is no forgery: the rules changed since (``Rederived.changed``, with the
command's rule; CHANGELOG.md says which); this version's own commands must agree.  Which
claims of a version (and of the language a line was given in) are believed, and in which
language a line is read again, is ``core.secrets.sessions``'s to say.

A command carried past an undo (``Issued.carries``) must repeat the
facts of the command it carries.  The commands a what-if copied from its parent
(its first ``parent.step`` events) rolled seeded dice from the parent's seed, which
the what-if does not hold: their seeded faces and their markers' labels are taken
as recorded, the rest re-derived.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from dataclasses import dataclass, field

import msgspec

import core
from core.commands import Parsed
from core.dice.faces import (
    CONTRIBUTION_BYTES,
    BoundSealedDice,
    Dice,
    ManualDice,
    OlderSealedDice,
    SealedDice,
    SeededDice,
    Share,
)
from core.dice.handler import NOTES
from core.game import Game
from core.game.given import Given
from core.game.sealing import Asking, Sealing
from core.language.i18n import Msg, _
from core.language.reader import SOURCE, reading
from core.log import events as ev
from core.log.history import History
from core.log.questions import NeedAnswer
from core.log.replay import Timeline
from core.log.state import DICE_KEY
from core.log.views import MarkerLabels
from core.refusal import Refused
from core.releases import ends_changed_since, newer, results_changed_since
from core.secrets import commitments
from core.secrets.sessions import Claim, Sessions

#: Resolutions of one command tried in search of the answers that give its facts.
MAX_TRIES = 200


@dataclass
class Differs:
    """A command whose re-derived facts are not the recorded ones."""

    cmd: int
    text: str
    #: The effective step its first fact had when it was given.
    step: int
    why: str
    #: The Fireteam version that wrote it, where that is not this one.
    written_by: str = ""
    #: The rule of its command (``CommandSpec.rule``): where the rules changed since.
    rule: str = ""


@dataclass
class Rederived:
    commands: int = 0
    #: Commands carried past an undo, checked as copies of the command they carry.
    carried: int = 0
    differs: list[Differs] = field(default_factory=list)
    #: Commands another version wrote, their dice as recorded, whose facts the rules now give
    #: otherwise: the rules changed since, no forgery (``Differs.written_by``, ``Differs.rule``).
    changed: list[Differs] = field(default_factory=list)
    #: Commands whose answers could not be found within ``MAX_TRIES`` resolutions: not checked.
    unsure: list[Differs] = field(default_factory=list)
    #: Commands whose record claims a version or a language no Fireteam could have written there:
    #: forged (``core.secrets.sessions``).
    claims: list[Differs] = field(default_factory=list)
    #: The sessions a Fireteam newer than this one wrote (their first command), which it cannot judge.
    newer: list[Differs] = field(default_factory=list)
    #: Commands such a session wrote whose facts this version's rules give otherwise: not judged.
    ahead: list[Differs] = field(default_factory=list)
    #: The ruleset version the save was played under, when it is not this Fireteam's.
    played_under: str = ""
    #: This Fireteam's version of the ruleset, which re-derived them.
    rules: str = ""


class _Recorded(ManualDice):
    """A copied command's faces, as recorded (no seed here gives them; a sealed roll's names
    the parent's numbering, which the dice checks read): what the rules decide of them is
    checked, the faces by those checks."""

    manual = False

    def __init__(self, faces: list[int], sealed: list[ev.SealedRoll]) -> None:
        super().__init__(faces)
        self._sealed = iter(sealed)

    def rolled(self, roll: ev.Roll, *, unit: str, side: str, vis: tuple[str, ...]) -> ev.Rolled:
        recorded = next(self._sealed, None)
        if recorded is None:
            return super().rolled(roll, unit=unit, side=side, vis=vis)
        return msgspec.structs.replace(recorded, roll=roll, unit=unit, side=side, vis=vis)


class _RecordedLabels(MarkerLabels):
    """A copied command's markers' labels, as recorded (drawn from the parent's seed)."""

    def __init__(self, labels: list[str]) -> None:
        super().__init__(None)
        self._labels = iter(labels)

    def draw(self, state: object) -> str:
        return next(self._labels, "")


class _Replayed(Sealing):
    """The replica's sealed dice: as the game draws them, but a copied command's faces as
    recorded and an older save's by the derivation it was made with."""

    def __init__(self, replica: _Replica, copied: int) -> None:
        super().__init__(replica.timeline, replica.header, lambda: replica.salt(), seeded=False)
        self._copied = copied
        self.faces: list[int] | None = None
        self.older: type[ev.SealedRoll] | None = None  # the command's rolls are older sealed rolls of this type
        self.sealed: list[ev.SealedRoll] = []  # the command's sealed rolls, as recorded
        self.drawn: tuple[bool, ...] = ()  # whether the game drew each of the command's rolls, as recorded

    def dice(
        self, parsed: Parsed, cmd: int, typed: list[int] | None, share: Share | None, asking: Asking
    ) -> tuple[list[ev.Event], Dice]:
        sealing, dice = super().dice(parsed, cmd, typed, share, asking)
        if isinstance(dice, ManualDice) and dice.drawer is not None:
            dice.recorded = self.drawn  # (which rolls the game drew, as recorded: ruling CORE-CERTAIN)
            dice.drawer = self._replayed(dice.drawer, cmd)
            return sealing, dice
        return sealing, self._replayed(dice, cmd)

    def _replayed(self, dice: Dice, cmd: int) -> Dice:
        """The game's own dice as the command drew them: as recorded, or by an older derivation."""
        if self.faces is not None and isinstance(dice, SeededDice | SealedDice):
            return _Recorded(self.faces, self.sealed)
        if self.older is ev.SealedRoll and isinstance(dice, SealedDice):
            return OlderSealedDice.like(dice)  # a save made before the bound derivation
        if self.older is ev.BoundRoll and isinstance(dice, SealedDice):
            return BoundSealedDice.like(dice, cmd)  # a save made before shares were counted
        return dice

    def rolls_parents_key(self) -> bool:
        # The parent's own commands, copied, rolled the parent's key: only the what-if's may not.
        return len(self._timeline.history.store) >= self._copied and super().rolls_parents_key()


class _Replica(Game):
    """A read-only game that takes a save's groups one by one and resolves each command
    again with what the file records of the table's choices (see the module)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.path, game.header, game.ruleset, Timeline(History()), None)
        parent = game.header.parent
        self._copied = parent.step if parent is not None else 0
        self.sealing = self._replayed = _Replayed(self, self._copied)
        self._labels_from_seed = self.marker_labels

    def take(self, group: list[ev.Event]) -> None:
        """Add recorded events to the history, as ``Game._append`` does once they are written."""
        self.sealing.took(group)
        base = len(self.history.store)
        self.history.store.append(group, [msgspec.json.encode(e) for e in group])
        self.history.feed(group, base)
        self.timeline.catch_up()

    def again(self, recorded: list[ev.Event], answers: list[str] | None, given_in: str = SOURCE) -> list[ev.Event]:
        """Command ``recorded`` (its ``Issued`` and its facts) resolved again on the table as it stands,
        its line read in the language ``given_in``."""
        issued = recorded[0]
        assert isinstance(issued, ev.Issued)
        rolls = [e for e in recorded if isinstance(e, ev.Rolled)]
        typed = [f for r in rolls if r.roll.manual for f in r.roll.faces]
        givers = [r.given_by for r in rolls if r.roll.manual for _f in r.roll.faces]  # (who typed each)
        sealed = [r for r in rolls if isinstance(r, ev.SealedRoll)]
        replayed = self._replayed
        replayed.older = type(sealed[0]) if sealed and not isinstance(sealed[0], ev.SharedRoll) else None
        replayed.sealed = sealed
        replayed.drawn = tuple(not r.roll.manual for r in rolls)
        # A certain roll the game drew at a table with table dice (its note says so) among typed ones:
        # the command was given with the table's faces, none at all if that roll was its only one.
        drew_certain = any(type(e) is ev.Noted and isinstance(e.text, Msg) and e.text.id in NOTES for e in recorded)
        share = None
        if sealed:
            contribution = bytes.fromhex(sealed[0].contribution)  # ValueError: not hex
            if len(contribution) != CONTRIBUTION_BYTES:
                raise ValueError(_("a contribution to the dice is {n} random bytes").format(n=CONTRIBUTION_BYTES))
            first = sealed[0]
            if isinstance(first, ev.SharedRoll):  # its count checked as the table checked it
                share = Share(contribution, first.saw, first.nonce)
            else:  # an older roll named no count: the count checks do not apply to it
                share = Share(contribution, first.saw if isinstance(first, ev.BoundRoll) else None)
        salts = iter([e.salt for e in recorded if commitments.is_secret(e) and e.salt])
        keys = iter([e.value for e in recorded if type(e) is ev.VarSet and e.key == DICE_KEY])
        self.salt = lambda: next(salts, "") or commitments.new_salt()
        replayed.new_key = lambda: str(next(keys, "")) or "00" * 32
        self.clock = lambda: issued.at
        # Whether a first command seals the dice is the game's making, not a rule: as recorded.
        replayed.seeded = not any(type(e) is ev.VarSet and e.key == DICE_KEY for e in recorded)
        copied = len(self.history.store) < self._copied
        replayed.faces = [f for r in rolls if not r.roll.manual for f in r.roll.faces] if copied else None
        labels = [e.label for e in recorded if type(e) is ev.MarkerPlaced]
        self.marker_labels = (lambda cmd: _RecordedLabels(labels)) if copied else self._labels_from_seed
        with reading(given_in):
            parsed = self.parse(issued.text, issued.acting)
        # The faces typed on the line are in its text; those typed at the table's prompt follow them.
        typed, givers = typed[len(parsed.faces or ()) :], givers[len(parsed.faces or ()) :]
        given: Given = {
            "role": issued.acting,
            "by": issued.by,
            "faces": typed if typed or drew_certain else None,
            "answers": answers,
            "givers": givers if any(givers) else None,
        }
        _cmd, group = self._resolve(parsed, given, share)
        # Its version and its language are the session's and the seat's, not the rules'.
        return [msgspec.structs.replace(group[0], version=issued.version, lang=issued.lang), *group[1:]]

    def rule_of(self, issued: ev.Issued, given_in: str) -> str:
        """The rule of the command ``issued`` gave (its ``CommandSpec.rule``), "" if it no longer parses."""
        try:
            with reading(given_in):
                return self.parse(issued.text, issued.acting).spec.rule
        except Refused:
            return ""


def rederive(game: Game) -> Rederived:
    """Every command of ``game`` (a full save, opened read-only) resolved again and compared."""
    result = Rederived()
    if game.header.ruleset_version != game.ruleset.version:
        result.played_under, result.rules = game.header.ruleset_version, game.ruleset.version
    replica = _Replica(game)
    sessions = Sessions()
    for group in _groups(game):
        head = group[0]
        if type(head) is ev.Issued:
            step = replica.history.length + 1
            forged, ahead = len(sessions.forged), len(sessions.ahead)
            version = sessions.written_by(head, copied=len(replica.history.store) < replica._copied)
            result.claims.extend(_said(c, step) for c in sessions.forged[forged:])
            result.newer.extend(_said(c, step, c.head.version) for c in sessions.ahead[ahead:])
            if head.carries:
                result.carried += 1
                _carried(replica, head, group, result)
            else:
                result.commands += 1
                older = "" if version == core.__version__ else version
                _check(replica, head, group, result, older, sessions.languages(head))
        replica.take(group)
    return result


def _said(claim: Claim, step: int, version: str = "") -> Differs:
    return Differs(claim.head.cmd, claim.head.text, step, claim.why, version)


def _groups(game: Game) -> Iterator[list[ev.Event]]:
    """The file's commands (an ``Issued`` and its facts) and undo and redo markers, in file order."""
    store = game.history.store
    events = store.slice(0, len(store))
    i = 0
    while i < len(events):
        e = events[i]
        size = 1 + e.n if type(e) is ev.Issued else 1
        yield events[i : i + size]
        i += size


def _carried(replica: _Replica, head: ev.Issued, group: list[ev.Event], result: Rederived) -> None:
    known = 0 < head.carries < replica.history.next_cmd
    original = replica.history.group(head.carries) if known else []
    same = (  # (the first command of a session names its version, whatever it carries)
        bool(original)
        and msgspec.structs.replace(original[0], cmd=head.cmd, carries=head.carries, version=head.version) == head
    )
    if not same or original[1:] != group[1:]:
        why = _("it carries command #{cmd} past an undo, but its facts are not that command's").format(cmd=head.carries)
        result.differs.append(Differs(head.cmd, head.text, replica.history.length + 1, why))


#: The verdicts on a command that does not give its facts, the one believed first: read in another
#: language, the line may meet rules changed since where in the first it named no side.
_VERDICTS = ("ahead", "changed", "unsure", "differs")


def _check(
    replica: _Replica,
    head: ev.Issued,
    recorded: list[ev.Event],
    result: Rederived,
    older: str,
    languages: tuple[str, ...],
) -> None:
    """Judge ``recorded`` read in each of ``languages`` in turn, until one gives its facts; if none
    does, the verdict of the first of the kind believed first (``_VERDICTS``) is kept.
    ``older``: the other version that wrote it ("" if this one did)."""
    verdicts = []
    for given_in in languages:
        verdict = _judged(replica, head, recorded, older, given_in)
        if verdict is None:
            return
        verdicts.append(verdict)
    kind, differs = min(verdicts, key=lambda v: _VERDICTS.index(v[0]))
    getattr(result, kind).append(differs)


def _judged(
    replica: _Replica, head: ev.Issued, recorded: list[ev.Event], older: str, given_in: str
) -> tuple[str, Differs] | None:
    """Resolve ``recorded`` again with each question's default, then with every choice of each
    question asked (depth first, ``MAX_TRIES`` resolutions at most), until its facts come again
    (None); else the kind of verdict (``_VERDICTS``) and what differs."""
    step = replica.history.length + 1
    first = ""  # what the first resolution that gave facts found wrong
    same_dice = True  # whether that resolution drew the dice the file records
    same_result = True  # and whether it ends the game as the file records
    result_changed = False  # or a release since decides that otherwise
    pending: list[list[str] | None] = [None]
    for _tried in range(MAX_TRIES):
        if not pending:
            break
        answers = pending.pop()
        try:
            derived = replica.again(recorded, answers, given_in)
        except NeedAnswer as need:
            pending.extend([*(answers or ()), c] for c in reversed(need.question.choices))
            continue
        except Refused as e:
            why = _("the rules refuse it: {why}").format(why=e)
        except Exception as e:  # noqa: BLE001 - a hostile file's facts that no rule can take: said, not raised
            why = _("the rules cannot carry it out: {why}").format(why=f"{type(e).__name__}: {e}")
        else:
            why = _first_difference(recorded, derived, bool(older))
            if not why:
                return None
            if not first:
                same_dice, same_result = _same_dice(recorded, derived), _same_result(recorded, derived)
                result_changed = _result_changed_since(older, replica.ruleset.id, recorded, derived)
        first = first or why
        if answers is None:
            pending.append([])  # the questions asked with answers given, defaults or not
    if pending:
        said = _("its questions' answers are not recorded, and none of the first {n} tried gives its facts")
        return "unsure", Differs(head.cmd, head.text, step, said.format(n=MAX_TRIES))
    why = first or _("no answer to its questions gives its facts")
    if older and newer(older):  # (a newer Fireteam's rules, which this one cannot know)
        return "ahead", Differs(head.cmd, head.text, step, why, older, replica.rule_of(head, given_in))
    if older and same_dice and not same_result and not result_changed:
        said = _("its result is not the rules', and no release since {version} decides it otherwise: {why}")
        return "differs", Differs(head.cmd, head.text, step, said.format(version=older, why=why))
    if older and same_dice:
        return "changed", Differs(head.cmd, head.text, step, why, older, replica.rule_of(head, given_in))
    return "differs", Differs(head.cmd, head.text, step, why)


def _same_dice(recorded: list[ev.Event], derived: list[ev.Event]) -> bool:
    """Whether the rules drew the dice the file records: the same faces in the same order, one
    run the start of the other (a rule changed since may roll a die more or fewer, never another
    face for the same draw); a face edited in the file is a forgery, whoever wrote it."""
    was = [f for e in recorded if isinstance(e, ev.Rolled) for f in e.roll.faces]
    now = [f for e in derived if isinstance(e, ev.Rolled) for f in e.roll.faces]
    shorter = min(len(was), len(now))
    return was[:shorter] == now[:shorter]


def _same_result(recorded: list[ev.Event], derived: list[ev.Event]) -> bool:
    """Whether the rules end the game where the file does, with its winner, draw and scores (an
    older end that names none of them read by its words, as ``_as_written`` reads it)."""
    was = [e for e in recorded if type(e) is ev.GameEnded]
    now = [e for e in derived if type(e) is ev.GameEnded]
    if len(was) != len(now):
        return False
    result = operator.attrgetter("winner", "draw", "scores")
    return all(result(w) == result(_as_written(n, w)) for w, n in zip(was, now, strict=True))


def _result_changed_since(older: str, ruleset: str, recorded: list[ev.Event], derived: list[ev.Event]) -> bool:
    """Whether a release since ``older`` may give this command's end otherwise: an end both
    record, with another result, where one decides ``ruleset``'s results otherwise; an end the
    rules give that the file lacks, where one ends its games at more commands (a break point);
    an end the file records that the rules do not give, never (no release ends fewer games)."""
    if not older:
        return False
    was = sum(type(e) is ev.GameEnded for e in recorded)
    now = sum(type(e) is ev.GameEnded for e in derived)
    if was == now:
        return results_changed_since(older, ruleset)
    return was < now and ends_changed_since(older, ruleset)


def _first_difference(recorded: list[ev.Event], derived: list[ev.Event], older: bool = False) -> str:
    """The first fact that differs, recorded against re-derived, in words ("" if none): the
    facts first (numbered from 1), then the command's own record (its ``Issued``)."""
    facts, again = recorded[1:], derived[1:]
    for k, (was, now) in enumerate(zip(facts, again, strict=False), start=1):
        if was != (_as_written(now, was) if older else now):
            return _("fact {k}: recorded {was}, re-derived {now}").format(k=k, was=brief(was, now), now=brief(now, was))
    if len(facts) > len(again):
        said = _("fact {k}: recorded {was}, re-derived nothing (the rules give {n} facts, the file {m})")
        return said.format(k=len(again) + 1, was=brief(facts[len(again)]), n=len(again), m=len(facts))
    if len(again) > len(facts):
        said = _("fact {k}: recorded nothing, re-derived {now} (the rules give {n} facts, the file {m})")
        return said.format(k=len(facts) + 1, now=brief(again[len(facts)]), n=len(again), m=len(facts))
    if recorded[0] != derived[0]:
        said = _("the command's record: recorded {was}, re-derived {now}")
        return said.format(was=brief(recorded[0], derived[0]), now=brief(derived[0], recorded[0]))
    return ""


def _as_written(now: ev.Event, was: ev.Event) -> ev.Event:
    """The re-derived fact as a save an older version wrote would hold it: its end fact with
    neither a winner, a draw nor scores is from before the result as data (docs/secrets.md),
    and is checked by its words alone; this version's own end must name them."""
    if type(now) is ev.GameEnded and type(was) is ev.GameEnded and not (was.winner or was.draw or was.scores):
        return msgspec.structs.replace(now, winner="", draw=False, scores={})
    return now


def brief(e: ev.Event, other: ev.Event | None = None) -> str:
    """A fact as compact JSON; beside ``other``, only the fields in which they differ."""
    data = msgspec.to_builtins(e)
    if other is not None and type(other) is type(e):
        theirs = msgspec.to_builtins(other)
        data = {"t": data.get("t"), **_diff(data, theirs)}
    return msgspec.json.encode(data).decode()


def _diff(mine: dict, theirs: dict) -> dict:
    out = {}
    for k, v in mine.items():
        if theirs.get(k) != v:
            out[k] = _diff(v, theirs[k]) if isinstance(v, dict) and isinstance(theirs.get(k), dict) else v
    for k in theirs.keys() - mine.keys():
        out[k] = None
    return out
