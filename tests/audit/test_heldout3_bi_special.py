"""A fourth look at Bassa Intensità (issue #46), a third held-out audit: aircraft,
helicopters, anti-aircraft fire and the special rules (A.15, A.16), each case written from
the book ("AEREI ED ELICOTTERI", "REGOLE SPECIALI") and its digest alone.  The earlier
audits played each support from its call to its saves and the men inside a helicopter;
these cross an anti-aircraft shot with the night's "target firing" rows, walk the
damaged aircraft's three tries, the AT rocket's 80 cm and the AA chance's floor, each
bomb's half on both kinds of target, the strafing pass's cover, the helicopter table's
rows with weapons and passengers, the AT mine on each kind of target, booby traps in
cover, the engineer's and the rifleman's searches, and rubber bullets at their edges.
"""

from __future__ import annotations

import pytest
from audit_bi_early import U, chances, goto, new_game, outcomes, play, refused, rolls, vehicle
from playing import tried

EXTRA = (
    U(id="aam", name="Aam", side="red", cls="regular", weapons=("aa-mg",)),
    U(id="aat", name="Aat", side="red", cls="elite", weapons=("rpg",)),
    U(id="aav", name="Aav", side="red", cls="veteran", weapons=("manpads",)),
    U(id="aab", name="Aab", side="red", cls="rabble", weapons=("aa-missile",)),
    U(id="aac", name="Aac", side="red", cls="regular", weapons=("aa-cannon",)),
    U(id="heli", name="Heli", side="blue", kind="vehicle", cls="regular", weapons=("mg",), roles=("helicopter",)),
    U(id="pax", name="Pax", side="blue", cls="regular", weapons=("carbine",), status=("aboard-heli",)),
    U(id="pax2", name="Pax2", side="blue", cls="regular", weapons=("carbine",), status=("aboard-heli",)),
    U(id="genio", name="Genio", side="blue", cls="regular", weapons=("carbine",), roles=("engineer",)),
    U(id="gomma", name="Gomma", side="blue", cls="regular", weapons=("rubber",)),
    U(id="bmp", name="Bmp", side="red", kind="vehicle", cls="regular", weapons=("autocannon",), roles=("tracked-apc",)),
    vehicle("m1", "red", "regular", "gun-heavy", roles=("tank", "hightech-armour")),
    U(id="frag", name="Frag", side="red", cls="regular", weapons=("assault-rifle",), roles=("frag-vest",)),
    U(id="inside", name="Inside", side="red", cls="regular", weapons=("assault-rifle",), status=("aboard-bmp",)),
)


def _game(tmp_path, monkeypatch, phase: str = "fire-regular", night: str = "day"):
    g = new_game(tmp_path, monkeypatch, night=night, extra=EXTRA)
    goto(g, phase, 1)
    return g


@pytest.fixture
def game(tmp_path, monkeypatch):
    return _game(tmp_path, monkeypatch)


def _words(facts) -> str:
    from audit_bi_early import notes

    return " ".join(outcomes(facts) + notes(facts))


@pytest.mark.audits("BI-R084", "BI-R260", "BI-AMB-10")
@pytest.mark.parametrize("gunner,phase,chance", [("aat", "fire-elite", 5), ("aav", "fire-veteran", 4)])
def test_a_missile_or_rocket_fired_at_a_helicopter_is_a_single_shot_at_night(
    tmp_path, monkeypatch, gunner, phase, chance
):
    """A.9.4 at night: "Bersaglio spara colpo singolo +1", "spara automatico +2".  Aat's RPG and
    Aav's shoulder-launched missile fire one round each at the helicopter (A.15.3); the man who
    then fires at them with no moon at 20 cm has +1, not +2: the Elite Elia 6 - 2 + 1 = 5,
    the Veteran Vito 5 - 2 + 1 = 4."""
    g = _game(tmp_path, monkeypatch, phase, "dark")
    play(g, f"@red aa {gunner} heli range=20 dice=10")
    shooter = {"aat": "elia", "aav": "vito"}[gunner]
    facts = play(g, f"fire {shooter} {gunner} range=20 dice=10,10")
    assert chances(facts) == [chance, chance]


@pytest.mark.audits("BI-R084", "BI-R260")
def test_an_aa_machine_gun_fired_at_a_helicopter_is_automatic_at_night(tmp_path, monkeypatch):
    """A.9.4 at night: the AA machine gun fires automatic: +2 for who fires at its gunner: the
    Regular Sarge with no moon at 20 cm, 4 + 1 (short) - 2 + 2 = 5."""
    g = _game(tmp_path, monkeypatch, "fire-regular", "dark")
    play(g, "@red aa aam heli dice=10")
    facts = play(g, "fire sarge aam range=15 dice=10,10")
    assert chances(facts) == [5, 5]


@pytest.mark.audits("BI-R260", "BI-AMB-54")
def test_the_at_rocket_reaches_a_helicopter_at_80_cm_and_no_further(tmp_path, monkeypatch):
    """A.15.3: "Lanciarazzi anticarro (cm.80 max)" 1 against helicopters, Elite +2: 3 at 80 cm;
    at 80.5 no shot."""
    g = _game(tmp_path, monkeypatch, "fire-elite")
    assert chances(tried(g, "@red aa aat heli range=80 dice=10"), "BI-R260") == [3]
    refused(g, "@red aa aat heli range=80.5 dice=10", rule="BI-R260")


@pytest.mark.audits("BI-R260", "BI-R261", "BI-AMB-53")
def test_a_rabble_heavy_missile_in_the_movement_phase_is_halved_after_its_minus_two(tmp_path, monkeypatch):
    """A.15.3: a heavy AA missile 4 against a helicopter, Rabble -2: 2; in the movement phase
    halved: 1."""
    g = _game(tmp_path, monkeypatch, "move-first")
    facts = play(g, "@red aa aab heli dice=10")
    assert chances(facts, "BI-R260") == [1]


@pytest.mark.audits("BI-R260", "BI-R261")
def test_no_aa_weapon_fires_below_its_chance_of_nothing(game):
    """A.15.3: the AA machine gun against aircraft is "NO": no shot, with or without
    aircraft over the table."""
    refused(game, "@red aa aam aircraft dice=10", rule="BI-R260")


def _aircraft(tmp_path, monkeypatch):
    """The Veteran observer contacts aircraft in turn 1; they attack in turn 2."""
    g = _game(tmp_path, monkeypatch, "fire-veteran")
    play(g, "call fo air bomb=ap dice=1")
    return g


@pytest.mark.audits("BI-R262", "BI-AMB-55")
def test_a_damaged_aircraft_comes_back_on_its_third_try(tmp_path, monkeypatch):
    """A.15.3: hit (the Veteran's missile 3, a 1) and on 1d6 a 4: damaged, it does not attack
    in turn 2; "può tentare di tornare per 3 turni consecutivi" on a 6: a 5 in turns 3 and 4,
    a 6 in turn 5: it attacks then."""
    game = _aircraft(tmp_path, monkeypatch)
    goto(game, "fire-veteran", 2)
    play(game, "@red aa aav aircraft dice=1,4")
    refused(game, "ffe fo dice=5,1", rule="BI-R262")
    for turn in (3, 4):
        goto(game, "fire-veteran", turn)
        assert outcomes(play(game, "ffe fo dice=5"), "BI-R262") == ["not this turn"]
    goto(game, "fire-veteran", 5)
    facts = play(game, "ffe fo dice=6,5,1")
    assert outcomes(facts, "BI-R262")[0] != "not this turn"
    assert "air strike" in _words(facts)


@pytest.mark.audits("BI-R262", "BI-R250")
def test_an_aircraft_shot_down_never_attacks(tmp_path, monkeypatch):
    """A.15.3: 50% shot down "prima di poter effettuare l'attacco": a 3 on 1d6; no attack in
    turn 2 nor later."""
    game = _aircraft(tmp_path, monkeypatch)
    goto(game, "fire-veteran", 2)
    play(game, "@red aa aav aircraft dice=1,3")
    refused(game, "ffe fo dice=5,1", rule="BI-R262")
    goto(game, "fire-veteran", 3)
    refused(game, "ffe fo dice=6", rule="BI-R103")


@pytest.mark.audits("BI-R252", "BI-AMB-51", "BI-R092")
@pytest.mark.parametrize(
    "line,chance",
    [
        ("burst fares source=bomb-at zone=short", 3),
        ("burst fares source=bomb-at zone=long", 2),
        ("burst fares source=bomb-at zone=long cover=trench", 1),
        ("burst fares source=bomb-ap zone=short", 6),
        ("burst fares source=bomb-napalm zone=long cover=light", 2),
    ],
)
def test_each_bombs_chance_against_a_man(game, line, chance):
    """A.15.1: anti-tank bombs "½ possibilità di danneggiare fanterie" (6 -> 3, 3 -> 2, the
    entrenched man's 1 -> 1, rounded up); anti-personnel bombs and napalm no change."""
    facts = play(game, f"{line} dice=10")
    assert chances(facts, "A.10.3") == [chance]


@pytest.mark.audits("BI-R252", "BI-AMB-51", "BI-R130")
@pytest.mark.parametrize("target,chance", [("t55", 1), ("bmp", 2), ("m1", 0)])
def test_anti_personnel_bombs_halve_the_penetration(game, target, chance):
    """A.15.1: anti-personnel bombs "½ possibilità di danneggiare veicoli blindati": as
    artillery over 106 mm (BI-AMB-51) 2 against a tank -> 1, 4 against other armour -> 2;
    against high-tech armour 2 - 2 = 0: nothing."""
    facts = play(game, f"burst {target} source=bomb-ap zone=short dice=1,10")
    seen = chances(facts, "A.12.3")
    if chance:
        assert seen == [chance]
    else:
        assert seen in ([], [0])
    assert not rolls(facts, "A.12.4")


@pytest.mark.audits("BI-R253", "BI-AMB-52")
@pytest.mark.parametrize(
    "pilot,cover,chance",
    [("regular", "", 4), ("regular", "cover=heavy", 2), ("elite", "cover=light", 5), ("recruit", "cover=trench", 1)],
)
def test_a_strafing_pass_is_an_autocannons_area_fire_at_normal_range(game, pilot, cover, chance):
    """A.15.1: the strafing pass hits "come Cannoncini automatici 20/35mm" at an area: the
    pilot's Quality, normal range, the target's cover (no half: only an assault rifle's area
    fire is halved)."""
    facts = play(game, f"strafe walid pilot={pilot} {cover} dice=10")
    assert chances(facts, "BI-R253") == [chance]


@pytest.mark.audits("BI-R263")
def test_a_helicopter_hit_on_eleven_loses_a_weapon(game):
    """A.15.3 11: "Controllo del Morale, distrutta un arma di bordo": its MG; a check due."""
    facts = play(game, "@red aa aam heli dice=1,5,6")
    assert rolls(facts, "BI-R263")[0].faces == (5, 6)
    heli = game.state.units["heli"]
    assert heli.has("weapon-lost-mg") and heli.has("morale-due")


@pytest.mark.audits("BI-R263", "BI-AMB-57")
def test_a_helicopter_hit_on_nine_or_ten_hits_each_passenger_on_a_one(game):
    """A.15.3 9-10: "1 possibilità su 1d10 per ogni passeggero di venire colpito": Pax on a 1
    (then his damage, a 10: dead), Pax2 on a 2 unhurt."""
    facts = play(game, "@red aa aam heli dice=1,4,5,1,10,2")
    assert [r.target for r in rolls(facts, "BI-R263")][1:] == [1, 1]
    assert not game.state.units["pax"].in_play
    assert game.state.units["pax2"].in_play


@pytest.mark.audits("BI-R263", "BI-R264", "BI-AMB-56")
def test_a_helicopter_hit_on_five_checks_at_plus_one_and_a_shock_is_panic(game):
    """A.15.3 5-6: a check "penalità di +1 al dado"; the helicopter (Regular 4 + 3 = 7, -1,
    -2 under the AA MG's automatic fire) fails on an 8; a 3 on the effects die is Shocked,
    which for a helicopter "si considera come Panico": it flees."""
    play(game, "@red aa aam heli dice=1,3,3")
    facts = play(game, "morale heli dice=8,3")
    assert chances(facts, "A.13.2") == [4]
    assert "flees" in _words(facts)


@pytest.mark.audits("BI-R222", "BI-AMB-59")
@pytest.mark.parametrize("face,destroyed", [(3, True), (4, False)])
def test_an_at_mine_destroys_a_truck_on_one_to_three(game, face, destroyed):
    """A.16.2: AT mines "distruggono i veicoli non blindati con un risultato di 1,2 o 3 su 1d6"."""
    play(game, f"mine ural kind=at dice={face}")
    assert game.state.units["ural"].in_play is not destroyed


@pytest.mark.audits("BI-R222", "BI-R131")
@pytest.mark.parametrize("target,chance", [("t55", 6), ("bmp", 8), ("m1", 4)])
def test_an_at_mine_penetrates_as_an_at_rocket(game, target, chance):
    """A.16.2: "come se fossero Razzi Anticarro": 6 against a tank, 8 against other armour,
    high-tech armour -2."""
    facts = play(game, f"mine {target} kind=at dice=10")
    assert chances(facts, "A.12.3") == [chance]


@pytest.mark.audits("BI-R221")
def test_an_ap_mine_does_nothing_to_a_tank(game):
    """A.16.2: "Le mine antiuomo non hanno effetto su veicoli blindati"."""
    facts = tried(game, "mine t55 kind=ap zone=short")
    assert facts is None or not rolls(facts)
    assert not game.state.units["t55"].has("damaged")


@pytest.mark.audits("BI-R222", "BI-AMB-59")
@pytest.mark.parametrize("cover,chance", [("", 3), ("cover=light", 2), ("cover=trench", 1)])
def test_an_at_mine_reaches_a_man_only_at_long_distance(game, cover, chance):
    """A.16.2: against infantry "Distanza Breve di 0cm ed una Distanza Lunga di 4cm": a man
    beside it is at long distance: 3 in the open, 2 in cover, 1 entrenched."""
    facts = play(game, f"mine fares kind=at zone=short {cover} dice=10")
    assert chances(facts, "A.10.3") == [chance]


@pytest.mark.audits("BI-R223")
@pytest.mark.parametrize("cover", ["cover=heavy", "cover=trench", ""])
def test_a_booby_trap_ignores_cover(game, cover):
    """A.16.2: a trap "senza alcuna possibile modifica a favore del bersaglio per copertura":
    6, whatever his cover."""
    facts = play(game, f"mine tariq kind=trap {cover} dice=10")
    assert chances(facts, "A.10.3") == [6]


@pytest.mark.audits("BI-R223", "BI-R111")
def test_a_booby_trap_still_meets_the_vest(game):
    """BI-AMB-59: the vest still counts on the damage die: the frag vest makes a 6 a 5,
    shocked."""
    facts = play(game, "mine frag kind=trap dice=1,6")
    assert outcomes(facts, "A.12.1") == ["shocked"]


@pytest.mark.audits("BI-R224")
@pytest.mark.parametrize(
    "who,what,chance",
    [("genio", "minefield", 8), ("genio", "trap", 4), ("bruno", "minefield", 4), ("bruno", "trap", 2)],
)
def test_who_looks_for_what(game, who, what, chance):
    """A.16.2: infantry: a minefield Normal (4), a trap Difficult (2); engineers: a minefield
    Easy (8), a trap Normal (4)."""
    facts = play(game, f"detect {who} {what} dice=10")
    assert chances(facts, "BI-R224") == [chance]


@pytest.mark.audits("BI-R224")
def test_a_man_who_moved_at_a_normal_pace_does_not_look_for_mines(tmp_path, monkeypatch):
    """A.16.2: "La fanteria ferma o che muova cautamente": Bruno moved 10 cm at a normal pace
    this turn; he cannot search; Carlo, who moved cautiously, can."""
    g = _game(tmp_path, monkeypatch, "move-first")
    play(g, "move bruno 10 normal", "move carlo 5 cautious")
    goto(g, "fire-regular", 1)
    refused(g, "detect bruno minefield dice=10", rule="BI-R224")
    assert chances(play(g, "detect carlo minefield dice=10"), "BI-R224") == [4]


@pytest.mark.audits("BI-R230")
def test_rubber_bullets_hit_as_a_carbine_to_its_last_band(game):
    """A.16.4: "l'arma si considera come una carabina per colpire": short to 10 cm (5), long to
    60 (3); at 60.5 no shot."""
    assert [chances(tried(game, f"fire gomma nabil range={r} dice=10")) for r in (10, 60)] == [[5], [3]]
    refused(game, "fire gomma nabil range=60.5 dice=10", rule="BI-R075")


@pytest.mark.audits("BI-R230", "BI-R111")
@pytest.mark.parametrize("face,state", [(6, "shocked"), (9, "shocked"), (10, "wounded")])
def test_rubber_bullets_damage(game, face, state):
    """A.16.4: Wounded and Seriously wounded "si considerano come Shoccato", Dead "come
    Ferito"."""
    play(game, f"fire gomma nabil range=20 dice=1,{face}")
    nabil = game.state.units["nabil"]
    assert nabil.in_play and nabil.has(state)
    assert not nabil.has("seriously-wounded")


@pytest.mark.audits("BI-R260", "BI-AMB-62", "BI-R256", "BI-R120")
def test_a_landed_helicopter_is_fired_at_as_an_unarmoured_vehicle(tmp_path, monkeypatch):
    """A.15.2: "Gli elicotteri si considerano come normali veicoli"; BI-AMB-62: only AA weapons
    reach one in flight, a landed one is an unarmoured vehicle: Ali's assault rifle (normal
    range, 4) hits it and a 7 on A.12.2 immobilises it; the AA gunner may no longer fire at
    it as at an aircraft."""
    g = _game(tmp_path, monkeypatch, "move-first")
    play(g, "land heli")
    goto(g, "fire-regular", 1)
    refused(g, "@red aa aam heli dice=1,6,6", rule="BI-R260")
    facts = play(g, "@red fire ali heli range=30 dice=1,7,10")
    assert outcomes(facts, "A.12.2") == ["immobilised"]
    assert g.state.units["heli"].has("immobilised")


@pytest.mark.audits("BI-R260", "BI-R030")
def test_anti_aircraft_fire_in_the_movement_phase_is_the_gunners_fire_for_the_turn(tmp_path, monkeypatch):
    """A.15.3: AA fire in the movement phase is opportunity fire; A.5: one fire a turn: Aac,
    who fired at the helicopter as Blue moved (2 halved: 1), does not fire again in the fire
    phase."""
    g = _game(tmp_path, monkeypatch, "move-first")
    facts = play(g, "@red aa aac heli dice=10")
    assert chances(facts, "BI-R260") == [1]
    goto(g, "fire-regular", 1)
    refused(g, "@red aa aac heli dice=10", rule="BI-R030")


@pytest.mark.audits("BI-R260", "BI-R050")
def test_no_anti_aircraft_fire_in_ones_own_sides_movement(tmp_path, monkeypatch):
    """A.15.3: in the movement phase AA fire is "tiro di opportunità", the fire of the side not
    moving (A.7): Red's gunner does not fire while Red moves."""
    g = _game(tmp_path, monkeypatch, "move-second")
    refused(g, "@red aa aac heli dice=10", rule="BI-R050")


@pytest.mark.audits("BI-R253", "BI-R130", "BI-R121")
@pytest.mark.parametrize("target,rule,chance", [("t55", "A.12.3", 3), ("bmp", "A.12.3", 7)])
def test_a_strafing_pass_penetrates_as_an_autocannon(game, target, rule, chance):
    """A.15.1: the strafing pass hits "come Cannoncini automatici 20/35mm": against armour its
    penetration row, 3 against a tank, 7 against other armour."""
    facts = play(game, f"strafe {target} pilot=regular dice=1,10")
    assert chances(facts, rule) == [chance]


@pytest.mark.audits("BI-R253", "BI-R121")
def test_a_strafing_pass_on_a_truck_is_plus_four(game):
    """A.12.2: +4 for an autocannon: the strafing pass's hit on the truck, a 4: destroyed."""
    facts = play(game, "strafe ural pilot=regular dice=1,4")
    assert outcomes(facts, "A.12.2") == ["destroyed"]


@pytest.mark.audits("BI-R224")
def test_a_man_aboard_a_vehicle_that_moved_does_not_look_for_mines(tmp_path, monkeypatch):
    """A.16.2: "La fanteria ferma o che muova cautamente": Bruno, aboard the truck that drove
    40 cm on the road this turn, is neither; nor is Pax, aboard the helicopter in the air.
    Carlo, on foot and still, searches as a Normal action (4)."""
    g = _game(tmp_path, monkeypatch, "move-first")
    play(g, "mount bruno camion")
    goto(g, "move-first", 2)
    play(g, "move camion 40 road")
    goto(g, "fire-regular", 2)
    refused(g, "detect bruno minefield dice=1", rule="BI-R224")
    refused(g, "detect pax minefield dice=1", rule="BI-R224")
    assert chances(play(g, "detect carlo minefield dice=10"), "BI-R224") == [4]


@pytest.mark.audits("BI-R221", "BI-R222")
@pytest.mark.parametrize("unit", ["heli", "pax"])
def test_no_mine_goes_off_under_a_helicopter_in_the_air(game, unit):
    """A.16.2: mines strike infantry and vehicles "che attraversino la fascia minata": the
    helicopter in flight, and the man it carries, cross no minefield."""
    for kind in ("ap", "at"):
        refused(game, f"mine {unit} kind={kind} zone=short dice=1,10", rule="BI-R221")
    assert game.state.units[unit].in_play and not game.state.units[unit].has("damaged")


@pytest.mark.audits("BI-R260", "BI-AMB-62", "BI-R263")
@pytest.mark.parametrize(
    "line",
    [
        "burst heli source=rpg zone=short dice=1,10",
        "burst pax source=gun-102 zone=short indirect dice=1,10",
        "strafe heli pilot=regular dice=1,10",
        "strafe pax pilot=regular dice=1,10",
        "hit heli weapon=rpg dice=10",
        "hit pax weapon=rpg dice=10",
        "@red flashbang ali pax",
        "@red gas omar pax dice=3",
    ],
)
def test_nothing_but_anti_aircraft_fire_reaches_a_helicopter_in_the_air(game, line):
    """A.15.3 and BI-AMB-62: a helicopter in flight is engaged only by the AA weapons of the
    table, and the men it carries are hit only through its table's 9-10 (BI-R263): no burst
    on the ground, no strafing pass, no hit by hand, no flash-bang or tear gas reaches the
    helicopter or Pax inside it."""
    refused(game, line, rule="BI-R260")
    for uid in ("heli", "pax", "pax2"):
        u = game.state.units[uid]
        assert u.in_play and not u.has("shocked") and not u.has("gassed") and not u.has("damaged")


@pytest.mark.audits("BI-R093", "BI-R231", "BI-R232", "BI-R253", "BI-AMB-26")
@pytest.mark.parametrize(
    "line",
    [
        "burst inside source=rpg zone=short dice=1,10",
        "burst inside source=gun-102 zone=short indirect dice=1,10",
        "strafe inside pilot=regular dice=1,10",
        "hit inside weapon=rpg dice=10",
        "flashbang bruno inside",
        "gas bruno inside dice=3",
    ],
)
def test_the_man_inside_an_armoured_carrier_is_reached_only_through_it(game, line):
    """A.10.3's digest note (BI-AMB-26): vehicles inside an HE area are hit per A.10.3 and
    resolved by penetration; the men inside armour share its fate (ruling BI-OCCUPANTS: they
    "cannot be fired at themselves").  A burst, a strafing pass, a hit, a flash-bang ("tutti i
    fanti entro cm.5") or tear gas does not reach Inside, aboard the BMP, himself."""
    refused(game, line, rule="BI-AMB-26")
    inside = game.state.units["inside"]
    assert inside.in_play and not inside.has("shocked") and not inside.has("gassed")


@pytest.mark.audits("BI-R093", "BI-AMB-26")
def test_the_man_inside_an_armoured_carrier_is_not_fired_at(game):
    """Ruling BI-OCCUPANTS: the men inside armour "cannot be fired at themselves": Bruno's
    fire at Inside, aboard the BMP, is refused; he fires at the BMP."""
    refused(game, "fire bruno inside range=20 dice=1,10", rule="BI-AMB-26")


@pytest.mark.audits("BI-R260", "BI-R261")
def test_only_the_cannon_and_the_missiles_reach_an_aircraft(tmp_path, monkeypatch):
    """A.15.3: against aircraft the AA machine gun and the AT rocket launcher are "NO"; the AA
    cannon 1, halved in the movement phase and rounded up: 1."""
    g = _aircraft(tmp_path, monkeypatch)
    goto(g, "move-first", 2)
    for gunner in ("aam", "aat"):
        refused(g, f"@red aa {gunner} aircraft range=50 dice=10", rule="BI-R260")
    assert chances(play(g, "@red aa aac aircraft dice=10"), "BI-R260") == [1]


SCOUTS = (
    U(id="vl", name="Vl", side="blue", team="SC", cls="veteran", weapons=("carbine",), roles=("leader",)),
    U(id="sc", name="Sc", side="blue", team="SC", cls="veteran", weapons=("carbine",), roles=("scout",)),
    U(id="vm", name="Vm", side="blue", team="SC", cls="veteran", weapons=("carbine",)),
    U(id="hid", name="Hid", side="red", cls="regular", weapons=("carbine",), status=("hidden",)),
)


@pytest.mark.audits("BI-R212", "BI-R165")
@pytest.mark.parametrize(
    "who,move,chance",
    [("sc", "", 5), ("sc", "move sc 5 cautious", 5), ("sc", "move sc 10 running", 3), ("vm", "", 3)],
)
def test_a_scout_observes_one_level_better_only_still_or_cautious(tmp_path, monkeypatch, who, move, chance):
    """A.16.3: the scout "ha le sue capacità di osservazione migliorate di 1 livello se fermo o
    se muove cautamente": a man still in cover is a Difficult observation for the Veteran
    Vm (5 / 2 -> 3), a Normal one for the scout Sc, still or cautious (5); having run, Sc is
    as any man (3)."""
    g = new_game(tmp_path, monkeypatch, extra=SCOUTS)
    goto(g, "move-first", 1)
    if move:
        play(g, move)
    goto(g, "observe", 1)
    facts = play(g, f"observe {who} hid cover dice=10")
    assert chances(facts, "BI-R165") == [chance]


@pytest.mark.audits("BI-R252", "BI-AMB-51")
@pytest.mark.parametrize("bomb", ["bomb-at", "bomb-napalm"])
def test_anti_tank_bombs_and_napalm_keep_the_whole_penetration(game, bomb):
    """A.15.1: only anti-personnel bombs have "½ possibilità di danneggiare veicoli blindati";
    anti-tank bombs and napalm ("nessun modificatore ai danni") penetrate a tank as artillery
    over 106 mm (BI-AMB-51): 2."""
    facts = play(game, f"burst t55 source={bomb} zone=short dice=1,10")
    assert chances(facts, "A.12.3") == [2]


LEO = vehicle("leo", "blue", "regular", "gun-heavy", "mg", roles=("tank", "stabilised"), gun_mm=120)


@pytest.mark.audits("BI-R240", "BI-AMB-60")
@pytest.mark.parametrize(
    "cm,line,want",
    [
        (29.5, "fire leo t55 range=100 dice=10,1", [4]),
        (29.5, "fire leo tariq weapon=mg range=30 dice=10,10,10", [4, 4, 4]),
        (30, "fire leo t55 range=100 dice=10,1", None),
    ],
)
def test_a_stabilised_tank_fires_after_less_than_half_its_move_at_minus_one(tmp_path, monkeypatch, cm, line, want):
    """A.16.5: "purché abbiano mosso meno della metà della loro velocità massima", at -1: the
    tank's 60 cm off the road; 29.5 cm moved, its gun at 100 cm (short, 5) fires at 4, its MG
    at 30 cm (short, 5) each shot at 4; 30 cm moved is half, not less: no fire."""
    g = new_game(tmp_path, monkeypatch, extra=(*EXTRA, LEO))
    goto(g, "move-first", 1)
    play(g, f"move leo {cm} off-road")
    goto(g, "fire-regular", 1)
    assert (chances(f) if (f := tried(g, line)) is not None else None) == want


@pytest.mark.audits("BI-R264")
@pytest.mark.parametrize("face,lands", [(2, True), (3, False)])
def test_a_helicopters_surrender_is_panic_and_on_one_or_two_it_leaves(game, face, lands):
    """A.15.3: "un risultato di Resa si considera come Panico (ma con un risultato di 1 o 2 su
    1d6 l'elicottero atterra o rientra alla base)": hit on a 8 (a morale check), the check
    failed, a 6 on the effects die; then a 2 lands it or sends it home, a 3 leaves it in
    panic: it flees."""
    play(game, "@red aa aam heli dice=1,4,4")
    facts = play(game, f"morale heli dice=10,6,{face}")
    words = _words(facts)
    assert ("lands or goes back to base" in words) is lands
    assert ("flees" in words) is not lands
