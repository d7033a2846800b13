"""What a role may read of a game: its view of the state, live or at a replay step, and
the log in its words (hidden commands headed, inner variables flagged).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING

import msgspec

from core.language.i18n import Names, _, naming, scenario_words
from core.log import events as ev
from core.log import narrate
from core.log.state import DICE_KEY, TABLE_DICE, GameState
from core.log.views import (
    REFEREE,
    event_visible,
    view_state,
)

if TYPE_CHECKING:
    from core.game.table import Table


#: Events read at a time looking back for the line before a hidden command (``Game.hidden_header``).
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
    #: One of the game's inner variables (:meth:`Game.inner`): out of the log's normal view.
    inner: bool = False


def view(game: Table, role: str, step: int | None = None) -> GameState:
    """The state as ``role`` may know it, live or at replay ``step``.  Do not modify it.

    The live view of a role is made once per change and shared: a server's
    seats of one side (each seat of a worker process, or of the server's own)
    all read this game, and each used to copy the state for its side after
    every command, two or three times over.  The referee's view is the state.
    """
    if step is not None:
        return view_state(game.timeline.state_at(step), role)
    state = game.state
    if role == REFEREE:
        return state
    # Every change of the live state grows the log (a command, an undo, a redo, what a copy follows).
    made_of = (len(game.history.store), id(state))
    shared = game._views.get(role)
    if shared is not None and shared[0] == made_of:
        return shared[1]
    view = view_state(state, role)
    game._views[role] = (made_of, view)
    return view


def _described(game: Table, group: list[ev.Event]) -> list[str]:
    """The lines of a command about to be written.  A side the command itself sets
    up (``scenario demo``'s purchases) is named as it will be, not by its id."""
    setups = [e for e in group if isinstance(e, ev.GameSetUp)]
    words = next((e.words for e in setups), None)
    with naming(Names(words=words or game.state.words)):
        sides = {s.id: scenario_words(s.name) for e in setups for s in e.sides} or None
    return [game.describe(e, REFEREE, sides=sides, words=words) for e in group]


def describe(
    game: Table,
    e: ev.Event,
    role: str,
    *,
    sides: Mapping[str, str] | None = None,
    words: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """``e`` in words for ``role``; ``sides``: names of sides the state does not hold yet;
    ``words``: the scenario file's own words (``GameSetUp.words``) where the state has none yet."""
    words = words or game.state.words
    with naming(Names(words=words)):
        return _describe(game, e, role, sides, words)


def _describe(
    game: Table, e: ev.Event, role: str, sides: Mapping[str, str] | None, words: Mapping[str, Mapping[str, str]]
) -> str:
    var: Callable[[str, int | str], str | None]
    number: Callable[[int], int | None] | None
    if role == REFEREE:
        var, number = partial(game.ruleset.describe_named, game.state), None
    else:
        var, number = game._said_var, game.numbering(role).shown
    sides = {**{s.id: scenario_words(s.name) for s in game.state.sides.values()}, **(sides or {})}
    units = game.state.units

    def status(badge: str) -> str:
        return game.ruleset.status_words(badge, lambda uid: scenario_words(units[uid].name) if uid in units else uid)

    return narrate.describe(
        e,
        units,
        var,
        number,
        game.ruleset.domain,
        game.localize,
        sides,
        partial(game.ruleset.piece_class, game.state),
        status,
        game.ruleset.note_for_the_referee if role == REFEREE else game.ruleset.note_for_a_side,
        lambda cmd: game.history.issued(cmd).text,
        game.ruleset.describe_secret,
        words,
    )


def _said_var(game: Table, key: str, value: int | str) -> str:
    """A variable of the rules as a side or a spectator reads it: in the ruleset's words,
    else a plain sentence; its ``key = value`` is the code's, for the referee alone."""
    if key.startswith(game.ruleset.referee_vars):
        return _("the scenario defines a kind of piece (the referee's log names it)")
    said = game.ruleset.describe_named(game.state, key, value)
    return said or _("the rules keep a value of the scenario (the referee's log names it)")


def log_lines(game: Table, role: str, start: int = 0, end: int | None = None) -> list[LogLine]:
    """Events ``start``..``end`` of the file that ``role`` may see, in file order.

    Undone events are included and flagged: the log shows everything that
    happened at the table, including what was taken back.
    """
    store = game.history.store
    end = len(store) if end is None else min(end, len(store))
    numbering = game.numbering(role)
    out: list[LogLine] = []
    for i, e in enumerate(store.slice(start, end), start):
        if event_visible(e, role):
            cmd = game.history.command_at(i)
            undone = bool(cmd) and not game.history.is_live(cmd)
            named = e.cmd if isinstance(e, ev.Undone | ev.Redone) else cmd
            number = (numbering.shown(named) or 0) if named else 0
            out.append(LogLine(i, cmd, game.describe(e, role), e, undone, number, game.inner(e)))
        elif game.hidden_header(i, e, role):
            assert isinstance(e, ev.Issued)
            # Its author, text, time and file number are the command's: none of them is shown.
            said = ev.Issued(cmd=0, n=0, by="", text="", vis=e.vis)
            text = "» " + _("(one or more commands hidden from you)")
            out.append(LogLine(i, e.cmd, text, said, not game.history.is_live(e.cmd)))
    return out


def hidden_header(game: Table, index: int, e: ev.Event, role: str) -> bool:
    """Whether event ``index``, hidden from ``role``, heads lines of its log: the marker of a
    command it may not see of which it sees some facts (the hidden Pak's shot, the Sherman it
    knocks out), coming after a line of a command it sees (issue #61).  The header says
    nothing of the command, so those facts are not read as the facts of the command before
    them; a run of hidden commands has one, as in the side's copy (core.secrets.sidecopy),
    which cannot tell them apart."""
    if type(e) is not ev.Issued or event_visible(e, role):
        return False
    store = game.history.store
    if not any(event_visible(f, role) for f in store.slice(index + 1, index + 1 + e.n)):
        return False
    end = index
    while end > 0:  # the role's line before it, looked for backwards a window at a time
        start = max(0, end - HEADER_LOOKBACK)
        for j, f in reversed(list(enumerate(store.slice(start, end), start))):
            if event_visible(f, role):
                cmd = game.history.command_at(j)
                return not cmd or event_visible(game.history.issued(cmd), role)
        end = start
    return True


def inner(game: Table, e: ev.Event) -> bool:
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
        and game.ruleset.describe_named(game.state, e.key, e.value) is None
    )


def facts_seen(game: Table, cmd: int, role: str) -> int:
    """How many of command ``cmd``'s facts (its events after the command itself) ``role`` may see."""
    return sum(1 for e in game.history.group(cmd)[1:] if event_visible(e, role))


def log_length(game: Table) -> int:
    return len(game.history.store)


def players(game: Table) -> list[ev.Seated]:
    """Who sits for which side, as the log says it (``Seated``: ``players``, a served table's
    seats), in the order recorded: the facts in force."""
    return [e for e in game.history.timeline() if type(e) is ev.Seated]
