"""Defeat points (§14.0, digest T-16): every line of the list, charged as
``DefeatPoints`` events with the ledger column (category) the journalist
multipliers read.

Most lines are derived from the facts other commands record, by :func:`settle`,
which the turn machine runs whenever a phase ends and before the final count:

* a man lost (``UnitOut`` with a loss cause, see forces.py): 15 Special Forces,
  10 regular, 5 irregular, 10 an irregular leader; struck off again if he is
  later stabilised (§9.3) or comes back;
* the first shot of the game (combat records ``first_fire``): 5, +25 under Rules
  of Engagement, and the end of a negotiation (negotiation.py);
* a civilian killed by the Regular player's fire (combat's ``UnitOut`` cause names
  the side): 5, or 10 under Rules of Engagement;
* an IED planted at a marker that combat's ``ied SIDE.N`` set off: shown to all.

Combat may call :func:`shot_fired` and ``ledger.civilian_hit`` directly for the
same effect at once (the Italian draft scores a civilian *hit*, which leaves no
fact behind when he saves).  The ``score`` command charges the lines that are
the referee's call: a building hit by support fire, a civilian, an objective
lost outside the marker rules, exfiltration.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import N_, M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import hits
from core.rulesets.breaking_news.campaign import forces, negotiation
from core.rulesets.breaking_news.ledger import (
    army,
    charge,
    civilian_hit,
    defeat_line,
    has_roe,
    regular_vs_irregular,
    set_unit_var,
    set_var,
    unit_var,
    var,
)
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import _


def casualty_line(state: GameState, unit: Unit) -> str:
    """§14.0: which line a lost man scores for his side."""
    if army(state, unit.side) == "irregular":
        return "irregular-leader-lost" if hits.is_leader(unit) else "irregular-lost"
    return "special-forces-lost" if unit.cls == "R1" else "regular-lost"


# ------------------------------------------------------------------- settling


def settle(ctx: Context) -> None:
    """Score what the facts so far call for and has not been scored yet."""
    first = var(ctx.state, "first_fire", "")
    if first and not var(ctx.state, "first_fire.scored", 0):
        shot_fired(ctx, str(first))
    for key, secret in list(ctx.state.secrets.items()):
        # combat's ``ied SIDE.N`` spends the charge planted at that marker (extras.plant)
        if key.startswith("ied.") and not secret.revealed and var(ctx.state, key, "") == "spent":
            ctx.emit(ev.Revealed(key=key, value=secret.value))
    for u in list(ctx.state.units.values()):
        if u.kind == Kind.MAN:
            _settle_man(ctx, u)
        elif u.kind == Kind.CIVILIAN and u.out:
            what, by_side = hits.parse_cause(u.out)
            if what in forces.DEAD_CAUSES and by_side:
                civilian_hit(ctx, u, by_side, killed=True)


def _settle_man(ctx: Context, u: Unit) -> None:
    scored = int(unit_var(ctx.state, u.id, "lost"))
    lost = forces.is_loss(u)
    if lost and not scored:
        what = hits.parse_cause(u.out)[0]
        charge(ctx, u.side, casualty_line(ctx.state, u), M("{unit} {what}", unit=u.name, what=M(what)), about=u)
        set_unit_var(ctx, u, "lost", ctx.state.turn or 1)
    elif scored and not lost:
        row = defeat_line(ctx, casualty_line(ctx.state, u))
        why = M("stabilised") if u.out else M("back in action")
        reason = M("{unit} {why}: no longer a loss", unit=u.name, why=why)
        charge(ctx, u.side, casualty_line(ctx.state, u), reason, points=-row.points, about=u)
        set_unit_var(ctx, u, "lost", 0)


def shot_fired(ctx: Context, side: str) -> None:
    """The first shot of the game: 5 to the firer (+25 under Rules of Engagement);
    if it breaks a negotiation, the breaker pays as negotiation.py says instead."""
    if var(ctx.state, "first_fire.scored", 0):
        return
    if not var(ctx.state, "first_fire", ""):
        set_var(ctx, "first_fire", side)
    set_var(ctx, "first_fire.scored", 1)
    if negotiation.broken_by(ctx, side):
        charge(ctx, side, "negotiation-broken-first-fire", M("{side} fired first, breaking the negotiation", side=side))
    else:
        charge(ctx, side, "first-fire", M("{side} fired first", side=side))
    if has_roe(ctx.state, side):
        charge(ctx, side, "roe-first-fire", M("{side} fired first under Rules of Engagement", side=side))


# ---------------------------------------------------------------------- score

#: The lines the referee charges by hand, and who they go to.
SCORE_LINES = {
    "first-fire": "the side that fired the first shot (when combat did not record it)",
    "building": "the side whose support fire hit the building",
    "civilian": "the Regular side whose fire hit or killed the civilian",
    "exfiltration": "the side leaving the field",
    "disengagement": "the side that retreated for failing morale",
    "main-objective": "the side that lost its main objective",
    "secondary-objective": "the side that lost a secondary objective",
    "journalist-captured": "the Regular side whose journalist was captured",
}


#: Each line's name, the reason a charge gives when the referee gives none.
LINE_NAMES = {
    "first-fire": N_("first fire"),
    "building": N_("building"),
    "civilian": N_("civilian"),
    "exfiltration": N_("exfiltration"),
    "disengagement": N_("disengagement"),
    "main-objective": N_("main objective"),
    "secondary-objective": N_("secondary objective"),
    "journalist-captured": N_("journalist captured"),
}


def _score(ctx: Context, args: dict[str, Any]) -> None:
    line_id, side, count = args["line"], args["side"], args["count"]
    if count < 1:
        raise Refused(_("count at least 1"), rule=TYPING)
    if line_id == "first-fire":
        if var(ctx.state, "first_fire.scored", 0):
            raise Refused(
                _("{first_fire} fired first already").format(first_fire=var(ctx.state, "first_fire")),
                rule=("FIRE-15", "DP-2"),
            )
        set_var(ctx, "first_fire", side)
        shot_fired(ctx, side)
        return
    if line_id in ("building", "civilian", "journalist-captured"):
        if not regular_vs_irregular(ctx.state):
            raise Refused(
                _("the {line_id} line counts only in games of Regulars against Irregulars (§14.0)").format(
                    line_id=line_id
                ),
                rule="DP-1",
            )
        if army(ctx.state, side) != "regular":
            raise Refused(
                _("only the Regular player scores the {line_id} line (§14.0, Extras: Civilians)").format(
                    line_id=line_id
                ),
                rule=("DP-1", "EXT-11"),
            )
    row = defeat_line(ctx, line_id)
    if row.value(has_roe(ctx.state, side)) == 0:
        raise Refused(
            _("the {line_id} line is worth nothing in this variant (docs/rulings.md)").format(line_id=line_id),
            rule="DP-1",
        )
    # the referee's own words, as typed; else the line's name
    reason = args["reason"] or M(LINE_NAMES[line_id])
    for _i in range(count):
        charge(ctx, side, line_id, reason)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "score",
        "Charge a line of the defeat points list to a side (casualties, first fire and "
        "objectives taken are scored by themselves).",
        _score,
        params=(
            Param("line", "choice", "which line of §14.0", choices=tuple(SCORE_LINES)),
            Param("side", "side", "the side that takes the points"),
            Param("count", "int", "how many times", optional=True, default=1, keyword=True, lo=1, hi=50),
            Param("reason", "text", "what happened", optional=True, prose=True),
        ),
        rule="§14.0",
        examples=("score building regulars", "score civilian regulars count=2 market shelled"),
        phases=("initiative", "activation", "end", "final"),
        who="referee",
    ),
)
