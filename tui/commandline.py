"""The command line: completion as you type, history, and inline messages.

Completion comes from ``Game.complete(text, role)`` (commands, unit names,
options); Tab takes the longest common start of the candidates, Tab again
cycles through them, → accepts the greyed-in suggestion.  ↑/↓ walk the history.
A refused command's reason shows under the line in red, wrapped over as many rows
as it takes (up to a third of the screen): what the referee must type next is
often at its end (``defence=moving-open|…``).  Nothing else changes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping

from rich.console import Console
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.suggester import SuggestionReady
from textual.widget import Widget
from textual.widgets import Input
from textual.widgets.input import Selection

from core.language.i18n import CORE_DOMAIN, Domain
from core.ruleset import CommandSpec, Refused
from tui.i18n import N_, _
from tui.keymap import keys_of
from tui.plain import Plain, PlainInput, plain, visible
from tui.textual_internals import dismiss_suggestion, get_time, suggestion_shown

Completer = Callable[[str], list[str]]
#: Commands the ↑/↓ history holds (and tui.userdata remembers per save).
HISTORY_LINES = 1000
#: The share of the screen's rows a refusal may take under the line (at least two rows).
ANSWER_SHARE = 3


def fit_rows(text: Text, width: int, rows: int, console: Console) -> Text:
    """``text`` wrapped at ``width`` on at most ``rows`` rows, its last row ending in ``…``
    if it is cut there; each row ends in a line break of its own, so it shows as wrapped here."""
    lines = list(text.wrap(console, max(1, width)))
    if len(lines) > rows:
        lines = lines[:rows]
        last = lines[-1]
        last.rstrip()
        last.truncate(max(0, width - 1))
        last.append("…")
    return Text("\n").join(lines)


def replace_last_word(text: str, word: str) -> str:
    if text.endswith(" ") or not text:
        return text + word
    head, _sep, _word = text.rpartition(" ")
    return (head + " " if head else "") + word


def common_start(words: list[str]) -> str:
    return os.path.commonprefix(words) if words else ""


def current_word(text: str) -> str:
    return "" if text.endswith(" ") or not text else text.rpartition(" ")[2]


def suggestion(completer: Completer, value: str) -> str | None:
    """The line ``value`` with its word being typed completed by the first candidate (greyed in), if any."""
    if not value or value.endswith(" "):
        return None
    candidates = completer(value)
    if not candidates:
        return None
    done = replace_last_word(value, candidates[0])
    return done if done != value and done.lower().startswith(value.lower()) else None


class CommandInput(PlainInput):
    # Without colour the greyed-in suggestion would read as typed: it is underlined (#49).
    DEFAULT_CSS = """
    CommandInput:nocolor > .input--suggestion { text-style: underline; }
    """
    BINDINGS = [
        Binding("tab", "complete", N_("Complete"), show=False),
        Binding("up", "history(-1)", N_("Previous command"), show=False),
        Binding("down", "history(1)", N_("Next command"), show=False),
        # Esc puts the greyed suggestion away and keeps the focus here: it once went to the
        # log, and the next command typed went to the log's keys, its Enter to a line's Details (#61).
        Binding("escape", "dismiss", N_("Put the greyed suggestion away"), show=False),
        # Named in the footer from where a referee starts: at 80x24 the other side's
        # figures are below the roster's view, and this is how to reach them (#26).
        # Its id is the game screen's: the user's keymap rebinds both (tui.keymap).
        Binding("ctrl+s,f6", "screen.focus_pane('roster')", N_("Roster"), id="roster"),
    ]

    def __init__(self, completer: Completer, **kwargs) -> None:
        # No Textual Suggester: it works each suggestion out in a worker of its own, a coroutine
        # per key, which a seat closing before the worker starts left never awaited.  The
        # completer answers at once: the suggestion is worked out as the line changes, and
        # reaches the box as a Suggester's would (SuggestionReady, for the line it was made for).
        # Focused again (F8, a key typed in a pane), the line keeps what is typed unselected:
        # selected, the next key would take its place (#61).
        super().__init__(select_on_focus=False, **kwargs)
        self.completer = completer
        #: What Enter does with the line (``CommandLine`` sets it).
        self.on_enter: Callable[[str], None] | None = None
        self.history: list[str] = []
        self._history_pos = 0
        self._cycle: list[str] = []
        self._cycle_pos = 0
        #: A refused line given back, still whole and selected (``CommandLine.give_back``).
        self.given_back = False

    def watch_selection(self) -> None:
        if self.given_back and self.selection != Selection(0, len(self.value)):
            self.given_back = False

    def action_delete_left(self) -> None:
        # Backspace on a refused line given back mends it, as on any line: its last
        # character goes, not the whole selected line (a referee fixing "A11" lost it).
        if self.given_back:
            self.given_back = False
            self.selection = Selection.cursor(len(self.value))
        super().action_delete_left()

    def watch_value(self, value: str) -> None:
        done = suggestion(self.completer, value)
        if done is not None:
            self.post_message(SuggestionReady(value, done))

    async def action_submit(self) -> None:
        # The line empties as Enter is pressed, in order with the keys typed
        # after it; a refused command is given back (CommandLine.give_back).
        # The command runs here, inside Enter's own handling, not when a message
        # has travelled up to the screen: the screen draws nothing in between, so
        # the emptied line and what the command changed show in one frame.
        text = self.value
        if text.strip():
            self.value = ""
        if self.on_enter is not None:
            self.on_enter(text)

    @property
    def content_width(self) -> int:
        # Textual lays out the whole screen whenever an input's virtual width
        # changes, and that width is the text's: every keystroke, and the Enter
        # that clears the line, on a table where every seat redraws in one
        # process.  While the text fits the box, the box's width never changes.
        return max(super().content_width, self.scrollable_content_region.width)

    def action_complete(self) -> None:
        text = self.value
        if self._cycle and text == self._cycle[self._cycle_pos]:
            self._cycle_pos = (self._cycle_pos + 1) % len(self._cycle)
            self.value = self._cycle[self._cycle_pos]
            self.cursor_position = len(self.value)
            return
        candidates = self.completer(text)
        self._cycle = []
        if not candidates:
            self.app.bell()
            return
        if len(candidates) == 1:
            done = replace_last_word(text, candidates[0])
            self.value = done if done.endswith("=") else done + " "
        else:
            start = common_start([c.lower() for c in candidates])
            if len(start) > len(current_word(text)):
                self.value = replace_last_word(text, candidates[0][: len(start)])
            else:
                self._cycle = [replace_last_word(text, c) for c in candidates]
                self._cycle_pos = 0
                self.value = self._cycle[0]
        self.cursor_position = len(self.value)

    def paste_refused(self, why: str) -> None:
        line = next((a for a in self.ancestors if isinstance(a, CommandLine)), None)
        if line is None:
            super().paste_refused(why)
        else:  # under the line, where a refused command says why
            line.error(why)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "dismiss":  # with no suggestion, Esc goes on to the screen's (a replay's, a dialog's)
            return bool(suggestion_shown(self))
        return True

    def action_dismiss(self) -> None:
        dismiss_suggestion(self)

    def action_history(self, delta: int) -> None:
        if not self.history:
            return
        self._history_pos = max(0, min(len(self.history), self._history_pos + delta))
        self.value = self.history[self._history_pos] if self._history_pos < len(self.history) else ""
        self.cursor_position = len(self.value)

    def recall(self, lines: list[str]) -> None:
        """Start with the history remembered from earlier runs (oldest first)."""
        self.history = list(lines)
        self._history_pos = len(self.history)

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
            del self.history[:-HISTORY_LINES]
        self._history_pos = len(self.history)
        self._cycle = []


class CommandLine(Widget):
    DEFAULT_CSS = """
    CommandLine {
        width: 1fr; height: auto; overflow: hidden hidden;
        layout: grid; grid-size: 2; grid-columns: auto 1fr; grid-rows: 1 auto;
    }
    CommandLine #cmd-prompt { width: auto; padding: 0 1 0 0; text-style: bold; }
    CommandLine #cmd-input { border: none; height: 1; padding: 0; }
    CommandLine #cmd-hint {
        height: 1; column-span: 2; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis;
    }
    CommandLine #cmd-hint.-error { color: $error; text-style: bold; }
    CommandLine #cmd-hint.-ok { color: $success; }
    """

    def __init__(
        self,
        prompt: str,
        completer: Completer,
        specs: Callable[[], list[CommandSpec]],
        run: Callable[[str], None],
        *,
        blink: bool = True,
        domain: str = CORE_DOMAIN,
        names: Callable[[], Mapping[str, str]] | None = None,
        readings: frozenset[str] = frozenset(),
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        #: The names of the units the role sees and of the sides, by id: a candidate id is said with its name.
        self.names = names
        #: The ruleset's catalogue, for its commands' help.
        self.words = Domain(domain)
        self.domain = domain
        self.prompt = prompt
        self.completer = completer
        self.specs = specs
        #: The client's own words that read the game and give nothing (``why``, ``?``, ``rule?``),
        #: casefolded: no command of the ruleset, and no typing error either.
        self.readings = readings
        #: Runs a command given on the line (at once, as Enter is handled).
        self.run = run
        self.blink = blink
        #: When the last command was given (``get_time``): what the line said before it is not shown over its verdict.
        self._entered_at = 0.0
        #: The last answer the line gave (✓ or ✗, and its kind): an emptied line shows it again.
        self._answer: tuple[str | Text, str] = ("", "")
        #: Whether the hint shows the guide of what is typed (not an answer).
        self._guiding = False
        #: What the hint shows, as given, and the rows it takes.
        self._shown: tuple[str | Text, str] = ("", "")
        self._rows = 1

    def compose(self) -> ComposeResult:
        # A grid, not a row container in a column: the prompt and the box on the first row,
        # the hint across the second (a widget less to mount, style and draw at every start).
        yield Plain(f"{self.prompt} ›", id="cmd-prompt")
        box = CommandInput(self.completer, id="cmd-input", placeholder=self._placeholder())
        box.cursor_blink = self.blink
        box.on_enter = self._entered
        yield box
        yield Plain("", id="cmd-hint")

    def _placeholder(self) -> str:
        return _("type a command (Tab completes, {keys} help)").format(keys=keys_of(self, "help"))

    def retranslate(self) -> None:
        """The reader's language changed."""
        self.input.placeholder = self._placeholder()
        if self.input.value.strip():
            self.hint(self.guide(self.input.value))
            self._guiding = True

    @property
    def input(self) -> CommandInput:
        return self.query_one(CommandInput)

    def set_prompt(self, prompt: str) -> None:
        self.prompt = prompt
        self.query_one("#cmd-prompt", Plain).update(f"{prompt} ›")

    def hint(self, text: str | Text, kind: str = "") -> None:
        """Say ``text`` under the line: a refusal (``kind`` "error") whole, wrapped; anything
        else (the guide of what is typed, a ✓) on one row, ending in ``…`` where it is cut."""
        hint = self.query_one("#cmd-hint", Plain)
        shown = plain(text) if isinstance(text, str) else text
        rows = 1  # anything but a refusal: cut with … at the row's end (the hint's style)
        if kind == "error":
            width = self.size.width or self.app.size.width
            most = max(2, self.app.size.height // ANSWER_SHARE)
            rows = len(Content.from_rich_text(shown).wrap(width))  # wrapped as the hint wraps it
            if rows > most:  # cut on its last row, which says so
                shown, rows = fit_rows(shown, width, most, self.app.console), most
        # One row high, as most are, the hint's new words need no layout of the screen.
        grown = rows != self._rows
        if grown:
            self._rows = rows
            hint.styles.height = rows
            hint.styles.text_wrap = "wrap" if rows > 1 else "nowrap"
            hint.styles.text_overflow = "fold" if rows > 1 else "ellipsis"  # a long word folds, as counted
        hint.update(shown, layout=grown)
        hint.set_class(kind == "error", "-error")
        hint.set_class(kind == "ok", "-ok")
        self._guiding = False
        self._shown = (text, kind)
        if kind:
            self._answer = (text, kind)

    def forget(self, answer: str | Text) -> None:
        """``answer`` is about a command taken back since: it goes, if the line still says it (#61)."""
        if self._answer[0] is answer:
            self._answer = ("", "")
        if self._shown[0] is answer:
            self.hint("")

    def last_answer(self) -> str:
        """The last answer (✓ or ✗) whole, as plain text: a ✓ keeps to one row, cut with ``…``,
        and a refusal past a third of the screen too; F9 opens it whole (#48)."""
        text = self._answer[0]
        return text.plain if isinstance(text, Text) else text

    def on_resize(self) -> None:
        if self._rows > 1 or self._shown[1] == "error":  # a refusal wraps again at the new width
            self.hint(*self._shown)

    def error(self, message: str) -> None:
        self.hint(f"✗ {message}", "error")

    def failed(self, message: str) -> None:
        """A command that failed on an error of the program: said apart from a refusal."""
        self.hint(f"⚠ {message}", "error")

    def give_back(self, text: str) -> None:
        """Put a command that did not go through back on the line to be mended, unless something was typed since.

        It comes back selected: the next key typed starts a new command in its
        place (a referee who reads the refusal only after typing on would else
        add his next command to the refused one); an arrow key keeps it to mend."""
        box = self.input
        if not box.value:
            with box.prevent(Input.Changed):  # the hint keeps saying why
                box.value = text
            box.selection = Selection(0, len(text))
            box.given_back = True

    def insert_unit(self, unit_id: str) -> bool:
        """Put a figure's id on the line where the command being typed takes a figure.

        The id takes the place of the word being typed (a start of a name, or
        ``target=``) or goes after the last whole word; anywhere else (an empty
        line, a number, a keyword value that is not a figure) the line stays as
        it is and says so.
        """
        box = self.input
        text = box.value
        word = current_word(text)
        if word and word in self.completer(text):  # a whole word already: the id goes after it
            text, word = text + " ", ""
        head = text[: len(text) - len(word)]
        key = word.partition("=")[0] + "=" if "=" in word else ""
        line = head + key + unit_id
        if not text.strip() or key + unit_id not in self.completer(line):
            self.error(
                _("{unit} does not go here: the command being typed takes no figure at this point").format(unit=unit_id)
            )
            box.focus()
            return False
        box.value = line + " "
        box.cursor_position = len(box.value)
        box.focus()
        return True

    @on(Input.Changed, "#cmd-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.time <= self._entered_at:
            # Typed before Enter but handled after it (keys sent in a burst): the
            # command ran as Enter was handled, and its ✓ or ✗ stays.
            return
        if event.value.strip():
            self.hint(self.guide(event.value))
            self._guiding = True
        elif self._guiding:
            # An emptied line says the last answer (✓ or ✗) again, not the candidates
            # and usage of the words just erased.
            self.hint(*self._answer)

    def guide(self, text: str) -> Text:
        """Usage of the command being typed and the candidates for the current word."""
        out = Text()
        if not text.strip():
            return out
        # The first key typed imports the command language, not the client's start.
        from core.commands import check_line, find_verb, meanings, split, usage

        try:
            check_line(text)  # said while typing: too long, or a character no command may hold
        except Refused as e:
            return plain(str(e), "yellow")
        try:
            words = split(text)
        except Refused:
            words = text.split()
        verb_done = len(words) > 1 or text.endswith(" ")
        spec = None
        if verb_done and words:
            try:
                spec = find_verb(words[0], self.specs())
            except Refused as e:
                if words[0].casefold() in self.readings:
                    return out  # a reading word of the client's: nothing to guide, nothing wrong
                return plain(str(e), "yellow")
        # The candidates come first: the line is one row, and a long usage
        # after them may be cut where candidates after it would be lost.
        candidates = self.completer(text)
        if spec is None and len(words) == 1 and words[0] in candidates:
            # A command's whole name, no space after it yet (as Tab walks through the
            # commands on an empty line): what it takes is said already, its usage
            # alone when no other command begins with it (the usage begins with it).
            with contextlib.suppress(Refused):
                spec = find_verb(words[0], self.specs())
                if candidates == words:
                    candidates = []
        coded = meanings(spec, self.domain) if spec is not None else {}
        if any(c.rpartition("=")[2] in coded for c in candidates):
            # A code is said with what it means (A1 bound and prepare an attack …).
            for n, c in enumerate(candidates[:12]):
                out.append(" · " if n else "", style="dim")
                out.append(visible(c), style="cyan")
                out.append(visible(f" {coded.get(c.rpartition('=')[2], '')}".rstrip()), style="dim")
        elif candidates:
            shown = candidates[:12]
            named = self.names() if self.names is not None else {}
            with_names = Text()
            if any(named.get(c.rpartition("=")[2], c.rpartition("=")[2]) != c.rpartition("=")[2] for c in shown):
                # A figure or a side is typed by its id, and said with its name (s1 Sherman Baker 1 ·
                # …; irregulars Somali militia: the panes say only the name).
                for n, c in enumerate(shown):
                    with_names.append(" · " if n else "", style="dim")
                    with_names.append(visible(c), style="cyan")
                    name = named.get(c.rpartition("=")[2], "")
                    if name and name != c.rpartition("=")[2]:
                        with_names.append(visible(f" {name}"), style="dim")
            # The names go with the ids where the row holds them all; else every id is
            # seen first (the line is one row, cut at its edge; the usage follows if room).
            if with_names and (self.size.width <= 0 or with_names.cell_len < self.size.width):
                out.append_text(with_names)
            else:
                out.append(visible("  ".join(shown)), style="cyan")
            if len(candidates) > len(shown):
                out.append(" " + _("… {count} more").format(count=len(candidates) - len(shown)), style="dim")
        if spec is not None:
            if out:
                out.append("   ")
            out.append(usage(spec), style="bold")
            out.append(f"  {self.words.gettext(spec.help)}" if spec.help else "  ", style="dim")
        return out

    def _entered(self, line: str) -> None:
        text = line.strip()
        self._entered_at = get_time()
        if text:
            self.input.remember(text)
            self.run(text)
