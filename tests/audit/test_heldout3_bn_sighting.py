"""Third held-out audit of Breaking News §7.0, hidden troops and sighting: the table's every
band on both sides of its edge, its modifiers two and three at once up to the impossible,
night and night visors, one attempt a figure a turn, the bonus move after each failure, and
what a hidden figure may do and stay hidden.  Written from the rulebook (1.5.1) and its
digest alone, after the three earlier audits and apart from them: given these faces, the
book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, play, refused, table, unit

from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused

MEN = (
    unit("vet", "regulars", "R3", "A")
    + unit("rec", "regulars", "R5", "A")
    + unit("sf", "regulars", "R1", "S")
    + unit("snip", "regulars", "R3", "A", weapons=("SNIPER",), roles=("sniper",))
    + unit("nv", "regulars", "R3", "A", roles=("night-visors",))
    + unit("gh", "irregulars", "Irr1", "C", status=("hidden",))
    + unit("gh2", "irregulars", "Irr1", "C", status=("hidden",))
    + unit("hsf", "irregulars", "R1", "K", status=("hidden",))
    + unit("hsn", "irregulars", "Irr1", "C", weapons=("SNIPER",), roles=("sniper",), status=("hidden",))
)


def sighting(out) -> ev.Rolled | None:
    found = [e for e in out.events if isinstance(e, ev.Rolled) and "sighting" in str(e.roll.purpose)]
    return found[0] if found else None


def sighted(out, target: str) -> bool:
    return any(isinstance(e, ev.Spotted) and e.unit == target for e in out.events)


def need(out) -> int:
    rolled = sighting(out)
    assert rolled is not None, "no sighting roll"
    return rolled.roll.check.face


g = table(MEN)
dark = table(MEN, "dark", head="night = true")
irr = table(MEN, "irr", active="irregulars")


# T-07's bands, each edge on both sides (AMB-01: a band holds its upper value) ----------


@pytest.mark.audits("T-07", "SPOT-3")
@pytest.mark.parametrize(("cm", "needed"), [(5.5, 3), (20, 3), (20.5, 5), (50, 5), (50.5, 6), (100, 6)])
def test_each_band_of_the_sighting_table(g, cm, needed):
    """§7.0: 5cm 0, 20cm 3, 50cm 5, 100cm 6: a Veteran sighting a hidden Mercenary in
    cover."""
    out = g.execute(f"react-spot vet gh range={cm} dice={needed}", role=REFEREE)
    assert need(out) == needed and sighted(out, "gh")


@pytest.mark.audits("T-07", "SPOT-3")
def test_within_5_cm_the_sighting_is_sure(g):
    """§7.0: at 5 cm the table needs 0: the man is sighted whatever the die."""
    out = g.execute("react-spot vet gh range=5", role=REFEREE)
    assert sighted(out, "gh")


@pytest.mark.audits("T-07")
def test_beyond_100_cm_nothing_is_sighted(g):
    """§7.0's table stops at 100 cm; the digest (AMB-03): beyond it sighting is impossible."""
    refused(g, "react-spot snip gh range=100.5 open", rule="AMB-03")


# The modifiers together --------------------------------------------------------------


@pytest.mark.audits("T-07", "SPOT-3")
def test_a_recruit_cannot_sight_special_forces_in_the_open_past_20_cm(g):
    """§7.0: 5 at 20.5 cm, +2 Special Forces, −1 in the open, +1 the Recruit's quality: 7,
    beyond a die (digest: impossible), so even a 6 fails."""
    try:
        out = g.execute("react-spot rec hsf range=20.5 open dice=6", role=REFEREE)
    except Refused:
        return
    assert not sighted(out, "hsf")


@pytest.mark.audits("T-07", "SPOT-3")
def test_a_recruit_sights_special_forces_in_the_open_at_20_cm_on_a_five(g):
    """§7.0: 3 at 20 cm, +2, −1, +1: 5.  A 5 sights him, a 4 does not."""
    out = g.execute("react-spot rec hsf range=20 open dice=4", role=REFEREE)
    assert need(out) == 5 and not sighted(out, "hsf")
    out = g.execute("react-spot vet hsf range=20 open dice=4", role=REFEREE)  # the Veteran: 3 + 2 − 1 = 4
    assert need(out) == 4 and sighted(out, "hsf")


@pytest.mark.audits("T-07", "SPOT-3")
def test_a_sniper_sighting_a_sniper_past_50_cm(g):
    """§7.0: 6 at 50.5 cm, +1 the target is a sniper, −1 the spotter is one: 6."""
    out = g.execute("react-spot snip hsn range=50.5 dice=6", role=REFEREE)
    assert need(out) == 6 and sighted(out, "hsn")


@pytest.mark.audits("T-07", "SPOT-3")
def test_a_sniper_target_past_50_cm_is_out_of_a_veterans_sight(g):
    """§7.0: 6 at 50.5 cm, +1 the target is a sniper: 7, so even a 6 fails."""
    try:
        out = g.execute("react-spot vet hsn range=50.5 dice=6", role=REFEREE)
    except Refused:
        return
    assert not sighted(out, "hsn")


@pytest.mark.audits("T-07", "SPOT-3")
def test_special_forces_sight_a_man_in_the_open_at_20_cm_without_a_roll(g):
    """§7.0: 3 at 20 cm, −1 in the open, −1 the spotter's Special Forces quality: 1, which
    any die makes (digest: automatic)."""
    out = g.execute("react-spot sf gh range=20 open", role=REFEREE)
    assert sighted(out, "gh")


@pytest.mark.audits("T-07", "SPOT-3")
def test_within_5_cm_special_forces_at_night_need_four(dark):
    """§7.0: 0 at 5 cm, +2 Special Forces, +2 at night without night visors: 4 (digest
    AMB-20: the 0 still takes its modifiers)."""
    out = dark.execute("react-spot vet hsf range=5 dice=3", role=REFEREE)
    assert need(out) == 4 and not sighted(out, "hsf")


@pytest.mark.audits("T-07", "SPOT-3")
def test_night_visors_take_the_night_away(dark):
    """§7.0: "+2 ... at night (without night visors)": with them, 5 at 50 cm stays 5."""
    out = dark.execute("react-spot nv gh range=50 dice=5", role=REFEREE)
    assert need(out) == 5 and sighted(out, "gh")
    try:  # without them: 5 + 2 = 7, beyond a die
        out = dark.execute("react-spot vet gh2 range=50 dice=6", role=REFEREE)
    except Refused:
        return
    assert not sighted(out, "gh2")


@pytest.mark.audits("T-07", "SPOT-3")
def test_the_jungle_adds_two(g):
    """§7.0: "+2 target in Jungle": 3 at 20 cm becomes 5."""
    out = g.execute("react-spot vet gh range=20 night dice=5", role=REFEREE)
    assert need(out) == 5 and sighted(out, "gh")


# Once a turn, several spotters, the bonus move -----------------------------------------


@pytest.mark.audits("SPOT-4")
def test_one_sighting_a_figure_a_turn_even_at_another_target(g):
    """§7.0: sighting "can be performed once per turn by any model": the Veteran who failed
    at one marker may not try another this turn."""
    g.execute("react-spot vet gh range=30 dice=1", role=REFEREE)
    refused(g, "react-spot vet gh2 range=30 dice=6", rule="MOV-7")


@pytest.mark.audits("SPOT-4")
def test_several_figures_may_try_the_same_target(g):
    """§7.0: "Several models can attempt to sight the same target during the same turn": the
    Recruit fails, the Veteran then sights him."""
    g.execute("react-spot rec gh range=30 dice=5", role=REFEREE)  # 5 + 1 = 6: fails
    out = g.execute("react-spot vet gh range=30 dice=5", role=REFEREE)
    assert sighted(out, "gh")


@pytest.mark.audits("SPOT-6")
def test_one_bonus_move_for_each_failed_sighting(g):
    """§7.0: "For every failed sighting the model to be sighted can move up to 5cm ... the
    movement bonus may apply more than once": two failures, two moves, not a third."""
    play(
        g,
        "react-spot rec gh range=30 dice=2",
        "react-shift gh 5",
        "react-spot vet gh range=30 dice=2",
        "react-shift gh 5",
    )
    refused(g, "react-shift gh 5", rule="SPOT-6")


@pytest.mark.audits("SPOT-6")
def test_no_bonus_move_without_a_failed_sighting(g):
    """§7.0: the bonus comes "for every failed sighting": none was tried, none is owed."""
    refused(g, "react-shift gh 3", rule="SPOT-6")


# What a hidden figure may do and stay hidden --------------------------------------------


@pytest.mark.audits("MOV-7", "SPOT-7")
def test_a_hidden_crawl_on_a_six_stays_put_and_hidden(irr):
    """§7.0: hidden troops "move 5cm-1d6 ... if the number is negative then they remain
    stationary": a 6 leaves him where he was, still hidden."""
    out = irr.execute("move gh hidden dice=6", role=REFEREE)
    moved = [e.cm for e in out.events if isinstance(e, ev.Moved)]
    assert all(cm == 0 for cm in moved)
    assert "hidden" in irr.state.units["gh"].status


@pytest.mark.audits("MOV-7", "SPOT-7")
def test_a_hidden_crawl_on_a_two_is_three_cm(irr):
    """§7.0: 5 − 2 = 3 cm, and he stays hidden."""
    out = irr.execute("move gh hidden dice=2", role=REFEREE)
    assert [e.cm for e in out.events if isinstance(e, ev.Moved)] == [3]
    assert "hidden" in irr.state.units["gh"].status


@pytest.mark.audits("SPOT-7", "MOV-7")
def test_a_hidden_man_who_runs_is_sighted(irr):
    """§7.0: hidden troops "move 5cm-1d6 ... and do not fire, otherwise they are
    automatically sighted": a run of 20 cm shows him."""
    irr.execute("move gh 20 run", role=REFEREE)
    assert "hidden" not in irr.state.units["gh"].status


@pytest.mark.audits("SPOT-7")
def test_a_hidden_man_who_fires_is_sighted(irr):
    """§7.0: a hidden man who fires is "automatically sighted"."""
    irr.execute("fire gh vet range=30 aimed dice=1", role=REFEREE)
    assert "hidden" not in irr.state.units["gh"].status


@pytest.mark.audits("SPOT-2")
def test_an_unsighted_man_in_cover_is_not_a_target_for_aimed_fire(g):
    """§7.0: "a model in cover cannot be fired upon except with speculative fire"; "All
    others are only allowed speculative fire": no aimed shot at the hidden Mercenary until
    he is sighted; once sighted, the shot is made."""
    refused(g, "fire vet gh range=30 aimed dice=6", rule="MOV-7")
    g.execute("react-spot vet gh range=30 dice=5", role=REFEREE)
    out = g.execute("fire vet gh range=30 aimed cover dice=1", role=REFEREE)
    assert any(isinstance(e, ev.Rolled) for e in out.events)


@pytest.mark.audits("T-07", "T-01", "SPOT-3")
@pytest.mark.parametrize(("cls", "needed"), [("Irr3", 6), ("Irr2", 5), ("Irr1", 5)])
def test_the_irregular_spotters_quality(tmp_path, monkeypatch, cls, needed):
    """§7.0 "+ or - Spotter's quality" from §3.0's Spotting column: Militia +1, Fanatics and
    Mercenaries 0.  A hidden Ranger in cover at 50 cm: 5."""
    units = unit("spot", "irregulars", cls, "C") + unit("hid", "regulars", "R3", "A", status=("hidden",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    out = g.execute(f"react-spot spot hid range=50 dice={needed}", role=REFEREE)
    assert need(out) == needed and sighted(out, "hid")


@pytest.mark.audits("T-07", "SPOT-3")
def test_a_special_forces_sniper_spots_on_both_his_minus_ones(tmp_path, monkeypatch):
    """§7.0: "-1 if the sighting model is a Sniper" and the Special Forces' −1 quality: 6 at
    50.5 cm becomes 4."""
    units = MEN + unit("sfsn", "regulars", "R1", "S", weapons=("SNIPER",), roles=("sniper",))
    g = new_game(tmp_path, monkeypatch, units)
    out = g.execute("react-spot sfsn gh range=50.5 dice=4", role=REFEREE)
    assert need(out) == 4 and sighted(out, "gh")
