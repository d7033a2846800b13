"""The game's engine: a command line carried out, from its parse to its facts written and told.

Every change goes the same way: parse the command against what the issuer can
see, check who may do it and when, let the ruleset's pure handler turn it into
events, append and sync those events, then update the history and the state.
A refused command raises :class:`Refused` and writes nothing.  A command that
fails on a bug (any other exception before it is written) is logged with its
traceback (``core.refusal.LOG``) and raises :class:`CommandFailed`:
it writes nothing either, and never passes for a refusal.

What a game does besides lives beside this module, one concern each, and is
:class:`Game`'s by name (the methods listed in its class body): opening and
closing a save (``opening``), the sealed dice (``sealing``), a command held for
a seat's dice (``awaiting``), a roll asked at its own seat, whose dice the others wait for
(``rolling``), undo and redo (``undoing``), what a role may read
(``reading``), the odds of a command not given (``odds``), and the commands
every ruleset has (``builtins``).  They take the game as ``table.Table``, what
they use of it, and so need not import this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Self

import msgspec

import core
from core.commands import Parsed, complete, localize_line, names, parse, usage
from core.dice.faces import (
    CONTRIBUTION_BYTES,
    Dice,
    ManualDice,
    NeedDice,
    SealedDice,
    Share,
    sent_contribution,
)
from core.dice.shares import Counts, check_share
from core.game import awaiting, opening, reading, rolling, sealing, undoing
from core.game import odds as odds_module
from core.game.bugs import failing_on_bugs
from core.game.builtins import game_commands
from core.game.confirmation import CONFIRM, confirm
from core.game.opening import now_ms
from core.game.sealing import new_contribution, new_dice_key
from core.game.table import Asked, Table
from core.language.i18n import Domain, Text, _, naming, render
from core.language.reader import SOURCE, lang
from core.language.reader import reading as read_in
from core.language.shapes import command_shapes
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.numbering import Numbering
from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Outcome, OwnRoll, Refusal, Result, settle
from core.log.questions import MAX_ANSWERS, Answers, NeedAnswer
from core.log.replay import Timeline
from core.log.state import DICE_KEY, GameState, copy_state, table_dice
from core.log.views import (
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
)
from core.refusal import TYPING
from core.ruleset import CommandSpec, Context, Refused, Ruleset
from core.secrets import commitments
from core.storage.savefile import Header, SaveError
from core.storage.writer import SaveWriter

if TYPE_CHECKING:
    # A save under 1 MB opens without the open cache (tui.opening.CACHE_FROM_BYTES): not imported for it.
    from core.storage.opencache import Mark, OpenCache


class Game:
    def __init__(
        self,
        path: Path,
        header: Header,
        ruleset: Ruleset,
        timeline: Timeline,
        writer: SaveWriter | None,
        *,
        clock: Callable[[], int] = now_ms,
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
        #: Each seat's count of the shares its commands rolled (``core.dice.shares``; built when first needed).
        self._counts: Counts | None = None
        #: The keys a what-if copied from its parent (``_rolls_parents_key``; gathered when first needed).
        self._parents_keys: set[object] | None = None
        #: Each issuer's command (role, by, the command and its arguments) that asked a question
        #: after its sealed dice rolled: given again, with the answer, it rolls the same dice (issue #60).
        self._asked: dict[tuple[str, str, str, str], Asked] = {}
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
        #: Whether this session (this open for writing) has written a command, which named the version.
        self._versioned = False
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
        #: The seats at their own prompt for their command's roll, whose dice the others are told are awaited.
        self.rolling: tuple[OwnRoll, ...] = ()
        self._rolling_listeners: list[Callable[[], None]] = []

    @property
    def writable(self) -> bool:
        """Whether commands may be given (false for a game opened read-only to replay it)."""
        return self.writer is not None

    @property
    def state(self) -> GameState:
        """The current state (the fold of the effective history).  Do not modify it."""
        return self.timeline.state

    # Opening and closing a save, and following another process's (core/game/opening.py).
    @classmethod
    def new(
        cls,
        path: str | os.PathLike[str],
        ruleset_id: str,
        variant: str = "",
        *,
        seed: int | None = None,
        clock: Callable[[], int] = now_ms,
        salt: Callable[[], str] = commitments.new_salt,
    ) -> Self:
        """A new save of a game of ``ruleset_id`` (``opening.new``)."""
        return opening.new(cls, path, ruleset_id, variant, seed=seed, clock=clock, salt=salt)

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        writable: bool = True,
        clock: Callable[[], int] = now_ms,
        progress: Callable[[int, int], None] | None = None,
        cache: OpenCache | None = None,
        cached_only: bool = False,
        cache_later: bool = False,
    ) -> Self:
        """A save opened, to play or read-only to replay (``opening.open``)."""
        return opening.open(
            cls,
            path,
            writable=writable,
            clock=clock,
            progress=progress,
            cache=cache,
            cached_only=cached_only,
            cache_later=cache_later,
        )

    keep_cache = opening.keep_cache
    close = opening.close
    follow = opening.follow

    # The sealed dice: the key in force, a command's share, what a question kept (core/game/sealing.py).
    _dice = sealing._dice
    _ask_later = sealing._ask_later
    _sealing = sealing._sealing
    _rolls_parents_key = sealing._rolls_parents_key
    dice_seal = sealing.dice_seal
    _key_fact = sealing._key_fact
    _uses = sealing._uses
    next_share = sealing.next_share

    # A command held for another seat's dice at a served table (core/game/awaiting.py).
    subscribe_awaiting = awaiting.subscribe_awaiting
    set_awaiting = awaiting.set_awaiting
    _hold = awaiting._hold
    answer_held = awaiting.answer_held
    seats_changed = awaiting.seats_changed
    awaited_said = awaiting.awaited_said

    # A roll asked at its own seat: whose dice the other seats wait for (core/game/rolling.py).
    subscribe_rolling = rolling.subscribe_rolling
    set_rolling = rolling.set_rolling
    unasked = rolling.unasked
    rolling_said = rolling.rolling_said

    # Undo and redo, and the numbers a role knows commands by (core/game/undoing.py).
    numbering = undoing.numbering
    shown_cmd = undoing.shown_cmd
    undo_target = undoing.undo_target
    redo_target = undoing.redo_target
    _preview = undoing._preview
    undo_preview = undoing.undo_preview
    redo_preview = undoing.redo_preview
    undo = undoing.undo
    _undo = undoing._undo
    undo_refusal = undoing.undo_refusal
    _undoing = undoing._undoing
    _carry_past = undoing._carry_past
    _size = undoing._size
    redo = undoing.redo
    _redo = undoing._redo
    _redoing = undoing._redoing

    # What a role may read: its view, the log in its words (core/game/reading.py).
    view = reading.view
    _described = reading._described
    describe = reading.describe
    _said_var = reading._said_var
    log_lines = reading.log_lines
    hidden_header = reading.hidden_header
    inner = reading.inner
    facts_seen = reading.facts_seen
    log_length = property(reading.log_length)
    players = reading.players

    # What a command would roll first, and its exact odds, doing nothing (core/game/odds.py).
    odds = odds_module.odds

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
            refusal = Refusal(text, role, by, str(e), e.rules)
            for listener in list(self._refusal_listeners):
                listener(refusal)
            raise

    @property
    def commands(self) -> list[CommandSpec]:
        # Gathered on first use, not as the game opens: a ruleset's commands import
        # most of its modules, which opening and drawing a game do not need.
        if self._specs is None:
            self._specs = game_commands(self.ruleset)
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
        nonce: int | None = None,
    ) -> Result:
        """What one command line (``undo`` and ``redo`` too) comes to, as a value (``core.log.outcome``):
        what every front end calls, and what a seat worker's copy of the game carries out at the
        table instead (``tui.ssh.workers.replica``).  :meth:`execute` is the same, raising to
        refuse; ``contribution``, ``saw`` and ``nonce`` are the seat's share of the command's sealed dice,
        as there."""
        by = by or role
        if self.awaiting is not None:  # one command at a time, undo too: the table waits for its dice
            # (a seat the held roll is hidden from learns only that the table is busy: it holds one command)
            why = self.awaited_said(role) or _("the table is busy with another command; give yours again in a moment")
            return rolling.asked(self, role, by, Refusal(text.strip(), role, by, why))

        def act() -> Outcome:
            return self.execute(
                text, role=role, by=by, faces=faces, contribution=contribution, answers=answers, saw=saw, nonce=nonce
            )

        result = settle(act, text.strip(), role, by)
        if isinstance(result, DiceNeeded | AnswerNeeded) and self.seated is not None and table_dice(self.state):
            # Held as it is recorded, with the language it was given in: the seat that goes on with it
            # may read another.
            parsed = self.parse(text, role)
            held = Awaited(parsed.text, role, by, list(faces or ()), list(answers or ()), role, lang=parsed.lang)
            result = self._hold(held, result, first=True)
        return rolling.asked(self, role, by, result)  # (the others told whose dice it types, if it does)

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
        nonce: int | None = None,
        givers: list[str] | None = None,
        given_in: str = "",
    ) -> Outcome:
        """Carry out one command line, or raise Refused (nothing is written then).

        ``role``: whose command it is, checked and answered as that role's; it has no
        default, so a caller that forgets it fails rather than acting as the referee.
        ``faces`` are physical dice typed separately from the line: they follow
        the line's own ``dice=``, as the rolls it did not give.  Raises
        :class:`NeedDice` when manual faces run out.  ``contribution``: the
        issuer's client's random bytes that the command's sealed dice mix with the
        key (``CONTRIBUTION_BYTES`` of them); none, and the ones its seat sent
        (``core.dice.faces.sent_contribution``), else this process draws them.  ``saw``: the
        commitment of the key in force when the issuer drew it ("" for none); None for a
        contribution drawn in this process now.  A sealed key opened and replaced since
        then cannot roll it (docs/secrets.md, "Sealed dice"): the command is refused.  ``nonce``:
        the seat's count of its shares it named with them (``core.dice.shares``), which must be its next.
        ``answers``: the table's answers to the command's questions (``core.log.questions``),
        after the line's own ``answers=``; None, and each question takes its default.
        Raises :class:`NeedAnswer` when they run out.  ``givers``: the seat that typed each
        of ``faces``, where another than ``by`` did ("" for his own; issue #74): its rolls say so.
        ``given_in``: the language the line was given in, where it is not the reader's (a held
        command another seat goes on with); it is read and recorded in it.
        """
        by = by or role
        text = text.strip()
        share = Share(contribution, saw, nonce) if contribution is not None else sent_contribution()
        return self._told_if_refused(
            text, role, by, lambda: self._execute(text, role, by, faces, share, answers, givers, given_in)
        )

    def _execute(
        self,
        text: str,
        role: str,
        by: str,
        faces: list[int] | None,
        share: Share | None = None,
        answers: list[str] | None = None,
        givers: list[str] | None = None,
        given_in: str = "",
    ) -> Outcome:
        if self.writer is None:
            raise Refused(_("this game is open read-only (replay)"), rule="ENG-4")
        if role == SPECTATOR:
            raise Refused(_("spectators watch; they cannot give commands"), rule="ENG-1")
        with failing_on_bugs(text, role), read_in(given_in) if given_in else nullcontext():
            parsed = self.parse(text, role)
        if parsed.spec.name == "undo":
            return self._undo(role, by)
        if parsed.spec.name == "redo":
            return self._redo(role, by)
        if share is not None and len(share.contribution) != CONTRIBUTION_BYTES:
            said = _("a contribution to the dice is {n} random bytes; this command was not carried out")
            raise Refused(said.format(n=CONTRIBUTION_BYTES), rule="ENG-5")
        with failing_on_bugs(text, role):
            cmd, group = self._resolve(parsed, role, by, faces, share, answers, givers)
            lines = self._described(group)
        return self._append(cmd, group, lines)

    def _resolve(
        self,
        parsed: Parsed,
        role: str,
        by: str,
        faces: list[int] | None,
        share: Share | None = None,
        answers: list[str] | None = None,
        givers: list[str] | None = None,
        supposed: Dice | None = None,
    ) -> tuple[int, list[ev.Event]]:
        """The command's number and the events it would append (its ``Issued`` first); nothing is written.
        ``supposed``: the dice it rolls, instead of the game's (a command asked ahead, :meth:`resolved`)."""
        self._check_allowed(parsed, role)
        # The faces typed at the table's prompt follow the line's own: they are
        # the dice the line's did not give (docs/commands.md, "Dice").
        given = None if parsed.faces is None and faces is None else [*(parsed.faces or ()), *(faces or ())]
        cmd = self.history.next_cmd
        asking = (role, by, parsed.spec.name, repr(sorted(parsed.args.items())))  # however it was spelt
        in_force = self.dice_seal()
        sealing, dice = ([], supposed) if supposed is not None else self._dice(parsed, cmd, given, share, asking)
        if isinstance(dice, ManualDice) and givers:  # (the line's own dice= are its issuer's)
            dice.typed_by([*[""] * len(parsed.faces or ()), *givers])
        said = None if parsed.answers is None and answers is None else [*(parsed.answers or ()), *(answers or ())]
        if said is not None and len(said) > MAX_ANSWERS:
            raise Refused(_("at most {n} answers to one command").format(n=MAX_ANSWERS), rule=TYPING)
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
        drew = dice.drawer if isinstance(dice, ManualDice) and dice.drawer is not None else dice
        try:
            self._handle(ctx, parsed, role, by)
            self._end_at_break(ctx)
        except NeedAnswer:
            if isinstance(drew, SealedDice) and drew.used and drew is dice:
                self._ask_later(asking, Asked(self.saved_bytes, sealing, drew.contribution, drew.saw))
            raise
        _check_numbers(ctx.events)
        if isinstance(drew, SealedDice) and drew.used and drew.sent is not None:
            # A share that names no key or no count, or not the seat's next count: the host could choose.
            check_share(drew.sent, drew.nonce)
        if isinstance(drew, SealedDice) and drew.used and drew.saw != in_force:
            # Its sender saw another key: one chosen after his bytes were seen could steer them.
            raise Refused(
                _("the dice were sealed with a new key after this share of them was drawn; give the command again"),
                rule="ENG-5",
            )
        if isinstance(drew, SealedDice) and drew.used and (drew.seal, drew.contribution.hex()) in self._uses():
            # Another command's dice from the same inputs would be its faces again, which its issuer saw.
            raise Refused(_("this contribution to the dice was used before; send a fresh one"), rule="ENG-5")
        if isinstance(dice, ManualDice) and dice.unused:
            raise Refused(_("{n} more dice typed than the command rolled").format(n=dice.unused), rule="ENG-5")
        if ctx.answers.unused:
            raise Refused(
                _("{n} more answers given than the command asked for").format(n=ctx.answers.unused), rule=TYPING
            )
        if not ctx.events:
            raise Refused(_("{command}: nothing to do").format(command=self._command_word(parsed)), rule="ENG-8")
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
        issued = ev.Issued(
            cmd=cmd, n=len(facts), by=by, text=parsed.text, at=self.clock(), vis=vis, role=acting, lang=parsed.lang
        )
        return cmd, [issued, *facts]

    def _end_at_break(self, ctx: Context) -> None:
        """A side at the scenario's break point loses, whatever command brought it there (ruling
        CORE-BREAK-AT): the ruleset ends the game its own way."""
        # Here, not at import: a client's start (its log drawn) reads no scenario module.
        from core.scenarios.breaking import broken_sides

        if broke := broken_sides(ctx.state, self.ruleset.pieces_lost):
            self.ruleset.end_broken(ctx, *broke)

    def resolved(self, text: str, role: str, dice: Dice) -> list[ev.Event]:
        """The facts ``text`` given by ``role`` would record rolling ``dice`` (a command asked
        ahead, ``core.explain.ahead``): as :meth:`execute` resolves it, nothing written; refused,
        or wanting dice or an answer, as giving it would be."""
        parsed = self.parse(text, role)
        return self._resolve(parsed, role, role, None, supposed=dice)[1][1:]

    def _handle(self, ctx: Context, parsed: Parsed, role: str, by: str) -> None:
        """Run the command's handler; what it still wants of the table (its dice, an answer)
        is said as ``role`` may hear it: whose (a name it may see; the unit's id goes no
        further) and the command's order of dice."""
        try:
            if parsed.spec.name == CONFIRM:
                confirm(self, ctx, parsed.args, by)
            else:
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
            outcome, by, purpose = _answered(ctx.state, ctx.events, need, side or role)
            asked = msgspec.structs.replace(
                need.request,
                whose=whose,
                side=side,
                answers=outcome,
                answered_by=by,
                answered_for=purpose,
                order=parsed.spec.dice,
                domain=self.ruleset.domain,
                again=_times_rolled(ctx.events, need),
            )
            raise NeedDice(asked, vis=need.vis) from None

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

    def _check_allowed(self, parsed: Parsed, role: str) -> None:
        spec = parsed.spec
        if role != REFEREE:
            if spec.who == REFEREE:
                raise Refused(
                    _("only the referee may {command}").format(command=self._command_word(parsed)), rule="ENG-1"
                )
            if role not in self.state.sides:
                raise Refused(_("{role} is not a side of this game").format(role=repr(role)), rule="ENG-1")
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
            raise Refused(said.format(command=self._command_word(parsed), phase=phase, expects=expects), rule="ENG-2")
        if spec.name != CONFIRM:  # (a player's word on the result, at any time after it: ENG-9, not a turn's)
            self.ruleset.check_turn(self.state, parsed, role)

    def _command_word(self, parsed: Parsed) -> str:
        """A command's name in the reader's language (the ruleset's catalogue, context ``command``),
        as it was called: the alias typed (``end-game``), not the ruleset's own name (``victory``)."""
        return Domain(self.ruleset.domain).pgettext("command", parsed.verb or parsed.spec.name)

    def _append(self, cmd: int, group: list[ev.Event], lines: list[str]) -> Outcome:
        """Write, sync, then take into the history: the file is ahead of memory, never behind."""
        assert self.writer is not None
        if not self._versioned and type(group[0]) is ev.Issued:
            # The session's first command says which Fireteam wrote it (and the rest of the session).
            group = [msgspec.structs.replace(group[0], version=core.__version__), *group[1:]]
        try:
            payloads = self.writer.append(group)
        except OSError as e:
            if self.writer.broken:
                # The write could not be taken back: the command may be whole on disk, and kept
                # by the next open; never said unrecorded (it would be given twice).
                raise Refused(self.writer.broken, rule="ENG-4") from None
            raise Refused(
                _(
                    "could not write the save {path}: {error}; nothing was recorded "
                    "(free some space or make the folder writable, then give the command again)"
                ).format(path=self.path, error=e.strerror),
                rule="ENG-4",
            ) from None
        except SaveError as e:
            raise Refused(_("{error}; nothing was recorded").format(error=e), rule="ENG-4") from None
        if self._used is not None:
            self._used.update((e.seal, e.contribution) for e in group if isinstance(e, ev.SealedRoll))
        if self._counts is not None:
            self._counts.took(group)
        base = len(self.history.store)
        self.history.store.append(group, payloads)
        self.history.feed(group, base)
        self.timeline.catch_up()
        self.saved_bytes = self.writer.size
        self.saved_check = self.writer.check
        self._versioned = True
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


#: A game is what the modules of its concerns take it for: mypy checks it here.
_A_GAME_IS_A_TABLE: type[Table] = Game

_event_encoder = msgspec.msgpack.Encoder()


def _answered(state: GameState, events: list[ev.Event], need: NeedDice, viewer: str) -> tuple[Text, str, Text]:
    """The roll this one answers, if the command's last roll with an outcome was the other
    side's (a save answers the hit): its outcome, whose it was and its purpose, as ``viewer``
    (the side that rolls now) may be told (whose and the purpose only where it may see the
    roller); ("", "", "") if none, or if ``viewer`` may not see that roll."""
    rolling = state.units.get(need.unit)
    side = rolling.side if rolling is not None else need.side
    last = next((e for e in reversed(events) if isinstance(e, ev.Rolled) and e.roll.outcome), None)
    if last is None or not event_visible(last, viewer):
        return "", "", ""
    theirs = state.units.get(last.unit)
    their_side = theirs.side if theirs is not None else last.side
    if not their_side or their_side == side:
        return "", "", ""
    if theirs is not None:
        seen = unit_visible(theirs, viewer)
        return last.roll.outcome, theirs.name if seen else "", last.roll.purpose if seen else ""
    return last.roll.outcome, state.sides[their_side].name if their_side in state.sides else "", ""


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
        raise Refused(_("a number in this command is out of range; nothing was recorded"), rule=TYPING) from None
