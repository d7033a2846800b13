"""The dice pane: the last roll (or the roll under the log cursor) drawn as dice,
the target with each modifier and its rule, the exact chance before the roll,
the outcome, and a short history of recent rolls."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from core.game import LogLine
from core.language.i18n import CORE_DOMAIN, Names, naming, render, side_name
from core.language.reader import SOURCE, lang
from core.log import events as ev
from core.log.narrate import describe_mod
from core.ruleset import possessive
from tui import odds
from tui.i18n import _, styled
from tui.plain import Plain, visible_text

DIE_WIDTH = 6  # "╭───╮" and a space
TALL = 30  # rows from which the dice are drawn as boxes (the app's "-tall" breakpoint)


def dice_rows(roll: ev.Roll, width: int) -> list[Text]:
    """The faces as boxed dice, green where a die met the target, dim where it missed.

    A summed roll shows its sum (and modifiers) beside the dice.
    """
    per_row = max(1, width // DIE_WIDTH)
    rows: list[Text] = []
    faces = list(roll.faces)
    for start in range(0, len(faces), per_row):
        top, mid, bottom = Text(), Text(), Text()
        for face in faces[start : start + per_row]:
            ok = odds.die_succeeds(roll, face)
            style = "bold green" if ok else "dim" if ok is False else "bold"
            top.append("╭───╮ ", style=style)
            mid.append("│", style=style)
            mid.append(f"{face:^3}", style=style + " reverse" if ok else style)
            mid.append("│ ", style=style)
            bottom.append("╰───╯ ", style=style)
        rows += [top, mid, bottom]
    if roll.total and rows:
        total = sum(roll.faces)
        if roll.target is None and roll.mods:  # a score: the modifiers add to the dice
            mods = odds.modifier_sum(roll)
            rows[-2].append(f"= {total} {mods:+d} = {total + mods}", style="bold")
        else:
            rows[-2].append(f"= {total}", style="bold")
    return rows


def _rows(parts: list[RenderableType], width: int) -> int:
    """The rows ``parts`` take at ``width`` columns (each text wrapped; at least one row)."""
    return sum(max(1, -(-p.cell_len // width)) for p in parts if isinstance(p, Text))


def dice_line(roll: ev.Roll, signs: bool = False) -> Text:
    """The faces on one line, for short screens: a die that met the target reversed in green
    (``signs``: each die that met it or missed it marked ✓ or ✗, for a screen without colour)."""
    text = Text()
    for face in roll.faces:
        ok = odds.die_succeeds(roll, face)
        mark = ("✓" if ok else "✗" if ok is False else "") if signs else ""
        text.append(
            f" {face}{mark} ", style="bold green reverse" if ok else "dim reverse" if ok is False else "bold reverse"
        )
        text.append(" ")
    if roll.total:
        total = sum(roll.faces)
        mods = odds.modifier_sum(roll) if roll.target is None and roll.mods else 0
        text.append(f"= {total} {mods:+d} = {total + mods}" if mods else f"= {total}", style="bold")
    return text


def roll_summary(
    roll: ev.Roll,
    unit_name: str = "",
    undone: bool = False,
    domain: str = CORE_DOMAIN,
    signs: bool = False,
    faces: Text | None = None,
) -> Text:
    """Outcome, who, purpose and dice: it wraps rather than lose the outcome (``signs``: it is
    marked ✓ or ✗, for a screen without colour); ``faces``, said after the outcome."""
    text = Text()
    if roll.outcome:
        ok = odds.succeeded(roll)
        outcome = (odds.sign(roll) if signs else "") + render(roll.outcome, domain)
        text.append(outcome, style="bold green" if ok else "bold red" if ok is False else "bold")
        text.append(" · ", style="dim")
    if faces is not None:
        text.append_text(faces)
        text.append(" · ", style="dim")
    purpose = render(roll.purpose, domain)
    if unit_name and lang() == SOURCE:
        text.append(f"{possessive(unit_name)} ")  # "Pte Greco's fire with …": purposes are nouns
        text.append(purpose, style="bold")
    elif unit_name:
        # TRANSLATORS: whose roll it is: "Pte Greco's fire with an assault rifle"
        text.append_text(styled(_("{unit}'s {purpose}"), unit=unit_name, purpose=(purpose, "bold")))
    else:
        text.append(purpose, style="bold")
    text.append(f" {len(roll.faces)}d{roll.sides}", style="dim")
    if roll.manual:
        text.append(" " + _("table dice"), style="italic")
    if undone:
        text.append(" " + _("(undone)"), style="dim italic")
    return text


def need_text(roll: ev.Roll) -> Text:
    """What the roll needed ("needs 4+"), or nothing."""
    need = odds.need(roll)
    if not need:
        return Text()
    needs = _("needs a total of {need}") if odds.summed(roll) else _("needs {need}")
    return Text().append(needs.format(need=need), style="bold")  # bold itself, not what follows it


def target_text(roll: ev.Roll, domain: str = CORE_DOMAIN) -> Text:
    """The target and each modifier with its rule."""
    text = need_text(roll)
    if text.plain:
        base = odds.base(roll)
        if base is not None and roll.mods:  # the number the modifiers changed, as the roll records it
            text.append(" " + _("(base {target})").format(target=base), style="dim")
    elif roll.mods:
        text.append(_("modifiers"), style="bold")
    for m in roll.mods:
        if text.plain:
            text.append(" · ", style="dim")
        text.append(describe_mod(m, domain))
        if m.rule and m.rule != roll.rule:  # the roll's own rule is cited once, at the end
            text.append(f" {m.rule}", style="dim")
    if roll.rule:
        text.append((" · " if text.plain else "") + _("rule {rule}").format(rule=roll.rule), style="dim")
    return text


def chance_line(roll: ev.Roll) -> Text:
    chance = odds.chance_text(roll)
    if not chance:
        return Text()
    return styled(_("before the roll: {chance}"), "dim", chance=(chance, "bold"))


def history_line(line: LogLine, domain: str = CORE_DOMAIN, signs: bool = False) -> Text:
    assert isinstance(line.event, ev.Rolled)
    roll = line.event.roll
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"#{line.number} " if line.number else "", style="dim")
    if roll.outcome:
        text.append(f"{odds.sign(roll) if signs else ''}{render(roll.outcome, domain)} · ", style="bold")
    text.append(render(roll.purpose, domain))
    text.append(" " + " ".join(str(f) for f in roll.faces), style="bold")
    if line.undone:
        text.stylize("strike dim")
    return text


class DicePane(Plain):
    """Under the log.  Its height is set by the screen's size (``fireteam.tcss``), never by
    what it shows, so a new roll repaints it without laying out the screen: on a short
    screen the dice take one line; on a wide one the recent rolls stand beside the roll."""

    DEFAULT_CSS = """
    DicePane { height: 1fr; }
    """

    #: From this many columns the recent rolls have a column of their own.
    SIDE_BY_SIDE = 90

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._rolls: list[LogLine] = []
        self._selected: LogLine | None = None
        self._names: dict[str, str] = {}
        self._undone = False  # whether rolls were left out because they were undone
        #: The ruleset's catalogue, for the words its rolls hold (set by the game screen).
        self.domain = CORE_DOMAIN
        #: What the game calls its sides, for the words its rolls hold (set by the game screen).
        self.names = Names()

    def show(self, rolls: list[LogLine], names: dict[str, str], selected: LogLine | None = None) -> None:
        """``rolls``: recent rolls, newest last; ``selected``: a roll picked in the log.

        An undone roll is shown only when picked in the log: the last roll is the
        last one still in play.  Repaints only if what it shows changed: most
        commands roll nothing.
        """
        selected = selected if selected is not None and isinstance(selected.event, ev.Rolled) else None
        self._undone = any(r.undone for r in rolls)
        rolls = [r for r in rolls if not r.undone]
        if (rolls, names, selected) == (self._rolls, self._names, self._selected):
            return
        self._rolls = rolls
        self._names = names
        self._selected = selected
        self._title()
        self.refresh()

    def _title(self) -> None:
        self.border_title = _("Selected roll") if self._selected else _("Last roll")

    def retranslate(self) -> None:
        self._title()
        self.refresh()

    def render(self) -> RenderableType:
        with naming(self.names):  # a side a roll's words name by id reads as its name
            return self._drawn()

    def _drawn(self) -> RenderableType:
        line = self._selected or (self._rolls[-1] if self._rolls else None)
        if line is None or not isinstance(line.event, ev.Rolled):
            return Text(
                _("No roll in play: the last was undone.") if self._undone else _("No dice rolled yet."), style="dim"
            )
        roll = line.event.roll
        width = max(DIE_WIDTH, self.content_size.width)
        # (Not in a pane of one line, a phone's held sideways: the roll takes the whole line.)
        side_by_side = width >= self.SIDE_BY_SIDE and self.content_size.height > 1
        roll_width = width // 2 if side_by_side else width
        e = line.event
        unit = self._names.get(e.unit, e.unit) if e.unit else side_name(e.side) if e.side else ""  # whose roll
        signs = self.app.no_color  # what the colours say, in signs too (tui.contrast)
        room = self.content_size.height
        if room == 1:  # one row (a phone held sideways): the outcome, the faces and what they needed first
            faces = Text.assemble(dice_line(roll, signs), *((" · ", "dim"), need_text(roll)) if odds.need(roll) else ())
            summary = roll_summary(roll, unit, line.undone, self.domain, signs, faces=faces)
            return visible_text(Text.assemble(summary, no_wrap=True, overflow="ellipsis"), lines=False)
        parts: list[RenderableType] = [roll_summary(roll, unit, line.undone, self.domain, signs)]
        boxed = [
            *dice_rows(roll, roll_width),
            *(t for t in (target_text(roll, self.domain), chance_line(roll)) if t.plain),
        ]
        if self.app.size.height >= TALL and (not room or _rows([*parts, *boxed], roll_width) <= room):
            parts += boxed
        else:
            # Four rows: what the roll was (two at most), the dice with what they needed, the
            # chance; also where the boxes would push the chance below the pane's edge.
            target = target_text(roll, self.domain)
            parts.append(Text.assemble(dice_line(roll, signs), (" · ", "dim") if target.plain else "", target))
            parts += [t for t in (chance_line(roll),) if t.plain]
        shown = Group(*(visible_text(p, lines=False) if isinstance(p, Text) else p for p in parts))
        earlier = [r for r in self._rolls if r is not line][-5:]
        if not side_by_side:  # under the roll: as many as the rows left show, or none
            used = _rows(parts, width)
            earlier = earlier[max(0, len(earlier) - (self.content_size.height - used - 1)) :]
        if not earlier:
            return shown
        recent = [
            Text(_("recent"), style="dim underline"),
            *(history_line(r, self.domain, signs) for r in reversed(earlier)),
        ]
        recent = [visible_text(t, lines=False) for t in recent]
        if not side_by_side:
            return Group(shown, *recent)
        grid = Table.grid(expand=True, padding=(0, 2))
        grid.add_column(ratio=1)
        grid.add_column(ratio=1)
        grid.add_row(shown, Group(*recent))
        return grid
