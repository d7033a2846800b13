"""A third look at Linea di Tiro, its second held-out audit, from the Italian book and the
digest alone: the cards (C.2: which suit is whose, the ace, the face card spent on a platoon
or on the guns, the joker, the reshuffle with ten cards left), the seven activation options
and what each refuses (C.3), movement's data and edges (C.5), and the morale test's three
bands at every morale, with their ready attacks (C.8)."""

from __future__ import annotations

import pytest
from audit_lt_table import add, game_with, has, immobilised, moved, play, refused, rolled, said, turned
from linea_di_tiro_support import artillery, inject, stacked
from playing import all_refused, names

from core.language.i18n import plain
from core.refusal import TYPING
from core.ruleset import Refused


def card_of(g, facts) -> str:
    """The card the last ``next`` drew, as the log names it."""
    text = [plain(g.describe(e, role="referee")) for e in facts if type(e).__name__ == "PhaseBegan"][-1]
    return text.rsplit("card ", 1)[1].strip()


# --- C.2: the cards ----------------------------------------------------------------------


@pytest.mark.audits("LT-R010", "LT-AMB-06")
def test_an_ace_of_diamonds_is_a_number_card_for_one_allied_piece(tmp_path):
    """C.2: "cuori o quadri il giocatore alleato attiva 1 pezzo"; an ace is a number card
    (LT-AMB-06): one US piece, and only one; no German piece."""
    g = turned(tmp_path, ["A♦"], "@us activate gis A1")
    all_refused(g, "@us activate bazooka A1", "@german activate grenadiers A1", rule="LT-R010")


@pytest.mark.audits("LT-R010")
def test_spades_are_the_axis_players(tmp_path):
    """C.2: "picche o fiori lo fa il giocatore dell'asse"."""
    g = turned(tmp_path, ["5♠"])
    refused(g, "@us activate gis A1", rule="LT-R010")
    play(g, "@german activate grenadiers A1")
    assert has(g, "grenadiers", "A1")


@pytest.mark.audits("LT-R010", "LT-AMB-04")
def test_a_red_face_card_activates_one_platoon_each_piece_once(tmp_path):
    """C.2: a face card "è possibile attivare un intero plotone": both Shermans of the 1st
    Platoon, each once; the GIs of the 2nd Platoon are not in it."""
    g = turned(tmp_path, ["Q♦"], "@us activate sherman1 A1", "@us activate sherman2 A5")
    all_refused(g, "@us activate gis A1", "@us activate sherman1 A3", rule="LT-R010")


@pytest.mark.audits("LT-R010", "LT-R090", "LT-AMB-07")
def test_a_face_card_spent_calling_the_guns_activates_no_platoon(tmp_path):
    """C.2/C.10: a face card activates a platoon "o" another unit move; the artillery call
    is that unit move (a whole "mossa speciale"), so no platoon moves with it."""
    g = game_with(tmp_path, ["K♥"])
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 5))
    play(g, "next", "@us unitmove call-artillery by=cmd")
    refused(g, "@us activate sherman1 A1", rule="LT-R010")


@pytest.mark.audits("LT-R010", "LT-AMB-05")
def test_a_joker_activates_no_piece_of_either_side(tmp_path):
    """C.2: "i jolly sono carte speciali, il cui effetto dipende dallo scenario": the demo's
    gives no side a piece to activate."""
    g = turned(tmp_path, ["Joker"])
    all_refused(g, "@us activate gis A1", "@german activate grenadiers A1", rule="LT-AMB-05")


@pytest.mark.audits("LT-R011", "LT-AMB-03")
def test_the_discards_are_shuffled_when_ten_cards_are_left(tmp_path):
    """C.2: "Quando mancano 10 carte alla fine del mazzo, si mischiano gli scarti": the 44th
    draw leaves 10 and shuffles the 44 discards (a die each), none before; the ten left are
    drawn first, in their order (LT-AMB-03)."""
    g = game_with(tmp_path, ["7♥"])
    order = stacked(["7♥"])
    shuffled_at = []
    for n in range(1, 45):
        facts = play(g, "next")
        if "shuffled" in said(facts):
            shuffled_at.append(n)
    assert shuffled_at == [44]
    drawn = [card_of(g, play(g, "next")) for _ in range(10)]
    assert drawn == order[44:54]


@pytest.mark.audits("LT-R010", "LT-R020")
def test_an_activation_ends_with_its_card_and_the_next_card_may_activate_it_again(tmp_path):
    """A number card activates one piece for that card: on the next card the GIs must be
    activated again to move, and a second heart may be that card."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A1", "next")
    refused(g, "@us move gis 10", rule="LT-R020")
    play(g, "@us activate gis A1")
    assert moved(play(g, "@us move gis 10")) == [10]


# --- C.3: the activation options -------------------------------------------------------


@pytest.mark.audits("LT-R020")
def test_a1_prepares_but_executes_nothing(tmp_path):
    """A1, "effettuare un balzo e preparare un attacco": the piece holds one ready attack,
    and an attack executed on its own card is not in the option."""
    g = turned(tmp_path, ["7♥"], "@us activate sherman1 A1", "@us move sherman1 10")
    assert has(g, "sherman1", "ready-1")
    refused(g, "@us at sherman1 panzer dice=6,6", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-AMB-08")
def test_a3_executes_one_and_prepares_one(tmp_path):
    """A3, "eseguire e preparare un attacco": one shot now, one ready; no second shot."""
    g = turned(tmp_path, ["7♥"], "@us activate sherman1 A3", "@us at sherman1 panzer dice=6,6")
    assert has(g, "sherman1", "ready-1")
    refused(g, "@us at sherman1 panzer dice=6,6", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-AMB-09")
def test_a4_executes_two_attacks_and_no_third(tmp_path):
    """A4, "preparare o eseguire 2 attacchi": two shots executed, a third is not."""
    g = turned(tmp_path, ["7♥"], "@us activate sherman1 A4 prepare=0")
    play(g, "@us at sherman1 panzer dice=6,6", "@us at sherman1 panzer dice=6,6")
    refused(g, "@us at sherman1 panzer dice=6,6", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-R052", "LT-AMB-08")
def test_no_more_than_two_ready_attacks_are_held(tmp_path):
    """LT-AMB-08: at most two prepared attacks (the most one activation makes). Two from A4,
    one more from A1 on a later card: the GIs still answer only twice."""
    g = turned(tmp_path, ["7♥", "8♥", "3♣"], "@us activate gis A4 prepare=2", "next")
    refused(g, "@us activate gis A1", rule="LT-AMB-08")
    play(g, "next")
    add(g, "ger2", "german", "grenadiers", team="Zug 2")
    play(g, "@german activate grenadiers A4 prepare=0")
    play(g, "@german mg grenadiers gis still-open dice=6", "@us mg gis grenadiers still-open ready dice=6")
    play(g, "@german mg grenadiers gis still-open dice=6", "@us mg gis grenadiers still-open ready dice=6")
    assert not has(g, "gis", "ready-1") and not has(g, "gis", "ready-2")


@pytest.mark.audits("LT-R020", "LT-AMB-08")
def test_a_ready_attack_is_kept_across_cards_until_spent(tmp_path):
    """A prepared attack is kept "until used" (LT-AMB-08): prepared on the 7♥, still there
    three cards later, and spent on a reply to the German's shot."""
    g = turned(tmp_path, ["7♥", "8♥", "9♥", "3♣"], "@us activate gis A1", "next", "next", "next")
    assert has(g, "gis", "ready-1")
    play(g, "@german activate grenadiers A2", "@german mg grenadiers gis still-open dice=6")
    facts = play(g, "@us mg gis grenadiers still-open ready dice=6")
    assert len(rolled(facts)) == 1
    assert not has(g, "gis", "ready-1")


@pytest.mark.audits("LT-R020", "LT-R042")
def test_a5_is_thirty_cm_and_no_attack(tmp_path):
    """A5, "muoversi a piena velocità": three bounds, 30 cm, not 30.5; no attack with it."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate sherman1 A5")
    refused(g, "@us move sherman1 30.5", rule="LT-R042")
    assert moved(play(g, "@us move sherman1 30")) == [30]
    refused(g, "@us at sherman1 panzer dice=6,6", rule="LT-R020")


@pytest.mark.audits("LT-R040", "LT-R041")
def test_a_bound_is_the_pieces_own_bound_from_its_data(tmp_path):
    """C.5: movement is "indicata tra i dati del pezzo nel formato balzo/velocità"; a jeep's
    bound of 12 cm: 12 is a bound, 12.5 is not."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "jeep", "us", "rifles", team="2nd Platoon", stats={"bound": 12, "speed": 36})
    play(g, "next", "@us activate jeep A1")
    refused(g, "@us move jeep 12.5", rule="LT-R041")
    assert moved(play(g, "@us move jeep 12")) == [12]


@pytest.mark.audits("LT-R041")
def test_a_bound_is_ten_cm_not_ten_and_a_half(tmp_path):
    """C.5: "un balzo è di 10 cm"; a turn on the spot is a bound too (0 cm)."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A2")
    refused(g, "@us move gis 10.5", rule="LT-R041")
    play(g, "next", "@us activate gis A1")
    assert moved(play(g, "@us move gis 0")) == [0]


@pytest.mark.audits("LT-R020", "LT-AMB-30")
def test_a6_mounts_infantry_and_nothing_else_that_card(tmp_path):
    """A6 "montare o smontare sui/dai mezzi (fant. e art.)": the GIs climb on the Sherman,
    and with it make no attack."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A6 into=sherman1")
    assert has(g, "gis", "in-vehicle")
    refused(g, "@us mg gis grenadiers still-open dice=6", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-AMB-21")
def test_immobilised_infantry_cannot_mount(tmp_path):
    """LT-AMB-21: immobilised infantry cannot move, nor mount or dismount."""
    g = immobilised(tmp_path, "pinned")
    play(g, "next")
    refused(g, "@us activate pinned A6 into=sherman1", rule="LT-AMB-21")


@pytest.mark.audits("LT-R020", "LT-AMB-21")
def test_immobilised_infantry_cannot_move_at_speed(tmp_path):
    g = immobilised(tmp_path, "pinned")
    play(g, "next")
    with pytest.raises(Refused) as no:
        play(g, "@us activate pinned A5", "@us move pinned 30")
    names(no.value, "LT-AMB-21")


@pytest.mark.audits("LT-R020", "LT-AMB-21")
def test_a7_removes_the_immobilisation_and_is_the_whole_activation(tmp_path):
    """A7, "rimuovere una immobilizzazione": no longer immobilised, but it may not then
    move on the same card (one option only)."""
    g = immobilised(tmp_path, "pinned")
    play(g, "next", "@us activate pinned A7")
    assert not has(g, "pinned", "immobilised")
    refused(g, "@us move pinned 10", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-R001")
def test_a_tank_may_not_take_a6(tmp_path):
    """A6 is for "fant. e art." only; a Sherman mounts nothing."""
    g = turned(tmp_path, ["7♥"])
    refused(g, "@us activate sherman1 A6 into=sherman2", rule="LT-R020")


@pytest.mark.audits("LT-R010")
def test_no_side_activates_the_enemys_piece(tmp_path):
    g = turned(tmp_path, ["7♥"])
    refused(g, "@us activate panzer A1", rule=TYPING)


# --- C.8: morale -------------------------------------------------------------------------


def _morale(tmp_path, morale: int, die: int, plus: int = 0, status: tuple[str, ...] = ()):
    g = game_with(tmp_path, ["7♥"])
    add(g, "m", "us", "rifles", team="2nd Platoon", status=status, stats={"morale": morale})
    play(g, "next", "@us activate m A4 prepare=2")
    facts = play(g, f"morale m plus={plus} dice={die}")
    return g, facts


@pytest.mark.audits("LT-R080", "LT-AMB-01")
@pytest.mark.parametrize(
    ("morale", "die", "plus", "band"),
    [
        (1, 1, 0, "pass"),
        (1, 2, 0, "flee"),  # 2 = 2M: no fall-back band at morale 1
        (3, 3, 0, "pass"),
        (3, 4, 0, "back"),
        (3, 5, 0, "back"),
        (3, 6, 0, "flee"),
        (4, 6, 1, "back"),  # 7 < 8
        (4, 6, 2, "flee"),  # 8 = 2M
        (5, 6, 0, "back"),
        (2, 3, 0, "back"),
        (2, 3, 1, "flee"),
    ],
)
def test_the_three_bands_of_the_morale_test(tmp_path, morale, die, plus, band):
    """C.8: r >= 2M flees its full move, back to the enemy, losing its ready attacks; M < r
    < 2M falls back 5 cm, losing them; r <= M nothing (LT-AMB-01). +1 per situation."""
    g, facts = _morale(tmp_path, morale, die, plus)
    if band == "pass":
        assert moved(facts) == []
        assert has(g, "m", "ready-2")
    elif band == "back":
        assert moved(facts) == [5]
        assert not has(g, "m", "ready-2") and not has(g, "m", "ready-1")
    else:
        assert moved(facts) == [30]
        assert not has(g, "m", "ready-2") and not has(g, "m", "ready-1")


@pytest.mark.audits("LT-R081", "LT-AMB-21")
def test_an_immobilised_piece_tests_at_plus_one_by_itself(tmp_path):
    """C.8: "+1 al dado" for being "immobilizzati": morale 4, die 4, no situation named, is
    5 > 4: the test fails and the ready attacks are lost."""
    g, facts = _morale(tmp_path, 4, 4, 0, status=("immobilised",))
    assert not has(g, "m", "ready-2") and not has(g, "m", "ready-1")


@pytest.mark.audits("LT-R081", "LT-AMB-02")
def test_two_situations_add_two(tmp_path):
    """+1 surrounded and +1 no friends in sight (cumulative, LT-AMB-02): morale 3, die 4 is
    6 = 2M: a flight; one situation alone (5) falls back."""
    g, facts = _morale(tmp_path, 3, 4, 2)
    assert moved(facts) == [30]


@pytest.mark.audits("LT-R080", "LT-R040")
def test_a_flight_is_the_pieces_full_speed(tmp_path):
    """Flees "della sua massima capacità di movimento": a Sherman of speed 45, 45 cm."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "fast", "us", "sherman", team="1st Platoon", stats={"bound": 15, "speed": 45, "morale": 2})
    play(g, "next")
    facts = play(g, "morale fast dice=4")
    assert moved(facts) == [45]


@pytest.mark.audits("LT-R082", "LT-AMB-33")
def test_a_voluntary_rout_flees_and_drops_the_ready_attacks(tmp_path):
    """C.8: "È sempre possibile andare in rotta volontariamente": no die, the full move,
    and the ready attacks lost as in a flight."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A4 prepare=2")
    facts = play(g, "@us rout gis")
    assert rolled(facts) == []
    assert moved(facts) == [30]
    assert not has(g, "gis", "ready-2") and not has(g, "gis", "ready-1")
