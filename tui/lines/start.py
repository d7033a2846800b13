"""``fireteam --plain`` with no save: the start, as lines (the Textual client's start screen and
new game screen, for a screen reader and a script alike).

It lists the last games (``tui.gamestart.last_games``: those of the current folder's
``saves/``, of the data folder's, and those the command histories name), the most recent
first, each in one sentence, and says "No games yet" only when there are none.  A line
answers it:

* a game's number plays it, ``replay N`` reads it (nothing written), ``open FILE`` opens a save;
* ``new`` lists every ruleset (and variant), a number chooses one; then its scenarios (the
  ruleset's own, then the user's scenario files), and a number starts a new game of it in
  the saves folder, as the new game screen does (``tui.gamestart.start_game``);
* ``demo`` starts the Breaking News demo game; ``list`` says the list again; ``quit`` (or the
  end of the input) leaves.

Each word is said, and taken, in the reader's language (``nuova``, ``apri FILE``, ``rileggi N``
in Italian), and in English whatever the language.

:class:`StartMenu` is fed a line at a time and answers through a writer, as the line client
is: the front that reads the lines (``tui.lines.terminal``) is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from core.errorlog import details_in
from core.game import Game
from core.log.narrate import result_of
from core.refusal import CommandFailed
from core.registry import available, get_ruleset
from core.ruleset import Refused
from core.secrets.sidecopy import open_to_read
from core.storage.errors import SaveError
from tui.gamestart import default_name, last_games, scenario_choices, start_game
from tui.i18n import _, pgettext, phase_name, scenario_words
from tui.lines.answers import sentence, stopped
from tui.lines.words import folded, own_words
from tui.opening import new_demo_game
from tui.userdata import UserStore

#: Games the start lists (the newest first): enough to find last night's, few enough to hear.
LISTED = 10

Writer = Callable[[str], None]


def start_words() -> dict[str, str]:
    """The start's words by their English names, each as the reader types it (``nuova`` in Italian);
    the English word is taken too, whatever the language."""
    return {
        "new": pgettext("start", "new"),
        "demo": pgettext("start", "demo"),
        "open": pgettext("start", "open"),
        "list": pgettext("start", "list"),
        "replay": pgettext("start", "replay"),
        "quit": own_words()["quit"],
    }


def _word(typed: str) -> str:
    """The start's word ``typed`` is (its English name), folded; else what was typed, folded."""
    word = folded(typed)
    if word == "exit":
        return "quit"
    return next((key for key, said in start_words().items() if word in (key, folded(said))), word)


class Chosen(NamedTuple):
    """What the start came to: a game made here, or a save to open (read-only when ``replay``)."""

    game: Game | None = None
    path: Path | None = None
    replay: bool = False


def summary(path: Path) -> str:
    """A save in one sentence: its name, ruleset, scenario, where it stands (its result if it ended)."""
    try:
        game = open_to_read(path)
    except (SaveError, OSError) as e:
        return _("{name}: cannot be read ({error})").format(name=path.name, error=getattr(e, "strerror", None) or e)
    try:
        state = game.state
        if state.result:
            where = _("ended: {result}").format(result=result_of(state, game.ruleset.domain, brief=True))
        else:
            phase = game.ruleset.phase(state.phase)
            named = phase_name(game.ruleset, phase) if phase else state.phase
            if state.turn:
                where = _("turn {turn}, {phase}").format(turn=state.turn, phase=named)
            else:
                where = _("before play, {phase}").format(phase=named)
        return _("{name}: {ruleset}, {scenario}, {where}").format(
            name=path.name,
            ruleset=game.ruleset.title(versioned=False),
            scenario=scenario_words(state.scenario) or _("no scenario"),
            where=where,
        )
    finally:
        game.close()


class StartMenu:
    """The start as lines (see the module's doc)."""

    def __init__(self, store: UserStore, saves: Path, write: Writer) -> None:
        self.saves = saves
        self._write = write
        #: Where an error of the program is logged (``core.errorlog``), said after it.
        self.error_log = store.error_log
        self.games = last_games(store, saves)[:LISTED]
        #: The rulesets (id, variant) listed by ``new``, while one is to be chosen.
        self._rulesets: list[tuple[str, str]] = []
        #: The chosen ruleset and its scenarios (title, value), while one is to be chosen.
        self._scenarios: tuple[str, str, list[tuple[str, str]]] | None = None
        self.done = False
        #: How many lines were refused (an answer says whether it was one).
        self.refusals = 0

    @property
    def prompt(self) -> str:
        if self._scenarios is not None:
            return _("scenario number> ")
        if self._rulesets:
            return _("ruleset number> ")
        return _("start> ")

    def _say(self, *lines: str) -> None:
        self._write("".join(stopped(line) + "\n" for line in lines))

    def start(self) -> None:
        said = _("Fireteam, in plain lines. Choose a game: type its number, or {new}, {demo}, {open} FILE, {quit}.")
        self._say(said.format(**start_words()))
        self._list()

    def _list(self) -> None:
        words = start_words()
        if not self.games:
            self._say(
                _(
                    "No games yet: {new} starts one of any ruleset, {demo} the demo game, {open} FILE opens a save"
                ).format(**words)
            )
            return
        self._say(_("The last games, the most recent first:"))
        self._say(*(f"{n}. {summary(path)}" for n, path in enumerate(self.games, start=1)))
        said = _("A number plays that game; {replay} N reads it without writing; {new} starts another")
        self._say(said.format(**words))

    def feed(self, line: str) -> Chosen | None:
        """Take one line; what it chose, when it chose a game."""
        text = line.strip()
        word, _sep, rest = text.partition(" ")
        word = _word(word)
        leaving = word == "quit"
        if self._rulesets or self._scenarios is not None:
            if not text or leaving:  # back to the games
                self._rulesets, self._scenarios = [], None
                self._list()
                return None
        elif leaving:
            self.done = True
            return None
        if not text:
            return None
        try:
            if self._scenarios is not None:
                return self._scenario(text)
            if self._rulesets:
                self._ruleset(text)
                return None
            if text.isdigit():
                return Chosen(path=self._game(text))
            if word == "replay" and rest.strip().isdigit():
                return Chosen(path=self._game(rest.strip()), replay=True)
            if word == "open" and rest.strip():
                return Chosen(path=Path(rest.strip()).expanduser())
            if word == "new":
                self._new()
            elif word == "demo":
                return Chosen(game=new_demo_game(self.saves))
            elif word == "list":
                self._list()
            else:
                raise Refused(
                    _("type a game's number, {replay} N, {new}, {demo}, {open} FILE, {list} or {quit}").format(
                        **start_words()
                    )
                )
        except Refused as e:
            self.refuse(str(e))
        except (SaveError, OSError) as e:
            self.refuse(str(getattr(e, "strerror", None) or e))
        except CommandFailed as e:  # a new game's set-up failed on a bug: logged with its traceback
            self.refusals += 1
            self._say(_("Error:") + " " + str(e), sentence(details_in(self.error_log)))
        return None

    def refuse(self, why: str) -> None:
        self.refusals += 1
        self._say(_("Refused:") + " " + why)

    def _game(self, number: str) -> Path:
        n = int(number)
        if not 1 <= n <= len(self.games):
            if not self.games:
                raise Refused(_("there are no games yet: {new} starts one").format(**start_words()))
            raise Refused(_("no game {n}: the games are numbered 1 to {last}").format(n=n, last=len(self.games)))
        return self.games[n - 1]

    def _new(self) -> None:
        self._rulesets = []
        for rid in available():
            for variant in get_ruleset(rid).variants:
                self._rulesets.append((rid, variant))
        said = []
        for n, (rid, variant) in enumerate(self._rulesets, start=1):
            said.append(f"{n}. {get_ruleset(rid, variant).title()}")
        self._say(_("The rulesets (an empty line or {quit} goes back):").format(**start_words()), *said)

    def _chosen_number(self, text: str, count: int) -> int:
        if not text.isdigit() or not 1 <= int(text) <= count:
            raise Refused(_("type a number from 1 to {last}").format(last=count))
        return int(text) - 1

    def _ruleset(self, text: str) -> None:
        rid, variant = self._rulesets[self._chosen_number(text, len(self._rulesets))]
        self._rulesets = []
        choices = scenario_choices(get_ruleset(rid, variant))
        if not choices:
            raise Refused(_("this ruleset has no scenario to start"))
        self._scenarios = (rid, variant, choices)
        self._say(
            _("The scenarios of {ruleset}:").format(ruleset=get_ruleset(rid, variant).shown_name()),
            *(f"{n}. {title}" for n, (title, _value) in enumerate(choices, start=1)),
        )

    def _scenario(self, text: str) -> Chosen | None:
        assert self._scenarios is not None
        rid, variant, choices = self._scenarios
        _title, value = choices[self._chosen_number(text, len(choices))]
        self._scenarios = None
        path = self.saves / default_name(rid, value)
        game = start_game(path, rid, variant, value, seed=None)
        self._say(_("A new game of {scenario}, saved in {save}").format(scenario=_title, save=path))
        return Chosen(game=game)
