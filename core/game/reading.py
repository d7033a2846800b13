"""What a role may read of a game: its view of the state, live or at a replay step, the
numbers it knows commands by, who may read a command's line, and the log in its words (hidden
commands headed, inner variables flagged).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING

import msgspec

from core.language.i18n import Names, _, naming, scenario_words
from core.log import events as ev
from core.log import narrate
from core.log.numbering import Numbering
from core.log.state import DICE_KEY, TABLE_DICE, GameState
from core.log.views import (
    REFEREE,
    REFEREE_ONLY,
    event_visible,
    narrowest,
    unit_audience,
    view_state,
)

if TYPE_CHECKING:
    from core.commands import Parsed
    from core.log.replay import Timeline
    from core.ruleset import Ruleset


#: Events read at a time looking back for the line before a hidden command (``Reading.hidden_header``).
HEADER_LOOKBACK = 256


class LogLine(msgspec.Struct, frozen=True):
    index: int  # position in the file's events (for the client's bookkeeping: never shown to a side)
    cmd: int  # the command it belongs to (0 for undo/redo markers)
    text: str
    event: ev.Event
    undone: bool
    #: The number the role knows that command by (``core.log.numbering``), or the
    #: command an undo/redo names; 0 if none.
    number: int = 0
    #: One of the game's inner variables (:meth:`Reading.inner`): out of the log's normal view.
    inner: bool = False


class Reading:
    """What each role may read of one game.  Each side's live view is made once per change and
    shared, and each role's numbering kept, as commands arrive."""

    def __init__(self, timeline: Timeline, ruleset: Ruleset, localize: Callable[[str], str]) -> None:
        self._timeline = timeline
        self._ruleset = ruleset
        self._localize = localize  # a recorded line in the reader's names (``Game.localize``)
        #: Each side's view of the live state, as of (the log's length, the state): shared by all who ask.
        self._views: dict[str, tuple[tuple[int, int], GameState]] = {}
        self._numberings: dict[str, Numbering] = {}

    def numbering(self, role: str) -> Numbering:
        """The numbers ``role`` is shown commands by (a side counts only what it may see)."""
        numbering = self._numberings.get(role)
        if numbering is None:
            numbering = self._numberings[role] = Numbering(self._timeline.history, role)
        return numbering

    def text_audience(self, parsed: Parsed, events: list[ev.Event], role: str) -> tuple[str, ...]:
        """Who may read the line of a command ``role`` gave that records ``events``: those who may
        see its most private fact (ruling CORE-TEXT); everyone, for a line that names nothing hidden
        (``CommandSpec.public_text``); the referee alone, for a line naming a file of his disk.

        A marker's label says nothing of its unit (rulings CORE-MARKER), so the
        facts seen only by those who may see a unit named by its label do not
        narrow it; nor does a marker's referee-only label.  A side always sees
        the command it gave."""
        if any(type(e) is ev.ScenarioRead for e in events):
            return REFEREE_ONLY  # (the others read the scenario's title in the set-up it made)
        if parsed.spec.public_text:
            return ()
        state = self._timeline.state
        private = [set(unit_audience(state.units[u])) | {REFEREE} for u in parsed.by_marker]
        audiences = [
            e.vis
            for e in events
            if not isinstance(e, ev.MarkerPlaced)
            and not any(e.vis and set(e.vis) <= p for p in private)
            and not (type(e) is ev.VarSet and e.key == DICE_KEY)  # the game's, not the command's
        ]
        vis = narrowest(audiences)
        if vis and role in state.sides and role not in vis:
            vis = tuple(sorted({*vis, role} - {REFEREE}))
        return vis

    def view(self, role: str, step: int | None = None) -> GameState:
        """The state as ``role`` may know it, live or at replay ``step``.  Do not modify it.

        The live view of a role is made once per change and shared: a server's
        seats of one side (each seat of a worker process, or of the server's own)
        all read this game, and each used to copy the state for its side after
        every command, two or three times over.  The referee's view is the state.
        """
        if step is not None:
            return view_state(self._timeline.state_at(step), role)
        state = self._timeline.state
        if role == REFEREE:
            return state
        # Every change of the live state grows the log (a command, an undo, a redo, what a copy follows).
        made_of = (len(self._timeline.history.store), id(state))
        shared = self._views.get(role)
        if shared is not None and shared[0] == made_of:
            return shared[1]
        view = view_state(state, role)
        self._views[role] = (made_of, view)
        return view

    def described(self, group: list[ev.Event]) -> list[str]:
        """The lines of a command about to be written.  A side the command itself sets
        up (``scenario demo``'s purchases) is named as it will be, not by its id."""
        setups = [e for e in group if isinstance(e, ev.GameSetUp)]
        words = next((e.words for e in setups), None)
        with naming(Names(words=words or self._timeline.state.words)):
            sides = {s.id: scenario_words(s.name) for e in setups for s in e.sides} or None
        return [self.describe(e, REFEREE, sides=sides, words=words) for e in group]

    def describe(
        self,
        e: ev.Event,
        role: str,
        *,
        sides: Mapping[str, str] | None = None,
        words: Mapping[str, Mapping[str, str]] | None = None,
    ) -> str:
        """``e`` in words for ``role``; ``sides``: names of sides the state does not hold yet;
        ``words``: the scenario file's own words (``GameSetUp.words``) where the state has none yet."""
        words = words or self._timeline.state.words
        with naming(Names(words=words)):
            return self._describe(e, role, sides, words)

    def _describe(
        self, e: ev.Event, role: str, sides: Mapping[str, str] | None, words: Mapping[str, Mapping[str, str]]
    ) -> str:
        var: Callable[[str, int | str], str | None]
        number: Callable[[int], int | None] | None
        if role == REFEREE:
            var, number = partial(self._ruleset.describe_named, self._timeline.state), None
        else:
            var, number = self._said_var, self.numbering(role).shown
        sides = {**{s.id: scenario_words(s.name) for s in self._timeline.state.sides.values()}, **(sides or {})}
        units = self._timeline.state.units

        def status(badge: str) -> str:
            return self._ruleset.status_words(
                badge, lambda uid: scenario_words(units[uid].name) if uid in units else uid
            )

        return narrate.describe(
            e,
            units,
            var,
            number,
            self._ruleset.domain,
            self._localize,
            sides,
            partial(self._ruleset.piece_class, self._timeline.state),
            status,
            self._ruleset.note_for_the_referee if role == REFEREE else self._ruleset.note_for_a_side,
            lambda cmd: self._timeline.history.issued(cmd).text,
            self._ruleset.describe_secret,
            words,
        )

    def _said_var(self, key: str, value: int | str) -> str:
        """A variable of the rules as a side or a spectator reads it: in the ruleset's words,
        else a plain sentence; its ``key = value`` is the code's, for the referee alone."""
        if key.startswith(self._ruleset.referee_vars):
            return _("the scenario defines a kind of piece (the referee's log names it)")
        said = self._ruleset.describe_named(self._timeline.state, key, value)
        return said or _("the rules keep a value of the scenario (the referee's log names it)")

    def log_lines(self, role: str, start: int = 0, end: int | None = None) -> list[LogLine]:
        """Events ``start``..``end`` of the file that ``role`` may see, in file order.

        Undone events are included and flagged: the log shows everything that
        happened at the table, including what was taken back.
        """
        store = self._timeline.history.store
        end = len(store) if end is None else min(end, len(store))
        numbering = self.numbering(role)
        out: list[LogLine] = []
        for i, e in enumerate(store.slice(start, end), start):
            if event_visible(e, role):
                cmd = self._timeline.history.command_at(i)
                undone = bool(cmd) and not self._timeline.history.is_live(cmd)
                named = e.cmd if isinstance(e, ev.Undone | ev.Redone) else cmd
                number = (numbering.shown(named) or 0) if named else 0
                out.append(LogLine(i, cmd, self.describe(e, role), e, undone, number, self.inner(e)))
            elif self.hidden_header(i, e, role):
                assert isinstance(e, ev.Issued)
                # Its author, text, time and file number are the command's: none of them is shown.
                said = ev.Issued(cmd=0, n=0, by="", text="", vis=e.vis)
                text = "» " + _("(one or more commands hidden from you)")
                out.append(LogLine(i, e.cmd, text, said, not self._timeline.history.is_live(e.cmd)))
        return out

    def hidden_header(self, index: int, e: ev.Event, role: str) -> bool:
        """Whether event ``index``, hidden from ``role``, heads lines of its log: the marker of a
        command it may not see of which it sees some facts (the hidden Pak's shot, the Sherman it
        knocks out), coming after a line of a command it sees (issue #61).  The header says
        nothing of the command, so those facts are not read as the facts of the command before
        them; a run of hidden commands has one, as in the side's copy (core.secrets.sidecopy),
        which cannot tell them apart."""
        if type(e) is not ev.Issued or event_visible(e, role):
            return False
        store = self._timeline.history.store
        if not any(event_visible(f, role) for f in store.slice(index + 1, index + 1 + e.n)):
            return False
        end = index
        while end > 0:  # the role's line before it, looked for backwards a window at a time
            start = max(0, end - HEADER_LOOKBACK)
            for j, f in reversed(list(enumerate(store.slice(start, end), start))):
                if event_visible(f, role):
                    cmd = self._timeline.history.command_at(j)
                    return not cmd or event_visible(self._timeline.history.issued(cmd), role)
            end = start
        return True

    def inner(self, e: ev.Event) -> bool:
        """Whether ``e`` sets one of the game's inner variables: a ``VarSet`` its ruleset
        has no words for, which the log could only show as the code's ``key = value``
        (``secret.looked.blue = 1:observe:hassan``, ``support-call.regulars = 1``).  A variable
        a referee must follow has its words (a side's initiative penalty, the deck shuffled,
        the extras bought): being put in words is what keeps it in view, so no list of keys
        is kept.  Inner lines stay out of the log's normal view, between the rule lines a
        referee scans; the line's details, ``fireteam log --all`` and ``--json`` show them."""
        return (
            type(e) is ev.VarSet
            and e.key not in (DICE_KEY, TABLE_DICE)  # the core's own, put in words by core.log.narrate
            and not self._ruleset.has_words(self._timeline.state, e.key, e.value)
        )

    def facts_seen(self, cmd: int, role: str) -> int:
        """How many of command ``cmd``'s facts (its events after the command itself) ``role`` may see."""
        return sum(1 for e in self._timeline.history.group(cmd)[1:] if event_visible(e, role))

    def players(self) -> list[ev.Seated]:
        """Who sits for which side, as the log says it (``Seated``: ``players``, a served table's
        seats), in the order recorded: the facts in force."""
        return [e for e in self._timeline.history.timeline() if type(e) is ev.Seated]
