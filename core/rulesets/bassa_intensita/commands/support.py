"""Indirect fire (A.11), air strikes (A.15.1) and smoke (A.14.2), as commands.

An observer's call for fire goes through stages, kept in the referee's variable
``secret.support.<observer>`` as ``stage:source:turn`` (the target is the referee's
to know): ``contacted`` (the guns answer next turn with a ranging shot), ``lost`` (the
shot went who knows where, or out of his sight: another ranging shot next turn, no new
contact), ``ranged`` (it landed where he sees it: next turn fire for effect, or shift).
An aircraft has no ranging shot: once contacted it attacks in the next fire phase, and
then it is ``attacked``: another attack needs another call.
Smoke clouds are public: ``smoke.<n>`` holds "kind|size|who laid it|last turn" (kind:
grenade, dischargers, shells, or napalm, whose last turn is ``-``: it burns for the rest
of the game; :func:`smoke_what` puts it in words).
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import N_, M, Msg, Text
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import casualties, dice_order, rules
from core.rulesets.bassa_intensita.commands import air as air_commands
from core.rulesets.bassa_intensita.commands.common import (
    ISOLATED,
    LEAD,
    badges,
    fired_at,
    in_own_tier,
    isolated,
    passes_isolation,
    quality,
    reachable,
    ready,
    roll_under,
    very_easy_done,
)
from core.rulesets.bassa_intensita.phases import TIER_PHASES
from core.rulesets.bassa_intensita.rules import he
from core.rulesets.bassa_intensita.tables import high_explosive, hit_modifiers, indirect, weapons
from core.rulesets.bassa_intensita.terms import Kind, PhaseId, Status
from core.rulesets.bassa_intensita.words import _, pgettext, render, typed_term, whose, word

DONE, FAILED = M("done"), M("failed")

OBSERVERS = ("observer", "commander")
#: The largest calibre the engine takes (no field gun is bigger).
MAX_MM = 1000
BOMBS = ("ap", "at", "napalm")
#: Air attack areas (BI-R251, BI-R253), in cm.
AIR_LONG, AIR_SHORT, STRAFE = "60 x 20", "30 x 10", "10 x 60"
#: The stage of an observer whose aircraft have made their attack (BI-R250, BI-R253).
ATTACKED = "attacked"
#: A.13.1 M3: a mortar's attack calls for morale checks within 20 cm over this calibre;
#: whether an observer's supporting fire does is kept, from his call, in ``M3_KEY<id>``.
MORTAR_M3_MM = 100
M3_KEY = "secret.m3."
#: The last turn of a cloud that never lifts: napalm's (BI-R252).
FOR_GOOD = "-"


def _key(unit: Unit) -> str:
    return f"secret.support.{unit.id}"


def stage_of(ctx: Context, unit: Unit) -> tuple[str, str, int]:
    raw = str(ctx.state.vars.get(_key(unit), ""))
    if not raw:
        return "", "", 0
    stage, source, turn = raw.split(":")
    return stage, source, int(turn)


def _set(ctx: Context, unit: Unit, stage: str, source: str) -> None:
    """Known to the observer's side and the referee only."""
    ctx.emit(ev.VarSet(key=_key(unit), value=f"{stage}:{source}:{ctx.state.turn}", vis=(unit.side,)))


def _observer(ctx: Context, args: dict[str, Any]) -> Unit:
    unit = ctx.unit(args["observer"])
    if unit.kind != Kind.MAN or not any(r in unit.roles for r in OBSERVERS):
        raise Refused(
            _("{unit} is not a forward observer or a commander with a radio (BI-R100)").format(unit=unit.name),
            rule="BI-R100",
        )
    return unit


def _source(args: dict[str, Any]) -> str:
    """What fires: a gun/mortar row of A.10.2 by calibre, or an aircraft and its bombs."""
    if args["kind"] == "air":
        return f"air-{args['bomb'] or 'ap'}"
    mm = args["mm"]
    if not mm:
        raise Refused(
            _("give the calibre of the guns or mortars, 1 to {MAX_MM} mm: mm=81 (A.10.2)").format(MAX_MM=MAX_MM),
            rule=("BI-R091", "BI-AMB-25"),
        )
    return he.area_by_calibre(mm).id


def _call(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R100..R102, BI-R250: the observer contacts the guns or the aircraft (an action)."""
    unit = _observer(ctx, args)
    in_own_tier(ctx, unit)
    ready(unit, "act")
    source = _source(args)
    contacts = {c.id: c for c in indirect().contacts}
    difficulty = args["difficulty"] or (contacts[args["kind"]].difficulty if args["kind"] in contacts else "normal")
    if unit.has(Status.WOUNDED):
        difficulty = rules.shift_difficulty(difficulty, 1)
    chance = rules.action_chance(quality(unit), difficulty)
    if chance <= 0:
        raise Refused(
            _("{unit} cannot make that contact ({difficulty}; BI-R069)").format(
                unit=unit.name, difficulty=render(word(difficulty))
            ),
            rule="BI-R069",
        )
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("acted",)))
    what = M("the aircraft") if args["kind"] == "air" else word(contacts[args["kind"]].label)
    # the call is heard by his own side only (and the referee)
    mine = (unit.side,)
    purpose = M("contact with {what} ({difficulty})", what=what, difficulty=word(difficulty))
    ok = chance >= rules.D10 or roll_under(
        ctx, purpose, unit, chance, (), "BI-R102", DONE, FAILED, vis=mine, step=dice_order.CONTACT
    )
    if ok:
        _set(ctx, unit, "contacted", source)
        if args["kind"] != "air":
            # A.13.1 M3: field artillery (a battery) whatever its calibre, a mortar over 100 mm
            m3 = args["kind"] != "mortar" or args["mm"] > MORTAR_M3_MM
            ctx.emit(ev.VarSet(key=f"{M3_KEY}{unit.id}", value=1 if m3 else 0))
        if args["kind"] == "air":
            text = M("{unit} is through: it attacks in the next turn's fire phase", unit=unit.name)
        else:
            text = M("{unit} is through: it fires a ranging shot in the next turn's fire phase", unit=unit.name)
        ctx.emit(ev.Noted(text=text, vis=mine))


def landing(ctx: Context, unit: Unit, what: Msg) -> str:
    """BI-R103: precise or not (1d10 under his Quality), where (1d10), then each offset.
    Returns the row id ("lost" for who knows where)."""
    precise = roll_under(
        ctx,
        M("precision of {what}", what=what),
        unit,
        quality(unit),
        (),
        "BI-R103",
        M("precise"),
        M("imprecise"),
        step=dice_order.PRECISION,
    )
    table = "precise" if precise else "imprecise"
    (face,) = ctx.roll(
        M("landing of {what} ({table})", what=what, table=word(table)),
        1,
        step=dice_order.LANDING,
        sides=rules.D10,
        rule="A.11",
        unit=unit.id,
        outcome=lambda f: he.ranging(table, f[0]).words,
        check=ev.Read(),  # a row of the ranging table
    )
    row = he.ranging(table, face)
    count, sides = he.offset_dice(table)

    def offset(way: Msg, step: str) -> int:
        """A.11: how far the shot falls one way, the dice's total in cm."""
        return sum(
            ctx.roll(
                M("how far {what} falls {way}", what=what, way=way),
                count,
                step=step,
                sides=sides,
                total=True,
                rule="A.11",
                unit=unit.id,
                outcome=lambda f: M("{cm} cm", cm=sum(f)),
                check=ev.Read(),
            )
        )

    along = offset(word("long" if row.long > 0 else "short"), dice_order.LONG_OR_SHORT) if row.long else 0
    across = offset(word("right" if row.side > 0 else "left"), dice_order.LEFT_OR_RIGHT) if row.side else 0
    ctx.emit(ev.Noted(text=M("{what} lands {where}", what=what, where=he.describe_landing(row, along, across))))
    return row.id


def _due(ctx: Context, unit: Unit, wanted: tuple[str, ...], what: str) -> tuple[str, str]:
    stage, source, turn = stage_of(ctx, unit)
    if stage not in wanted:
        raise Refused(
            _("{unit} has no {what} to order now (stage: {stage}; A.11)").format(
                unit=unit.name, what=_(what), stage=pgettext("term", stage) if stage else _("no contact")
            ),
            rule=("BI-R100", "BI-R103"),
        )
    if ctx.state.turn <= turn:
        raise Refused(_("that comes in the fire phase of the next turn (BI-R103)"), rule="BI-R103")
    if air_commands.lapsed(ctx.state, unit.side, stage, source, turn):
        raise Refused(
            _("{unit}'s call of turn {turn} was for the fire phase of turn {next}: it has lapsed, call again").format(
                unit=unit.name, turn=turn, next=turn + 1
            ),
            rule=("BI-R103", "BI-AMB-33"),
        )
    return stage, source


def _ranging(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R103/R104: the guns fire one ranging shot (in the observer's tier, ruling BI-RANGING-TIER)."""
    unit = _observer(ctx, args)
    in_own_tier(ctx, unit)
    _stage, source = _due(ctx, unit, ("contacted", "lost"), N_("ranging shot"))
    if source.startswith("air"):
        raise Refused(_("aircraft fire no ranging shots: order the attack with ffe (BI-R250)"), rule="BI-R250")
    row = landing(ctx, unit, M("the ranging shot"))
    seen = not args["unseen"]
    if row == "lost" or not seen:
        if seen is False:
            text = M("{unit} cannot see where it fell: as if lost (ruling BI-RANGING-LOST)", unit=unit.name)
            ctx.emit(ev.Noted(text=text))
        _set(ctx, unit, "lost", source)
    else:
        _set(ctx, unit, "ranged", source)


#: The notes of a fire for effect and of an air strike, as the save records them: they
#: tell the referee the command that lands each burst (``note_for_a_side`` words them
#: for a side, who is told what lands, not what to type).
FFE_NOTE = N_(
    "fire for effect lands on the ranging point: everyone within {short} cm (short) and {long} cm (long): "
    "burst UNIT source={source} indirect"
)
AIR_NOTE = N_(
    "{bomb} bombs: a {long} cm area at long distance, its centre {short} cm at short "
    "(burst UNIT source=bomb-{bomb}); then a strafing pass may follow: strafe UNIT (BI-R251..R253)"
)
#: The air strike's note as the referee reads it: the bombs' source as he types it (#61).
AIR_NOTE_TYPED = N_(
    "{bomb} bombs: a {long} cm area at long distance, its centre {short} cm at short "
    "(burst UNIT source={source}); then a strafing pass may follow: strafe UNIT (BI-R251..R253)"
)
STRAFE_NOTE = N_(
    "the strafing pass fires on a {strip} cm strip where it lands: each target there as by a "
    "20/35 mm autocannon: strafe UNIT (BI-R253)"
)


def _area_words(source: str) -> Msg:
    areas = {a.id: a for a in high_explosive().areas}
    a = areas[source]
    return M(FFE_NOTE, short=a.short, long=a.long, source=source)


def source_words(source: str) -> str:
    """What fires in support by its row of A.10.2 (``gun-102``: "Cannoni/mortai <103mm"),
    as the burst it lands is named; anything else (an aircraft's bombs) by its id."""
    return {a.id: a.it for a in high_explosive().areas}.get(source, source)


def note_for_the_referee(text: Text) -> Text:
    """A fire for effect's or an air strike's note as the referee reads it: the burst's source
    as he types it in his language (``origine=cannone-102``, ``origine=bomba-anticarro``, #61);
    the save keeps its id, which any reader may type too."""
    if not isinstance(text, Msg):
        return text
    if text.id == FFE_NOTE and isinstance(text.args.get("source"), str):
        return M(FFE_NOTE, **{**text.args, "source": typed_term(str(text.args["source"]))})
    bomb = text.args.get("bomb")
    if text.id == AIR_NOTE and isinstance(bomb, str):
        return M(
            AIR_NOTE_TYPED, **{**text.args, "bomb": pgettext("choice", bomb), "source": typed_term(f"bomb-{bomb}")}
        )
    return text


def note_for_a_side(text: Text) -> Text:
    """A note of fire support as a side reads it: what lands, without the command."""
    if not isinstance(text, Msg) or text.id not in (FFE_NOTE, AIR_NOTE, STRAFE_NOTE):
        return text
    a = {k: v for k, v in text.args.items() if not isinstance(v, Msg)}
    if text.id == STRAFE_NOTE:
        return M(
            "the strafing pass fires on a {strip} cm strip where it lands, each target there as by a "
            "20/35 mm autocannon (BI-R253)",
            strip=a.get("strip", ""),
        )
    if text.id == FFE_NOTE:
        # BI-R104: fire for effect on the ranging point, the radii of A.10.2
        return M(
            "fire for effect lands on the ranging point: everyone within {short} cm (short) and "
            "{long} cm (long) takes a {source} burst (BI-R104)",
            short=a.get("short", ""),
            long=a.get("long", ""),
            source=source_words(str(a.get("source", ""))),
        )
    return M(
        "{bomb} bombs: a {long} cm area at long distance, its centre {short} cm at short; then a strafing "
        "pass may follow (BI-R251..R253)",
        bomb=pgettext("choice", str(a.get("bomb", ""))),  # as the call's bomb= names them
        long=a.get("long", ""),
        short=a.get("short", ""),
    )


def _order_given(ctx: Context, unit: Unit, args: dict[str, Any]) -> bool:
    """Ordering fire for effect or a shift is the observer's very easy action (ruling
    BI-RANGING-TIER, digest BI-AMB-34): isolated, he tests first (BI-R024); wounded, he finds
    it easy and rolls (BI-R110).  Whether the order is given this turn."""
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return False
    if very_easy_done(ctx, unit, M("order the fire (easy, wounded)"), M("given")):
        return True
    badges(ctx, unit, "acted")
    return False


def _ffe(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R104, BI-R250..R253: fire for effect on the last ranging point (a very easy
    action, ruling BI-RANGING-TIER); an aircraft attacks with its deviation rolled."""
    unit = _observer(ctx, args)
    in_own_tier(ctx, unit)
    ready(unit, "act")
    stage, source = _due(ctx, unit, ("ranged", "contacted"), N_("fire for effect"))
    air = source.startswith("air")
    if stage == "contacted" and not air:
        raise Refused(_("the guns need a ranging shot first (BI-R103)"), rule="BI-R103")
    if args["strafe"] and not air:
        raise Refused(_("only aircraft make a strafing pass (BI-R253)"), rule="BI-R253")
    if not _order_given(ctx, unit, args):
        return
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("acted",)))
    if air:
        if not air_commands.aircraft_ready(ctx, unit.side):
            return
        bomb = source.removeprefix("air-")
        # BI-R250, BI-R253: the bombing pass and its strafing pass are the attack one
        # contact brings; another attack needs another call
        _set(ctx, unit, ATTACKED, source)
        with ctx.at_step(dice_order.AIR_STRIKE):
            struck = landing(ctx, unit, M("the air strike"))
        if struck != "lost":
            ctx.emit(ev.Noted(text=M(AIR_NOTE, bomb=bomb, long=AIR_LONG, short=AIR_SHORT)))
            if bomb == "napalm":
                _napalm(ctx, unit)
            _m3(ctx)
        # BI-R253: a second pass on the same objective, "rolling deviation again"
        if args["strafe"]:
            with ctx.at_step(dice_order.STRAFING_PASS):
                strafed = landing(ctx, unit, M("the strafing pass"))
        if args["strafe"] and strafed != "lost":
            ctx.emit(ev.Noted(text=M(STRAFE_NOTE, strip=STRAFE)))
        return
    if args["smoke"]:
        lay_smoke(ctx, unit, "shells", _smoke_shell(source))
        return
    ctx.emit(ev.Noted(text=_area_words(source)))
    _set(ctx, unit, "ranged", source)
    m3 = ctx.state.vars.get(f"{M3_KEY}{unit.id}")
    if m3 is None:  # a call made before the key was kept: by the calibre's class, as then
        m3 = {a.id: a for a in high_explosive().areas}[source].max_mm > MORTAR_M3_MM
    if m3:
        _m3(ctx)


def _napalm(ctx: Context, unit: Unit) -> None:
    """BI-R252: napalm's Short-distance zone is impassable for the rest of the game and
    counts as a smoke obstruction: a cloud that never lifts."""
    n = 1 + sum(1 for k in ctx.state.vars if k.startswith("smoke."))
    ctx.emit(ev.VarSet(key=f"smoke.{n}", value=f"napalm|{AIR_SHORT} cm|{unit.name}|{FOR_GOOD}"))
    ctx.emit(
        ev.Noted(
            text=M(
                "the napalm burns {short} cm at the centre: impassable for the rest of the game, "
                "it blocks sight as smoke (BI-R252)",
                short=AIR_SHORT,
            )
        )
    )


def _m3(ctx: Context) -> None:
    ctx.emit(ev.Noted(text=M("everyone within 20 cm of the attack, friend or foe, checks morale (M3): morale UNIT m3")))


def _smoke_shell(source: str) -> str:
    """Ruling BI-SMOKE-SHELL (digest BI-AMB-47): the short distance deep, 6 × the long distance long."""
    a = {a.id: a for a in high_explosive().areas}[source]
    return f"{a.short} x {a.long * indirect().smoke.shell_length_times} cm"


def _shift(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R104: a new ranging shot up to 20 cm away, with no deviation (a very easy action)."""
    unit = _observer(ctx, args)
    in_own_tier(ctx, unit)
    ready(unit, "act")
    _stage, source = _due(ctx, unit, ("ranged",), N_("shift"))
    limit = indirect().shift_cm
    if not 0 < args["cm"] <= limit:
        raise Refused(_("the fire shifts 1 to {limit} cm (BI-R104)").format(limit=limit), rule="BI-R104")
    if not _order_given(ctx, unit, args):
        return
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("acted",)))
    ctx.emit(ev.Noted(text=M("a new ranging shot lands exactly {cm} cm from the last one", cm=args["cm"])))
    _set(ctx, unit, "ranged", source)


def _strafe(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R253 (ruling BI-STRAFE, digest BI-AMB-52): each target in the 10 × 60 cm strip
    is fired at once, as a 20/35 mm autocannon area shot at normal range, by the pilot,
    with the target's own modifiers of the direct-fire table (A.9.4, BI-R087): how it
    moved, lying down, its cover."""
    target = ctx.unit(args["unit"])
    if not target.in_play:
        raise Refused(_("{target} is out of action").format(target=target.name), rule=("BI-R253", "BI-R110"))
    reachable(ctx, target)
    pilot = args["pilot"]
    base = {"elite": 6, "veteran": 5, "regular": 4, "recruit": 3, "rabble": 2}[pilot]
    cannon = weapons()["autocannon"]
    table = hit_modifiers()
    ids = rules.fire_modifier_ids(
        cannon,
        "normal",
        area=True,
        kind="fire",
        aimed=False,
        wounded=False,
        target_move=next((m for m in ("cautious", "running") if target.has(m)), ""),
        prone=target.kind == Kind.MAN and target.has(Status.PRONE),
        cover=args["cover"] or "",
        night=[],
        target_fired="",
    )
    chance, mods = rules.hit_chance(base, [table[i] for i in ids])
    purpose = M("strafing by a {tier} pilot", tier=word(pilot))
    hit = roll_under(ctx, purpose, target, chance, mods, "BI-R253", M("hit"), M("miss"), step=dice_order.STRAFING)
    # an autocannon's automatic fire, hit or missed: -25% to his next movement (BI-R042),
    # under fire for his morale (BI-R181)
    fired_at(ctx, ctx.unit(target.id))

    if hit:
        if target.kind == Kind.MAN:
            casualties.infantry_hit(ctx, target, M("the strafing pass"), under_fire=True)
        else:
            casualties.vehicle_hit(ctx, target, cannon, M("the strafing pass"), pen_row=cannon.penetration)


# -------------------------------------------------------------------------- smoke


def smoke_what(kind: str, size: str) -> Msg:
    """A smoke cloud in words: ``grenade``, ``dischargers``, ``shells`` or ``napalm``, and its size."""
    if kind == "grenade":
        reach = indirect().smoke.grenade_reach
        return M("smoke grenade ({size} cm, within {reach} cm of him)", size=size, reach=reach)
    if kind == "dischargers":
        return M("smoke dischargers ({size})", size=word(size))
    if kind == "napalm":
        return M("burning napalm ({size}), impassable", size=size)
    return M("smoke shells ({size})", size=size)


def smoke_value(value: str) -> tuple[Text, str, str]:
    """A ``smoke.<n>`` variable's cloud, who laid it and its last turn; a save from
    before smoke was kept as data holds "words by NAME|last"."""
    parts = value.split("|", 2)
    if len(parts) == 3 and parts[0] in ("grenade", "dischargers", "shells", "napalm"):
        who, _sep, last = parts[2].rpartition("|")
        return smoke_what(parts[0], parts[1]), who, last
    what, _sep, last = value.rpartition("|")
    words, _sep, who = what.partition(" by ")
    return words, who, last


def lay_smoke(ctx: Context, unit: Unit, kind: str, size: str) -> None:
    """BI-R170/R171: smoke lasts 6 + 1d6 turns from the turn it takes effect (at the end
    of this phase; ruling BI-SMOKE-TIME, digest BI-AMB-48)."""
    t = indirect().smoke
    (face,) = ctx.roll(
        M("duration of the {what}", what=smoke_what(kind, size)),
        1,
        step=(dice_order.SMOKE_SHELLS, dice_order.SMOKE),
        rule="BI-R171",
        unit=unit.id,
        outcome=lambda f: M("{n} turns", n=t.base + f[0]),
        check=ev.Read(),
    )
    last = ctx.state.turn + t.base + face - 1
    n = 1 + sum(1 for k in ctx.state.vars if k.startswith("smoke."))
    ctx.emit(ev.VarSet(key=f"smoke.{n}", value=f"{kind}|{size}|{unit.name}|{last}"))


def _smoke(ctx: Context, args: dict[str, Any]) -> None:
    """A smoke grenade thrown (within 10 cm, no roll) or a vehicle's dischargers fired:
    the unit's fire for the turn (ruling BI-SMOKE-TIME)."""
    unit = ctx.unit(args["unit"])
    if ctx.state.phase in TIER_PHASES:
        in_own_tier(ctx, unit)
    elif ctx.state.phase != PhaseId.COVER and unit.side != ctx.state.active_side:
        raise Refused(
            _("it is {owner} movement (A.5.1)").format(owner=render(whose(ctx.state.side_name(ctx.state.active_side)))),
            rule=("ENG-2", "BI-R030"),
        )
    ready(unit, "fire", ctx.state.phase)
    t = indirect().smoke
    if unit.kind == Kind.MAN:
        kind, size = "grenade", t.grenade
    elif "dischargers" in unit.roles:
        kind, size = "dischargers", t.dischargers
    else:
        raise Refused(_("{unit} has no smoke dischargers").format(unit=unit.name), rule=("BI-R170", "BI-AMB-48"))
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("fired",)))
    lay_smoke(ctx, unit, kind, size)


def clear_smoke(ctx: Context) -> None:
    """At the end of a turn, the smoke whose time is over lifts."""
    for key, value in list(ctx.state.vars.items()):
        if key.startswith("smoke.") and value:
            what, _sep, last = smoke_value(str(value))
            if last != FOR_GOOD and int(last) <= ctx.state.turn:
                ctx.emit(ev.VarSet(key=key, value=""))
                ctx.emit(ev.Noted(text=M("the {what} lifts", what=what)))


_OBSERVER = Param("observer", "own", "a forward observer or a commander")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "call",
        "An observer contacts the guns (dedicated: normal, general support: difficult, the platoon's "
        "mortar: easy) or aircraft; an action. Dice: 1d10 isolation test if isolated, then 1d10 for the contact.",
        _call,
        params=(
            _OBSERVER,
            Param("kind", "choice", "what he calls", choices=("dedicated", "general", "mortar", "air")),
            Param("mm", "int", "the calibre of the guns or mortars", optional=True, keyword=True, lo=1, hi=MAX_MM),
            Param("bomb", "choice", "an aircraft's bombs", optional=True, choices=BOMBS, keyword=True),
            Param(
                "difficulty",
                "choice",
                "the scenario's difficulty, if not the book's",
                optional=True,
                choices=("very-easy", "easy", "normal", "difficult"),
                keyword=True,
            ),
            flag("isolated", "beyond command distance"),
        ),
        rule="BI-R102",
        examples=("call ferrante dedicated mm=105", "call ferrante mortar mm=60", "call ferrante air bomb=at"),
        phases=TIER_PHASES,
        rolls=True,
        dice=(dice_order.ISOLATION, dice_order.CONTACT),
    ),
    CommandSpec(
        "ranging",
        "The guns fire a ranging shot, the turn after the contact: precise or not by the observer's "
        "Quality, then where it lands. Dice: 1d10 precision, 1d10 deviation, then 2d6 (precise) or 4d10 "
        "(imprecise) for each offset.",
        _ranging,
        params=(_OBSERVER, flag("unseen", "it falls out of the observer's sight")),
        rule="BI-R103",
        examples=("ranging ferrante", "ranging ferrante unseen"),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.PRECISION,
            dice_order.LANDING,
            dice_order.LONG_OR_SHORT,
            dice_order.LEFT_OR_RIGHT,
        ),
    ),
    CommandSpec(
        "ffe",
        "Fire for effect on the last ranging point (a very easy action), or an aircraft's attack "
        "(its deviation rolled as a ranging shot, and again for a strafing pass with strafe); smoke "
        "shells with smoke. Dice: an isolated observer's 1d10 isolation test, a wounded one's 1d10 "
        "(easy); then none for guns (1d6 for smoke); for aircraft 1d10 precision, 1d10 deviation, "
        "offsets, for each pass.",
        _ffe,
        params=(
            _OBSERVER,
            flag("smoke", "smoke shells"),
            flag("strafe", "aircraft: a strafing pass after the bombs (BI-R253)"),
            ISOLATED,
            LEAD,
        ),
        rule="BI-R104",
        examples=("ffe ferrante", "ffe ferrante smoke", "ffe ferrante strafe"),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.ACTION,
            dice_order.AIRCRAFT_RETURN,
            dice_order.AIR_STRIKE,
            dice_order.STRAFING_PASS,
            dice_order.SMOKE_SHELLS,
        ),
    ),
    CommandSpec(
        "shift",
        "Shift the fire up to 20 cm: a new ranging shot with no deviation (a very easy action). Dice: "
        "none, or an isolated observer's 1d10 isolation test, a wounded one's 1d10 (easy).",
        _shift,
        params=(_OBSERVER, Param("cm", "distance", "how far, up to 20 cm", hi=MAX_DISTANCE_CM), ISOLATED, LEAD),
        rule="BI-R104",
        examples=("shift ferrante 15",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.ACTION,
        ),
    ),
    CommandSpec(
        "strafe",
        "An aircraft's strafing pass: each target in the 10 x 60 cm strip is fired at as by a 20/35 mm "
        "autocannon at an area, normal range. Dice: 1d10 under the pilot's Quality, then damage.",
        _strafe,
        params=(
            Param("unit", "unit"),
            Param(
                "pilot",
                "choice",
                "the pilot's Quality",
                optional=True,
                default="regular",
                choices=("elite", "veteran", "regular", "recruit", "rabble"),
                keyword=True,
            ),
            Param(
                "cover",
                "choice",
                "the target's cover",
                optional=True,
                choices=("light", "heavy", "trench"),
                keyword=True,
            ),
        ),
        rule="BI-R253",
        examples=("strafe omar", "strafe technical pilot=veteran", "strafe omar cover=heavy"),
        phases=TIER_PHASES,
        who="referee",
        rolls=True,
        dice=(
            dice_order.STRAFING,
            dice_order.DAMAGE,
        ),
    ),
    CommandSpec(
        "smoke",
        "Throw a smoke grenade (within 10 cm, no roll) or fire a vehicle's dischargers: his fire for the turn; "
        "it lasts 6 + 1d6 turns. Dice: 1d10 isolation test if isolated, 1d6 for how long.",
        _smoke,
        params=(Param("unit", "own"), flag("isolated", "beyond command distance")),
        rule="BI-R171",
        examples=("smoke deiana",),
        phases=("cover", "move-first", "move-second", *TIER_PHASES),
        rolls=True,
        dice=(dice_order.ISOLATION, dice_order.SMOKE),
    ),
)
