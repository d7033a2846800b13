"""A side's report holds only what that side saw; a spectator's only public facts.

Hidden units, secret objectives and referee-only rolls are in the recorded games
(the demo's militia hide two men and roll a secret die; Bassa Intensità's referee
keeps a dying man's clock), so each is checked against them."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.replay import shown_step, visible_steps
from core.log.views import REFEREE, SPECTATOR, event_visible, roles
from core.report import build, render_html, render_md
from core.report.charts import all_charts

pytestmark = pytest.mark.long

SAVES = Path(__file__).resolve().parents[2] / "saves"
GAMES = sorted(p.name for p in SAVES.glob("*.ft"))


def everything(report) -> str:
    return render_md.render(report) + render_html.render(report) + "".join(c.svg for c in all_charts(report))


def seen_units(game: Game, role: str, step: int) -> set[str]:
    """The units some event ``role`` may see is about."""
    seen = set()
    for e in game.history.timeline(0, step):
        if event_visible(e, role) and not isinstance(e, ev.Issued):
            uid = e.unit.id if isinstance(e, ev.UnitAdded) else getattr(e, "unit", "")
            if uid:
                seen.add(uid)
    return seen


def _counted(game: Game, role: str, step: int) -> int:
    """Effective step ``step`` as ``role`` counts steps (a report's step is the role's)."""
    return shown_step(visible_steps(game.history, role, step), step)


@pytest.mark.parametrize("name", GAMES)
def test_no_hidden_fact_reaches_a_sides_or_a_spectators_report(name):
    game = Game.open(SAVES / name, writable=False)
    length = game.timeline.length
    hidden_somewhere = False
    for role in roles(game.state):
        if role == REFEREE:
            continue
        counted = visible_steps(game.history, role, length)
        for step in sorted({length // 3, 2 * length // 3, length}):
            report = build(game, role, shown_step(counted, step))  # a side's steps count what it sees
            visible = [e for e in game.history.timeline(0, step) if event_visible(e, role)]
            rolls = [r for t in report.facts.turns for r in t.rolls]
            assert [r.roll for r in rolls] == [e.roll for e in visible if isinstance(e, ev.Rolled)]
            seen = seen_units(game, role, step)
            assert {u.id for u in report.facts.units} == seen
            text = everything(report)
            # The report says no more than the role's own log: a name some seen line
            # quotes (a shot at a man spotted by the other side) is in both.
            log = "\n".join(game.describe(e, role) for e in visible)
            state = game.timeline.state_at(step)
            for uid, unit in state.units.items():
                if uid not in seen and unit.name not in log:
                    hidden_somewhere = True
                    assert unit.name not in text, (role, step, unit.name)
            for e in game.history.timeline(0, step):
                if isinstance(e, ev.Rolled) and not event_visible(e, role):
                    hidden_somewhere = True
                    assert e.roll not in [r.roll for r in rolls]
            points = sum(p.points for t in report.facts.turns for p in t.points)
            assert points == sum(x.points for x in visible if isinstance(x, ev.DefeatPoints))
    assert hidden_somewhere or name == "ludonet-game.ft"  # every other recorded game hides something


def test_the_militias_hidden_men_secret_die_and_hidden_crawl_stay_theirs():
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    before_turn_2 = game.timeline.turn_start(2)
    regulars = everything(build(game, "regulars", _counted(game, "regulars", before_turn_2)))
    militia = everything(build(game, "irregulars", _counted(game, "irregulars", before_turn_2)))
    for secret in ("Dahir Omar", "Egal Yusuf", "secret objective die", "hidden move"):
        assert secret not in regulars
    assert "Dahir Omar" in militia and "Egal Yusuf" in militia
    # Over the whole game Dahir is seen by the Bersaglieri (spotted, then shot), never by a spectator.
    assert "Dahir Omar" in everything(build(game, "regulars"))
    spectator = build(game, SPECTATOR)
    assert "dahir" not in {u.id for u in spectator.facts.units}
    assert "Dahir Omar killed" not in everything(spectator)
    assert spectator.facts.score_by_turn["irregulars"][-1] == 15  # his 5 defeat points were scored unseen


def test_the_referees_dying_clock_is_in_no_sides_report():
    game = Game.open(SAVES / "bassa-intensita-game.ft", writable=False)
    assert "turns he lives undressed" in " ".join(
        plain(r.roll.purpose) for t in build(game, REFEREE).facts.turns for r in t.rolls
    )
    for role in ("convoy", "militia", SPECTATOR):
        rolls = [plain(r.roll.purpose) for t in build(game, role).facts.turns for r in t.rolls]
        assert "turns he lives undressed" not in rolls
