"""Audit of Ludonet's melee (B.8) from the book alone: 1d6 each plus modifiers, the
higher eliminates the other, a tie fights on; +1 expert, +2 from behind, -1 lying
down, -2 wounded; leaving a melee against the opponent's last roll at +2."""

from __future__ import annotations

import pytest
from audit_ln_table import add, out, play, said, to_phase


@pytest.fixture
def melee(ln):
    add(ln, "lying", "garrison", status=("prone",))
    add(ln, "hurt", "garrison", status=("wounded",))
    add(ln, "plain", "paras")
    to_phase(ln, 1, "melee")
    return ln


@pytest.mark.audits("LN-R050", "LN-AMB-12")
@pytest.mark.parametrize(("mine", "theirs", "want"), [(3, 3, "fritz"), (2, 3, "tie"), (1, 3, "jones")])
def test_the_higher_total_eliminates_and_a_tie_fights_on(melee, mine, theirs, want):
    """Jones (expert, +1) against Fritz."""
    facts = play(melee, f"@paras melee jones fritz dice={mine},{theirs}")
    assert (out(melee, "jones"), out(melee, "fritz")) == {
        "fritz": (False, True),
        "tie": (False, False),
        "jones": (True, False),
    }[want]
    if want == "tie":
        assert "fight on" in said(facts)
        to_phase(melee, 2, "melee")  # fought again in the next melee phase (LN-AMB-12): decided
        play(melee, "@paras melee jones fritz dice=6,1")
        assert out(melee, "fritz")


@pytest.mark.audits("LN-R051")
@pytest.mark.parametrize(
    ("line", "tie_dice", "win_dice"),
    [
        ("@paras melee plain fritz behind", "1,3", "2,3"),  # +2 from behind
        ("@paras melee plain lying", "1,2", "2,2"),  # lying down: -1
        ("@paras melee plain hurt", "1,3", "2,3"),  # wounded: -2
        ("@paras melee jones otto", "2,3", "3,3"),  # expert: +1
    ],
)
def test_each_modifier(melee, line, tie_dice, win_dice):
    attacker, defender = line.split()[2:4]
    play(melee, f"{line} dice={tie_dice}")
    assert not out(melee, attacker) and not out(melee, defender)  # a tie
    to_phase(melee, 2, "melee")  # fought on in the next melee phase (LN-AMB-12)
    play(melee, f"{line} dice={win_dice}")
    assert out(melee, defender) and not out(melee, attacker)


@pytest.mark.audits("LN-R052", "LN-AMB-13")
@pytest.mark.parametrize(
    ("mine", "theirs", "leaves"), [(3, 1, True), (2, 1, True), (1, 1, False), (5, 4, True), (4, 4, False)]
)
def test_leaving_a_melee_against_a_last_roll_at_plus_two(melee, mine, theirs, leaves):
    """Jones (+1) leaves Fritz, who rolls with +2: Fritz's higher total kills him; a tie or
    less lets him go, and the leaver's roll never harms Fritz."""
    facts = play(melee, f"@paras leave jones fritz dice={mine},{theirs}")
    assert out(melee, "jones") == (not leaves)
    assert not out(melee, "fritz")
    if leaves:
        assert "breaks away" in said(facts)
