"""Audit of Linea di Tiro's other fire, MG and HE (C.7, C.7.1), from the book alone:
every cell of the 1d6 table through a game, each defence value, the consecutive-HE
bonus, "I" against infantry and against tanks, the ambush die modifier."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, DEFENCES, add, game_with, has, mg_book, out, outcome, play, refused, rolled, said

WORDS = {"D": "D: destroyed", "I": "I: immobilised, loses its ready attacks", "-": "no effect"}

#: The two states C.7.1 leaves out (LT-AMB-19: stationary in protection +4, moving in
#: protection +1, the digest's proposal).
GAPS = {"still-protected": 4, "moving-protected": 1}
#: C.7.1's vehicles: "open" vehicles +3, light tanks and armoured cars +4, other tanks +5.
VEHICLES = {"open-vehicle": 3, "light-tank": 4, "tank": 5}


def _mg(tmp_path, attack: int, defence: str, die: int, flags: str = "", name: str = "a.ft", status=("ready-1",)):
    """A US MG (factor ``attack``) fires at German infantry doing ``defence``."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "mg", "us", "rifles", team="X", stats={"mg": attack})
    add(g, "inf", "german", "rifles", team="Y", status=status)
    play(g, "next", "@us activate mg A4 prepare=0")
    return g, play(g, f"@us mg mg inf defence={defence} {flags} dice={die}")


@pytest.mark.audits("LT-R060")
@pytest.mark.parametrize("diff", [-2, -1, 0, 1, 2, 3, 4, 5, 6])
def test_every_cell_of_the_mg_table(tmp_path, diff):
    """C.7: attack factor - defence picks the column (<0, 0, +1 .. +4, >+4), 1d6 the row;
    D destroys, I immobilises infantry and takes its ready shots, 6 never has an effect."""
    for die in range(1, 7):
        # a factor of at least 1: the defence makes the difference
        attack, defence = (diff + 5, "entrenched") if diff < 1 else (diff, "moving-open")
        g, facts = _mg(tmp_path, attack, defence, die, name=f"{die}.ft")
        want = mg_book(diff, die)
        assert outcome(facts).endswith(WORDS[want]), (diff, die, outcome(facts))
        assert out(g, "inf") == (want == "D")
        if want != "D":
            assert has(g, "inf", "immobilised") == (want == "I")
            assert has(g, "inf", "ready-1") == (want == "-")  # "I" loses the ready shots


@pytest.mark.audits("LT-R060", "LT-AMB-19")
def test_each_defence_value(tmp_path):
    """C.7.1: the column read is the MG factor (5) less the state's defence."""
    for i, (key, value) in enumerate({**DEFENCES, **GAPS, **VEHICLES}.items()):
        g, facts = _mg(tmp_path, 5, key, 6, name=f"{i}.ft")
        column = 5 - value
        assert f"column {'>+4' if column > 4 else f'+{column}' if column else '0'}:" in outcome(facts), key


@pytest.mark.audits("LT-R060", "LT-AMB-31")
def test_vehicles_have_their_own_defence_and_an_i_makes_a_tank_test_morale(lt):
    """Light tanks and armoured cars +4, other tanks +5, open vehicles +3; an "I" on a tank
    is a morale test (the table's legend), not an immobilisation."""
    add(lt, "mg", "us", "rifles", team="X", stats={"mg": 6})
    add(lt, "tank", "german", "pz4", team="Y", stats={"front": 5, "side": 3})
    play(lt, "next", "@us activate mg A4 prepare=0")
    facts = play(lt, "@us mg mg tank defence=tank dice=3")  # 6 - 5 = +1; 3: I
    assert "column +1:" in outcome(facts) and "tests morale" in outcome(facts)
    assert not has(lt, "tank", "immobilised") and "must test morale" in said(facts)
    facts = play(lt, "@us mg mg tank defence=light-tank dice=4")  # 6 - 4 = +2; 4: no effect
    assert outcome(facts) == "modified total 4, column +2: no effect"


@pytest.mark.audits("LT-R061", "LT-AMB-20")
def test_each_consecutive_he_shot_at_immobilised_infantry_adds_one_to_the_factor(lt):
    """+1 to the attack factor for each consecutive HE shot against immobilised infantry
    (LT-AMB-20: the 2nd consecutive HE attack on the immobilised piece +1, the 3rd +2);
    an MG shot is no HE shot and breaks the run."""
    add(lt, "gun", "us", "rifles", team="X", stats={"mg": 3})
    add(lt, "inf", "german", "rifles", team="Y")
    play(lt, "next", "@us activate gun A4 prepare=0")
    facts = play(lt, "@us mg gun inf defence=still-open he dice=2")  # 3 - 3 = 0; 2: I
    assert "column 0:" in outcome(facts) and has(lt, "inf", "immobilised")
    facts = play(lt, "@us mg gun inf defence=still-open he dice=6")  # 2nd consecutive: +1
    assert "column +1:" in outcome(facts)
    play(lt, "next", "next", "@us activate gun A4 prepare=0")
    assert "column +2:" in outcome(play(lt, "@us mg gun inf defence=still-open he dice=6"))  # 3rd: +2
    assert "column 0:" in outcome(play(lt, "@us mg gun inf defence=still-open dice=6"))  # MG: no bonus
    play(lt, "next", "next", "@us activate gun A4 prepare=0")
    # the MG shot broke the run: this HE shot starts it again
    assert "column 0:" in outcome(play(lt, "@us mg gun inf defence=still-open he dice=6"))
    assert "column +1:" in outcome(play(lt, "@us mg gun inf defence=still-open he dice=6"))


@pytest.mark.audits("LT-R061", "LT-AMB-20")
def test_no_he_bonus_against_infantry_that_is_not_immobilised(lt):
    add(lt, "gun", "us", "rifles", team="X", stats={"mg": 3})
    add(lt, "inf", "german", "rifles", team="Y")
    play(lt, "next", "@us activate gun A4 prepare=0")
    assert "column 0:" in outcome(play(lt, "@us mg gun inf defence=still-open he dice=6"))
    assert "column 0:" in outcome(play(lt, "@us mg gun inf defence=still-open he dice=6"))


@pytest.mark.audits("LT-AMB-18", "LT-R053")
def test_the_ambush_minus_one_is_the_only_die_modifier_on_the_mg_table(tmp_path):
    """LT-AMB-18: the ambush -1 applies on this table; results below 1 read row 1."""
    g = game_with(tmp_path, ALTERNATE)
    add(g, "spotter", "us", "rifles", team="X")
    add(g, "hidden", "german", "rifles", team="Y", status=("hidden", "ready-1"), stats={"mg": 3})
    play(g, "next", "spot hidden by=spotter at=5 state=ambush")
    facts = play(g, "@german mg hidden spotter defence=bound-open ambush dice=1")  # 3 - 2 = +1; 1 - 1 = 0: row 1
    assert [m.value for m in rolled(facts)[0].mods] == [-1]
    assert outcome(facts) == "modified total 0, column +1: I: immobilised, loses its ready attacks"
    # without the ambush, no modifier at all
    g2, facts = _mg(tmp_path, 3, "bound-open", 4, name="plain.ft")
    assert rolled(facts)[0].mods == () or list(rolled(facts)[0].mods) == []


@pytest.mark.audits("LT-R060")
def test_a_piece_with_no_mg_factor_cannot_fire_mg(lt):
    add(lt, "mg", "us", "rifles", team="X", stats={"mg": 0})
    add(lt, "inf", "german", "rifles", team="Y")
    play(lt, "next", "@us activate mg A4 prepare=0")
    refused(lt, "@us mg mg inf defence=moving-open dice=1", rule="LT-R060")
