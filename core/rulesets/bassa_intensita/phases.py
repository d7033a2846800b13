"""The phases and the per-turn activity badges of Bassa Intensità (see turn.py)."""

from __future__ import annotations

from core.log.state import Unit
from core.rulesets.bassa_intensita.tables import tiers

ACTIVITY = ("moved", "fired", "acted", "balked", "moved-stabilised")
SHOT_BADGES = ("shot-single", "shot-auto")
#: A unit fired at by an automatic weapon or HE in this phase: under fire for its morale
#: checks (A.13.2 BI-R181, digest BI-AMB-41); cleared as the fire phase begins and at the turn's end.
SHOT_AT = ("shot-at",)
#: Badges that last one turn; ``ran`` and ``aimed`` are made from them at the turn's end.
TURN_BADGES = (
    *ACTIVITY,
    "cautious",
    "running",
    "aiming",
    "ran",
    "aimed",
    *SHOT_BADGES,
    *SHOT_AT,
    "struck",
    "struck-wounded",
    "held-fire",
    "hovering",
    "dismounted",
    "fired-at",
    "under-fire",
)
#: A man hit in his own tier before he acted (ruling BI-TIER-RESULTS): cleared when the tier ends.
STRUCK = ("struck", "struck-wounded")

MOVE_PHASES = ("move-first", "move-second")
TIER_PHASES = tuple(f"fire-{t.id}" for t in tiers())


def tier_of_phase(phase: str) -> str:
    return phase.removeprefix("fire-") if phase in TIER_PHASES else ""


def activity(unit: Unit) -> str:
    """What the unit has done this turn under the golden rule ("" if nothing)."""
    return next((a for a in ACTIVITY if unit.has(a)), "")


def can_act_now(unit: Unit) -> bool:
    """Whether it may still fire or act this turn (a stabilised vehicle that moved
    slowly may still fire, BI-R240)."""
    return unit.in_play and activity(unit) in ("", "moved-stabilised")
