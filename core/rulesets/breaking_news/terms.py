"""Breaking News's words as types: the statuses (badges) a piece shows, the kinds of piece, and
the phases of its turn, each declared once.  A member is its word (``StrEnum``): the save and the
scenario files hold the same strings as ever, and code compares members, which a reader can jump to
and a type checker reads, where a misspelt string would never match."""

from enum import StrEnum


class Status(StrEnum):
    """The statuses a piece may show (``Ruleset.statuses``), each its badge's word."""

    ACTED = "acted"
    CAPTURED = "captured"
    CLIMBED = "climbed"
    COVERING = "covering"
    CREPT = "crept"
    DODGING = "dodging"
    DOWN = "down"
    EMPTY_MAG = "empty-mag"
    FALLING_BACK = "falling-back"
    FIRED = "fired"
    HIDDEN = "hidden"
    IN_VEHICLE = "in-vehicle"
    LOOKED = "looked"
    LOW_AMMO = "low-ammo"
    MOVED = "moved"
    NO_AMMO = "no-ammo"
    OFF_TABLE = "off-table"
    PANICKED = "panicked"
    PINNED = "pinned"
    RAN = "ran"
    RELOADING = "reloading"
    RETREATING = "retreating"
    RPG_FIRED = "rpg-fired"
    STABILISED = "stabilised"
    SUPPRESSED = "suppressed"
    WOUNDED = "wounded"


class Kind(StrEnum):
    """The kinds of piece a scenario may field (the scenario format's ``kinds``)."""

    MAN = "man"
    VEHICLE = "vehicle"
    JOURNALIST = "journalist"
    CIVILIAN = "civilian"


class PhaseId(StrEnum):
    """The phases of the turn (``Ruleset.phases``), by id."""

    SETUP = "setup"
    DEPLOYMENT = "deployment"
    INITIATIVE = "initiative"
    ACTIVATION = "activation"
    END = "end"
    FINAL = "final"


class Action(StrEnum):
    """A figure's action of a move (§5.0 step 2, §6.0, §7.0), as ``move`` takes it."""

    RUN = "run"
    SHOOT = "shoot"
    CAUTIOUS = "cautious"
    COVERING = "covering"
    HIDDEN = "hidden"


class FireAllowed(StrEnum):
    """What firing an action allows (§6.0, digest T-03; data/actions.toml ``fire``)."""

    NONE = "none"
    #: Move and shoot: +1 to hit if the figure moved more than 5 cm (§6.1).
    PENALTY = "penalty"
    FREE = "free"
    #: Covering fire (§8.3): no shot at a target.
    COVERING = "covering"
