"""Third held-out audit of Breaking News played as its Italian draft of 9 December 2009
(``variant = "it-2009-12-09"``), written from that draft and the digest's list of differences
(§6) alone, where this round's areas meet a difference: the mission's extra primary and the
objectives' points, the morale test (the loss of the commander, non-stabilised wounded, the
6 with half the men, "abbandono campo"), the platoon, the civilians "colpiti" with
independent journalists, a negotiation the Irregulars play and the Regulars break, the
progressive −1, the storming and the wounded.  Given these faces, the draft's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import dp, morale_roll, new_game, next_turn, over, platoon, play, table, to_activation, unit

from core.log import events as ev
from core.log.views import REFEREE

IT = "it-2009-12-09"

SQUAD = (
    unit("cmd", "regulars", "R3", "A", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"r{i}", "regulars", "R3", "A") for i in range(1, 6))
    + unit("doc", "regulars", "R3", "A", roles=("medic",))
    + unit("boss", "irregulars", "Irr3", "C", roles=("commander",))
    + unit("m2", "irregulars", "Irr3", "C")
)


# 4.1 Posizionamento obiettivi -----------------------------------------------------------------


def mission_two(tmp_path, monkeypatch, die: int):
    units = (
        unit("sgt", "regulars", "R3", "A", lead=2, roles=("commander",))
        + unit("a1", "regulars", "R3", "A")
        + unit("boss", "irregulars", "Irr3", "C", lead=1, roles=("commander",))
    )
    g = new_game(tmp_path, monkeypatch, units, head="mission = 2", active=None, variant=IT)
    play(g, "objectives regulars 4 2 5", "objectives irregulars 1 2 3", f"objective-roll dice={die}", "next")
    to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    return g


g = table(SQUAD, variant=IT)
wounds = table(SQUAD, "wounds", head='options = ["wounded"]', active="irregulars", variant=IT)


@pytest.mark.audits("EX-01", "OBJ-2")
def test_the_italian_extra_primary_and_the_original_both_cost_fifty(tmp_path, monkeypatch):
    """4.1 2), esempio: on a 3 a fake becomes "un obiettivo primario, unitamente a quello
    precedentemente da lui stabilito"; 14.0: 50 for the objective to defend, nothing for a
    secondary: 3, 4 and 2 taken cost 100."""
    g = mission_two(tmp_path, monkeypatch, 3)
    for marker in (3, 4, 2):
        g.execute(f"take {marker} irregulars", role=REFEREE)
    assert dp(g, "regulars") == 100


@pytest.mark.audits("EX-01", "OBJ-2")
def test_an_italian_six_leaves_no_primary(tmp_path, monkeypatch):
    """4.1 2): "Se il tiro fosse stato un 6, allora anche il marker n.4 sarebbe diventato un
    obiettivo fasullo": taking it costs nothing."""
    g = mission_two(tmp_path, monkeypatch, 6)
    g.execute("take 4 irregulars", role=REFEREE)
    assert dp(g, "regulars") == 0


# 5.0 Iniziativa ------------------------------------------------------------------------------------


@pytest.mark.audits("INI-2")
def test_the_italian_progressive_minus_one(tmp_path, monkeypatch):
    """5.0: "un progressivo modificatore di -1 al giocatore che al precedente turno era
    attivo": active in turns 1 and 2, the Rangers roll at −2 in turn 3 (6 + 1 + 4 − 2 = 9)."""
    g = new_game(tmp_path, monkeypatch, SQUAD, active="regulars", variant=IT)
    next_turn(g, "regulars")
    play(g, "next", "next")
    out = g.execute("next dice=3,3,3,3", role=REFEREE)
    totals = {
        e.side: sum(e.roll.faces) + sum(m.value for m in e.roll.mods) for e in out.events if isinstance(e, ev.Rolled)
    }
    assert totals == {"regulars": 9, "irregulars": 8}


# 12.0 Test di morale ---------------------------------------------------------------------------------


@pytest.mark.audits("MOR-3", "WND-1")
def test_an_italian_commander_badly_wounded_is_two_losses_and_ends_the_game(wounds):
    """12.0: losses are "morti o feriti non stabilizzati"; "la perdita del comandante della
    squadra vale 2": the commander wounded (a 4) and r1 killed are 3; 2,2,1,1 fails, and the
    Rangers, 20 down, leave the field beaten."""
    wounds.execute("fire m2 cmd range=20 aimed dice=6,1,4", role=REFEREE)  # a 1 fails whatever the leader's +1
    assert "wounded" in str(wounds.state.units["cmd"].out)
    play(wounds, "out r1 killed", "next")
    roll = morale_roll(wounds.execute("next dice=2,2,1,1", role=REFEREE))
    assert roll.roll.check.face == 3
    assert over(wounds)


@pytest.mark.audits("MOR-3", "WND-2")
def test_an_italian_stabilised_man_is_no_loss(wounds):
    """12.0: losses are "morti o feriti non stabilizzati"; 9.3: "Un ferito stabilizzato non
    conta ai fini del morale": r1 wounded then stabilised, r2 killed: 1 loss."""
    play(wounds, "dp irregulars 50", "fire m2 r1 range=20 aimed dice=6,1,5", "next", "next dice=6,6,6,6")
    to_activation(wounds, "regulars")
    play(wounds, "medic doc r1", "out r2 killed", "next")
    roll = morale_roll(wounds.execute("next dice=1,1,1,1", role=REFEREE))
    assert roll.roll.check.face == 1


BIG = "".join(unit(f"b{i}", "regulars", "R3", "Big") for i in range(1, 15)) + unit("m1", "irregulars", "Irr3", "C")


@pytest.mark.audits("MOR-4")
@pytest.mark.parametrize(("lost", "passed"), [(7, True), (8, False)])
def test_the_italian_six_with_half_the_men_present(tmp_path, monkeypatch, lost, passed):
    """12.0: "Con un risultato di 6 la squadra passa sempre il test di morale, ma solo se sono
    presenti almeno il 50% degli effettivi": 7 of 14 present, a 6 passes 7 losses; 6 of 14,
    it does not pass 8."""
    g = new_game(tmp_path, monkeypatch, BIG, variant=IT)
    for i in range(1, lost + 1):
        g.execute(f"out b{i} killed", role=REFEREE)
    g.execute("next", role=REFEREE)
    roll = morale_roll(g.execute("next dice=6,1,1,1", role=REFEREE))
    assert ("pass" in str(roll.roll.outcome)) is passed


@pytest.mark.audits("MOR-5", "T-16")
def test_the_italian_disengagement_after_a_failed_test_costs_fifteen(g):
    """14.0 1): the game ends when a side "fallisce il test di morale (ordine di
    disingaggio) ed è in svantaggio"; "15 punti per disingaggio (abbandono campo)"."""
    play(g, "out r1 killed", "out r2 killed", "next", "next dice=1,1,1,1")
    assert over(g)
    assert dp(g, "regulars") == 20 + 15


@pytest.mark.audits("VIC-1", "T-16")
def test_the_italian_voluntary_exit_is_an_exfiltration_of_five(g):
    """14.0 2): "quando una parte lascia volontariamente il campo (esfiltrazione)"; "5 punti
    per esfiltrazione", not the 15 of the disengagement."""
    g.execute("exfiltrate irregulars", role=REFEREE)
    assert dp(g, "irregulars") == 5


@pytest.mark.audits("MOR-6")
def test_an_italian_failure_without_more_points_tests_every_man_at_his_activation(g):
    """12.0: "durante la successiva attivazione dovrà effettuare il test di soppressione per
    ogni figura (non ferita)": r3 fails his (a 6) and must go back; r4 passes (a 4) and
    fires as normal."""
    play(g, "dp irregulars 50", "out r1 killed", "out r2 killed", "next", "next dice=1,1,1,1")
    assert not over(g)
    to_activation(g, "regulars")
    g.execute("rally r3 dice=6", role=REFEREE)
    assert "retreating" in g.state.units["r3"].status
    out = g.execute("fire r4 m2 range=30 aimed dice=4,1", role=REFEREE)
    assert any("fire" in str(e.roll.purpose) for e in out.events if isinstance(e, ev.Rolled))


# 13.0 Plotone ---------------------------------------------------------------------------------------


@pytest.mark.audits("EX-06", "PLT-4")
def test_the_italian_platoon_example_eight_dice_needing_three(tmp_path, monkeypatch):
    """13.0, esempio: "Il test è effettuato con il lancio di 8d6 ... è necessario che esca
    almeno un 3": three rifle squads and an anti-tank section, three men lost."""
    g = new_game(tmp_path, monkeypatch, platoon((6, 6, 6, 3)), head='platoon = ["regulars"]', variant=IT)
    for man in ("t1m2", "t2m2", "t3m2"):
        g.execute(f"out {man} killed", role=REFEREE)
    g.execute("next", role=REFEREE)
    roll = morale_roll(g.execute("next dice=1,1,1,1,1,1,1,3", role=REFEREE))
    assert len(roll.roll.faces) == 8 and roll.roll.check.face == 3
    assert "pass" in str(roll.roll.outcome)


@pytest.mark.audits("PLT-4")
def test_an_italian_section_at_half_strength_adds_no_die(tmp_path, monkeypatch):
    """13.0: "un dado per ogni squadra o sezione indipendente presente che non abbia subito il
    50% delle perdite": the section of 2 that lost 1 has; 4 + 2 dice."""
    g = new_game(tmp_path, monkeypatch, platoon((6, 6, 2)), head='platoon = ["regulars"]', variant=IT)
    play(g, "out t3m2 killed", "next")
    roll = morale_roll(g.execute("next dice=1,1,1,1,1,1", role=REFEREE))
    assert len(roll.roll.faces) == 6


# Civili, giornalisti, negoziazione ------------------------------------------------------------------


@pytest.mark.audits("T-20", "DP-3")
def test_an_italian_civilian_hit_and_saved_with_independent_journalists_costs_twenty(tmp_path, monkeypatch):
    """14.0: "5 punti ... per ogni civile colpito"; Media 2): independent journalists
    "li quadruplicano in caso di perdita di civili": the civilian hit (he saves, a 6) is 5 × 4
    (the first shot's 5 doubled beside it)."""
    units = (
        SQUAD
        + unit("civ", "irregulars", "", "V", kind="civilian")
        + unit("press", "irregulars", "", "P", kind="journalist", roles=("independent",))
    )
    g = new_game(tmp_path, monkeypatch, units, variant=IT)
    play(g, "fire r2 civ range=20 aimed dice=6,6", "victory")
    assert dp(g, "regulars") == 5 * 2 + 5 * 4


@pytest.mark.audits("EXT-11")
def test_an_italian_civilian_hit_by_the_irregulars_costs_nobody(tmp_path, monkeypatch):
    """Civili: "Civili colpiti da forze irregolari non generano punti sconfitta"."""
    units = SQUAD + unit("civ", "regulars", "", "V", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, active="irregulars", variant=IT)
    play(g, "fire m2 civ range=20 aimed dice=6,1", "next")
    assert dp(g, "regulars") == 0


@pytest.mark.audits("EXT-12")
def test_an_italian_irregular_negotiation_broken_by_the_regulars(tmp_path, monkeypatch):
    """Negoziazione: "Tutti le squadre hanno di base negoziazione 1"; "Se l'avversario decide
    di sparare per primo perde i punti fino a quel momento acquisiti e paga 10 punti
    sconfitta addizionali"; 14.0: 5 for the first shot "salvo ... negoziazione".  The Militia
    negotiate at level 1 (5 a turn); in turn 2 the Rangers fire first: the Militia's 5 go,
    the Rangers pay 10."""
    g = new_game(tmp_path, monkeypatch, SQUAD, active=None, variant=IT)
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    g.execute("negotiate irregulars", role=REFEREE)
    next_turn(g, "regulars")
    assert dp(g, "irregulars") == 5
    play(g, "fire r2 m2 range=30 aimed dice=1", "next")
    assert dp(g, "irregulars") == 0
    assert dp(g, "regulars") == 10


@pytest.mark.audits("EXT-11", "T-21")
@pytest.mark.parametrize(("face", "mover"), [(2, "regulars"), (3, "irregulars")])
def test_the_italian_civilians_against_mediation_two(tmp_path, monkeypatch, face, mover):
    """Civili: the controller "deve tirare un d6 e ottenere più del valore di mediazione
    dell'avversario": against level 2, a 2 fails and the Regular player moves them."""
    units = SQUAD + unit("civ", "irregulars", "", "V", kind="civilian")
    g = new_game(
        tmp_path, monkeypatch, units, head="[extras.regulars]\nnegotiation = 2", active="irregulars", variant=IT
    )
    g.execute(f"civilians dice={face}", role=REFEREE)
    assert g.state.vars["civilians.control"] == mover


# 11.1 e 9.3 ---------------------------------------------------------------------------------------


@pytest.mark.audits("EX-05", "BLD-3")
def test_the_italian_ranger_assault_rolls_four_dice_a_ranger(tmp_path, monkeypatch):
    """11.1, esempio: "i Rangers tirano 28 dadi (4x7) colpendo con ogni 6. I talebani 4 dadi
    colpendo con 5 o 6"."""
    rangers = "".join(unit(f"rg{i}", "regulars", "R2", "Rangers") for i in range(1, 8))
    taliban = "".join(unit(f"tb{i}", "irregulars", "Irr3", "Taliban") for i in range(1, 5))
    g = new_game(tmp_path, monkeypatch, rangers + taliban, variant=IT)
    names = " ".join(f"rg{i}" for i in range(1, 8))
    out = g.execute(f"storm {names} against=tb1,tb2,tb3,tb4 dice={','.join(['1'] * 28)},1,1,1,1", role=REFEREE)
    rolled = [e for e in out.events if isinstance(e, ev.Rolled)]
    assert [len(e.roll.faces) for e in rolled] == [28, 4]
    assert [e.roll.check.face for e in rolled] == [6, 5]


@pytest.mark.audits("WND-1", "T-15")
@pytest.mark.parametrize(("wound", "dead"), [(2, True), (3, False)])
def test_the_italian_wound_die(wounds, wound, dead):
    """9.3: "Con un risultato di 1 o 2 il soldato è morto. Un risultato da 3 a 6 determina i
    turni di sopravvivenza"."""
    wounds.execute(f"fire m2 r1 range=20 aimed dice=6,1,{wound}", role=REFEREE)
    assert ("wounded" in str(wounds.state.units["r1"].out)) is not dead
