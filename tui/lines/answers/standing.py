"""Where the game stands: the phase pane (``phase``) and ``status``, in whole sentences."""

from __future__ import annotations

from core.commands import local_name
from core.game import Game
from core.log.narrate import result_of
from core.log.state import GameState
from core.log.views import REFEREE, SPECTATOR
from core.ruleset import END_GAME
from tui.i18n import _, book, number, phase_name, scenario_words, shown, side_name
from tui.lines.answers.words import sentence, stopped
from tui.lines.ink import Line, inked


def _turn_and_phase(game: Game, state: GameState) -> str:
    ruleset = game.ruleset
    phase = ruleset.phase(state.phase)
    name = phase_name(ruleset, phase) if phase else book(ruleset).pgettext("phase", state.phase)
    if state.phase == "ended":
        return _("Turn {turn}: the game has ended.").format(turn=state.turn)
    if state.turn:
        return _("Turn {turn}, {phase} phase.").format(turn=state.turn, phase=name)
    return _("Before play, {phase} phase.").format(phase=name)


def _who_acts(state: GameState) -> list[str]:
    out = []
    if state.active_side:
        out.append(_("Active side: {side}.").format(side=side_name(state, state.active_side)))
    if state.reacting_side:
        out.append(_("Reacting side: {side}.").format(side=side_name(state, state.reacting_side)))
    if state.card:
        out.append(_("Card drawn: {card}.").format(card=state.card))
    return out


def _next(game: Game, state: GameState) -> list[str]:
    expects = game.ruleset.expects(state)
    return [sentence(_("Next: {what}").format(what=shown(expects, game.ruleset, state)))] if expects else []


def scored(state: GameState) -> bool:
    """Whether a side has defeat points: until one has, they are not said (Linea di Tiro, Bassa
    Intensità and Ludonet keep none: "Defeat points: US 30th Infantry 0; Rearguard 0." was 4 s
    aloud in every status)."""
    return any(side.defeat_points or side.dp_by_category for side in state.sides.values())


def _defeat_points(game: Game, state: GameState) -> list[str]:
    if not scored(state):
        return []
    words = book(game.ruleset)
    parts = []
    for side in state.sides.values():
        part = f"{scenario_words(side.name)} {number(side.defeat_points)}"
        cats = [f"{words.gettext(k)} {number(v)}" for k, v in sorted(side.dp_by_category.items()) if v]
        if len(cats) > 1:
            part += f" ({', '.join(cats)})"
        parts.append(part)
    return [_("Defeat points: {sides}.").format(sides="; ".join(parts))]


def _game_over(game: Game, state: GameState) -> list[Line]:
    if not state.result:
        return []
    said = result_of(state, game.ruleset.domain)
    return [inked(sentence(_("Game over: {result}").format(result=said)), "bad")]


def phase(game: Game, state: GameState, *, referee_live: bool) -> list[Line]:
    """The phase pane: the turn and phase with its rule, the phases of a turn, who acts, what comes next."""
    ruleset = game.ruleset
    out = _game_over(game, state)
    first = _turn_and_phase(game, state)
    current = ruleset.phase(state.phase)
    if current is not None and current.rule:
        first = first.removesuffix(".") + "; " + _("rule {rule}.").format(rule=current.rule)
    out.append(first)
    if ruleset.phases:
        named = []
        for p in ruleset.phases:
            # TRANSLATORS: the phase the game is in, in the list of a turn's phases
            named.append(
                _("{phase} (now)").format(phase=phase_name(ruleset, p))
                if p.id == state.phase
                else phase_name(ruleset, p)
            )
        out.append(_("The phases of a turn, in order: {phases}.").format(phases=", ".join(named)))
    out += _who_acts(state)
    out += _next(game, state)
    if referee_live and ruleset.can_end(state):
        out.append(stopped(_("{verb} ends the game").format(verb=local_name("command", END_GAME, ruleset.domain))))
    return out


def status(
    game: Game,
    state: GameState,
    *,
    role: str,
    seat: str,
    mode: str,
    save: str,
    undo: str | None,
    table: str = "",
) -> list[Line]:
    """Where the game stands, the most important first: the end of the game, the turn
    and phase, who acts, what comes next, the defeat points; then who reads, at which
    game, how it is played, and what undo would take back (``table``: the game's name at a
    shared table, said instead of the save)."""
    out = _game_over(game, state)
    out.append(_turn_and_phase(game, state))
    out += _who_acts(state)
    out += _next(game, state)
    out += _defeat_points(game, state)
    if role == REFEREE:
        who = _("the referee")
    elif role == SPECTATOR:
        who = _("a spectator")
    else:
        who = _("side {side}").format(side=side_name(state, role))
    if seat and seat != role:
        who = _("{who}, seat {seat}").format(who=who, seat=seat)
    scenario = scenario_words(state.scenario) or _("no scenario yet")
    out.append(
        _("You are {who}, at {rules}, scenario {scenario}; {mode}.").format(
            who=who, rules=game.ruleset.title(game.header.ruleset_version), scenario=scenario, mode=mode
        )
    )
    if table:  # a seat of a shared table is told the game's name there, never the server's path
        out.append(_("The game at this table is called {table}.").format(table=table))
    else:
        out.append(_("The save is {save}.").format(save=save))
    if undo:
        out.append(_("Undo would take back {command}.").format(command=undo))
    return out
