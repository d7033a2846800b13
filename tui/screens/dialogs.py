"""Small dialogs: confirm (a box on the game screen), and modal screens to ask for a line,
ask for physical dice, answer a command's question, show an event's details, say a save is in use."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

import msgspec
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import ModalScreen
from textual.widgets import Input
from textual.widgets.input import Selection

from core.dice.faces import DiceRequest, face_read, parse_faces
from core.game import LogLine
from core.language.i18n import CORE_DOMAIN, Domain, Msg, Names, naming, render, side_name
from core.log import events as ev
from core.log.narrate import describe_mod, whose
from core.log.questions import Question
from tui import odds
from tui.i18n import N_, _, ngettext
from tui.keymap import keys_of
from tui.logindex import event_kind
from tui.plain import Plain, PlainInput, PlainLabel, visible
from tui.textual_internals import hide_overlay

#: A dialog framed, and its boxes, in box-drawing lines: Textual's ``thick`` and ``tall`` borders are
#: block elements (``█▀▄``, ``▊▔▁▎``), which a browser seat's terminal (xterm.js drawing them with the
#: font) showed as stray pieces between rows at a phone's font size (#61).  A refusal's line is red
#: words only: the empty line kept for it was a red band (Textual's ``error`` label has a background).
DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 72; max-width: 100%; height: auto; max-height: 90%;
    border: heavy $primary; background: $surface; padding: 0 1;
}}
{name} .title {{ text-style: bold; width: 100%; }}
{name} .error {{ color: $error; background: transparent; width: 100%; }}
{name} Input {{ margin: 1 0 0 0; border: round $border-blurred; }}
{name} Input:focus {{ border: round $border; }}
"""


_R = TypeVar("_R")


class Dialog(ModalScreen[_R]):
    """A dialog over the screen: its ``cancel`` and ``close`` actions dismiss it with no answer."""

    def action_cancel(self) -> None:
        self.dismiss(None)

    action_close = action_cancel


class PageDialog(Dialog[_R]):
    """A dialog of a page under a search box: the arrows and pages, of no use to the box, scroll the page."""

    BINDINGS = [
        Binding("up", "scroll('scroll_up')", show=False),
        Binding("down", "scroll('scroll_down')", show=False),
        Binding("pageup", "scroll('scroll_page_up')", show=False),
        Binding("pagedown", "scroll('scroll_page_down')", show=False),
    ]

    def action_scroll(self, method: str) -> None:
        getattr(self.query_one(VerticalScroll), method)(animate=False)


def _steady_size() -> Reactive[Size]:
    """``virtual_size`` for a widget that never scrolls, set by the screen as it lays the widget out.

    Textual's asks for a second layout whenever it changes: a box shown with a
    question longer or shorter than the last one was laid out, drawn, then laid
    out and drawn again, the same, a frame later (Textual draws a second frame
    at its next 60 Hz tick).  Nothing of a box that does not scroll depends on
    it: the first layout already gave every line its place.
    """
    return Reactive(Size(0, 0), layout=False, repaint=False)


class _BoxTitle(PlainLabel):
    virtual_size = _steady_size()


class _BoxLine(Plain):
    virtual_size = _steady_size()


class ConfirmBox(Vertical):
    """A yes/no question over the bottom of the game screen; Enter or y (the reader's letter too, Italian s)
    says yes, Esc or n says no.

    A box on the screen's top layer rather than a modal screen: a modal screen
    drew the whole game screen again, dimmed, in each of its frames, and again
    as it closed; the box repaints the rows it covers.  The keyboard focus
    stays where it was (moving it repaints the whole screen): the app gives
    the box every key first (``FireteamApp.on_event``, through
    ``GameScreen.confirm_key``), and any other key, a paste or a click drops
    the question (nothing is done) before it does what it does.
    """

    DEFAULT_CSS = """
    ConfirmBox {
        display: none; layer: dialog; dock: bottom; height: auto; max-height: 90%;
        border: heavy $primary; background: $surface; padding: 0 1;
    }
    ConfirmBox .title { text-style: bold; width: 100%; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.question = ""
        self.detail = ""
        #: Run on yes while the box is still up, so the screen is next drawn already changed.
        self.on_yes: Callable[[], None] | None = None

    #: Shown in one frame: see ``_steady_size``.
    virtual_size = _steady_size()

    def compose(self) -> ComposeResult:
        yield _BoxTitle(self.question, classes="title")
        yield _BoxLine(self.detail, id="confirm-detail")
        yield _BoxLine(Text(_("Enter/y: yes   Esc/n: no"), style="dim"))

    @property
    def asking(self) -> bool:
        return self.on_yes is not None

    def ask(self, question: str, detail: str, *, on_yes: Callable[[], None]) -> None:
        self.question, self.detail, self.on_yes = question, detail, on_yes
        if self.children:  # else it is composed with them (mounted just now: a key pressed as the client started)
            self.query_one(".title", PlainLabel).update(question)
            self.query_one("#confirm-detail", Plain).update(detail)
        self.display = True

    def answer(self, yes: bool) -> None:
        on_yes, self.on_yes = self.on_yes, None
        if on_yes is None:
            return
        if yes:
            on_yes()
        # Nothing else moves as the box goes (it is alone on its layer): the screen is not laid out again.
        hide_overlay(self)


class LockedScreen(ModalScreen[bool]):
    """Another process writes the save: open it read-only (following that game), or cancel."""

    DEFAULT_CSS = DIALOG_CSS.format(name="LockedScreen")
    BINDINGS = [
        Binding("enter,r", "answer(True)", N_("Open read-only")),
        Binding("escape,c", "answer(False)", N_("Cancel")),
    ]

    def __init__(self, path: str, who: str) -> None:
        super().__init__()
        self.path = path
        self.who = who

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(_("This save is being written by another Fireteam"), classes="title")
            yield Plain(_("{path}\nheld by {who}").format(path=self.path, who=self.who))
            yield Plain(_("A save has one writer at a time: you can watch this game as it is played."))
            yield Plain(Text(_("Enter/r: open read-only (follows the live game)   Esc/c: cancel"), style="dim"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class AskScreen(Dialog[str | None]):
    """Ask for one line of text; Esc cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AskScreen")
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: str, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(self.question, classes="title")
            yield PlainInput(value=self.value, placeholder=self.placeholder)

    @on(Input.Submitted)
    def _done(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


def _faces(n: int) -> str:
    return ngettext("{n} face", "{n} faces", n).format(n=n)


#: The faces the dice prompt's example gives, in turn, as many as the dice asked for.
EXAMPLE_FACES = (6, 4, 3, 1, 5, 2)


def example_faces(count: int, sides: int) -> str:
    """An answer of ``count`` faces of dice of ``sides`` (``6 4 3 1`` for 4d6): the prompt's
    example typed as it asks (it gave three faces for four dice)."""
    return " ".join(str(min(EXAMPLE_FACES[i % len(EXAMPLE_FACES)], sides)) for i in range(max(count, 1)))


class DicePrompt(Dialog[list[int] | None]):
    """Physical dice: ask for exactly the faces ``NeedDice`` named, saying whose roll
    it is, what for, what it needs and its chance, briefly, as the plain seat asks
    (``tui.lines.answers.table_dice``, the same words of ``DiceRequest``); the command's
    order of dice on the help key, as ``help`` at the plain seat's prompt (issue #61)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="DicePrompt")
    # The help key (the user's keymap may move it, by its id): the box has nothing else to help with.
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel the command")),
        Binding("ctrl+f,f1", "order", N_("The command's dice in order"), id="help"),
    ]

    def __init__(
        self,
        request: DiceRequest,
        command: str,
        typed: list[int],
        domain: str = CORE_DOMAIN,
        owner: str = "",
        *,
        answering: bool = False,
    ) -> None:
        super().__init__()
        #: The name of the side whose player holds these dice, when it is not this seat's.
        self.owner = owner
        #: Asked for another side's command (a defender's save): the roll it answers is said first,
        #: as the plain seat says it ("1 hit, Pte Conti.": the shooter, his weapon's hits; issue #77).
        self.answering = answering
        #: The ruleset's catalogue, for the command's dice phrases.
        self.words = Domain(domain)
        self.request = request
        self.count = request.missing or request.count
        self.sides = request.sides
        self.command = command
        self.typed = typed

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(self.request.text(), classes="title")
            if self.answering:
                from tui.lines.answers import answering  # the plain seat's words (no Textual there)

                answered = answering(self.request).strip()
                if self.request.answered_for:  # the box has room to say what hit him whole
                    # TRANSLATORS: in a defender's dice box, what hit him:
                    # "1 hit: Sgt Rossi's fire with Assault rifle aimed at Aden Farah, 40 cm"
                    roll = render(self.request.answered_for, self.request.domain)
                    answered = _("{outcome}: {roll}").format(
                        outcome=render(self.request.answers, self.request.domain),
                        roll=whose(self.request.answered_by, roll) if self.request.answered_by else roll,
                    )
                if answered:
                    yield Plain(Text(visible(answered), style="bold"), id="dice-answers")
            if self.owner:  # another side's roll (the defender's save): his player has the dice
                # TRANSLATORS: in the table dice's prompt, for a roll of another side than the seat's.
                said = _("{side}: their player rolls these dice and calls out the faces").format(side=self.owner)
                yield Plain(Text(visible(said), style="bold"), id="dice-owner")
            chance = self.request.chance_text()
            if chance:
                yield Plain(
                    Text(visible(_("chance before the roll: {chance}").format(chance=chance))), id="dice-chance"
                )
            meanings = self.request.meanings_text()
            if meanings:
                said = _("what the faces mean: {meanings}").format(meanings=meanings)
                yield Plain(Text(visible(said)), id="dice-meanings")
            yield Plain(Text(visible(_("command: {command}").format(command=self.command)), style="dim"))
            if self.typed:
                yield Plain(Text(_("typed so far: {faces}").format(faces=" ".join(map(str, self.typed))), style="dim"))
            yield PlainInput(
                placeholder=_("{faces}, 1 to {sides}, e.g. {example}").format(
                    faces=_faces(self.count), sides=self.sides, example=example_faces(self.count, self.sides)
                )
            )
            yield PlainLabel("", classes="error", id="dice-error")
            if self.request.order:
                yield Plain(Text(self._order_hint(shown=False), style="dim"), id="dice-order-hint")
                order = Plain(self._order(), id="dice-order")
                order.display = False
                yield order

    def _order_hint(self, *, shown: bool) -> str:
        key = keys_of(self, "help", first=True)
        if shown:
            # TRANSLATORS: under the table dice's prompt, once the command's dice are listed.
            return _("{key}: hide the command's dice").format(key=key)
        # TRANSLATORS: under the table dice's prompt: the key that lists the command's dice in order.
        return _("{key}: the command's dice in order").format(key=key)

    def action_order(self) -> None:
        """Show the command's dice in order, or hide them again; the faces typed stay."""
        if not self.request.order:  # a command that declares none (an older peer's request)
            return
        order = self.query_one("#dice-order", Plain)
        order.display = not order.display
        self.query_one("#dice-order-hint", Plain).update(Text(self._order_hint(shown=order.display), style="dim"))

    def _order(self) -> Group:
        """The command's dice in order, the step rolled now marked by a ▸ and said in the
        heading (not by its brightness alone), the others dim; a step too long for a line
        goes on under its own words, its number and the mark standing out on the left."""
        order = self.request.order
        at = self.request.current() if len(order) > 1 else None  # one step: no place to lose
        if at is None:  # one step, or a request that does not say its step (an older peer's)
            heading = Text(_("its dice, in order:"), style="dim")
        else:
            # TRANSLATORS: the heading of a command's dice, in the table dice's prompt.
            said = _("its dice, in order; now step {n} of {total}:").format(n=at + 1, total=len(order))
            heading = Text(said, style="bold")
        steps = Table.grid()
        steps.add_column(no_wrap=True)
        steps.add_column()
        for i, step in enumerate(order):
            mark = "" if at is None else "▸ " if i == at else "  "
            style = "bold" if i == at else "dim"
            steps.add_row(Text(f"{mark}{i + 1}. ", style=style), Text(visible(self.words.gettext(step)), style=style))
        return Group(heading, steps)

    @on(Input.Submitted)
    def _done(self, event: Input.Submitted) -> None:
        try:
            faces = parse_faces(event.value, self.count)
        except ValueError as e:
            self._error(str(e))
            return
        if len(faces) != self.count:
            self._error(
                _("type exactly {faces} (you typed {count})").format(faces=_faces(self.count), count=len(faces))
            )
            return
        faces = [face_read(f, self.sides) for f in faces]
        bad = [f for f in faces if not 1 <= f <= self.sides]
        if bad:
            self._error(_("a d{sides} cannot show {face}").format(sides=self.sides, face=bad[0]))
            return
        self.dismiss(faces)

    def _error(self, message: str) -> None:
        """Say why the faces were refused, and select them: the next key typed starts
        again in their place (a referee who typed a command here, not seeing the prompt,
        would else add his next line to the refused one); an arrow key keeps them to mend."""
        self.query_one("#dice-error", PlainLabel).update(message)
        box = self.query_one(PlainInput)
        box.selection = Selection(0, len(box.value))


class QuestionPrompt(Dialog[str | None]):
    """A command's question the game cannot decide (``core.log.questions``): what is asked,
    whose, every answer with what it means; an answer is checked here as the game will."""

    DEFAULT_CSS = DIALOG_CSS.format(name="QuestionPrompt")
    BINDINGS = [Binding("escape", "cancel", N_("Cancel the command"))]

    def __init__(self, question: Question, command: str) -> None:
        super().__init__()
        self.question = question
        self.command = command

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(self.question.text(), classes="title")
            yield Plain(Text(visible(_("command: {command}").format(command=self.command)), style="dim"))
            options = self.question.options()
            if any(self.question.meanings):  # each answer and what it means on a line of its own
                answers = Text("\n").join(Text(visible(f"  {option}")) for option in options)
            else:  # bare answers (a deck's cards): one paragraph
                answers = Text(visible(", ".join(options)))
            yield Plain(answers, id="question-answers")
            # The example as a keyboard types it: a card's spelling (ah), not A♥
            first = self.question.choices[0] if self.question.choices else ""
            if self.question.spellings and self.question.spellings[0]:
                first = self.question.spellings[0]
            yield PlainInput(
                placeholder=_("an answer, e.g. {example}; Enter: {default}").format(
                    example=first, default=self.question.default or first
                )
                if self.question.default
                else _("an answer, e.g. {example}").format(example=first)
            )
            yield PlainLabel("", classes="error", id="question-error")

    @on(Input.Submitted)
    def _done(self, event: Input.Submitted) -> None:
        typed = event.value.strip() or self.question.default
        try:
            self.dismiss(self.question.take(typed))
        except ValueError as e:
            self.query_one("#question-error", PlainLabel).update(str(e))
            box = self.query_one(PlainInput)
            box.selection = Selection(0, len(box.value))


def event_details(
    line: LogLine,
    names: dict[str, str],
    *,
    referee: bool = False,
    domain: str = CORE_DOMAIN,
    facts: int | None = None,
) -> Text:
    """Everything a log line's event records, in words (``domain``: the ruleset's).

    Only the referee is told where the event stands in the file: a position
    counts the events hidden from a side too (``core.log.numbering``).  For the
    same reason a command's facts are counted as the reader may see them
    (``facts``, ``Reading.facts_seen``), never as the file holds them: without
    that count, only the referee is told how many the file holds.  Whoever
    does not say he is the referee is told what a side is.
    """
    e = line.event
    text = Text()
    text.append(line.text + "\n", style="bold")
    where = [_("file position {position}").format(position=line.index + 1)] if referee else []
    if line.number:
        where.append(_("command #{number}").format(number=line.number))
    where.append(_("kind {kind}").format(kind=event_kind(e)))
    text.append(" · ".join(where), style="dim")
    if line.undone:
        text.append(" · " + _("undone"), style="bold magenta")
    text.append("\n")
    if isinstance(e, ev.Rolled):
        r = e.roll
        text.append(f"\n{render(r.purpose, domain)}: {len(r.faces)}d{r.sides}", style="bold")
        if e.unit:
            text.append(" " + _("by {unit}").format(unit=names.get(e.unit, e.unit)))
        text.append("\n" + _("faces: {faces}").format(faces=" ".join(str(f) for f in r.faces)))
        if r.total:
            text.append(" " + _("(total {total})").format(total=sum(r.faces)))
        need = odds.need(r)
        if need:
            target = _("target: {need} on the total") if odds.summed(r) else _("target: {need} on each die")
            text.append("\n" + target.format(need=need))
            base = odds.base(r)
            if base is not None and r.mods:
                text.append(" " + _("(base {target}, moved by the modifiers below)").format(target=base))
        for m in r.mods:
            text.append("\n  " + _("modifier {modifier}").format(modifier=describe_mod(m, domain)))
            if m.rule:
                text.append(f" ({m.rule})")
        chance = odds.chance_text(r)
        if chance:
            text.append("\n" + _("chance before the roll: {chance}").format(chance=chance))
        if r.outcome:
            text.append("\n" + _("outcome: {outcome}").format(outcome=render(r.outcome, domain)), style="bold")
        if r.rule:
            text.append("\n" + _("rule: {rule}").format(rule=r.rule))
        text.append("\n" + (_("dice: typed at the table") if r.manual else _("dice: the game's seeded dice")))
    elif isinstance(e, ev.Issued) and not e.by:  # a command hidden from the reader (Reading.hidden_header)
        text.append("\n" + ngettext("{n} fact follows", "{n} facts follow", facts or 0).format(n=facts or 0))
    elif isinstance(e, ev.Issued):
        text.append("\n" + _("given by {who}: {command}").format(who=side_name(e.by), command=e.text))
        if e.at:
            when = datetime.fromtimestamp(e.at / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            text.append("\n" + _("at {when}").format(when=when))
        n = facts if facts is not None else e.n if referee else None
        if n is not None:
            text.append("\n" + ngettext("{n} fact follows", "{n} facts follow", n).format(n=n))
    else:
        fields = msgspec.structs.asdict(e)
        fields.pop("vis", None)
        if isinstance(e, ev.Undone | ev.Redone):
            fields["cmd"] = line.number  # as this role numbers commands
        for key, value in fields.items():
            if isinstance(value, Msg):  # words kept as data: said in the reader's language
                value = render(value, domain)
            elif isinstance(value, str) and value in names:
                value = f"{names[value]} ({value})"
            elif isinstance(value, str) and side_name(value) != value:  # a side: its name, then its id
                value = f"{side_name(value)} ({value})"
            text.append(f"\n{key}: {value}")
    return text


class AnswerScreen(Dialog[None]):
    """The command line's last answer whole (F9): a ✓ that keeps to one row, a refusal too
    long for a third of the screen, both cut there with ``…``.  Shown as text."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AnswerScreen")
    BINDINGS = [Binding("escape,enter,q,f9,ctrl+g", "close", N_("Close"))]

    def __init__(self, answer: str) -> None:
        super().__init__()
        self.answer = answer

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(_("The last answer, whole"), classes="title")
            with VerticalScroll():
                yield Plain(Text(visible(self.answer)), id="answer-whole")
            yield Plain(Text(_("Esc/Enter: close"), style="dim"))


class DetailsScreen(Dialog[None]):
    DEFAULT_CSS = DIALOG_CSS.format(name="DetailsScreen")
    BINDINGS = [Binding("escape,enter,q", "close", N_("Close"))]

    def __init__(
        self,
        line: LogLine,
        names: dict[str, str],
        *,
        referee: bool = False,
        domain: str = CORE_DOMAIN,
        facts: int | None = None,
        naming: Names | None = None,
    ) -> None:
        super().__init__()
        self.line = line
        self.names = names
        self.referee = referee
        self.domain = domain
        #: The facts of the line's command the reader may see (None: as the event counts them).
        self.facts = facts
        #: What the game calls its sides, for the words the event holds.
        self.naming = naming or Names()

    def compose(self) -> ComposeResult:
        with naming(self.naming):
            details = event_details(self.line, self.names, referee=self.referee, domain=self.domain, facts=self.facts)
        with Vertical():
            yield PlainLabel(_("Event details"), classes="title")
            with VerticalScroll():
                yield Plain(details)
            yield Plain(Text(_("Esc/Enter: close"), style="dim"))
