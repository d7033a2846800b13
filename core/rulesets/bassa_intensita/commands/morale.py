"""Morale checks (A.13) and the referee's motivation (BI-R011), as commands.

The engine makes a check due itself for what it knows (M5, M6, M7: see
``casualties.py``); the referee calls the others (M1-M4: sights and distances on the
table) by naming the trigger.  The referee rolls every check, since only he knows the
cover, the distances and who is hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import Unit
from core.log.views import unit_audience
from core.ruleset import CommandSpec, Context, Param, Question, Refused, flag
from core.rulesets.bassa_intensita import casualties, dice_order, rules, squads
from core.rulesets.bassa_intensita.commands.common import quality, roll_under
from core.rulesets.bassa_intensita.phases import MOVE_PHASES
from core.rulesets.bassa_intensita.rules import damage, morale
from core.rulesets.bassa_intensita.tables import air, move_modes
from core.rulesets.bassa_intensita.tables import morale as morale_table
from core.rulesets.bassa_intensita.terms import Kind, MoraleEffect, Status
from core.rulesets.bassa_intensita.words import _, word

DUE = casualties.DUE
#: More seriously wounded men than this within 10 cm is a typing error.
MAX_NEAR = 50
#: The running allowance a panicking man flees with (BI-R182; ruling BI-PANIC).
RUN = "running"
#: A.13.1's trigger of an air, field-artillery or heavy-mortar attack within 20 cm: HE fire.
M3 = "m3"


def _isolated_for_morale(ctx: Context, unit: Unit, said: bool) -> bool:
    """BI-R024/R025/R027/R028: the referee's word, a leaderless squad, a vehicle whose
    radio is gone or an armed transport turned combat vehicle."""
    return (
        said
        or squads.leader_lost(ctx.state, unit)
        or unit.has(Status.RADIO_OUT)
        or (unit.kind != Kind.MAN and unit.has(Status.COMBAT_VEHICLE))
    )


def mod_ids(ctx: Context, unit: Unit, args: dict[str, Any]) -> list[str]:
    """Which rows of BI-R181 apply, from his badges, his squad and what the referee says."""
    ids = []
    if unit.has(Status.WOUNDED):
        ids.append("wounded")
    if _isolated_for_morale(ctx, unit, bool(args["isolated"])):
        ids.append("isolated")
    if args["cover"] in casualties.COVERS:
        # "In copertura pesante +2": a trench is heavy cover, as for fire (BI-R080)
        ids.append("heavy-cover" if args["cover"] == "trench" else f"{args['cover']}-cover")
    if unit.has(Status.MORALE_FIRE) or unit.has(Status.SHOT_AT) or args["fire"] or args["trigger"] == M3:
        # A.13.2 "Sotto tiro di Alto Esplosivo": an M3 check is called by an air, artillery or
        # heavy mortar attack within 20 cm, bombs or shells (digest BI-AMB-41; ruling BI-M3);
        # a man fired at by automatic weapons or HE in this phase is under fire whatever
        # calls his check (BI-AMB-41)
        ids.append("under-fire")
    if squads.leader_lost(ctx.state, unit):
        ids.append("commander-killed")  # ruling BI-COMMANDER-KILLED (digest BI-AMB-42)
    return ids


def given_cover(unit: Unit) -> str:
    """The cover the fire line that made his check due gave him ("" if none said)."""
    return next((c for c in casualties.COVERS if unit.has(f"morale-cover-{c}")), "")


def _morale(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R180..R184: 1d10 under Quality + 3, modified; if it fails, 1d6 for the effect."""
    unit = ctx.unit(args["unit"])
    if not unit.in_play:
        raise Refused(_("{unit} is out of action").format(unit=unit.name), rule=("BI-R180", "BI-R110"))
    if unit.has(Status.SERIOUSLY_WOUNDED):
        raise Refused(
            _("{unit} is seriously wounded: he can do nothing, morale included (BI-R110)").format(unit=unit.name),
            rule="BI-R110",
        )
    trigger = args["trigger"]
    if not unit.has(Status.MORALE_DUE) and not trigger:
        raise Refused(
            _("no check is due for {unit}: name its trigger (m1 to m7, A.13.1)").format(unit=unit.name),
            rule=("BI-R180", "BI-AMB-40"),
        )
    cover = args["cover"] or given_cover(unit)
    take_check(ctx, unit, {**args, "cover": cover}, lambda: bool(args["enemy"]))


def take_check(ctx: Context, unit: Unit, args: dict[str, Any], enemy_near: Callable[[], bool]) -> None:
    """One morale check (A.13.2): ``args`` as the ``morale`` command's; ``enemy_near``
    says, when it matters (a Surrender, BI-R182), whether a visible enemy is within 12 cm."""
    trigger = args["trigger"]
    near = args["near"] or 0
    chance, mods = morale.pass_chance(
        quality(unit),
        mod_ids(ctx, unit, args),
        near_seriously_wounded=near,
        fanatic=max(0, min(2, unit.stats.get("fanatic", 0))),
        table_mod=next((int(b.removeprefix("morale-table")) for b in unit.status if b.startswith("morale-table")), 0),
    )
    mods = (ev.Mod(M("{tier} Quality", tier=word(unit.cls)), quality(unit), "BI-R010"), *mods)
    ctx.emit(ev.StatusChanged(unit=unit.id, remove=tuple(b for b in DUE if unit.has(b))))
    why = word(casualties.TRIGGERS[trigger].label) if trigger else M("the check that is due")
    purpose, failed = M("morale ({why})", why=why), M("failed: roll the effect")
    if roll_under(ctx, purpose, unit, chance, mods, "A.13.2", M("passed"), failed, step=dice_order.MORALE):
        return
    armoured = bool(damage.armour_column(unit))
    emods = morale.effect_mods(elite=unit.cls == "elite", undamaged_armour=armoured and not unit.has(Status.DAMAGED))
    shocked = unit.has(Status.SHOCKED)
    (face,) = ctx.roll(
        M("morale effect"),
        1,
        step=dice_order.MORALE_EFFECT,
        mods=emods,
        rule="A.13.3",
        unit=unit.id,
        outcome=lambda f: word(morale.effect(f[0], emods, already_shocked=shocked)),
        check=ev.Read(),  # a row of the morale effects table
    )
    result = morale.effect(face, emods, already_shocked=shocked)
    if "helicopter" in unit.roles:
        helicopter_effect(ctx, unit, result)
        return
    surrenders = result == MoraleEffect.SURRENDER and unit.kind == Kind.MAN
    apply_effect(ctx, unit, result, surrenders and enemy_near())


# ------------------------------------------------------------ the checks next takes

#: What ``next`` asks of each check due whose cover no fire line gave (BI-R181).
COVER_QUESTION = M("cover for his morale check")
#: What it asks of a man whose check came to Surrender (BI-R182).
ENEMY_QUESTION = M("surrender: a visible enemy within 12 cm to surrender to?")


def _cover_question() -> Question:
    """BI-R181's cover rows, as the answers to ``next``'s question: none, or the row's
    modifier (a trench counts as heavy cover, BI-R080)."""
    rows = {m.id: m for m in morale_table().modifiers}
    light, heavy = rows["light-cover"], rows["heavy-cover"]
    return Question(
        COVER_QUESTION,
        ("none", *casualties.COVERS),
        meanings=(
            M("in the open"),
            M("{row} +{add}", row=word(light.label), add=light.add),
            M("{row} +{add}", row=word(heavy.label), add=heavy.add),
            M("a trench counts as heavy cover: +{add}", add=heavy.add),
        ),
        default="none",
        rule="BI-R181",
    )


def _enemy_question() -> Question:
    return Question(
        ENEMY_QUESTION,
        ("yes", "no"),
        meanings=(M("he surrenders"), M("he panics instead")),
        default="no",
        rule="BI-R182",
    )


def run_due(ctx: Context) -> None:
    """Every check due, in one go, for ``next`` (A.13.1; ruling BI-MORALE-NEXT): side by
    side, man by man as the scenario lists them.  Each asks only what the game cannot
    know: his cover, unless the fire line that made it due gave it; whether an enemy is
    near, only when he surrenders.  Isolation beyond command distance and seriously
    wounded men near him are the referee's to give with ``morale NAME isolated near=N``
    before ``next``."""
    order = list(ctx.state.sides)
    due = sorted(
        (u for u in ctx.state.units.values() if u.in_play and u.has(Status.MORALE_DUE)),
        key=lambda u: order.index(u.side) if u.side in order else len(order),
    )
    for listed in due:
        unit = ctx.unit(listed.id)
        if not unit.in_play or not unit.has(Status.MORALE_DUE):
            continue  # an earlier check's effect took him out, or settled it
        if unit.has(Status.SERIOUSLY_WOUNDED):
            ctx.emit(ev.StatusChanged(unit=unit.id, remove=tuple(b for b in DUE if unit.has(b))))
            continue  # he can do nothing, morale included (BI-R110)
        cover = given_cover(unit) or ctx.ask(_cover_question(), unit=unit.id)
        args = {"trigger": None, "cover": cover, "isolated": False, "fire": False, "near": 0}
        with ctx.at_step(dice_order.NEXT_MORALE):
            take_check(ctx, unit, args, lambda unit=unit: ctx.ask(_enemy_question(), unit=unit.id) == "yes")  # type: ignore[misc]  # a lambda binding a value by default argument


def helicopter_effect(ctx: Context, unit: Unit, result: str) -> None:
    """BI-R264: for a helicopter Shocked and Surrender both count as Panic; after a
    Surrender it lands or goes home on 1d6 of 1 or 2, which the referee says."""
    if result == "surrender":
        (face,) = ctx.roll(
            M("breaking off"),
            1,
            step=dice_order.MORALE_PILOT,
            rule="BI-R264",
            unit=unit.id,
            outcome=lambda f: M("lands or goes back to base") if f[0] <= air().rotor_fails else M("stays"),
            check=ev.AtLeast(face=air().rotor_fails + 1),  # BI-R264: it stays
        )
        if face <= air().rotor_fails:
            # "atterra o rientra alla base": either; the referee records which (mark UNIT
            # landed, or out UNIT), as for a failing rotor (BI-R263)
            ctx.emit(
                ev.Noted(
                    text=M("{unit} lands or goes back to base: the referee says which", unit=unit.name),
                    vis=unit_audience(unit),
                )
            )
            return
    flee(ctx, unit)
    casualties.shock(ctx, unit)


def apply_effect(ctx: Context, unit: Unit, effect: str, enemy_near: bool) -> None:
    """BI-R182: Shocked; Panic (flight at full speed, then Shocked); Surrender (to
    visible enemies within 12 cm; with none, Panic leaving heavy weapons behind; a
    vehicle's crew abandons it and panics)."""
    if effect == MoraleEffect.SHOCKED:
        casualties.shock(ctx, unit)
        return
    if effect == MoraleEffect.SURRENDER:
        if unit.kind != Kind.MAN:
            for man in casualties.aboard(ctx.state, unit):
                ctx.emit(ev.StatusChanged(unit=man.id, remove=(f"aboard-{unit.id}", "in-vehicle")))
            ctx.emit(ev.UnitOut(unit=unit.id, cause=casualties.ABANDONED))
            return
        if enemy_near:
            ctx.emit(ev.UnitOut(unit=unit.id, cause=M("surrendered (BI-R182)")))
            return
        heavy = [w for w in unit.weapons if w in casualties.HEAVY_WEAPONS and not unit.has(f"weapon-lost-{w}")]
        if not heavy:
            ctx.emit(
                ev.Noted(
                    text=M("no enemy to surrender to: {unit} panics instead (BI-R182)", unit=unit.name),
                    vis=unit_audience(unit),
                )
            )
        else:
            ctx.emit(ev.StatusChanged(unit=unit.id, add=tuple(f"weapon-lost-{w}" for w in heavy)))
            ctx.emit(
                ev.Noted(
                    text=M(
                        "no enemy to surrender to: {unit} panics and leaves {weapons} behind",
                        unit=unit.name,
                        weapons=", ".join(heavy),
                    ),
                    vis=unit_audience(unit),
                )
            )
    flee(ctx, unit)
    casualties.shock(ctx, unit)


def flee(ctx: Context, unit: Unit) -> None:
    """Panic: at once, his full allowance towards cover away from the enemy (ruling
    BI-PANIC, digest BI-AMB-45): running, less what BI-R042 takes from it (-50% wounded,
    -25% standing up from prone, -25% in the movement phase after automatic or HE fire at
    him in the fire phase before, added); a vehicle its allowance on
    the ground it stands on (``on-road`` after a move on a road), as mobility hits
    have left it."""
    if "helicopter" in unit.roles:
        ctx.emit(
            ev.Noted(
                text=M("{unit} flees at full speed, away from the enemy: move it (BI-R255)", unit=unit.name),
                vis=unit_audience(unit),
            )
        )
        return
    if unit.kind == Kind.MAN:
        in_movement = ctx.state.phase in ("cover", *MOVE_PHASES, "observe")
        mods = [
            m
            for m, on in (
                ("wounded", unit.has(Status.WOUNDED)),
                ("stand-up", unit.has(Status.PRONE)),
                ("under-fire", in_movement and unit.has(Status.UNDER_FIRE)),
            )
            if on
        ]
        cm = rules.foot_allowance(move_modes()[RUN].cm, mods)
    else:
        vtype = damage.vehicle_type(unit)
        halvings = 2 if unit.has(Status.SLOWED_TWICE) else 1 if unit.has(Status.SLOWED) else 0
        on_road = unit.has(Status.ON_ROAD)  # BI-R045: road and off-road allowances differ
        cm = (
            rules.vehicle_allowance(vtype.road, vtype.off_road, on_road, halvings, unit.has(Status.IMMOBILISED))
            if vtype
            else 0
        )
    if cm:
        ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=M("panic: towards cover, away from the enemy")))
        if unit.has("emplaced"):  # A.9.3: his weapon is left off its position (ruling BI-EMPLACED)
            ctx.emit(ev.StatusChanged(unit=unit.id, remove=("emplaced",)))
    else:
        ctx.emit(ev.Noted(text=M("{unit} panics but cannot move", unit=unit.name), vis=unit_audience(unit)))


def _motivation(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R011: the referee gives a unit +1 or -1 (or 0 to take it back)."""
    unit = ctx.unit(args["unit"])
    value = args["value"]  # -1, 0 or +1 (BI-R011): the parameter's bounds
    remove = tuple(b for b in ("motivation+1", "motivation-1") if unit.has(b))
    add = (f"motivation{value:+d}",) if value else ()
    ctx.emit(ev.StatusChanged(unit=unit.id, add=add, remove=tuple(b for b in remove if b not in add)))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "morale",
        "Roll a morale check: the one that is due, or one the referee calls by its trigger (m1 to m7). "
        "Dice: 1d10 under Quality + 3, modified; if it fails, 1d6 for the effect.",
        _morale,
        params=(
            Param("unit", "unit"),
            Param(
                "trigger",
                "choice",
                "why, if none is due",
                optional=True,
                choices=tuple(casualties.TRIGGERS),
                meanings=tuple(t.label for t in casualties.TRIGGERS.values()),  # A.13.1: the triggers' words
            ),
            Param("cover", "choice", "his cover", optional=True, choices=("light", "heavy", "trench"), keyword=True),
            flag("isolated", "beyond command distance"),
            flag("fire", "under HE or automatic fire this phase"),
            Param("near", "int", "friendly seriously wounded within 10 cm", optional=True, keyword=True, hi=MAX_NEAR),
            flag("enemy", "a visible enemy within 12 cm (to surrender to)"),
        ),
        rule="A.13",
        examples=("morale omar heavy", "morale karim m4", "morale yusuf near=1 enemy"),
        who="referee",
        rolls=True,
        dice=(
            dice_order.MORALE,
            dice_order.MORALE_EFFECT,
            dice_order.MORALE_PILOT,
        ),
    ),
    CommandSpec(
        "motivation",
        "The referee's +1 or -1 to a unit's chance for motivation or fatigue (0 takes it back). No dice.",
        _motivation,
        params=(Param("unit", "unit"), Param("value", "int", "-1, 0 or +1", lo=-1, hi=1)),
        rule="BI-R011",
        examples=("motivation karim -1",),
        who="referee",
    ),
)
