"""A whole report: the facts ``role`` saw and the luck of the dice he saw rolled."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from core.game import Game
from core.language.i18n import _
from core.log import events as ev
from core.log.replay import step_of_shown, visible_steps
from core.log.views import REFEREE, SPECTATOR, event_visible
from core.report.chances import Chances, chances
from core.report.facts import collect
from core.report.luck import Luck, assess
from core.report.model import Facts
from core.report.reroll import Rerolls, reroll


@dataclass(frozen=True)
class Report:
    facts: Facts
    luck: Luck
    #: The game's orders re-rolled (``core.report.reroll``), when asked for.
    rerolls: Rerolls | None = None
    #: How many of the rolls seen were "sealed", "seeded" or "typed" at the table.
    luck_kinds: dict[str, int] = field(default_factory=dict)
    #: Each side's chances after every step (``core.report.chances``), when asked for.
    chances: Chances | None = None
    #: A recorded command line (English names) in the reader's names (``Game.localize``):
    #: how the report quotes an order, in the language it is read in.
    localize: Callable[[str], str] = str


def build(
    game: Game,
    role: str = SPECTATOR,
    step: int | None = None,
    *,
    rerolls: int = 0,
    seed: int = 0,
    start: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    chances_count: int = 0,
    workers: int = 1,
) -> Report:
    """The report of ``game`` as ``role`` saw it, up to its step ``step`` (default: all).

    Steps are counted as ``role`` counts them (``core.log.replay.visible_steps``): a
    side's step n is just after the n-th event it may see, and its report is "up
    to step n of" the events it may see, never of the whole game's (which would
    tell it how many were hidden, and where).  The default role is the one that
    sees least: the referee's report is asked for by name.

    ``rerolls``: that many games of its orders re-rolled from step ``start`` (default: where a
    what-if left its original, else the start), the referee's alone: they play every order,
    hidden ones too, and a side's report must not tell what those did.

    ``chances_count``: each side's chances after every step, from that many re-rolled games a
    step (``progress`` told of them too, ``workers`` processes sharing them).  A side's chances
    come from the whole game, hidden orders too: a side's report has them only once the game
    is over and every secret opened, and from the full save, never a side's copy."""
    length = game.timeline.length
    visible = visible_steps(game.history, role, length)
    steps = len(visible)
    if step is not None and not 0 <= step <= steps:
        raise ValueError(_("step must be between 0 and {steps}").format(steps=steps))
    end = length if step is None else step_of_shown(visible, step)
    events = game.history.timeline(0, end)
    facts = collect(events, game.header, game.ruleset, role, steps, step, game.timeline.apply)
    rolls = [r for t in facts.turns for r in t.rolls]
    kinds = Counter(
        "sealed" if isinstance(e, ev.SealedRoll) else "typed" if e.roll.manual else "seeded"
        for e in events
        if isinstance(e, ev.Rolled) and event_visible(e, role)
    )
    again = None
    if rerolls:
        if role != REFEREE or game.copy_role:
            raise ValueError(
                _("re-rolls play every order, hidden ones too: only the referee's report of a full save has them")
            )
        if start is None:
            parent = game.header.parent
            start = parent.step if parent is not None else 0
        again = reroll(game, rerolls, seed=seed, start=start, progress=progress)
    odds = None
    if chances_count:
        if problem := no_chances(game, role, step):
            raise ValueError(problem)
        odds = chances(game, chances_count, seed=seed, progress=progress, workers=workers)
    luck = assess(rolls, [s.id for s in facts.sides], len(facts.turns))
    return Report(facts, luck, again, dict(kinds), odds, game.localize)


def no_chances(game: Game, role: str, step: int | None) -> str:
    """Why ``role``'s report may not have the chances ("" if it may)."""
    if game.copy_role:
        return _("the chances re-roll every order, hidden ones too: a side's copy has not got them")
    if step is not None:
        return _("the chances are of the whole game: ask for them without --step")
    if role == REFEREE:
        return ""
    if not game.state.result or any(not s.revealed for s in game.state.secrets.values()):
        return _("a side sees the chances only once the game is over and every secret is opened")
    return ""
