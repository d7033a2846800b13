"""The game screen's ``why`` and ``? COMMAND`` (issue #76): asked on its command line, said
in a notice, nothing given; the words are the line client's (``tui.lines.why``).  And
``confirm`` once the game has ended (issue #74), given with the result's digest added."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

from core.explain import rulesask
from core.game.confirmation import CONFIRM
from core.league.atseat import with_digest
from core.log.outcome import Failure
from core.refusal import TYPING, CommandFailed, Refused
from tui.commandline import CommandLine
from tui.i18n import _, pgettext
from tui.plain import visible
from tui.viewpoint import Viewpoint

if TYPE_CHECKING:
    from core.game import Game


class AskingScreen(Protocol):
    """The screen a line is asked on (``tui.screens.game.GameScreen``), as asking uses it."""

    game: Game
    role: str
    #: Who gives its lines (a served seat's name; the role itself at a single table).
    by: str
    #: The last refusal's words and rules: what ``why`` explains.
    last_refusal: tuple[str, tuple[str, ...]] | None

    def _is_verb(self, word: str) -> bool: ...
    def _not_done(self, result: Failure) -> None: ...
    def run_command(self, text: str) -> None: ...
    def query_one(self, selector: type[CommandLine]) -> CommandLine: ...
    def notify(self, message: str, *, title: str = "", timeout: float | None = None, markup: bool = True) -> None: ...


def reading_words() -> frozenset[str]:
    """The client's words that read the game and give nothing, in English and the reader's
    language, casefolded: what the command line guides as no typing error."""
    words = ("?", "why", "help", "odds", rulesask.WORD)
    return frozenset(w.casefold() for word in words for w in (word, pgettext("command", word)))


def asked(screen: AskingScreen, verb: str, rest: str) -> bool:
    """Answer ``why``/``why N`` or ``? COMMAND`` typed on ``screen``'s line; False for any
    other line (and for a ruleset's own command of that name, which wins)."""
    from tui.lines import why  # the line client's words (imported when first asked)

    if verb == "?" and rest:
        _show(screen, lambda: why.ask(screen.game, screen.role, rest), _("Asked ahead"), rest)
        return True
    if verb.casefold() in {"why", pgettext("command", "why").casefold()} and not screen._is_verb(verb):
        _show(screen, lambda: _why(screen, rest), _("Why"))
        return True
    return _confirmed(screen, f"{verb} {rest}".strip())


def started(screen: AskingScreen, name: str) -> bool:
    """A command started from the palette or the picker that the seat gives whole: ``confirm``,
    whose one argument (the result's digest) is the seat's to add, never a form's; before the end
    it is given as it is, and refused saying why.  False for any other command."""
    if name != CONFIRM:
        return False
    if not _confirmed(screen, name):
        screen.run_command(name)
    return True


def _confirmed(screen: AskingScreen, text: str) -> bool:
    """``confirm`` once the game has ended: given with the result's certificate digest added
    (``core.league.atseat``), or why not on the line; False for any other line."""
    try:
        filled = with_digest(screen.game, text, screen.role, screen.by)
    except Refused as e:
        screen.query_one(CommandLine).error(str(e))
        return True
    if filled == text:
        return False
    screen.run_command(filled)
    return True


def _why(screen: AskingScreen, rest: str) -> list[str]:
    from tui.lines import why

    if rest:
        if not rest.isdigit():
            raise Refused(_("why N: N is the number of a step of the log, e.g. why 12"), rule=TYPING)
        return why.why_step(screen.game, screen.role, int(rest))
    if screen.last_refusal is not None:
        return why.why_refused(screen.game, *screen.last_refusal)
    return why.why_last_roll(screen.game, screen.role, Viewpoint(screen.game, screen.role).recent_rolls(1))


def _show(screen: AskingScreen, words: Callable[[], list[str]], title: str, command: str = "") -> None:
    """The lines in a notice (the first on the command line), or the refusal on the line;
    a command asked ahead is put back on the line, to be given with Enter or mended."""
    line = screen.query_one(CommandLine)
    try:
        said = words()
    except Refused as e:
        screen.last_refusal = (str(e), e.rules)
        line.error(str(e))
        if command:
            line.give_back(command)
        return
    except CommandFailed as e:
        screen._not_done(Failure(str(e)))
        return
    line.hint(Text(visible(said[0]), no_wrap=True, overflow="ellipsis"), "ok")
    screen.notify("\n".join(said), title=title, timeout=30, markup=False)
    if command:
        line.give_back(command)
