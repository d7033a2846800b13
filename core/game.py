"""A game: its save file, its history, its current state, and the commands on it.

Every change goes the same way: parse the command against what the issuer can
see, check who may do it and when, let the ruleset's pure handler turn it into
events, append and sync those events, then update the history and the state.
A refused command raises :class:`Refused` and writes nothing.  A command that
fails on a bug (any other exception before it is written) is logged with its
traceback (``core.refusal.LOG``) and raises :class:`CommandFailed`:
it writes nothing either, and never passes for a refusal.
"""

from __future__ import annotations

import os
import secrets as _secrets
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import msgspec

import core
from core import events as ev
from core.commands import Parsed, complete, localize_line, names, parse, usage
from core.dice import (
    CONTRIBUTION_BYTES,
    KEY_BYTES,
    Dice,
    ManualDice,
    NeedDice,
    SealedDice,
    SeededDice,
    sent_contribution,
)
from core.history import History, HistoryError
from core.language.i18n import Domain, Text, _, naming, render, scenario_words
from core.language.reader import SOURCE, lang
from core.language.shapes import command_shapes
from core.narrate import describe, sides_of
from core.numbering import Numbering
from core.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Held, Outcome, Refusal, Result, settle
from core.probability import check_distribution, check_summary, odds_summary, successes_distribution, sum_distribution
from core.questions import MAX_ANSWERS, Answers, NeedAnswer
from core.refusal import LOG, CommandFailed
from core.replay import Timeline
from core.ruleset import CommandSpec, Context, Param, Refused, RollAhead, Ruleset, get_ruleset
from core.secrets import commitments
from core.state import DICE_KEY, SEALED_ORDERS, TABLE_DICE, GameState, apply_in_place, copy_state, table_dice
from core.storage.savefile import FORMAT_VERSION, Header, SaveError, load, read_commands, salvage_hint
from core.storage.writer import SaveWriter
from core.views import (
    REFEREE,
    REFEREE_ONLY,
    SPECTATOR,
    MarkerLabels,
    event_visible,
    narrowest,
    roll_owner,
    roller,
    unit_audience,
    unit_visible,
    view_state,
)

if TYPE_CHECKING:
    # A save under 1 MB opens without the open cache (tui.opening.CACHE_FROM_BYTES): not imported for it.
    from core.storage.opencache import Mark, OpenCache

#: A game's dice seed is a whole number below this: it fits every integer the
#: save and its readers hold (a new game draws 48 random bits).
SEED_LIMIT = 2**63

#: The command that opens the sealed key so far and seals a new one (a referee's: ``Game._sealing``).
SEAL_DICE = "dice-key"

#: Commands waiting for an answer after their sealed dice rolled that one game keeps
#: (``Game._asked``): past it the oldest is forgotten, and given again draws afresh.
MAX_ASKED = 64

#: Events read at a time looking back for the line before a hidden command (``Game.hidden_header``).
HEADER_LOOKBACK = 256

#: Facts after which a player may no longer take back his own command alone.
_IRREVERSIBLE_FOR_PLAYERS = (ev.Rolled, ev.Revealed, ev.Opened, ev.Spotted)


class Odds(msgspec.Struct, frozen=True):
    """The first roll a command would make, with the exact chance of each outcome.

    ``chances[k]`` is the chance of exactly k successes as the roll's check counts
    them (``core.probability.check_distribution``: hits of dice read each on its
    own, else 0 or 1 for a failed or passed roll); for a roll without a check,
    of k successes (per-die target) or of a total of exactly k (summed dice).
    """

    purpose: Text
    count: int
    sides: int
    target: int | None
    mods: tuple[ev.Mod, ...]
    total: bool
    chances: tuple[Fraction, ...]
    summary: str
    check: ev.Check | None = None


class LogLine(msgspec.Struct, frozen=True):
    index: int  # position in the file's events (for the client's bookkeeping: never shown to a side)
    cmd: int  # the command it belongs to (0 for undo/redo markers)
    text: str
    event: ev.Event
    undone: bool
    #: The number the role knows that command by (``core.numbering``), or the
    #: command an undo/redo names; 0 if none.
    number: int = 0
    #: One of the game's inner variables (:meth:`Game.inner`): out of the log's normal view.
    inner: bool = False


class _Asked(NamedTuple):
    """A command that asked a question after its sealed dice rolled: what it drew them with."""

    at: int  # the save's length when it asked: any command written since, and it is forgotten
    sealing: list[ev.Event]
    contribution: bytes
    saw: str  # the key's commitment its sender saw


def _now_ms() -> int:
    return int(time.time() * 1000)


def new_contribution() -> bytes:
    """A contribution to a roll drawn in this process: the referee's client's at a single
    table (a seat's client sends its own: docs/secrets.md, "Sealed dice")."""
    return _secrets.token_bytes(CONTRIBUTION_BYTES)


def new_dice_key() -> str:
    return _secrets.token_hex(KEY_BYTES)


class Game:
    def __init__(
        self,
        path: Path,
        header: Header,
        ruleset: Ruleset,
        timeline: Timeline,
        writer: SaveWriter | None,
        *,
        clock: Callable[[], int] = _now_ms,
        salt: Callable[[], str] = commitments.new_salt,
        notes: list[str] | None = None,
        saved_bytes: int = 0,
        saved_check: int = 0,
        seeded: bool = False,
    ) -> None:
        self.path = path
        self.header = header
        self.ruleset = ruleset
        self.timeline = timeline
        self.history = timeline.history
        self.writer = writer
        self.clock = clock
        #: Where the salts of the secrets' commitments come from (fixed only by tests that draw screens).
        self.salt = salt
        #: Where a command's contribution to its sealed dice comes from when its issuer sent
        #: none (the referee at this process), and where a new sealed key comes from.
        self.contribute: Callable[[], bytes] = new_contribution
        self.dice_key: Callable[[], str] = new_dice_key
        #: A game made with a seed it was given (``Game.new(seed=…)``, ``script --seed``) rolls
        #: seeded dice that the seed foresees, for reproducible scripts; any other new game
        #: seals its dice with its first command (docs/secrets.md, "Sealed dice").
        self.seeded = seeded
        #: The contributions the sealed rolls in the file used, by their seal (built when first needed).
        self._used: set[tuple[str, str]] | None = None
        #: The keys a what-if copied from its parent (``_rolls_parents_key``; gathered when first needed).
        self._parents_keys: set[object] | None = None
        #: Each issuer's command (role, by, the command and its arguments) that asked a question
        #: after its sealed dice rolled: given again, with the answer, it rolls the same dice (issue #60).
        self._asked: dict[tuple[str, str, str, str], _Asked] = {}
        #: The fact that set the sealed key last looked up (``_key_fact``).
        self._key: ev.VarSet | None = None
        self.notes = notes or []
        #: Bytes of the save this game holds: up to here, memory and file agree.
        self.saved_bytes = writer.size if writer is not None else saved_bytes
        #: The check of the save's line that ends at ``saved_bytes`` (its chain goes on from there).
        self.saved_check = writer.check if writer is not None else saved_check
        self._specs: list[CommandSpec] | None = None  # the commands, gathered when first needed
        self._numberings: dict[str, Numbering] = {}
        #: Each side's view of the live state, as of (the log's length, the state): shared by all who ask.
        self._views: dict[str, tuple[tuple[int, int], GameState]] = {}
        self._listeners: list[tuple[str, Callable[[Outcome], None]]] = []
        #: Each listening side's view as its listeners were last told it (``_seen``).
        self._told: dict[str, GameState] = {}
        self._refusal_listeners: list[Callable[[Refusal], None]] = []
        #: Where the open cache's entry for this save stands (``core.storage.opencache``), if it was opened with one.
        self.cache_mark: Mark | None = None
        #: With ``Game.open(..., cache_later=True)``: what ``keep_cache`` finishes (None once done).
        self._cache_finish: Callable[[], Mark | None] | None = None
        #: The role whose copy this is (``core.secrets.sidecopy.open_copy``), or "" for a save: a
        #: copy is shown as that role's game only.
        self.copy_role = ""
        #: The labels of command ``cmd``'s new markers (tests may give their own).
        self.marker_labels: Callable[[int], MarkerLabels] = lambda cmd: MarkerLabels(self.header.seed, cmd)
        #: At a served table, the roles whose seats can be asked for their own dice (set by the
        #: server, issue #61); None: one person at one screen types every roll (a local client).
        self.seated: Callable[[], set[str]] | None = None
        #: The command held for another seat's dice or answer (``hold``), one per table.
        self.awaiting: Awaited | None = None
        #: Why the last held command ended unrecorded (its answer refused, or withdrawn), for
        #: the seat that gave it, which learns it only as news; None once another is held.
        self.held_dropped: Refusal | Failure | None = None
        self._awaiting_listeners: list[Callable[[], None]] = []

    @property
    def writable(self) -> bool:
        """Whether commands may be given (false for a game opened read-only to replay it)."""
        return self.writer is not None

    @property
    def state(self) -> GameState:
        """The current state (the fold of the effective history).  Do not modify it."""
        return self.timeline.state

    # -------------------------------------------------------------- creating, opening

    @classmethod
    def new(
        cls,
        path: str | os.PathLike[str],
        ruleset_id: str,
        variant: str = "",
        *,
        seed: int | None = None,
        clock: Callable[[], int] = _now_ms,
        salt: Callable[[], str] = commitments.new_salt,
    ) -> Game:
        if seed is not None and not 0 <= seed < SEED_LIMIT:
            raise ValueError(_("a seed is a whole number from 0 to {limit}").format(limit=SEED_LIMIT - 1))
        ruleset = get_ruleset(ruleset_id, variant)
        header = Header(
            fireteam=FORMAT_VERSION,
            ruleset=ruleset.id,
            ruleset_version=ruleset.version,
            engine=core.__version__,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            seed=_secrets.randbits(48) if seed is None else seed,
            variant=variant,
        )
        writer = SaveWriter.create(path, header)
        seeded = seed is not None
        return cls(Path(path), header, ruleset, Timeline(History()), writer, clock=clock, salt=salt, seeded=seeded)

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        writable: bool = True,
        clock: Callable[[], int] = _now_ms,
        progress: Callable[[int, int], None] | None = None,
        cache: OpenCache | None = None,
        cached_only: bool = False,
        cache_later: bool = False,
    ) -> Game:
        """Open a save.  Read-only opens (replay) never touch the file and take no lock.

        A writable open takes the save's lock first (``SaveLocked`` if another
        process writes it) and holds it until :meth:`close`.  ``progress`` is
        told (bytes read, bytes in all) as the save loads (``core.storage.savefile.load``).
        With ``cache``, what a load of the same bytes found before is restored
        from it if it holds, and kept in it after a full load and as a game that
        grew closes (``core.storage.opencache``).  ``cached_only``: raise ``NotCached``
        rather than load in full.  ``cache_later``: the cache's entry is brought up to
        date by :meth:`keep_cache`, not as the game opens (the client shows the game first).
        """
        writer = SaveWriter.lock(path) if writable else None
        try:
            return cls._open(Path(path), writer, clock, progress, cache, cached_only, cache_later)
        except BaseException:
            if writer is not None:
                writer.close()
            raise

    @classmethod
    def _open(
        cls,
        path: Path,
        writer: SaveWriter | None,
        clock: Callable[[], int],
        progress: Callable[[int, int], None] | None = None,
        cache: OpenCache | None = None,
        cached_only: bool = False,
        cache_later: bool = False,
    ) -> Game:
        opening = cache.opening(path) if cache is not None else None
        hit = opening.hit if opening is not None else None
        if cached_only and hit is None:
            from core.storage.opencache import NotCached  # only a big save's open has a cache

            raise NotCached(path)
        timeline = hit.timeline if hit is not None else Timeline(History())
        hasher = opening.full_load_hasher() if opening is not None and hit is None else None
        try:
            loaded = load(
                path,
                history=timeline.history,
                after_batch=timeline.loading(),
                progress=progress,
                resume=hit.resume if hit is not None else None,
                hasher=hasher,
            )
            timeline.catch_up()
        except KeyError:
            # Well-formed records that do not make a game (a fact about a unit,
            # side or secret that was never set up): a damaged or hand-edited save.
            raise _inconsistent(path, timeline.history) from None
        try:
            ruleset = get_ruleset(loaded.header.ruleset, loaded.header.variant)
        except ValueError as e:
            raise SaveError(f"{loaded.path}: {e}") from None
        finish = partial(opening.finish, loaded, timeline, hasher) if opening is not None else None
        mark = finish() if finish is not None and not cache_later else None
        if writer is not None:
            writer.adopt(loaded)
        game = cls(
            loaded.path,
            loaded.header,
            ruleset,
            timeline,
            writer,
            clock=clock,
            notes=loaded.notes,
            saved_bytes=loaded.good_bytes,
            saved_check=loaded.check,
        )
        game.cache_mark = mark
        if finish is not None and cache_later:
            length = len(timeline.history.store)
            # Only for the game as it opened: an entry of a game that changed since would not match its bytes.
            game._cache_finish = lambda: finish() if len(timeline.history.store) == length else None
        return game

    def keep_cache(self) -> None:
        """What ``open(..., cache_later=True)`` left for later: write the cache's entry if the
        load found more than it held, and take the mark a game that grows goes on from.
        Once (later calls do nothing); nothing if the game changed since it opened."""
        finish, self._cache_finish = self._cache_finish, None
        if finish is not None:
            self.cache_mark = finish()

    def close(self) -> None:
        if self.writer is not None:
            mark = self.cache_mark
            if mark is not None and self.saved_bytes > mark.size:
                mark.keep(self.path, self.timeline, self.saved_bytes, self.saved_check, self.header.fireteam)
            self.writer.close()
            self.writer = None

    def subscribe(self, listener: Callable[[Outcome], None], *, role: str) -> Callable[[], None]:
        """Call ``listener`` after every change ``role`` may see, with what it may see of it (each
        seat of a shared table listens): a change it may see none of, that leaves its view as it
        was, calls nothing, so a seat cannot even tell that one happened.  The server's log and
        its like listen as the referee."""
        if role != REFEREE:
            self._told[role] = self.view(role)  # (told of every change since, its other listeners know it)
        entry = (role, listener)
        self._listeners.append(entry)
        return lambda: self._listeners.remove(entry)

    def subscribe_refusals(self, listener: Callable[[Refusal], None]) -> Callable[[], None]:
        """Call ``listener`` whenever a command, undo or redo is refused (the server logs them)."""
        self._refusal_listeners.append(listener)
        return lambda: self._refusal_listeners.remove(listener)

    def _told_if_refused(self, text: str, role: str, by: str, act: Callable[[], Outcome]) -> Outcome:
        try:
            return act()
        except Refused as e:
            refusal = Refusal(text, role, by, str(e))
            for listener in list(self._refusal_listeners):
                listener(refusal)
            raise

    # ------------------------------------------------------------------- commands

    @property
    def commands(self) -> list[CommandSpec]:
        # Gathered on first use, not as the game opens: a ruleset's commands import
        # most of its modules, which opening and drawing a game do not need.
        if self._specs is None:
            self._specs = [*self.ruleset.commands(), *builtin_commands(self.ruleset)]
        return self._specs

    def complete(self, text: str, role: str) -> list[str]:
        """Candidates for the word being typed, in the reader's language (``core.commands``)."""
        view = self.view(role)
        offered_first = partial(self.ruleset.offered_first, view)

        def side_offered(spec: CommandSpec, side: str) -> bool:
            return self.ruleset.side_offered(view, spec, side, role)

        return complete(
            text,
            self.commands,
            view,
            role,
            self.ruleset.domain,
            offered_first,
            self._phase_commands(),
            side_offered,
        )

    def parse(self, text: str, role: str) -> Parsed:
        """``text`` typed in the reader's language or in English; ``Parsed.text`` is it in English."""
        return parse(text, self.commands, self.state, role, self.ruleset.domain, self._phase_commands())

    def _phase_commands(self) -> tuple[str, ...]:
        """The phase's main commands in the order its rules play it (``Phase.commands``)."""
        phase = self.ruleset.phase(self.state.phase)
        return phase.commands if phase is not None else ()

    def usage(self, spec: CommandSpec) -> str:
        """``spec``'s usage in the reader's names."""
        return usage(spec, self.ruleset.domain)

    def names(self, spec: CommandSpec) -> tuple[str, str]:
        """``spec``'s name in the reader's language and in English, for help that shows both."""
        return names(spec, self.ruleset.domain)

    def localize(self, text: str) -> str:
        """A recorded command line (English names) in the reader's names (``core.commands.localize_line``)."""
        if lang() == SOURCE:
            return text  # as recorded; and drawing the log in English need not gather the commands
        specs = self._specs
        if specs is None:
            # Until the commands are gathered, their kept shapes name them: a log drawn in
            # another language need not import the ruleset's rules either (core.language.shapes).
            shapes = command_shapes(self.ruleset.id, self.ruleset.variant)
            if shapes is not None:
                return localize_line(text, shapes, self.ruleset.domain)
        return localize_line(text, self.commands, self.ruleset.domain)

    def submit(
        self,
        text: str,
        *,
        role: str,
        by: str = "",
        faces: list[int] | None = None,
        contribution: bytes | None = None,
        answers: list[str] | None = None,
        saw: str | None = None,
    ) -> Result:
        """What one command line (``undo`` and ``redo`` too) comes to, as a value (``core.outcome``):
        what every front end calls, and what a seat worker's copy of the game carries out at the
        table instead (``tui.ssh.workers.replica``).  :meth:`execute` is the same, raising to
        refuse; ``contribution`` is the issuer's client's share of the command's sealed dice, as there."""
        by = by or role
        if self.awaiting is not None:  # one command at a time, undo too: the table waits for its dice
            return Refusal(text.strip(), role, by, self.awaited_said(role))

        def act() -> Outcome:
            return self.execute(
                text, role=role, by=by, faces=faces, contribution=contribution, answers=answers, saw=saw
            )

        result = settle(act, text.strip(), role, by)
        if isinstance(result, DiceNeeded | AnswerNeeded) and self.seated is not None and table_dice(self.state):
            # Held as it is recorded, in English: the seat that goes on with it may read another language.
            recorded = self.parse(text, role).text
            held = Awaited(recorded, role, by, list(faces or ()), list(answers or ()), role)
            return self._hold(held, result, first=True)
        return result

    # ------------------------------------------------------- the table's dice, at their seats

    def subscribe_awaiting(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` whenever the command held for a seat's dice (``awaiting``) changes."""
        self._awaiting_listeners.append(listener)
        return lambda: self._awaiting_listeners.remove(listener)

    def set_awaiting(self, held: Awaited | None, dropped: Refusal | Failure | None = None) -> None:
        """Hold ``held`` (None: none; ``dropped``: why the one held ended unrecorded), and tell
        every listener (a seat worker's copy is told so)."""
        self.awaiting, self.held_dropped = held, dropped
        for listener in list(self._awaiting_listeners):
            listener()

    def _hold(self, held: Awaited, result: DiceNeeded | AnswerNeeded, *, first: bool = False) -> Result:
        """At a served table with table dice, ``held`` waits for the seat whose roll it is next
        (issue #61): the roll's side, the referee when that side has no seat here, else the
        submitter; a question is the submitter's.  A command's first rolls of its own seat are
        asked there as at one screen (``result`` goes back); once held, every step is told."""
        asked = held.role
        if isinstance(result, DiceNeeded) and result.request.side not in ("", held.role):
            seated = self.seated() if self.seated is not None else set()
            if result.request.side in seated:
                asked = result.request.side
            elif REFEREE in seated:
                asked = REFEREE
        if first and asked == held.role:
            return result
        request = result.request if isinstance(result, DiceNeeded) else None
        question = result.question if isinstance(result, AnswerNeeded) else None
        self.set_awaiting(msgspec.structs.replace(held, asked=asked, request=request, question=question))
        assert self.awaiting is not None
        return Held(self.awaiting)

    def answer_held(
        self, *, role: str, by: str = "", faces: list[int] | None = None, answer: str | None = None
    ) -> Result:
        """Go on with the held command with the faces (or the answer) its asked seat gave, or
        the referee, who may answer any; neither: withdraw it (its submitter, or the referee)."""
        by = by or role
        held = self.awaiting
        if held is None:
            return Refusal("", role, by, _("no command is waiting for dice"))
        if faces is None and answer is None:
            if role not in (held.role, REFEREE):
                return Refusal(held.text, role, by, _("only its player or the referee may withdraw it"))
            withdrawn = Refusal(
                held.text,
                role,
                by,
                _("cancelled: {command} (nothing was recorded)").format(command=self.localize(held.text)),
            )
            self.set_awaiting(None, withdrawn)
            return withdrawn
        if role not in (held.asked, REFEREE):
            return Refusal(held.text, role, by, self.awaited_said(role))
        went_on = msgspec.structs.replace(
            held,
            faces=[*held.faces, *(faces or ())],
            answers=[*held.answers, *([answer] if answer is not None else [])],
        )

        def act() -> Outcome:
            return self.execute(held.text, role=held.role, by=held.by, faces=went_on.faces, answers=went_on.answers)

        self.awaiting = None  # (it goes on: told once it is held again, or ends)
        result = settle(act, held.text, held.role, held.by)
        if isinstance(result, DiceNeeded | AnswerNeeded):
            return self._hold(went_on, result)
        self.set_awaiting(None, result if isinstance(result, Refusal | Failure) else None)
        return result

    def seats_changed(self) -> None:
        """A seat left the table: a held command whose submitter left is withdrawn (nothing was
        recorded); a roll whose asked seat left is asked of the referee, else of its submitter."""
        held = self.awaiting
        if held is None or self.seated is None:
            return
        seated = self.seated()
        if held.role not in seated:
            self.set_awaiting(None)
        elif held.asked not in seated:
            self.set_awaiting(msgspec.structs.replace(held, asked=REFEREE if REFEREE in seated else held.role))

    def awaited_said(self, role: str) -> str:
        """What ``role``'s seat is told of the held command: whose dice are awaited, and the
        roll itself at the seats that may know it (its submitter's, the asked one's, the referee's)."""
        held = self.awaiting
        if held is None:
            return ""
        sides = self.state.sides

        def name(r: str) -> str:
            return scenario_words(sides[r].name) if r in sides else _("the referee")  # as the roster names it

        if held.request is None:
            said = _("waiting for {side}'s answer").format(side=name(held.role))
            roll = held.question.asked if held.question is not None else ""
            roll = render(roll, self.ruleset.domain) if roll else ""
        else:
            owner = held.request.side or held.role
            if held.asked == REFEREE and owner != REFEREE:
                said = _("waiting for the referee to give {side}'s dice").format(side=name(owner))
            else:
                said = _("waiting for {side}'s dice").format(side=name(owner))
            roll = held.request.text()
        return f"{said}: {roll}" if roll and role in (held.role, held.asked, REFEREE) else said

    def execute(
        self,
        text: str,
        *,
        role: str,
        by: str = "",
        faces: list[int] | None = None,
        contribution: bytes | None = None,
        answers: list[str] | None = None,
        saw: str | None = None,
    ) -> Outcome:
        """Carry out one command line, or raise Refused (nothing is written then).

        ``role``: whose command it is, checked and answered as that role's; it has no
        default, so a caller that forgets it fails rather than acting as the referee.
        ``faces`` are physical dice typed separately from the line: they follow
        the line's own ``dice=``, as the rolls it did not give.  Raises
        :class:`NeedDice` when manual faces run out.  ``contribution``: the
        issuer's client's random bytes that the command's sealed dice mix with the
        key (``CONTRIBUTION_BYTES`` of them); none, and the ones its seat sent
        (``core.dice.sent_contribution``), else this process draws them.  ``saw``: the
        commitment of the key in force when the issuer drew it ("" for none); None for a
        contribution drawn in this process now.  A sealed key opened and replaced since
        then cannot roll it (docs/secrets.md, "Sealed dice"): the command is refused.
        ``answers``: the table's answers to the command's questions (``core.questions``),
        after the line's own ``answers=``; None, and each question takes its default.
        Raises :class:`NeedAnswer` when they run out.
        """
        by = by or role
        text = text.strip()
        if contribution is None and (sent := sent_contribution()) is not None:
            contribution, saw = sent
        return self._told_if_refused(
            text, role, by, lambda: self._execute(text, role, by, faces, contribution, answers, saw)
        )

    def _execute(
        self,
        text: str,
        role: str,
        by: str,
        faces: list[int] | None,
        contribution: bytes | None = None,
        answers: list[str] | None = None,
        saw: str | None = None,
    ) -> Outcome:
        if self.writer is None:
            raise Refused(_("this game is open read-only (replay)"))
        if role == SPECTATOR:
            raise Refused(_("spectators watch; they cannot give commands"))
        with _failing_on_bugs(text, role):
            parsed = self.parse(text, role)
        if parsed.spec.name == "undo":
            return self._undo(role, by)
        if parsed.spec.name == "redo":
            return self._redo(role, by)
        if contribution is not None and len(contribution) != CONTRIBUTION_BYTES:
            said = _("a contribution to the dice is {n} random bytes; this command was not carried out")
            raise Refused(said.format(n=CONTRIBUTION_BYTES))
        with _failing_on_bugs(text, role):
            cmd, group = self._resolve(parsed, role, by, faces, contribution, answers, saw)
            lines = self._described(group)
        return self._append(cmd, group, lines)

    def _resolve(
        self,
        parsed: Parsed,
        role: str,
        by: str,
        faces: list[int] | None,
        contribution: bytes | None = None,
        answers: list[str] | None = None,
        saw: str | None = None,
    ) -> tuple[int, list[ev.Event]]:
        """The command's number and the events it would append (its ``Issued`` first); nothing is written."""
        self._check_allowed(parsed, role)
        # The faces typed at the table's prompt follow the line's own: they are
        # the dice the line's did not give (docs/commands.md, "Dice").
        given = None if parsed.faces is None and faces is None else [*(parsed.faces or ()), *(faces or ())]
        cmd = self.history.next_cmd
        asking = (role, by, parsed.spec.name, repr(sorted(parsed.args.items())))  # however it was spelt
        in_force = self.dice_seal()
        sealing, dice = self._dice(parsed, cmd, given, contribution, saw, asking)
        said = None if parsed.answers is None and answers is None else [*(parsed.answers or ()), *(answers or ())]
        if said is not None and len(said) > MAX_ANSWERS:
            raise Refused(_("at most {n} answers to one command").format(n=MAX_ANSWERS))
        ctx = Context(
            copy_state(self.state),
            dice,
            role,
            self.ruleset,
            labels=self.marker_labels(cmd),
            order=parsed.spec.dice,
            answers=Answers(said),
        )
        ctx.emit(*sealing)
        try:
            self._handle(ctx, parsed, role)
        except NeedAnswer:
            if isinstance(dice, SealedDice) and dice.used:
                self._ask_later(asking, _Asked(self.saved_bytes, sealing, dice.contribution, dice.saw))
            raise
        _check_numbers(ctx.events)
        if isinstance(dice, SealedDice) and dice.used and dice.saw != in_force:
            # Its sender saw another key: one chosen after his bytes were seen could steer them.
            raise Refused(
                _("the dice were sealed with a new key after this share of them was drawn; give the command again")
            )
        if isinstance(dice, SealedDice) and dice.used and (dice.seal, dice.contribution.hex()) in self._uses():
            # Another command's dice from the same inputs would be its faces again, which its issuer saw.
            raise Refused(_("this contribution to the dice was used before; send a fresh one"))
        if isinstance(dice, ManualDice) and dice.unused:
            raise Refused(_("{n} more dice typed than the command rolled").format(n=dice.unused))
        if ctx.answers.unused:
            raise Refused(_("{n} more answers given than the command asked for").format(n=ctx.answers.unused))
        if not ctx.events:
            raise Refused(_("{command}: nothing to do").format(command=self._command_word(parsed)))
        ends = any(type(e) is ev.GameEnded for e in ctx.events)
        facts = commitments.seal(ctx.events, self.state, self.history.timeline() if ends else None, self.salt)
        if any(type(e) is ev.ScenarioRead for e in ctx.events):
            # The line names a file of the referee's disk (ruling CORE-TEXT): the others
            # read the scenario's title in the set-up it made.
            vis = REFEREE_ONLY
        elif parsed.spec.public_text:
            vis = ()
        else:
            vis = self._text_audience(parsed, ctx.events, role)
        acting = role if role != by else ""  # (a seat's name says who typed it; the role, whose it was)
        issued = ev.Issued(cmd=cmd, n=len(facts), by=by, text=parsed.text, at=self.clock(), vis=vis, role=acting)
        return cmd, [issued, *facts]

    def _dice(
        self,
        parsed: Parsed,
        cmd: int,
        given: list[int] | None,
        contribution: bytes | None,
        saw: str | None,
        asking: tuple[str, str, str, str],
    ) -> tuple[list[ev.Event], Dice]:
        """The facts that seal the dice first in this command (or none), and the dice it rolls:
        the faces typed, else the sealed key's, else the seed's.

        A command given again after it asked a question past a sealed roll (the answer, as
        every client gives it: the line again, with its answers) goes on with the dice it
        drew, whatever contribution comes with it now: fresh dice would undo a roll the
        question told, and let its issuer roll again by not answering (issue #60)."""
        kept = self._asked.get(asking) if given is None else None
        if kept is not None and kept.at != self.saved_bytes:
            kept = None
        sealing = kept.sealing if kept is not None else self._sealing(parsed)
        key = sealing[-2] if sealing else self._key_fact()
        if given is not None:
            return sealing, ManualDice(given)
        if key is None:
            return sealing, SeededDice(self.header.seed, cmd)
        assert isinstance(key, ev.VarSet) and isinstance(key.value, str)
        if kept is not None:
            drawn, saw = kept.contribution, kept.saw
        else:
            drawn = contribution or self.contribute()
            # A contribution drawn here is drawn now, under the key in force.
            saw = self.dice_seal() if contribution is None or saw is None else saw
        return sealing, SealedDice(bytes.fromhex(key.value), drawn, commitments.fact_digest(key), cmd=cmd, saw=saw)

    def _ask_later(self, asking: tuple[str, str, str, str], asked: _Asked) -> None:
        """Keep what a command that asked after a sealed roll drew its dice with, for its answer."""
        self._asked = {k: v for k, v in self._asked.items() if v.at == self.saved_bytes and k != asking}
        while len(self._asked) >= MAX_ASKED:
            del self._asked[next(iter(self._asked))]
        self._asked[asking] = asked

    def _handle(self, ctx: Context, parsed: Parsed, role: str) -> None:
        """Run the command's handler; what it still wants of the table (its dice, an answer)
        is said as ``role`` may hear it: whose (a name it may see; the unit's id goes no
        further) and the command's order of dice."""
        try:
            parsed.spec.handler(ctx, parsed.args)
        except NeedAnswer as need:
            # As for dice: whose question it is, in a name this role may see.
            whose = roller(ctx.state, need.unit, need.side, role) if need.unit or need.side else ""
            raise NeedAnswer(msgspec.structs.replace(need.question, whose=whose)) from None
        except NeedDice as need:
            # Said as this role may hear it: whose roll (a name it may see), and the
            # command's order of dice.  The unit's id goes no further.
            whose = roller(ctx.state, need.unit, need.side, role)
            side = roll_owner(ctx.state, need.unit, need.side, role)
            outcome, by = _answered(ctx.state, ctx.events, need, side or role)
            asked = msgspec.structs.replace(
                need.request,
                whose=whose,
                side=side,
                answers=outcome,
                answered_by=by,
                order=parsed.spec.dice,
                domain=self.ruleset.domain,
                again=_times_rolled(ctx.events, need),
            )
            raise NeedDice(asked) from None

    def _sealing(self, parsed: Parsed) -> list[ev.Event]:
        """The facts that seal the dice with a new key, first in this command, or none.

        A new game seals its dice with its first command (unless it was given a seed), a
        what-if with its first command past its parent's (:meth:`_rolls_parents_key`), and
        ``dice-key`` seals them again, opening the key so far to everyone: the part already
        played can then be verified.  The key's commitment is public whoever may see the rest:
        every player checks his rolls against it.
        """
        if parsed.spec.name == SEAL_DICE:
            old = self._key_fact()
        elif DICE_KEY not in self.state.vars and not self.seeded and not self.history.eff_cmds:
            old = None
        elif self._rolls_parents_key():
            old = None  # the parent's key is the parent's secret: this game does not open it
        else:
            return []
        return sealing_facts(old, self.dice_key(), self.salt())

    def _rolls_parents_key(self) -> bool:
        """Whether the key in force is one a what-if copied from its parent (docs/secrets.md,
        "What-if games"): its own commands must not roll it, since whoever holds the parent
        holds its key, and once the parent ends everyone does.

        The fork copies its parent's commands, facts unchanged, as the first ``parent.step``
        events of its file; a key set among them is the parent's, however the what-if's
        own commands were since undone.  Nothing is written at the fork: the what-if's
        first command of its own seals its key, as a new game's first command does.
        """
        key = self.state.vars.get(DICE_KEY)
        if key is None or self.header.parent is None:
            return False
        if self._parents_keys is None:
            copied = self.history.store.slice(0, min(self.header.parent.step, len(self.history.store)))
            self._parents_keys = {e.value for e in copied if type(e) is ev.VarSet and e.key == DICE_KEY}
        return key in self._parents_keys

    def dice_seal(self) -> str:
        """The commitment of the sealed key in force ("" when the dice are not sealed): what a
        seat's device names with the contribution it draws (docs/secrets.md, "Sealed dice")."""
        key = self._key_fact()
        return commitments.fact_digest(key) if key is not None else ""

    def _key_fact(self) -> ev.VarSet | None:
        """The fact that set the sealed key in force (None when the dice are not sealed)."""
        value = self.state.vars.get(DICE_KEY)
        if value is None:
            return None
        if self._key is not None and self._key.value == value:
            return self._key  # a key is 32 random bytes: one value, one fact
        for e in reversed(self.history.timeline()):
            if type(e) is ev.VarSet and e.key == DICE_KEY and e.value == value:
                self._key = e
                return e
        raise AssertionError("a sealed key in the state with no fact that set it")

    def _uses(self) -> set[tuple[str, str]]:
        """Every (seal, contribution) of the sealed rolls in the file, undone ones too."""
        if self._used is None:
            store = self.history.store
            self._used = {(e.seal, e.contribution) for e in store.slice(0, len(store)) if isinstance(e, ev.SealedRoll)}
        return self._used

    def _text_audience(self, parsed: Parsed, events: list[ev.Event], role: str) -> tuple[str, ...]:
        """Who may see a command's text: those who may see its most private fact (ruling CORE-TEXT).

        A marker's label says nothing of its unit (rulings CORE-MARKER), so the
        facts seen only by those who may see a unit named by its label do not
        narrow it; nor does a marker's referee-only label.  A side always sees
        the command it gave."""
        private = [set(unit_audience(self.state.units[u])) | {REFEREE} for u in parsed.by_marker]
        audiences = [
            e.vis
            for e in events
            if not isinstance(e, ev.MarkerPlaced)
            and not any(e.vis and set(e.vis) <= p for p in private)
            and not (type(e) is ev.VarSet and e.key == DICE_KEY)  # the game's, not the command's
        ]
        vis = narrowest(audiences)
        if vis and role in self.state.sides and role not in vis:
            vis = tuple(sorted({*vis, role} - {REFEREE}))
        return vis

    def odds(self, text: str, *, role: str, why: bool = False) -> Odds | None:
        """What the command would roll first, and the exact odds, without doing anything.

        None if the command rolls nothing (or is not valid now: with ``why``, its
        :class:`Refused` is raised, the words :meth:`execute` would refuse it in);
        :class:`CommandFailed` if it fails on a bug (logged, as for :meth:`execute`).
        """
        try:
            with _failing_on_bugs(text, role):
                parsed = self.parse(text, role)
                if parsed.spec.name in ("undo", "redo"):
                    return None
                self._check_allowed(parsed, role)
                ctx = Context(copy_state(self.state), ManualDice(), role, self.ruleset, dry_run=True)
                parsed.spec.handler(ctx, parsed.args)
        except RollAhead as ahead:
            if ahead.check is not None:
                chances = check_distribution(ahead.check, ahead.count, ahead.sides) or ()
                summary = check_summary(ahead.check, ahead.count, ahead.sides)
            else:  # a ruleset's roll that gives no check: read its target as before checks
                if ahead.total:
                    chances = sum_distribution(ahead.count, ahead.sides)
                elif ahead.target is not None:
                    chances = tuple(successes_distribution(ahead.count, ahead.target, ahead.sides, ahead.under))
                else:
                    chances = ()
                summary = odds_summary(ahead.count, ahead.target, ahead.sides, ahead.total, ahead.under)
            domain = self.ruleset.domain  # the ruleset's messages, in the asker's words
            mods = tuple(msgspec.structs.replace(m, label=render(m.label, domain)) for m in ahead.mods)
            purpose = render(ahead.purpose, domain)
            return Odds(
                purpose, ahead.count, ahead.sides, ahead.target, mods, ahead.total, chances, summary, ahead.check
            )
        except Refused:
            if why:
                raise
            return None
        except NeedDice:
            return None
        return None

    def _check_allowed(self, parsed: Parsed, role: str) -> None:
        spec = parsed.spec
        if role != REFEREE:
            if spec.who == REFEREE:
                raise Refused(_("only the referee may {command}").format(command=self._command_word(parsed)))
            if role not in self.state.sides:
                raise Refused(_("{role} is not a side of this game").format(role=repr(role)))
        if spec.phases and self.state.phase not in spec.phases:
            book = Domain(self.ruleset.domain)
            expects = self.ruleset.expects(self.state)
            with naming(sides_of(self.state)):  # a phase's own words are in its catalogue, its sides by name
                expects = render(expects, self.ruleset.domain)
            phase = book.pgettext("phase", self.state.phase)
            if expects:
                said = _("{command} is not allowed in the {phase} phase; now: {expects}")
            else:
                said = _("{command} is not allowed in the {phase} phase")
            raise Refused(said.format(command=self._command_word(parsed), phase=phase, expects=expects))
        self.ruleset.check_turn(self.state, parsed, role)

    def _command_word(self, parsed: Parsed) -> str:
        """A command's name in the reader's language (the ruleset's catalogue, context ``command``),
        as it was called: the alias typed (``end-game``), not the ruleset's own name (``victory``)."""
        return Domain(self.ruleset.domain).pgettext("command", parsed.verb or parsed.spec.name)

    def _append(self, cmd: int, group: list[ev.Event], lines: list[str]) -> Outcome:
        """Write, sync, then take into the history: the file is ahead of memory, never behind."""
        assert self.writer is not None
        try:
            payloads = self.writer.append(group)
        except OSError as e:
            if self.writer.broken:
                # The write could not be taken back: the command may be whole on disk, and kept
                # by the next open; never said unrecorded (it would be given twice).
                raise Refused(self.writer.broken) from None
            raise Refused(
                _(
                    "could not write the save {path}: {error}; nothing was recorded "
                    "(free some space or make the folder writable, then give the command again)"
                ).format(path=self.path, error=e.strerror)
            ) from None
        except SaveError as e:
            raise Refused(_("{error}; nothing was recorded").format(error=e)) from None
        if self._used is not None:
            self._used.update((e.seal, e.contribution) for e in group if isinstance(e, ev.SealedRoll))
        base = len(self.history.store)
        self.history.store.append(group, payloads)
        self.history.feed(group, base)
        self.timeline.catch_up()
        self.saved_bytes = self.writer.size
        self.saved_check = self.writer.check
        outcome = Outcome(cmd, group, lines)
        self._tell(outcome)
        return outcome

    def _tell(self, outcome: Outcome) -> None:
        """Tell each listener what its role may see of ``outcome``, and one that may see nothing, nothing."""
        seen: dict[str, Outcome | None] = {}
        for role, listener in list(self._listeners):
            if role not in seen:
                seen[role] = self._seen(outcome, role)
            told = seen[role]
            if told is not None:
                listener(told)

    def _seen(self, outcome: Outcome, role: str) -> Outcome | None:
        """``outcome`` as ``role`` may know it: the events it may see, in its words; None if it
        may see none and its view is as it was (a fact it may not see can take a piece out of
        its sight: the referee's ``mark farah hidden``)."""
        if role == REFEREE:
            return outcome
        events = [e for e in outcome.events if event_visible(e, role)]
        view, told = self.view(role), self._told.get(role)
        self._told[role] = view
        if not events and view == told:
            return None
        return Outcome(outcome.cmd, events, [self.describe(e, role) for e in events])

    def follow(self, upto: int | None = None) -> list[Outcome]:
        """Take in what the save's writer (another process) appended, up to byte ``upto``.

        A game opened read-only can so follow a live table: the writer says how
        far its file is synced, and this copy reads the new records, folds them
        and tells its listeners, a command at a time.  Sizes it already holds
        are ignored, so the same news may arrive twice.  With no ``upto``, the
        whole commands the file holds now are taken (a client watching another
        process's game).  Raises SaveError if the new bytes are damaged.
        """
        if self.copy_role or (upto is not None and upto <= self.saved_bytes):
            return []  # a side's copy is written once: it never grows
        store = self.history.store
        base = len(store)
        events, payloads, check, end = read_commands(
            self.path, self.saved_bytes, upto, base, self.saved_check, self.header.fireteam
        )
        if not events:
            return []
        # The writer only names sizes between whole commands: anything else is
        # damage, and this copy cannot be trusted after it (open the save again).
        store.append(events, payloads)
        self._used = None  # gathered again when next needed, with the rolls just read
        try:
            self.history.feed(events, base)
        except HistoryError as e:
            raise SaveError(f"{self.path}: {e}") from None
        if self.history.pending() is not None:
            raise SaveError(
                _("{path}: bytes {start}-{end} end inside a command").format(
                    path=self.path, start=self.saved_bytes, end=end
                )
            )
        self.timeline.catch_up()
        self.saved_bytes = end
        self.saved_check = check
        outcomes = []
        i = 0
        while i < len(events):
            first = events[i]
            size = 1 + first.n if isinstance(first, ev.Issued) else 1
            group = events[i : i + size]
            cmd = first.cmd if isinstance(first, ev.Issued | ev.Undone | ev.Redone) else 0
            outcomes.append(Outcome(cmd, group, [self.describe(e, REFEREE) for e in group]))
            i += size
        for outcome in outcomes:
            self._tell(outcome)
        return outcomes

    # ------------------------------------------------------------------ undo/redo

    def numbering(self, role: str) -> Numbering:
        """The numbers ``role`` is shown commands by (a side counts only what it may see)."""
        numbering = self._numberings.get(role)
        if numbering is None:
            numbering = self._numberings[role] = Numbering(self.history, role)
        return numbering

    def shown_cmd(self, cmd: int, role: str) -> int | None:
        return self.numbering(role).shown(cmd)

    def undo_target(self, role: str) -> int | None:
        """The command ``role``'s undo would take back: the last in effect that it may see.

        For a side, the commands after it in effect are then all hidden from it;
        its undo carries them past (see ``_undo``), so what a side may undo never
        depends on what it cannot see.
        """
        numbering = self.numbering(role)
        for cmd in reversed(self.history.eff_cmds):
            if numbering.visible(cmd):
                return cmd
        return None

    def redo_target(self, role: str) -> int | None:
        cmd = self.history.next_redo()
        return cmd if cmd is not None and self.numbering(role).visible(cmd) else None

    def _preview(self, cmd: int | None, role: str) -> str | None:
        return None if cmd is None else f"#{self.shown_cmd(cmd, role)} {self.localize(self.history.issued(cmd).text)}"

    def undo_preview(self, role: str) -> str | None:
        """What ``role``'s undo would take back, in words (None if nothing)."""
        return self._preview(self.undo_target(role), role)

    def redo_preview(self, role: str) -> str | None:
        return self._preview(self.redo_target(role), role)

    def undo(self, *, role: str, by: str = "") -> Outcome:
        by = by or role
        return self._told_if_refused("undo", role, by, lambda: self._undo(role, by))

    def _undo(self, role: str, by: str) -> Outcome:
        if self.writer is None:
            raise Refused(_("this game is open read-only (replay)"))
        with _failing_on_bugs("undo", role):
            cmd, group, lines = self._undoing(role, by)
        return self._append(cmd, group, lines)

    def undo_refusal(self, role: str, by: str = "") -> str | None:
        """Why ``role``'s undo (as ``by``) would be refused, in words, or None if it would not.

        The one check an undo makes, asked by a seat before it puts its confirmation, so a
        player is not asked "y or n" for an undo then refused.
        """
        by = by or role
        cmd = self.undo_target(role)
        if cmd is None:
            return _("nothing to undo")
        if role == REFEREE:
            return None
        if self.history.issued(cmd).by != by:
            # Name neither the command nor its author: it may be one this seat never saw.
            return _("the last command is not yours; ask the referee to undo it")
        group = self.history.group(cmd)
        if any(isinstance(e, _IRREVERSIBLE_FOR_PLAYERS) for e in group):
            return _("dice were rolled or something was revealed; only the referee can undo that")
        if any(type(e) is ev.SecretSet and e.key.startswith(SEALED_ORDERS) for e in group):
            # Every side saw it committed: one undone at will could be sealed again until it suited.
            return _("a sealed order is committed to every side; only the referee can undo it")
        return None

    def _undoing(self, role: str, by: str) -> tuple[int, list[ev.Event], list[str]]:
        """What ``role``'s undo appends: the command taken back, the events and their lines."""
        why = self.undo_refusal(role, by)
        if why is not None:
            raise Refused(why)
        cmd = self.undo_target(role)
        assert cmd is not None  # (undo_refusal said "nothing to undo" otherwise)
        issued = self.history.issued(cmd)
        eff = self.history.eff_cmds  # in the order they took effect (a redo may follow a later command)
        at = len(eff) - 1
        while eff[at] != cmd:
            at -= 1
        after = list(eff[at + 1 :])
        # Those who saw the command see it taken back, and no one else.
        undone = ev.Undone(cmd=cmd, by=by, at=self.clock(), vis=issued.vis)
        if not after:
            return cmd, [undone], [_("undone: #{cmd} {text}").format(cmd=cmd, text=self.localize(issued.text))]
        group = self._carry_past(cmd, after, by, undone)
        return cmd, group, [self.describe(e, REFEREE) for e in group]

    def _carry_past(self, cmd: int, after: list[int], by: str, undone: ev.Undone) -> list[ev.Event]:
        """A side's undo of ``cmd`` with commands hidden from it after it: the events that do it.

        History is a stack, so those commands are taken back first, then ``cmd``,
        and then entered again unchanged (the same facts, the same dice: nothing
        is rolled again), each as a new command that ``carries`` the old one.
        The side sees only its own command taken back, as if the others were not
        there; the referee sees all of it.  Raises Refused if the hidden facts
        no longer apply without ``cmd`` (they would have to be about something
        it made, which a side's command never does to what it cannot see).
        """
        history = self.history
        state = copy_state(self.timeline.state_at(history.length - sum(self._size(c) for c in [cmd, *after])))
        groups = [history.group(c) for c in after]
        try:
            for group in groups:
                apply_in_place(state, group[1:])
        except KeyError:  # the fold's word for a fact about a piece, side or secret the state lacks
            raise Refused(_("the last command is not yours; ask the referee to undo it")) from None
        events: list[ev.Event] = [
            ev.Undone(cmd=c, by=by, at=undone.at, vis=history.issued(c).vis) for c in reversed(after)
        ]
        events.append(undone)
        next_cmd = history.next_cmd
        for k, (c, group) in enumerate(zip(after, groups, strict=True)):
            head = group[0]
            assert isinstance(head, ev.Issued)
            events.append(msgspec.structs.replace(head, cmd=next_cmd + k, carries=c))
            events.extend(group[1:])
        return events

    def _size(self, cmd: int) -> int:
        return self.history.group_end[cmd] - self.history.group_start[cmd]

    def redo(self, *, role: str, by: str = "") -> Outcome:
        by = by or role
        return self._told_if_refused("redo", role, by, lambda: self._redo(role, by))

    def _redo(self, role: str, by: str) -> Outcome:
        if self.writer is None:
            raise Refused(_("this game is open read-only (replay)"))
        with _failing_on_bugs("redo", role):
            cmd, marker, line = self._redoing(role, by)
        return self._append(cmd, [marker], [line])

    def _redoing(self, role: str, by: str) -> tuple[int, ev.Redone, str]:
        """What ``role``'s redo appends: the command brought back, its marker and its line."""
        cmd = self.redo_target(role)
        if cmd is None:
            raise Refused(_("nothing to redo"))
        issued = self.history.issued(cmd)
        if role != REFEREE:
            if issued.by != by:
                raise Refused(_("the last undone command is not yours; ask the referee to redo it"))
            undone = self.history.store[self.history.undone_at[cmd]]
            if not isinstance(undone, ev.Undone) or undone.by != by:
                # What the referee took back stays taken back until he brings it back.
                raise Refused(_("the referee took that command back; only the referee can redo it"))
            if any(isinstance(e, _IRREVERSIBLE_FOR_PLAYERS) for e in self.history.group(cmd)):
                # Otherwise a player could bring back a roll the referee took away.
                raise Refused(_("that command rolled dice or revealed something; only the referee can redo it"))
        marker = ev.Redone(cmd=cmd, by=by, at=self.clock(), vis=issued.vis)
        return cmd, marker, _("redone: #{cmd} {text}").format(cmd=cmd, text=self.localize(issued.text))

    # -------------------------------------------------------------------- reading

    def view(self, role: str, step: int | None = None) -> GameState:
        """The state as ``role`` may know it, live or at replay ``step``.  Do not modify it.

        The live view of a role is made once per change and shared: a server's
        seats of one side (each seat of a worker process, or of the server's own)
        all read this game, and each used to copy the state for its side after
        every command, two or three times over.  The referee's view is the state.
        """
        if step is not None:
            return view_state(self.timeline.state_at(step), role)
        state = self.state
        if role == REFEREE:
            return state
        # Every change of the live state grows the log (a command, an undo, a redo, what a copy follows).
        made_of = (len(self.history.store), id(state))
        shared = self._views.get(role)
        if shared is not None and shared[0] == made_of:
            return shared[1]
        view = view_state(state, role)
        self._views[role] = (made_of, view)
        return view

    def _described(self, group: list[ev.Event]) -> list[str]:
        """The lines of a command about to be written.  A side the command itself sets
        up (``scenario demo``'s purchases) is named as it will be, not by its id."""
        setups = [e for e in group if isinstance(e, ev.GameSetUp)]
        sides = {s.id: scenario_words(s.name) for e in setups for s in e.sides} or None
        return [self.describe(e, REFEREE, sides=sides) for e in group]

    def describe(self, e: ev.Event, role: str, *, sides: Mapping[str, str] | None = None) -> str:
        """``e`` in words for ``role``; ``sides``: names of sides the state does not hold yet."""
        var: Callable[[str, int | str], str | None]
        number: Callable[[int], int | None] | None
        if role == REFEREE:
            var, number = partial(self.ruleset.describe_named, self.state), None
        else:
            var, number = self._said_var, self.numbering(role).shown
        sides = {**{s.id: scenario_words(s.name) for s in self.state.sides.values()}, **(sides or {})}
        units = self.state.units

        def status(badge: str) -> str:
            return self.ruleset.status_words(badge, lambda uid: units[uid].name if uid in units else uid)

        return describe(
            e,
            units,
            var,
            number,
            self.ruleset.domain,
            self.localize,
            sides,
            partial(self.ruleset.piece_class, self.state),
            status,
            self.ruleset.note_for_the_referee if role == REFEREE else self.ruleset.note_for_a_side,
            lambda cmd: self.history.issued(cmd).text,
        )

    def _said_var(self, key: str, value: int | str) -> str:
        """A variable of the rules as a side or a spectator reads it: in the ruleset's words,
        else a plain sentence; its ``key = value`` is the code's, for the referee alone."""
        if key.startswith(self.ruleset.referee_vars):
            return _("the scenario defines a kind of piece (the referee's log names it)")
        said = self.ruleset.describe_named(self.state, key, value)
        return said or _("the rules keep a value of the scenario (the referee's log names it)")

    def log_lines(self, role: str, start: int = 0, end: int | None = None) -> list[LogLine]:
        """Events ``start``..``end`` of the file that ``role`` may see, in file order.

        Undone events are included and flagged: the log shows everything that
        happened at the table, including what was taken back.
        """
        store = self.history.store
        end = len(store) if end is None else min(end, len(store))
        numbering = self.numbering(role)
        out: list[LogLine] = []
        for i, e in enumerate(store.slice(start, end), start):
            if event_visible(e, role):
                cmd = self.history.command_at(i)
                undone = bool(cmd) and not self.history.is_live(cmd)
                named = e.cmd if isinstance(e, ev.Undone | ev.Redone) else cmd
                number = (numbering.shown(named) or 0) if named else 0
                out.append(LogLine(i, cmd, self.describe(e, role), e, undone, number, self.inner(e)))
            elif self.hidden_header(i, e, role):
                assert isinstance(e, ev.Issued)
                # Its author, text, time and file number are the command's: none of them is shown.
                said = ev.Issued(cmd=0, n=0, by="", text="", vis=e.vis)
                text = "» " + _("(one or more commands hidden from you)")
                out.append(LogLine(i, e.cmd, text, said, not self.history.is_live(e.cmd)))
        return out

    def hidden_header(self, index: int, e: ev.Event, role: str) -> bool:
        """Whether event ``index``, hidden from ``role``, heads lines of its log: the marker of a
        command it may not see of which it sees some facts (the hidden Pak's shot, the Sherman it
        knocks out), coming after a line of a command it sees (issue #61).  The header says
        nothing of the command, so those facts are not read as the facts of the command before
        them; a run of hidden commands has one, as in the side's copy (core.secrets.sidecopy),
        which cannot tell them apart."""
        if type(e) is not ev.Issued or event_visible(e, role):
            return False
        store = self.history.store
        if not any(event_visible(f, role) for f in store.slice(index + 1, index + 1 + e.n)):
            return False
        end = index
        while end > 0:  # the role's line before it, looked for backwards a window at a time
            start = max(0, end - HEADER_LOOKBACK)
            for j, f in reversed(list(enumerate(store.slice(start, end), start))):
                if event_visible(f, role):
                    cmd = self.history.command_at(j)
                    return not cmd or event_visible(self.history.issued(cmd), role)
            end = start
        return True

    def inner(self, e: ev.Event) -> bool:
        """Whether ``e`` sets one of the game's inner variables: a ``VarSet`` its ruleset
        has no words for, which the log could only show as the code's ``key = value``
        (``secret.looked.blue = 1:observe:hassan``, ``support-call.regulars = 1``).  A variable
        a referee must follow has its words (a side's initiative penalty, the deck shuffled,
        the extras bought): being put in words is what keeps it in view, so no list of keys
        is kept.  Inner lines stay out of the log's normal view, between the rule lines a
        referee scans; the line's details, ``fireteam log --all`` and ``--json`` show them."""
        return (
            type(e) is ev.VarSet
            and e.key not in (DICE_KEY, TABLE_DICE)  # the core's own, put in words by core.narrate
            and self.ruleset.describe_named(self.state, e.key, e.value) is None
        )

    def facts_seen(self, cmd: int, role: str) -> int:
        """How many of command ``cmd``'s facts (its events after the command itself) ``role`` may see."""
        return sum(1 for e in self.history.group(cmd)[1:] if event_visible(e, role))

    @property
    def log_length(self) -> int:
        return len(self.history.store)


def sealing_facts(old: ev.VarSet | None, key: str, salt: str) -> list[ev.Event]:
    """The facts that seal the dice with ``key``: the opening of the ``old`` key if any, the
    key (the referee's) and its commitment (everyone's)."""
    out: list[ev.Event] = []
    if old is not None:
        opened = commitments.fact_digest(old)
        out.append(ev.Opened(key=DICE_KEY, value=old.value, salt=old.salt, digest=opened))
    fact = ev.VarSet(key=DICE_KEY, value=key, salt=salt, vis=REFEREE_ONLY)
    return [*out, fact, ev.Committed(digest=commitments.fact_digest(fact), owner=REFEREE)]


def builtin_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """The commands every game has, whatever its ruleset (their names are the core's words)."""
    return [
        CommandSpec("undo", "Take back the last command in effect (it stays in the log).", _never, who="side"),
        CommandSpec("redo", "Bring back the last undone command.", _never, who="side"),
        CommandSpec(
            "next",
            "End the current phase and begin the next one.",
            lambda ctx, args: ctx.ruleset.advance(ctx),
            rolls=bool(ruleset.next_dice),  # a ruleset whose turns come round without dice: no dice= offered
            dice=ruleset.next_dice,
            aliases=("end",),
            known_elsewhere_as=ruleset.next_known_as,
            public_text=True,
        ),
        CommandSpec(
            SEAL_DICE,
            "Open the dice's key so far to everyone, and seal the dice with a new one.",
            lambda ctx, args: None,  # Game.execute puts in its facts (Game._sealing)
            who="referee",
            public_text=True,
        ),
        CommandSpec(
            TABLE_DICE,
            "Whether the players roll real dice and type their faces, at every seat: on or off.",
            _table_dice,
            params=(Param("choice", "choice", "on or off", choices=("on", "off")),),
            who="referee",
            public_text=True,
        ),
        CommandSpec(
            "note",
            "Write a note into the log.",
            lambda ctx, args: ctx.emit(ev.Noted(text=args["text"])),
            params=(Param("text", "text", "what to note", prose=True),),
            examples=('note "smoke drifts north"',),
        ),
        CommandSpec(
            "seal",
            "Write down an order of your side's, sealed: the other sides see only that it was written, "
            "until the referee reveals it or the game ends.",
            _seal_order,
            params=(Param("text", "text", "the order, as you would write it down", prose=True),),
            examples=('seal "the mortars fire on the farm"',),
        ),
    ]


def _seal_order(ctx: Context, args: dict[str, str]) -> None:
    """A side's sealed order: what it writes down and shows only later (Bassa Intensità BI-R102,
    §A.11: the observer writes his target down).  A secret of its side, numbered in its side's
    orders; ``commitments.seal`` commits it to everyone at once, and ``reveal ORDER`` or the
    game's end opens it."""
    side = ctx.role
    mine = f"{SEALED_ORDERS}{side}."
    n = 1 + sum(1 for key in ctx.state.secrets if key.startswith(mine))
    vis = REFEREE_ONLY if side == REFEREE else (side,)
    ctx.emit(ev.SecretSet(key=f"{mine}{n}", owner=side, value=args["text"], vis=vis))


def _inconsistent(path: Path, history: History) -> SaveError:
    """The error naming the first effective event the fold cannot apply (only on this error path)."""
    state = GameState()
    for step, e in enumerate(history.timeline()):
        try:
            apply_in_place(state, (e,))
        except KeyError as missing:
            ((index, _end),) = history.ranges(step, step + 1)
            # +1 for the header line, +1 to count lines from 1.
            return SaveError(
                _(
                    "{path}:{line}: the event refers to {missing}, which this game does not have; "
                    "the file was not changed. {hint}"
                ).format(path=path, line=index + 2, missing=missing, hint=salvage_hint(path))
            )
    return SaveError(
        _("{path}: the events do not make a consistent game; the file was not changed. {hint}").format(
            path=path, hint=salvage_hint(path)
        )
    )


_event_encoder = msgspec.msgpack.Encoder()


def _answered(state: GameState, events: list[ev.Event], need: NeedDice, viewer: str) -> tuple[Text, str]:
    """The roll this one answers, if the command's last roll with an outcome was the other
    side's (a save answers the hit): its outcome and whose it was, as ``viewer`` (the side
    that rolls now) may be told; ("", "") if none, or if ``viewer`` may not see that roll."""
    rolling = state.units.get(need.unit)
    side = rolling.side if rolling is not None else need.side
    last = next((e for e in reversed(events) if isinstance(e, ev.Rolled) and e.roll.outcome), None)
    if last is None or not event_visible(last, viewer):
        return "", ""
    theirs = state.units.get(last.unit)
    their_side = theirs.side if theirs is not None else last.side
    if not their_side or their_side == side:
        return "", ""
    if theirs is not None:
        return last.roll.outcome, theirs.name if unit_visible(theirs, viewer) else ""
    return last.roll.outcome, state.sides[their_side].name if their_side in state.sides else ""


def _times_rolled(events: list[ev.Event], need: NeedDice) -> int:
    """How often ``events`` (a command's so far) already hold the roll ``need`` asks
    for: its purpose, by the same unit, or the same side when no unit rolls."""
    purpose = need.request.purpose
    return sum(
        1
        for e in events
        if isinstance(e, ev.Rolled)
        and e.roll.purpose == purpose
        and e.unit == need.unit
        and (need.unit or e.side == need.side)
    )


def _check_numbers(events: list[ev.Event]) -> None:
    """Refuse facts holding a number the state cannot: the parameters' bounds keep
    every number a command takes small, and this keeps any a rule computes so too."""
    try:
        _event_encoder.encode(events)
    except OverflowError:
        raise Refused(_("a number in this command is out of range; nothing was recorded")) from None


@contextmanager
def _failing_on_bugs(text: str, role: str) -> Iterator[None]:
    """Let refusals, dice requests and a dry run's roll through; anything else raised
    here is a bug: logged with its traceback, and raised as :class:`CommandFailed`."""
    try:
        yield
    except (Refused, NeedDice, NeedAnswer, RollAhead):
        raise
    except Exception as e:
        # The line may name hidden pieces: the log is the host's (the referee's) alone.
        LOG.exception("command failed, nothing recorded: %r as %s", text, role)
        raise CommandFailed(_("the command failed on an error of the program; nothing was recorded")) from e


def _table_dice(ctx: Context, args: dict) -> None:
    """``table-dice on|off``: the referee's choice for his whole table, a fact every seat reads."""
    on = args["choice"] == "on"
    if on == table_dice(ctx.state):
        raise Refused(_("table dice are already on") if on else _("table dice are already off"))
    ctx.emit(ev.VarSet(key=TABLE_DICE, value=args["choice"]))


def _never(ctx: Context, args: dict) -> None:  # handled by Game.execute before dispatch
    raise AssertionError("undo/redo are handled by Game")


def copy_role_error(game: Game, role: str) -> str | None:
    """A side's copy is shown as its own role only (the referee's default stands for it)."""
    if role in (REFEREE, game.copy_role):
        return None
    said = _("{path}: a side's copy holds only what {copy} saw; it cannot be shown as {role}")
    return said.format(path=game.path, copy=game.copy_role, role=repr(role))


def reading_role(game: Game, role: str) -> str:
    """The role a read-only game is shown as: a side's copy as its own."""
    return game.copy_role or role
