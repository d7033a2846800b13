"""A third look at Bassa Intensità (issue #46), a second held-out audit: observation, indirect
fire, aircraft and helicopters, anti-aircraft fire and the special rules (A.11, A.14-A.16),
each case written from the book ("OSSERVAZIONE", "TIRO INDIRETTO", "AEREI ED ELICOTTERI",
"REGOLE SPECIALI") and its digest alone: what a wound does to a roll made "as an action",
what a closed vehicle sees of a man who fired, when the guns and the aircraft come, what a
stabilised move costs an AA gun, who can reach the men inside a flying helicopter, and
every order a Shocked or balked man must be refused."""

from __future__ import annotations

import pytest
from audit_bi_early import man, new_game, refused, vehicle
from audit_bi_late import goto, late_table, outcomes, play, unit

from core.log.views import unit_visible

game = late_table(turns=0)


def targets(facts, rule: str = "") -> list[int | None]:
    return [r[1] for r in outcomes(facts, rule)]


# ------------------------------------------------------------ A.14.1 observation, A.16.2 detection


@pytest.mark.audits("BI-R164", "BI-R165", "BI-R110")
def test_a_wounded_man_observes_one_level_harder(game):
    """A.14.1: "L'osservatore dovrà lanciare un dado come se stesse eseguendo una Azione";
    A.12.1: a wounded man's actions are one level harder.  A man still in the open, seen by
    infantry: Normal, 4 for a Regular; by the wounded Capo, Difficult: ½ x 4 = 2."""
    play(game, "mark omar hidden", "mark capo wounded")
    goto(game, "observe")
    facts = play(game, "observe capo omar dice=3")
    assert outcomes(facts) == [("BI-R165", 2, "nothing seen")]
    play(game, "undo")  # one attempt at him at the end of the phase (BI-R164)
    play(game, "observe capo omar dice=2")
    assert unit_visible(unit(game, "omar"), "blue")


@pytest.mark.audits("BI-R224", "BI-R110", "BI-R069")
def test_a_wounded_man_looks_for_mines_one_level_harder(game):
    """A.16.2: detection uses the procedure of actions; wounded, one level harder: the Elite
    engineer finds a minefield Normal (6, not Easy's 12) and a trap Difficult (3); a wounded
    man who is no engineer cannot find a trap at all (Difficult -> NO)."""
    play(game, "mark genio wounded", "mark leo wounded")
    assert targets(play(game, "detect genio minefield dice=7")) == [6]
    assert targets(play(game, "detect genio trap dice=4")) == [3]
    refused(game, "detect leo trap", rule="BI-R110")


@pytest.mark.audits("BI-R165", "BI-R167")
def test_a_closed_vehicle_sees_a_man_still_in_cover_only_once_he_has_fired(game):
    """A.14.1: infantry still in cover, from a "closed" vehicle: NO; having fired in the phase,
    one level easier: Difficult, ½ x 5 = 3 for the Veteran tank."""
    play(game, "mark omar hidden")
    goto(game, "observe")
    refused(game, "observe ariete omar cover", rule="BI-R165")
    goto(game, "fire-regular")
    play(game, "@red fire omar capo range=20 dice=9,9")
    goto(game, "end")
    assert outcomes(play(game, "observe ariete omar cover dice=4")) == [("BI-R165", 3, "nothing seen")]


# ------------------------------------------------------------ A.11 indirect fire, A.15.1 aircraft


@pytest.mark.audits("BI-R103")
def test_the_ranging_shot_comes_in_the_turn_after_the_contact_and_no_later(game):
    """A.11: "sparerà un singolo colpo d'aggiustamento nella Fase di Tiro del turno
    successivo": contacted in turn 1, the guns fire it in turn 2; in turn 3 there is none
    to place: the observer must call again."""
    goto(game, "fire-veteran", 1)
    play(game, "@blue call fo dedicated mm=81 dice=1")
    goto(game, "fire-veteran", 3)
    refused(game, "@blue ranging fo dice=5,1", rule="BI-R103")


@pytest.mark.audits("BI-R250", "BI-R260")
def test_aircraft_attack_in_the_fire_phase_after_the_contact_and_no_later(game):
    """A.15.1: once contacted the aircraft "attaccano immediatamente nella fase di fuoco
    successiva": contacted in turn 1 and not sent in turn 2, there is no attack to order in
    turn 3, and no aircraft over the table for the enemy's AA."""
    goto(game, "fire-veteran", 1)
    play(game, "@blue call fo air bomb=ap dice=1")
    goto(game, "fire-elite", 3)
    refused(game, "@red aa aelite aircraft", rule="BI-R250")
    goto(game, "fire-veteran", 3)
    refused(game, "@blue ffe fo dice=5,1", rule="BI-R103")


@pytest.mark.audits("BI-R103", "BI-R110", "BI-R104")
def test_a_shocked_observer_still_sees_his_ranging_shot_but_orders_nothing(game):
    """A.11: the ranging shot is the guns', its precision the observer's roll under his
    Quality (no action): shocked by a hit in turn 2, he still judges it; A.12.1: Shocked, no
    action the next turn, and ordering fire for effect is his action (ruling BI-RANGING-TIER)."""
    goto(game, "fire-veteran", 1)
    play(game, "@blue call fo dedicated mm=81 dice=1")
    goto(game, "fire-veteran", 2)
    play(game, "hit fo dice=3", "clear fo morale-due")
    assert unit(game, "fo").has("shocked")
    assert targets(play(game, "@blue ranging fo dice=5,1"), "BI-R103") == [5]
    goto(game, "fire-veteran", 3)
    refused(game, "@blue ffe fo", rule="BI-R110")


@pytest.mark.audits("BI-R252", "BI-R092")
@pytest.mark.parametrize(("zone", "chance"), [("short", 1), ("long", 1)])
def test_anti_tank_bombs_on_an_entrenched_man_never_go_below_one(game, zone, chance):
    """A.15.1: anti-tank bombs "½ possibilità di danneggiare fanterie"; A.10.3: entrenched 2
    at short distance, 1 at long: halved and rounded up (A.2), 1 and 1."""
    facts = play(game, f"burst omar source=bomb-at zone={zone} cover=trench dice=2")
    assert targets(facts, "A.10.3") == [chance]


# ------------------------------------------------------------ A.15.2, A.15.3 helicopters and AA


@pytest.mark.audits("BI-R260", "BI-R255")
def test_the_men_inside_a_flying_helicopter_are_no_target_for_direct_fire(game):
    """A.15.3: helicopters in flight are fired at by AA fire; the men it carries are hit only
    by its table (9-10: 1 in 1d10 each): a rifleman may not fire at Dino inside the Lynx."""
    goto(game, "fire-regular")
    refused(game, "@red fire omar dino range=20", rule="BI-R260")


@pytest.mark.audits("BI-R263", "BI-R110")
def test_a_helicopter_that_explodes_takes_its_men_with_it(game):
    """A.15.3: 2d6 of 2, "Esploso": the helicopter is gone, and each man aboard is hit
    (ruling BI-OCCUPANTS): a 10 kills Dino, a 7 wounds Ezio."""
    goto(game, "fire-regular")
    play(game, "@red aa zaid lynx dice=1,1,1,10,7")
    assert not unit(game, "lynx").in_play and not unit(game, "dino").in_play
    ezio = unit(game, "ezio")
    assert ezio.in_play and ezio.has("wounded") and not ezio.has("aboard-lynx")


@pytest.mark.audits("BI-R256", "BI-R030")
def test_a_helicopter_that_lands_has_spent_its_turn(game):
    """A.15.2: landing takes a whole turn; A.5.1: it then neither fires nor acts that turn."""
    goto(game, "move-first")
    play(game, "@blue land lynx")
    goto(game, "fire-veteran")
    refused(game, "@blue fire lynx omar range=30", rule="BI-R030")


@pytest.mark.audits("BI-R263", "BI-R030")
def test_a_helicopter_whose_damaged_rotor_brings_it_down_does_not_fire(game):
    """A.15.3: with a damaged rotor it rolls 1d6 as the movement phase begins, and on 1-2
    lands or goes back: that is its turn's move, so it does not fire that turn."""
    play(game, "mark lynx rotor-damaged")
    goto(game, "cover")
    play(game, "next dice=2")
    goto(game, "fire-veteran")
    refused(game, "@blue fire lynx omar range=30", rule="BI-R030")


@pytest.mark.audits("BI-R240", "BI-R260")
def test_a_stabilised_gun_that_moved_fires_at_a_helicopter_at_minus_one(tmp_path, monkeypatch):
    """A.16.5: a stabilised vehicle that moved under half its allowance fires in the fire
    phase, "Il tiro in movimento ha una modifica negativa di -1": an AA cannon against a
    helicopter, 2 for a Regular crew, is 1; a 2 misses."""
    extra = (vehicle("flak", "red", "regular", "aa-cannon", roles=("armoured-car", "stabilised")),)
    g = new_game(tmp_path, monkeypatch, extra=extra)
    goto(g, "move-second", 1)
    play(g, "@red move flak 20")
    goto(g, "fire-regular", 1)
    facts = play(g, "@red aa flak lynx dice=2")
    assert [r.target for r in facts_rolls(facts)] == [1]


@pytest.mark.audits("BI-R140", "BI-R260")
def test_a_vehicle_whose_aa_gun_is_destroyed_fires_no_anti_aircraft_fire(tmp_path, monkeypatch):
    """A.12.4 "Armi": one weapon on board destroyed; its only one, the AA cannon: no more AA
    fire from it (A.15.3)."""
    extra = (vehicle("flak", "red", "regular", "aa-cannon", roles=("armoured-car",)),)
    g = new_game(tmp_path, monkeypatch, extra=extra)
    play(g, "hit flak weapon=rpg dice=1,7", "clear flak morale-due")
    goto(g, "fire-regular", 1)
    refused(g, "@red aa flak lynx", rule="BI-R260")


@pytest.mark.audits("BI-R240", "BI-R092", "BI-AMB-25")
def test_a_stabilised_120_mm_gun_fires_on_the_move_and_its_burst_is_a_heavy_guns(game):
    """A.16.5: the stabilised Leopard moved 29 cm, under half its 60: it fires in the fire
    phase at -1 (Regular 4, short range +1: 4); A.10.3: its 120 mm round catches the man it
    hits at 6 + 1 (a gun over 103 mm): 7."""
    goto(game, "move-first")
    play(game, "@blue move leopard 29")
    goto(game, "fire-regular")
    facts = play(game, "@blue fire leopard omar range=90 dice=4,7,10")
    assert targets(facts, "A.9.4") == [4] and targets(facts, "A.10.3") == [7]


@pytest.mark.audits("BI-R062", "BI-R171")
def test_a_tank_that_fired_does_not_fire_its_smoke_dischargers_too(game):
    """A.8: "In ogni turno un soldato o un veicolo potranno compiere una singola azione oppure
    sparare"; smoke from dischargers is the vehicle's fire (ruling BI-SMOKE-TIME)."""
    goto(game, "fire-regular")
    play(game, "@blue fire leopard omar range=90 dice=9,1")
    refused(game, "@blue smoke leopard", rule="BI-R030")


def facts_rolls(facts):
    return [e.roll for e in facts if type(e).__name__ == "Rolled"]


# ------------------------------------------------------------ A.16.1 snipers


@pytest.mark.audits("BI-R210", "BI-R050")
def test_a_hidden_sniper_rolls_his_d6_before_opportunity_fire_too(game):
    """A.16.1: "ogni volta che vuole sparare potrà farlo solo dopo aver ottenuto 1 o 2 su
    1d6": at a mover too; a 3 and he holds his fire, his turn spent."""
    play(game, "mark said hidden")
    goto(game, "move-first")
    play(game, "@blue move bruno 10")
    facts = play(game, "@red fire said bruno range=40 dice=3")
    assert outcomes(facts) == [("BI-R210", 2, "he holds his fire")]
    goto(game, "fire-regular")
    refused(game, "@red fire said bruno range=40", rule="BI-R030")


# ------------------------------------------------------------ what a status must refuse


def _table(tmp_path, monkeypatch):
    extra = (man("mg1", "blue", "regular", "mg", roles=("emplaced",)), man("aa1", "blue", "regular", "aa-mg"))
    return new_game(tmp_path, monkeypatch, extra=extra)


SHOCKED_ORDERS = [
    ("fire-regular", "aim bruno"),
    ("fire-regular", "act bruno easy dig in"),
    ("fire-regular", "emplace dario"),
    ("fire-regular", "smoke bruno"),
    ("fire-regular", "flashbang bruno tariq"),
    ("fire-regular", "gas bruno tariq"),
    ("fire-regular", "dress bruno carlo"),
    ("fire-regular", "reload mg1"),
    ("fire-regular", "aa aa1 lynx"),
    ("fire-veteran", "call fo dedicated mm=81"),
    ("cover", '@blue screen sam feature="the wood"'),
    ("cover", "@blue fire bruno tariq range=20"),
]


@pytest.mark.audits("BI-R110", "BI-R182", "BI-AMB-20")
@pytest.mark.parametrize(
    ("phase", "line"),
    SHOCKED_ORDERS,
    ids=[line.split()[0].lstrip("@") + "-" + line.split()[1] for _p, line in SHOCKED_ORDERS],
)
def test_a_shocked_man_neither_fires_nor_acts_in_any_way(tmp_path, monkeypatch, phase, line):
    """A.12.1 and A.13.3: Shocked, "nessun ... combattimento/ azione": no shot of any kind
    (smoke, a flash-bang, gas, AA, covering fire) and no action (aim, dig, emplace, dress,
    reload, call the guns)."""
    g = _table(tmp_path, monkeypatch)
    play(g, "mark carlo seriously-wounded", "mark mg1 one-crew", "mark mg1 must-reload")
    shooter = line.removeprefix("@blue ").split()[1]
    play(g, f"mark {shooter} shocked")
    goto(g, phase, 1)
    refused(g, line, rule="BI-R110")


BALKED_ORDERS = ["aim bruno", "act bruno easy dig in", "smoke bruno", "flashbang bruno tariq", "dress bruno carlo"]


@pytest.mark.audits("BI-R024", "BI-AMB-07")
@pytest.mark.parametrize("line", BALKED_ORDERS, ids=[line.split()[0] for line in BALKED_ORDERS])
def test_a_man_who_failed_his_isolation_test_does_nothing_else_that_turn(tmp_path, monkeypatch, line):
    """A.4: an isolated man rolls before he moves, fires or acts; failing it in the movement
    (ruling BI-ISOLATED), he does nothing else that turn, of any kind."""
    g = _table(tmp_path, monkeypatch)
    play(g, "mark carlo seriously-wounded")
    goto(g, "move-first", 1)
    play(g, "@blue move bruno 5 lead=9 dice=5")
    goto(g, "fire-regular", 1)
    refused(g, line, rule="BI-R024")
