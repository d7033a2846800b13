"""Bassa Intensità's words as types: the statuses (badges) a piece shows, the kinds of piece, and
the phases of its turn, each declared once.  A member is its word (``StrEnum``): the save and the
scenario files hold the same strings as ever, and code compares members, which a reader can jump to
and a type checker reads, where a misspelt string would never match."""

from enum import StrEnum


class Status(StrEnum):
    """The statuses a piece may show (``Ruleset.statuses``), each its badge's word."""

    ABILITY_ELITE = "ability-elite"
    ABILITY_RABBLE = "ability-rabble"
    ABILITY_RECRUIT = "ability-recruit"
    ABILITY_REGULAR = "ability-regular"
    ABILITY_VETERAN = "ability-veteran"
    ACTED = "acted"
    AIMED = "aimed"
    AIMING = "aiming"
    BALKED = "balked"
    CAPTURED = "captured"
    CAUTIOUS = "cautious"
    COMBAT_VEHICLE = "combat-vehicle"
    DAMAGED = "damaged"
    DISMOUNTED = "dismounted"
    DOWN = "down"
    FIRED_AT = "fired-at"
    EMPLACED = "emplaced"
    FIRED = "fired"
    GASSED = "gassed"
    HELD_FIRE = "held-fire"
    HIDDEN = "hidden"
    HOVERING = "hovering"
    IMMOBILISED = "immobilised"
    IN_VEHICLE = "in-vehicle"
    LANDED = "landed"
    LEADER = "leader"
    MORALE_COVER_HEAVY = "morale-cover-heavy"
    MORALE_COVER_LIGHT = "morale-cover-light"
    MORALE_COVER_TRENCH = "morale-cover-trench"
    MORALE_DUE = "morale-due"
    MORALE_FIRE = "morale-fire"
    MORALE_TABLE_1 = "morale-table-1"
    MORALE_TABLE_2 = "morale-table-2"
    MOTIVATION_PLUS_1 = "motivation+1"
    MOTIVATION_MINUS_1 = "motivation-1"
    MOVED = "moved"
    MOVED_STABILISED = "moved-stabilised"
    MUST_RELOAD = "must-reload"
    ON_ROAD = "on-road"
    ONE_CREW = "one-crew"
    PINNED = "pinned"
    PRONE = "prone"
    RADIO_OUT = "radio-out"
    RAN = "ran"
    RETREATING = "retreating"
    ROTOR_DAMAGED = "rotor-damaged"
    RUNNING = "running"
    SERIOUSLY_WOUNDED = "seriously-wounded"
    SHOCKED = "shocked"
    SHOCKED_NOW = "shocked-now"
    SHOT_AT = "shot-at"
    SHOT_AUTO = "shot-auto"
    SHOT_SINGLE = "shot-single"
    SLOWED = "slowed"
    SLOWED_TWICE = "slowed-twice"
    STABILISED = "stabilised"
    STRUCK = "struck"
    STRUCK_WOUNDED = "struck-wounded"
    SUPPRESSED = "suppressed"
    TURRET_JAMMED = "turret-jammed"
    UNDER_FIRE = "under-fire"
    WOUNDED = "wounded"


class Kind(StrEnum):
    """The kinds of piece a scenario may field (the scenario format's ``kinds``)."""

    MAN = "man"
    VEHICLE = "vehicle"


class PhaseId(StrEnum):
    """The phases of the turn (``Ruleset.phases``), by id."""

    SETUP = "setup"
    INITIATIVE = "initiative"
    COVER = "cover"
    MOVE_FIRST = "move-first"
    MOVE_SECOND = "move-second"
    OBSERVE = "observe"
    FIRE_ELITE = "fire-elite"
    FIRE_VETERAN = "fire-veteran"
    FIRE_REGULAR = "fire-regular"
    FIRE_RECRUIT = "fire-recruit"
    FIRE_RABBLE = "fire-rabble"
    END = "end"
    FINAL = "final"


class ManHit(StrEnum):
    """A hit man's result, the infantry rows of the damage table (BI-R110, data/damage.toml),
    and his wound state after it (``rules.damage.wound_after``)."""

    NEAR_MISS = "near-miss"
    SHOCKED = "shocked"
    WOUNDED = "wounded"
    SERIOUSLY_WOUNDED = "seriously-wounded"
    DEAD = "dead"


class MoraleEffect(StrEnum):
    """A failed morale test's effect (BI-R182..R184, data/morale.toml ``effects``)."""

    SHOCKED = "shocked"
    PANIC = "panic"
    SURRENDER = "surrender"
