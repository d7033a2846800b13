"""Bassa Intensità 1.9: the damage, morale, command, HE, indirect-fire and vehicle
tables against the book, and their pure rules with exact dice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.language.i18n import plain
from core.log.events import Mod
from core.log.state import Unit
from core.rulesets.bassa_intensita import rules, squads
from core.rulesets.bassa_intensita.rules import damage, he, morale
from core.rulesets.bassa_intensita.tables import (
    air,
    command_distance,
    high_explosive,
    indirect,
    move_modifiers,
    special,
    vehicle_types,
    weapons,
)
from core.rulesets.bassa_intensita.tables import damage as damage_tables
from core.rulesets.bassa_intensita.tables import morale as morale_tables

BOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "bassa-intensita-1.9-it.md"


@pytest.fixture(scope="module")
def book() -> list[str]:
    if not BOOK.exists():
        pytest.skip(f"rulebook not found at {BOOK}")
    return BOOK.read_text(encoding="utf-8").splitlines()


def _section(lines: list[str], heading: str, size: int = 14) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    return lines[start : start + size]


def _cells(lines: list[str], label: str) -> list[str]:
    for line in lines:
        cells = [c.strip() for c in line.split("\t") if c.strip()]
        if cells and cells[0].startswith(label):
            return cells[1:]
    raise AssertionError(f"no row {label!r}")


def _dice_range(cell: str) -> tuple[int | None, int | None]:
    """'1 o meno' → (None, 1); '2, 3, 4' → (2, 4); '8 o più' → (8, None); '10' → (10, 10)."""
    numbers = [int(n) for n in re.findall(r"\d+", cell)]
    if "meno" in cell:
        return None, numbers[0]
    if "più" in cell:
        return numbers[0], None
    return numbers[0], numbers[-1]


# ------------------------------------------------------------------- tables vs book


def test_infantry_damage_table_matches_the_book(book):
    """Rules: BI-R110."""
    lines = _section(book, "DANNI CONTRO FANTERIA", 8)
    assert [r.id for r in damage_tables().infantry] == ["near-miss", "shocked", "wounded", "seriously-wounded", "dead"]
    for row in damage_tables().infantry:
        line = next(x for x in lines if f"\t{row.it}\t" in x)
        assert _dice_range(line.split("\t")[0]) == (row.low, row.high), row.id
        assert row.morale == ("Controllare il morale" in line), row.id


def test_vehicle_damage_tables_match_the_book(book):
    """Rules: BI-R120."""
    unarmoured = _section(book, "DANNI CONTRO VEICOLI NON BLINDATI", 7)
    labels = {"near-miss": "Mancato di poco", "slowed": "Movimento dimezzato", "immobilised": "Immobilizzato"}
    for row in damage_tables().unarmoured:
        line = next(x for x in unarmoured if x.split("\t")[0] and labels.get(row.id, row.it) in x)
        assert _dice_range(line.split("\t")[0]) == (row.low, row.high), row.id
        assert row.morale == ("morale" in line), row.id
        assert row.morale_mod == (-2 if "-2" in line else 0), row.id
    armoured = _section(book, "DANNI CONTRO VEICOLI BLINDATI", 10)
    for row in damage_tables().armoured:
        it = {"slowed": "Movimento dimezzato", "immobilised": "Immobilizzato"}.get(row.id, row.it)
        line = next(x for x in armoured if it in x)
        assert _dice_range(line.split("\t")[0]) == (row.low, row.high), row.id
        assert row.morale == ("morale" in line), row.id
        assert row.morale_mod == (-2 if "Immobilizzato" in line else 0), row.id


def test_damage_modifiers_match_the_book(book):
    """Rules: BI-R111."""
    text = "\n".join(book)
    mods = {m.id: m for m in damage_tables().modifiers}
    assert (mods["frag-vest"].add, mods["bullet-vest"].add, mods["sniper"].add) == (-1, -2, 1)
    assert "-1 se il bersaglio ha un Giubbotto Antischegge e di -2 se ha un Giubbotto Antiproiettile" in text
    assert "+1 se a sparare è stato uno Sniper" in text
    assert (mods["machine-gun"].add, mods["grenade-rocket"].add, mods["gun-mortar"].add) == (1, 2, 4)
    assert "+ 1 se a sparare è stata una mitragliatrice, di +2" in text and "+4 se a sparare" in text
    assert mods["indirect"].add == -4 and "modificato di -4 se il veicolo" in text


def test_penetration_table_matches_the_book(book):
    """Rules: BI-R130."""
    lines = _section(book, "PENETRAZIONE CORAZZA", 14)
    for row in damage_tables().penetration:
        assert [int(c) for c in _cells(lines, row.it)] == [row.tank, row.other], row.id
    text = "\n".join(book)
    pm = {m.id: m.add for m in damage_tables().penetration_mods}
    assert pm == {"flank": 2, "advanced-armour": -1, "hightech-armour": -2}
    assert "+2 se il veicolo è stato colpito sul fianco o sul retro" in text


def test_morale_tables_match_the_book(book):
    """Rules: BI-R181."""
    lines = _section(book, "MORALE :", 40)
    text = "\n".join(lines)
    t = morale_tables()
    assert t.bonus == 3 and "aumentata di +3" in text
    for trigger in t.triggers:
        assert trigger.it in text, trigger.id
    for m in t.modifiers:
        line = next(x for x in lines if x.startswith(m.it))
        value = line.split(":")[-1].strip()
        assert int(value.replace(" ", "")) == m.add, m.id
    assert "+1 o +2" in text  # fanatics: the piece's stat, capped at 2
    effects = _section(book, "EFFETTI DEL MORALE", 6)
    for row in t.effects:
        line = next(x for x in effects if f"\t{row.it}\t" in x)
        low, high = _dice_range(line.split("\t")[0])
        assert (row.low or 1, row.high or 6) == (low, high), row.id
    em = {m.id: m.add for m in t.effect_modifiers}
    assert em == {"undamaged-armour": -2, "elite": -1}
    assert "non danneggiati hanno un modificatore al dado di -2, le unità di qualità Elite di -1" in "\n".join(book)


def test_command_distance_matches_the_book(book):
    """Rules: BI-R021."""
    lines = _section(book, "Abilità comandante", 6)
    for row in command_distance().values():
        cells = _cells(lines, row.it)
        squad = int(re.search(r"\d+", cells[0]).group())
        section = None if cells[1] == "Non consentito" else int(re.search(r"\d+", cells[1]).group())
        assert (squad, section) == (row.squad, row.section), row.ability


def test_he_tables_match_the_book(book):
    """Rules: BI-R090, BI-R091."""
    dev = _section(book, "Dado (1d6)\tEffetto", 11)
    for row in high_explosive().deviation:
        line = next(x for x in dev if x.split("\t")[-1].startswith(row.it.split(",")[0]))
        low, high = _dice_range(line.split("\t")[0])
        assert (row.low or 1, row.high or 10) == (low, high), row.id
    areas = _section(book, "Arma\tDistanza Breve", 8)
    for a in high_explosive().areas:
        cells = _cells(areas, a.it)
        assert [int(re.search(r"\d+", c).group()) for c in cells] == [a.short, a.long], a.id
    chances = _section(book, "Terreno\tDistanza Breve", 5)
    for c in high_explosive().chances:
        assert [int(x) for x in _cells(chances, c.it)] == [c.short, c.long], c.terrain
    assert high_explosive().big_bonus == 1
    assert any("+1 se sotto tiro di cannoni/mortai >103mm" in x for x in book)


def test_ranging_tables_match_the_book(book):
    """Rules: BI-R103."""
    for table, heading, dice in (
        ("precise", 'DEVIAZIONE TIRO INDIRETTO "PRECISO"', "2d6"),
        ("imprecise", 'DEVIAZIONE TIRO INDIRETTO "IMPRECISO"', "4d10"),
    ):
        lines = _section(book, heading, 10)
        for row in (r for r in high_explosive().ranging if r.table == table):
            line = next(x for x in lines if f"\t{row.it}\t" in x)
            low, high = _dice_range(line.split("\t")[0])
            assert (row.low or 1, row.high or 10) == (low, high), (table, row.id)
            effect = line.split("\t")[2].replace(" ", "")
            assert ("lungo" in effect) == (row.long > 0) and ("corto" in effect) == (row.long < 0)
            assert ("destra" in effect) == (row.side > 0) and ("sinistra" in effect) == (row.side < 0)
            if row.long:
                assert dice in effect
        count, sides = he.offset_dice(table)
        assert f"{count}d{sides}" == dice


def test_vehicle_and_movement_tables_match_the_book(book):
    """Rules: BI-R042, BI-R045, BI-AMB-14."""
    lines = _section(book, "VEICOLO\tSU STRADA", 5)
    for v in (v for v in vehicle_types().values() if v.id != "helicopter"):
        cells = _cells(lines, v.it)
        assert [int(re.search(r"\d+", c).group()) for c in cells] == [v.road, v.off_road], v.id
    mods = _section(book, "MODIFICATORI AL MOVIMENTO TRUPPE APPIEDATE", 13)
    for m in move_modifiers().values():
        cell = _cells(mods, m.it)[0]
        if m.whole_turn:
            assert cell == "1 turno", m.id
        else:
            assert int(cell.replace(" ", "").strip("-%")) == m.percent, m.id


def test_air_tables_match_the_book(book):
    """Rules: BI-R260, BI-R263, BI-AMB-54."""
    lines = _section(book, "Arma\tAerei\tElicotteri", 6)
    for row in air().aa:
        cells = _cells(lines, row.it)
        assert [None if c == "NO" else int(c) for c in cells] == [row.aircraft, row.helicopter], row.weapon
    assert (
        "(cm.80 max)" in next(x for x in lines if x.startswith("Lanciarazzi anticarro")) and air().aa[-1].max_cm == 80
    )
    text = "\n".join(book)
    assert air().quality == {"elite": 2, "veteran": 1, "regular": 0, "recruit": -1, "rabble": -2}
    assert '+2 per unità di Qualità "Elite", +1 per Veterani, -1 per Reclute e -2 per Marmaglia' in text
    heli = _section(book, "Dado (2d6)\tEffetto", 8)
    for row in air().helicopter:
        line = next((x for x in heli if x.split("\t")[-1] == row.it), None) or next(x for x in heli if row.it in x)
        assert _dice_range(line.split("\t")[0]) == (row.low, row.high), row.id
        assert row.morale == ("Controllo del Morale" in line), row.id
    assert "2d6 x 10cm" in text and air().move_per_pip == 10
    assert "con un risultato di 1 o 2 atterra" in text and air().rotor_fails == 2
    assert "50% di possibilità di essere abbattuto" in text and air().aircraft.shot_down == 3
    assert "ottenendo un risultato di 6 su 1d6" in text and "per 3 turni consecutivi" in text


def test_only_automatic_or_he_anti_aircraft_weapons_put_a_crew_under_fire(book):
    """A.13.2 "Sotto tiro di Alto Esplosivo o armi automatiche: -2": the AA machine gun
    and autocannon are automatic, the AT rocket is the HE of the LAW and RPG rows
    (A.9.2); the missiles are neither (ruling BI-AA-MORALE).
    Rules: BI-AMB-41."""
    assert "Sotto tiro di Alto Esplosivo o armi automatiche : -2" in book
    assert {row.weapon for row in air().aa if row.under_fire} == {"aa-mg", "aa-cannon", "at-rocket"}
    assert all(weapons()[w].target == "he" for w in next(r for r in air().aa if r.weapon == "at-rocket").carried_by)


def test_weapon_classes_for_vehicles_and_he_follow_the_book():
    w = weapons()
    assert {i for i, x in w.items() if x.vehicle_mod == "machine-gun"} == {"lmg", "mg"}
    assert w["rpg"].penetration == w["law"].penetration == "at-rocket"
    assert w["autocannon"].penetration == "at-grenade-autocannon"
    assert not w["assault-rifle"].penetration and not w["mg"].penetration  # ruling BI-NO-PEN
    assert all(x.he_area for x in w.values() if x.he)


# ------------------------------------------------------------------ damage, exact dice


def _man(**kw) -> Unit:
    return Unit(id="m", name="M", side="a", **kw)


def test_infantry_damage_rows_and_modifiers():
    """Rules: BI-R001, BI-R110, BI-R111."""
    t = damage_tables().mods("infantry")
    vest = (Mod("v", t["bullet-vest"].add),)
    assert damage.infantry_result(1, ()).id == "near-miss"
    assert [damage.infantry_result(f, ()).id for f in (2, 5, 6, 8, 9, 10)] == [
        "shocked",
        "shocked",
        "wounded",
        "wounded",
        "seriously-wounded",
        "dead",
    ]
    assert damage.infantry_result(3, vest).id == "near-miss"  # 3 - 2 = 1
    assert damage.infantry_result(10, vest).id == "dead"  # a natural 10 is never modified
    assert damage.infantry_result(9, (Mod("s", 1),)).id == "dead"  # sniper: 9 + 1
    man = _man(roles=("frag-vest", "bullet-vest"))
    assert damage.infantry_mod_ids(man, shooter_sniper=True) == ["bullet-vest", "sniper"]


def test_a_second_wound_kills_and_a_near_miss_never_worsens():
    """Rules: BI-R112, BI-AMB-35."""
    assert damage.wound_after("", "wounded") == "wounded"
    assert damage.wound_after("wounded", "wounded") == "dead"
    assert damage.wound_after("wounded", "seriously-wounded") == "dead"
    assert damage.wound_after("wounded", "shocked") == "wounded"
    assert damage.wound_after("seriously-wounded", "shocked") == "dead"
    assert damage.wound_after("seriously-wounded", "near-miss") == "seriously-wounded"
    assert damage.wound_after("", "near-miss") == ""


def test_unarmoured_damage_natural_one_is_never_modified():
    """Rules: BI-R120, BI-R121."""
    gun = damage.unarmoured_mods(weapons()["gun-77"])
    assert sum(m.value for m in gun) == 4
    assert damage.unarmoured_result(1, gun).id == "near-miss"
    assert damage.unarmoured_result(2, gun).id == "immobilised"  # 2 + 4 = 6
    assert damage.unarmoured_result(4, gun).id == "destroyed"  # 4 + 4 = 8
    assert damage.unarmoured_result(2, ()).id == "slowed"
    assert damage.unarmoured_result(5, ()).id == "immobilised"
    assert damage.unarmoured_result(8, ()).id == "destroyed"
    assert damage.unarmoured_mods(weapons()["assault-rifle"]) == ()


def test_penetration_chance_and_rows():
    """Rules: BI-R130, BI-R131, BI-AMB-25."""
    assert damage.penetration_chance("at-rocket", "tank", [])[0] == 6
    chance, mods = damage.penetration_chance("at-rocket", "other", ["flank", "hightech-armour"])
    assert chance == 8 and sum(m.value for m in mods) == 8
    gun = weapons()["gun-heavy"]
    assert damage.penetration_row(gun) == "tank-gun-100"
    assert damage.penetration_row(gun, gun_mm=120) == "tank-gun-116"
    assert damage.penetration_row(gun, gun_mm=105) == "tank-gun-100"
    assert damage.penetration_row(weapons()["gun-103"], gun_mm=90) == "tank-gun-99"
    assert damage.penetration_row(weapons()["gun-103"], gun_mm=106, recoilless=True) == "recoilless-100"
    assert damage.penetration_row(weapons()["rpg"], gun_mm=120) == "at-rocket"


def test_armoured_damage_rows_and_the_indirect_modifier():
    """Rules: BI-R140, BI-R141."""
    assert [damage.armoured_result(f, ()).id for f in (1, 2, 3, 5, 6, 7, 9)] == [
        "near-miss",
        "radio",
        "slowed",
        "immobilised",
        "turret",
        "weapon",
        "destroyed",
    ]
    indirect = damage.armoured_mods(True)
    assert damage.armoured_result(10, indirect).id == "turret"  # 10 - 4 = 6
    assert damage.armoured_result(5, indirect).id == "near-miss"


# ------------------------------------------------------------------- morale, exact dice


def test_morale_pass_chance_adds_every_modifier():
    # Regular 4 + 3, wounded -3, isolated -2, heavy cover +2
    """Rules: BI-R181."""
    chance, mods = morale.pass_chance(4, ["wounded", "isolated", "heavy-cover"])
    assert chance == 4 and 4 + sum(m.value for m in mods) == 4
    chance, _ = morale.pass_chance(6, ["under-fire"], near_seriously_wounded=2, fanatic=2, table_mod=-2)
    assert chance == 6 + 3 - 2 - 2 + 2 - 2


def test_morale_effects():
    """Rules: BI-R182, BI-R183, BI-R184, BI-AMB-43, BI-AMB-44."""
    assert morale.effect(3, (), already_shocked=False) == "shocked"
    assert morale.effect(3, (), already_shocked=True) == "panic"
    assert morale.effect(5, (), already_shocked=False) == "panic"
    assert morale.effect(6, (), already_shocked=False) == "surrender"
    crew = morale.effect_mods(elite=True, undamaged_armour=True)
    assert sum(m.value for m in crew) == -3
    assert morale.effect(6, crew, already_shocked=False) == "shocked"  # 6 - 3 = 3
    assert morale.effect(1, crew, already_shocked=False) == "shocked"  # 0 or less: shocked


# ---------------------------------------------------------------- squads and movement


def test_leader_ability_and_command_distance():
    """Rules: BI-R020, BI-R021, BI-R022, BI-AMB-09."""
    sgt = Unit(id="s", name="S", side="a", cls="elite", roles=("leader",))
    assert squads.command_range(sgt, section=False) == 16
    rabble = Unit(id="r", name="R", side="a", cls="elite", stats={"ability": 2})
    assert squads.ability(rabble) == "rabble" and squads.command_range(rabble, section=True) is None
    assert squads.one_level_lower("elite") == "veteran" and squads.one_level_lower("rabble") == "rabble"
    men = [Unit(id=str(i), name="x", side="a", cls=c) for i, c in enumerate(["regular", "recruit", "recruit"])]
    assert squads.squad_quality(men) == "recruit"
    assert squads.squad_quality(men[:2]) == "regular"  # a tie goes to the better


def test_motivation_moves_the_number_not_the_tier():
    """Rules: BI-R011, BI-AMB-04."""
    man = Unit(id="m", name="M", side="a", cls="regular", stats={"motivation": 1})
    assert squads.chance(man) == 5
    man.status = ("motivation-1",)
    assert squads.chance(man) == 3


def test_movement_modifiers_add_up_and_round_up():
    """Rules: BI-R002, BI-R042, BI-R045, BI-AMB-12."""
    assert rules.foot_allowance(16, ["door", "wounded"]) == 4  # -75%
    assert rules.foot_allowance(24, ["window", "carrying", "door"]) == 0  # capped at -100%
    assert rules.foot_allowance(8, ["stand-up"]) == 6
    assert rules.foot_allowance(16, ["high-obstacle"]) == 0
    assert rules.vehicle_allowance(120, 20, True, 1, False) == 60
    assert rules.vehicle_allowance(80, 60, False, 2, False) == 15
    assert rules.vehicle_allowance(80, 60, True, 0, True) == 0


# ------------------------------------------------------------------------ HE, exact dice


def test_he_deviation_area_and_chance():
    """Rules: BI-R002, BI-R090, BI-R091, BI-R092, BI-AMB-01, BI-AMB-06, BI-AMB-25."""
    assert he.deviation(2) == ("", 0)
    assert he.deviation(4) == ("long", 50)
    assert he.deviation(10) == ("left", 50)
    assert he.deviation_cm(20, 33) == 7  # 6.6 rounds up
    assert he.area_of(weapons()["rpg"]).short == 3
    assert he.area_of(weapons()["gun-heavy"], gun_mm=155).id == "gun-big"
    assert he.area_by_calibre(81).id == "gun-102" and he.area_by_calibre(60).id == "gun-76"
    area = he.area_of(weapons()["hand-grenade"])
    assert (he.zone(area, 3), he.zone(area, 4), he.zone(area, 7)) == ("short", "long", "")
    assert he.hit_chance("open", "short", False) == 6
    assert he.hit_chance("entrenched", "long", True) == 2


def test_ranging_rows():
    """Rules: BI-R103, BI-AMB-29."""
    assert he.ranging("precise", 2).id == "bullseye"
    row = he.ranging("imprecise", 9)
    assert (row.long, row.side) == (-1, 1)
    assert plain(he.describe_landing(row, 12, 20)) == "12 cm short and 20 cm right"
    assert "lost" in plain(he.describe_landing(he.ranging("imprecise", 1), 0, 0))


def test_special_rules_and_indirect_numbers_match_the_book(book):
    """Rules: BI-R102."""
    text = "\n".join(book)
    sp = special()
    assert (sp.sniper.fires_on, sp.sniper.veteran, sp.sniper.elite) == (2, 1, 2)
    assert "1 o 2 su 1d6 (modificato di +1 per Snipers Veterani e +2 per Snipers Elite)" in text
    assert "come se fosse una Azione Difficile" in text and sp.sniper.seen_as == "difficult"
    m = sp.mines
    assert "Distanza Breve di 2cm ed una Distanza Lunga di 4cm" in text and (m.ap_short, m.ap_long) == (2, 4)
    assert "Distanza Breve di 0cm ed una Distanza Lunga di 4cm" in text and (m.at_short, m.at_long) == (0, 4)
    assert "con un risultato di 1,2 o 3 su 1d6" in text and m.at_destroys == 3
    assert "come se fossero Razzi Anticarro" in text and m.at_penetration == "at-rocket"
    det = {d.what: d for d in sp.detection}
    assert (
        "campo minato entro cm. 10 come se si trattasse di una Azione Normale "
        "ed una Trappola come se fosse una Azione Difficile" in text
    )
    assert (det["minefield"].difficulty, det["trap"].difficulty) == ("normal", "difficult")
    assert "trappola entro cm.1 come se fosse un Azione Normale" in text
    assert (det["minefield"].engineer_difficulty, det["trap"].engineer_difficulty, det["trap"].engineer_cm) == (
        "easy",
        "normal",
        1,
    )
    assert "doppio della normale distanza di comando" in text and sp.scout.command_times == 2
    assert "Shoccano tutti i fanti entro cm.5" in text and sp.nonlethal.flashbang_cm == 5
    assert "a tutti i fanti entro cm.10" in text and sp.nonlethal.gas_cm == 10
    ind = indirect()
    contacts = {c.id: c.difficulty for c in ind.contacts}
    assert contacts == {"dedicated": "normal", "general": "difficult", "mortar": "easy"}
    assert '"dedicata" (assegnata direttamente' in text and "sarà una Azione Facile" in text
    assert "spostare il tiro di 20cm." in text and ind.shift_cm == 20
    assert "Tutti i fumogeni durano 6 turni + 1d6" in text and ind.smoke.base == 6
    smoke = _section(book, "Arma\tEffetto", 4)
    assert _cells(smoke, "Bomba a mano")[0] == "cm. 5 x 20" and ind.smoke.grenade == "5 x 20"
    assert "Distanza Breve x 6 volte la Distanza Lunga" in _cells(smoke, "Proiettili")[0]
    assert ind.smoke.shell_length_times == 6
