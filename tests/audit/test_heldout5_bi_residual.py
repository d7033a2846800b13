"""The residual findings of the audit of Bassa Intensità (issue #46), each held against the
book: the cover of each man an area burst reaches ("TIRO DIRETTO", its modifiers), a weapon
named in Italian, what opportunity fire may aim at ("TIRI DI OPPORTUNITA'"), the non-lethal
rounds a referee resolves by hand ("Armi non Letali") and the weapon a vehicle loses ("DANNI
CONTRO VEICOLI BLINDATI").  Given these faces, the book's outcome.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from audit_bi_early import U, chances, goto, play, refused, rolls, table
from audit_bi_late import unit as _unit
from playing import names

from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
#: Two more RPG gunners: Remo with his RPG alone, Pio with an RPG and a pistol.
EXTRA = (
    U(id="remo2", name="Remo", side="blue", cls="regular", weapons=("rpg",)),
    U(id="pio", name="Pio", side="blue", cls="regular", weapons=("rpg", "pistol")),
)


game = table(extra=EXTRA, at=("fire-regular", 1))


def _issued(out) -> str:
    """The line as the save records it."""
    (issued,) = [e for e in out.events if isinstance(e, ev.Issued)]
    return issued.text


# ------------------------------------------------------------------ 1. area fire: each man his cover


@pytest.mark.audits("BI-R087", "BI-AMB-22", "BI-R080", "BI-WN2")
def test_an_area_burst_takes_each_mans_own_cover(game):
    """A.9.4 (BI-R087): the chance is the shooter's Quality with the table's rows, whose
    "BERSAGLIO" rows (cover among them) are each target's; an area burst rolls once at each
    man in the area (A.9.1), each roll with his own target modifiers (BI-AMB-22).  Bruno's
    assault rifle at an area at 20 cm (normal), halved (note (2)): Tariq behind a stone wall
    (heavy, -2): (4 - 2) / 2 = 1; Fares in the open: 4 / 2 = 2."""
    assert chances(play(game, "fire bruno tariq fares range=20 area cover=heavy,open dice=9,9")) == [1, 2]


@pytest.mark.audits("BI-R087", "BI-R080", "BI-WN3")
def test_a_saw_burst_at_an_area_with_light_cover_for_the_second_man_only(game):
    """Note (3): a SAW at an area is -1; the hedge (light, -1) is the second man's only:
    Sam at 20 cm (normal): 4 - 1 = 3 for Tariq, 4 - 1 - 1 = 2 for Fares."""
    assert chances(play(game, "fire sam tariq fares range=20 area cover=open,light dice=9,9")) == [3, 2]


@pytest.mark.audits("BI-R087", "BI-R080")
def test_one_cover_named_is_every_mans(game):
    """The single form: one cover for the whole area, as before: heavy for both, 1 and 1."""
    assert chances(play(game, "fire bruno tariq fares range=20 area cover=heavy dice=9,9")) == [1, 1]


@pytest.mark.audits("BI-R087")
def test_covers_not_one_a_man_are_refused(game):
    """Two covers for three men is no reading of the line: refused, nothing rolled."""
    refused(
        game, "fire bruno tariq fares nabil range=20 area cover=heavy,open dice=9,9,9", match="cover", rule="BI-R087"
    )
    assert not _unit(game, "bruno").has("fired")


@pytest.mark.audits("BI-R087", "BI-R181")
def test_the_morale_check_keeps_the_cover_of_the_man_hit(game):
    """A.13.2: cover counts in the morale check of the man the fire reached; each his own:
    both shocked (damage 3), Tariq's check in heavy cover, Fares' in none."""
    play(game, "fire bruno tariq fares range=20 area cover=heavy,open dice=1,3,1,3")
    assert _unit(game, "tariq").has("shocked") and _unit(game, "fares").has("shocked")
    assert _unit(game, "tariq").has("morale-cover-heavy")
    assert not any(_unit(game, "fares").has(f"morale-cover-{c}") for c in ("light", "heavy", "trench"))


@pytest.mark.audits("BI-R087", "BI-R080")
def test_each_mans_cover_typed_in_italian_is_recorded_in_english(game):
    """The covers, typed in Italian, give the same chances; the record holds English, and an
    Italian reader is shown it in Italian."""
    with reading("it"):
        facts = game.execute(
            "fuoco bruno tariq fares gittata=20 area copertura=pesante,scoperto dadi=9,9", role=REFEREE
        )
    assert chances(list(facts.events[1:])) == [1, 2]
    line = _issued(facts)
    assert line.endswith("cover=heavy,open dice=9,9")
    with reading("it"):
        assert game.localize(line).endswith("riparo=pesante,scoperto dadi=9,9")


# ------------------------------------------------------------------ 2. weapons named in Italian


@pytest.mark.audits("BI-R070", "BI-R092")
def test_a_weapon_named_in_italian(game):
    """The weapons table's names are the book's ("Lanciarazzi RPG"): Rocco's RPG named
    in Italian fires as his RPG: no short band, normal to 20 cm: 4 at 20 cm."""
    with reading("it"):
        out = game.execute("fuoco rocco tariq gittata=20 arma=lanciarazzi dadi=9,1", role=REFEREE)
    assert chances(list(out.events[1:])) == [4]


@pytest.mark.audits("BI-R070", "BI-R075")
@pytest.mark.parametrize(
    ("typed", "need"),
    [
        ("lanciarazzi-rpg", 4),
        ("lanciarazzi-law", None),
        ("bomba", None),
        ("pistola", 4),
    ],
)
def test_pio_names_each_of_his_weapons_in_italian(game, typed, need):
    """Pio carries an RPG and a pistol; "lanciarazzi-rpg" is the RPG (normal to 20 cm: 4),
    "pistola" the pistol (normal to 10 cm: at 10 cm, 4); a LAW or a hand grenade he does
    not carry is refused, naming what he carries."""
    rpg = "rpg" in typed  # a missed RPG round rolls where it lands (A.10.1)
    line = f"fuoco pio tariq gittata={20 if rpg else 10} arma={typed} dadi={'9,1' if rpg else '9'}"
    with reading("it"):
        if need is None:
            with pytest.raises(Refused, match="rpg") as no:
                game.execute(line, role=REFEREE)
            names(no.value, TYPING)
            return
        out = game.execute(line, role=REFEREE)
    assert chances(list(out.events[1:])) == [need]


@pytest.mark.audits("BI-R070")
def test_a_weapon_named_in_italian_replays_in_english(game):
    """The line an Italian referee typed is read the same by an English one: the save replays."""
    with reading("it"):
        line = _issued(game.execute("fuoco rocco tariq gittata=20 arma=lanciarazzi dadi=9,1", role=REFEREE))
    assert "weapon=" in line
    goto(game, "fire-regular", 2)
    out = game.execute(line.replace("rocco", "remo2"), role=REFEREE)
    assert chances(list(out.events[1:])) == [4]


@pytest.mark.audits("BI-R130", "BI-R140")
def test_a_hit_by_hand_names_the_weapon_in_italian(game):
    """`hit` by a weapon named in Italian: an RPG ("lanciarazzi-rpg") at a tank penetrates on
    6 or less (A.12.3 "Lanciarazzi anticarro" 6): a 6 goes through, its damage 1 is a near miss."""
    with reading("it"):
        out = game.execute("colpo t55 arma=lanciarazzi-rpg dadi=6,1", role=REFEREE)
    assert [r.target for r in rolls(list(out.events[1:]), "A.12.3")] == [6]


# ------------------------------------------------------------------ 3. opportunity fire: at movers


@pytest.mark.audits("BI-R050")
def test_no_opportunity_fire_at_a_man_who_has_not_moved(game):
    """A.7 (BI-R050): opportunity fire is "contro le unità nemiche in movimento": in Blue's movement
    Bruno has not moved: Ali's shot at him is refused, and Ali keeps his turn."""
    goto(game, "move-first", 2)
    refused(game, "@red fire ali bruno range=20 dice=9,9", match="not moving", rule="BI-R050")
    assert not _unit(game, "ali").has("fired")


@pytest.mark.audits("BI-R050", "BI-R082")
def test_opportunity_fire_at_a_man_who_moved(game):
    """Once Bruno moves, he is a mover: Ali's shot at 20 cm (normal) is halved: 4 / 2 = 2,
    twice (his assault rifle's 2 shots)."""
    goto(game, "move-first", 2)
    play(game, "move bruno 5")
    assert chances(play(game, "@red fire ali bruno range=20 dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R050")
def test_the_second_movement_too_fires_only_at_its_movers(game):
    """In Red's movement (second) Blue fires at Red's movers only: Omar stands: refused;
    Ali moved: Carlo's rifle at 15 cm (short +1), halved: (4 + 1) / 2 = 3."""
    goto(game, "move-second", 2)
    refused(game, "fire carlo omar range=15 dice=9", match="not moving", rule="BI-R050")
    play(game, "@red move ali 5")
    assert chances(play(game, "fire carlo ali range=15 dice=9")) == [3]


@pytest.mark.audits("BI-R050", "BI-R042")
def test_a_man_who_boards_a_vehicle_is_moving(game):
    """Mounting a truck is movement ("Salire/scendere da autocarro", a movement modifier):
    Bruno boards the truck, and Ali's opportunity fire at him is halved: 4 / 2 = 2."""
    goto(game, "move-first", 2)
    play(game, "mount bruno camion")
    assert chances(play(game, "@red fire ali bruno range=20 dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R050", "BI-R042")
def test_a_man_aboard_moves_with_his_truck(game):
    """The men a truck carries move with it: Bruno mounted in turn 2; in turn 3, before the
    truck moves, Ali may not fire at him; once it has moved, he may: 4 / 2 = 2, twice."""
    goto(game, "move-first", 2)
    play(game, "mount bruno camion")
    goto(game, "move-first", 3)
    refused(game, "@red fire ali bruno range=20 dice=9,9", match="not moving", rule="BI-R050")
    play(game, "move camion 20")
    assert chances(play(game, "@red fire ali bruno range=20 dice=9,9")) == [2, 2]


# ------------------------------------------------------------------ 4. non-lethal rounds by hand


@pytest.mark.audits("BI-R230", "BI-R110")
@pytest.mark.parametrize(("face", "result"), [(3, "shocked"), (7, "shocked"), (9, "shocked"), (10, "wounded")])
def test_a_rubber_round_by_hand_wounds_one_row_milder(game, face, result):
    """The book's "Armi non Letali" (BI-R230): rubber bullets: Wounded and Seriously wounded count as Shocked,
    Dead as Wounded; the referee resolves such a hit with `hit ... weapon=rubber`."""
    play(game, f"hit nabil weapon=rubber dice={face}")
    man = _unit(game, "nabil")
    assert man.in_play and man.has(result)
    assert not man.has("seriously-wounded")
    if result == "shocked":
        assert not man.has("wounded")


@pytest.mark.audits("BI-R230")
def test_a_weapon_no_table_lists_is_still_refused(game):
    """A weapon the book does not list stays refused, naming it."""
    refused(game, "hit nabil weapon=taser dice=3", match="taser", rule=TYPING)


# ------------------------------------------------------------------ 5. the weapon a vehicle loses


@pytest.mark.audits("BI-R140")
@pytest.mark.parametrize(("face", "lost", "other"), [(1, "gun-heavy", "mg"), (2, "mg", "gun-heavy")])
def test_the_weapon_lost_is_drawn_among_those_left(game, face, lost, other):
    """A.12.4 "Armi" (7, 8): one of the weapons on board is destroyed, "si determina quale a
    caso": the tank Ariete (main gun, MG): an RPG goes through (1), damage 7, then one die
    with a face per weapon, 1d2: 1 the main gun (its morale check at -2), 2 the MG."""
    out = play(game, f"hit ariete weapon=rpg dice=1,7,{face}")
    (pick,) = rolls(out, "BI-R140")
    assert pick.sides == 2
    tank = _unit(game, "ariete")
    assert tank.has(f"weapon-lost-{lost}") and not tank.has(f"weapon-lost-{other}")
    assert tank.has("morale-table-2") == (lost == "gun-heavy")


@pytest.mark.audits("BI-R140")
def test_the_last_weapon_is_lost_without_a_roll(game):
    """With one weapon on board, chance has nothing to choose: the T-55's gun is lost, no die."""
    out = play(game, "hit t55 weapon=rpg dice=1,7")
    assert not rolls(out, "BI-R140")
    assert _unit(game, "t55").has("weapon-lost-gun-heavy")


@pytest.mark.audits("BI-R140")
def test_the_dice_order_names_the_die_the_engine_rolls():
    """docs/commands.md says what the engine rolls for the weapon lost: one face per weapon
    left, not a 1d6."""
    text = DOCS.read_text()
    assert "which weapon it loses, 1d6" not in text
    assert "which weapon it loses, 1dN" in text
