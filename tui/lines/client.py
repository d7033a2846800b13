"""The line client: one seat at one game, fed a line at a time, answering in lines.

:class:`LineClient` knows nothing of what carries the lines: it is given the
game, the role and the seat's name, its reader (the language it writes in), and
a writer to which it hands whole lines of text (each ending with a line feed,
control characters made visible); the front that hosts it (``tui.lines.terminal``
for ``fireteam --plain``, an SSH seat) reads a line, shows the client's
:attr:`~LineClient.prompt` and calls :meth:`~LineClient.feed`.

* A line is one of the client's reading words (``status``, ``roster``,
  ``who``, ``phase``, ``log``, ``dice``, ``odds``, ``help``, ``quit``, in
  English or in the reader's language, whole: ``tui.lines.words``, whose
  :class:`~tui.lines.words.ReadingWords` answers them), or a command of the game,
  given to ``Game.execute`` as the Textual client's command line gives it.
  A reading word with arguments that the game also has as a command (Breaking
  News's ``roster FILE SIDE``) is the game's.
* Undo and redo ask ``y`` or ``n`` first; a roll that needs the table's real
  dice (``core.dice.faces.NeedDice``) asks for the faces; an empty line cancels it.
* The client subscribes to the game (``Game.subscribe``): whatever any seat
  does, it writes the lines the role may now read, as the log pane does
  (``Game.log_lines`` with the role's numbers), never the game's own outcome,
  which holds what is hidden from the role.  ``schedule`` says when: an SSH
  seat defers it to its own turn of the loop, as the Textual apps do; a
  question of undo or redo is then dropped (nothing done), since what it
  named may have changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import msgspec

from core.commands import find_verb, names
from core.dice.faces import DiceRequest, face_read, parse_faces
from core.errorlog import details_in
from core.game import Game
from core.language.reader import Reader, reading
from core.league.atseat import with_digest
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Held, Outcome, Refusal, Result, said
from core.log.state import table_dice
from core.log.views import REFEREE
from core.refusal import CommandFailed
from core.ruleset import CommandSpec, Refused
from tui.i18n import _, ngettext, role_words, scenario_words
from tui.lines import answers, heard
from tui.lines.held import Asked, Faces, HeldRolls
from tui.lines.ink import Line, inked, shown
from tui.lines.words import ReadingWords, folded, own, own_words
from tui.visible import visible

Writer = Callable[[str], None]
Scheduler = Callable[[Callable[[], None]], object]  # (what it returns, a handle, is not read)


class _Confirm(msgspec.Struct):
    """Undo or redo, asked before it is done."""

    act: Literal["undo", "redo"]
    preview: str


class LineClient(HeldRolls):
    """One seat's game as lines (see the module's doc)."""

    def __init__(
        self,
        game: Game,
        *,
        role: str,
        seat: str = "",
        reader: Reader,
        write: Writer,
        colour: bool = False,
        verbose: bool = False,
        remember: Callable[[bool], None] | None = None,
        schedule: Scheduler | None = None,
        save: str = "",
        table: str = "",
        read_only: str = "",
        error_log: Path | None = None,
        keep_copy: Callable[[], str] | None = None,
    ) -> None:
        self.game = game
        self.role = role
        self.seat = seat
        self.reader = reader
        self._write = write
        #: Whether the few coloured words are coloured (never under NO_COLOR: ``tui.lines.ink``).
        self.colour = colour
        #: Answers in full (``verbose on``): a roll asked with the command's order of dice, its
        #: step, the faces' meanings; a roll typed here said back.  Else brief, as a radio call.
        self.verbose = verbose
        self._schedule = schedule
        #: How the save is named to this seat (a local path).
        self.save = save or game.path.name
        #: The game's name at a shared table (an SSH seat), said instead of the save.
        self.table = table
        #: Why commands are refused here, said by ``status`` ("" for a game that takes them).
        self.read_only = read_only
        #: Where an error of the program is logged with its traceback, said after it
        #: (``core.errorlog``); None: a seat of a server, whose host's log has it.
        self.error_log = error_log
        self._question: _Confirm | Faces | Asked | None = None
        self._seen = game.log_length
        #: The reading words (``status``, ``log``, ``why`` ...): what each answers at this seat.
        self.words = ReadingWords(self, remember=remember, keep_copy=keep_copy)
        self._unsubscribe: Callable[[], None] | None = None
        self._news_queued = False
        #: The command held at the table for a seat's dice as this seat was last told it (issue #61).
        self._shown_awaiting: Awaited | None = None
        #: While this seat's own command is being carried out: its lines are written once it is.
        self._submitting = False
        #: The command number of this seat's last command carried out: its own line is not said back.
        self._own_cmd = 0
        #: Whether a command was refused (or failed) since the session started (``--strict``).
        self.refusals = 0
        #: The last refusal said to this seat and its rules, until a command is carried out (``why``).
        self.last_refusal: tuple[str, tuple[str, ...]] | None = None
        #: What ``more`` says: the rest of the last answer cut to be heard in under 30 s (``tui.lines.heard``).
        self._rest: list[Line] = []
        #: True once the player has left (``quit``, or the end of input).
        self.done = False

    @property
    def by(self) -> str:
        return self.seat or self.role

    @property
    def table_dice(self) -> bool:
        """Whether every roll asks for the faces of real dice: the referee's choice for the
        whole table (his ``table-dice``, a fact of the log: core.log.state.TABLE_DICE)."""
        return table_dice(self.game.state)

    # ------------------------------------------------------------ life

    def start(self) -> None:
        """Say where the player sits and how the game stands, and follow the game from now on."""
        with reading(self.reader):
            where = self.words.status()
            # A game that has ended says its result before the greeting (7 s of speech): status begins with it.
            ended = where[:1] if self.game.view(self.role).result else []
            self.say(*ended)
            self.say(
                _("Fireteam, in plain lines. Type help for the commands, status for the game; quit or Ctrl+D leaves.")
            )
            for note in self.game.notes:
                self.say(_("The save was repaired on opening: {note}").format(note=note))
            self.say(*where[len(ended) :])
        stops = (
            self.game.subscribe(self._changed, role=self.role),
            self.game.awaiting.subscribe(lambda: self._changed(None)),
            self.game.rolling.subscribe(lambda: self._changed(None)),  # whose dice another seat types (#77)
        )

        def stop() -> None:
            for each in stops:
                each()

        self._unsubscribe = stop
        self._news()  # a command held as the seat sat down

    def end(self) -> None:
        """The input has ended (Ctrl+D, the pipe closed, the seat left): stop following the game."""
        if self._question is not None:
            with reading(self.reader):
                self.say(self._dropped(_("the input ended")))
            self._question = None
        self.done = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    @property
    def unsaid(self) -> int:
        """How many lines of the last answer ``more`` would say (``tui.lines.heard``)."""
        return len(self._rest)

    @property
    def asking(self) -> bool:
        """Whether the next line answers a question (undo, redo, the table's dice)."""
        return self._question is not None

    @property
    def prompt(self) -> str:
        """What to show before the next line is typed: the question, or the seat's name."""
        with reading(self.reader):
            question = self._question
            if isinstance(question, _Confirm):
                said = _("Undo {command}? y or n:") if question.act == "undo" else _("Redo {command}? y or n:")
                return visible(said.format(command=question.preview)) + " "
            if isinstance(question, Faces):
                count = question.request.missing or question.request.count
                if not self.verbose:  # the roll said its dice; help and the empty line are in `table-dice on`'s answer
                    return ngettext("Type {count} die:", "Type {count} dice:", count).format(count=count) + " "
                said = ngettext(
                    "Type {count} die, 1 to {sides} (an empty line cancels):",
                    "Type {count} dice, 1 to {sides} (an empty line cancels):",
                    count,
                )
                return said.format(count=count, sides=question.request.sides) + " "
            if isinstance(question, Asked):
                if question.question.default:
                    said = _("Your answer (an empty line: {default}; cancel cancels):").format(
                        default=question.question.default
                    )
                else:
                    said = _("Your answer (an empty line cancels):")
                return said + " "
            # Who types, as the Textual client's prompt says it: a side by its name, after the seat's player.
            role = role_words(self.role, self.game.state)
            who = role if not self.seat or self.seat == self.role else f"{self.seat} ({role})"
            return visible(who) + "> "

    # ----------------------------------------------------------- input

    def feed(self, line: str) -> None:
        """Take one line typed by the player (without its line feed) and answer it."""
        if self.done:
            return
        with reading(self.reader):
            if self._question is not None:
                self._answer(line.strip())
            else:
                rest, self._rest = self._rest, []  # `more` goes on with the answer just given, no other
                if own(line.strip().partition(" ")[0]) == "more":
                    self.say_heard(rest, lead=False)
                else:
                    self._line(line.strip())
            self._catch_up()

    def _line(self, text: str) -> None:
        if not text:
            return
        word, _sep, rest = text.partition(" ")
        rest = rest.strip()
        key = own(word)
        if key is not None and not (rest and self._game_has(word)):
            try:
                self.words.read(key, rest)
            except Refused as e:
                self._refused(str(e), e.rules)
            except CommandFailed as e:  # (the odds of a command whose rule fails: logged by the game)
                self._failed(str(e))
            return
        if self.read_only:  # why it takes no command (following another writer's game, a replay, a side's copy)
            self._refused(self.read_only)
            return
        if self._referee_gives(text):
            return
        spec = self.verb(word)
        if spec is not None and spec.name in ("undo", "redo") and not rest:
            self._confirm("undo" if spec.name == "undo" else "redo")
            return
        try:
            text = with_digest(self.game, text, self.role, self.by)  # `confirm`: the result's digest added here
        except Refused as e:
            self._refused(str(e), e.rules)
            return
        self._run(text, [] if self.table_dice else None)

    def verb(self, word: str) -> CommandSpec | None:
        """The game's command ``word`` names (``core.commands.find_verb``), or None."""
        try:
            return find_verb(word, self.game.commands, self.game.ruleset.domain)
        except Refused:
            return None

    def _game_has(self, word: str) -> bool:
        """Whether ``word`` is the whole name of one of the game's commands (not a start of one)."""
        spec = self.verb(word)
        if spec is None:
            return False
        typed = folded(word)
        return typed in {folded(n) for n in (*names(spec, self.game.ruleset.domain), *spec.aliases)}

    # --------------------------------------------------------- commands

    def _run(self, text: str, faces: list[int] | None, given: list[str] | None = None) -> None:
        self._catch_up()  # what others did before it, said before its answer
        was = self.table_dice
        self._submitting = True
        given = list(given or [])  # a seat can ask: the game asks rather than take defaults
        try:
            result = self.game.submit(text, role=self.role, by=self.by, faces=faces, answers=given)
        finally:
            self._submitting = False
        if isinstance(result, Outcome):
            self._own_cmd = result.cmd  # its line is the player's own command: not said back
            self.last_refusal = None  # `why` now explains its roll
        if isinstance(result, Held):
            self._held_news()  # another seat's dice now: whose, said
        elif isinstance(result, DiceNeeded):
            self._catch_up()  # what others did meanwhile, before the question
            request = self._applying(text, result.request)
            self._question = Faces(text, list(faces or []), request, given)
            # the order said once a command, not again before each of its rolls; the step each roll
            self.say(*answers.table_dice(request, first=not faces, verbose=self.verbose))
        elif isinstance(result, AnswerNeeded):
            self._catch_up()
            self._question = Asked(text, faces, given, result.question)
            self.say(*answers.question(result.question))
        else:
            self._settled(result)
            if self.table_dice and not was:  # his table-dice on: how its questions are answered, once
                self.say(
                    _(
                        "Table dice: you will be asked for the faces of every roll; "
                        "at the question, help says the roll in full and an empty line cancels the command."
                    )
                )

    def _applying(self, text: str, request: DiceRequest) -> DiceRequest:
        """The roll asked, its command's dice only those that apply, given the game now (a fire's five
        steps are two when its firer is not suppressed and the options are off)."""
        try:
            parsed = self.game.parse(text, self.role)
        except Refused:
            return request
        return answers.narrowed(request, self.game.ruleset.dice_that_apply(self.game.state, parsed.spec, parsed.args))

    def _settled(self, result: Result) -> None:
        """A command's result, once no dice are wanted: carried out (its lines come as every
        seat's do, from the game's news), refused, or failed on an error of the program."""
        if isinstance(result, Refusal):
            self._refused(said(result), result.rules)
        elif isinstance(result, Failure):
            self._failed(said(result))
        elif isinstance(result, DiceNeeded | AnswerNeeded):  # (an undo or redo never asks: nothing was logged)
            self._failed(_("undo or redo asked for more"), logged=False)

    def preview(self, act: str) -> str | None:
        """``#n command`` that undo (or redo) would take back (bring back) for this seat, or None."""
        game = self.game
        if self.role == REFEREE:
            return game.undoing.undo_preview(REFEREE) if act == "undo" else game.undoing.redo_preview(REFEREE)
        cmd = game.undoing.undo_target(self.role) if act == "undo" else game.undoing.redo_target(self.role)
        if cmd is None or game.history.issued(cmd).by != self.by:
            return None
        return f"#{game.reading.numbering(self.role).shown(cmd)} {game.localize(game.history.issued(cmd).text)}"

    def _confirm(self, act: Literal["undo", "redo"]) -> None:
        # The undo's own check, asked before "y or n" so a player is not asked then refused.
        why = self.game.undoing.undo_refusal(self.role, self.by) if act == "undo" else None
        if why is not None:
            self._refused(why)
            return
        preview = self.preview(act)
        if preview is None:  # (an undo the game allows has one)
            target = self.game.undoing.redo_target(self.role)
            self._refused(_("nothing to redo") if target is None else _("the command to redo is not yours"))
            return
        if act == "undo":
            self.say(
                _(
                    "Its lines stay in the log, marked undone, and stop counting; every seat sees it. "
                    "redo brings it back until another command is given."
                )
            )
        else:
            self.say(_("Its lines count again, as they were, with the same dice; every seat sees it."))
        self._question = _Confirm(act, preview)

    def _answer(self, text: str) -> None:
        question = self._question
        if isinstance(question, _Confirm):
            answer = folded(text)
            if answer in ("y", "yes", folded(_("y")), folded(_("yes"))):
                self._question = None
                if question.act == "undo":
                    self._settled(self.game.submit("undo", role=self.role, by=self.by))
                else:
                    self._settled(self.game.submit("redo", role=self.role, by=self.by))
            elif answer in ("n", "no", folded(_("n")), folded(_("no"))):
                self._question = None
                self.say(_("Nothing was undone.") if question.act == "undo" else _("Nothing was redone."))
            else:
                self.say(_("Answer y or n."))
            return
        if isinstance(question, Asked):
            self._answered(question, text)
            return
        assert isinstance(question, Faces)
        if not text:
            self._cancel(question)
            return
        if own(text) == "help":  # the roll in full, the order of the command's dice with it
            self.say(*answers.table_dice(question.request, first=True, verbose=True))
            self.say(_("Type the faces, or an empty line to cancel the command."))
            return
        count = question.request.missing or question.request.count
        sides = question.request.sides
        try:
            faces = parse_faces(text, count)
        except ValueError as e:
            self._refused(str(e))
            return
        if len(faces) != count:
            self._refused(
                ngettext(
                    "type exactly {count} die (you typed {typed})",
                    "type exactly {count} dice (you typed {typed})",
                    count,
                ).format(count=count, typed=len(faces))
            )
            return
        faces = [face_read(f, sides) for f in faces]
        bad = [f for f in faces if not 1 <= f <= sides]
        if bad:
            self._refused(_("a d{sides} cannot show {face}").format(sides=sides, face=bad[0]))
            return
        if question.held is not None:
            self._give_held(question.held, faces=faces)
            return
        self._question = None
        self._run(question.text, question.typed + faces, question.answers)

    def _answered(self, question: Asked, text: str) -> None:
        """The answer to a command's question: checked as the game will, then the command again."""
        asked = question.question
        if folded(text) in (folded(_("cancel")), "cancel") or (not text and not asked.default):
            self._cancel(question)
            return
        try:
            answer = asked.take(text or asked.default)
        except ValueError as e:
            self._refused(str(e))
            return
        if question.held is not None:
            self._give_held(question.held, answer=answer)
            return
        self._question = None
        self._run(question.text, question.typed, [*question.answers, answer])

    def _cancel(self, question: Faces | Asked) -> None:
        if question.held is not None:
            self._give_held(question.held)
            return
        self._question = None
        self.game.unasked(self.by)  # the seats told whose dice were awaited are told no more (#77)
        self.say(_("Cancelled: {command}; nothing was recorded.").format(command=question.text))

    def _referee_gives(self, text: str) -> bool:
        """The referee's faces for a roll held for another seat, or ``cancel`` withdrawing its
        command (issue #61): a seat asked may stay and never answer.  False: not such a line."""
        held = self.game.awaiting.held
        if self.role != REFEREE or held is None or held.asked == REFEREE or held.request is None:
            return False
        if folded(text) in (folded(_("cancel")), "cancel"):
            self._give_held(held)
            return True
        try:
            parse_faces(text)
        except ValueError:
            return False  # a command: refused, naming whose dice are awaited
        # His roll now, as if asked of him: the faces are checked as any seat's (a wrong count asked again).
        self._question = Faces(self.game.localize(held.text), held.faces, held.request, held.answers, held=held)
        self._answer(text)
        return True

    def _dropped(self, why: str) -> str:
        question = self._question
        if isinstance(question, _Confirm):
            done = _("nothing was undone") if question.act == "undo" else _("nothing was redone")
        elif isinstance(question, Faces | Asked):
            done = _("{command} was not given").format(command=question.text)
        else:
            done = ""
        return _("The question is dropped, {why}: {done}.").format(why=why, done=done)

    # ----------------------------------------------------------- output

    def say(self, *lines: Line) -> None:
        """Write whole lines, each made visible (a save's or a player's control characters as escapes)."""
        if lines:
            self._write("".join(shown(line, self.colour) + "\n" for line in lines))

    def say_heard(self, lines: Sequence[Line], *, lead: bool = True) -> None:
        """An answer that explains, or the game's end, said up to half a minute of speech
        (``tui.lines.heard``), its rest kept for ``more`` (``lead``: False); whole under ``verbose
        on``, which asks for everything."""
        if not lines:
            self.say(_("Nothing more: the last answer was said whole."))
            return
        said, self._rest = (lines, []) if self.verbose else heard.first_heard(lines, self.reader.lang, lead=lead)
        self.say(*said)
        if self._rest:
            count = len(self._rest)
            more = ngettext("{more} says {count} more line.", "{more} says {count} more lines.", count)
            self.say(more.format(more=own_words()["more"], count=count))

    def _refused(self, why: str, rules: tuple[str, ...] = ()) -> None:
        self.refusals += 1
        self.last_refusal = (why, rules)
        self.say(inked(_("Refused:"), "bad", " " + answers.stopped(why)))

    def _failed(self, message: str, *, logged: bool = True) -> None:
        """An error of the program, not a refusal: said, with where its traceback was
        ``logged`` (never here: a screen reader would speak it whole), and the seat goes on."""
        self.refusals += 1
        self.say(inked(_("Error:"), "bad", " " + answers.stopped(message)))
        if logged:
            where = _("the host has the details in its log") if self.error_log is None else details_in(self.error_log)
            self.say(answers.sentence(where))

    def tell(self, text: str) -> None:
        """Say a line of the front's own (a followed save that can no longer be read)."""
        with reading(self.reader):
            self.say(answers.sentence(text))

    def refuse(self, why: str) -> None:
        """Refuse input the front would not pass on (a line over its limit), saying why."""
        with reading(self.reader):
            self._refused(why)

    def _changed(self, outcome: Outcome | None) -> None:
        # Called by whichever seat changed what this role may see (maybe another seat's
        # task): the new lines are read from the log as this role reads it, now or when
        # the front says.
        if self._submitting:
            return  # this seat's own command: its lines follow its answer (``_run``)
        if self._schedule is None:
            self._news()
        elif not self._news_queued:
            self._news_queued = True
            self._schedule(self._news)

    def _news(self) -> None:
        self._news_queued = False
        if self.done:
            return
        with reading(self.reader):
            if self.game.log_length > self._seen and isinstance(self._question, _Confirm):
                # Another seat changed the game: what the question named may be gone.
                self.say(self._dropped(_("the game changed")))
                self._question = None
            held = self._shown_awaiting
            if held is not None and (held.role, held.by) == (self.role, self.by) and self.game.log_length > self._seen:
                # Nothing else is recorded while a command is held: this is it, gone on at another seat.
                self._own_cmd = self.game.history.next_cmd - 1
            self._given_elsewhere()
            self._catch_up()
            self._held_news()
            self._rolling_news()

    def _catch_up(self) -> None:
        """Write the log lines this role may read that were added since the last time."""
        end = self.game.log_length
        if end <= self._seen:
            return
        start, self._seen = self._seen, end
        domain = self.game.ruleset.domain
        sides = sides_of(self.game.state)  # the names the log's lines gave the sides
        read = self.game.log_lines(self.role, start, end)
        own = self._own_cmd
        read = [
            answers.worded(line, self.game)
            for line in read
            if not (isinstance(line.event, ev.Issued) and line.cmd == own and own)
            and not (line.inner and not self.verbose)  # as the log pane, but for ``verbose on``
        ]
        brief, owners = 0, {}
        if not self.verbose and own:  # its outcomes first and alone, not the faces just typed
            view = self.game.view(self.role)  # the names this role may see
            brief = own
            owners = {sid: scenario_words(side.name) for sid, side in view.sides.items()}
            owners |= {uid: u.name for uid, u in view.units.items()}
        said = answers.news(read, domain, sides, own=brief, owners=owners)
        if any(isinstance(line.event, ev.GameEnded) and not line.undone for line in read):
            self.say_heard(said)  # the result first, its working kept for `more`
        else:
            self.say(*said)
