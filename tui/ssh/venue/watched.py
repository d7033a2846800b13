"""A table as a relay holds it: the spectators' view from NATS, read as a game, and what it shows.

Everything here comes from a message anyone with publish rights on the venue's NATS
could have forged: it is decoded and checked (``core.venue.spectator_view``), opened as
any side's copy is (``sidecopy.copy_as_game``: a copy that does not make a game is
refused), and only ever shown as text (the pages set ``textContent``; the report escapes).
Only a signed view is taken (``tui.ssh.venue.signed``): each table is shown with its signer's
fingerprint, and the first key a table's views were signed with is its own for this relay (trust
on first use, as ssh's known_hosts): a view signed by another key is shown, saying so loudly.
A finished table's report shows its chances (``core.report.venue``) when its server has
published those of the very view held, and says they are not measured yet until then.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec

from core.game import Game
from core.language.i18n import N_
from core.log.narrate import result_of
from core.log.views import SPECTATOR
from core.report import render_html
from core.report.build import build
from core.report.venue import TableChances, chances_of, view_digest
from core.secrets import sidecopy
from core.venue import VenueError, spectator_view, table_of
from tui.ssh.language import _

#: The log lines a watcher is sent at most (the newest): a whole recorded game is 257–525.
MAX_LINES = 2000
NOT_MEASURED = N_(
    "Not measured yet: the table's server measures each side's chances once the game is over "
    "and every secret is opened, and this page shows them when it has."
)
KEY_CHANGED = N_(
    "KEY CHANGED: this view is signed by {now}, not by {first}, the key this table signed with first: "
    "another server publishes it (a take-over), or someone who is not the table"
)


class Score(msgspec.Struct, frozen=True):
    side: str
    score: int


class Summary(msgspec.Struct, frozen=True):
    """One table on the venue page."""

    table: str
    ruleset: str
    scenario: str
    turn: int
    phase: str
    score_name: str
    scores: list[Score]
    result: str
    #: The fingerprint of the key that signed this view (``SHA256:...``).
    key: str
    #: Empty, or a loud warning: this view's key is not the one the table signed with first.
    key_warning: str
    #: Counts the views this relay took in for the table: a page knows it has the newest.
    version: int


class Watched:
    """One table's newest spectator view, and what the pages show of it."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.body = b""
        self.version = 0
        self.game: Game | None = None
        self.summary: Summary | None = None
        self.lines: list[str] = []
        #: The fingerprint of the key the newest view is signed by, and of the first one this relay saw.
        self.key = ""
        self.first_key = ""
        self._report: render_html.Page | None = None
        #: The chances the report was made with (``report``).
        self._report_chances: TableChances | None = None

    def take(self, subject: str, data: bytes, key: str) -> bool:
        """Take a new view signed by ``key``, a fingerprint (False if it is the one held already);
        VenueError or SaveError if it is not one."""
        if data == self.body and key == self.key:
            return False
        table, copy = spectator_view(subject, data)
        if table != self.table:
            raise VenueError(f"{subject}: not table {self.table}")
        game = sidecopy.copy_as_game(copy, Path(subject))
        report = build(game, SPECTATOR)
        f = report.facts
        scores = [Score(s.name, f.score_by_turn[s.id][-1] if f.score_by_turn.get(s.id) else 0) for s in f.sides]
        state = game.state
        book = game.ruleset.domain
        self.body = data
        self.key = key
        self.first_key = self.first_key or key
        self.version += 1
        self.game = game
        self.summary = Summary(
            table=self.table,
            ruleset=f.rules,
            scenario=f.scenario,
            turn=state.turn,
            phase=state.phase,
            score_name=f.score_name,
            scores=scores,
            result=result_of(state, book),
            key=key,
            key_warning="" if key == self.first_key else _(KEY_CHANGED).format(now=key, first=self.first_key),
            version=self.version,
        )
        self.lines = [("    " if _is_fact(line.event) else "") + line.text for line in game.log_lines(SPECTATOR)][
            -MAX_LINES:
        ]
        self._report = None
        return True

    def report(self, chances: TableChances | None = None) -> render_html.Page:
        """The report of the game as the spectators saw it (HTML, every text escaped, and the sources of its
        styles for the page's policy), made when first asked; a finished game's with ``chances`` if they are
        of this view, else saying they are not measured yet."""
        if self._report is None or chances is not self._report_chances:
            game = self.game
            assert game is not None
            report = build(game, SPECTATOR)
            note = ""
            if game.state.result:
                ours = chances is not None and chances.view == view_digest(self.body)
                if ours and chances is not None and sorted(chances.sides) == sorted(game.state.sides):
                    report = dataclasses.replace(report, chances=chances_of(chances))
                else:
                    note = _(NOT_MEASURED)
            self._report = render_html.page(report, chances_note=note)
            self._report_chances = chances
        return self._report


def _is_fact(event: object) -> bool:
    return type(event).__name__ not in ("Issued", "Undone", "Redone")


def take_view(watched: dict[str, Watched], limit: int, subject: str, data: bytes, key: str) -> Watched | None:
    """File a spectator view signed by ``key`` under its table (a new table only below ``limit`` of them);
    the table if it changed.

    Raises VenueError or ``SaveError`` if the message is not a spectator's view."""
    table = table_of(subject)
    w = watched.get(table)
    if w is None:
        if len(watched) >= limit:
            raise VenueError(f"{subject}: more than {limit} tables; not followed")
        w = Watched(table)
    if not w.take(subject, data, key):
        return None
    watched[table] = w
    return w
