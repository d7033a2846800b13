"""The turn phase pane: turn, phase of the ruleset's turn machine, who acts, what comes next, defeat points."""

from __future__ import annotations

from rich.text import Text

from core.ruleset import Ruleset
from core.state import GameState
from tui.plain import Plain, visible_text


def phase_text(ruleset: Ruleset, state: GameState, *, undo_hint: str = "", strip: bool = True) -> Text:
    phase = ruleset.phase(state.phase)
    title = phase.title if phase else state.phase.capitalize()
    line = Text()
    line.append(f"Turn {state.turn}" if state.turn else "Before play", style="bold")
    line.append("  ")
    line.append(f" {title} ", style="bold reverse")
    if phase and phase.rule:
        line.append(f" {phase.rule}", style="dim")
    if state.active_side:
        line.append(" │ active ", style="dim")
        line.append(_side_name(state, state.active_side), style="bold green")
    if state.reacting_side:
        line.append(" │ reacting ", style="dim")
        line.append(_side_name(state, state.reacting_side), style="bold yellow")
    if state.card:
        line.append(" │ card ", style="dim")
        line.append(state.card, style="bold magenta")
    if state.result:
        line.append(f"  Game over: {state.result}", style="bold red")

    phases = Text()
    for i, p in enumerate(ruleset.phases):
        if i:
            phases.append(" › ", style="dim")
        phases.append(p.title, style="bold reverse" if p.id == state.phase else "dim")

    nxt = Text()
    expects = ruleset.expects(state)
    if expects:
        nxt.append("Next: ", style="bold")
        nxt.append(expects)

    dp = Text()
    if state.sides:
        dp.append("Defeat points ", style="bold")
        for i, side in enumerate(state.sides.values()):
            if i:
                dp.append(" · ", style="dim")
            dp.append(f"{side.name} ")
            dp.append(str(side.defeat_points), style="bold red" if side.defeat_points else "bold")
            cats = [f"{k} {v}" for k, v in sorted(side.dp_by_category.items()) if v]
            if len(cats) > 1:
                dp.append(f" ({', '.join(cats)})", style="dim")
    if undo_hint:
        dp.append("   ")
        dp.append(undo_hint, style="dim italic")
    return visible_text(Text("\n").join([line, phases, nxt, dp] if strip else [line, nxt, dp]))


def _side_name(state: GameState, side_id: str) -> str:
    side = state.sides.get(side_id)
    return side.name if side else side_id


class PhasePane(Plain):
    """Four lines (three on screens under 30 rows: the strip of phases goes).

    Long lines are cut, never wrapped, so the pane keeps its height.
    """

    DEFAULT_CSS = """
    PhasePane { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    TALL = 30

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[Ruleset, GameState, str] | None = None
        self._text: Text | None = None  # what the pane shows on a tall screen

    def show(self, ruleset: Ruleset, state: GameState, *, undo_hint: str = "") -> None:
        """Show ``state``; repaint only if the text changed (most commands leave it as it is)."""
        self._shown = (ruleset, state, undo_hint)
        text = phase_text(ruleset, state, undo_hint=undo_hint)
        if text == self._text:
            return
        # Only a change in the number of lines changes the pane's height.
        layout = self._text is None or len(text.split()) != len(self._text.split())
        self._text = text
        self.refresh(layout=layout)

    def render(self) -> Text:
        if self._shown is None:
            return Text()
        ruleset, state, undo_hint = self._shown
        return phase_text(ruleset, state, undo_hint=undo_hint, strip=self.app.size.height >= self.TALL)
