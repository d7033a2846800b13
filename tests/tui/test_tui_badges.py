"""Status badges are words a player reads: every status of every ruleset, and any other."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.registry import available, get_ruleset
from core.ruleset import Refused
from core.rulesets.bassa_intensita import casualties, phases
from core.rulesets.breaking_news import hits
from core.rulesets.common import STATUSES
from core.rulesets.linea_di_tiro import turn as lt_turn
from core.rulesets.ludonet import phases as ln_phases
from core.scenarios.schema import START_STATUSES
from tui.badges import COUNTED, MAX_WORD, WORDS, badge, word

SAVES = Path(__file__).resolve().parents[2] / "saves"
#: The badges each ruleset lists in its own tables (those it sets as turns pass).
LISTED = {
    "bassa-intensita": (*casualties.BADGES, *casualties.DUE, *phases.TURN_BADGES),
    "breaking-news": (*hits.TURN_BADGES, hits.OFF_TABLE),
    "linea-di-tiro": (*lt_turn.CARD_BADGES, *lt_turn.FIRED_BADGES, *lt_turn.HE_BADGES, *lt_turn.READY_BADGES),
    "ludonet": ln_phases.TIRED,
}


def statuses_of(ruleset_id: str, tmp: Path) -> set[str]:
    """Every status ``ruleset_id`` can be seen to set: those its referee may mark by
    hand, those its scenarios start pieces with, those its recorded game sets."""
    ruleset = get_ruleset(ruleset_id)
    found = set(STATUSES) | set(START_STATUSES) | set(LISTED.get(ruleset_id, ()))
    scenarios: tuple[str, ...] = ()
    for spec in ruleset.commands():
        for param in spec.params:
            if spec.name in ("mark", "clear") and param.name == "status":
                found |= set(param.choices)
            if spec.name == "scenario" and param.choices:
                scenarios = tuple(param.choices)
    games = [Game.open(p, writable=False) for p in SAVES.glob("*.ft")]
    for name in scenarios:
        game = Game.new(tmp / f"{ruleset_id}-{name}.ft", ruleset_id, seed=1)
        with contextlib.suppress(Refused):  # a scenario that needs set-up choices first: its pieces come later
            game.execute(f"scenario {name}", role=REFEREE)
        games.append(game)
    for game in games:
        if game.ruleset.id != ruleset_id:
            game.close()
            continue
        for line in game.log_lines(role="referee"):
            e = line.event
            if isinstance(e, ev.StatusChanged):
                found |= set(e.add)
            elif isinstance(e, ev.UnitAdded):
                found |= set(e.unit.status)
        game.close()
    return found


#: The rulesets Fireteam ships (tests register rulesets of their own).
SHIPPED = [r for r in available() if type(get_ruleset(r)).__module__.startswith("core.rulesets.")]


def test_the_shipped_rulesets_are_all_here():
    assert set(SHIPPED) >= {"breaking-news", "bassa-intensita", "linea-di-tiro", "ludonet"}


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_status_of_every_ruleset_has_a_word(ruleset_id, tmp_path):
    statuses = statuses_of(ruleset_id, tmp_path)
    assert len(statuses) > len(STATUSES)  # the ruleset's own were found, not only the shared ones
    for status in statuses:
        if status.startswith("aboard-"):
            continue  # aboard a vehicle named by the scenario: its own words (below)
        counted = re.fullmatch(r"([a-z]+)-\d+", status)
        if counted:
            assert counted.group(1) in COUNTED, f"{ruleset_id}: no word for what {status!r} counts"
        else:
            assert status in WORDS, f"{ruleset_id}: no word for the status {status!r}"
        shown = word(status)
        assert 2 <= len(shown) <= MAX_WORD and shown == shown.strip(), (status, shown)
        assert badge(status).plain == f" {shown} "


def test_the_words_table_keeps_its_longest_word_within_bounds():
    assert max(len(w) for w, _ in WORDS.values()) == MAX_WORD


def test_badges_read_as_words_never_four_letter_cuts():
    assert word("off-table") == "off table"
    assert word("acted") == "acted"
    assert word("panicked") == "panicked"
    assert word("seriously-wounded") == "badly wounded"
    assert word("A5") == "A5 full speed"


def test_a_counting_or_naming_badge_keeps_its_number_and_name():
    assert badge("ready-2").plain == " ready 2 "
    assert badge("he-3").plain == " HE streak 3 "
    assert badge("fired-1").plain == " fired 1 "
    assert badge("screened-by-r4c").plain == " screened by r4c "
    assert badge("aboard-truck").plain == " aboard truck "


@pytest.mark.long
@given(st.from_regex(r"[a-z][a-z0-9]{0,11}(-[a-z0-9]{1,11}){0,3}", fullmatch=True))
def test_a_status_no_table_knows_shows_all_its_words(status):
    if status in WORDS:
        return
    assert word(status).split() == status.split("-")


def test_every_badge_word_is_for_a_status_a_ruleset_declares():
    """The client's table of words names no status no ruleset has (a typo would never show;
    issue 33: each ruleset declares its statuses once, ``Ruleset.statuses()``)."""
    declared = frozenset().union(*(get_ruleset(r).statuses() for r in SHIPPED))
    families = tuple(s.removesuffix("*") for s in declared if s.endswith("*"))
    assert sorted(s for s in WORDS if s not in declared and not s.startswith(families)) == []


def test_every_status_a_teams_line_counts_is_one_every_ruleset_declares():
    """The roster counts them on each team's line, whatever the rules (a typo would count none)."""
    from tui.panes.roster import TEAM_COUNTS

    everyones = frozenset.intersection(*(get_ruleset(r).statuses() for r in SHIPPED))
    assert [status for status, _word in TEAM_COUNTS if status not in everyones] == []
    assert len(TEAM_COUNTS) == 3
