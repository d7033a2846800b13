"""Ludonet's words as types: the statuses (badges) a piece shows, the kinds of piece, and
the phases of its turn, each declared once.  A member is its word (``StrEnum``): the save and the
scenario files hold the same strings as ever, and code compares members, which a reader can jump to
and a type checker reads, where a misspelt string would never match."""

from enum import StrEnum


class Status(StrEnum):
    """The statuses a piece may show (``Ruleset.statuses``), each its badge's word."""

    CAPTURED = "captured"
    DOWN = "down"
    FIRED = "fired"
    HIDDEN = "hidden"
    HIT_IMMOBILISE = "hit-immobilise"
    HIT_KILL = "hit-kill"
    HIT_WOUND = "hit-wound"
    IMMOBILISED = "immobilised"
    IN_VEHICLE = "in-vehicle"
    MOVED = "moved"
    OVERHEAD = "overhead"
    PINNED = "pinned"
    PRONE = "prone"
    RAN = "ran"
    RETREATING = "retreating"
    STABILISED = "stabilised"
    STRUCK = "struck"
    SUPPRESSED = "suppressed"
    TIRED_1 = "tired-1"
    TIRED_2 = "tired-2"
    TIRED_3 = "tired-3"
    WOUNDED = "wounded"


class Kind(StrEnum):
    """The kinds of piece a scenario may field (the scenario format's ``kinds``)."""

    MAN = "man"
    VEHICLE = "vehicle"
    AIRCRAFT = "aircraft"


class PhaseId(StrEnum):
    """The phases of the turn (``Ruleset.phases``), by id."""

    SETUP = "setup"
    DEPLOYMENT = "deployment"
    MOVE_FIRST = "move-first"
    MOVE_SECOND = "move-second"
    REVEAL = "reveal"
    FIRE = "fire"
    MELEE = "melee"
    MORALE = "morale"
    END = "end"
    FINAL = "final"
