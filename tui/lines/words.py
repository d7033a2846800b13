"""The line client's reading words: what a seat types to read the game rather than play it.

``status``, ``roster``, ``who``, ``phase``, ``log``, ``dice``, ``odds``,
``rule?``, ``why``, ``?``, ``help``, ``secrets``, ``copy``, ``more``,
``verbose`` and ``quit``, each typed in English or in the reader's language,
whole, compared without case or accents.  :class:`ReadingWords` is the part of
a :class:`~tui.lines.client.LineClient` that answers them (all but ``more``,
which goes on with the client's last answer): the answers are ``tui.lines.answers``'s,
from the role's own view and log, said through the client (:class:`LineSeat`).
A word that goes wrong raises ``Refused`` (or ``CommandFailed``), which the
client says as it says a command's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from core.explain import rulesask
from core.log.views import REFEREE
from core.ruleset import TYPING, Refused
from tui.copies import keep_here
from tui.i18n import _, pgettext
from tui.lines import answers, why
from tui.logindex import RowIndex
from tui.viewpoint import Viewpoint

if TYPE_CHECKING:
    from core.game import Game
    from core.ruleset import CommandSpec
    from tui.lines.ink import Line


def own_words() -> dict[str, str]:
    """The client's reading words by their English names, each as the reader types it."""
    return {
        "status": pgettext("command", "status"),
        "roster": pgettext("command", "roster"),
        "who": pgettext("command", "who"),
        "phase": pgettext("command", "phase"),
        "log": pgettext("command", "log"),
        "dice": pgettext("command", "dice"),
        "odds": pgettext("command", "odds"),
        "rule?": pgettext("command", "rule?"),
        "why": pgettext("command", "why"),
        "?": "?",
        "help": pgettext("command", "help"),
        "secrets": pgettext("command", "secrets"),
        "copy": pgettext("command", "copy"),
        "more": pgettext("command", "more"),
        "verbose": pgettext("command", "verbose"),
        "quit": pgettext("command", "quit"),
    }


def on_off_words() -> dict[str, bool]:
    """``verbose on`` and ``verbose off``, in English and as the reader types them."""
    return {"on": True, "off": False, pgettext("choice", "on"): True, pgettext("choice", "off"): False}


def folded(word: str) -> str:
    """A word as typed, compared without case or accents (``probabilità``, ``probabilita``)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def own(word: str) -> str | None:
    """The reading word that ``word`` is, by its English name (``exit`` is ``quit``), or None."""
    typed = folded(word)
    for key, local in own_words().items():
        if typed in (key, folded(local)):
            return key
    return "quit" if typed == "exit" else None


class LineSeat(Protocol):
    """What the reading words read and call on their seat (``tui.lines.client.LineClient`` is one)."""

    game: Game
    role: str
    seat: str
    save: str
    table: str
    read_only: str
    verbose: bool
    last_refusal: tuple[str, tuple[str, ...]] | None

    @property
    def table_dice(self) -> bool: ...

    def say(self, *lines: Line) -> None: ...

    def say_heard(self, lines: Sequence[Line], *, lead: bool = True) -> None: ...

    def end(self) -> None: ...

    def preview(self, act: str) -> str | None: ...

    def verb(self, word: str) -> CommandSpec | None: ...


class ReadingWords:
    """The reading words at one seat (see the module's doc)."""

    def __init__(
        self,
        client: LineSeat,
        *,
        remember: Callable[[bool], None] | None = None,
        keep_copy: Callable[[], str] | None = None,
    ) -> None:
        self.client = client
        game, role = client.game, client.role
        #: Told the new ``verbose`` setting when the player changes it (the terminal keeps it
        #: in the user's settings; None: it lasts the session).
        self._remember = remember
        #: ``copy``: the player's own copy of the game so far, kept where his door puts it; what to say
        #: (``tui.copies``).  None: this machine's data folder (a seat's door gives its own).
        self._keep_copy = keep_copy or (lambda: keep_here(game, role)[0])
        self._index = RowIndex(game, role)

    def read(self, key: str, rest: str) -> None:
        """Answer the reading word ``key`` (an English name of :func:`own_words`), ``rest`` typed after it."""
        game, role = self.client.game, self.client.role
        if key == "quit":
            self.client.say(_("Goodbye: the game is saved as it stands."))
            self.client.end()
        elif key == "status":
            self.client.say(*self.status())
        elif key == "phase":
            live = role == REFEREE and not self.client.read_only
            self.client.say(*answers.phase(game, game.view(role), referee_live=live))
        elif key == "roster":
            self.client.say(*answers.roster(game, game.view(role), role))
        elif key == "who":
            self.client.say(*answers.who(game, game.view(role), role, rest))
        elif key == "log":
            self.client.say(*answers.last_lines(game, self._index, role, self._count(rest)))
        elif key == "dice":
            self._dice(rest)
        elif key == "odds":
            self.client.say(*answers.odds(game, role, rest))
        elif key == "rule?":
            pieces = ((u.id, u.name) for u in game.view(role).units.values())
            self.client.say_heard(rulesask.answer_lines(game.ruleset, rest, pieces))
        elif key == "why":
            self.client.say_heard(self._why(rest))
        elif key == "?":
            self.client.say_heard(why.ask(game, role, rest))
        elif key == "help":
            self._help(rest)
        elif key == "secrets":
            self.client.say(*answers.secrets(game, role))
        elif key == "copy":
            self.client.say(answers.sentence(self._keep_copy()))
        elif key == "verbose":
            self._verbose(rest)

    def _why(self, rest: str) -> list[str]:
        """``why``: the last refusal said to this seat, else the last roll in play it may see;
        ``why N``: step N of its log."""
        game, role = self.client.game, self.client.role
        if rest:
            try:
                number = int(rest)
            except ValueError:
                raise Refused(_("why N: N is the number of a step of the log, e.g. why 12"), rule=TYPING) from None
            return why.why_step(game, role, number)
        if self.client.last_refusal is not None:
            return why.why_refused(game, *self.client.last_refusal)
        return why.why_last_roll(game, role, Viewpoint(game, role).recent_rolls(1))

    def _count(self, rest: str) -> int:
        if not rest:
            return answers.LOG_LINES
        try:
            count = int(rest)
        except ValueError:
            raise Refused(_("log N: N is a number of lines, e.g. log 20")) from None
        if count < 1:
            raise Refused(_("log N: N is a number of lines, e.g. log 20"))
        return count

    def _dice(self, rest: str) -> None:
        game, role = self.client.game, self.client.role
        if rest:  # who rolls is the game's command table-dice, by one name at every seat (#61)
            on, off = answers.table_dice_commands(game)
            raise Refused(
                _("{dice} alone says the last roll; {on} or {off} chooses who rolls (the referee).").format(
                    dice=own_words()["dice"], on=on, off=off
                )
            )
        self.client.say(*answers.dice(game, role, game.view(role)))

    def _verbose(self, rest: str) -> None:
        if rest:
            choice = {folded(word): on for word, on in on_off_words().items()}.get(folded(rest))
            if choice is None:
                raise Refused(_("verbose on or verbose off: how much the answers say (verbose alone: which)"))
            self.client.verbose = choice
            if self._remember is not None:
                try:
                    self._remember(choice)
                except OSError as e:  # the setting holds for this session all the same
                    self.client.say(
                        answers.sentence(_("The setting is not kept for the next session: {error}").format(error=e))
                    )
        self.client.say(
            _("Verbose: rolls are asked and said back in full.")
            if self.client.verbose
            else _("Brief: a roll is asked in one sentence and its outcome said first; verbose on says it all.")
        )

    def _help(self, rest: str) -> None:
        client = self.client
        if not rest:
            client.say(*answers.help_lines(client.game, client.role, own_words().items()))
            return
        key = own(rest.split()[0])
        if key is not None:
            client.say(answers.own_word(key, own_words()[key], client.game))
            return
        spec = client.verb(rest.split()[0])
        if spec is None:
            raise Refused(_("no command {word}; help lists them").format(word=repr(rest.split()[0])))
        client.say(*answers.command_help(client.game, spec))

    def status(self) -> list[Line]:
        """``status``: how the game stands, said to this seat (and as it sits down)."""
        client = self.client
        if client.read_only:
            mode = client.read_only
        elif client.table_dice:
            mode = _("live, and you give the faces of the table's dice")
        else:
            mode = _("live, and the game rolls its own dice")
        return answers.status(
            client.game,
            client.game.view(client.role),
            role=client.role,
            seat=client.seat,
            mode=mode,
            save=client.save,
            undo=None if client.read_only else client.preview("undo"),
            table=client.table,
        )
