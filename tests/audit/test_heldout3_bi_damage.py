"""A fourth look at Bassa Intensità (issue #46), a third held-out audit: indirect fire and
damage (A.11, A.12), each case written from the book ("TIRO INDIRETTO", "DANNI" with its
three tables and the notes under them) and its digest alone.  The earlier audits tried each
table's rows and one weapon of each modifier; these walk every weapon of the unarmoured
table's note on both sides of "destroyed", every row of the penetration table against a
tank and against another armoured vehicle (calibre by calibre at 99/100, 116/117 and
105/106 mm), the armour modifiers down to a chance of nothing, the vests and the sniper's
die on both sides of a result, and the observer's calls by who he is and what he calls.
"""

from __future__ import annotations

import pytest
from audit_bi_early import U, chances, goto, new_game, outcomes, play, refused, rolls, table, vehicle
from playing import tried

from core.dice.faces import NeedDice


def _tank(uid: str, mm: int, weapon: str = "gun-heavy", roles: tuple[str, ...] = ("tank",)):
    return vehicle(uid, "blue", "regular", weapon, roles=roles, gun_mm=mm)


EXTRA = (
    _tank("g99", 99, "gun-103"),
    _tank("g100", 100, "gun-103"),
    _tank("g116", 116),
    _tank("g117", 117),
    _tank("r99", 99, "gun-103", ("technical", "recoilless")),
    _tank("r100", 100, "gun-103", ("technical", "recoilless")),
    vehicle("acv", "blue", "regular", "autocannon", roles=("armoured-car",)),
    U(id="cdr", name="Cdr", side="blue", cls="regular", weapons=("carbine",), roles=("commander",)),
    U(id="eli", name="Eli", side="blue", cls="elite", weapons=("carbine",), roles=("observer",)),
    vehicle("bmp", "red", "regular", "autocannon", "mg", roles=("tracked-apc",)),
    U(id="t62", name="T62", side="red", kind="vehicle", cls="regular", weapons=("gun-heavy", "mg"), roles=("tank",)),
    vehicle("t72", "red", "regular", "gun-heavy", roles=("tank", "advanced-armour")),
    vehicle("m1", "red", "regular", "gun-heavy", roles=("tank", "hightech-armour")),
    U(id="frag", name="Frag", side="red", cls="regular", weapons=("assault-rifle",), roles=("frag-vest",)),
    U(id="kev", name="Kev", side="red", cls="regular", weapons=("assault-rifle",), roles=("bullet-vest",)),
)


game = table(extra=EXTRA, at=("fire-regular", 1))


def _run(g, line: str):
    """The facts of ``line``; each die it asks beyond the faces given (the damage after a
    penetration, a wounded man's death clock) shows a 1."""
    for _ in range(4):
        try:
            return play(g, line)
        except NeedDice:
            line += ",1"
    raise AssertionError(f"{line}: too many dice asked")


def _try(g, line: str):
    """The facts of ``line`` as ``_run`` plays it, taken back; None if it is refused."""
    return tried(g, line, _run)


# A.12.2's note: +1 machine gun; +2 grenade launcher, rocket launcher, hand or rifle grenade
# (the AGL is a grenade launcher, the ATGM a rocket: BI-AMB-37); +4 gun, mortar or autocannon;
# nothing for other small arms (a SAW is a sustained-fire assault rifle, note (3)).
UNARMOURED = [
    ("pistol", 0),
    ("assault-rifle", 0),
    ("saw", 0),
    ("lmg", 1),
    ("mg", 1),
    ("gl", 2),
    ("agl", 2),
    ("rifle-grenade", 2),
    ("hand-grenade", 2),
    ("law", 2),
    ("rpg", 2),
    ("atgm", 2),
    ("autocannon", 4),
    ("gun-77", 4),
    ("gun-heavy", 4),
]


@pytest.mark.audits("BI-R120", "BI-R121", "BI-AMB-37", "BI-WN3")
@pytest.mark.parametrize("weapon,plus", UNARMOURED, ids=[w for w, _ in UNARMOURED])
def test_each_weapon_destroys_a_truck_at_its_own_die(game, weapon, plus):
    """A.12.2: 8 or more destroys an unarmoured vehicle: the die 8 - plus destroys it, the die
    one below does not; a natural 1 is never modified (a near miss)."""
    destroyed = _try(game, f"hit ural weapon={weapon} dice={8 - plus}")
    short = _try(game, f"hit ural weapon={weapon} dice={7 - plus}")
    one = _try(game, f"hit ural weapon={weapon} dice=1")
    assert outcomes(destroyed, "A.12.2") == ["destroyed"]
    assert outcomes(short, "A.12.2") != ["destroyed"]
    assert "near miss" in outcomes(one, "A.12.2")[0]


@pytest.mark.audits("BI-R120")
def test_a_truck_immobilised_checks_morale_at_minus_two_and_one_slowed_does_not_check(game):
    """A.12.2: 2-4 "Movimento dimezzato" (no check), 5-7 immobilised "e controllare il morale
    con penalità -2"."""
    play(game, "hit ural weapon=assault-rifle dice=4")
    ural = game.state.units["ural"]
    assert ural.has("slowed") and not ural.has("morale-due")
    play(game, "hit ural weapon=assault-rifle dice=5")
    assert ural.has("immobilised") and ural.has("morale-due") and ural.has("morale-table-2")


# A.12.3: (line to fire or hit, chance against the tank T-55 / against the BMP).  The guns by
# calibre (BI-AMB-25: < 100, 100-116, > 116); recoilless guns < 100 and >= 100 (note (8)).
PENETRATION = [
    ("fire g99 {t} range=70 dice=1,10", 6, 8),
    ("fire g100 {t} range=70 dice=1,10", 8, 10),
    ("fire g116 {t} range=100 dice=1,10", 8, 10),
    ("fire g117 {t} range=100 dice=1,10", 10, 12),
    ("fire r99 {t} range=70 dice=1,10", 3, 6),
    ("fire r100 {t} range=70 dice=1,10", 5, 7),
    ("hit {t} weapon=atgm dice=10", 8, 10),
    ("hit {t} weapon=law dice=10", 6, 8),
    ("hit {t} weapon=rpg dice=10", 6, 8),
    ("hit {t} weapon=at-grenade dice=10", 3, 7),
    ("fire acv {t} range=50 dice=1,10,10", 3, 7),
]


@pytest.mark.audits("BI-R130", "BI-AMB-25", "BI-WN8")
@pytest.mark.parametrize("line,tank,other", PENETRATION, ids=[p[0].split()[1] + p[0].split()[2] for p in PENETRATION])
def test_each_row_of_the_penetration_table(game, line, tank, other):
    """A.12.3 "PENETRAZIONE CORAZZA": the chance against a tank and against other armour."""
    seen = []
    for target in ("t55", "bmp"):
        facts = _try(game, line.format(t=target))
        seen.append(chances(facts, "A.12.3")[0])
    assert seen == [tank, other]


@pytest.mark.audits("BI-R130", "BI-R132")
def test_a_round_that_does_not_penetrate_only_calls_a_check(game):
    """A.12.3: "Se il colpo non ha bucato la corazza il veicolo colpito dovrà solo controllare
    il morale": an RPG at the T-55 (6), a 7: no damage roll, a check due."""
    facts = play(game, "hit t55 weapon=rpg dice=7")
    assert [r.rule for r in rolls(facts)] == ["A.12.3"]
    t55 = game.state.units["t55"]
    assert t55.has("morale-due") and not t55.has("damaged")


@pytest.mark.audits("BI-R131")
def test_armour_and_flank_modify_the_penetration(game):
    """A.12.3: +2 on the flank or rear, -1 advanced armour, -2 "ad alta tecnologia": an RPG
    (6 against a tank) on the T-72's flank: 7; on the M1's front: 4; on the M1's flank: 6."""
    t72 = _try(game, "hit t72 weapon=rpg flank dice=10")
    m1 = _try(game, "hit m1 weapon=rpg dice=10")
    m1_flank = _try(game, "hit m1 weapon=rpg flank dice=10")
    assert [chances(f, "A.12.3")[0] for f in (t72, m1, m1_flank)] == [7, 4, 6]


@pytest.mark.audits("BI-R131", "BI-R130", "BI-R003")
def test_an_anti_tank_grenade_on_high_tech_armour_cannot_penetrate(game):
    """A.12.3: an anti-tank grenade against a tank 3, high-tech armour -2: 1; a 1 penetrates,
    a 2 does not."""
    assert chances(_try(game, "hit m1 weapon=at-grenade dice=1,10"), "A.12.3") == [1]
    facts = play(game, "hit m1 weapon=at-grenade dice=2")
    assert [r.rule for r in rolls(facts)] == ["A.12.3"]
    assert not game.state.units["m1"].has("damaged")


@pytest.mark.audits("BI-AMB-27", "BI-R130")
def test_small_arms_do_not_penetrate_a_tank(game):
    """A.12.3: the table names no small arm; BI-AMB-27: an assault rifle's hit on a tank
    cannot penetrate: no penetration or damage roll, the tank undamaged."""
    facts = _try(game, "fire bruno t55 range=15 dice=1,1")
    if facts is not None:
        assert not rolls(facts, "A.12.4")
        assert not [o for o in outcomes(facts, "A.12.3") if o == "penetrated"]
    assert not game.state.units["t55"].has("damaged")


@pytest.mark.audits("BI-R140", "BI-R141")
@pytest.mark.parametrize("face,result", [(5, "near miss"), (6, "radio destroyed"), (10, "turret jammed")])
def test_indirect_fire_takes_four_from_the_armour_damage_die(game, face, result):
    """A.12.4: -4 for a vehicle hit by mortars or artillery firing indirectly: a 5 is 1, a near
    miss; a 6 is 2, the radio; a 10 is 6, the turret (the natural 10 is not spared here)."""
    facts = play(game, f"burst t55 source=gun-102 zone=short indirect dice=1,1,{face}")
    assert chances(facts, "A.12.3") == [1]
    assert result in outcomes(facts, "A.12.4")[0]


@pytest.mark.audits("BI-R140", "BI-R027")
def test_a_lost_radio_isolates_the_vehicle_but_does_not_damage_it(game):
    """A.12.4 2: "Il veicolo si considera sempre isolato. Non conta come veicolo danneggiato"."""
    play(game, "hit t55 weapon=rpg dice=1,2")
    t55 = game.state.units["t55"]
    assert t55.has("radio-out") and not t55.has("damaged") and t55.has("morale-due")


@pytest.mark.audits("BI-R140")
def test_a_jammed_turret_on_a_vehicle_with_none_is_a_lost_weapon(game):
    """A.12.4 6: "Se il veicolo non ha torretta si considera come danno alle armi": the BMP's
    weapon lost at random; its main armament (the autocannon), so its check is at -2."""
    facts = play(game, "hit bmp weapon=rpg dice=1,6,1")
    assert "weapon" in " ".join(outcomes(facts)) or "autocannon" in " ".join(outcomes(facts))
    bmp = game.state.units["bmp"]
    assert bmp.has("weapon-lost-autocannon") and bmp.has("morale-table-2")


@pytest.mark.audits("BI-R140")
@pytest.mark.parametrize("face,lost,minus", [(1, "gun-heavy", True), (2, "mg", False)])
def test_a_lost_weapon_is_chosen_at_random_and_only_the_main_one_is_minus_two(game, face, lost, minus):
    """A.12.4 7-8: one on-board weapon destroyed, "si determina quale a caso", and a check
    "con penalità di -2 se è l'armamento principale" (its first weapon)."""
    play(game, f"hit t62 weapon=rpg dice=1,7,{face}")
    t62 = game.state.units["t62"]
    assert t62.has(f"weapon-lost-{lost}") and t62.has("morale-due")
    assert t62.has("morale-table-2") == minus


@pytest.mark.audits("BI-R120", "BI-R121", "BI-AMB-26", "BI-R092")
def test_a_truck_caught_by_indirect_mortar_fire_is_damaged_at_plus_four(game):
    """A.10.3 then A.12.2: the truck in the open at short distance of an 81 mm burst: 6; its
    damage +4 for a mortar: a 4 destroys it."""
    facts = play(game, "burst ural source=gun-102 zone=short indirect dice=6,4")
    assert chances(facts, "A.10.3") == [6]
    assert outcomes(facts, "A.12.2") == ["destroyed"]


@pytest.mark.audits("BI-R110", "BI-R141")
def test_indirect_fire_takes_nothing_from_a_mans_damage_die(game):
    """A.12.4's -4 is the armoured table's: a man caught by the same burst rolls A.12.1 as it
    falls: a 6 wounds him."""
    facts = play(game, "burst fares source=gun-102 zone=short indirect dice=1,6")
    assert outcomes(facts, "A.12.1")[0] == "wounded"


# A.12.1's note: -1 fragmentation vest, -2 bullet-proof vest, +1 a sniper's shot; "un
# risultato di 10 non viene mai modificato".
VESTS = [
    ("frag", "", 6, "shocked"),
    ("frag", "", 2, "near miss"),
    ("frag", "", 9, "wounded"),
    ("kev", "", 3, "near miss"),
    ("kev", "", 4, "shocked"),
    ("kev", "", 10, "dead"),
    ("kev", "sniper", 8, "wounded"),
    ("kev", "sniper", 9, "wounded"),
    ("kev", "sniper", 10, "dead"),
    ("fares", "sniper", 9, "dead"),
    ("fares", "sniper", 8, "seriously wounded"),
    ("fares", "sniper", 5, "wounded"),
]


@pytest.mark.audits("BI-R110", "BI-R111")
@pytest.mark.parametrize("man,sniper,face,result", VESTS)
def test_the_vests_and_the_snipers_die(game, man, sniper, face, result):
    """A.12.1: the damage die modified by the vest and the sniper, a natural 10 unmodified."""
    facts = _run(game, f"hit {man} weapon=assault-rifle {sniper} dice={face}")
    assert outcomes(facts, "A.12.1")[0].split(" (")[0] == result


@pytest.mark.audits("BI-R111", "BI-R210")
def test_a_snipers_own_shot_adds_one_to_the_damage(game):
    """A.16.1 and A.12.1: Nico, a sniper, hits Fares; his 9 is a 10: dead."""
    facts = play(game, "fire nico tariq range=30 dice=1,9")
    assert chances(facts) == [6]
    assert outcomes(facts, "A.12.1") == ["dead"]


@pytest.mark.audits("BI-R102")
@pytest.mark.parametrize(
    "observer,kind,face,done",
    [
        ("fo", "general", 3, True),
        ("fo", "general", 4, False),
        ("cdr", "mortar", 8, True),
        ("cdr", "mortar", 9, False),
        ("cdr", "dedicated", 4, True),
        ("cdr", "dedicated", 5, False),
        ("eli", "general", 3, True),
        ("eli", "general", 4, False),
    ],
)
def test_the_contacts_difficulty_by_what_is_called(tmp_path, monkeypatch, observer, kind, face, done):
    """A.11: a dedicated battery Normal (Quality), general support Difficult (half, rounded
    up: the Veteran 5 -> 3, the Elite 6 -> 3), the platoon's light mortar Easy (double: the
    Regular 4 -> 8)."""
    g = new_game(tmp_path, monkeypatch, extra=EXTRA)
    tier = {"fo": "fire-veteran", "cdr": "fire-regular", "eli": "fire-elite"}[observer]
    goto(g, tier, 1)
    facts = play(g, f"call {observer} {kind} mm=81 dice={face}")
    (contact,) = rolls(facts, "BI-R102")
    assert contact.target == {"fo": 3, "cdr": {"mortar": 8, "dedicated": 4}.get(kind), "eli": 3}[observer]
    assert any("through" in n for n in [plain_text(e) for e in facts]) == done


def plain_text(e) -> str:
    from core.language.i18n import plain

    return plain(e.text) if hasattr(e, "text") else ""


@pytest.mark.audits("BI-R100")
@pytest.mark.parametrize("who", ["sarge", "bruno"])
def test_only_an_observer_or_a_commander_calls_the_guns(game, who):
    """A.11: the observer is "un osservatore specializzato ... o un comandante di plotone o
    compagnia": a squad leader or a rifleman cannot call."""
    refused(game, f"call {who} dedicated mm=81 dice=1", rule="BI-R100")


@pytest.mark.audits("BI-R103")
def test_an_imprecise_ranging_shot_rolls_4d10_for_each_offset(game):
    """A.11: the observer (Regular, 4) rolls a 5: imprecise; a 5 on the table, long right:
    "4d10 cm. lungo +4d10 a destra", two rolls: 1+2+3+4 = 10 long, 5+6+7+8 = 26 right."""
    play(game, "call cdr dedicated mm=81 dice=1")
    goto(game, "fire-regular", 2)
    facts = play(game, "ranging cdr dice=5,5,1,2,3,4,5,6,7,8")
    assert outcomes(facts, "BI-R103") == ["imprecise"]
    assert [len(r.faces) for r in rolls(facts, "A.11")] == [1, 4, 4]
    assert any("10 cm long and 26 cm right" in plain_text(e) for e in facts)


@pytest.mark.audits("BI-R103", "BI-AMB-29")
def test_a_precise_short_left_rolls_2d6_for_each_offset(game):
    """A.11: precise (a 4 under the Regular's 4), a 10 on the table: "2d6 cm. corto + 2d6 a
    sinistra": 6+6 = 12 short, 1+1 = 2 left."""
    play(game, "call cdr dedicated mm=81 dice=1")
    goto(game, "fire-regular", 2)
    facts = play(game, "ranging cdr dice=4,10,6,6,1,1")
    assert outcomes(facts, "BI-R103") == ["precise"]
    assert any("12 cm short and 2 cm left" in plain_text(e) for e in facts)


@pytest.mark.audits("BI-R104", "BI-AMB-32")
def test_a_shift_goes_up_to_20_cm(game):
    """A.11: after the ranging shot the observer may "spostare il tiro di 20cm" with a new
    ranging shot that does not deviate: 20 cm is allowed, 20.5 is not."""
    play(game, "call cdr dedicated mm=81 dice=1")
    goto(game, "fire-regular", 2)
    play(game, "ranging cdr dice=4,1")
    goto(game, "fire-regular", 3)
    assert _try(game, "shift cdr 20.5") is None
    facts = play(game, "shift cdr 20")
    assert not rolls(facts, "A.11")


@pytest.mark.audits("BI-R130", "BI-AMB-25", "BI-R092")
@pytest.mark.parametrize(
    "mm,tank,other",
    [
        (105, 1, 2),
        (106, 2, 4),
        (120, 2, 4),
    ],
)
def test_artillerys_penetration_row_is_by_its_calibre(game, mm, tank, other):
    """A.12.3: "Mortaio/artiglieria <106mm" 1 against a tank, 2 against other armour; ">106mm"
    2 and 4 (BI-AMB-25: 106 mm exactly uses "> 106").  A 105 mm battery, over 103 mm, bursts
    at +1 (A.10.3: 7 in the open at short distance) yet penetrates on the "<106" row."""
    play(game, f"call cdr dedicated mm={mm} dice=1")
    goto(game, "fire-regular", 2)
    play(game, "ranging cdr dice=4,1")
    goto(game, "fire-regular", 3)
    facts = play(game, "ffe cdr")
    line = next(plain_text(e) for e in facts if "burst UNIT" in plain_text(e))
    source = line.split("source=")[1].split()[0]
    seen = []
    for target in ("t55", "bmp"):
        hit = _try(game, f"burst {target} source={source} zone=short indirect dice=1,10")
        seen.append((chances(hit, "A.10.3")[0], chances(hit, "A.12.3")[0]))
    assert seen == [(7, tank), (7, other)]


@pytest.mark.audits("BI-R110", "BI-R113")
@pytest.mark.parametrize("dressed", [False, True])
def test_the_death_clock_runs_to_the_end_of_its_last_turn(game, dressed):
    """A.12.1: seriously wounded in turn 1, Tariq "muore se non è medicato entro 1d6 turni": a
    2, so turns 2 and 3 (BI-R113: the turn of the wound is turn 0).  He is alive as turn 3
    begins; dressed by Fares in turn 3 (a Normal action, 4: a 4) he lives on as Wounded,
    else he dies as turn 3 ends."""
    play(game, "hit tariq weapon=assault-rifle dice=9,2")
    goto(game, "move-first", 3)
    assert game.state.units["tariq"].in_play
    if dressed:
        goto(game, "fire-regular", 3)
        play(game, "@red dress fares tariq dice=4")
    goto(game, "move-first", 4)
    tariq = game.state.units["tariq"]
    assert tariq.in_play is dressed
    if dressed:
        assert tariq.has("wounded") and not tariq.has("seriously-wounded")


@pytest.mark.audits("BI-R086", "BI-R121", "BI-R120")
def test_an_autocannons_two_shots_at_a_truck_each_roll_damage_at_plus_four(game):
    """A.9.2: the autocannon fires 2 shots at one target (short range to 50 cm: 5), each hit
    its own damage (BI-AMB-21), +4 for an autocannon (A.12.2): a 3 is 7, immobilised; then a
    4 is 8, destroyed."""
    facts = play(game, "fire acv ural range=50 dice=1,3,1,4")
    assert chances(facts) == [5, 5]
    assert outcomes(facts, "A.12.2") == ["immobilised", "destroyed"]
    assert not game.state.units["ural"].in_play


@pytest.mark.audits("BI-R130", "BI-R093", "BI-R092", "BI-R091")
def test_a_105_mm_tank_gun_penetrates_on_the_tank_gun_row_and_bursts_on_the_big_row(tmp_path, monkeypatch):
    """A.12.3: a tank gun of 105 mm is "Cannone carro armato >100mm": 8 against a tank (not
    the artillery rows); A.10.2: its HE is a gun over 103 mm: radii 8 and 15 cm, and a man
    it hits is caught at 6 + 1 = 7."""
    extra = (*EXTRA, _tank("g105", 105))
    g = new_game(tmp_path, monkeypatch, extra=extra)
    goto(g, "fire-regular", 1)
    tank = _try(g, "fire g105 t55 range=100 dice=1,10")
    assert chances(tank, "A.12.3") == [8]
    man = play(g, "fire g105 tariq range=100 dice=1,1,10")
    assert chances(man, "A.10.3") == [7]
    assert any("8 cm (short) and 15 cm (long)" in plain_text(e) for e in man)


@pytest.mark.audits("BI-AMB-27", "BI-R130")
@pytest.mark.parametrize("weapon", ["hand-grenade", "gl", "agl", "mg"])
def test_grenades_and_machine_guns_do_not_penetrate_a_tank(game, weapon):
    """A.12.3 names no hand grenade, 40 mm grenade or machine gun (only "Granate anticarro");
    BI-AMB-27: such a hit on a tank cannot penetrate: no penetration or damage roll."""
    facts = _try(game, f"hit t55 weapon={weapon}")
    assert facts is not None and not rolls(facts)
    assert not game.state.units["t55"].has("damaged")


@pytest.mark.audits("BI-R140", "BI-R120")
@pytest.mark.parametrize(
    "target,face,state,check,minus_two",
    [
        ("t55", 3, "slowed", True, False),
        ("t55", 4, "slowed", True, False),
        ("t55", 5, "immobilised", True, True),
        ("ural", 4, "slowed", False, False),
        ("ural", 5, "immobilised", True, True),
    ],
)
def test_mobility_damage_and_its_check_on_each_table(game, target, face, state, check, minus_two):
    """A.12.4: 3-4 "Movimento dimezzato e controllare il morale", 5 immobilised with a check
    at -2; A.12.2 (an assault rifle, +0): 2-4 movement halved with no check, 5-7 immobilised
    with a check at -2."""
    line = f"hit {target} weapon=rpg dice=1,{face}" if target == "t55" else f"hit {target} weapon=pistol dice={face}"
    play(game, line)
    u = game.state.units[target]
    assert u.has(state)
    assert u.has("morale-due") is check
    assert u.has("morale-table-2") is minus_two


@pytest.mark.audits("BI-R130", "BI-R120", "BI-AMB-14", "BI-AMB-62")
@pytest.mark.parametrize(
    "vehicle,column",
    [
        ("ariete", 6),
        ("vcc", 8),
        ("puma", 8),
        ("blindo", 8),
        ("camion", None),
        ("jeep", None),
        ("tecnica", None),
    ],
)
def test_which_table_each_vehicle_takes_an_rpg_on(game, vehicle, column):
    """A.12.3: an AT rocket penetrates a tank on 6, "altri blindati" (tracked and wheeled
    carriers, armoured cars) on 8; A.12.2: a truck, a car or a technical is unarmoured and
    rolls its damage straight away (a 10 + 2: destroyed)."""
    facts = play(game, f"hit {vehicle} weapon=rpg dice=10")
    if column is None:
        assert outcomes(facts, "A.12.2") == ["destroyed"]
    else:
        assert chances(facts, "A.12.3") == [column]
