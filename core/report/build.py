"""A whole report: the facts ``role`` saw and the luck of the dice he saw rolled."""

from __future__ import annotations

from dataclasses import dataclass

from core.game import Game
from core.language.i18n import _
from core.replay import step_of_shown, visible_steps
from core.report.facts import collect
from core.report.luck import Luck, assess
from core.report.model import Facts
from core.views import SPECTATOR


@dataclass(frozen=True)
class Report:
    facts: Facts
    luck: Luck


def build(game: Game, role: str = SPECTATOR, step: int | None = None) -> Report:
    """The report of ``game`` as ``role`` saw it, up to its step ``step`` (default: all).

    Steps are counted as ``role`` counts them (``core.replay.visible_steps``): a
    side's step n is just after the n-th event it may see, and its report is "up
    to step n of" the events it may see, never of the whole game's (which would
    tell it how many were hidden, and where).  The default role is the one that
    sees least: the referee's report is asked for by name.
    """
    length = game.timeline.length
    visible = visible_steps(game.history, role, length)
    steps = len(visible)
    if step is not None and not 0 <= step <= steps:
        raise ValueError(_("step must be between 0 and {steps}").format(steps=steps))
    end = length if step is None else step_of_shown(visible, step)
    events = game.history.timeline(0, end)
    facts = collect(events, game.header, game.ruleset, role, steps, step, game.timeline.apply)
    rolls = [r for t in facts.turns for r in t.rolls]
    return Report(facts, assess(rolls, [s.id for s in facts.sides], len(facts.turns)))
