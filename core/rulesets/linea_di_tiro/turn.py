"""The Linea di Tiro card machine (digest C.2.1; book "Sequenza di gioco").

There are no turns: each ``next`` draws a card, and the card's number is the
``turn`` of its ``PhaseBegan(phase="card", card=..., active=...)``.

The deck's order is decided by the game's dice when it is shuffled and kept as
the variable ``secret.deck`` (only the referee's view and log show it); the
public ``deck.drawn`` counts the cards drawn from it.  Drawing only reads that
order, so a replay or a reopened game draws exactly the recorded cards and
never shuffles again (ruling LT-DECK).

What a piece did under the current card is kept as status badges on the piece
(so a hidden piece's activation stays hidden with it): the option it took
(``A1``…``A7``), ``attacks-2``/``attacks-1`` (the attacks it may still execute),
``prepare-1``/``prepare-2`` (those it may still prepare, after its other half),
``moved``, ``retreating`` (it fled), ``opportunity`` (its free opportunity shot) and
``shelled`` (it took the artillery's attack).  They are cleared when the next card
is drawn.  Badges that outlast a card count things: ``ready-N`` (prepared attacks),
``fired-N`` (shots since its last bound, LT-R033), ``he-N`` (HE attacks in a row
taken while immobilised, LT-R061), and ``immobilised``.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState
from core.log.views import REFEREE, REFEREE_ONLY
from core.ruleset import Context, Question, Refused, Ruleset
from core.rulesets.linea_di_tiro import dice_order, rules, scenario_vars
from core.rulesets.linea_di_tiro.tables import deck, mg_table, options, spotting
from core.rulesets.linea_di_tiro.terms import PhaseId
from core.rulesets.linea_di_tiro.words import BARRAGE_OPENS, DOMAIN, _, owner, whose

DECK_VAR = "secret.deck"
#: The first enemy that spotted a hidden piece which may reply to it (LT-R053):
#: ``secret.ambush.<piece>`` = the spotter's id, until the reply or the next card.
AMBUSH_VAR = "secret.ambush."
DRAWN_VAR = "deck.drawn"
#: The cards the table drew from its own deck since the last shuffle, each as
#: ``DRAW:CARD`` (ruling LT-TABLE-DECK): the game's order is ``secret.deck`` with each
#: swapped to the top at its draw (``game_order``), so that a table's draw says its one card
#: instead of recording, and printing, the game's whole deck again.
TABLE_VAR = "deck.table"
ATTACK_BADGES = ("attacks-1", "attacks-2")
#: Attacks the activation may still prepare after its other half (A1, A3 "o v.v.", LT-R020).
PREPARE_BADGES = ("prepare-1", "prepare-2")
READY_BADGES = ("ready-1", "ready-2")
#: LT-R033: shots fired since the piece's last bound (``fired-1`` ...).
FIRED_BADGES = tuple(f"fired-{n}" for n in range(1, spotting().max_doublings + 1))
#: LT-R061: HE attacks in a row taken by an immobilised piece (``he-1`` ...).
HE_BADGES = tuple(f"he-{n}" for n in range(1, mg_table().he_streak_max + 1))
#: Badges that last one card: the option taken, the attacks left, a move made, a
#: flight (a piece that flees fires no more under that card, LT-R051), the free
#: opportunity shot taken (ruling LT-OPPORTUNITY), the artillery attack taken.
CARD_BADGES = (*options(), *ATTACK_BADGES, *PREPARE_BADGES, "moved", "retreating", "opportunity", "shelled")
#: Every badge the pieces wear, for the catalogue (``Ruleset.terms``); the options are their ids.
BADGES = (
    *ATTACK_BADGES,
    *PREPARE_BADGES,
    "moved",
    "retreating",
    "opportunity",
    "shelled",
    *READY_BADGES,
    *FIRED_BADGES,
    *HE_BADGES,
    "immobilised",
    "in-vehicle",
)
#: Commands a side may give out of its card: reactions with a ready attack, morale,
#: a voluntary rout (LT-R082).
REACTIONS = ("morale", "rout")


def side_of_army(state: GameState, army: str) -> str:
    return next((s.id for s in state.sides.values() if s.army == army), "")


def card_kind(state: GameState) -> str:
    return deck().kind(state.card) if state.card else ""


def new_deck(ctx: Context) -> None:
    """LT-R002: the 54 cards shuffled with the game's dice; the order is the referee's secret."""
    _record_deck(ctx, ctx.shuffle(deck().cards(), "deck shuffle", step=dice_order.DECK_SHUFFLE))


def _record_deck(ctx: Context, order: list[str]) -> None:
    ctx.emit(ev.VarSet(key=DECK_VAR, value=",".join(order), vis=REFEREE_ONLY))
    ctx.emit(ev.VarSet(key=DRAWN_VAR, value=0))
    if ctx.state.vars.get(TABLE_VAR):
        ctx.emit(ev.VarSet(key=TABLE_VAR, value=""))


def game_order(state: GameState) -> list[str]:
    """The game's order of the deck now: the shuffle's, each card the table drew
    since swapped to the top at its draw (ruling LT-TABLE-DECK)."""
    cards = state.vars[DECK_VAR].split(",")
    for entry in filter(None, str(state.vars.get(TABLE_VAR, "")).split(",")):
        n, _colon, card = entry.partition(":")
        at, to = cards.index(card, int(n)), int(n)
        cards[to], cards[at] = cards[at], cards[to]
    return cards


def check_turn(ruleset: Ruleset, state: GameState, parsed: Any, role: str) -> None:
    """A side's player acts on the cards of his suits; out of them he may only react
    with a ready attack (LT-R052/R053), an opportunity shot at an assault (LT-R100/R102),
    test morale or rout (C.2.1 D4)."""
    if role == REFEREE:
        return
    name = parsed.spec.name
    if name in ("note", "seal") or name in REACTIONS:
        return
    if name in ("at", "mg") and any(parsed.args.get(k) for k in ("ready", "ambush", "opportunity")):
        return
    if state.phase != PhaseId.CARD:
        raise Refused(_("no card has been drawn yet; the referee draws with next"), rule=("LT-R010", "ENG-2"))
    if role != state.active_side:
        if not state.active_side:
            raise Refused(
                _("the card {card} is no side's (a joker); you may only fire a ready attack in reply").format(
                    card=state.card
                ),
                rule=("LT-R052", "LT-AMB-05"),
            )
        raise Refused(
            _("the card {card} is {whose}; you may only fire a ready attack in reply").format(
                card=state.card, whose=owner(state.side_name(state.active_side))
            ),
            rule=("LT-R010", "LT-R052"),
        )


def sequence_step(ruleset: Ruleset, state: GameState) -> tuple[object, ...]:
    """Where the report's re-rolls give an order (``Ruleset.sequence_step``, ruling
    CORE-REROLL): the deck decides which side acts on each card, and what the card lets
    it do (LT-R010: a number card one piece, a face card a platoon or a unit move, a
    joker the scenario's event), so a side's cards of each kind are its steps, the n-th
    of them wherever the shuffle puts it."""
    if state.phase == PhaseId.CARD:
        return (PhaseId.CARD, card_kind(state), state.active_side)
    return Ruleset.sequence_step(ruleset, state)


def advance(ctx: Context) -> None:
    s = ctx.state
    match s.phase:
        case "setup":
            raise Refused(_("load a scenario first: scenario demo"), rule="ENG-7")
        case "deployment" | "card":
            last = scenario_vars.game_cards(s)
            if last and s.turn >= last:
                raise Refused(
                    _("the scenario's {n} cards have been played: record the result with result SIDE|draw").format(
                        n=last
                    ),
                    rule=("LT-AMB-32", "ENG-2"),
                )
            draw_card(ctx)
        case _:
            if s.result:
                raise Refused(
                    _("the game is over: {result}").format(result=DOMAIN.render(s.result)), rule=("LT-AMB-32", "ENG-2")
                )
            raise Refused(_("unknown phase {phase}").format(phase=s.phase), rule="ENG-2")


def draw_card(ctx: Context) -> None:
    """C.2.1 D1–D6: discard the last card (its activations end), draw the next, give it
    to the side of its suit, and reshuffle when 10 cards are left (LT-R011)."""
    s = ctx.state
    for u in s.units.values():
        done = tuple(b for b in CARD_BADGES if u.has(b))
        if done:
            ctx.emit(ev.StatusChanged(unit=u.id, remove=done))
    # LT-R053: the ambush is "immediate": a reply not fired under the card that spotted the piece is lost
    for key in sorted(k for k, v in s.vars.items() if k.startswith(AMBUSH_VAR) and v):
        ctx.emit(ev.VarSet(key=key, value="", vis=REFEREE_ONLY))
    order = game_order(s)
    if ctx.dice.manual:  # the table keeps its own deck: it says the card it drew
        order = _table_card(ctx, order)
    card, drawn = rules.draw(order, s.vars[DRAWN_VAR])
    ctx.emit(ev.VarSet(key=DRAWN_VAR, value=drawn))
    active = side_of_army(s, deck().army(card))
    ctx.emit(
        ev.PhaseBegan(
            turn=s.turn + 1, phase="card", card=card, active=active, reacting=s.other_side(active) if active else ""
        )
    )
    if deck().kind(card) == "joker":
        _joker(ctx)
    last = scenario_vars.game_cards(s)
    if last and s.turn == last:
        ctx.emit(ev.Noted(text=M("the last card of the game ({n}, the scenario's turns)", n=last)))
    if rules.reshuffle_due(order, drawn):
        # the table shuffles its own discards; the game's order of them stands for it (ruling LT-TABLE-DECK)
        discards = (
            order[:drawn]
            if ctx.dice.manual
            else ctx.shuffle(order[:drawn], "discards shuffle", step=dice_order.DISCARDS_SHUFFLE)
        )
        _record_deck(ctx, rules.restack(order, drawn, discards))
        left = deck().reshuffle_at
        ctx.emit(ev.Noted(text=M("{n} cards left: the discards are shuffled under them (LT-R011)", n=left)))


#: What ``next`` asks a table that keeps its own deck (ruling LT-TABLE-DECK).
CARD_QUESTION = M("the card the table drew")
#: Why a card of the deck cannot be the one drawn now (LT-R011).
NOT_IN_THE_PILE = M(
    "it is not in the pile: drawn since the last reshuffle, or among the discards shuffled under the cards left"
)


def _table_card(ctx: Context, order: list[str]) -> list[str]:
    """C.2.1 D2 with the table's own deck (ruling LT-TABLE-DECK): the card the table drew,
    asked, one of those the pile may hold now (``rules.drawable``); the game's order is
    made to agree (the card swapped to the top), so that the game's dice may take over."""
    drawn = ctx.state.vars[DRAWN_VAR]
    pile = rules.drawable(order, drawn, ctx.state.turn)
    choices = tuple(dict.fromkeys(c for c in deck().cards() if c in pile))
    closed = tuple(dict.fromkeys(c for c in deck().cards() if c not in pile))
    card = ctx.ask(
        Question(
            CARD_QUESTION,
            choices,
            spellings=tuple(deck().typed(c) for c in choices),
            closed=closed,
            closed_why=NOT_IN_THE_PILE,
            closed_spellings=tuple(deck().typed(c) for c in closed),
            rule="LT-R010",
        )
    )
    at = order.index(card, drawn)
    if at == drawn:
        return order
    swapped = list(order)
    swapped[drawn], swapped[at] = swapped[at], swapped[drawn]
    table = ctx.state.vars.get(TABLE_VAR, "")
    ctx.emit(ev.VarSet(key=TABLE_VAR, value=f"{table},{drawn}:{card}" if table else f"{drawn}:{card}"))
    return swapped


def _joker(ctx: Context) -> None:
    """LT-R010/R090: a joker is the scenario's special card; artillery called for starts
    firing, and artillery already firing fires again (each joker one attack, LT-AMB-27)."""
    effect = scenario_vars.joker_effect(ctx.state)
    said = effect or M("the scenario gives it no effect")
    ctx.emit(ev.Noted(text=M("joker: {effect} (LT-R010)", effect=said)))
    if not scenario_vars.joker_starts_artillery(ctx.state):
        return
    for side in ctx.state.sides:
        key = f"artillery.{side}"
        if ctx.state.vars.get(key) in ("requested", "firing"):
            if ctx.state.vars.get(key) == "requested":
                ctx.emit(ev.VarSet(key=key, value="firing"))
            ctx.emit(ev.VarSet(key=scenario_vars.ARTILLERY_CARD + side, value=ctx.state.turn))
            squares = scenario_vars.artillery_sections(ctx.state, side)
            # the command keeps the side's id (``side_id``: never named): it is what the referee types
            text = M(BARRAGE_OPENS, whose=whose(side), n=squares, side_id=side)
            ctx.emit(ev.Noted(text=text))
