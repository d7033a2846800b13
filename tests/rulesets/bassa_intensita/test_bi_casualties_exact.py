"""Bassa Intensità hits pinned exactly (casualties.py): given these faces, the damage a
man or a vehicle takes (A.12.1–A.12.4), a weapon lost (BI-R140), an HE burst (A.10.3),
a wreck's occupants (ruling BI-OCCUPANTS) and the morale checks each makes due (A.13.1),
fact by fact (issue #33: these tests kill the mutants that survived)."""

from __future__ import annotations

from core.dice.faces import ManualDice
from core.language.i18n import plain
from core.log import events as ev
from core.log.state import GameState, Side, Unit
from core.log.views import REFEREE_ONLY
from core.ruleset import Context
from core.rulesets.bassa_intensita import BassaIntensita, casualties, dice_order

CAUSE = "Omar's fire"


def _ctx(*units: Unit, faces=(), phase: str = "fire-regular", turn: int = 3) -> Context:
    state = GameState(
        turn=turn,
        phase=phase,
        sides={s: Side(id=s, name=s.title()) for s in ("blue", "red")},
        units={u.id: u for u in units},
    )
    return Context(state, ManualDice(list(faces)), "referee", BassaIntensita())


def _man(uid="bruno", *status, team="A", cls="regular", roles=()) -> Unit:
    return Unit(
        id=uid, name=uid.title(), side="blue", team=team, cls=cls, roles=tuple(roles), status=tuple(sorted(status))
    )


def _vehicle(uid="lince", *status, roles=("wheeled-apc",), weapons=("mg",), team="") -> Unit:
    return Unit(
        id=uid,
        name=uid.title(),
        side="blue",
        team=team,
        kind="vehicle",
        cls="regular",
        roles=tuple(roles),
        weapons=tuple(weapons),
        status=tuple(sorted(status)),
    )


def _facts(ctx: Context) -> list[tuple]:
    out = []
    for e in ctx.events:
        if isinstance(e, ev.Rolled):
            r = e.roll
            mods = tuple((plain(m.label), m.value, m.rule) for m in r.mods)
            out.append(("roll", e.unit, plain(r.purpose), r.faces, r.sides, r.target, mods, r.rule, plain(r.outcome)))
        elif isinstance(e, ev.StatusChanged):
            out.append(("status", e.unit, e.add, e.remove))
        elif isinstance(e, ev.UnitOut):
            out.append(("out", e.unit, plain(e.cause)))
        elif isinstance(e, ev.VarSet):
            out.append(("var", e.key, e.value, e.vis))
        elif isinstance(e, ev.Noted):
            out.append(("note", plain(e.text), e.vis))
    return out


def _m7(uid: str, name: str) -> tuple:
    return ("note", f"{name} must check morale: the combat result tables ask for it (M7, A.13.1)", ())


# ------------------------------------------------------------------ infantry (A.12.1)


def test_a_6_wounds_him_and_asks_for_his_morale():
    """A.12.1: 6–8 wounded, with a morale check (M7); his mates feel nothing (no M5/M6)."""
    bruno, carlo = _man(), _man("carlo")
    ctx = _ctx(bruno, carlo, faces=(6,), phase="movement")
    assert casualties.infantry_hit(ctx, bruno, CAUSE, under_fire=True) == "wounded"
    assert _facts(ctx) == [
        ("roll", "bruno", "damage", (6,), 10, None, (), "A.12.1", "wounded"),
        ("status", "bruno", ("wounded",), ()),
        ("status", "bruno", ("morale-due", "morale-fire"), ()),
        _m7("bruno", "Bruno"),
    ]


def test_a_10_kills_and_his_squad_checks_morale_m5():
    """A.12.1: a 10 is dead; A.13.1 M5: each man of his squad in play checks, under fire."""
    bruno, carlo, gone = _man(), _man("carlo"), Unit(id="gone", name="Gone", side="blue", team="A", out="x")
    other = _man("other", team="B")
    ctx = _ctx(bruno, carlo, gone, other, faces=(10,), phase="movement")
    assert casualties.infantry_hit(ctx, bruno, CAUSE, under_fire=True) == "dead"
    assert _facts(ctx) == [
        ("roll", "bruno", "damage", (10,), 10, None, (), "A.12.1", "dead"),
        ("out", "bruno", "killed by Omar's fire"),
        ("status", "carlo", ("morale-due", "morale-fire"), ()),
        ("note", "Carlo must check morale: a man of his squad or section was killed (M5, A.13.1)", ()),
    ]


def test_the_leader_wounded_makes_his_squad_check_m6_and_a_squad_all_down_is_told():
    """A.13.1 M6: the squad's leader wounded; M2: the squad all killed or wounded."""
    capo, carlo = _man("capo", roles=("leader",)), _man("carlo", "wounded")
    ctx = _ctx(capo, carlo, faces=(7,), phase="movement")
    casualties.infantry_hit(ctx, capo, CAUSE)
    assert _facts(ctx)[1:] == [
        ("status", "capo", ("wounded",), ()),
        ("status", "carlo", ("morale-due",), ()),
        ("note", "Carlo must check morale: his commander was killed or wounded (M6, A.13.1)", ()),
        (
            "note",
            "squad A is all killed or wounded: friends who saw it within 20 cm check morale (M2): morale UNIT m2",
            (),
        ),
        ("status", "capo", ("morale-due",), ()),
        _m7("capo", "Capo"),
    ]


def test_a_9_is_seriously_wounded_with_the_referees_clock():
    """A.12.1: a 9 is seriously wounded, prone, no morale of his own; BI-R110: he dies at the
    end of turn 3 + 1d6 (a 2: turn 5) unless dressed, the referee's secret."""
    bruno = _man("bruno", "morale-due")
    ctx = _ctx(bruno, _man("carlo"), faces=(9, 2), phase="movement", turn=3)
    assert casualties.infantry_hit(ctx, bruno, CAUSE) == "seriously-wounded"
    assert _facts(ctx) == [
        ("roll", "bruno", "damage", (9,), 10, None, (), "A.12.1", "seriously wounded"),
        ("status", "bruno", ("seriously-wounded", "prone"), ("morale-due",)),
        ("roll", "bruno", "turns he lives undressed", (2,), 6, None, (), "BI-R110", "2 turns"),
        ("var", "secret.dies.bruno", 5, REFEREE_ONLY),
        ("note", "Bruno is seriously wounded: he dies at the end of turn 5 unless dressed", REFEREE_ONLY),
    ]


def test_a_shock_puts_him_down_and_a_near_miss_only_asks_for_morale():
    """A.12.1: 2–5 shocked (to the ground, shocked this turn); 1 a near miss: morale only."""
    bruno = _man()
    ctx = _ctx(bruno, faces=(3,), phase="movement")
    assert casualties.infantry_hit(ctx, bruno, CAUSE) == "shocked"
    assert _facts(ctx)[1:] == [
        ("status", "bruno", ("shocked", "shocked-now", "prone"), ()),
        ("status", "bruno", ("morale-due",), ()),
        _m7("bruno", "Bruno"),
    ]
    bruno = _man()
    ctx = _ctx(bruno, faces=(1,), phase="movement")
    assert casualties.infantry_hit(ctx, bruno, CAUSE) == "near-miss"
    assert _facts(ctx)[1:] == [("status", "bruno", ("morale-due",), ()), _m7("bruno", "Bruno")]


def test_a_vest_and_a_sniper_move_the_row_but_never_a_natural_10():
    """BI-R111: a bullet-proof vest −2, a sniper's shot +1: a 10 is still dead."""
    bruno = _man(roles=("bullet-vest",))
    ctx = _ctx(bruno, faces=(10,), phase="movement")
    assert casualties.infantry_hit(ctx, bruno, CAUSE, sniper=True) == "dead"
    assert _facts(ctx)[0] == (
        "roll",
        "bruno",
        "damage",
        (10,),
        10,
        None,
        (("bullet-proof vest", -2, "BI-R111"), ("shot by a sniper", 1, "BI-R111")),
        "A.12.1",
        "dead (natural 10: never modified)",
    )
    bruno = _man(roles=("frag-vest",))
    ctx = _ctx(bruno, faces=(7,), phase="movement")
    assert casualties.infantry_hit(ctx, bruno, CAUSE) == "wounded"  # a fragmentation vest −1: 6
    ctx = _ctx(_man(roles=("frag-vest",)), faces=(6,), phase="movement")
    assert casualties.infantry_hit(ctx, ctx.unit("bruno"), CAUSE) == "shocked"  # 5


def test_rubber_rounds_hurt_one_row_milder():
    """BI-R230: non-lethal rounds: wounded and seriously wounded are shocked, dead wounded."""
    for face, result in ((6, "shocked"), (9, "shocked"), (10, "wounded"), (1, "near-miss")):
        ctx = _ctx(_man(), faces=(face,), phase="movement")
        assert casualties.infantry_hit(ctx, ctx.unit("bruno"), CAUSE, rubber=True) == result, face


def test_a_man_hit_in_his_own_tier_before_he_acted_still_acts_in_it():
    """Ruling BI-TIER-RESULTS (BI-R061): hit in the regulars' fire before acting: struck
    (struck-wounded if already wounded); not if he acted, is of another tier, or the hit is
    covering fire (no grace)."""
    ctx = _ctx(_man(), faces=(1,), phase="fire-regular")
    casualties.infantry_hit(ctx, ctx.unit("bruno"), CAUSE)
    assert _facts(ctx)[1] == ("status", "bruno", ("struck",), ())
    ctx = _ctx(_man("bruno", "wounded"), faces=(1,), phase="fire-regular")
    casualties.infantry_hit(ctx, ctx.unit("bruno"), CAUSE)
    assert _facts(ctx)[1] == ("status", "bruno", ("struck-wounded",), ())
    for unit, phase, grace in (
        (_man("bruno", "fired"), "fire-regular", True),
        (_man(cls="veteran"), "fire-regular", True),
        (_man(), "fire-regular", False),
        (_man("bruno", "shocked"), "fire-regular", True),
        (_man("bruno", "seriously-wounded"), "fire-regular", True),
    ):
        ctx = _ctx(unit, faces=(1,), phase=phase)
        casualties.infantry_hit(ctx, unit, CAUSE, grace=grace)
        assert not any(f[0] == "status" and f[2][0].startswith("struck") for f in _facts(ctx)), unit
    truck = _vehicle("camion", roles=("truck",))
    ctx = _ctx(truck, phase="fire-regular")
    casualties._grace(ctx, truck)
    assert ctx.events == []


def test_a_check_due_twice_is_told_once_and_keeps_the_worse_modifiers():
    """Ruling BI-MORALE-ONCE: a second check adds its badges but is not told again; a man out
    or seriously wounded checks nothing."""
    bruno = _man("bruno", "morale-due")
    ctx = _ctx(bruno)
    casualties.morale_due(ctx, bruno, "m7", under_fire=True, table_mod=-2)
    assert _facts(ctx) == [("status", "bruno", ("morale-fire", "morale-table-2"), ())]
    for unit in (_man("s", "seriously-wounded"), Unit(id="d", name="D", side="blue", out="x")):
        ctx = _ctx(unit)
        casualties.morale_due(ctx, unit, "m7")
        assert ctx.events == []


def test_a_check_due_keeps_the_cover_the_first_fire_line_gave():
    """BI-R181 with ruling BI-MORALE-ONCE: the man's cover, as the fire line that made the
    check due gave it, is kept for the check; a second check due before it is taken
    (his leader hit, M6) does not give him a second cover."""
    omar = _man("omar")
    ctx = _ctx(omar)
    casualties.morale_due(ctx, omar, "m7", cover="light")
    assert _facts(ctx) == [("status", "omar", ("morale-due", "morale-cover-light"), ()), _m7("omar", "Omar")]
    bruno = _man("bruno", "morale-due", "morale-cover-heavy")
    ctx = _ctx(bruno)
    casualties.morale_due(ctx, bruno, "m6", cover="light")
    assert ctx.events == []


# ----------------------------------------------------------------- vehicles (A.12.2–4)


def test_an_unarmoured_truck_hit_by_a_gun_is_destroyed_and_its_passengers_hit():
    """A.12.2: a truck (unarmoured), a gun or mortar +4: a 4 makes 8, destroyed.  Ruling
    BI-OCCUPANTS: each man aboard is on foot and takes an infantry hit (a 6: wounded)."""
    truck = _vehicle("camion", roles=("truck",), weapons=())
    dino = _man("dino", "aboard-camion", "in-vehicle", team="HB")
    ctx = _ctx(truck, dino, faces=(4, 6), phase="movement")
    assert casualties.vehicle_hit(ctx, truck, None, CAUSE, source_mod="gun-mortar") == "destroyed"
    assert _facts(ctx) == [
        (
            "roll",
            "camion",
            "damage",
            (4,),
            10,
            None,
            (("hit by a gun, mortar or autocannon", 4, "A.12"),),
            "A.12.2",
            "destroyed",
        ),
        ("out", "camion", "destroyed by Omar's fire"),
        ("status", "dino", (), ("aboard-camion", "in-vehicle")),
        ("roll", "dino", "damage", (6,), 10, None, (), "A.12.1", "wounded"),
        ("status", "dino", ("wounded",), ()),
        (
            "note",
            "squad HB is all killed or wounded: friends who saw it within 20 cm check morale (M2): morale UNIT m2",
            (),
        ),
        ("status", "dino", ("morale-due", "morale-fire"), ()),
        _m7("dino", "Dino"),
    ]


def test_an_unarmoured_natural_1_is_never_modified():
    truck = _vehicle("camion", roles=("truck",), weapons=())
    ctx = _ctx(truck, faces=(1,), phase="movement")
    assert casualties.vehicle_hit(ctx, truck, None, CAUSE, source_mod="gun-mortar", under_fire=False) == "near-miss"
    assert _facts(ctx)[0][-1] == "near miss (natural 1: never modified)"
    assert _facts(ctx)[1:] == [("status", "camion", ("morale-due",), ()), _m7("camion", "Camion")]
    ctx = _ctx(truck, faces=(3,), phase="movement")
    assert casualties.vehicle_hit(ctx, truck, None, CAUSE) == "slowed"
    assert _facts(ctx) == [
        ("roll", "camion", "damage", (3,), 10, None, (), "A.12.2", "movement halved"),
        ("status", "camion", ("slowed",), ()),
        ("status", "camion", ("damaged",), ()),
    ]


def test_armour_no_weapon_can_penetrate_is_no_effect():
    apc = _vehicle()
    ctx = _ctx(apc)
    assert casualties.vehicle_hit(ctx, apc, None, CAUSE) == "no-effect"
    assert _facts(ctx) == [("note", "Omar's fire cannot penetrate Lince's armour: no effect (ruling BI-NO-PEN)", ())]


def test_a_penetration_roll_under_the_chance_and_the_armoured_table():
    """A.12.3: an AT rocket on an APC from the flank: 8 + 2 = 10 to penetrate; a 10 passes.
    A.12.4: a 7 is a weapon destroyed: the only weapon, its main one: M7 at −2 (BI-R140)."""
    apc = _vehicle()
    ctx = _ctx(apc, faces=(10, 7), phase="movement")
    assert casualties.vehicle_hit(ctx, apc, None, CAUSE, pen_row="at-rocket", flank=True) == "weapon"
    assert _facts(ctx) == [
        (
            "roll",
            "lince",
            "armour penetration",
            (10,),
            10,
            10,
            (("anti-tank rocket", 8, "BI-R130"), ("hit on the flank or rear", 2, "BI-R131")),
            "A.12.3",
            "penetrated",
        ),
        ("roll", "lince", "damage", (7,), 10, None, (), "A.12.4", "a weapon destroyed"),
        ("status", "lince", ("weapon-lost-mg",), ()),
        ("status", "lince", ("damaged",), ()),
        ("status", "lince", ("morale-due", "morale-fire", "morale-table-2"), ()),
        _m7("lince", "Lince"),
    ]


def test_armour_not_penetrated_asks_for_morale_and_halved_bombs_round_up():
    """A.12.3: a tank against an AT rocket, 6: a 7 does not penetrate (M7).  BI-R252:
    anti-personnel bombs halve the chance, rounded up: 6 → 3."""
    tank = _vehicle("ariete", roles=("tank",), weapons=("gun-heavy", "mg"))
    ctx = _ctx(tank, faces=(7,), phase="movement")
    assert casualties.vehicle_hit(ctx, tank, None, CAUSE, pen_row="at-rocket") == "not-penetrated"
    assert _facts(ctx) == [
        (
            "roll",
            "ariete",
            "armour penetration",
            (7,),
            10,
            6,
            (("anti-tank rocket", 6, "BI-R130"),),
            "A.12.3",
            "not penetrated: check morale",
        ),
        ("status", "ariete", ("morale-due", "morale-fire"), ()),
        _m7("ariete", "Ariete"),
    ]
    ctx = _ctx(tank, faces=(4,), phase="movement")
    casualties.vehicle_hit(ctx, tank, None, CAUSE, pen_row="recoilless-99", halve_pen=True)
    assert _facts(ctx)[0][5:7] == (
        2,
        (("recoilless gun under 100 mm", 3, "BI-R130"), ("½ anti-personnel bombs", -1, "BI-R252")),
    )


def test_indirect_fire_takes_4_off_the_armoured_table():
    """A.12.4: indirect mortar or artillery fire −4: a 9 makes 5, immobilised (M7 at −2)."""
    tank = _vehicle("ariete", "slowed", roles=("tank",), weapons=("gun-heavy", "mg"))
    ctx = _ctx(tank, faces=(1, 9), phase="movement")
    assert casualties.vehicle_hit(ctx, tank, None, CAUSE, pen_row="tank-gun-116", indirect=True) == "immobilised"
    assert _facts(ctx)[1:] == [
        (
            "roll",
            "ariete",
            "damage",
            (9,),
            10,
            None,
            (("indirect mortar or artillery fire", -4, "A.12"),),
            "A.12.4",
            "immobilised",
        ),
        ("status", "ariete", ("immobilised", "damaged"), ("slowed",)),
        ("status", "ariete", ("morale-due", "morale-fire", "morale-table-2"), ()),
        _m7("ariete", "Ariete"),
    ]


def _row(row_id: str):
    from core.rulesets.bassa_intensita.rules import damage

    return next(r for r in damage.damage().armoured if r.id == row_id)


def test_each_armoured_damage_row_and_what_it_leaves():
    """BI-R140 (rulings BI-MOBILITY, BI-TURRET): radio out (not "damaged"); slowed, then
    slowed twice, never once immobilised; a turret jams on a tank or a turreted vehicle, and
    on another vehicle a weapon is lost instead."""
    cases = [
        (_vehicle(), "radio", [("status", "lince", ("radio-out",), ())]),
        (_vehicle(), "slowed", [("status", "lince", ("slowed",), ()), ("status", "lince", ("damaged",), ())]),
        (
            _vehicle("lince", "slowed"),
            "slowed",
            [("status", "lince", ("slowed-twice",), ()), ("status", "lince", ("damaged",), ())],
        ),
        (_vehicle("lince", "immobilised"), "slowed", [("status", "lince", ("damaged",), ())]),
        (
            _vehicle("lince", "slowed", "slowed-twice"),
            "immobilised",
            [("status", "lince", ("immobilised", "damaged"), ("slowed", "slowed-twice"))],
        ),
        (_vehicle(roles=("tank",)), "turret", [("status", "lince", ("turret-jammed", "damaged"), ())]),
        (_vehicle(roles=("wheeled-apc", "turret")), "turret", [("status", "lince", ("turret-jammed", "damaged"), ())]),
        (
            _vehicle(),
            "turret",
            [("status", "lince", ("weapon-lost-mg",), ()), ("status", "lince", ("damaged",), ())],
        ),
    ]
    for vehicle, row_id, facts in cases:
        ctx = _ctx(vehicle)
        casualties.vehicle_damage(ctx, vehicle, _row(row_id), CAUSE, under_fire=False)
        table = (
            "morale-table-2"
            if row_id in ("immobilised",) or (row_id == "turret" and facts[0][2][0].startswith("weapon"))
            else ""
        )
        due = ("morale-due", table) if table else ("morale-due",)
        assert _facts(ctx) == [*facts, ("status", "lince", due, ()), _m7("lince", "Lince")], (vehicle.status, row_id)


def test_a_weapon_lost_at_random_and_the_main_gun_costs_morale():
    """BI-R140 "Armi": a d2 among the gun and the MG: a 2 is the MG (no −2), a 1 the main gun
    (−2, ruling BI-MAIN-GUN); with one left, no roll; with none, said so."""
    tank = _vehicle("ariete", roles=("tank",), weapons=("gun-heavy", "mg"))
    ctx = _ctx(tank, faces=(2,))
    # As fire rolls it: within its shot's step of fire's dice, the hit's damage before the next shot
    # (ruling BI-FIRE-DICE; a roll on no step fails here, core.dice.faces.CHECK_STEPS).
    ctx.order = next(spec.dice for spec in BassaIntensita().commands() if spec.name == "fire")
    with ctx.at_step(dice_order.SHOTS):
        assert casualties.lose_weapon(ctx, tank) == 0
    assert _facts(ctx) == [
        ("roll", "ariete", "weapon lost", (2,), 2, None, (), "BI-R140", "mg"),
        ("status", "ariete", ("weapon-lost-mg",), ()),
    ]
    tank = _vehicle("ariete", roles=("tank",), weapons=("gun-heavy", "mg"))
    ctx = _ctx(tank, faces=(1,))
    assert casualties.lose_weapon(ctx, tank) == -2
    assert _facts(ctx)[1] == ("status", "ariete", ("weapon-lost-gun-heavy",), ())
    tank = _vehicle("ariete", "weapon-lost-gun-heavy", roles=("tank",), weapons=("gun-heavy", "mg"))
    ctx = _ctx(tank)
    assert casualties.lose_weapon(ctx, tank) == 0
    assert _facts(ctx) == [("status", "ariete", ("weapon-lost-mg",), ())]
    bare = _vehicle("ariete", "weapon-lost-gun-heavy", "weapon-lost-mg", weapons=("gun-heavy", "mg"))
    ctx = _ctx(bare)
    assert casualties.lose_weapon(ctx, bare) == 0
    assert _facts(ctx) == [("note", "Ariete has no weapon left to lose", ())]


def test_an_armoured_vehicle_destroyed_makes_friends_who_saw_it_check_m1():
    """A.13.1 M1: an armoured vehicle (or a tank) destroyed is told; a truck's loss is not."""
    for vehicle, told in (
        (_vehicle(), True),
        (_vehicle("lince", roles=("tank",)), True),
        (_vehicle("lince", roles=("truck",)), False),
    ):
        ctx = _ctx(vehicle)
        casualties.destroyed(ctx, vehicle, "destroyed")
        m1 = ("note", "friends who saw Lince destroyed within 20 cm check morale (M1): morale UNIT m1", ())
        assert _facts(ctx) == [("out", "lince", "destroyed"), *([m1] if told else [])], vehicle.roles


def test_an_he_burst_in_the_open_and_in_cover():
    """A.10.3 (BI-R092): in the open at short distance a man is hit on 6 or less, +1 under
    guns over 103 mm: a 7 hits, then damage (a 6, wounded).  In cover at long distance 2:
    a 3 misses.  BI-R252: an anti-tank bomb halves the chance, rounded up (6 → 3)."""
    bruno = _man()
    ctx = _ctx(bruno, faces=(7, 6), phase="movement")
    assert casualties.he_burst(ctx, bruno, CAUSE, zone="short", terrain="open", big=True) == "wounded"
    assert _facts(ctx)[:2] == [
        (
            "roll",
            "bruno",
            "whether the HE catches him",
            (7,),
            10,
            7,
            (("open, short distance", 6, "BI-R092"), ("guns or mortars over 103 mm", 1, "BI-R092")),
            "A.10.3",
            "hit: roll damage",
        ),
        ("roll", "bruno", "damage", (6,), 10, None, (), "A.12.1", "wounded"),
    ]
    assert ("status", "bruno", ("morale-due", "morale-fire"), ()) in _facts(ctx)
    ctx = _ctx(_man(), faces=(3,), phase="movement")
    assert casualties.he_burst(ctx, ctx.unit("bruno"), CAUSE, zone="long", terrain="cover", big=False) == "missed"
    assert _facts(ctx) == [
        (
            "roll",
            "bruno",
            "whether the HE catches him",
            (3,),
            10,
            2,
            (("cover, long distance", 2, "BI-R092"),),
            "A.10.3",
            "unhurt",
        ),
    ]
    ctx = _ctx(_man(), faces=(4,), phase="movement")
    assert (
        casualties.he_burst(ctx, ctx.unit("bruno"), CAUSE, zone="short", terrain="open", big=False, halve=True)
        == "missed"
    )
    assert _facts(ctx)[0][5:7] == (3, (("open, short distance", 6, "BI-R092"), ("½ anti-tank bomb", -3, "BI-R252")))


def test_an_he_burst_on_a_vehicle_goes_to_its_penetration():
    """Ruling BI-HE-VEHICLES: a tank caught (a 1) takes the weapon's penetration (artillery
    over 105 mm on a tank: 2), halved for a bomb (1); a 1 penetrates; indirect −4 on a 9: 5."""
    tank = _vehicle("ariete", roles=("tank",), weapons=("gun-heavy",))
    ctx = _ctx(tank, faces=(1, 1, 9), phase="movement")
    got = casualties.he_burst(
        ctx,
        tank,
        CAUSE,
        zone="short",
        terrain="open",
        big=False,
        pen_row="artillery-106",
        indirect=True,
        halve_pen=True,
    )
    assert got == "immobilised"
    assert [f[7] for f in _facts(ctx) if f[0] == "roll"] == ["A.10.3", "A.12.3", "A.12.4"]
    assert _facts(ctx)[1][5] == 1
    truck = _vehicle("camion", roles=("truck",), weapons=())
    ctx = _ctx(truck, faces=(1, 4), phase="movement")
    assert (
        casualties.he_burst(ctx, truck, CAUSE, zone="short", terrain="open", big=False, source_mod="gun-mortar")
        == "destroyed"
    )


def test_the_leader_commanding_when_hit_is_the_one_who_counts():
    """M6 is for the man commanding the squad when he was hit (``commanding``): a leader who
    no longer commands makes it M5 if killed; a plain man who commanded makes it M6."""
    capo, carlo = _man("capo", roles=("leader",)), _man("carlo")
    ctx = _ctx(capo, carlo)
    casualties.losses_felt(ctx, capo, killed=True, wounded=False, under_fire=False, commanding=False)
    assert _facts(ctx)[1][1].startswith("Carlo must check morale: a man of his squad")
    ctx = _ctx(_man("capo"), _man("carlo"))
    casualties.losses_felt(ctx, ctx.unit("capo"), killed=False, wounded=True, under_fire=False, commanding=True)
    assert _facts(ctx)[1][1].startswith("Carlo must check morale: his commander")
    ctx = _ctx(_man("capo", roles=("leader",)), _man("carlo"))
    casualties.losses_felt(ctx, ctx.unit("capo"), killed=False, wounded=True, under_fire=False)
    assert _facts(ctx)[1][1].startswith("Carlo must check morale: his commander")
    ctx = _ctx(_man("capo", team=""), _man("carlo"))
    casualties.losses_felt(ctx, ctx.unit("capo"), killed=True, wounded=False, under_fire=False)
    assert ctx.events == []


# ------------------------------------------------------- what the first tests left out


def test_a_sergeant_under_a_platoon_commander_hit_is_felt_as_a_man_not_a_commander():
    """Ruling BI-LEADER: with two leaders the better Quality commands; the sergeant killed
    is M5 for his mates, wounded (a 7) or seriously wounded (a 9) nothing (A.13.1)."""
    for face, m in ((10, "a man of his squad or section was killed (M5"), (7, None), (9, None)):
        capo, lt, carlo = _man("capo", roles=("leader",)), _man("lt", cls="veteran", roles=("leader",)), _man("carlo")
        ctx = _ctx(capo, lt, carlo, faces=(face, 1), phase="movement")
        casualties.infantry_hit(ctx, capo, CAUSE)
        said = [f[1] for f in _facts(ctx) if f[0] == "note" and f[1].startswith("Carlo")]
        assert said == ([f"Carlo must check morale: {m}, A.13.1)"] if m else []), face


def test_a_dead_man_has_no_morale_check_left_due():
    bruno = _man("bruno", "morale-due", "morale-fire")
    ctx = _ctx(bruno, _man("carlo"), faces=(10,), phase="movement")
    casualties.infantry_hit(ctx, bruno, CAUSE)
    assert ("status", "bruno", (), ("morale-due", "morale-fire")) in _facts(ctx)


def test_the_wreck_is_what_kills_a_passenger():
    """Ruling BI-OCCUPANTS: a passenger killed (a 10) is killed by the wreck of the vehicle."""
    truck = _vehicle("camion", roles=("truck",), weapons=())
    dino = _man("dino", "aboard-camion", team="HB")
    ctx = _ctx(truck, dino, faces=(8, 10), phase="movement")
    casualties.vehicle_hit(ctx, truck, None, CAUSE)
    assert ("out", "dino", "killed by the wreck of Camion") in _facts(ctx)


def test_what_is_said_of_a_hidden_piece_stays_with_those_who_see_it():
    """Views (ruling CORE-HIDDEN): the notes about a hidden piece go to its side (and those
    who spotted it), never to everyone."""
    apc = _vehicle("lince", "hidden")
    ctx = _ctx(apc)
    casualties.destroyed(ctx, apc, "destroyed")
    assert _facts(ctx)[-1][2] == ("blue",)
    ctx = _ctx(apc)
    casualties.vehicle_hit(ctx, apc, None, CAUSE)
    assert _facts(ctx)[-1][2] == ("blue",)
    bare = _vehicle("lince", "hidden", "weapon-lost-mg")
    ctx = _ctx(bare)
    casualties.lose_weapon(ctx, bare)
    assert _facts(ctx)[-1][2] == ("blue",)
    alone = _man("bruno", "hidden")
    ctx = _ctx(alone, faces=(10,), phase="movement")
    casualties.infantry_hit(ctx, alone, CAUSE)
    assert [f[2] for f in _facts(ctx) if f[0] == "note"] == [("blue",)]
    alone = _man("bruno", "hidden")
    ctx = _ctx(alone)
    casualties.losses_felt(ctx, alone, killed=True, wounded=False, under_fire=False)
    assert [f[2] for f in _facts(ctx)] == [("blue",)]


def test_a_seriously_wounded_mate_is_not_standing():
    """M2: the squad is all killed or wounded when every other man is wounded or worse."""
    ctx = _ctx(_man(), _man("carlo", "seriously-wounded"))
    casualties.losses_felt(ctx, ctx.unit("bruno"), killed=True, wounded=False, under_fire=False)
    assert _facts(ctx)[-1][1].startswith("squad A is all killed or wounded")


def test_a_check_due_not_under_fire_and_a_vehicle_shocked_stays_upright():
    bruno = _man()
    ctx = _ctx(bruno)
    casualties.morale_due(ctx, bruno, "m7")
    assert _facts(ctx)[0] == ("status", "bruno", ("morale-due",), ())
    apc = _vehicle()
    ctx = _ctx(apc)
    casualties.shock(ctx, apc)
    assert _facts(ctx) == [("status", "lince", ("shocked", "shocked-now"), ())]


def test_a_vehicle_hit_is_under_fire_unless_said_otherwise_and_its_rolls_read_a_row():
    """A.13.1: a vehicle's check after a hit is under fire by default.  A.12.2 and BI-R140
    read a row of a table: their check is a reading (core.log.events.Read)."""
    truck = _vehicle("camion", roles=("truck",), weapons=())
    ctx = _ctx(truck, faces=(1,), phase="movement")
    casualties.vehicle_hit(ctx, truck, None, CAUSE)
    assert ("status", "camion", ("morale-due", "morale-fire"), ()) in _facts(ctx)
    assert [e.roll.check for e in ctx.events if isinstance(e, ev.Rolled)] == [ev.Read()]
    tank = _vehicle("ariete", roles=("tank",), weapons=("gun-heavy", "mg"))
    ctx = _ctx(tank, faces=(1,))
    casualties.lose_weapon(ctx, tank)
    assert [e.roll.check for e in ctx.events if isinstance(e, ev.Rolled)] == [ev.Read()]


def test_an_he_burst_on_a_vehicle_with_no_weapon_row_given():
    """Ruling BI-HE-VEHICLES: caught (a 1), an armoured vehicle with no penetration row is
    not hurt (ruling BI-NO-PEN); a truck takes the unarmoured table with no modifier, or
    the weapon's (an RPG, +2: a 6 makes 8, destroyed, by the burst's cause); a tank's
    armoured table takes no indirect modifier unless told."""
    from core.rulesets.bassa_intensita.tables import weapons

    apc = _vehicle()
    ctx = _ctx(apc, faces=(1,))
    assert casualties.he_burst(ctx, apc, CAUSE, zone="short", terrain="open", big=False) == "no-effect"
    truck = _vehicle("camion", roles=("truck",), weapons=())
    ctx = _ctx(truck, faces=(1, 6))
    assert casualties.he_burst(ctx, truck, CAUSE, zone="short", terrain="open", big=False) == "immobilised"
    assert _facts(ctx)[1][6] == ()
    ctx = _ctx(truck, faces=(1, 6))
    got = casualties.he_burst(ctx, truck, CAUSE, zone="short", terrain="open", big=False, weapon=weapons()["rpg"])
    assert got == "destroyed"
    assert ("out", "camion", "destroyed by Omar's fire") in _facts(ctx)
    tank = _vehicle("ariete", roles=("tank",), weapons=("gun-heavy",))
    ctx = _ctx(tank, faces=(1, 1, 5), phase="movement")
    casualties.he_burst(ctx, tank, CAUSE, zone="short", terrain="open", big=False, pen_row="tank-gun-116")
    assert _facts(ctx)[2][6] == ()


def test_half_an_odd_chance_rounds_up():
    """BI-R252: an anti-tank bomb against a man in cover at short distance: 3 halved is 2."""
    ctx = _ctx(_man(), faces=(3,), phase="movement")
    casualties.he_burst(ctx, ctx.unit("bruno"), CAUSE, zone="short", terrain="cover", big=False, halve=True)
    assert _facts(ctx)[0][5:7] == (2, (("cover, short distance", 3, "BI-R092"), ("½ anti-tank bomb", -1, "BI-R252")))
