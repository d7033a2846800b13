"""Bassa Intensità — modern skirmish rules by Leonardo Tacconi, trial version 1.9 (2002).

Turn machine (digest A.5.2; book "SEQUENZA DI GIOCO")::

    setup → [initiative → cover → move-first → move-second → observe
             → fire-elite … fire-rabble → end] per turn

``next`` moves from one phase to the next; leaving ``initiative`` rolls it.
Every check is 1d10 rolled under the unit's Quality (tables.py, rules.py).
A hit goes on to its damage (rules/damage.py, casualties.py); losses make morale checks
due (commands/morale.py); the game ends as commands/end.py says.
Rulings: docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from core.language.i18n import M, Msg, Text, english_words, piece_name, scenario_words, side_name
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import CommandSpec, Context, Param, Phase, Ruleset
from core.rulesets.bassa_intensita import (
    casualties,
    commands,
    dice_order,
    turn,
)
from core.rulesets.bassa_intensita.commands import end, support
from core.rulesets.bassa_intensita.commands.casualties import BURST_SOURCES
from core.rulesets.bassa_intensita.rules.damage import PEN_ONLY
from core.rulesets.bassa_intensita.scenario_format import FORMAT
from core.rulesets.bassa_intensita.tables import direct_fire_weapons, tier_by_id, tiers
from core.rulesets.bassa_intensita.terms import Status
from core.rulesets.bassa_intensita.vocabulary import BADGE_FAMILIES, STATUSES_SHOWN, data_words
from core.rulesets.bassa_intensita.words import DOMAIN, _, pgettext, render, whose
from core.rulesets.common import STATUSES, Loaded, emit_scenario, load_scenarios, referee_tools, scenario_command
from core.scenarios.breaking import standing

SCENARIOS = Path(__file__).parent / "scenarios"

#: Each phase's ``commands`` follow the sequence of play of A.5.1: covering fire is
#: declared before anyone moves, once the initiative winner has chosen his order (at a
#: visible enemy, or at a feature: BI-R051..R053); in the movement phase the players
#: move, throw smoke and at its end observe, while the other side may fire at movers
#: (opportunity fire, BI-R050); in the fire phase each tier fires or acts and throws
#: smoke (BI-R061, A.8); observation closes the movement and the fire (BI-R160).
PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "A.5.2", commands=("scenario",)),
    Phase("initiative", "Initiative", "referee", "next rolls 1d6 each for initiative", "A.5.1"),
    Phase(
        "cover",
        "Covering fire",
        "both",
        "declare covering fire; the initiative winner may order second; then next",
        "BI-R051",
        commands=("order", "fire", "screen"),
    ),
    Phase(
        "move-first",
        "First mover",
        "active",
        "the first mover moves; the other side may fire at movers; next",
        "A.5.1, BI-R050",
        commands=("move", "smoke", "observe", "fire"),
    ),
    Phase(
        "move-second",
        "Second mover",
        "active",
        "the second mover moves; the other side may fire at movers; next",
        "A.5.1, BI-R050",
        commands=("move", "smoke", "observe", "fire"),
    ),
    Phase(
        "observe",
        "Observation",
        "both",
        "the referee rolls observation attempts; then next",
        "BI-R160",
        commands=("observe",),
    ),
    *(
        Phase(
            f"fire-{t.id}",
            f"Fire and actions: {t.name}",
            "both",
            f"{t.name} units of both sides fire or act; then next",
            "BI-R061",
            commands=("fire", "act", "smoke"),
        )
        for t in tiers()
    ),
    Phase(
        "end",
        "End of turn",
        "referee",
        "observation after fire; then next",
        "BI-R160, A.5.2",
        commands=("observe",),
    ),
    Phase("final", "Last turn over", "referee", "record the result: victory SIDE [reason], or victory draw", "BI-END"),
)


#: The scenario's facts this ruleset reads, set as variables at set-up (docs/rulings.md, BI-SCENARIO-VARS).
SCENARIO_VARS = {
    "scenario.turns": lambda v: _("the game lasts {n} turns").format(n=v) if v else _("no turn limit"),
    "scenario.night": lambda v: (
        _("it is daylight") if v == "day" else _("it is night ({light})").format(light=pgettext("term", str(v)))
    ),
    "scenario.victory": lambda v: _("victory: {conditions}").format(conditions=scenario_words(str(v))),
}


class BassaIntensita(Ruleset):
    id = "bassa-intensita"
    name = "Bassa Intensità"
    version = "1.9"
    domain = DOMAIN
    phases = PHASES
    end_phases = ()  # BI-END: the victory command, in any phase
    next_dice = (
        dice_order.NEXT_MORALE,
        dice_order.NEXT_TAKING_OVER,
        dice_order.NEXT_INITIATIVE,
        dice_order.NEXT_ROTOR,
    )
    rule_source = "bassa-intensita-1.9-it.md"
    scenario_format = FORMAT
    demo_sides = ("folgore", "militia")  # its demo's sides (``players``' example)
    # BI-R100 (the observer's fire support), A.13 (a badly wounded man's death): by piece
    piece_keys = ("secret.support.", "secret.dies.", "secret.m3.")
    # ... a declared covering fire on a feature, by its firer (BI-R051; commands/cover.py), and
    # the hidden enemies a side has tried to observe in this step, by the side (BI-R164; commands/actions.py)
    secret_vars = (*piece_keys, "secret.screen.", "secret.looked.")

    @cached_property
    def scenarios(self) -> Mapping[str, Loaded]:
        return load_scenarios(FORMAT, SCENARIOS)

    def commands(self) -> list[CommandSpec]:
        """The shared referee tools, with ``mark`` and ``clear`` knowing this ruleset's badges."""
        statuses = (*STATUSES, *(b for b in casualties.BADGES if b not in STATUSES))
        tools = []
        for spec in referee_tools("omar"):  # the demo's
            if spec.name in ("mark", "clear"):
                spec = msgspec.structs.replace(
                    spec, params=(spec.params[0], Param("status", "choice", choices=statuses))
                )
            tools.append(spec)
        return [scenario_command(self.scenarios, self._scenario), *commands.COMMANDS, *tools]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, args["name"])
        for unit in ctx.state.units.values():
            # A.9.3: a weapon the scenario sets up in position starts emplaced (ruling BI-EMPLACED)
            if "emplaced" in unit.roles and not unit.has(Status.EMPLACED):
                ctx.emit(ev.StatusChanged(unit=unit.id, add=("emplaced",)))
        ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        turn.check_turn(self, state, parsed, role)

    def advance(self, ctx: Context) -> None:
        turn.advance(ctx)

    def end_broken(self, ctx: Context, losers: tuple[str, ...], why: Text) -> None:
        """The scenario's break point reached (ruling CORE-BREAK-AT): the result BI-END
        records, the side still standing winning, with each side's losses."""
        end.record(ctx, standing(ctx.state, losers), why)

    def sequence_step(self, state: GameState) -> tuple[object, ...]:
        return turn.sequence_step(state)

    def describe_var(self, key: str, value: int | str) -> str | None:
        """A variable in the reader's language."""
        if key == "first_mover":
            return _("{side} moves first this turn (A.5.1)").format(side=side_name(str(value)))
        if key.startswith("aircraft."):
            owner = render(whose(key.removeprefix("aircraft.")))
            if value == "down":
                return _("{owner} aircraft is shot down").format(owner=owner)
            if value:
                return _("{owner} aircraft is damaged and broke off").format(owner=owner)
            return _("{owner} aircraft is back").format(owner=owner)
        if key.startswith("gas."):
            who, _sep, last = str(value).rpartition("|")
            if not value:
                return _("the gas lifts")
            men = ", ".join(piece_name(uid) for uid in who.split(",") if uid)
            return _("tear gas over {men} until the end of turn {turn}").format(men=men, turn=last)
        if key.startswith("smoke."):
            if not value:
                return _("a smoke cloud lifts")
            what, who, last = support.smoke_value(str(value))
            cloud = render(M("{what} by {unit}", what=what, unit=who)) if who else render(what)
            if last == support.FOR_GOOD:  # napalm (BI-R252)
                return _("smoke: {what}, for the rest of the game").format(what=cloud)
            return _("smoke: {what}, until the end of turn {turn}").format(what=cloud, turn=last)
        if key.startswith(support.M3_KEY):
            owner = render(whose(key.removeprefix(support.M3_KEY)))
            if value:
                return _("{owner} fire support: within 20 cm of its attack, morale is checked (M3)").format(owner=owner)
            return _("{owner} fire support: a mortar of 100 mm or less, no morale check for it (M3)").format(
                owner=owner
            )
        if key.startswith("secret.support."):
            parts = str(value).split(":")
            if len(parts) != 3:
                return None  # not stage:source:turn (a hostile save's): shown as key = value
            stage, source, turn = parts
            owner = render(whose(key.removeprefix("secret.support.")))
            return _("{owner} fire support ({source}): {stage} in turn {turn}").format(
                owner=owner, source=support.source_words(source), stage=pgettext("term", stage), turn=turn
            )
        if key.startswith("mine."):
            # BI-R221..R223: a mine the scenario lays, its kind and place (hidden: its layer's secret)
            # (a built-in scenario's kind and place in the reader's language: ruling I18N-SCENARIO)
            return _("a mine laid before the game: {what}").format(what=scenario_words(str(value)))
        if key.startswith("secret.dies."):
            who = key.removeprefix("secret.dies.")
            if value:
                return _("{unit} dies at the end of turn {turn} unless dressed").format(unit=who, turn=value)
            return _("{owner} wound is dressed").format(owner=render(whose(who)))
        return SCENARIO_VARS.get(key, lambda v: None)(value)

    def note_for_a_side(self, text: Text) -> Text:
        return support.note_for_a_side(text)

    def note_for_the_referee(self, text: Text) -> Text:
        return support.note_for_the_referee(text)

    def status_words(self, status: str, name: Callable[[str], str]) -> str:
        # A.6: a man aboard carries the vehicle's id in a badge; the log names the vehicle
        if status.startswith("aboard-"):
            return _("aboard {vehicle}").format(vehicle=name(status.removeprefix("aboard-")))
        if status.startswith("screened-by-"):  # BI-R053: under that man's covering fire this turn
            return _("screened by {unit}").format(unit=name(status.removeprefix("screened-by-")))
        return super().status_words(status, name)

    def class_name(self, cls: str) -> str:
        tier = tier_by_id().get(cls)
        return pgettext("term", tier.name) if tier else cls

    def success_hurts_unit(self, roll: ev.Roll) -> bool:
        # These rolls name the unit they strike: a success is the attacker's
        # (A.12.3 penetration, A.10.3 HE, BI-R263 passengers hit aboard).
        if isinstance(roll.purpose, Msg):
            return roll.purpose.id in _ROLLED_AGAINST_THE_UNIT
        return roll.purpose in _OLDER_PURPOSES

    def terms(self) -> list[str]:
        """The badges (statuses) the narration and the roster show, the Quality tiers'
        names, the night's lights and the fire-support stages, shown by id, and the sources a
        burst names besides a weapon (a gun/mortar row, bombs) and the hits with no weapon of
        their own (an AT mine or grenade), typed by their names too."""
        return sorted(
            {
                *STATUSES_SHOWN,
                *(t.name for t in tiers()),
                *("moon", "dark"),
                *("contacted", "lost", "ranged", support.ATTACKED),
                *direct_fire_weapons(),
                *BURST_SOURCES,
                *PEN_ONLY,
            }
        )

    def phrases(self) -> list[str]:
        return sorted(data_words())

    def statuses(self) -> frozenset[str]:
        return STATUSES_SHOWN | frozenset(BADGE_FAMILIES)


#: Rolls whose success is bad for the unit they name (``success_hurts_unit``), by
#: their message's template.
_ROLLED_AGAINST_THE_UNIT = frozenset(
    m.id for m in (casualties.PENETRATION, casualties.CAUGHT_BY_HE, casualties.HIT_ABOARD)
)
#: The same rolls as saves from before messages name them (and before rolls read as nouns).
_OLDER_PURPOSES = frozenset(
    {
        "armour penetration",
        "whether the HE catches him",
        "hit aboard",
        "armour penetrated?",
        "caught by the HE?",
        "hit aboard?",
    }
)


# A piece's weapons are recorded by their id in the table (A.9.2): the log names each by
# the table's name (the catalogue gives the book's Italian row label).
english_words(DOMAIN, "term", {w.id: w.name for w in direct_fire_weapons().values()})
