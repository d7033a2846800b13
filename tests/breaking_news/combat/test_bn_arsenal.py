"""Issue #10: every weapon, vehicle and specialist of Breaking News 1.5.1 can be fielded
and used.  The audit is data (core/rulesets/breaking_news/data/arsenal.toml); the first
tests field each of its items in a roster and find it in the built-in `urban-armour`
scenario, the rest use each weapon and vehicle with the book's dice."""

from __future__ import annotations

import tomllib
from contextlib import closing
from pathlib import Path

import pytest
from bn_combat_support import facts, next_turn, rolls, status, to_activation
from playing import names, refused

import core.rulesets.breaking_news as bn
from core.game import Game
from core.language.i18n import plain
from core.language.reader import reading
from core.log import events as ev
from core.log.outcome import DiceNeeded, Outcome
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.ruleset import Refused
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.scenario_format import FORMAT
from core.rulesets.breaking_news.tables import army_points, troop_classes
from core.rulesets.breaking_news.tables.combat import weapons
from core.rulesets.common import parse_scenario
from core.scenarios.files import ScenarioError
from core.secrets.verify import verify

ARSENAL = tomllib.loads((Path(bn.__file__).parent / "data" / "arsenal.toml").read_text(encoding="utf-8"))
TESTS = Path(__file__).parents[2]
URBAN_ARMOUR = bn.SCENARIOS / "urban-armour.toml"


# ------------------------------------------------------------------ the audit


def _figure(uid: str, kind: str, cls: str, weapons: list[str] = (), roles: tuple[str, ...] = ()) -> army.RosterUnit:
    return army.RosterUnit(id=uid, name=uid, team="A", kind=kind, cls=cls, weapons=tuple(weapons), roles=roles)


def _roster(item: army.RosterUnit, army_name: str = "regular") -> army.Roster:
    cls = "R3" if army_name == "regular" else "Irr1"
    boss = _figure("boss", "man", cls, roles=("commander",))
    return army.Roster(name="audit", army=army_name, units=(boss, item))


def _proved_by(test: str) -> bool:
    """``name`` is a test of this module; ``path::name`` one elsewhere under tests/."""
    path, _, name = test.rpartition("::")
    source = (TESTS / path if path else Path(__file__)).read_text(encoding="utf-8")
    return f"def {name or test}(" in source


def _commands() -> set[str]:
    return {c.name for c in get_ruleset("breaking-news").commands()}


def _scenario_units() -> dict:
    return {u.id: u for u in parse_scenario(FORMAT, URBAN_ARMOUR.read_text(encoding="utf-8"), str(URBAN_ARMOUR)).units}


def test_the_audit_lists_every_weapon_and_vehicle_of_the_book():
    """Every row of the §8.0 table and every vehicle type of the points list is audited."""
    assert {w["id"] for w in ARSENAL["weapons"]} == set(weapons())
    assert {v.get("cls", v["id"]) for v in ARSENAL["vehicles"]} == {v.id for v in army_points().vehicles}
    assert {s["role"] for s in ARSENAL["specialists"] if s["role"]} <= set(FORMAT.roles)


@pytest.mark.parametrize("item", ARSENAL["weapons"], ids=lambda w: w["id"])
def test_every_weapon_is_fielded_priced_and_used(item):
    """Calculating points prices it on its carrier; a roster with it is legal; the
    built-in scenario fields it; its commands exist; a test rolls it."""
    carrier = item["carrier"]
    kind = "man" if carrier == "man" else "vehicle"
    cls = "R3" if kind == "man" else carrier
    figure = _figure("x", kind, cls, [item["id"]])
    assert army.validate_roster(_roster(figure), 0) == []
    base = army.unit_cost(_figure("x", kind, cls), "")
    assert sum(c for _, c in army.unit_cost(figure)) - sum(c for _, c in base) == item["cost"]
    fielded = _scenario_units()[item["fielded_by"]]
    assert item["id"] in fielded.weapons or item.get("every_man") and fielded.cls in troop_classes()
    assert set(item["commands"]) <= _commands()
    assert _proved_by(item["test"]), item["test"]


@pytest.mark.parametrize("item", ARSENAL["vehicles"], ids=lambda v: v["id"])
def test_every_vehicle_is_fielded_priced_and_used(item):
    cls = item.get("cls", item["id"])
    figure = _figure("v", "vehicle", cls, item["weapons"], tuple(item["roles"]))
    assert army.validate_roster(_roster(figure), 0) == []
    assert sum(c for _, c in army.unit_cost(figure)) == item["cost"]
    fielded = _scenario_units()[item["fielded_by"]]
    assert (fielded.kind, fielded.cls, set(item["weapons"])) == ("vehicle", cls, set(fielded.weapons))
    assert set(item["roles"]) <= set(fielded.roles)
    assert set(item["commands"]) <= _commands()
    assert _proved_by(item["test"]), item["test"]


@pytest.mark.parametrize("item", ARSENAL["specialists"], ids=lambda s: s["id"])
def test_every_specialist_is_fielded_and_used(item):
    fielded = _scenario_units()[item["fielded_by"]]
    assert item["role"] in fielded.roles or fielded.kind == item["id"]
    assert set(item["commands"]) <= _commands()
    assert _proved_by(item["test"]), item["test"]


@pytest.mark.parametrize("item", ARSENAL["off_table"], ids=lambda s: s["id"])
def test_every_off_table_weapon_is_called_and_used(item):
    if item["extra"]:
        assert item["extra"] in army.BUYABLE
    assert set(item["commands"]) <= _commands()
    assert _proved_by(item["test"]), item["test"]


@pytest.mark.parametrize(
    ("carrier", "weapon", "words"),
    [
        ("man", "TANKGUN", "a man cannot carry TANKGUN"),
        ("light", "TANKGUN", "a light vehicle cannot carry TANKGUN"),
        ("tank", "RPG", "a tank vehicle cannot carry RPG"),
        ("man", "BAZOOKA", "no weapon 'BAZOOKA' in the points list"),
    ],
)
def test_a_weapon_on_the_wrong_carrier_is_refused(carrier, weapon, words):
    """Rulings BN-PTS-MOUNT: the gun is in a tank's (or heavy vehicle's) 50 points only.

    Digest: PTS-3.
    """
    kind, cls = ("man", "R3") if carrier == "man" else ("vehicle", carrier)
    assert any(words in e for e in army.validate_roster(_roster(_figure("x", kind, cls, [weapon])), 0))


def test_a_roster_with_a_tank_and_its_gun_is_fielded(tmp_path):
    """The roster issue #10 found refused: a tank carrying its gun, 50 points all in."""
    path = tmp_path / "armour.toml"
    path.write_text(
        'name = "Armour"\narmy = "regular"\n'
        '[[units]]\nid = "boss"\nname = "Lt Boss"\ncls = "R3"\nweapons = ["AR"]\nroles = ["commander"]\n'
        '[[units]]\nid = "leo"\nname = "Leopard"\nkind = "vehicle"\ncls = "tank"\nweapons = ["TANKGUN", "HMG"]\n'
        'roles = ["tracked"]\n'
        '[[units]]\nid = "fire"\nname = "Spr Fire"\ncls = "R3"\nweapons = ["FLAMER"]\n'
        '[[units]]\nid = "tube"\nname = "Pte Tube"\ncls = "R3"\nweapons = ["MORTAR"]\n',
        encoding="utf-8",
    )
    with closing(Game.new(tmp_path / "g.ft", "breaking-news", seed=1)) as g:
        g.execute("scenario open", role=REFEREE)
        out = g.execute(f"roster {path} regulars limit=150", role=REFEREE)
        assert g.state.units["leo"].weapons == ("TANKGUN", "HMG")
        # 12 (Lt Boss) + 50 (the tank, gun and MG in) + 12 + 7 (flamethrower) + 12 + 15 (mortar)
        assert facts(out, ev.Noted)[-1].text == "regulars: Armour, 108 points of 150"


def test_a_scenario_file_with_a_gun_on_a_man_is_refused(tmp_path):
    text = URBAN_ARMOUR.read_text(encoding="utf-8").replace('weapons = ["FLAMER"]', 'weapons = ["TANKGUN"]')
    with pytest.raises(ScenarioError, match=r"units\[\d+\]\.weapons\[0\] = 'TANKGUN': a man cannot carry TANKGUN"):
        parse_scenario(FORMAT, text, "bad.toml")


# ------------------------------------------------------------------ playing it


def _game(tmp_path: Path, active: str, *options: str) -> Game:
    g = Game.new(tmp_path / f"{active}{len(options)}.ft", "breaking-news", seed=7)
    g.execute("scenario urban-armour", role=REFEREE)
    for name in options:
        g.execute(f"option {name} on", role=REFEREE)
    g.execute("next", role=REFEREE)
    to_activation(g, active)
    return g


@pytest.fixture
def regulars(tmp_path):
    with closing(_game(tmp_path, "regulars")) as g:
        yield g


@pytest.fixture
def irregulars(tmp_path):
    with closing(_game(tmp_path, "irregulars")) as g:
        yield g


@pytest.fixture
def deviating(tmp_path):
    """Regulars active, with the optional deviation rule (§8.0.2)."""
    with closing(_game(tmp_path, "regulars", "deviation")) as g:
        yield g


def _notes(out) -> str:
    return " | ".join(n.text for n in facts(out, ev.Noted))


def _labels(roll) -> list[str]:
    return [m.label for m in roll.mods]


def test_pistol_reaches_10_cm(regulars):
    """§8.0 Pistol: 3+ with 1 die, 10 cm at most.  Doc Riva (R4) hits Kid with a 3; Kid
    (Irr3, save 5+) saves with a 5 and is suppressed (§10.0)."""
    refused(regulars, "@regulars fire riva kid range=11", "reaches 10 cm at most", rule="T-08")
    out = regulars.execute("fire riva kid range=10 dice=3,5", role="regulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, to_hit.outcome, save.target, save.outcome) == (3, "1 hit", 5, "saved: suppressed")
    assert "suppressed" in status(regulars, "kid")


def test_rifle_bands(regulars):
    """§8.0 (the Italian draft's rifle row, BN-C-RIFLE): 3/4/5/6, 1 die.  Landi at 60 cm
    needs 5; Idris (Irr2, 5+) fails his save with a 4."""
    out = regulars.execute("fire landi idris range=60 dice=5,4", role="regulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, len(to_hit.faces), save.target) == (5, 1, 5)
    assert plain(regulars.state.units["idris"].out) == "killed by regulars"


def test_assault_rifle_aimed_and_burst(regulars):
    """§8.0 Assault Rifle: aimed 4+ at 30 cm with 1 die; burst 6+ at 40 cm with 3 dice.

    Digest: AMB-22, FIRE-3, T-08.
    """
    refused(regulars, "@regulars fire ferro idris range=60 burst", "burst fire cannot reach 60 cm", rule="T-08")
    out = regulars.execute("fire ferro kid range=30 dice=4,2", role="regulars")
    assert rolls(out)[0].target == 4 and len(rolls(out)[0].faces) == 1
    assert plain(regulars.state.units["kid"].out) == "killed by regulars"  # save 5+, a 2
    out = regulars.execute("fire pace idris range=40 burst dice=6,6,1,5,5", role="regulars")
    to_hit, saves = rolls(out)
    assert (to_hit.target, to_hit.outcome, saves.faces) == (6, "2 hits", (5, 5))


def test_sniper_ignores_cover_and_dodges(regulars):
    """§8.0: cover is not applicable to snipers, and a sniper's fire cannot be dodged
    (§6.5).  Greco at 60 cm needs his band's 4 with no modifier, though Warsame dodged
    behind cover.  Warsame (Irr1, 4+) saves with §9.0's +1 as a leader (one +1, not
    cumulative with his cover); a 3 + 1 passes, and being in cover he drops out of
    sight (§10.0)."""
    regulars.execute("react-dodge warsame 3", role="irregulars")
    out = regulars.execute("fire greco warsame range=60 cover dice=4,3", role="regulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, to_hit.mods) == (4, ())
    assert (save.target, _labels(save)) == (4, ["team leader"])
    assert {"suppressed", "hidden"} <= set(status(regulars, "warsame"))


def test_smg_burst(irregulars):
    """§8.0 SMG: 4+ at 20 cm with 3 dice; Kid is Irr3, +1 on small arms (BN-C-CLASS-FIRE).
    Two 5s hit Lt Ferro (R3, 3+, +1 as the commander): 2 and 3 both pass."""
    refused(irregulars, "@irregulars fire kid ferro range=60", "cannot reach 60 cm", rule="T-08")
    out = irregulars.execute("fire kid ferro range=20 dice=5,5,4,2,3", role="irregulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, _labels(to_hit), to_hit.outcome) == (5, ["Irr3 firing"], "2 hits")
    assert (save.target, save.outcome) == (3, "saved: suppressed")


def test_lmg_burst_split(regulars):
    """§8.0: a burst's dice may be split between targets within 5 cm (BN-C-SPLIT).  The LMG
    at 40 cm needs 5: Kid gets 5,1 (one hit, saved with a 5), Idris 6,6 (two hits; 5 and
    2: the 2 kills him).

    Digest: AMB-28, FIRE-8.
    """
    out = regulars.execute("fire sora kid idris range=40 split=2,2 dice=5,1,6,6,5,5,2", role="regulars")
    kid_hit, idris_hit, kid_save, idris_save = rolls(out)
    assert (kid_hit.target, kid_hit.faces, idris_hit.faces) == (5, (5, 1), (6, 6))
    assert kid_save.outcome == "saved: suppressed" and idris_save.faces == (5, 2)
    assert plain(regulars.state.units["idris"].out) == "killed by regulars"


def test_mmg_with_one_crew(irregulars):
    """§8.0: an MMG with one crew is +1 (not on a mount or turret: a vehicle's MG never
    is).  At 40 cm the MMG needs 5 + 1; one 6 of four dice hits Sora, who saves."""
    refused(irregulars, "@irregulars fire technical sora range=40 lone", "mount or turret", rule="FIRE-1")
    refused(irregulars, "@irregulars fire idris sora range=40 lone", "lone is for an MMG or HMG", rule="FIRE-1")
    out = irregulars.execute("fire guled sora range=40 lone dice=6,1,1,1,4", role="irregulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, len(to_hit.faces), _labels(to_hit)) == (6, 4, ["one crew on the MG"])
    assert save.outcome == "saved: suppressed"


def test_hmg_against_a_protected_vehicle(irregulars):
    """§9.2: a protected vehicle saves 6 against an HMG; failing by 3 it explodes and the
    man inside saves at 3+ (§9.1), getting out suppressed.  The technical's HMG at 60 cm:
    5 dice needing 5; one hit; the VM90's 3 fails by 3; Neri's 4 saves."""
    out = irregulars.execute("fire technical vm90 range=60 dice=5,1,1,1,1,3,4", role="irregulars")
    to_hit, vsave, crew = rolls(out)
    assert (to_hit.target, len(to_hit.faces)) == (5, 5)
    assert (vsave.target, vsave.outcome) == (6, "explodes")
    assert (crew.target, crew.outcome) == (3, "saved: suppressed")
    assert plain(irregulars.state.units["vm90"].out) == "destroyed by irregulars"
    assert "in-vehicle" not in status(irregulars, "neri") and "suppressed" in status(irregulars, "neri")


def test_grenade_area_and_deviation(deviating):
    """§8.0 Hand grenade 4+ within 10 cm, a 5 cm area (§8.0.1): Ferro's 4 hits Kid and
    Idris beside him takes a hit too.  §8.0.2 b): Landi's 2 misses by 2 = 6 cm, and a
    direction 4 puts it to the right.

    Digest: FIRE-10, T-10.
    """
    out = deviating.execute("fire ferro kid range=8 weapon=GRENADE also=idris dice=4,5,5", role="regulars")
    to_hit, kid, idris = rolls(out)
    assert to_hit.target == 4 and kid.outcome == idris.outcome == "saved: suppressed"
    out = deviating.execute("fire landi warsame range=8 weapon=GRENADE dice=2,4", role="regulars")
    miss, direction = rolls(out)
    assert (miss.outcome, direction.outcome) == ("miss", "right")
    assert "lands 6 cm right of Warsame" in _notes(out) and "blast ... source=grenade" in _notes(out)


def test_flamethrower_ignores_cover_within_10_cm(regulars):
    """§8.0 Flamethrower: 4+ within 10 cm, and "behind cover" is not applicable to it.
    The save keeps §9.0's +1 for protection: Kid's 4 + 1 passes.

    Digest: AMB-29.
    """
    refused(regulars, "@regulars fire vigo kid range=11", "reaches 10 cm at most", rule="T-08")
    out = regulars.execute("fire vigo kid range=10 cover dice=4,4", role="regulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, to_hit.mods, to_hit.outcome) == (4, (), "1 hit")
    assert (save.target, _labels(save), save.outcome) == (5, ["behind protection"], "saved: suppressed")


def test_rpg_deviates_on_row_a(tmp_path):
    """§8.0.2 a): Hirsi's RPG at 60 cm needs 6 (no class penalty: not small arms); a 3
    misses by 3 = 9 cm, and direction 4 is left (the table, not the example: BN-C-RPG-
    DIRECTION).  The blast there hits the Puma: light armour saves 4+ against light AT."""
    with closing(_game(tmp_path, "irregulars", "deviation")) as g:
        out = g.execute("fire hirsi sora range=60 dice=3,4", role="irregulars")
        miss, direction = rolls(out)
        assert (miss.target, miss.mods, direction.outcome) == (6, (), "left")
        assert "lands 9 cm left of Cpl Sora" in _notes(out) and "source=rpg" in _notes(out)
        out = g.execute("blast puma source=rpg by=irregulars dice=4", role=REFEREE)
        assert (rolls(out)[0].target, rolls(out)[0].outcome) == (4, "saved")


def test_grenade_launcher_deviation_and_smoke(tmp_path):
    """§8.0.2 b) for launchers (BN-C-GL-DEVIATION): Yusuf's GL at 40 cm needs 5; a 2
    misses by 3 = 9 cm, direction 5 = over.  §8.9: Pace's smoke from his launcher at 40
    cm (5+) with a 3 lands 2 x 3 = 6 cm off.

    Digest: AMB-30, DIFF-30, SMK-1.
    """
    with closing(_game(tmp_path, "irregulars", "deviation")) as g:
        out = g.execute("fire yusuf ferro range=40 weapon=GL dice=2,5", role="irregulars")
        assert rolls(out)[1].outcome == "over" and "lands 9 cm beyond Lt Ferro" in _notes(out)
        assert "source=launcher" in _notes(out)
        out = g.execute("blast ferro source=launcher by=irregulars dice=3", role=REFEREE)
        assert rolls(out)[0].target == 3  # R3, his +1 as a leader
    with closing(_game(tmp_path, "regulars")) as g:
        out = g.execute("smoke pace range=40 weapon=GL dice=3", role="regulars")
        assert rolls(out)[0].target == 5 and "6 cm off" in _notes(out)


def test_milan_against_the_tank(regulars):
    """§9.2: a tank's side saves 5+ against heavy AT; failing by 3 it explodes, and its
    crew saves at 3+ (§9.1, English draft).  Bassi's Milan at 40 cm needs 5: the 5 hits
    the T-55's flank; its 2 fails by 3; Omar's 3 saves and he bails out suppressed."""
    out = regulars.execute("fire bassi t55 range=40 flank dice=5,2,3", role="regulars")
    to_hit, vsave, crew = facts(out, ev.Rolled)
    assert (to_hit.roll.target, vsave.roll.target, vsave.roll.outcome) == (5, 5, "explodes")
    assert (crew.unit, crew.roll.target) == ("omar", 3)
    assert plain(regulars.state.units["t55"].out) == "destroyed by regulars"
    assert "suppressed" in status(regulars, "omar") and not plain(regulars.state.units["omar"].out)


def test_tank_gun_hits_and_deviates(deviating):
    """§8.0 Tank row: not within 10 cm; 4+ at 30 cm.  §7.0: aimed at the structure beside a
    man, the 7 cm area (§8.0.1) does the rest: Warsame saves with his 4 (4+, Irr1, +1 as
    commander), Kid beside him fails with a 2.  §8.0.2 c): the Centauro's 2 misses by 2 =
    10 cm (5 cm a point), direction 1 = over.  §6.1: a tank that fired cannot move.

    Digest: FIRE-9.
    """
    refused(deviating, "@regulars fire ariete warsame range=8 weapon=TANKGUN", "closer than 10 cm", rule="T-08")
    out = deviating.execute("fire ariete warsame range=30 weapon=TANKGUN also=kid dice=4,4,2", role="regulars")
    to_hit, warsame, kid = rolls(out)
    assert (to_hit.target, warsame.outcome, kid.outcome) == (4, "saved: suppressed", "failed: out of action")
    assert "aimed at the structure" in _notes(out)
    refused(deviating, "@regulars move ariete", "already acted|gun or moves", rule="MOV-2")
    out = deviating.execute("fire centauro idris range=30 weapon=TANKGUN dice=2,1", role="regulars")
    miss, direction = rolls(out)
    assert (miss.outcome, direction.outcome) == ("miss", "over")
    assert "lands 10 cm beyond Idris" in _notes(out) and "source=tank" in _notes(out)
    out = deviating.execute("blast idris hirsi source=tank by=regulars dice=5,1", role=REFEREE)
    assert [r.outcome for r in rolls(out)] == ["saved: suppressed", "failed: out of action"]


def test_light_mortar_on_the_table(irregulars):
    """§8.0 mortars row: 5+ at 60 cm (Irr1: no class penalty, not small arms); a hit puts
    the template on the target and the men under it (§8.0.1, 5 cm) take a hit each.
    Then §8.5 without the deviation option: a miss lands 3 cm a point off, where the
    opponent chooses.

    Digest: DIFF-25, MORT-1.
    """
    refused(irregulars, "@irregulars fire abdi ferro range=9", "closer than 10 cm", rule="T-08")
    out = irregulars.execute("fire abdi sora range=60 also=landi dice=5,4,2", role="irregulars")
    to_hit, sora, landi = rolls(out)
    assert (to_hit.target, to_hit.mods, sora.outcome) == (5, (), "saved: suppressed")
    assert plain(irregulars.state.units["landi"].out) == "killed by irregulars"
    next_turn(irregulars, "irregulars")
    out = irregulars.execute("fire abdi vigo range=60 dice=3", role="irregulars")
    assert "the mortar template lands 6 cm from Spr Vigo, the opponent chooses where (§8.5)" in _notes(out)


def test_tank_moves_is_hit_and_its_crew_saves(regulars):
    """§6.0 tracked: 30 - 2d6, the most it may go (BN-C-VEHICLE-MOVE).  §9.2: small arms
    cannot hurt a tank; an RPG on its front needs 1+, which any die passes."""
    out = regulars.execute("move ariete 20 dice=6,6", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 18
    next_turn(regulars, "irregulars")
    out = regulars.execute("fire kid ariete range=20 dice=6,6,6", role="irregulars")
    assert "unharmed" in _notes(out) and len(rolls(out)) == 1
    out = regulars.execute("fire hirsi ariete range=20 dice=4,1", role="irregulars")
    assert (rolls(out)[1].target, rolls(out)[1].outcome) == (1, "saved")
    assert regulars.state.units["ariete"].in_play and regulars.state.vars["secret.aboard.orsi"] == "ariete"


def test_at_table_dice_a_tanks_front_save_of_1_plus_is_drawn_not_asked(regulars):
    """Ruling CORE-CERTAIN, §9.2: an RPG on a tank's front needs 1+, which any die passes:
    at a table with table dice the game draws it (not asked, not typed) and says why; the
    to-hit die is the player's, typed.  The save verifies as any drawn die."""
    regulars.execute(f"{TABLE_DICE} on", role=REFEREE)
    next_turn(regulars, "irregulars")
    out = regulars.submit("fire hirsi ariete range=20", role="irregulars", faces=[4])
    assert isinstance(out, Outcome)  # no second die asked
    to_hit, save = rolls(out)
    assert (to_hit.faces, to_hit.manual) == ((4,), True)
    assert (save.target, save.manual, save.outcome, len(save.faces)) == (1, False, "saved", 1)
    assert "no need to roll: any face succeeds (needs 1+)" in _notes(out)
    (note,) = [e for e in out.events if isinstance(e, ev.Noted) and "need" in str(e.text)]
    with reading("it"):
        assert regulars.describe(note, "irregulars") == "nota: non serve tirare: ogni faccia riesce (serve 1+)"
    assert regulars.state.units["ariete"].in_play
    checked = verify(regulars.path)
    assert checked.ok and checked.replayed is not None and checked.replayed.commands > 0


def test_at_table_dice_a_tanks_side_save_of_2_plus_is_asked(regulars):
    """§9.2: the same RPG in the tank's side needs 2+: a 1 fails, so the die is asked as before."""
    regulars.execute(f"{TABLE_DICE} on", role=REFEREE)
    next_turn(regulars, "irregulars")
    asked = regulars.submit("fire hirsi ariete range=20 flank", role="irregulars", faces=[4])
    assert isinstance(asked, DiceNeeded) and "needs 2+" in asked.request.text()
    out = regulars.submit("fire hirsi ariete range=20 flank", role="irregulars", faces=[4, 1])
    assert [(r.faces, r.manual, r.outcome) for r in rolls(out)][1] == ((1,), True, "knocked out")
    assert "no need to roll" not in _notes(out)


def test_a_1_plus_save_typed_before_the_ruling_still_verifies(regulars):
    """A save made before ruling CORE-CERTAIN typed the 1+ die: typed faces are taken as they
    come (the line's or the prompt's), recorded typed, and the save verifies so."""
    regulars.execute(f"{TABLE_DICE} on", role=REFEREE)
    next_turn(regulars, "irregulars")
    out = regulars.submit("fire hirsi ariete range=20", role="irregulars", faces=[4, 3])
    save = rolls(out)[1]
    assert (save.faces, save.manual, save.outcome) == ((3,), True, "saved")
    assert "no need to roll" not in _notes(out)
    assert verify(regulars.path).ok


def test_heavy_vehicle_saves_and_its_crew(irregulars):
    """§9.2 heavily armoured vs a tank gun: 5+; the 2 fails by 3 and it explodes; §9.1:
    the men inside save at 2+: Dami's 2 saves."""
    out = irregulars.execute("fire t55 centauro range=60 weapon=TANKGUN dice=5,2,2", role="irregulars")
    to_hit, vsave, crew = rolls(out)
    assert (to_hit.target, vsave.target, vsave.outcome, crew.target) == (5, 5, "explodes", 2)
    assert "suppressed" in status(irregulars, "dami") and not plain(irregulars.state.units["dami"].out)


def test_light_armoured_vehicle_saves(irregulars):
    """§8.8: the men inside an armoured vehicle cannot be hit, those in a protected one are
    in cover.  §9.2 light armour vs light weapons: 3+.  Idris's LMG at 40 cm needs 5 + 1 (Irr2):
    two 6s; the Puma's 3 passes, its 2 fails by 1: knocked out, Gallo stays aboard.

    Digest: AMB-39, AMB-45, VF-1.
    """
    # §8.8: only a protected (not armoured) vehicle's men can be shot at, and they are in cover
    refused(irregulars, "@irregulars fire idris gallo range=40", "inside Puma, an armoured vehicle", rule="VF-1")
    refused(irregulars, "blast gallo source=grenade by=irregulars", "inside Puma", rule="VF-1")
    out = irregulars.execute("fire warsame neri range=40 dice=3", role="irregulars")
    assert _labels(rolls(out)[0]) == ["target behind cover"]
    out = irregulars.execute("fire idris puma range=40 dice=6,6,1,1,3,2", role="irregulars")
    to_hit, vsave = rolls(out)
    assert (to_hit.target, to_hit.outcome, vsave.target, vsave.outcome) == (6, "2 hits", 3, "knocked out")
    assert plain(irregulars.state.units["puma"].out) == "knocked out by irregulars"
    assert irregulars.state.vars["secret.aboard.gallo"] == "puma" and irregulars.state.units["gallo"].in_play


def test_technical_has_no_save_and_loses_its_driver(regulars):
    """Unprotected vehicles (BN-C-VEHICLE-SAVE): small arms hit the crew, not the truck;
    §8.8: its driver hit and out, it runs on for a whole move.  A Milan then needs an
    impossible 7: a 4 fails by 3 and it explodes.

    Digest: AMB-39.
    """
    out = regulars.execute("fire sora technical range=40 dice=5,1,1,1", role="regulars")
    assert "unharmed" in _notes(out)
    out = regulars.execute("fire landi gedi range=40 dice=4,1", role="regulars")
    assert plain(regulars.state.units["gedi"].out) and "runs on for a whole move" in _notes(out)
    out = regulars.execute("fire bassi technical range=40 dice=5,4", role="regulars")
    assert (rolls(out)[1].target, rolls(out)[1].outcome) == (7, "explodes")


def test_gunship_flies_and_fires_at_its_longest_band(regulars):
    """§8.4: a helicopter moves without limit and fires as an HMG at maximum distance:
    6+ with 5 dice whatever the range (BN-C-HELICOPTER).

    Digest: ART-6.
    """
    out = regulars.execute("move mangusta 120", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 120 and not rolls(out)
    out = regulars.execute("fire mangusta kid range=15 dice=6,1,1,1,1,5", role="regulars")
    assert (rolls(out)[0].target, len(rolls(out)[0].faces)) == (6, 5)


def test_leaders_save_and_suppression_test(tmp_path):
    """§9.0: the team leader saves with +1; §10.0: a suppressed man tests before he acts,
    1d6 at or under his class's value plus the Leadership of a leader within 5 cm
    (BN-C-SUP-LEADER).  Kid's two hits on Bassi (R3 3+, +1 as a leader) are saved; next
    turn Sora, suppressed, tests at 4 + Lt Ferro's 2."""
    with closing(_game(tmp_path, "irregulars")) as g:
        out = g.execute("fire kid bassi sora range=20 split=2,1 dice=5,5,6,2,3,4", role="irregulars")
        bassi, sora = [r for r in rolls(out) if r.purpose == "save"]
        assert (bassi.target, _labels(bassi), bassi.outcome) == (3, ["team leader"], "saved: suppressed")
        assert sora.outcome == "saved: suppressed"
        next_turn(g, "regulars")
        out = g.execute("fire sora kid range=20 leader=ferro dice=6", role="regulars")
        assert len(rolls(out)) == 1 and "suppressed" in status(g, "sora")  # a 6 always fails
        out = g.execute("fire bassi kid range=8 weapon=GRENADE leader=ferro dice=3,1", role="regulars")
        test = rolls(out)[0]
        assert (test.target, test.under) == (5, True)  # his own 4 + Ferro's 2, but a 6 always fails


def test_medic_stabilises(tmp_path):
    """§9.3: a man put out of action rolls 1d6: 3-6 is wounded for that many turns; a
    medic in contact stabilises him (BN-C-WOUNDED).

    Digest: WND-2.
    """
    with closing(_game(tmp_path, "irregulars", "wounded")) as g:
        g.execute("fire kid sora range=20 dice=5,5,1,1,4,4", role="irregulars")
        assert plain(g.state.units["sora"].out) == "wounded by irregulars"
        next_turn(g, "regulars")
        g.execute("medic riva sora", role="regulars")
        assert plain(g.state.units["sora"].out) == "stabilised, wounded by irregulars"


def test_press_and_civilians_are_fielded(regulars):
    """Extras: Media and Civilians: the journalist and the civilian are figures; a
    civilian in the line of fire saves each missed shot at 4+ with +1 (§8.7, BN-C-
    CIVILIAN-SAVE).

    Digest: AMB-59.
    """
    assert regulars.state.units["moro"].kind == "journalist"
    out = regulars.execute("fire sora kid range=40 line=trader dice=1,1,1,1,3,4,5,6", role="regulars")
    ff = rolls(out)[1]
    assert (ff.target, len(ff.faces), _labels(ff)) == (4, 4, ["friendly fire"])


def test_vehicles_fire_by_opportunity_but_guns_and_mortars_do_not(regulars):
    """§8.2: a vehicle of the reacting player may fire by opportunity; heavy AT, tank guns
    and mortars may not.  The technical's HMG answers Ferro's move at 40 cm: 5+, 5 dice.

    Digest: OPP-1, OPP-4.
    """
    regulars.execute("move ferro 10", role="regulars")
    for line in ("react-fire abdi ferro range=40", "react-fire t55 ferro range=40 weapon=TANKGUN"):
        with pytest.raises(Refused, match="cannot fire by opportunity") as no:
            regulars.execute(line, role="irregulars")
        names(no.value, "OPP-1")
    out = regulars.execute("react-fire technical ferro range=40 dice=5,1,1,1,1,3", role="irregulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, len(to_hit.faces), save.outcome) == (5, 5, "saved: suppressed")
