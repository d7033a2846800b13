"""Linea di Tiro 1.0 — quick WWII skirmish rules with card-driven activation.

Card machine (digest C.2.1; book "Sequenza di gioco")::

    setup → deployment → card → card → … (one ``next`` = one card drawn)

Hearts and diamonds activate the Allied side, spades and clubs the Axis side;
a face card activates a platoon or gives a unit move; a joker is the scenario's
special card.  Rulings: docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from core.language.i18n import Text, scenario_words
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Phase, Refused, Ruleset
from core.rulesets.common import STATUSES, Loaded, emit_scenario, load_scenarios, referee_tools, scenario_command
from core.rulesets.linea_di_tiro import commands, dice_order, turn
from core.rulesets.linea_di_tiro.commands import game
from core.rulesets.linea_di_tiro.scenario_format import FORMAT, as_profile, profile_of
from core.rulesets.linea_di_tiro.tables import Profile, deck
from core.rulesets.linea_di_tiro.words import DOMAIN, _, note_for_a_side, owner
from core.scenarios.breaking import standing

SCENARIOS = Path(__file__).parent / "scenarios"

#: The card phase's ``commands`` follow C.2.1 and C.3: a number card activates a piece,
#: a face card a unit move (LT-R010, LT-R090); the activated piece bounds or moves at
#: speed and executes its attacks, anti-tank or MG/HE (LT-R020, LT-R050, LT-R060).
PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "C.2.1", commands=("scenario",)),
    Phase(
        "deployment",
        "Deployment",
        "both",
        "deploy; hidden pieces stay off the table; next draws the first card",
        "LT-R030",
    ),
    Phase(
        "card",
        "Card",
        "card",
        "the side of the card's suit activates; then next draws again",
        "LT-R010",
        commands=("activate", "unitmove", "move", "at", "mg"),
    ),
)


class LineaDiTiro(Ruleset):
    id = "linea-di-tiro"
    name = "Linea di Tiro"
    version = "1.0"
    domain = DOMAIN.name
    phases = PHASES
    next_dice = (dice_order.DISCARDS_SHUFFLE,)
    next_known_as = ("draw",)  # LT-R010: each activation begins with a card drawn, by next
    end_phases = ("deployment", "card")  # LT-AMB-32: the result command's
    rule_source = "linea-di-tiro-1.0-it.md"
    scenario_format = FORMAT
    demo_sides = ("us", "german")  # its demo's sides (``players``' example)
    # digest part D: the scenario's profiles name its kinds of piece, a hidden Pak's too
    referee_vars = ("profile.",)
    # LT-R053 (ruling LT-REPLY): a hidden piece's reply to its first spotter: the piece, the spotter
    piece_keys = ("secret.ambush.", "morale_due.")
    piece_values = ("secret.ambush.",)
    # LT-R010: the deck's order, shuffled once (the referee's alone)
    secret_vars = ("secret.ambush.", "secret.deck", "secret.last-attack")

    @cached_property
    def scenarios(self) -> Mapping[str, Loaded]:
        return load_scenarios(FORMAT, SCENARIOS)

    def commands(self) -> list[CommandSpec]:
        return [
            scenario_command(
                self.scenarios,
                self._scenario,
                help="Set up a ready-made scenario and shuffle the deck.",
                rolls=True,
                dice=(dice_order.DECK_SHUFFLE,),
            ),
            *commands.COMMANDS,
            *referee_tools("gis"),  # the demo's
        ]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        # The scenario's format checks the sides' armies and shuffles the deck.
        emit_scenario(ctx, args["name"])
        ctx.emit(ev.PhaseBegan(turn=0, phase="deployment"))

    def describe_secret(self, key: str, value: int | str) -> str | None:
        """LT-R002: the shuffled deck, opened at the end, card by card in its order (``secrets``)."""
        if key == "secret.deck":
            return _("the deck is shuffled: {cards}").format(cards=" ".join(map(_card, str(value).split(","))))
        return None

    def describe_var(self, key: str, value: int | str) -> str | None:
        if key == "secret.deck":
            # LT-R002: the order is the referee's secret, kept for the check at the end
            # (``describe_secret``): the log says the shuffle, not its 54 cards (#77)
            n = len(str(value).split(",")) if value else 0
            said = DOMAIN.ngettext(
                "the deck is shuffled: {n} card, its order kept secret until the end (LT-R002)",
                "the deck is shuffled: {n} cards, their order kept secret until the end (LT-R002)",
                n,
            )
            return said.format(n=n)
        if key == "deck.table":  # ruling LT-TABLE-DECK: the card, not the game's order kept in step with it
            if not value:
                return _("the table's own deck: no card drawn since the last shuffle")
            return _("the table drew {card} from its own deck").format(card=_card(str(value).rpartition(":")[2]))
        if key == "deck.drawn":
            if not value:
                return _("a fresh deck")
            drawn = DOMAIN.ngettext(
                "{n} card drawn since the last shuffle",
                "{n} cards drawn since the last shuffle",
                value if isinstance(value, int) else 0,
            )
            return drawn.format(n=value)
        if key == "scenario_id":
            return _("scenario {id}").format(id=value)
        if key == "secret.last-attack":
            # LT-R052 (ruling LT-REPLY): the book-keeping of who may answer whom, said without
            # the pieces, which a side's copy may not know (their ids are no words of the game).
            # Noted after every attack survived, whether its target holds a prepared attack or not (#61).
            if value:
                return _("an attack survived: its target may answer it, if it holds a prepared attack (LT-R052)")
            return _("no attack waited for a reply (LT-R052)")
        if key.startswith("secret.ambush."):
            piece = key.removeprefix("secret.ambush.")
            if value:
                return _("{piece} may reply to its first spotter {spotter}").format(piece=piece, spotter=value)
            return _("{whose} reply is spent").format(whose=owner(piece))
        if key.startswith("morale_due."):
            # LT-R051 (ruling LT-TEST-FIRST): a T's morale test, owed until it is taken
            piece = key.removeprefix("morale_due.")
            if value:
                return _("{piece} owes a morale test: it attacks nothing until it takes it (LT-R051)").format(
                    piece=piece
                )
            return _("{whose} morale test is settled").format(whose=owner(piece))
        if key.startswith("profile."):
            # digest part D: the scenario names each kind of piece it defines
            return _("piece profile {id} from the scenario").format(id=_profile_name(value, key.partition(".")[2]))
        if key == "joker.effect":
            return _("a joker: {effect} (LT-R010)").format(effect=scenario_words(str(value)))
        if key == "joker.artillery":
            return _("a joker starts a called artillery attack (LT-R090)") if value else _("jokers start no artillery")
        if key == "unit_move":
            return _("card {card} spent on a unit move").format(card=value)
        if key.startswith("artillery."):
            side = owner(key.partition(".")[2])
            return _("{whose} artillery: {state}").format(whose=side, state=DOMAIN.term(str(value)))
        if key.startswith("artillery_card."):
            side = owner(key.partition(".")[2])
            return _("{whose} artillery fires on card {card}").format(whose=side, card=value)
        return None

    def terms(self) -> list[str]:
        """Badges and states shown from data (turn.py), the joker, the artillery's states, and
        ``draw``, the word a result takes for a draw (commands/game.py)."""
        return [
            *turn.BADGES,
            deck().joker,
            "requested",
            "firing",
            "draw",
        ]

    def statuses(self) -> frozenset[str]:
        """turn.BADGES, the options' codes a piece wears for its card (LT-R010), and the
        shared ones the referee may mark."""
        return frozenset({*STATUSES, *turn.BADGES, *turn.CARD_BADGES})

    def note_for_a_side(self, text: Text) -> Text:
        return note_for_a_side(text)

    def scenario_class(self, state: GameState, cls: str) -> str | None:
        # digest part D: a piece's class is a profile of its scenario, shown by the profile's name
        named = _profile_name(state.vars.get(f"profile.{cls}"), cls)
        return named if named != cls else None

    def profile(self, state: GameState, unit: Unit) -> Profile:
        """The piece's profile from its scenario (its ``cls``), with its own stats over it."""
        found = profile_of(state.vars, unit.cls, unit.stats)
        if found is None:
            # A game set up before profiles were recorded: its built-in scenario's.
            built = self.scenarios.get(str(state.vars.get("scenario_id", "")))
            spec = next((p for p in built.sc.profiles if p.id == unit.cls), None) if built else None
            found = as_profile(spec) if spec else None
        if found is None:
            raise Refused(
                _("{unit} has no profile {cls!r} in this scenario").format(unit=unit.name, cls=unit.cls), rule="LT-R001"
            )
        return found

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        turn.check_turn(self, state, parsed, role)

    def advance(self, ctx: Context) -> None:
        turn.advance(ctx)

    def end_broken(self, ctx: Context, losers: tuple[str, ...], why: Text) -> None:
        """The scenario's break point reached (ruling CORE-BREAK-AT): the end fact LT-END
        records, the side still standing winning, with the losses and the cards played."""
        ctx.emit(game.ending(ctx.state, standing(ctx.state, losers) or game.DRAW, why))

    def sequence_step(self, state: GameState) -> tuple[object, ...]:
        return turn.sequence_step(self, state)


def _profile_name(raw: object, cls: str) -> str:
    """A profile's name from its recorded JSON (``profile.<id>``); its id where there is none."""
    if not isinstance(raw, str):
        return cls
    try:
        found = profile_of({f"profile.{cls}": raw}, cls, {})
    except msgspec.MsgspecError:
        return cls  # a damaged or hostile value: shown by its id
    return found.name if found and found.name else cls


def _card(card: str) -> str:
    """A card as the reader's book names it: the joker by its term (the Italian book's
    *jolly*, LT-R002), the others by rank and suit, which every language writes alike."""
    return DOMAIN.term(card) if card == deck().joker else card
