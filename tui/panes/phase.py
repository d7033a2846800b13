"""The turn phase pane: turn, phase of the ruleset's turn machine, who acts, what comes next, defeat points
(where the ruleset scores them: ``Ruleset.shows_defeat_points``)."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual, visualize

from core.language.i18n import naming
from core.language.reader import lang
from core.log.narrate import result_of, sides_of
from core.log.state import GameState
from core.ruleset import END_GAME, Ruleset
from tui.i18n import _, book, phase_name, phase_words, scenario_words, shown, side_name
from tui.plain import Plain, visible_text

#: Room an undo hint needs to say anything; with less it takes a line of its own.
HINT_ROOM = 16


def _fitted(text: str, room: int) -> str:
    return text if len(text) <= room else text[: max(0, room - 1)] + "…"


def _heading(name: str) -> str:
    """A phase's name as a heading: its first letter a capital, as the pane shows every phase
    (a book's word, ``movimento del primo giocatore``, beside a title, ``Morale``, read as two
    styles; ``str.capitalize`` would also lower an ``MG``)."""
    return name[:1].upper() + name[1:]


def phase_text(
    ruleset: Ruleset,
    state: GameState,
    *,
    undo_hint: str = "",
    strip: bool = True,
    width: int | None = None,
    referee: bool = False,
) -> Text:
    """The pane's lines.  With ``width``, the phase's rule section and the undo hint
    (which the confirmation repeats in full) are cut to fit; the rest wraps.  The
    ``referee`` is told the verb that ends the game where the game may end."""
    phase = ruleset.phase(state.phase)
    title = _heading(phase_words(ruleset, state.phase))
    line = Text()
    line.append(_("Turn {turn}").format(turn=state.turn) if state.turn else _("Before play"), style="bold")
    line.append("  ")
    line.append(f" {title} ", style="bold reverse")
    if state.active_side:
        line.append(" │ " + _("active") + " ", style="dim")
        line.append(side_name(state, state.active_side), style="bold green")
    if state.reacting_side:
        line.append(" │ " + _("reacting") + " ", style="dim")
        line.append(side_name(state, state.reacting_side), style="bold yellow")
    if state.card:
        line.append(" │ " + _("card") + " ", style="dim")
        line.append(state.card, style="bold magenta")
    if state.result:
        line.append("  " + _("Game over: {result}").format(result=result_of(state, ruleset.domain)), style="bold red")
    if phase and phase.rule:
        rule = f" {phase.rule}"
        room = len(rule) if width is None else width - line.cell_len
        if room >= min(len(rule), 5):
            line.append(_fitted(rule, room), style="dim")

    phases = Text()
    for i, p in enumerate(ruleset.phases):
        if i:
            phases.append(" › ", style="dim")
        phases.append(_heading(phase_name(ruleset, p)), style="bold reverse" if p.id == state.phase else "dim")

    nxt = Text()
    expects = ruleset.expects(state)
    if expects:
        nxt.append(_("Next:") + " ", style="bold")
        nxt.append(shown(expects, ruleset, state))
    if referee and ruleset.can_end(state):
        from core.commands import local_name  # (a game that cannot end yet is drawn without the command language)

        # Said where the line has room for it: what comes next is never pushed to a second line.
        verb = local_name("command", END_GAME, ruleset.domain)  # as the referee types it (fine-partita)
        ends = ("   " if expects else "") + _("{verb} ends the game").format(verb=verb)
        if width is None or nxt.cell_len + len(ends) <= width:
            nxt.append(ends, style="dim")

    dp = Text()
    if state.sides and ruleset.shows_defeat_points(state):
        dp.append(_("Defeat points") + " ", style="bold")
        for i, side in enumerate(state.sides.values()):
            if i:
                dp.append(" · ", style="dim")
            dp.append(f"{scenario_words(side.name)} ")
            dp.append(str(side.defeat_points), style="bold red" if side.defeat_points else "bold")
            # A ledger column is named as the ruleset's narration names it (no context).
            cats = [f"{book(ruleset).gettext(k)} {v}" for k, v in sorted(side.dp_by_category.items()) if v]
            if len(cats) > 1:
                dp.append(f" ({', '.join(cats)})", style="dim")
    options = ruleset.options_in_force(state)
    if options:  # the optional rules in force, by section (none in force: the line keeps its room; the report says so)
        dp.append("   " if dp else "")
        dp.append(_("Optional rules: {rules}").format(rules=" ".join(rule for rule, _words in options)))
    if undo_hint:
        room = len(undo_hint) if width is None else width - dp.cell_len - 3
        if not dp:
            dp.append(_fitted(undo_hint, width or len(undo_hint)), style="dim italic")
        elif room >= min(len(undo_hint), HINT_ROOM):
            dp.append("   ")
            dp.append(_fitted(undo_hint, room), style="dim italic")
        else:
            dp.append("\n")
            dp.append(_fitted(undo_hint, width or len(undo_hint)), style="dim italic")
    return visible_text(Text("\n").join([line, phases, nxt, dp] if strip else [line, nxt, dp]))


class PhasePane(Plain):
    """Four lines (three on screens under 30 rows: the strip of phases goes).

    A line too long for the terminal wraps: who acts, what comes next and the
    defeat points are never cut; only the phase's rule section and the undo
    hint are cut to fit (the help and the confirmation say them in full).

    A command most often changes one row (the undo hint, a defeat point): only
    the rows that changed are drawn again.  The pane renders its rows as
    Textual's ``Static`` does (``Visual.to_strips``), keeps them, and repaints
    the rows whose strips differ; its borders and title are not drawn again.
    """

    DEFAULT_CSS = """
    PhasePane { height: auto; }
    """

    TALL = 30

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[Ruleset, GameState, str, bool] | None = None
        self._text: Text | None = None  # what the pane shows on a tall screen
        #: The text last made, and for what: a layout asks for it (its height) and the
        #: frame then draws it, at the same width.
        self._made: tuple[tuple, tuple, Text] | None = None
        #: The last text's rows counted (wrapped) at a width: (text, width, rows).
        self._counted: tuple[Text, int, int] | None = None
        #: The rows last rendered, and what from: (text, width, height, style, selection).
        self._strips: tuple[tuple, list[Strip]] | None = None

    def show(self, ruleset: Ruleset, state: GameState, *, undo_hint: str = "", referee: bool = False) -> None:
        """Show ``state``; repaint only if the text changed (most commands leave it as it is)."""
        self._shown = (ruleset, state, undo_hint, referee)
        width = self._width()
        text = self._text_for(width)
        if text == self._text:
            return
        # Only a change in the number of rows (lines as wrapped) changes the pane's height.
        layout = self._text is None or self._rows(self._text, width) != self._rows(text, width)
        self._text = text
        before = self._strips
        if layout or before is None or not self.is_mounted:
            self.refresh(layout=layout)
            return
        after = self._rendered()
        changed = [
            Region(0, y, self.content_size.width, 1)
            for y in range(max(len(before[1]), len(after)))
            if y >= len(before[1]) or y >= len(after) or before[1][y] != after[y]
        ]
        if changed:
            self.refresh(*changed)

    def _width(self) -> int:
        return max(1, self.content_size.width or self.app.size.width - 4)

    def _rows(self, text: Text, width: int) -> int:
        counted = self._counted
        if counted is not None and counted[0] is text and counted[1] == width:
            return counted[2]
        rows = len(text.wrap(self.app.console, width))
        self._counted = (text, width, rows)
        return rows

    def _text_for(self, width: int) -> Text:
        shown = self._shown
        if shown is None:
            return Text()
        tall = self.app.size.height >= self.TALL
        key = (width, tall, lang())
        made = self._made
        # What ``show`` was last given, by identity: the pane draws what it was told
        # to show (the game's live state is updated in place, so it is not the key).
        if made is None or made[0] is not shown or made[1] != key:
            ruleset, state, undo_hint, referee = shown
            with naming(sides_of(state)):  # a user's scenario file's own words for the reader's language
                said = phase_text(ruleset, state, undo_hint=undo_hint, strip=tall, width=width, referee=referee)
            made = self._made = (shown, key, said)
        return made[2]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # The lines depend on the width (what is cut to fit): count them at the width being laid out.
        return self._rows(self._text_for(max(1, width)), max(1, width)) if width else 0

    def render(self) -> Text:
        return self._text_for(self._width())

    def _rendered(self) -> list[Strip]:
        """The content's rows as Textual's ``Static`` renders them, kept until what they depend on changes."""
        width, height = self.content_size
        text = self.render()
        style = self.visual_style
        selection = self.text_selection
        key = (text, width, height, style, selection)
        kept = self._strips
        if kept is None or any(a is not b and a != b for a, b in zip(kept[0], key, strict=True)):
            strips = Visual.to_strips(self, visualize(self, text, markup=False), width, height, style)
            kept = self._strips = (key, strips)
        return kept[1]

    def render_line(self, y: int) -> Strip:
        strips = self._rendered()
        if y < len(strips):
            return strips[y]
        return Strip.blank(self.content_size.width, self.visual_style.rich_style)
