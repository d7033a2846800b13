"""Breaking News fire as pure functions (§8.0–§8.2): range bands, the number
needed, the modifiers, the burst rule, hits, deviation and ammunition.

Inputs are plain values and dice faces; nothing here reads the game state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from core.language.i18n import N_, M, Msg, Text
from core.log.events import Mod
from core.ruleset import TYPING, Refused
from core.rulesets.breaking_news.tables.combat import Weapon, fire_table
from core.rulesets.breaking_news.words import _

AIMED = N_("aimed")
BURST = N_("burst")


def band(range_cm: int) -> int:
    """The §8.0 range band (0..3) of a distance; a band includes its upper value (AMB-01)."""
    if range_cm < 0:
        raise Refused(_("a range cannot be negative"), rule=TYPING)
    for i, upper in enumerate(fire_table().bands_cm):
        if range_cm <= upper:
            return i
    raise Refused(
        _("{range_cm} cm is beyond every weapon's range (150 cm, §8.0)").format(range_cm=range_cm),
        rule=("T-08", "FIRE-2"),
    )


def default_mode(weapon: Weapon) -> str:
    """Multi-die weapons fire bursts; the AR defaults to aimed fire (AMB-22)."""
    return BURST if weapon.burst else AIMED


def is_burst(weapon: Weapon, mode: str) -> bool:
    return weapon.burst or (weapon.has_burst_mode and mode == BURST)


def base_shot(weapon: Weapon, mode: str, range_cm: int) -> tuple[int, int]:
    """(number needed, dice) from the §8.0 table, or Refused when the weapon cannot fire."""
    if mode == BURST and not (weapon.burst or weapon.has_burst_mode):
        raise Refused(
            _("the {weapon} fires single shots only (§8.0)").format(weapon=_(weapon.name)), rule=("T-08", "FIRE-2")
        )
    if mode == AIMED and weapon.burst:
        raise Refused(
            _("the {weapon} fires bursts only (§8.0, ruling BN-C-BURST)").format(weapon=_(weapon.name)),
            rule=("FIRE-3", "AMB-22"),
        )
    if range_cm < 0:
        raise Refused(_("a range cannot be negative"), rule=TYPING)
    if range_cm > weapon.max_cm:
        raise Refused(
            _("the {weapon} reaches {max_cm} cm at most (§8.0)").format(weapon=_(weapon.name), max_cm=weapon.max_cm),
            rule=("T-08", "FIRE-2"),
        )
    if range_cm < weapon.min_cm:
        raise Refused(
            _("the {weapon} cannot fire closer than {min_cm} cm (§8.0)").format(
                weapon=_(weapon.name), min_cm=weapon.min_cm
            ),
            rule=("T-08", "FIRE-2"),
        )
    b = band(range_cm)
    if weapon.has_burst_mode and mode == BURST:
        assert weapon.burst_bands is not None
        need, dice = weapon.burst_bands[b], weapon.burst_dice
    else:
        need, dice = weapon.bands[b], weapon.dice
    if not need:
        if weapon.has_burst_mode:
            said = _("{weapon} {mode} fire cannot reach {range_cm} cm (§8.0)")
        else:
            said = _("the {weapon} cannot reach {range_cm} cm (§8.0)")
        raise Refused(said.format(weapon=_(weapon.name), mode=_(mode), range_cm=range_cm), rule=("T-08", "FIRE-2"))
    return need, dice


def longest_reach(weapon: Weapon, mode: str) -> int:
    """The far edge of the weapon's last band that has a number: §8.4 shots at a
    helicopter are always at long range (AMB: "always considered long")."""
    bands = weapon.burst_bands if (weapon.has_burst_mode and mode == BURST) else weapon.bands
    assert bands is not None
    reach = 0
    for upper, need in zip(fire_table().bands_cm, bands, strict=True):
        if need:
            reach = upper
    return min(reach, weapon.max_cm)


@dataclass(frozen=True)
class ShotFacts:
    """What the referee tells about one shot (the table has no map)."""

    moved_cm: int = 0  # how far the firer moved in this action
    moving_penalty: bool = False  # a vehicle firing on the move (§6.1, AMB-13)
    cover: bool = False  # the target is behind cover
    dodge: bool = False  # the target dodges (§6.5)
    target_sniper: bool = False
    lone_crew: bool = False  # an MMG/HMG served by one man, not fixed or on a turret
    firer_class: str = ""
    target_suppressed_in_open: bool = False  # §10.0: in cover beyond 25 cm


def modifiers(weapon: Weapon, mode: str, range_cm: int, facts: ShotFacts) -> tuple[Mod, ...]:
    """The §8.0 modifiers to the number needed (digest T-09); cumulative."""
    t = fire_table()
    mods: list[Mod] = []
    if facts.moved_cm > t.moved_over_cm or facts.moving_penalty:
        mods.append(Mod(M("firer moved"), t.moved, "§8.0"))
    in_cover = facts.cover or (facts.target_suppressed_in_open and range_cm > t.suppressed_open_cover_beyond_cm)
    if in_cover and not weapon.ignores_cover:
        label = M("target behind cover") if facts.cover else M("suppressed target, in cover past 25 cm")
        mods.append(Mod(label, t.cover, "§8.0" if facts.cover else "§10.0"))
    if facts.firer_class in t.poor_classes and weapon.small_arms:
        mods.append(Mod(M("{cls} firing", cls=facts.firer_class), t.poor_class, "§8.0"))
    if facts.dodge and not weapon.sniper:
        mods.append(Mod(M("target dodges"), t.dodge, "§6.5"))
    if facts.target_sniper:
        mods.append(Mod(M("target is a sniper"), t.sniper_target, "§8.0"))
    if facts.lone_crew and weapon.crewed:
        mods.append(Mod(M("one crew on the MG"), t.lone_crew, "§8.0"))
    if facts.firer_class in t.special_forces_classes and not is_burst(weapon, mode):
        mods.append(Mod(M("Special Forces"), t.special_forces, "§8.0"))
    return tuple(mods)


@dataclass(frozen=True)
class Shot:
    """A resolved to-hit line: the number each die needs and how many dice are rolled."""

    need: int
    dice: int
    lost: int = 0  # burst dice lost to modifiers past 6 (§8.0)

    @property
    def possible(self) -> bool:
        return self.dice > 0 and self.need <= 6


def shot(base_need: int, base_dice: int, mods: tuple[Mod, ...], burst: bool) -> Shot:
    """Apply the modifiers; a burst that would need more than 6 loses a die per point
    over 6 instead and still needs 6 (§8.0, AMB-23).  A single shot needing more than
    6 cannot hit (AMB-24)."""
    need = base_need + sum(m.value for m in mods)
    if burst and need > 6:
        lost = need - 6
        return Shot(6, max(0, base_dice - lost), min(lost, base_dice))
    return Shot(need, base_dice)


def hits(faces: tuple[int, ...], need: int) -> int:
    """Each die at or over the number needed is one hit (§8.0)."""
    return sum(f >= need for f in faces)


def split_dice(total: int, split: tuple[int, ...] | None, targets: int) -> tuple[int, ...]:
    """How a burst's dice are divided between targets (§8.0): as declared, or all on one."""
    if split is None:
        if targets != 1:
            raise Refused(
                _("a burst at several targets needs split=a,b (dice on each, §8.0)"), rule=("FIRE-8", "AMB-28")
            )
        return (total,)
    if len(split) != targets:
        raise Refused(
            _("split gives {split} numbers for {targets} targets").format(split=len(split), targets=targets),
            rule=("FIRE-8", "AMB-28"),
        )
    if any(n < 1 for n in split) or sum(split) != total:
        raise Refused(
            _("split must give each target at least one die and add up to {total}").format(total=total),
            rule=("FIRE-8", "AMB-28"),
        )
    return split


# ------------------------------------------------------------------- deviation


@dataclass(frozen=True)
class Deviation:
    dud: bool
    distance_cm: int = 0
    direction: str = ""


def deviation(weapon: Weapon, need: int, to_hit: int, direction_face: int | None) -> Deviation:
    """§8.0.2 (optional): a missed area shot lands step × (needed − rolled) cm off the
    target in the d6 direction of the weapon's row; a to-hit 1 is a dud (digest T-11).
    The rule's table wins over its example for the RPG (AMB-30a, ruling BN-C-RPG-DIRECTION)."""
    if to_hit == 1:
        return Deviation(True)
    row = fire_table().deviation[weapon.deviation]
    assert direction_face is not None
    return Deviation(False, row.step_cm * (need - to_hit), row.directions[direction_face - 1])


#: §8.0.2's directions in words ("lands 6 cm left of Omar as the firer sees it"); short and
#: beyond are along the line of fire, left and right "according to firer view" (the note of T-11).
_WHERE = {
    "short": N_("{cm} cm short of {target}"),
    "over": N_("{cm} cm beyond {target}"),
    "left": N_("{cm} cm left of {target} as the firer sees it"),
    "right": N_("{cm} cm right of {target} as the firer sees it"),
}


def landing(d: Deviation, aim: Text) -> Msg:
    return M(_WHERE[d.direction], cm=d.distance_cm, target=aim)


def placement_offset(step_cm: int, need: int, to_hit: int) -> int:
    """§8.5 light mortars and §8.9 smoke: a miss puts the template this many cm off,
    in a direction the opponent chooses."""
    return 0 if to_hit >= need else step_cm * (need - to_hit)


# ------------------------------------------------------------------ ammunition


@dataclass(frozen=True)
class AmmoResult:
    empty: bool = False  # the magazine must be changed
    low: bool = False  # three of a kind: an AR may fire aimed only from now on
    exhausted: bool = False  # the weapon cannot fire any more


def ammunition(faces: tuple[int, ...], weapon: Weapon, burst: bool, low: bool, italian: bool) -> AmmoResult:
    """§8.0.3 (optional; not for Special Forces, which the caller checks).

    English draft: any two equal dice of an AR/SMG roll empty the magazine; three
    equal dice leave an AR with aimed fire only until it rolls a 1.  Italian draft
    (DIFF-31): only on bursts, and an SMG with three equal dice cannot fire again.
    """
    if not weapon.magazine:
        return AmmoResult()
    if low and 1 in faces:
        return AmmoResult(exhausted=True)
    if italian and not burst:
        return AmmoResult()
    most = max(Counter(faces).values(), default=0)
    if most >= 3:
        if weapon.has_burst_mode:
            return AmmoResult(empty=True, low=True)
        return AmmoResult(empty=True, exhausted=italian)
    return AmmoResult(empty=most == 2)
