"""The game screen's ``why`` and ``? COMMAND`` (issue #76): asked on its command line, shown
whole in a panel that scrolls (``tui.screens.answer``, issue #91), nothing given; the words are
the line client's (``tui.lines.why``).  And ``confirm`` once the game has ended (issue #74),
given with the result's digest added."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

from core.game.confirmation import CONFIRM
from core.log.outcome import Failure
from core.refusal import TYPING, CommandFailed, Refused
from tui.commandline import CommandLine
from tui.i18n import _, pgettext
from tui.plain import visible
from tui.viewpoint import Viewpoint

if TYPE_CHECKING:
    from core.game import Game
    from tui.screens.line_answers import LineAnswers
    from tui.screens.seat import SeatScreen


class Asker(Protocol):
    """The seat's command runner (``tui.screens.command_runner.CommandRunner``), as asking uses it."""

    screen: SeatScreen
    #: What the line said last; its ``last_refusal`` (words and rules) is what ``why`` explains.
    answers: LineAnswers

    @property
    def game(self) -> Game: ...

    @property
    def role(self) -> str: ...

    def is_verb(self, word: str) -> bool: ...
    def run(self, text: str) -> None: ...
    def line(self) -> CommandLine: ...


def asked(asker: Asker, verb: str, rest: str) -> bool:
    """Answer ``why``/``why N`` or ``? COMMAND`` typed on ``asker``'s line; False for any
    other line (and for a ruleset's own command of that name, which wins)."""
    from tui.lines import why  # the line client's words (imported when first asked)

    if verb == "?" and rest:
        title = _("Asked ahead: {command}").format(command=rest)
        _show(asker, lambda: why.ask(asker.game, asker.role, rest), title, f"? {rest}")
        return True
    if verb.casefold() in {"why", pgettext("command", "why").casefold()} and not asker.is_verb(verb):
        _show(asker, lambda: _why(asker, rest), _("Why"))
        return True
    return _confirmed(asker, f"{verb} {rest}".strip())


def started(asker: Asker, name: str) -> bool:
    """A command started from the palette or the picker that the seat gives whole: ``confirm``,
    whose one argument (the result's digest) is the seat's to add, never a form's; before the end
    it is given as it is, and refused saying why.  False for any other command."""
    if name != CONFIRM:
        return False
    if not _confirmed(asker, name):
        asker.run(name)
    return True


def _confirmed(asker: Asker, text: str) -> bool:
    """``confirm`` once the game has ended: given with the result's certificate digest added
    (``core.league.atseat``), or why not on the line; False for any other line."""
    from core.league.atseat import with_digest  # (the league's, at the end: not for the first frame)

    try:
        filled = with_digest(asker.game, text, asker.role, asker.screen.by)
    except Refused as e:
        asker.line().error(str(e))
        return True
    if filled == text:
        return False
    asker.run(filled)
    return True


def _why(asker: Asker, rest: str) -> list[str]:
    from tui.lines import why

    if rest:
        if not rest.isdigit():
            raise Refused(_("why N: N is the number of a step of the log, e.g. why 12"), rule=TYPING)
        return why.why_step(asker.game, asker.role, int(rest))
    if asker.answers.last_refusal is not None:
        return why.why_refused(asker.game, *asker.answers.last_refusal)
    return why.why_last_roll(asker.game, asker.role, Viewpoint(asker.game, asker.role).recent_rolls(1))


def _show(asker: Asker, words: Callable[[], list[str]], title: str, asked: str = "") -> None:
    """The lines in a panel (the first on the command line), or the refusal on the line; a
    command asked ahead is put back on the line as it was asked (``? COMMAND``, selected), to be
    asked again or mended, never armed: Enter on the command itself gave it (issue #91)."""
    from tui.screens.answer import AnswerScreen  # (asked for: not for the first frame)

    line = asker.line()
    try:
        said = words()
    except Refused as e:
        asker.answers.last_refusal = (str(e), e.rules)
        line.error(str(e))
        if asked:
            line.give_back(asked)
        return
    except CommandFailed as e:
        asker.answers.not_done(Failure(str(e)))
        return
    line.hint(Text(visible(said[0]), no_wrap=True, overflow="ellipsis"), "ok")
    if asked:
        line.give_back(asked)
    asker.screen.app.push_screen(AnswerScreen(title, said))
