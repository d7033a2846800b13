"""A whole report: the facts ``role`` saw and the luck of the dice he saw rolled."""

from __future__ import annotations

from dataclasses import dataclass

from core.game import Game
from core.language.i18n import _
from core.report.facts import collect
from core.report.luck import Luck, assess
from core.report.model import Facts
from core.views import REFEREE


@dataclass(frozen=True)
class Report:
    facts: Facts
    luck: Luck


def build(game: Game, role: str = REFEREE, step: int | None = None) -> Report:
    """The report of ``game`` as ``role`` saw it, up to effective step ``step`` (default: all)."""
    steps = game.timeline.length
    if step is not None and not 0 <= step <= steps:
        raise ValueError(_("step must be between 0 and {steps}").format(steps=steps))
    events = game.history.timeline(0, steps if step is None else step)
    facts = collect(events, game.header, game.ruleset, role, steps, step, game.timeline.apply)
    rolls = [r for t in facts.turns for r in t.rolls]
    return Report(facts, assess(rolls, [s.id for s in facts.sides], len(facts.turns)))
