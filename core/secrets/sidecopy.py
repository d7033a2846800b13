"""A side's copy of a game: ``fireteam export SAVE --as ROLE``, what that role saw.

A copy is one JSON document: the save's header less its dice seed (which would
let a side work out dice to come), the role, its number of steps, and every
effective event the role may see (``views.event_visible``) with its step, all
counted as the role counts them (``core.log.replay.visible_steps``, ``core.log.numbering``):
the N-th event it may see has step N, and a command bears the number the role
knows it by and counts only the facts of it the role may see.  Copies made
before that counted the whole game's steps; they read the same.  A side keeps it and checks it with
``fireteam verify`` (``core.secrets.verify``): every secret revealed to it matches the
commitment it saw being made.

A copy opens read-only wherever a save opens to be read (:func:`open_to_read`:
``fireteam log``, ``report``, ``replay``, the client's replay and its Load
screen), as that role's game and no other's.  It cannot be played on or forked:
it lacks what the role could not see.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import msgspec

from core.game import Game
from core.language.i18n import _
from core.log import events as ev
from core.log.history import History, HistoryError
from core.log.recordint import RecordInt
from core.log.replay import Timeline
from core.log.state import GameState, apply_in_place
from core.log.views import REFEREE, REFEREE_ONLY, event_visible
from core.registry import get_ruleset
from core.storage.decoding import FORMAT_VERSION, Header
from core.storage.errors import SaveError
from core.storage.savefile import open_regular
from core.storage.writer import OWNER_ONLY

#: The version of the copy's format, and its first key (how a copy is told from a save).
COPY_VERSION = 1
#: A copy larger than this is not read, nor written: it is decoded whole (some ten times its size in
#: memory), and a game's copy is a few hundred kilobytes.
MAX_COPY_BYTES = 64 << 20
_OPENING = b'{"fireteam_copy":'
#: A copy's events, each with its step.
_Steps = list[tuple[int, ev.AnyEvent]]


class CopyHeader(msgspec.Struct, frozen=True, omit_defaults=True):
    ruleset: str
    ruleset_version: str
    engine: str
    created: str
    variant: str = ""


class SideCopy(msgspec.Struct, frozen=True):
    fireteam_copy: RecordInt
    role: str
    header: CopyHeader
    steps: RecordInt
    events: list[tuple[RecordInt, ev.AnyEvent]]
    #: What the role came to see that was set up out of its sight, so the copy
    #: replays: a hidden piece (``UnitAdded``) as it stood when the first fact about
    #: it the role saw came, and a secret of another's (``SecretSet``) revealed to
    #: it, each with the step of that fact.  Not in the log: the role saw the fact,
    #: not the set-up.  Absent from copies made before it (they replay without).
    seen: list[tuple[RecordInt, ev.AnyEvent]] = msgspec.field(default_factory=list)


@dataclass(frozen=True)
class Step:
    """One event of an effective history, with its step."""

    step: int
    event: ev.Event


def export(game: Game, role: str) -> SideCopy:
    """``role``'s copy, numbered as ``role`` counts (as its replay and its log do): its steps
    count only the events it may see, and its commands bear the numbers it knows them by, each
    with the facts of it that it may see.  The game's own step count, positions and command
    numbers would tell it how many hidden events there were, and where."""
    h = game.header
    header = CopyHeader(h.ruleset, h.ruleset_version, h.engine, h.created, h.variant)
    timeline = game.history.timeline()
    numbering = game.reading.numbering(role)
    steps: dict[int, int] = {}  # the game's step of each event the role sees → the role's
    events: list[tuple[int, ev.Event]] = []
    for i, e in enumerate(timeline):
        if not event_visible(e, role):
            continue
        if type(e) is ev.Issued:
            seen = sum(1 for fact in timeline[i + 1 : i + 1 + e.n] if event_visible(fact, role))
            # The version that wrote the session is the host's program, not the game's: a side
            # is not told when its table was opened again (a reopened twin reads as the same game).
            version = e.version if role == REFEREE else ""
            e = msgspec.structs.replace(e, cmd=numbering.shown(e.cmd) or 0, n=seen, carries=0, version=version)
        steps[i + 1] = len(events) + 1
        events.append((len(events) + 1, e))
    seen_later = [(steps[step], e) for step, e in _seen_later(timeline, role)]
    # Every event is one of the union the file is decoded as (core.log.events.EVENT_TYPES is its members).
    return SideCopy(COPY_VERSION, role, header, len(events), cast(_Steps, events), cast(_Steps, seen_later))


def command_starts(game: Game, role: str) -> set[int]:
    """The steps of ``role``'s copy at which a command begins (its first event the role may
    see): where a copy kept during the game may end, one step before."""
    starts: set[int] = set()
    step = 0
    first = False  # the next event the role sees is its command's first
    for e in game.history.timeline():
        first = first or type(e) is ev.Issued
        if event_visible(e, role):
            step += 1
            if first:
                starts.add(step)
                first = False
    return starts


def _seen_later(timeline: list[ev.Event], role: str) -> list[tuple[int, ev.Event]]:
    """The pieces and secrets set up out of ``role``'s sight that facts it saw name later."""
    state = GameState()
    pieces: set[str] = set()
    secrets: set[str] = set()
    out: list[tuple[int, ev.Event]] = []
    for step, e in enumerate(timeline, start=1):
        if event_visible(e, role):
            if type(e) is ev.UnitAdded:
                pieces.add(e.unit.id)
            elif type(e) is ev.SecretSet:
                secrets.add(e.key)
            uid = getattr(e, "unit", "")
            if isinstance(uid, str) and uid and uid not in pieces and uid in state.units:
                pieces.add(uid)
                u = state.units[uid]
                spec = ev.UnitSpec(
                    u.id, u.name, u.side, u.team, u.kind, u.cls, u.weapons, u.leadership, u.roles, u.status, u.stats
                )
                out.append((step, ev.UnitAdded(unit=spec, vis=REFEREE_ONLY)))
            if type(e) is ev.Revealed and e.key not in secrets and e.key in state.secrets:
                secrets.add(e.key)
                s = state.secrets[e.key]
                out.append((step, ev.SecretSet(key=e.key, owner=s.owner, value=s.value, salt=s.salt, vis=REFEREE_ONLY)))
        apply_in_place(state, (e,))
    return out


def write(copy: SideCopy, to: Path) -> None:
    """Write ``copy`` into a new file (never an existing one), synced."""
    data = msgspec.json.encode(copy) + b"\n"
    if len(data) > MAX_COPY_BYTES:  # it could not be read back
        raise _too_big(to, len(data))
    try:
        fd = os.open(to, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY)
    except FileExistsError:
        said = _("{path}: already exists; choose another name with -o (files are never overwritten)")
        raise SaveError(said.format(path=to)) from None
    except OSError as e:
        said = _("{path}: cannot create: {error}; choose another place with {option}")
        raise SaveError(said.format(path=to, error=e.strerror, option="-o")) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        with contextlib.suppress(OSError):  # (the file gone already, or a disk gone away: the clean-up fails too)
            to.unlink()
        raise SaveError(_("{path}: cannot write: {error}").format(path=to, error=e.strerror)) from None


def looks_like_side_copy(path: Path) -> bool:
    return opens_with(path, _OPENING)


def opens_with(path: Path, opening: bytes) -> bool:
    """Whether ``path`` is a regular file that begins with ``opening`` (what opens it says why not)."""
    try:
        with open(open_regular(path), "rb") as f:
            return f.read(len(opening)) == opening
    except (OSError, SaveError):
        return False


def _too_big(path: Path, size: int) -> SaveError:
    said = _("{path}: {size} bytes is larger than a copy can be ({limit} bytes)")
    return SaveError(said.format(path=path, size=size, limit=MAX_COPY_BYTES))


def read(path: Path) -> SideCopy:
    """A side's copy, checked as hostile input: its format, its size and its steps."""
    try:
        with open(open_regular(path), "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_COPY_BYTES:
                raise _too_big(path, size)
            data = f.read(size)
    except FileNotFoundError:
        raise SaveError(_("{path}: no such file; check the name").format(path=path)) from None
    except OSError as e:
        raise SaveError(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None
    return decode(data, path)


def decode(data: bytes, path: Path | str) -> SideCopy:
    """A side's copy from its bytes (a file's, or a venue's message: ``core.venue``), checked as hostile input;
    ``path`` names where they came from in what is said."""
    try:
        copy = msgspec.json.decode(data, type=SideCopy)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError) as e:
        raise SaveError(_("{path}: not a valid side's copy of a game: {error}").format(path=path, error=e)) from None
    if copy.fireteam_copy > COPY_VERSION or copy.fireteam_copy < 1:
        said = _("{path}: a side's copy in format {version}; this Fireteam reads format 1")
        raise SaveError(said.format(path=path, version=copy.fireteam_copy))
    last = 0
    for step, _event in copy.events:
        if not last < step <= copy.steps:
            said = _("{path}: step {step} out of order (after {last}, of {steps}): the copy is damaged")
            raise SaveError(said.format(path=path, step=step, last=last, steps=copy.steps))
        last = step
    last = 0
    for step, event in copy.seen:
        if not last <= step <= copy.steps or type(event) not in (ev.UnitAdded, ev.SecretSet):
            said = _(
                "{path}: the set-up seen at step {step} is out of order or not a piece or a secret: the copy is damaged"
            )
            raise SaveError(said.format(path=path, step=step))
        last = step
    return copy


def seen_out_of_place(copy: SideCopy) -> list[str]:
    """Each set-up the copy says it came to see (``seen``) at another step than its first fact that
    names it, the step it must stand at (``export`` puts it there): a copy that claims its side saw
    the hidden gun at step 20, when the gun first fired at step 103, says so in words."""
    first: dict[tuple[str, str], int] = {}
    for step, e in copy.events:
        uid = getattr(e, "unit", "")
        if isinstance(uid, str) and uid:
            first.setdefault(("unit", uid), step)
        if type(e) is ev.Revealed:
            first.setdefault(("secret", e.key), step)
    out = []
    for step, e in copy.seen:
        named = ("unit", e.unit.id) if isinstance(e, ev.UnitAdded) else ("secret", getattr(e, "key", ""))
        at = first.get(named)
        if at != step:
            said = _(
                "the copy says its side saw {what} {name} set up at step {step}; its first fact of it is at step {at}"
            )
            what = _("the piece") if named[0] == "unit" else _("the secret")
            name = e.unit.name if isinstance(e, ev.UnitAdded) else named[1]
            out.append(said.format(what=what, name=name, step=step, at=at if at is not None else _("none")))
    return out


def steps(copy: SideCopy) -> list[Step]:
    return [Step(step, e) for step, e in copy.events]


def open_to_read(path: Path) -> Game:
    """A save opened read-only, or a side's copy as a game."""
    if looks_like_side_copy(path):
        return open_copy(path)
    return Game.open(path, writable=False)


def open_copy(path: Path) -> Game:
    """A side's copy as a read-only game of its role (``Game.copy_role``), checked as hostile
    input: what it holds must make a game as any save's events must."""
    return copy_as_game(read(path), path)


def copy_as_game(copy: SideCopy, path: Path) -> Game:
    """A copy already read (:func:`decode`) as a read-only game of its role; ``path`` names it."""
    try:
        ruleset = get_ruleset(copy.header.ruleset, copy.header.variant)
    except ValueError as e:
        raise SaveError(f"{path}: {e}") from None
    h = copy.header
    # No seed: the copy never had one, and a read-only game rolls no dice.
    header = Header(FORMAT_VERSION, h.ruleset, h.ruleset_version, h.engine, h.created, 0, h.variant)
    history = History()
    events = commands(copy)
    history.store.append(events, [msgspec.json.encode(e) for e in events])
    try:
        history.feed(events, 0)
        if history.pending() is not None:
            raise HistoryError(_("a command with facts missing at the end"))
    except HistoryError as e:
        raise SaveError(_("{path}: not a side's copy of a game: {error}").format(path=path, error=e)) from None
    timeline = Timeline(history, apply=fold_what_holds)
    try:
        timeline.catch_up()
    except (ValueError, TypeError, AttributeError) as e:
        said = _("{path}: the copy's events do not make a game ({error}): the copy is damaged")
        raise SaveError(said.format(path=path, error=e)) from None
    game = Game(path, header, ruleset, timeline, None)
    game.copy_role = copy.role
    return game


def fold_what_holds(state: GameState, events: list[ev.Event]) -> GameState:
    """Fold each event that applies to what the copy set up, and pass over the others.

    A copy holds only what its role saw: a hidden piece's later facts (spotted,
    hit) or a secret revealed to it name a piece or a secret it never saw set up,
    which the full game had.  Such a fact stays in the log; the state goes on
    without it.
    """
    for e in events:
        try:
            apply_in_place(state, (e,))
        except KeyError:
            continue
    return state


def commands(copy: SideCopy) -> list[ev.Event]:
    """The copy's events as commands a history takes: each command the role saw with the
    facts of it the role saw, renumbered 1, 2, 3…; facts of a command the role did not
    see go under a command line only the referee could read (as in the save)."""
    groups: list[tuple[ev.Issued | None, list[ev.Event]]] = []
    end = 0  # the last step of the command seen last
    seen = [(step, e, 0) for step, e in copy.seen]
    # Each set-up the role came to see goes just before the first fact that named it.
    for step, e, _order in sorted([*seen, *((step, e, 1) for step, e in copy.events)], key=lambda x: x[::2]):
        if type(e) is ev.Issued:
            groups.append((e, []))
            end = step + e.n
        elif type(e) in (ev.Undone, ev.Redone):
            continue  # an effective history has none; a hostile copy may
        elif groups and (step <= end or groups[-1][0] is None):
            groups[-1][1].append(e)
        else:
            groups.append((None, [e]))
            end = 0
    out: list[ev.Event] = []
    for cmd, (head, facts) in enumerate(groups, start=1):
        if head is None:
            out.append(ev.Issued(cmd=cmd, n=len(facts), by="", text="", vis=REFEREE_ONLY))
        else:
            out.append(msgspec.structs.replace(head, cmd=cmd, n=len(facts), carries=0))
        out += facts
    return out
