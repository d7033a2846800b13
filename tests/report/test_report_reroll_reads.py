"""A re-rolled game works out what ``parse`` reads of its table (``Parses.table``) only
after a fact that can change it (``Reads``): after every fact, what it knows is what
working it out afresh gives, for every role."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from core.game import Game
from core.log import events as ev
from core.log.state import HIDDEN, GameState, Unit, apply_one
from core.log.views import OFF_TABLE, REFEREE
from core.report.reroll import Parses, Reads

SAVES = Path(__file__).resolve().parents[2] / "saves"


def _follows(game: Game, start: GameState, events: list[ev.Event], roles: list[str]) -> int:
    """Fold ``events`` into ``start``, checking ``Reads`` after each; how many times what
    parse reads changed."""
    parses = Parses(game)
    reads, state, changed = Reads(parses), start, 0
    before = {role: reads.of(state, role) for role in roles}
    for e in events:
        apply_one(state, e)
        reads.after([e])
        for role in roles:
            known, afresh = reads.of(state, role), parses.table(state, role)
            assert known == afresh, (e, role)
            changed += known != before[role]
            before[role] = known
    return changed


def test_what_parse_reads_follows_the_demo_games_facts():
    with closing(Game.open(SAVES / "demo-game.ft", writable=False)) as game:
        roles = [*game.state.sides, REFEREE]
        changed = _follows(game, GameState(), list(game.history.timeline()), roles)
        assert changed > 10  # the game hides, spots, marks and loses units


def test_a_hidden_units_marker_is_read_again_as_it_leaves_the_table_and_comes_back():
    with closing(Game.open(SAVES / "demo-game.ft", writable=False)) as game:
        sides = list(game.state.sides)
        state = GameState(sides=dict(game.state.sides))
        state.units["u"] = Unit("u", "Rossi", sides[0], status=(HIDDEN,), marker="A")
        events: list[ev.Event] = [
            ev.StatusChanged(unit="u", add=(OFF_TABLE,)),
            ev.StatusChanged(unit="u", remove=(OFF_TABLE,)),
            ev.StatusChanged(unit="u", add=("suppressed",)),
            ev.Spotted(unit="u", by_side=sides[1]),
            ev.StatusChanged(unit="u", remove=(HIDDEN,)),
        ]
        # Its marker off and on the table, and lifted, for each of the three; spotted: for one.
        assert _follows(game, state, events, [*sides, REFEREE]) == 3 + 3 + 1 + 3
