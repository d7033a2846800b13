"""Where Breaking News keeps its own books: ``GameState.vars``, by key, and the
defeat points charged line by line of the §14.0 list (:func:`charge`).

Keys (all bounded by the number of sides, units and markers):

* ``mission``, ``turns`` (the scenario's last turn, 0 = none), ``points`` (army limit)
* ``points.<side>``: the limit a side's roster was checked against, when not ``points``
* ``force.<side>``: what the force is for restricted extras (``special-forces``, ``msu`` …)
* ``extra.<side>.<id>``: an EXTRA bought (a count or a level; extras.toml ids, and
  ``negotiation``, ``motivation_platoon``); the explosives are secrets of their owner
  under the same key
* ``platoon.<side>``: 1 when the side plays as a platoon (§13.0)
* ``first_player``, ``second_player``, ``deploy.stage``: the deployment (§4.2)
* ``first_fire``: the side that fired first (set by combat); ``first_fire.scored``
* ``secret.<fact>.<unit>``: facts about one figure (:func:`unit_var`): ``lost``, the
  turn his loss was scored (§12.0, §14.0); ``civilian``, a civilian already scored;
  combat's ``aboard`` (his vehicle), ``wound`` (the turn a badly wounded man dies)
  and ``reacted`` (the enemy action he last reacted to)
* ``morale.<side>.tested`` / ``.failed``: the turn of the last test / failure
* ``motivation.<side>.used``: Extras: Motivation spent
* ``negotiation.<side>``: running | broken | ended (Extras: Negotiation)
* ``civilians.control``, ``civilians.turn``: who moves the civilians this turn
* ``helicopter.<side>``: landed | gone; ``ambush.<side>``: +1 to the next initiative
* ``ambush_used.<side>``, ``intelligence.<side>``: extras used
* ``taken.<owner>.<n>``: the side that took that marker (§4.1.1)
* ``activating.<side>``: the squad a platoon is activating (§13.0)
* ``game_over``: why the game ended (the final count follows)

Keys under ``secret.`` are dropped from every player's view (core.log.views): they
would name hidden figures.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Text
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import unit_audience
from core.ruleset import Context
from core.rulesets.breaking_news.tables import DefeatLine, defeat_points


def var(state: GameState, key: str, default: Any = 0) -> Any:
    return state.vars.get(key, default)


def set_var(ctx: Context, key: str, value: int | str, *, about: Unit | None = None) -> None:
    """Record ``key = value`` unless it already holds; a fact about a hidden figure
    stays with those who can see the figure."""
    if ctx.state.vars.get(key) == value:
        return
    vis = unit_audience(about) if about is not None else ()
    ctx.emit(ev.VarSet(key=key, value=value, vis=vis))


def unit_var(state: GameState, unit_id: str, fact: str, default: Any = 0) -> Any:
    """A fact kept about one figure."""
    return var(state, f"secret.{fact}.{unit_id}", default)


def set_unit_var(ctx: Context, unit: Unit, fact: str, value: int | str) -> None:
    """Record a fact about one figure.  It is kept under ``secret.``, so no side's view
    lists it, and told only to those who may see the figure: a hidden man's
    bookkeeping never names him to the enemy."""
    set_var(ctx, f"secret.{fact}.{unit.id}", value, about=unit)


def extra(state: GameState, side: str, extra_id: str) -> int:
    """How many of an EXTRA (or which level) the side bought; 0 if none.  Explosives
    are their owner's secret, the rest are public."""
    key = f"extra.{side}.{extra_id}"
    secret = state.secrets.get(key)
    return int(secret.value) if secret is not None else int(var(state, key, 0))


def army(state: GameState, side: str) -> str:
    """ "regular" or "irregular" (§3.0)."""
    s = state.sides.get(side)
    return s.army if s else ""


def regular_vs_irregular(state: GameState) -> bool:
    return sorted(s.army for s in state.sides.values()) == ["irregular", "regular"]


def regular_side(state: GameState) -> str:
    return next((s.id for s in state.sides.values() if s.army == "regular"), "")


def irregular_side(state: GameState) -> str:
    return next((s.id for s in state.sides.values() if s.army == "irregular"), "")


def has_roe(state: GameState, side: str) -> bool:
    """Did the side buy Rules of Engagement (Extras)?"""
    return bool(extra(state, side, "rules_of_engagement"))


def defeat_line(ctx: Context, line_id: str) -> DefeatLine:
    """A line of the §14.0 defeat points list, as the variant prints it."""
    return defeat_points(ctx.ruleset.variant)[line_id]


def charge(
    ctx: Context,
    side: str,
    line_id: str,
    reason: Text,
    *,
    points: int | None = None,
    about: Unit | None = None,
) -> None:
    """Charge one line of the list to ``side``: its value (under Rules of Engagement
    where the line has one) or ``points``; nothing if that is 0.  A charge about a
    hidden figure stays with those who can see him."""
    row = defeat_line(ctx, line_id)
    value = row.value(has_roe(ctx.state, side)) if points is None else points
    if value == 0:
        return
    vis = unit_audience(about) if about is not None else ()
    ctx.emit(
        ev.DefeatPoints(
            side=side,
            points=value,
            reason=M("{reason} ({rule})", reason=reason, rule=row.rule),
            category=row.category,
            vis=vis,
        )
    )


def civilian_hit(ctx: Context, civilian: Unit, by_side: str, *, killed: bool) -> None:
    """A civilian hit (or killed) by ``by_side``'s fire.  Only the Regular player scores,
    only against Irregulars (§14.0, Extras: Civilians); once per civilian.  The English
    draft scores a civilian killed, the Italian one a civilian hit (DIFF-46)."""
    row = defeat_line(ctx, "civilian")
    if row.trigger == "killed" and not killed:
        return
    if not regular_vs_irregular(ctx.state) or army(ctx.state, by_side) != "regular":
        return
    if unit_var(ctx.state, civilian.id, "civilian"):
        return
    if killed:
        reason = M("{unit} killed by {side}", unit=civilian.name, side=by_side)
    else:
        reason = M("{unit} hit by {side}", unit=civilian.name, side=by_side)
    charge(ctx, by_side, "civilian", reason, about=civilian)
    set_unit_var(ctx, civilian, "civilian", 1)
