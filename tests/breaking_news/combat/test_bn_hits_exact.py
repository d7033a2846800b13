"""Breaking News hits (hits.py) pinned exactly: the saves a hit man or vehicle rolls
with these faces and what follows (§9.0–§9.3, §10.0, §8.8), each refusal in its words,
and the small facts about a figure the combat commands read (issue #33: these tests
kill the mutants that survived)."""

from __future__ import annotations

import pytest
from playing import refusal

from core.dice.faces import ManualDice
from core.language.i18n import M, plain
from core.log import events as ev
from core.log.state import GameState, Side, Unit
from core.refusal import TYPING
from core.ruleset import Context
from core.rulesets.breaking_news import BreakingNews, hits, options
from core.rulesets.breaking_news.rules import saves
from core.rulesets.breaking_news.words import IT


def _ctx(*units: Unit, faces=(), variant: str = "", variables: dict | None = None, turn: int = 2) -> Context:
    state = GameState(
        turn=turn,
        sides={
            "regulars": Side(id="regulars", name="Rangers", army="regular"),
            "irregulars": Side(id="irregulars", name="Militia", army="irregular"),
        },
        units={u.id: u for u in units},
        vars=dict(variables or {}),
        active_side="regulars",
    )
    return Context(state, ManualDice(list(faces)), "referee", BreakingNews(variant))


def _man(uid="kalash", *status, cls="Irr2", side="irregulars", kind="man", roles=(), weapons=("AR",)) -> Unit:
    return Unit(
        id=uid,
        name=uid.title(),
        side=side,
        kind=kind,
        cls=cls,
        roles=tuple(roles),
        weapons=tuple(weapons),
        status=tuple(sorted(status)),
    )


def _vehicle(uid="hummer", cls="protected", side="regulars") -> Unit:
    return Unit(id=uid, name=uid.title(), side=side, kind="vehicle", cls=cls)


def _facts(ctx: Context) -> list[tuple]:
    out = []
    for e in ctx.events:
        if isinstance(e, ev.Rolled):
            r = e.roll
            mods = tuple((plain(m.label), m.value) for m in r.mods)
            out.append(("roll", e.unit, plain(r.purpose), r.faces, r.target, mods, r.rule, plain(r.outcome), r.check))
        elif isinstance(e, ev.StatusChanged):
            out.append(("status", e.unit, e.add, e.remove))
        elif isinstance(e, ev.UnitOut):
            out.append(("out", e.unit, plain(e.cause)))
        elif isinstance(e, ev.VarSet):
            out.append(("var", e.key, e.value))
        elif isinstance(e, ev.Noted):
            out.append(("note", plain(e.text)))
    return out


# ------------------------------------------------------------------ causes


def test_a_cause_in_words_and_read_back():
    assert plain(hits.cause(hits.KILLED, "")) == "killed"
    assert plain(hits.cause(hits.KILLED, "regulars")) == "killed by regulars"
    assert plain(hits.cause(hits.STABILISED, "regulars")) == "stabilised, wounded by regulars"
    assert hits.parse_cause(hits.cause(hits.STABILISED, "regulars")) == ("stabilised", "regulars")
    assert hits.parse_cause("stabilised by regulars") == ("stabilised", "regulars")  # an older save's words
    # The side is all that follows the first " by ": a side's name may hold the word.
    assert hits.parse_cause("killed by Stand by Me") == ("killed", "Stand by Me")
    assert hits.parse_cause("knocked out") == ("knocked out", "")


def test_a_cause_as_cause_wrote_it_is_read_without_its_words(monkeypatch):
    """§14.0: defeat points read every loss's cause at every settling, so a message
    ``cause`` wrote is read from the message itself, its words never written (here
    writing them fails); any other shape is read from its words, even one naming a
    cause and a side (a hostile save's)."""
    hostile = M("{what} at {side}", what=M(hits.KILLED), side="regulars")
    assert hits.parse_cause(hostile) == ("killed at regulars", "")

    def no_words(text):
        raise AssertionError(f"words written for {text!r}")

    monkeypatch.setattr(hits, "plain", no_words)
    for what in (hits.KILLED, hits.WOUNDED, hits.DIED, hits.KNOCKED_OUT, hits.DESTROYED, "captured"):
        assert hits.parse_cause(hits.cause(what, "regulars")) == (what, "regulars")
        assert hits.parse_cause(hits.cause(what, "")) == (what, "")
    assert hits.parse_cause(hits.cause(hits.STABILISED, "irregulars")) == ("stabilised", "irregulars")
    assert hits.parse_cause(hits.cause(hits.STABILISED, "")) == ("stabilised", "")


def test_an_option_is_off_until_switched_on():
    state = _ctx().state
    assert options.option(state, "wounded") is False
    state.vars["option.wounded"] = 1
    assert options.option(state, "wounded") is True


def test_the_optional_rules_in_force_are_named_by_section_and_in_words():
    """§9.3 switched on, §8.0.2 and §8.0.3 left off: only the wounded rule is named."""
    state = _ctx().state
    assert options.options_in_force(state) == []
    state.vars["option.wounded"] = 1
    assert options.options_in_force(state) == [("§9.3", "§9.3 wounded men, medics and stabilisation")]


# --------------------------------------------------------------- unit facts


def test_a_sniper_is_named_by_his_role_or_his_rifle_and_a_leader_by_either_role():
    assert hits.is_sniper(_man(roles=("sniper",), weapons=("AR",)))
    assert hits.is_sniper(_man(weapons=("SNIPER",)))
    assert not hits.is_sniper(_man(roles=("SNIPER",), weapons=("sniper",)))
    assert hits.is_leader(_man(roles=("leader",)))
    assert hits.is_leader(_man(roles=("commander",)))
    assert not hits.is_leader(_man(roles=("COMMANDER", "medic")))


def test_an_action_is_over_once_he_fired_reloaded_or_acted():
    for done in ("fired", "acted", "reloading", "ran", "moved", "crept", "climbed", "covering"):
        assert hits.has_acted(_man("m", done)), done
    assert not hits.has_acted(_man("m", "suppressed", "hidden"))
    # §11.0 with §5.0: a move may end in hand-to-hand; fire, cover or a reload may not.
    for done in ("fired", "acted", "reloading", "covering"):
        assert not hits.may_fight(_man("m", done)), done
    for moved in ("ran", "moved", "crept", "climbed"):
        assert hits.may_fight(_man("m", moved)), moved
    assert hits.may_fight(_man("m"))


def test_the_weapon_a_man_fires_named_whole_or_by_its_start():
    ctx = _ctx()
    rook = _man("rook", cls="R5", weapons=("AR", "GL"))
    assert hits.unit_weapon(rook, ctx, None).id == "AR"
    assert hits.unit_weapon(rook, ctx, "gl").id == "GL"
    assert hits.unit_weapon(rook, ctx, "Gre").id == "GRENADE"  # ruling BN-C-GRENADE: every combatant
    # A whole name wins over a longer one it starts: "AR" is not ambiguous with "ARX".
    both = _man("both", weapons=("ARX", "AR"))
    assert hits.unit_weapon(both, ctx, "ar").id == "AR"
    assert refusal(hits.unit_weapon, both, ctx, "a", rule=TYPING) == "Both carries ARX, AR, GRENADE; which is 'a'?"
    assert hits.unit_weapon(both, ctx, "AR").id == "AR"
    # A civilian has no class and carries no grenade.
    civ = _man("civ", cls="", kind="civilian", weapons=("PISTOL",))
    assert refusal(hits.unit_weapon, civ, ctx, "gren", rule=TYPING) == "Civ carries PISTOL; which is 'gren'?"
    # A man who carries grenades already gets no second.
    assert refusal(hits.unit_weapon, _man("g", weapons=("GRENADE",)), ctx, "x", rule=TYPING) == (
        "G carries GRENADE; which is 'x'?"
    )


def test_a_weapon_off_the_table_or_none_is_refused_in_words():
    ctx = _ctx()
    assert refusal(hits.unit_weapon, _man("bare", weapons=()), ctx, None, rule="FIRE-1") == "Bare carries no weapon"
    assert refusal(hits.unit_weapon, _man("odd", weapons=("BOW",)), ctx, None, rule="T-08") == (
        "Odd's weapon BOW is not on the §8.0 table"
    )
    assert refusal(hits.unit_weapon, _man("odd", weapons=("BOW", "AR")), ctx, "bo", rule="T-08") == (
        "BOW is not on the §8.0 table"
    )


def test_the_italian_draft_reads_its_own_weapon_table():
    """DIFF: the Italian draft changes the anti-tank hand weapon's bands (weapons.toml)."""
    ctx_it = _ctx(variant=IT)
    ctx_en = _ctx()
    man = _man(weapons=("ATH",))
    assert hits.unit_weapon(man, ctx_it, None) != hits.unit_weapon(man, ctx_en, None)


def test_a_figure_out_of_play_or_on_the_wrong_side_is_refused_in_words():
    ctx = _ctx()
    dead = Unit(id="d", name="Dead Dan", side="regulars", out=hits.cause(hits.KILLED, "irregulars"))
    assert refusal(hits.require_in_play, dead, rule="SAVE-2") == "Dead Dan is out of action (killed by irregulars)"
    waiting = _man("w", hits.OFF_TABLE)
    assert refusal(hits.require_in_play, waiting, rule="DEP-3") == "W is not on the table yet"
    assert refusal(hits.require_active, ctx.state, _man(), rule="ACT-1") == (
        "Kalash is not on the active side (Rangers); it may only react: react-dodge or react-fire"
    )
    assert refusal(hits.require_active, ctx.state, _man(), "fire", rule="ACT-1").endswith(
        "; it may only react: react-fire"
    )
    ctx.state.reacting_side = "irregulars"
    assert refusal(hits.require_reacting, ctx, _man("r", side="regulars"), rule="ACT-2") == (
        "R is on the active side; reactions are the reacting player's (§5.0)"
    )
    hits.require_active(ctx.state, _man("r", side="regulars"))
    hits.require_reacting(ctx, _man())


def test_numbers_and_names_in_a_list():
    assert hits.int_list("2/1", "dice", 1, 6) == (2, 1)
    assert hits.int_list("3, 4,", "dice", 1, 6) == (3, 4)
    assert hits.int_list(None, "dice", 1, 6) is None
    a, b = _man("anna", side="regulars"), _man("bruno", side="regulars")
    ctx = _ctx(a, b)
    assert [u.id for u in hits.resolve_units(ctx, "anna+bruno")] == ["anna", "bruno"]
    assert hits.resolve_units(ctx, "") == []


# -------------------------------------------------------------- saves (§9)


def test_a_man_who_saves_is_suppressed_and_in_cover_drops_out_of_sight():
    """§9.0: Kalash (Irr2) saves on 5+: a 5 saves; §10.0: suppressed, and in cover hidden."""
    man = _man()
    ctx = _ctx(man, faces=(5,))
    assert hits.take_hits(ctx, man, 1, by_side="regulars", protected=False, in_cover=True) is True
    assert _facts(ctx) == [
        ("roll", "kalash", "save", (5,), 5, (), "§9.0", "saved: suppressed", saves.save_check(5, ())),
        ("status", "kalash", ("suppressed",), ()),
        ("note", "Kalash was in cover: suppressed, he drops out of sight (§10.0)"),
        ("status", "kalash", ("hidden",), ()),
    ]


def test_a_man_protected_saves_one_better_and_in_the_open_stays_in_sight():
    """§9.0: protected, +1: a 4 saves; not in cover, so he stays in sight."""
    man = _man()
    ctx = _ctx(man, faces=(4,))
    assert hits.take_hits(ctx, man, 1, by_side="regulars", protected=True, in_cover=False) is True
    assert [f[0] for f in _facts(ctx)] == ["roll", "status"]
    assert _facts(ctx)[0][5] == (("behind protection", 1),)


def test_protected_is_cover_unless_said_otherwise():
    man = _man()
    ctx = _ctx(man, faces=(6,))
    hits.take_hits(ctx, man, 1, by_side="regulars", protected=True)
    assert ("status", "kalash", ("hidden",), ()) in _facts(ctx)


def test_a_man_already_hidden_is_not_hidden_again():
    man = _man("kalash", "hidden")
    ctx = _ctx(man, faces=(6,))
    hits.take_hits(ctx, man, 1, by_side="regulars", in_cover=True)
    assert _facts(ctx)[1:] == [("status", "kalash", ("suppressed",), ())]


def test_every_hit_must_be_saved_and_a_fail_is_out_of_action():
    """§9.0: two hits, 6 and 4 against 5+: out of action, killed by the firer's side."""
    man = _man()
    ctx = _ctx(man, faces=(6, 4))
    assert hits.take_hits(ctx, man, 2, by_side="regulars") is False
    assert _facts(ctx) == [
        ("roll", "kalash", "save", (6, 4), 5, (), "§9.0", "failed: out of action", saves.save_check(5, ())),
        ("out", "kalash", "killed by regulars"),
    ]


def test_no_hit_or_a_man_already_out_rolls_nothing():
    man = _man()
    ctx = _ctx(man)
    assert hits.take_hits(ctx, man, 0, by_side="regulars") is True
    dead = Unit(id="d", name="D", side="irregulars", cls="Irr2", out="killed by regulars")
    assert hits.take_hits(ctx, dead, 1, by_side="regulars") is True
    assert ctx.events == []


def test_an_explosion_is_saved_under_section_9_1():
    """§9.1: an IED, a bombardment or an exploding vehicle: its own save value and section."""
    for source in (saves.IED, saves.BOMBARDMENT, saves.EXPLOSION):
        man = _man(cls="R2", side="regulars")
        ctx = _ctx(man, faces=(6,))
        hits.take_hits(ctx, man, 1, by_side="irregulars", source=source)
        assert _facts(ctx)[0][6] == "§9.1", source
    man = _man(cls="R2", side="regulars")
    ctx = _ctx(man, faces=(6,))
    hits.take_hits(ctx, man, 1, by_side="irregulars", source=saves.EXPLOSION, heavy_vehicle=True)
    ctx2 = _ctx(man, faces=(6,))
    hits.take_hits(ctx2, man, 1, by_side="irregulars", source=saves.EXPLOSION)
    assert (_facts(ctx)[0][4], _facts(ctx2)[0][4]) == (saves.save_table().vehicle_explosion_heavy, 3)


def test_a_civilian_saved_against_special_forces_on_3():
    """§11.1: a civilian in a stormed building saves 3+ against special forces, else 4+."""
    civ = _man("civ", cls="", kind="civilian", weapons=())
    ctx = _ctx(civ, faces=(3,))
    hits.take_hits(ctx, civ, 1, by_side="", source=saves.STORM_CIVILIAN, vs_special_forces=True)
    ctx2 = _ctx(civ, faces=(3,))
    hits.take_hits(ctx2, civ, 1, by_side="", source=saves.STORM_CIVILIAN)
    assert (_facts(ctx)[0][4], _facts(ctx2)[0][4]) == (3, 4)


def test_a_man_in_a_protected_vehicle_saves_as_protected():
    """§8.8: the occupants of a protected vehicle count as behind cover (+1)."""
    man = _man("m4", "in-vehicle", cls="R2", side="regulars")
    hummer = _vehicle()
    ctx = _ctx(man, hummer, faces=(2,), variables={"secret.aboard.m4": "hummer"})
    assert hits.take_hits(ctx, man, 1, by_side="irregulars") is True
    assert _facts(ctx)[0][5] == (("behind protection", 1),)
    # In a light-armoured vehicle he would not be hit at all (§8.8); had he got out, no bonus.
    out = _man("m4", cls="R2", side="regulars")
    ctx = _ctx(out, hummer, faces=(3,), variables={"secret.aboard.m4": "hummer"})
    hits.take_hits(ctx, out, 1, by_side="irregulars")
    assert _facts(ctx)[0][5] == ()
    apc = _vehicle("apc", cls="light")
    ctx = _ctx(man, apc, variables={"secret.aboard.m4": "apc"})
    assert refusal(hits.require_exposed, ctx, man, rule="VF-1") == (
        "M4 is inside Apc, an armoured vehicle: only the vehicle can be hit (§8.8)"
    )
    ctx = _ctx(man, hummer, variables={"secret.aboard.m4": "hummer"})
    hits.require_exposed(ctx, man)  # protected, not armoured: he may be hit


def test_a_civilian_hit_by_regulars_is_charged_and_a_man_is_not():
    """§14.0 (English): a civilian killed by the Regular side costs it defeat points; a
    combatant killed does not go through the civilians' ledger."""
    civ = _man("civ", cls="", kind="civilian", weapons=())
    ctx = _ctx(civ, faces=(1,))
    hits.take_hits(ctx, civ, 1, by_side="regulars")
    assert ("var", "secret.civilian.civ", 1) in _facts(ctx)
    man = _man()
    ctx = _ctx(man, faces=(1,))
    hits.take_hits(ctx, man, 1, by_side="regulars")
    assert [f for f in _facts(ctx) if f[0] == "var"] == []


# ------------------------------------------------------- the wounded (§9.3)


def test_under_the_wounded_rule_a_1_or_2_is_dead_and_3_up_the_turns_he_lives():
    for face, facts in (
        (2, [("out", "kalash", "killed by regulars")]),
        (3, [("out", "kalash", "wounded by regulars"), ("var", "secret.wound.kalash", 5)]),
    ):
        man = _man()
        ctx = _ctx(man, faces=(face,), variables={"option.wounded": 1}, turn=2)
        hits.casualty(ctx, man, "regulars")
        said = "dead" if face == 2 else f"badly wounded: {face} turns without a medic"
        assert _facts(ctx) == [("roll", "kalash", "wound", (face,), None, (), "§9.3", said, ev.Read()), *facts]


def test_without_the_wounded_rule_and_for_a_vehicle_no_wound_is_rolled():
    man = _man()
    ctx = _ctx(man)
    hits.casualty(ctx, man, "regulars")
    assert _facts(ctx) == [("out", "kalash", "killed by regulars")]
    hummer = _vehicle()
    ctx = _ctx(hummer, variables={"option.wounded": 1})
    hits.casualty(ctx, hummer, "irregulars")
    assert _facts(ctx) == [("out", "hummer", "killed by irregulars")]


@pytest.mark.parametrize(
    ("variant", "runs"), [("", "it runs on for a whole move"), (IT, "it runs on straight on for a whole move")]
)
def test_a_dead_driver_leaves_his_vehicle_running(variant, runs):
    """§8.8: the driver killed, his seat is empty and the vehicle runs on, then stops."""
    driver = _man("dan", "in-vehicle", cls="R2", side="regulars", roles=("driver",))
    ctx = _ctx(driver, _vehicle(), variant=variant, variables={"secret.aboard.dan": "hummer"})
    hits.casualty(ctx, driver, "irregulars")
    assert _facts(ctx) == [
        ("out", "dan", "killed by irregulars"),
        ("var", "secret.aboard.dan", ""),
        ("var", "secret.driverless.hummer", 1),
        ("note", f"Hummer has lost its driver: {runs}, then stops; hitting an obstacle stops it sooner (§8.8)"),
    ]
    # A passenger leaves his seat and nothing else; a driver of a wrecked vehicle says nothing.
    rider = _man("rik", "in-vehicle", cls="R2", side="regulars")
    ctx = _ctx(rider, _vehicle(), variables={"secret.aboard.rik": "hummer"})
    hits.casualty(ctx, rider, "irregulars")
    assert _facts(ctx)[1:] == [("var", "secret.aboard.rik", "")]
    wreck = Unit(id="hummer", name="Hummer", side="regulars", kind="vehicle", cls="protected", out="destroyed")
    ctx = _ctx(driver, wreck, variables={"secret.aboard.dan": "hummer"})
    hits.casualty(ctx, driver, "irregulars")
    assert _facts(ctx)[1:] == [("var", "secret.aboard.dan", "")]


def test_a_wounded_driver_also_leaves_his_seat():
    driver = _man("dan", "in-vehicle", cls="R2", side="regulars", roles=("driver",))
    ctx = _ctx(driver, _vehicle(), faces=(4,), variables={"secret.aboard.dan": "hummer", "option.wounded": 1})
    hits.casualty(ctx, driver, "irregulars")
    assert [f[0] for f in _facts(ctx)] == ["roll", "out", "var", "var", "var", "note"]


# ---------------------------------------------------------- vehicles (§9.2)


def _vehicle_roll(vid, faces, value, said):
    return ("roll", vid, "vehicle save", faces, value, (), "§9.2", said, saves.vehicle_save_check(value))


def test_a_tank_saves_from_the_front_and_is_knocked_out_from_the_flank():
    """§9.2: a tank against heavy anti-tank needs 4 from the front, 5 from a side; a 4
    saves in front and from the flank fails by 1: knocked out."""
    tank = _vehicle("abrams", cls="tank")
    ctx = _ctx(tank, faces=(4,))
    assert hits.take_hits(ctx, tank, 1, by_side="irregulars", vehicle_column="heavy_at") is True
    assert _facts(ctx) == [_vehicle_roll("abrams", (4,), 4, "saved")]
    ctx = _ctx(tank, faces=(4,))
    assert hits.take_hits(ctx, tank, 1, by_side="irregulars", vehicle_column="heavy_at", flank=True) is False
    assert _facts(ctx) == [
        _vehicle_roll("abrams", (4,), 5, "knocked out"),
        ("out", "abrams", "knocked out by irregulars"),
    ]


def test_a_vehicle_is_saved_only_if_every_die_reaches_the_value():
    hummer = _vehicle()
    ctx = _ctx(hummer, faces=(4, 3))
    assert hits.vehicle_hits(ctx, hummer, 2, by_side="irregulars", column="light", flank=False) is False
    assert _facts(ctx) == [
        _vehicle_roll("hummer", (4, 3), 4, "knocked out"),
        ("out", "hummer", "knocked out by irregulars"),
    ]


def test_small_arms_leave_a_tank_unharmed_and_an_unknown_type_is_refused():
    tank = _vehicle("abrams", cls="tank")
    ctx = _ctx(tank)
    assert hits.take_hits(ctx, tank, 3, by_side="irregulars") is True
    assert _facts(ctx) == [("note", "Abrams is unharmed: this weapon cannot hurt it (§9.2)")]
    odd = _vehicle("cart", cls="cart")
    assert refusal(hits.take_hits, _ctx(odd), odd, 1, by_side="irregulars", rule="VSAVE-1") == (
        "Cart has no vehicle type (tank, heavy, light, protected, unprotected)"
    )


def test_a_vehicle_failing_by_3_explodes_and_its_crew_saves_to_get_out_suppressed():
    """§9.2: the Hummer (protected) needs 6 against light anti-tank: a 3 fails by 3 and it
    explodes.  §9.1: each man inside saves (R2: 3+); the one who saves gets out of the
    wreck suppressed, the one who fails is killed."""
    hummer = _vehicle()
    m4 = _man("m4", "in-vehicle", cls="R2", side="regulars")
    rook = _man("rook", "in-vehicle", cls="R5", side="regulars")
    walker = _man("walker", cls="R2", side="regulars")
    aboard = {"secret.aboard.m4": "hummer", "secret.aboard.rook": "hummer"}
    ctx = _ctx(hummer, m4, rook, walker, faces=(3, 4, 1), variables=aboard)
    assert hits.take_hits(ctx, hummer, 1, by_side="irregulars", vehicle_column="light_at") is False
    check = saves.save_check(3, ())
    assert _facts(ctx) == [
        _vehicle_roll("hummer", (3,), 6, "explodes"),
        ("out", "hummer", "destroyed by irregulars"),
        ("roll", "m4", "save", (4,), 3, (), "§9.1", "saved: suppressed", check),
        ("status", "m4", ("suppressed",), ()),
        ("status", "m4", (), ("in-vehicle",)),
        ("var", "secret.aboard.m4", ""),
        ("roll", "rook", "save", (1,), 3, (), "§9.1", "failed: out of action", check),
        ("out", "rook", "killed by irregulars"),
        ("var", "secret.aboard.rook", ""),
    ]
    assert hits.occupants(ctx.state, hummer) == []


def test_the_italian_draft_counts_a_tank_as_a_heavy_explosion():
    """DIFF: the Italian draft's crew of an exploding tank save as in a heavy vehicle."""
    for variant, value in (("", 3), (IT, saves.save_table().vehicle_explosion_heavy)):
        tank = _vehicle("abrams", cls="tank")
        crew = _man("tc", "in-vehicle", cls="R2", side="regulars")
        ctx = _ctx(tank, crew, faces=(1, 6), variant=variant, variables={"secret.aboard.tc": "abrams"})
        hits.take_hits(ctx, tank, 1, by_side="irregulars", vehicle_column="heavy_at", flank=True)
        assert _facts(ctx)[2][4] == value, variant


def test_occupants_are_the_men_in_play_aboard():
    hummer = _vehicle()
    a = _man("a", "in-vehicle", side="regulars")
    b = Unit(id="b", name="B", side="regulars", out="killed")
    c = _man("c", side="regulars")
    state = _ctx(hummer, a, b, c, variables={"secret.aboard.a": "hummer", "secret.aboard.b": "hummer"}).state
    assert [u.id for u in hits.occupants(state, hummer)] == ["a"]


def test_a_vehicle_under_a_bombardment_saves_with_2_more():
    """§8.4 with §9.2 (ART-4): "all the models in the area must make a saving throw (with a
    bonus of +2 to the roll)", a vehicle as well.  The Hummer (protected) needs 4 against
    light weapons: a 2 and a 1 fail by 2 and 3 bare, so it would explode; with the +2 the
    2 saves and the 1 fails by 1: knocked out, not destroyed."""
    hummer = _vehicle()
    ctx = _ctx(hummer, faces=(2, 1))
    assert hits.take_hits(ctx, hummer, 2, by_side="irregulars", source=saves.BOMBARDMENT) is False
    assert _facts(ctx) == [
        (
            "roll",
            "hummer",
            "vehicle save",
            (2, 1),
            4,
            (("bombardment", 2),),
            "§9.2",
            "knocked out",
            saves.vehicle_save_check(4, 2),
        ),
        ("out", "hummer", "knocked out by irregulars"),
    ]
    hummer = _vehicle()
    ctx = _ctx(hummer, faces=(2, 1))
    assert hits.take_hits(ctx, hummer, 2, by_side="irregulars") is False
    assert _facts(ctx) == [_vehicle_roll("hummer", (2, 1), 4, "explodes"), ("out", "hummer", "destroyed by irregulars")]


def test_a_vehicle_that_lost_its_driver_is_driverless_until_another_driver_is_aboard():
    """§8.8 (VF-2, ruling BN-C-DRIVER): the driver put out of action, the vehicle runs on and
    stops; it is driven again only by another driver aboard, not by a passenger, nor by a
    driver who is out of play or in another vehicle."""
    hummer = _vehicle()
    rider = _man("rik", "in-vehicle", cls="R2", side="regulars")
    driver = _man("dan", "in-vehicle", cls="R2", side="regulars", roles=("driver",))
    aboard = {"secret.aboard.rik": "hummer", "secret.aboard.dan": "hummer"}
    assert hits.driverless(_ctx(hummer, rider, driver, variables=aboard).state, hummer) is False
    lost = {**aboard, "secret.driverless.hummer": 1}
    assert hits.driverless(_ctx(hummer, rider, driver, variables=lost).state, hummer) is False
    assert hits.driverless(_ctx(hummer, rider, variables=lost).state, hummer) is True
    elsewhere = {**lost, "secret.aboard.dan": "techie"}
    assert hits.driverless(_ctx(hummer, rider, driver, variables=elsewhere).state, hummer) is True


def test_a_man_aboard_is_refused_any_step_on_foot_in_words():
    """§6.3 (MOV-5, ruling BN-C-EMBARK): getting out is a complete move, so a man aboard takes
    no step on foot until he has; a man on foot is not refused.  A man wearing the badge
    with no vehicle recorded (a scenario's status alone) or an unknown one is refused too."""
    rider = _man("rik", "in-vehicle", cls="R2", side="regulars")
    ctx = _ctx(rider, _vehicle(), variables={"secret.aboard.rik": "hummer"})
    assert refusal(hits.require_on_foot, ctx, rider, rule="MOV-5") == (
        "Rik is aboard Hummer: getting out is his whole move (disembark, §6.3)"
    )
    hits.require_on_foot(ctx, _man("walker", cls="R2", side="regulars"))
    ctx = _ctx(rider, variables={"secret.aboard.rik": "ghost"})
    assert refusal(hits.require_on_foot, ctx, rider, rule="MOV-5") == (
        "Rik is aboard ghost: getting out is his whole move (disembark, §6.3)"
    )
    assert refusal(hits.require_on_foot, _ctx(rider), rider, rule="MOV-5") == (
        "Rik is aboard a vehicle: getting out is his whole move (disembark, §6.3)"
    )


# ------------------------------------------------------- sighted and actions


def test_a_hidden_figure_revealed_is_sighted_in_words():
    man = _man("kalash", "hidden")
    ctx = _ctx(man)
    hits.reveal(ctx, man, "fires")
    assert _facts(ctx) == [("status", "kalash", (), ("hidden",)), ("note", "Kalash fires and is sighted (§7.0)")]
    ctx = _ctx(_man())
    hits.reveal(ctx, ctx.unit("kalash"), "fires")
    assert ctx.events == []


def test_an_action_is_numbered_with_the_men_seen_and_hidden_men_alone_are_not():
    a, b, h = _man("a", side="regulars"), _man("b", side="regulars"), _man("h", "hidden", side="regulars")
    ctx = _ctx(a, b, h, turn=3)
    hits.next_action(ctx, [a, h, b])
    assert _facts(ctx) == [("var", "action", "1:3:a,b:1")]  # the 1st of turn 3's activation too
    hits.next_action(ctx, [h])
    assert hits.action_number(ctx.state) == 1 and hits.action_actors(ctx.state) == ("a", "b")


def test_the_action_within_this_turns_activation_is_read_from_this_turns_record():
    """§5.0 (one activation a turn): ``action`` is ``N:TURN:ids:K``, K the action within the
    activation.  Another turn's record, or one made before K was recorded ("N:TURN:ids",
    an older save's, whose actors are still read), counts from 0 again, as none does."""
    state = _ctx(turn=2).state
    assert hits.activation_action(state) == 0
    state.vars["action"] = "7:2:a,b:3"
    assert hits.activation_action(state) == 3 and hits.action_actors(state) == ("a", "b")
    state.vars["action"] = "6:1:a:3"
    assert hits.activation_action(state) == 0 and hits.action_actors(state) == ()
    state.vars["action"] = "5:2:a,b"
    assert hits.activation_action(state) == 0 and hits.action_actors(state) == ("a", "b")
    state.vars["action"] = 5
    assert hits.activation_action(state) == 0


def test_a_groups_fire_completes_its_move_only_if_every_firer_moved_in_that_action():
    """§6.4 (ACT-3, ruling BN-C-GROUP): a group's move and its fire are one action when every
    firer moved, by a move that leaves him his fire, in the latest action in sight: a man
    who moved in an earlier action, or one named in it who did not move, breaks it."""
    a, b = _man("a", "moved", side="regulars"), _man("b", "crept", side="regulars")
    state = _ctx(a, b, variables={"action": "4:2:a,b:2"}).state
    assert hits.moved_to_fire(state, [a, b]) is True
    assert hits.moved_to_fire(state, [a, _man("c", "moved", side="regulars")]) is False
    assert hits.moved_to_fire(state, [a, _man("b", side="regulars")]) is False
    assert hits.moved_to_fire(state, [a, b], hits.MOVES_TO_COVER) is False


def test_a_badge_is_added_once_and_removed_only_if_held():
    man = _man("m", "suppressed")
    ctx = _ctx(man)
    hits.badge(ctx, man, "suppressed", "fired", remove=("hidden", "suppressed"))
    assert _facts(ctx) == [("status", "m", ("fired",), ("suppressed",))]
    again = _man("m", "suppressed")
    ctx = _ctx(again)
    hits.badge(ctx, again, "suppressed")
    assert ctx.events == []


def test_why_a_figure_is_out_reads_in_the_seats_language():
    """Rulings I18N-BN: the cause in a refusal is the ruleset's words in the reader's language."""
    from core.language.reader import reading

    dead = Unit(id="d", name="Dead Dan", side="regulars", out=hits.cause(hits.KILLED, "irregulars"))
    with reading("it"):
        assert (
            refusal(hits.require_in_play, dead, rule="SAVE-2")
            == "Dead Dan è fuori combattimento (ucciso da irregulars)"
        )


def test_a_side_names_only_the_figures_it_can_see():
    """§7.0: a hidden enemy is not found by a side's words, as it is by the referee's."""
    ghost = _man("ghost", "hidden")
    ctx = _ctx(ghost)
    assert [u.id for u in hits.resolve_units(ctx, "ghost")] == ["ghost"]
    ctx = _ctx(_man("ghost", "hidden"))
    ctx.role = "regulars"
    assert refusal(hits.resolve_units, ctx, "ghost", rule=TYPING) == "no unit 'ghost'"


def test_an_older_saves_bare_action_number_names_no_actors():
    """§8.2: a save made before the actors were recorded holds the bare number: who acted is
    not known (None), where no action yet this turn is none (())."""
    state = _ctx().state
    assert hits.action_actors(state) == ()
    state.vars["action"] = 3
    assert hits.action_actors(state) is None and hits.action_number(state) == 3
    state.vars["action"] = "4:1:a"
    assert hits.action_actors(state) == () and hits.action_number(state) == 4  # another turn's


@pytest.mark.parametrize("vid", ["0", "None", "XXXX"])
def test_a_man_never_aboard_is_no_vehicles_occupant_whatever_its_id(vid):
    """§8.8: "" is the one value no piece's id can take (scenario ids start with a letter or
    a digit), so a man never aboard is aboard nothing, whatever the vehicles are called."""
    driver = _man("dan", cls="R2", side="regulars", roles=("driver",))
    truck = _vehicle(vid)
    ctx = _ctx(driver, truck)
    assert hits.occupants(ctx.state, truck) == []
    hits.casualty(ctx, driver, "irregulars")
    assert _facts(ctx) == [("out", "dan", "killed by irregulars")]
