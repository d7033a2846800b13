"""Every fact of a game is one of these events.

The events form a single msgspec tagged union.  Each class carries an explicit,
stable tag (the ``t`` field on disk): tags are part of the save format and are
never derived from class names, so classes can be renamed freely.

Events are generic facts about the table (a unit moved, a status changed, dice
were rolled, defeat points were scored).  Rulesets decide *which* facts a command
produces; the fold in ``core.log.state`` only knows how each fact changes the state.
That keeps the fold fast and the same for every ruleset.

Words: where an event says something in words (a roll's purpose and outcome, a
modifier's label, a cause, a reason, a note, a result) it holds a
:class:`core.language.i18n.Msg`, the English template and its arguments, rendered in each
reader's language when shown; saves from before messages hold finished English
sentences there, shown as written (``core.language.i18n.Text``).

Visibility: events that may carry hidden information have ``vis``, the sides
allowed to see them.  An empty ``vis`` means public.  The referee sees everything.
"""

# Not ``from __future__ import annotations``: msgspec reads these classes'
# annotations when the first decoder of events is built, at every start, and an
# annotation kept as a string it compiles and evaluates (1.95 ms for the union of
# events, against 0.74 with the annotations as types).
from typing import Annotated, Union, get_args

import msgspec

from core.language.i18n import Text
from core.log.recordint import RecordInt


class Event(
    msgspec.Struct,
    frozen=True,
    gc=False,
    omit_defaults=True,
    tag_field="t",
    kw_only=True,
):
    """Base of every event.  ``vis`` lists the sides that may see it ("" = all)."""

    vis: tuple[str, ...] = ()


# --------------------------------------------------------------------------- parts


class Mod(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """One modifier applied to a roll, with the rule that grants it."""

    label: Text
    value: RecordInt
    rule: str = ""


class AtLeast(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="k", tag="least"):
    """The roll succeeds when at least ``need`` of its dice each show ``face`` or
    more (with ``under``, ``face`` or less).

    ``face`` is what the bare die must show, whichever way the book applies the
    modifiers (to the target or to the die) and whatever it adds (a natural 1
    that always fails): the odds follow from it alone.  ``base`` is the book's
    number before the modifiers, shown beside it (None when there is none).
    """

    face: RecordInt
    need: RecordInt = 1
    under: bool = False
    base: RecordInt | None = None


class All(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="k", tag="all"):
    """The roll succeeds only if every die shows ``face`` or more (``under``: or less)."""

    face: RecordInt
    under: bool = False
    base: RecordInt | None = None


class Each(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="k", tag="each"):
    """Every die counts on its own (a hit per die at ``face``+): no single success."""

    face: RecordInt
    under: bool = False
    base: RecordInt | None = None


class Sum(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="k", tag="sum"):
    """The roll succeeds when its bare faces add up to ``total`` or more (``under``:
    ``total`` or less); modifiers added to the sum have already moved ``total``."""

    total: RecordInt
    under: bool = False
    base: RecordInt | None = None


class Opposed(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="k", tag="vs"):
    """Compared with another roll not yet made (or made apart): no chance of its own."""


class Read(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="k", tag="read"):
    """The faces are read off a table or as a number (a distance, a direction, a
    score): there is no success, so no chance to show."""


#: How a roll's outcome is decided: what the dice pane, the odds and the
#: report's luck all read.  A roll from before it has none (``Roll.check``).
Check = Union[AtLeast, All, Each, Sum, Opposed, Read]


class Roll(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A roll as it happened: every face, what it needed, and what it meant.

    ``target``, ``total`` and ``under`` are what the referee was told to roll
    for; ``check`` is how the outcome was decided, the only thing chances are
    worked out from; ``outcome`` is the ruleset's plain-words verdict.
    """

    purpose: Text
    faces: tuple[RecordInt, ...]
    sides: RecordInt = 6
    target: RecordInt | None = None
    mods: tuple[Mod, ...] = ()
    total: bool = False
    outcome: Text = ""
    rule: str = ""
    manual: bool = False
    under: bool = False
    #: How the outcome was decided (added without a format change (issue #26):
    #: a save without it shows no chance rather than guess one from ``target``).
    check: Check | None = None


class UnitSpec(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A figure, vehicle or civilian as it enters the game."""

    id: str
    name: str
    side: str
    team: str = ""
    kind: str = "man"
    cls: str = ""
    weapons: tuple[str, ...] = ()
    leadership: RecordInt = 0
    roles: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    #: Numbers a ruleset reads per piece when the scenario, not a rulebook
    #: table, sets them (a vehicle's armour, a piece's morale value...).
    stats: dict[str, RecordInt] = msgspec.field(default_factory=dict)


class SideSpec(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    id: str
    name: str
    army: str = ""


# ------------------------------------------------------------------ command groups


class Issued(Event, frozen=True, tag="cmd"):
    """Opens a command: the ``n`` events that follow belong to it.

    ``cmd`` numbers commands in file order, so it is unique even after undo.
    A group whose events are not all present at the end of a file was torn by
    a crash and is dropped whole.
    """

    cmd: RecordInt
    n: RecordInt
    by: str
    text: str
    at: RecordInt = 0  # unix milliseconds
    #: A command carried past a player's undo: the same facts as command
    #: ``carries``, which was taken back with it (``Undoing.undone``).
    carries: RecordInt = 0
    #: The role it was given as, when ``by`` names someone else (a seat of ``fireteam
    #: serve``, named in its seats file): "" when ``by`` is the role itself (the referee,
    #: a side at a shared screen, every save from before it, which read as before).
    role: str = ""
    #: The Fireteam version that wrote it, on the first command of each session (each time
    #: the game is opened for writing): every command after it, to the next that names one,
    #: was written by that version; "" on the others.  A save that names none was written by
    #: 0.1.0, the only version before.  ``core.secrets.sessions`` says which claims are believed.
    version: str = ""
    #: The language the line was given in (``Parsed.lang``), "" for English: its names of units
    #: and sides are that language's, and every reader reads it again in it.  Recorded from 0.3.0
    #: (``core.releases.LANGUAGE_RECORDED_FROM``); an older session's commands name none.
    lang: str = ""

    @property
    def acting(self) -> str:
        """Whose command it was: the role it was given as."""
        return self.role or self.by


class Undone(Event, frozen=True, tag="undo"):
    """The effective command ``cmd`` was undone by ``by``; its events stay in the file."""

    cmd: RecordInt
    by: str
    at: RecordInt = 0


class Redone(Event, frozen=True, tag="redo"):
    cmd: RecordInt
    by: str
    at: RecordInt = 0


# --------------------------------------------------------------------------- facts


class GameSetUp(Event, frozen=True, tag="setup"):
    scenario: str
    sides: tuple[SideSpec, ...]
    #: A scenario file's own words in another language for the texts every role sees (language ->
    #: {the text as written: its words}); a built-in's are the catalogues' (ruling I18N-SCENARIO).
    words: dict[str, dict[str, str]] = {}


class UnitAdded(Event, frozen=True, tag="unit"):
    """A piece enters the game; a hidden one (``vis`` set) is a secret, committed with ``salt``."""

    unit: UnitSpec
    salt: str = ""


class PhaseBegan(Event, frozen=True, tag="phase"):
    turn: RecordInt
    phase: str
    active: str = ""
    reacting: str = ""
    card: str = ""


class Rolled(Event, frozen=True, tag="roll"):
    """A roll, and whose it was: a unit's, else a side's (``side``, added in engine
    0.1 without a format change: a save without it reads as before), else the referee's.

    ``given_by``: the seat (an ``Issued.by`` kind of name) that typed these faces at the
    table, when it is not the command's issuer (the referee's Ctrl+T for a silent seat, a
    partner seat of the side, the defender's own seat); "" else, and in every save from
    before it (issue #74: the log says who gave a roll typed for another)."""

    roll: Roll
    unit: str = ""
    side: str = ""
    given_by: str = ""


class SealedRoll(Rolled, frozen=True, tag="sroll", kw_only=True):
    """A roll of sealed dice (``core.dice.faces.SealedDice``): its faces are
    ``derive(key, contribution, draw)`` for the key whose commitment is ``seal``.

    A type of its own (not new fields of ``Rolled``): a reader that knows only
    ``roll`` refuses it by its tag, rather than take it for a roll it could not check.
    ``contribution`` is the hex the command's issuer sent; ``draw`` the roll's
    number among the command's draws (a shuffle's draws count, unrecorded)."""

    seal: str
    contribution: str
    draw: RecordInt


class BoundRoll(SealedRoll, frozen=True, tag="broll", kw_only=True):
    """A sealed roll bound to its place (``core.dice.faces.derive_bound``): its faces are
    drawn from the key, its game (the key's commitment ``seal``), its command ``cmd``
    (the file's number), its place ``draw`` among the command's rolls, its purpose and
    the contribution; ``saw`` is the key commitment the contribution's sender saw when
    he drew it (docs/secrets.md, "Sealed dice").  A tag of its own: a Fireteam that
    knows only ``sroll`` refuses it rather than check it by the older derivation."""

    cmd: RecordInt
    saw: str


class SharedRoll(SealedRoll, frozen=True, tag="nroll", kw_only=True):
    """A sealed roll drawn from a seat's share (``core.dice.faces.derive_share``), the successor of
    ``BoundRoll``: its faces are drawn from the key (its commitment ``seal``, which names the
    game), the seat that gave the command (``by``, its ``Issued.by``, kept here so that a side's
    copy that does not see the command's line still checks the roll), the seat's own count of its shares
    ``nonce`` (1, 2, 3…), the roll's place ``draw`` among the command's rolls, its purpose, the
    digest of the command's line ``line`` (``core.dice.faces.line_digest``) and the contribution; ``saw``
    is the key commitment the seat saw when it drew its share.  No command number: the host can
    give commands out of the seat's sight, which would move it (docs/secrets.md, "Sealed dice").
    A tag of its own: a Fireteam that knows only ``broll`` refuses it rather than check it wrongly."""

    saw: str
    by: str
    nonce: RecordInt
    line: str


#: A distance with a fraction, as measured: written as its exact decimal text
#: (``"25.5"``, never a float, which would drift), read back as that text and
#: folded as a ``Decimal``.  Whole distances stay integers, as in every older save.
DecimalText = Annotated[str, msgspec.Meta(pattern=r"^-?[0-9]{1,7}\.[0-9]{1,6}$")]


class Moved(Event, frozen=True, tag="move"):
    #: A handler may give ``cm`` as a ``Decimal``: it is written as ``DecimalText``.
    unit: str
    cm: RecordInt | DecimalText
    how: Text = ""


class StatusChanged(Event, frozen=True, tag="status"):
    unit: str
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()


class MarkerPlaced(Event, frozen=True, tag="marker"):
    """A hidden unit on the table is under the marker ``label`` (referee only).

    Every other role sees only the label (``core.log.views``), drawn at random, so it
    says nothing of the unit; sides name the marker by it (``Param.markers``)."""

    unit: str
    label: str


class Spotted(Event, frozen=True, tag="spot"):
    unit: str
    by_side: str


class UnitOut(Event, frozen=True, tag="out"):
    unit: str
    cause: Text


class UnitBack(Event, frozen=True, tag="back"):
    """A unit put out of action returns (a stabilised wounded man, a released prisoner)."""

    unit: str


class DefeatPoints(Event, frozen=True, tag="dp"):
    side: str
    points: RecordInt
    reason: Text
    category: str = ""


class SecretSet(Event, frozen=True, tag="secret"):
    """A hidden fact known to ``owner`` (and the referee): objective roles, IEDs.

    ``salt`` (random, set by the game) makes the :class:`Committed` that follows
    it unguessable; it is "" in saves from before commitments (docs/secrets.md).
    """

    key: str
    owner: str
    value: str
    salt: str = ""


class Revealed(Event, frozen=True, tag="reveal"):
    """A secret becomes public; ``value`` repeats it so the public log can say what it was.

    ``salt`` and ``digest`` open the secret's commitment: anyone can check that
    the commitment ``digest`` is the hash of ``key``, ``value`` and ``salt``.
    """

    key: str
    value: str = ""
    salt: str = ""
    digest: str = ""


class Committed(Event, frozen=True, tag="commit"):
    """The commitment to the secret fact just before it: ``digest`` is the SHA-256 of
    its key, value and salt (``core.secrets.commitments``).  It names no key, which could
    name a hidden piece; ``owner`` is whose secret it is (a side, or the referee)."""

    digest: str
    owner: str


class Opened(Event, frozen=True, tag="open"):
    """A commitment opened at the end of the game without changing the table: a
    referee's secret variable, or a secret's value since replaced (``replaced``: the
    log says so, or it reads as the secret's end and contradicts the one revealed)."""

    key: str
    value: RecordInt | str
    salt: str
    digest: str
    replaced: bool = False


class VarSet(Event, frozen=True, tag="var"):
    """A ruleset counter or flag (initiative penalty, ammo, the deck).

    A ``secret.`` variable hidden from someone is a secret: it gets a ``salt`` and a
    :class:`Committed` after it, as a :class:`SecretSet` does.
    """

    key: str
    value: RecordInt | str
    salt: str = ""


class Noted(Event, frozen=True, tag="note"):
    text: Text


class ScenarioRead(Event, frozen=True, tag="scenfile"):
    """The text of the scenario (or force) file a game was set up from, kept so the
    save replays without the file.  Written referee-only: the file holds every
    side's secrets (docs/scenarios.md)."""

    file: str
    text: str


class Seated(Event, frozen=True, tag="seat"):
    """Who sits for ``side``: the person ``name`` (an invitation's, a seats file's, or the one a
    single table's ``players`` named), and, for a seat bound to an SSH key, the key's OpenSSH
    fingerprint (``key``, ``SHA256:…``).  ``via``: ``key``, ``invitation`` or ``named``.  A fact
    of its own command, public, written when the seat sits (before its side's first roll when
    it sits at the start): the commitments and a side's copy then cover it as any fact (issue #74)."""

    side: str
    name: str
    key: str = ""
    via: str = ""


class Confirmed(Event, frozen=True, tag="confirm"):
    """A seated player's ``confirm`` at his seat, where he has no key to sign with (issue #74):
    the side he sits for, his name as its ``Seated`` fact gives it, and the result he confirmed:
    the SHA-256 (hex) of the certificate ``fireteam certify`` writes for the save, computed at
    his seat (``core.league.confirming``).  Written after the ``GameEnded`` it confirms, never
    before, once a side; public.  The certificate covers the save before its first confirmation
    (docs/league.md), so confirming changes nothing it confirmed."""

    side: str
    name: str
    result: str


class GameEnded(Event, frozen=True, tag="end"):
    """The end of the game: the result in words (``result``) and as data.

    ``winner`` is the winning side's id, ``draw`` True when the game ended with no
    winner, and ``scores`` each side's score at the end as its ruleset counts it
    (docs/rulings.md, "The result as data": Breaking News its defeat points, the
    others the pieces each side lost; more is worse in each).  A save from before
    these fields has neither a winner nor a draw (the result is known in words only)
    and no scores."""

    result: Text
    winner: str = ""
    draw: bool = False
    scores: dict[str, RecordInt] = msgspec.field(default_factory=dict)


AnyEvent = Union[
    Issued,
    Undone,
    Redone,
    GameSetUp,
    UnitAdded,
    PhaseBegan,
    Rolled,
    SealedRoll,
    BoundRoll,
    SharedRoll,
    Moved,
    StatusChanged,
    MarkerPlaced,
    Spotted,
    UnitOut,
    UnitBack,
    DefeatPoints,
    SecretSet,
    Revealed,
    Committed,
    Opened,
    VarSet,
    Noted,
    ScenarioRead,
    Seated,
    GameEnded,
    Confirmed,
]

EVENT_TYPES: tuple[type[Event], ...] = get_args(AnyEvent)
TAGS: dict[str, type[Event]] = {str(cls.__struct_config__.tag): cls for cls in EVENT_TYPES}  # each tag is a str
