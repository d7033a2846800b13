"""Linea di Tiro artillery fire (C.10, "Artiglieria") and the end of the game."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Text
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import END_GAME, CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.common import NO_DEFEAT_POINTS
from core.rulesets.linea_di_tiro import dice_order, scenario_vars
from core.rulesets.linea_di_tiro.commands.fire import defence_of, mg_attack
from core.rulesets.linea_di_tiro.pieces import require_in_play
from core.rulesets.linea_di_tiro.tables import artillery, mg_table
from core.rulesets.linea_di_tiro.terms import Status
from core.rulesets.linea_di_tiro.words import _, joined, owner

#: What ``result`` takes in the winner's place for nobody (its choice, in every language).
DRAW = "draw"


def _firing_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Whose artillery ``barrage`` may name (its ``side_check``): a side whose artillery
    fires on this card (a joker started it, or a face card continued it) with the
    scenario's HE factor (LT-R090)."""
    this_card = state.vars.get(scenario_vars.ARTILLERY_CARD + side) == state.turn
    if state.vars.get(f"artillery.{side}") != "firing" or not this_card:
        raise Refused(
            _(
                "{whose} artillery does not fire on this card: a joker starts it, "
                "unitmove continue-artillery continues it (LT-R090)"
            ).format(whose=owner(state.side_name(side))),
            rule=("LT-R090", "LT-AMB-27"),
        )
    if not scenario_vars.artillery_factor(state, side):
        raise Refused(
            _("this scenario gives {side} no artillery support with an HE factor (LT-R090)").format(
                side=state.side_name(side)
            ),
            rule="LT-R090",
        )


def _barrage(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R090 (ruling LT-ARTILLERY): on the card its artillery fires (the joker that
    started it, or a face card spent to continue it), every unit even partly in the
    square takes one HE attack on the MG/HE table — hidden ones too (LT-R030)."""
    s = ctx.state
    side, target = args["side"], ctx.unit(args["piece"])
    require_in_play(target)
    _firing_side(ctx.ruleset, s, side, ctx.role)
    if target.has(Status.SHELLED):
        raise Refused(
            _("{unit} has already taken this card's artillery attack").format(unit=target.name),
            rule=("LT-R090", "LT-AMB-27"),
        )
    factor = scenario_vars.artillery_factor(s, side)
    defence = defence_of(ctx, target, args["defence"])
    ctx.emit(ev.StatusChanged(unit=target.id, add=("shelled",)))
    square = artillery().square_cm
    mg_attack(
        ctx,
        target,
        factor,
        defence,
        True,
        [],
        "",
        M("artillery fire on {target} ({cm} cm square), HE", target=target.name, cm=square),
        side=side,
    )


def lost(state: GameState, side: str) -> int:
    """A side's score at the end (ruling LT-END, docs/rulings.md "The result as data"):
    its units out of action, as the result's words count them."""
    return sum(1 for u in state.units_of(side) if u.out)


def _losses(state: GameState) -> Text:
    parts: list[Text] = []
    for side in state.sides.values():
        n = len(state.units_of(side.id))
        parts.append(M("{side} lost {lost} of {n}", side=side.name, lost=lost(state, side.id), n=n))
    return joined(parts)


def ending(state: GameState, winner: str, why: Text) -> ev.GameEnded:
    """LT-AMB-32 (ruling LT-END): the end fact: who won (``winner``, or ``DRAW``) and why,
    with the losses (each side's score, ``lost``) and the cards played."""
    verdict = M("a draw") if winner == DRAW else M("{side} win", side=state.sides[winner].name)
    losses, cards = _losses(state), state.turn
    # The template is chosen by number here, not translated with a plural form: a result
    # is recorded as a message template, and each template is in every catalogue.
    if why and cards == 1:
        text = M("{verdict}: {why} ({losses}; after 1 card)", verdict=verdict, why=why, losses=losses)
    elif why:
        text = M(
            "{verdict}: {why} ({losses}; after {cards} cards)", verdict=verdict, why=why, losses=losses, cards=cards
        )
    elif cards == 1:
        text = M("{verdict} ({losses}; after 1 card)", verdict=verdict, losses=losses)
    else:
        text = M("{verdict} ({losses}; after {cards} cards)", verdict=verdict, losses=losses, cards=cards)
    scores = {side: lost(state, side) for side in state.sides}
    if winner == DRAW:
        return ev.GameEnded(result=text, draw=True, scores=scores)
    return ev.GameEnded(result=text, winner=winner, scores=scores)


def _result(ctx: Context, args: dict[str, Any]) -> None:
    """LT-AMB-32 (ruling LT-END): the book has no victory conditions; the referee,
    judging by the scenario's, records who won (or a draw), with the losses."""
    # The referee's words, or the scenario's, are shown as they were written.
    why = (args["why"] or "").strip() or scenario_vars.victory(ctx.state)
    ctx.emit(ending(ctx.state, args["winner"], why))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "barrage",
        "A side's artillery attacks one unit in its square (HE on the MG/HE table, with the "
        "scenario's attack factor); give it once for each unit even partly inside. Dice: one d6.",
        _barrage,
        params=(
            Param("side", "side", "whose artillery"),
            Param("piece", "unit", "a unit in the square"),
            Param(
                "defence",
                "choice",
                "what the unit is doing (C.7.1); vehicles have their own",
                optional=True,
                choices=tuple(d.id for d in mg_table().defences),
                keyword=True,
            ),
        ),
        rule="LT-R090",
        examples=("barrage german gis defence=still-open", "barrage us grenadiers defence=prepared"),
        phases=("card",),
        who="referee",
        rolls=True,
        dice=(dice_order.ARTILLERY,),
        side_check=_firing_side,
    ),
    CommandSpec(
        "result",
        "End the game and record its result: the winning side, or draw, and why.",
        _result,
        params=(
            Param("winner", "side", "the winning side (any word of its name), or draw", choices=(DRAW,)),
            Param("why", "text", "the reason (the scenario's condition met)", optional=True, prose=True),
        ),
        rule="LT-AMB-32",
        lacks=(NO_DEFEAT_POINTS,),
        examples=("result us the hamlet is taken", "result draw"),
        phases=("deployment", "card"),  # LineaDiTiro.end_phases
        aliases=(END_GAME,),
        known_elsewhere_as=("victory",),  # the other rulesets' name for it
        who="referee",
    ),
)
