"""Breaking News movement as pure functions (§6.0–§6.5, §7.0 hidden moves)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from core.ruleset import Refused
from core.rulesets.breaking_news.tables.combat import Weapon, actions, allowances, obstacles
from core.rulesets.breaking_news.terms import FireAllowed
from core.rulesets.breaking_news.words import _


@dataclass(frozen=True)
class Allowed:
    """What an action lets a figure do: how far it may move, and how it may fire."""

    max_cm: int
    fire: FireAllowed


def action_allowance(action: str, obstacle: int = 0, helped: bool = False) -> Allowed:
    """§6.0 the action's distance, cut down by an obstacle crossed on the way (§6.2, T-06)."""
    a = actions()[action]
    if not obstacle:
        return Allowed(a.max_cm, a.fire)
    table = obstacles()
    if obstacle not in table:
        raise Refused(_("obstacles are level 1, 2 or 3 (§6.2)"), rule=("T-06", "MOV-4"))
    ob = table[obstacle]
    if ob.helped_as:
        if not helped:
            raise Refused(
                _("a level {obstacle} obstacle needs equipment or a comrade's help (add: helped) (§6.2)").format(
                    obstacle=obstacle
                ),
                rule=("T-06", "MOV-4"),
            )
        ob = table[ob.helped_as]
    allowed = ob.allows.get(action)
    if allowed is None:
        spend = " or ".join(actions()[k].name for k in ob.allows)
        raise Refused(
            _("crossing a level {level} obstacle takes a {spend} action (§6.2)").format(level=ob.level, spend=spend),
            rule=("T-06", "MOV-4"),
        )
    return Allowed(allowed.max_cm, allowed.fire)


def default_action(cm: int) -> str:
    """The least action that covers the distance: cautious, move and shoot, run."""
    for a in sorted(actions().values(), key=lambda a: a.max_cm):
        if a.fire != FireAllowed.COVERING and cm <= a.max_cm:
            return a.id
    raise Refused(_("infantry move 25 cm at most (§6.0); {cm} cm is too far").format(cm=cm), rule=("MOV-1", "MOV-2"))


def may_fire_after(weapon: Weapon, moved_cm: int | Decimal, allowed_fire: FireAllowed) -> str:
    """'' if the weapon may fire after this move, else the reason (§6.1, T-05)."""
    if allowed_fire == FireAllowed.NONE:
        return _("a figure that ran cannot fire this turn (§5.0, §6.2)")
    if allowed_fire == FireAllowed.COVERING:
        return _("a figure giving covering fire does not fire at a target (§8.3)")
    match weapon.movement:
        case "steady" if moved_cm > 5:
            return _("the {weapon} fires only after a move of 5 cm or less (§6.1)").format(weapon=_(weapon.name))
        case "fixed" if moved_cm > 0:
            return _("the {weapon} cannot fire after moving (§6.1)").format(weapon=_(weapon.name))
        case "gun" if moved_cm > 0:
            return _("a tank fires its gun or moves, not both (§6.1)")
    return ""


def hidden_allowance(face: int) -> int:
    """§7.0: a hidden figure staying hidden moves 5 − 1d6 cm; 0 or less stays put."""
    return max(0, allowances().hidden_cm - face)


def vehicle_allowance(tracked: bool, faces: tuple[int, ...]) -> int:
    """§6.0: tracked vehicles 30 − 2d6 cm, wheeled 45 − 2d6 cm (a maximum, AMB-12)."""
    a = allowances()
    return (a.tracked_cm if tracked else a.wheeled_cm) - sum(faces)


def carry_allowance(face: int) -> int:
    """§9.3: a wounded man carried by a comrade moves 10 − 1d6 cm."""
    return max(0, allowances().carry_cm - face)
