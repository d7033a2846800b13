"""The game's engine: a command line carried out, from its parse to its facts written and told.

Every change goes the same way: parse the command against what the issuer can
see, check who may do it and when, let the ruleset's pure handler turn it into
events, append and sync those events, then update the history and the state.
A refused command raises :class:`Refused` and writes nothing.  A command that
fails on a bug (any other exception before it is written) is logged with its
traceback (``core.refusal.LOG``) and raises :class:`CommandFailed`:
it writes nothing either, and never passes for a refusal.

What a game keeps besides lives beside this module, one concern each, an object that
owns its state and that ``Game`` holds and calls by its public names: the sealed dice
(``sealing.Sealing``: the key in force, the shares used), a command held for a seat's
dice (``awaiting.Awaiting``), a roll asked at its own seat, whose dice the others wait
for (``rolling.Rolling``), what a role may read (``reading.Reading``: its view, its
numbers, the log in its words), what its undo and redo would do (``undoing.Undoing``)
and who is told of each change (``telling.Telling``).  Each is given what it reads of the
game (its timeline, its header, its ruleset), never the game, so none imports this module.
Opening a save and reading what another process appended (``opening``), the odds of a
command not given (``odds``), what a command still wants of the table (``asking``) and the
commands every ruleset has (``builtins``, whose hooks take the game as ``front.Front``) are
functions the game calls; but for ``opening``'s, each is imported where it is called, as is
the guard a command runs under (``bugs``): a client's start calls none of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Self, Unpack

import msgspec

import core
from core.dice.faces import (
    CONTRIBUTION_BYTES,
    Dice,
    ManualDice,
    NeedDice,
    SealedDice,
    Share,
    sent_contribution,
)
from core.game import opening
from core.game.awaiting import Awaiting
from core.game.opening import now_ms
from core.game.reading import LogLine, Reading
from core.game.rolling import Rolling
from core.game.sealing import Asked, Asking, Sealing
from core.game.telling import Telling
from core.game.undoing import Undoing, Written
from core.language.i18n import Domain, _, naming, render
from core.language.reader import SOURCE, lang
from core.language.reader import reading as read_in
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Outcome, Refusal, Result, settle
from core.log.questions import MAX_ANSWERS, Answers, NeedAnswer
from core.log.replay import Timeline
from core.log.state import GameState, copy_state, table_dice
from core.log.views import (
    REFEREE,
    SPECTATOR,
    MarkerLabels,
)
from core.refusal import TYPING
from core.ruleset import CommandSpec, Context, Refused, Ruleset
from core.secrets import commitments
from core.storage.decoding import Header
from core.storage.errors import SaveError
from core.storage.writer import SaveWriter

if TYPE_CHECKING:
    from core.commands import Parsed
    from core.game.front import Front
    from core.game.given import Given
    from core.game.odds import Odds

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
        #: The sealed dice: the key in force, the shares used, what a question kept (``core.game.sealing``).
        self.sealing = Sealing(timeline, header, lambda: self.salt(), seeded=seeded)
        self.notes = notes or []
        #: Bytes of the save this game holds: up to here, memory and file agree.
        self.saved_bytes = writer.size if writer is not None else saved_bytes
        #: The check of the save's line that ends at ``saved_bytes`` (its chain goes on from there).
        self.saved_check = writer.check if writer is not None else saved_check
        self._specs: list[CommandSpec] | None = None  # the commands, gathered when first needed
        #: What each role may read of it: its view, its numbers, the log in its words (``core.game.reading``).
        self.reading = Reading(timeline, ruleset, self.localize)
        #: What each role's undo and redo would do, and the facts that do it (``core.game.undoing``).
        self.undoing = Undoing(timeline, self.reading, self.localize)
        #: Who is told of its changes, each as its role may see them (``core.game.telling``).
        self.telling = Telling(self.reading)
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
        #: The command held for another seat's dice or answer (``core.game.awaiting``).
        self.awaiting = Awaiting(timeline, ruleset.domain)
        #: The seats at their own prompt for their command's roll (``core.game.rolling``).
        self.rolling = Rolling(timeline)

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
        made = opening.new(path, ruleset_id, variant, seed)
        return cls(
            made.path,
            made.header,
            made.ruleset,
            made.timeline,
            made.writer,
            clock=clock,
            salt=salt,
            seeded=seed is not None,
        )

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
        o = opening.open(
            path, writable=writable, progress=progress, cache=cache, cached_only=cached_only, cache_later=cache_later
        )
        game = cls(
            o.path,
            o.header,
            o.ruleset,
            o.timeline,
            o.writer,
            clock=clock,
            notes=list(o.notes),
            saved_bytes=o.saved_bytes,
            saved_check=o.saved_check,
        )
        game.cache_mark, game._cache_finish = o.cache_mark, o.cache_finish
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

    def follow(self, upto: int | None = None) -> list[Outcome]:
        """Take in what the save's writer (another process) appended, up to byte ``upto``
        (``opening.appended``), and tell the listeners, a command at a time.

        A game opened read-only can so follow a live table: the writer says how far its file
        is synced.  Sizes it already holds are ignored, so the same news may arrive twice."""
        if self.copy_role or (upto is not None and upto <= self.saved_bytes):
            return []  # a side's copy is written once: it never grows
        saved = (self.saved_bytes, self.saved_check)
        self.sealing.reread()  # gathered again when next needed, with the rolls read here
        groups, self.saved_bytes, self.saved_check = opening.appended(
            self.path, self.history, saved, self.header.fireteam, upto
        )
        self.timeline.catch_up()
        outcomes = [Outcome(_named(group[0]), group, [self.describe(e, REFEREE) for e in group]) for group in groups]
        for outcome in outcomes:
            self.telling.tell(outcome)
        return outcomes

    def view(self, role: str, step: int | None = None) -> GameState:
        """The state as ``role`` may know it, live or at replay ``step`` (``Reading.view``).  Do not modify it."""
        return self.reading.view(role, step)

    def log_lines(self, role: str, start: int = 0, end: int | None = None) -> list[LogLine]:
        """Events ``start``..``end`` of the file that ``role`` may see, in its words (``Reading.log_lines``)."""
        return self.reading.log_lines(role, start, end)

    def describe(self, e: ev.Event, role: str) -> str:
        """``e`` in words for ``role`` (``Reading.describe``)."""
        return self.reading.describe(e, role)

    @property
    def log_length(self) -> int:
        return len(self.history.store)

    def undo(self, *, role: str, by: str = "") -> Outcome:
        """Take back the last command in effect that ``role`` may see (``Undoing.undone``), or raise Refused."""
        return self._stepped("undo", role, by or role, self.undoing.undone)

    def redo(self, *, role: str, by: str = "") -> Outcome:
        """Bring back the last undone command (``Undoing.redone``), or raise Refused."""
        return self._stepped("redo", role, by or role, self.undoing.redone)

    def _stepped(self, text: str, role: str, by: str, step: Callable[[str, str, int], Written]) -> Outcome:
        """An undo or a redo asked for by its name, not typed: written, or told as refused."""
        return self._told_if_refused(
            text, role, by, lambda: self._by_the_log(text, role, lambda: step(role, by, self.clock()))
        )

    def _by_the_log(self, text: str, role: str, facts: Callable[[], Written]) -> Outcome:
        """An undo or a redo written: ``facts`` of the history, not of a rule (ruling ENG-3)."""
        if self.writer is None:
            raise Refused(_("this game is open read-only (replay)"), rule="ENG-4")
        from core.game.bugs import failing_on_bugs

        with failing_on_bugs(text, role):
            cmd, group, lines = facts()
        return self._append(cmd, group, lines)

    def odds(self, text: str, *, role: str, why: bool = False) -> Odds | None:
        """What the command would roll first, and the exact odds, without doing anything
        (``core.game.odds``); None if it rolls nothing or is not valid now (with ``why``, Refused)."""

        def dry_run() -> None:
            parsed = self.parse(text, role)
            if parsed.spec.log_step is None:  # (undo and redo roll nothing)
                self._check_allowed(parsed, role)
                ctx = Context(copy_state(self.state), ManualDice(), role, self.ruleset, dry_run=True)
                parsed.spec.handler(ctx, parsed.args)

        from core.game.odds import first_roll

        return first_roll(dry_run, text, role, self.ruleset.domain, why=why)

    def subscribe(self, listener: Callable[[Outcome], None], *, role: str) -> Callable[[], None]:
        """Call ``listener`` after every change ``role`` may see, with what it may see of it, and
        none it may see nothing of (``Telling.subscribe``)."""
        return self.telling.subscribe(listener, role=role)

    def subscribe_refusals(self, listener: Callable[[Refusal], None]) -> Callable[[], None]:
        """Call ``listener`` whenever a command, undo or redo is refused (the server logs them)."""
        return self.telling.subscribe_refusals(listener)

    def _told_if_refused(self, text: str, role: str, by: str, act: Callable[[], Outcome]) -> Outcome:
        try:
            return act()
        except Refused as e:
            self.telling.refused(Refusal(text, role, by, str(e), e.rules))
            raise

    @property
    def commands(self) -> list[CommandSpec]:
        # Gathered on first use, not as the game opens: a ruleset's commands import
        # most of its modules, which opening and drawing a game do not need.
        if self._specs is None:
            from core.game.builtins import game_commands  # (and the command language: not at the start)

            self._specs = game_commands(self.ruleset)
        return self._specs

    def complete(self, text: str, role: str) -> list[str]:
        """Candidates for the word being typed, in the reader's language (``core.commands``)."""
        from core.commands import complete  # the first key typed imports the command language, not the start

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
        from core.commands import parse  # the first command given imports the parser, not the start

        return parse(text, self.commands, self.state, role, self.ruleset.domain, self._phase_commands())

    def _phase_commands(self) -> tuple[str, ...]:
        """The phase's main commands in the order its rules play it (``Phase.commands``)."""
        phase = self.ruleset.phase(self.state.phase)
        return phase.commands if phase is not None else ()

    def usage(self, spec: CommandSpec) -> str:
        """``spec``'s usage in the reader's names."""
        from core.commands import usage

        return usage(spec, self.ruleset.domain)

    def names(self, spec: CommandSpec) -> tuple[str, str]:
        """``spec``'s name in the reader's language and in English, for help that shows both."""
        from core.commands import names

        return names(spec, self.ruleset.domain)

    def localize(self, text: str) -> str:
        """A recorded command line (English names) in the reader's names (``core.commands.localize_line``)."""
        if lang() == SOURCE:
            return text  # as recorded; and drawing the log in English need not gather the commands
        from core.commands import localize_line  # (an English start draws its log without it)

        specs = self._specs
        if specs is None:
            # Until the commands are gathered, their kept shapes name them: a log drawn in
            # another language need not import the ruleset's rules either (core.language.shapes).
            from core.language.shapes import command_shapes  # (an English log never comes this far)

            shapes = command_shapes(self.ruleset.id, self.ruleset.variant)
            if shapes is not None:
                return localize_line(text, shapes, self.ruleset.domain)
        return localize_line(text, self.commands, self.ruleset.domain)

    def submit(self, text: str, **given: Unpack[Given]) -> Result:
        """What one command line (``undo`` and ``redo`` too) comes to, as a value (``core.log.outcome``):
        what every front end calls, and what a seat worker's copy of the game carries out at the
        table instead (``tui.ssh.workers.replica``).  :meth:`execute` is the same, raising to
        refuse; what it is given with besides the line is :class:`Given`'s."""
        role = given["role"]
        by = given["by"] = given.get("by") or role
        if self.awaiting.held is not None:  # one command at a time, undo too: the table waits for its dice
            # (a seat the held roll is hidden from learns only that the table is busy: it holds one command)
            why = self.awaiting.said(role) or _("the table is busy with another command; give yours again in a moment")
            return self._told_rolling(role, by, Refusal(text.strip(), role, by, why))

        def act() -> Outcome:
            return self.execute(text, **given)

        result = settle(act, text.strip(), role, by)
        if isinstance(result, DiceNeeded | AnswerNeeded) and self.seated is not None and table_dice(self.state):
            # Held as it is recorded, with the language it was given in: the seat that goes on with it
            # may read another.
            parsed = self.parse(text, role)
            faces, answers = given.get("faces") or (), given.get("answers") or ()
            held = Awaited(parsed.text, role, by, list(faces), list(answers), role, lang=parsed.lang)
            result = self.awaiting.hold(held, result, self._seated(), first=True)
        return self._told_rolling(role, by, result)  # (the others told whose dice it types, if it does)

    def _told_rolling(self, role: str, by: str, result: Result) -> Result:
        """``result``, the others told of the roll it asks at its own seat, if it does (``core.game.rolling``)."""
        return self.rolling.asked(role, by, result, at_seats=self.seated is not None and self.awaiting.held is None)

    def _seated(self) -> set[str]:
        return self.seated() if self.seated is not None else set()

    def answer_held(
        self, *, role: str, by: str = "", faces: list[int] | None = None, answer: str | None = None
    ) -> Result:
        """Go on with the held command with the faces (or the answer) its asked seat gave, or
        the referee, who may answer any; neither: withdraw it (its submitter, or the referee)."""
        went_on = self.awaiting.went_on(role, by or role, faces, answer, self.localize)
        if isinstance(went_on, Refusal):
            return went_on

        def act() -> Outcome:
            return self.execute(
                went_on.text,
                role=went_on.role,
                by=went_on.by,
                faces=went_on.faces,
                answers=went_on.answers,
                givers=went_on.givers,
                given_in=went_on.lang,
            )

        return self.awaiting.after(went_on, settle(act, went_on.text, went_on.role, went_on.by), self._seated())

    def seats_changed(self) -> None:
        """A seat left the table: a held command whose submitter left is withdrawn (nothing was
        recorded); a roll whose asked seat left is asked of the referee, else of its submitter.
        A roll asked at its own seat of a role no longer seated is awaited no more."""
        if self.seated is not None:
            seated = self.seated()
            self.rolling.keep(seated)
            self.awaiting.keep(seated)

    def unasked(self, by: str) -> None:
        """Seat ``by`` put its own prompt down (the command withdrawn, nothing recorded), or left."""
        self.rolling.unasked(by)

    def execute(self, text: str, **given: Unpack[Given]) -> Outcome:
        """Carry out one command line, or raise Refused (nothing is written then); what it is
        given with besides the line is :class:`Given`'s (``core.game.given``).  A command that
        needs dice or an answer the table has not given raises ``NeedDice`` or ``NeedAnswer``."""
        role = given["role"]
        by = given["by"] = given.get("by") or role
        text = text.strip()
        return self._told_if_refused(text, role, by, lambda: self._execute(text, given))

    def _execute(self, text: str, given: Given) -> Outcome:
        role, by = given["role"], given.get("by") or given["role"]
        if self.writer is None:
            raise Refused(_("this game is open read-only (replay)"), rule="ENG-4")
        if role == SPECTATOR:
            raise Refused(_("spectators watch; they cannot give commands"), rule="ENG-1")
        given_in = given.get("given_in", "")
        from core.game.bugs import failing_on_bugs

        with failing_on_bugs(text, role), read_in(given_in) if given_in else nullcontext():
            parsed = self.parse(text, role)
        if parsed.spec.log_step is not None:  # (undo, redo)
            log_step = parsed.spec.log_step
            return self._by_the_log(text, role, lambda: log_step(self, role, by))
        share = _share(given)
        if share is not None and len(share.contribution) != CONTRIBUTION_BYTES:
            said = _("a contribution to the dice is {n} random bytes; this command was not carried out")
            raise Refused(said.format(n=CONTRIBUTION_BYTES), rule="ENG-5")
        with failing_on_bugs(text, role):
            cmd, group = self._resolve(parsed, given, share)
            lines = self.reading.described(group)
        return self._append(cmd, group, lines)

    def _resolve(
        self, parsed: Parsed, given: Given, share: Share | None, supposed: Dice | None = None
    ) -> tuple[int, list[ev.Event]]:
        """The command's number and the events it would append (its ``Issued`` first); nothing is written.
        ``supposed``: the dice it rolls, instead of the game's (a command asked ahead, :meth:`resolved`)."""
        role = given["role"]
        by = given.get("by") or role
        self._check_allowed(parsed, role)
        cmd = self.history.next_cmd
        asking = (role, by, parsed.spec.name, repr(sorted(parsed.args.items())))  # however it was spelt
        in_force = self.sealing.seal()
        sealing, dice = ([], supposed) if supposed is not None else self._dice(parsed, given, share, cmd, asking)
        answers = Answers(_answers(parsed, given))
        ctx = Context(
            copy_state(self.state),
            dice,
            role,
            self.ruleset,
            labels=self.marker_labels(cmd),
            order=parsed.spec.dice,
            answers=answers,
        )
        ctx.emit(*sealing)
        drew = dice.drawer if isinstance(dice, ManualDice) and dice.drawer is not None else dice
        try:
            self._handle(ctx, parsed, by)
            self._end_at_break(ctx)
        except NeedAnswer:
            if isinstance(drew, SealedDice) and drew.used and drew is dice:
                self.sealing.ask_later(asking, Asked(sealing, drew.contribution, drew.saw))
            raise
        self._check_resolved(ctx, parsed, dice, drew, in_force)
        return cmd, self._issued(ctx, parsed, cmd, by)

    def _dice(
        self, parsed: Parsed, given: Given, share: Share | None, cmd: int, asking: Asking
    ) -> tuple[list[ev.Event], Dice]:
        """The facts that seal the dice first in this command (or none), and the dice it rolls."""
        # The faces typed at the table's prompt follow the line's own: they are
        # the dice the line's did not give (docs/commands.md, "Dice").
        faces, givers = given.get("faces"), given.get("givers")
        typed = None if parsed.faces is None and faces is None else [*(parsed.faces or ()), *(faces or ())]
        sealing, dice = self.sealing.dice(parsed, cmd, typed, share, asking)
        if isinstance(dice, ManualDice) and givers:  # (the line's own dice= are its issuer's)
            dice.typed_by([*[""] * len(parsed.faces or ()), *givers])
        return sealing, dice

    def _check_resolved(self, ctx: Context, parsed: Parsed, dice: Dice, drew: Dice, in_force: str) -> None:
        """Refuse what the handler made of the command that the game cannot record: a number out
        of range, dice steered or left over, answers left over, nothing at all."""
        _check_numbers(ctx.events)
        if isinstance(drew, SealedDice) and drew.used:
            self.sealing.check(drew, in_force)
        if isinstance(dice, ManualDice) and dice.unused:
            raise Refused(_("{n} more dice typed than the command rolled").format(n=dice.unused), rule="ENG-5")
        if ctx.answers.unused:
            raise Refused(
                _("{n} more answers given than the command asked for").format(n=ctx.answers.unused), rule=TYPING
            )
        if not ctx.events:
            raise Refused(_("{command}: nothing to do").format(command=self._command_word(parsed)), rule="ENG-8")

    def _issued(self, ctx: Context, parsed: Parsed, cmd: int, by: str) -> list[ev.Event]:
        """The command's ``Issued`` and its facts, sealed (``core.secrets.commitments``)."""
        role = ctx.role
        ends = any(type(e) is ev.GameEnded for e in ctx.events)
        facts = commitments.seal(ctx.events, self.state, self.history.timeline() if ends else None, self.salt)
        vis = self.reading.text_audience(parsed, ctx.events, role)
        acting = role if role != by else ""  # (a seat's name says who typed it; the role, whose it was)
        issued = ev.Issued(
            cmd=cmd, n=len(facts), by=by, text=parsed.text, at=self.clock(), vis=vis, role=acting, lang=parsed.lang
        )
        return [issued, *facts]

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
        return self._resolve(parsed, {"role": role}, None, supposed=dice)[1][1:]

    def _handle(self, ctx: Context, parsed: Parsed, by: str) -> None:
        """Run the command's handler; what it still wants of the table (its dice, an answer)
        is said as ``role`` may hear it: whose (a name it may see; the unit's id goes no
        further) and the command's order of dice."""
        try:
            if parsed.spec.game_handler is not None:
                parsed.spec.game_handler(self, ctx, parsed.args, by)
            else:
                parsed.spec.handler(ctx, parsed.args)
        except NeedAnswer as need:
            from core.game.asking import answer_asked

            raise answer_asked(need, ctx.state, ctx.role) from None
        except NeedDice as need:
            from core.game.asking import dice_asked

            raise dice_asked(need, ctx, ctx.role, parsed.spec.dice) from None

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
        if spec.game_handler is None:  # (one checks who and when itself: confirm, ENG-9, not a turn's)
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
        self.sealing.took(group)
        base = len(self.history.store)
        self.history.store.append(group, payloads)
        self.history.feed(group, base)
        self.timeline.catch_up()
        self.saved_bytes = self.writer.size
        self.saved_check = self.writer.check
        self._versioned = True
        outcome = Outcome(cmd, group, lines)
        self.telling.tell(outcome)
        return outcome


#: A game is what a screen, or a built-in's hook, takes it for (``core.game.front``): mypy checks it here.
_A_GAME_IS_A_FRONT: type[Front] = Game

_event_encoder = msgspec.msgpack.Encoder()


def _named(first: ev.Event) -> int:
    """The command a group of the log names: its own, or the one an undo or a redo takes back or brings back."""
    return first.cmd if isinstance(first, ev.Issued | ev.Undone | ev.Redone) else 0


def _share(given: Given) -> Share | None:
    """The seat's share of the command's sealed dice: the one given, else the one its seat sent, else none."""
    contribution = given.get("contribution")
    if contribution is None:
        return sent_contribution()
    return Share(contribution, given.get("saw"), given.get("nonce"))


def _answers(parsed: Parsed, given: Given) -> list[str] | None:
    """The answers given with the command: the line's own, then the table's; None for none at all."""
    answers = given.get("answers")
    said = None if parsed.answers is None and answers is None else [*(parsed.answers or ()), *(answers or ())]
    if said is not None and len(said) > MAX_ANSWERS:
        raise Refused(_("at most {n} answers to one command").format(n=MAX_ANSWERS), rule=TYPING)
    return said


def _check_numbers(events: list[ev.Event]) -> None:
    """Refuse facts holding a number the state cannot: the parameters' bounds keep
    every number a command takes small, and this keeps any a rule computes so too."""
    try:
        _event_encoder.encode(events)
    except OverflowError:
        raise Refused(_("a number in this command is out of range; nothing was recorded"), rule=TYPING) from None
