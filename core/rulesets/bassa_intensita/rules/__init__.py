"""Bassa Intensità rules as pure functions: inputs and dice faces in, results out.

The rulebook has no numbered sections; each rule cites the digest's rule id
(BI-Rnnn, section A.n) and the book's heading in Italian.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import ceil

from core.language.i18n import M
from core.log.events import Mod
from core.ruleset import Refused
from core.rulesets.bassa_intensita.tables import (
    HitModifier,
    Weapon,
    difficulties,
    difficulty_by_id,
    hit_modifiers,
    move_modifiers,
)
from core.rulesets.bassa_intensita.words import _, listing, pgettext, word

#: Every check is 1d10 rolled under a chance; a 0 on the die counts as 10 (BI-R001).
D10 = 10


def succeeds(face: int, chance: int) -> bool:
    """BI-R003: success when the d10 shows the chance or less.  A chance of 10 or more
    cannot fail and one of 0 or less cannot succeed (ruling BI-HALVES)."""
    return face <= chance


def range_band(weapon: Weapon, dist: int, area: bool = False) -> str | None:
    """BI-R075 ("TIRO DIRETTO"): the first band whose limit reaches ``dist`` (limits
    inclusive, digest BI-AMB-06); None when out of range."""
    for name, limit in zip(("short", "normal", "long"), weapon.bands(area), strict=True):
        if limit is not None and dist <= limit:
            return name
    return None


def night_modifiers(light: str, intensifier: str, dist: int) -> list[str]:
    """The night rows of A.9.4 that apply at ``dist`` (BI-R081, BI-R084).

    ``light``: day, moon or dark; ``intensifier``: "", portable or vehicle.
    Refuses the shot when the target is too far to be fired at in that light.
    """
    if light == "day":
        return []
    table = hit_modifiers()
    unaided = table["dark"].max_cm if light == "dark" else table["moon-far"].max_cm
    if light == "dark":
        rows = ["dark"]
    elif dist <= (table["moon-near"].max_cm or 0):
        rows = ["moon-near"]
    else:
        rows = ["moon-far"]
    if intensifier:
        aid = f"intensifier-{intensifier}"
        rows.append(aid)
        limit = table[aid].max_cm
    else:
        limit = unaided
    if limit is not None and dist > limit:
        raise Refused(
            _("at night ({light}) nothing can be fired at beyond {cm} cm").format(
                light=pgettext("term", light), cm=limit
            ),
            rule=("BI-R081", "BI-R084"),
        )
    return rows


def hit_chance(quality: int, rows: Iterable[HitModifier]) -> tuple[int, tuple[Mod, ...]]:
    """BI-R080/R082 (ruling BI-HALVES): Quality plus every added modifier, then halved
    once for each halving modifier, rounded up (BI-R002); 0 if the sum is 0 or less.

    Returns the chance and the modifiers as they are logged: the halvings together
    as one entry worth what they took away, so that the entries add up to the chance.
    """
    rows = list(rows)
    adds = [r for r in rows if not r.halves]
    halves = [r for r in rows if r.halves]
    additive = quality + sum(r.add for r in adds)
    chance = 0 if additive <= 0 else ceil(additive / 2 ** len(halves))
    mods = [Mod(word(r.label), r.add, "A.9.4") for r in adds]
    if halves:
        label = M("½ for {what}", what=listing([word(r.label) for r in halves], "and"))
        mods.append(Mod(label, chance - max(additive, 0), "A.9.4"))
    return chance, tuple(mods)


def fire_modifier_ids(
    weapon: Weapon,
    band: str,
    *,
    area: bool,
    kind: str,
    aimed: bool,
    wounded: bool,
    target_move: str,
    prone: bool,
    cover: str,
    night: list[str],
    target_fired: str,
) -> list[str]:
    """Which rows of the A.9.4 table apply to one shot.

    ``kind``: normal, covering or opportunity fire (BI-R050/R052); ``target_move``:
    how the target moved this turn ("" if it did not); ``cover``: "", light, heavy or
    trench (heavy cover, BI-R080);
    ``target_fired``: at night, "single" or "auto" if the target fired this phase.
    """
    ids: list[str] = []
    if band in ("short", "long"):
        ids.append(band)
    if aimed:
        ids.append("aimed")
    if wounded:
        ids.append("wounded")
    if kind in ("covering", "opportunity"):
        ids.append(kind)
    if target_move in ("cautious", "running"):
        ids.append(target_move)
    if prone:
        ids.append("prone")
    if cover:
        # "Copertura pesante (edificio in pietra, trincea etc.)": a trench is heavy cover
        ids.append("heavy-cover" if cover == "trench" else f"{cover}-cover")
    if weapon.hit_mod:
        ids.append("bolt-action")
    if area and weapon.area_halved:
        ids.append("assault-rifle-area")
    if area and weapon.area_mod:
        ids.append("saw-area")
    ids += night
    if night and target_fired:
        ids.append(f"target-{target_fired}")
    return ids


def action_chance(quality: int, difficulty: str) -> int:
    """BI-R066 ("AZIONI"): the 1d10 chance of an action; 10 for an automatic one and 0
    for an impossible one.  Halves round up (BI-R002)."""
    d = difficulty_by_id()[difficulty]
    if d.automatic:
        return D10
    if d.impossible:
        return 0
    return ceil(quality / 2) if d.halved else quality * d.times


def shift_difficulty(difficulty: str, steps: int) -> str:
    """BI-R069: move along Very Easy … Difficult, NO; negative steps make it easier.
    The ends of the ladder hold."""
    ladder = [d.id for d in difficulties()]
    i = ladder.index(difficulty) + steps
    return ladder[max(0, min(i, len(ladder) - 1))]


def observation_difficulty(base: str, *, target_fired: bool, night: bool) -> str:
    """BI-R165: one step easier if the target fired in the phase, one harder at night
    (applied in that order, digest A.14.1)."""
    d = shift_difficulty(base, -1) if target_fired else base
    return shift_difficulty(d, 1) if night else d


def roll_off_winner(faces: dict[str, int]) -> str | None:
    """A.5.1 ("INIZIATIVA"): the higher 1d6 wins; None on a tie (re-rolled, ruling BI-INI-TIE)."""
    best = max(faces.values())
    winners = [side for side, face in faces.items() if face == best]
    return winners[0] if len(winners) == 1 else None


def foot_allowance(mode_cm: int, modifier_ids: Iterable[str]) -> int:
    """BI-R042 (ruling BI-MOVE-MODS): the mode's allowance less the added percentages,
    at most 100, rounded up; 0 when a modifier takes the whole turn."""
    rows = [move_modifiers()[i] for i in modifier_ids]
    if any(r.whole_turn for r in rows):
        return 0
    off = min(100, sum(r.percent for r in rows))
    return ceil(mode_cm * (100 - off) / 100)


def off_road_left(road_allowance: int, off_road_allowance: int, on_road_cm: Fraction) -> int:
    """Digest A.6.2's note on a move partly on and partly off the road (map row BI-R045a):
    the two allowances are spent in proportion, so after ``on_road_cm`` on the road what is
    left off it is that share of the off-road allowance, rounded up (BI-R002); 0 when the
    road part alone took the whole allowance."""
    if on_road_cm >= road_allowance:
        return 0
    return ceil(off_road_allowance * (road_allowance - on_road_cm) / road_allowance)


def vehicle_allowance(road_cm: int, off_road_cm: int, on_road: bool, halvings: int, immobilised: bool) -> int:
    """BI-R045: the type's allowance on or off road, halved (rounded up) for each
    mobility hit (ruling BI-MOBILITY, digest BI-AMB-39); 0 once immobilised."""
    if immobilised:
        return 0
    cm = road_cm if on_road else off_road_cm
    for _halving in range(halvings):
        cm = ceil(cm / 2)
    return cm
