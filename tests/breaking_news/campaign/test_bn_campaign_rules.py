"""The campaign's pure rules, with the book's worked examples and exact dice."""

from __future__ import annotations

import pytest

from core.language.i18n import plain
from core.rulesets.breaking_news import rules
from core.rulesets.breaking_news.campaign import media, morale, objectives
from core.rulesets.breaking_news.tables import media as media_table

# ------------------------------------------------------------------ initiative (§5.0)


def test_initiative_total_and_modifiers():
    """§5.0: 2d6 + leadership + quality − the previous winner's penalty + 1 after an ambush: 3,5 + 2 + 4 −
    1 + 1 = 14.

    Digest: INI-1.
    """
    mods = rules.initiative_mods(leadership=2, quality=4, penalty=1, ambush=True)
    assert [(plain(m.label), m.value) for m in mods] == [
        ("leadership", 2),
        ("troop quality", 4),
        ("previous winner", -1),
        ("ambush last turn", 1),
    ]
    assert rules.initiative_total((3, 5), mods) == 3 + 5 + 2 + 4 - 1 + 1


def test_cumulative_penalty_counts_the_winning_streak():
    # INI-2 (rulings BN-INI-PENALTY): -1, -2, -3 while winning; back to 0 after a loss
    """§5.0 (ruling BN-INI-PENALTY): −1, −2, −3 while winning in a row; back to 0 after a loss.

    Digest: AMB-04.
    """
    p = 0
    trail = []
    for won in (True, True, True, False, True):
        p = rules.next_penalty(won, p)
        trail.append(p)
    assert trail == [1, 2, 3, 0, 1]


def test_quality_is_the_majority_class():
    """§5.0 (ruling BN-INI-QUALITY): the class most men belong to gives the quality; a tie goes to the
    better class.

    Digest: AMB-09, INI-4.
    """
    assert rules.side_quality(["R3", "R3", "R5"]) == 4
    assert rules.side_quality(["Irr2", "Irr3", "Irr3"]) == 2
    assert rules.side_quality(["R2", "R4"]) == 5  # a tie goes to the better class
    assert rules.side_quality([]) == 0


# ---------------------------------------------------------------------- morale (§12)


def test_squad_morale_needs_a_die_at_the_losses():
    """§12.0: 4 dice against 2 lost and the leader: 3; 1,2,3,1 passes, 1,2,2,1 fails.

    Digest: MOR-3, MOR-4.
    """
    t = morale.squad_test(quality=4, lost=2, leaders_lost=1, strength=6, fighting=4)
    assert (t.dice, t.losses, t.half_fighting) == (4, 3, True)
    assert morale.passes(t, (1, 2, 3, 1))
    assert not morale.passes(t, (1, 2, 2, 1))


def test_a_six_passes_only_while_half_still_fight():
    """§12.0 (ruling BN-MOR-SIX): 7 of 14 still fighting: a 6 passes against 7 losses; 6 of 14: it fails;
    below half a 6 still passes against 4.

    Digest: AMB-52.
    """
    above = morale.squad_test(quality=3, lost=7, leaders_lost=0, strength=14, fighting=7)
    below = morale.squad_test(quality=3, lost=8, leaders_lost=0, strength=14, fighting=6)
    assert above.half_fighting and morale.passes(above, (6, 1, 1))
    assert not below.half_fighting and not morale.passes(below, (6, 1, 1))
    # below half a 6 is still a 6: it passes when the losses are 6 or fewer (MOR-4)
    t = morale.squad_test(quality=2, lost=4, leaders_lost=0, strength=10, fighting=4)
    assert not t.half_fighting and morale.passes(t, (6, 2))


def test_ex06_platoon_morale_8d6_needing_3():
    # §13.0 example: Veteran platoon (4), 3 squads + an AT section, 3 men lost, none at 50%
    """EX-06: a Veteran platoon of three squads and an AT section, 3 lost, none at half: 4 + 4 = 8 dice
    needing 3.

    Digest: PLT-4.
    """
    squads = [(9, 1), (9, 1), (9, 1), (3, 0)]
    t = morale.platoon_test(quality=4, squads=squads, lost=3, leaders_lost=0, strength=30, fighting=27)
    assert (t.dice, t.losses) == (8, 3)
    assert not morale.passes(t, (1, 2, 2, 1, 1, 2, 1, 2))
    assert morale.passes(t, (1, 1, 1, 1, 1, 1, 1, 3))


def test_platoon_squad_at_exactly_half_gives_no_die():
    """§13.0 (AMB-53): a squad at exactly half its men lost gives no die: 4 + 1 = 5.

    Digest: PLT-4.
    """
    t = morale.platoon_test(quality=4, squads=[(4, 2), (4, 1)], lost=3, leaders_lost=0, strength=8, fighting=5)
    assert t.dice == 5


# ----------------------------------------------------------- objectives (§4.1)


class _Secret:
    def __init__(self, owner, value):
        self.owner, self.value, self.revealed = owner, value, False


class _Side:
    def __init__(self, sid, army):
        self.id, self.army = sid, army


class _State:
    """Just enough state for the objective rules."""

    def __init__(self, die):
        roles = {1: "fake", 2: "secondary", 3: "fake", 4: "main", 5: "secondary"}
        self.secrets = {f"marker.regulars.{n}": _Secret("regulars", r) for n, r in roles.items()}
        if die:
            self.secrets["objective.die"] = _Secret("irregulars", str(die))
        self.vars = {"mission": 2}
        self.sides = {"regulars": _Side("regulars", "regular"), "irregulars": _Side("irregulars", "irregular")}


@pytest.mark.parametrize(
    "die, expected",
    [
        # EX-01: die 3 — marker 3 becomes a main objective as well (AMB-06)
        (3, {1: "fake", 2: "secondary", 3: "main", 4: "main", 5: "secondary"}),
        # a 6: the original main (4) becomes a fake — no main objective at all
        (6, {1: "fake", 2: "secondary", 3: "fake", 4: "fake", 5: "secondary"}),
        # the original main's own number: no change
        (4, {1: "fake", 2: "secondary", 3: "fake", 4: "main", 5: "secondary"}),
        # a secondary becomes a main one too
        (2, {1: "fake", 2: "main", 3: "fake", 4: "main", 5: "secondary"}),
    ],
)
def test_ex01_secret_die_redesignates_markers(die, expected):
    """EX-01 (ruling BN-OBJ-DIE): the die's 3 makes marker 3 a main objective too; 4 (the main) changes
    nothing; 6 makes the main a fake.

    Digest: AMB-06, DIFF-07, OBJ-2.
    """
    state = _State(die)
    assert {n: objectives.effective_role(state, "regulars", n) for n in range(1, 6)} == expected


def test_die_effect_in_words():
    declared = {4: "main"}
    assert plain(objectives.die_effect(3, declared)) == "3: Regular marker 3 becomes a main objective too"
    assert "no change" in plain(objectives.die_effect(4, declared))
    assert "becomes a fake" in plain(objectives.die_effect(6, declared))


# ------------------------------------------------------------ journalists (T-20)


def test_multipliers_do_not_stack():
    """Extras: Media (AMB-54): the Regular's points ×2, civilians and buildings ×3 (embedded) or ×4
    (independent) instead; with both kinds, the larger.

    Digest: DP-3, T-20.
    """
    m = media_table()
    ledger = {"casualties": 20, "civilians": 5, "buildings": 5, "first-fire": 5}
    assert media.multiplied(ledger, True, []) == 35
    assert media.multiplied(ledger, True, [m["embedded"]]) == 20 * 2 + 5 * 3 + 5 * 3 + 5 * 2
    assert media.multiplied(ledger, True, [m["independent"]]) == 20 * 2 + 5 * 4 + 5 * 4 + 5 * 2
    # both kinds: the larger multiplier
    assert media.multiplied(ledger, True, [m["embedded"], m["independent"]]) == 50 + 40


def test_embedded_press_doubles_the_opponents_lost_main_objective():
    """Extras: Media: embedded press doubles the 50 the opponent loses for his main objective; independent
    press does not.

    Digest: AMB-54, DP-3.
    """
    m = media_table()
    ledger = {"objective-main": 50, "casualties": 10}
    assert media.multiplied(ledger, False, [m["embedded"]]) == 110
    assert media.multiplied(ledger, False, [m["independent"]]) == 60
