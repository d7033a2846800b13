"""What the New game screen may choose for a Breaking News scenario
(``Ruleset.setup_choices``), each as the command line that does it:

* the mission (§4.1, ``mission N``), when the scenario leaves the markers to the
  players and more than one mission fits its sides;
* the optional rules (``option NAME on``: §8.0.2, §8.0.3, §9.3);
* each side's EXTRAS (``buy SIDE EXTRA [N]``), those its army may buy, checked
  against its points limit when the game starts (rulings BN-PTS-BUY);
* per side, whether the objectives are chosen by the player in deployment or
  drawn at random now (``objectives SIDE random``, rulings BN-OBJ-RANDOM).

The screen runs them after the scenario is set up and the rosters are fielded, in
this order: the mission before the objectives it decides, what lowers a bill
before what raises it.
"""

from __future__ import annotations

import msgspec

from core.language.i18n import N_
from core.log.events import SideSpec
from core.ruleset import Refused, SetupChoice
from core.rulesets.breaking_news import scenario_rules
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.options import OPTIONS
from core.rulesets.breaking_news.scenario_rules import ScenarioRules
from core.rulesets.breaking_news.tables import extras, negotiation, troop_classes
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import _
from core.rulesets.common import Scenario

#: Each mission in a few words (§4.1; objectives.MISSIONS has the whole of it).
MISSION_LABELS = {
    1: N_("1: like against like, both sides defend markers"),
    2: N_("2: Regulars against Irregulars, plus the Irregulars' secret die"),
    3: N_("3: Special Forces attack, only the other side defends"),
}


def choices(sc: Scenario, rules: ScenarioRules, variant: str = "") -> tuple[SetupChoice, ...]:
    out: list[SetupChoice] = []
    players_set_markers = bool(rules.mission) and not any(s.key.startswith("marker.") for s in sc.secrets)
    mission = _mission(sc, rules) if players_set_markers else None
    if mission is not None:
        out.append(mission)
    out.append(
        SetupChoice(
            "options",
            _("Optional rules"),
            tuple(OPTIONS),
            "",
            "option {value} on",
            multiple=True,
            labels=tuple(_(label) for label in OPTIONS.values()),
            help=_("Space picks"),
            rule="§8.0.2, §8.0.3, §9.3",
        )
    )
    rosters = scenario_rules.rosters(sc, rules)
    for side in sc.sides:
        out.append(_extras(side, rosters[side.id], variant))
    if players_set_markers:
        out.append(
            SetupChoice(
                "objectives",
                _("Objectives"),
                ("player", "random"),
                "player",
                "objectives {side} {value}",
                per_side=True,
                labels=(_("chosen in deployment by the player"), _("drawn at random now, secret to the side")),
                rule="§4.1",
            )
        )
    return tuple(out)


def _mission(sc: Scenario, rules: ScenarioRules) -> SetupChoice | None:
    """The missions that fit the scenario's sides (§4.1); None when only one does."""
    armies = {s.army for s in sc.sides}
    fits = [1 if len(armies) == 1 else 2]
    special = [s.id for s in sc.sides if _all_r1(sc, s.id)]
    if not sc.units or len(special) == 1:  # rosters may bring Special Forces
        fits.append(3)
    if rules.mission not in fits:
        fits.append(rules.mission)
    if len(fits) < 2:
        return None
    fits.sort()
    return SetupChoice(
        "mission",
        _("Mission"),
        tuple(str(m) for m in fits),
        str(rules.mission),
        "mission {value}",
        labels=tuple(_(MISSION_LABELS[m]) for m in fits),
        help=_("3 needs one side of Special Forces (all R1)"),
        rule="§4.1",
    )


def _all_r1(sc: Scenario, side: str) -> bool:
    men = [u for u in sc.units if u.side == side and u.kind == Kind.MAN]
    return bool(men) and all(u.cls == "R1" for u in men)


def _extras(side: SideSpec, roster: army.Roster, variant: str) -> SetupChoice:
    """The EXTRAS this side may buy, with their prices; each level an entry of its own.
    A side the scenario fields is offered only what the rules let it add to what it
    has (the points limit is checked when the game starts); a side still to be
    fielded from a roster, everything its army may buy."""
    table = extras(variant)
    # Special Forces are R1, a class of the regular army (§3.0).
    special = troop_classes()["R1"].side == side.army
    offers: list[tuple[int, str, str]] = []  # cost, value, label
    for key in army.BUYABLE:
        if key in table and table[key].army not in ("", side.army):
            continue
        if key in table and table[key].requires == "special-forces" and not table[key].special_level and not special:
            continue
        title = _(army.extra_name(key, variant))
        if key == "negotiation":
            levels = [(level, row.cost) for level, row in negotiation(variant).items() if row.cost]
            offers += [(cost, f"{key} {level}", _leveled(title, level, cost)) for level, cost in levels]
        elif key == "intelligence":
            row = table[key]
            top = row.special_level if special else row.max_level
            levels = [(level, row.cost * level) for level in range(1, top + 1)]
            offers += [(cost, f"{key} {level}", _leveled(title, level, cost)) for level, cost in levels]
        else:
            row = table[key]
            if row.per == "count":
                label = _("{extra} ({cost} each)").format(extra=title, cost=row.cost)
            elif row.per == "squad":
                label = _("{extra} ({cost} a squad)").format(extra=title, cost=row.cost)
            else:
                label = _("{extra} ({cost})").format(extra=title, cost=row.cost)
            offers.append((row.cost, key, label))
    if roster.units:
        offers = [offer for offer in offers if _may_add(roster, offer[1], variant)]
    # What lowers the bill first, so no purchase is refused for points a later one gives back.
    offers.sort(key=lambda offer: offer[0] >= 0)
    return SetupChoice(
        f"extras-{side.id}",
        _("Extras for {side}").format(side=side.name),
        tuple(value for _, value, _ in offers),
        "",
        f"buy {side.id} {{value}}",
        multiple=True,
        labels=tuple(label for _, _, label in offers),
        help=_("points checked at the start"),
        rule="Calculating points, Extras",
    )


def _leveled(title: str, level: int, cost: int) -> str:
    """An EXTRA bought by level, with its price: ``Intelligence 2 (20)``."""
    return _("{extra} {level} ({cost})").format(extra=title, level=level, cost=cost)


def _may_add(roster: army.Roster, offer: str, variant: str) -> bool:
    """Whether ``buy`` would take this offer but for the points limit."""
    key, _, amount = offer.partition(" ")
    try:
        bought, _ = army.purchase(roster, key, int(amount or 0), variant)
    except Refused:
        return False
    standing = set(army.validate_roster(roster, 0, variant))
    return set(army.validate_roster(msgspec.structs.replace(roster, extras=bought), 0, variant)) <= standing
