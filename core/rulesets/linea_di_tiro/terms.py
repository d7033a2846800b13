"""Linea di Tiro's words as types: the statuses (badges) a piece shows, the kinds of piece, and
the phases of its turn, each declared once.  A member is its word (``StrEnum``): the save and the
scenario files hold the same strings as ever, and code compares members, which a reader can jump to
and a type checker reads, where a misspelt string would never match."""

from enum import StrEnum


class Status(StrEnum):
    """The statuses a piece may show (``Ruleset.statuses``), each its badge's word."""

    A1 = "A1"
    A2 = "A2"
    A3 = "A3"
    A4 = "A4"
    A5 = "A5"
    A6 = "A6"
    A7 = "A7"
    ATTACKS_1 = "attacks-1"
    ATTACKS_2 = "attacks-2"
    CAPTURED = "captured"
    DOWN = "down"
    FIRED_1 = "fired-1"
    FIRED_2 = "fired-2"
    FIRED_3 = "fired-3"
    FIRED_4 = "fired-4"
    FIRED_5 = "fired-5"
    FIRED_6 = "fired-6"
    HE_1 = "he-1"
    HE_2 = "he-2"
    HE_3 = "he-3"
    HE_4 = "he-4"
    HE_5 = "he-5"
    HE_6 = "he-6"
    HIDDEN = "hidden"
    IMMOBILISED = "immobilised"
    IN_VEHICLE = "in-vehicle"
    MOVED = "moved"
    OPPORTUNITY = "opportunity"
    PINNED = "pinned"
    PREPARE_1 = "prepare-1"
    PREPARE_2 = "prepare-2"
    READY_1 = "ready-1"
    READY_2 = "ready-2"
    RETREATING = "retreating"
    SHELLED = "shelled"
    STABILISED = "stabilised"
    SUPPRESSED = "suppressed"
    WOUNDED = "wounded"


class Kind(StrEnum):
    """The kinds of piece a scenario may field (the scenario format's ``kinds``)."""

    MAN = "man"
    VEHICLE = "vehicle"
    GUN = "gun"


class PhaseId(StrEnum):
    """The phases of the turn (``Ruleset.phases``), by id."""

    SETUP = "setup"
    DEPLOYMENT = "deployment"
    CARD = "card"
