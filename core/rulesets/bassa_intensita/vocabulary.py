"""Every word of Bassa Intensità's data a reader may see: the badges shown by id
(``Ruleset.terms``, translated with the context ``term``) and the tables' words its
events hold as messages (``Ruleset.phrases``, see ``words.word``)."""

from __future__ import annotations

from core.rulesets.bassa_intensita import casualties, phases
from core.rulesets.bassa_intensita.tables import (
    air,
    damage,
    difficulties,
    direct_fire_weapons,
    high_explosive,
    hit_modifiers,
    indirect,
    morale,
    move_modes,
    move_modifiers,
    special,
    tiers,
    vehicle_types,
)
from core.rulesets.common import STATUSES

#: The badges a unit may carry whose names are fixed (those made from an id, such
#: as ``weapon-lost-mg`` or ``aboard-lince``, are shown by the id they hold).
STATUSES_SHOWN = frozenset(
    {
        *STATUSES,
        *casualties.BADGES,
        *casualties.DUE,
        *phases.TURN_BADGES,
        "wounded",
        "shocked-now",
        "emplaced",  # a machine gun set up to fire (A.9.3, the weapon notes: ruling BI-EMPLACED)
        "motivation+1",
        "motivation-1",
        *(f"ability-{t.id}" for t in tiers()),
    }
)
#: The badges made from an id, each a family: aboard the vehicle it names (A.6),
#: screened by the covering fire of the man it names (BI-R051..R054), a vehicle's
#: weapon lost (BI-R140).
BADGE_FAMILIES = ("aboard-*", "screened-by-*", "weapon-lost-*")


def data_words() -> set[str]:
    """The English of every table word an event may hold (``words.word``)."""
    d, m, h, a = damage(), morale(), high_explosive(), air()
    out: set[str] = set()
    out |= {t.name for t in tiers()} | {t.id for t in tiers()}
    out |= {r.label for r in hit_modifiers().values()}
    out |= {r.english for r in (*d.infantry, *d.unarmoured, *d.armoured)}
    out |= {r.label for r in (*d.modifiers, *d.penetration_mods)} | {p.name for p in d.penetration}
    out |= {r.label for r in m.triggers} | {r.label for r in m.modifiers} | {r.label for r in m.effect_modifiers}
    out |= {r.english for r in m.effects} | {"panic"}
    out |= {w.name for w in direct_fire_weapons().values()}
    out |= {r.name for r in a.aa} | {r.english for r in a.helicopter} | {"aircraft", "helicopter"}
    out |= {r.english for r in h.ranging} | {r.direction for r in h.deviation if r.direction}
    out |= {c.terrain for c in h.chances} | {"short", "long", "right", "left"}  # where a round lands
    out |= {f"{band} range" for band in ("short", "normal", "long")} | {"short distance", "long distance"}
    out |= {"precise", "imprecise"}
    out |= {c.label for c in indirect().contacts} | {indirect().smoke.dischargers}
    out |= set(move_modes()) | {r.label for r in move_modifiers().values()}
    out |= {x.id for x in difficulties()}
    out |= {x.what for x in special().detection}
    out |= {"road", "off-road"} | {v.name for v in vehicle_types().values()}
    return out
