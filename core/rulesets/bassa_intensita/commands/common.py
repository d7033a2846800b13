"""What the Bassa Intensità commands share: a man's quality and badges, the golden rule
(BI-R030) and his tier, the isolation test (BI-R024), a roll under a chance, the light."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.language.i18n import M, Msg, Text
from core.language.reader import SOURCE, lang
from core.log import events as ev
from core.log.state import Unit
from core.log.views import unit_audience
from core.ruleset import MAX_DISTANCE_CM, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import dice_order, rules, squads
from core.rulesets.bassa_intensita.phases import (
    TIER_PHASES,
    activity,
    tier_of_phase,
)
from core.rulesets.bassa_intensita.rules import damage
from core.rulesets.bassa_intensita.tables import (
    special,
)
from core.rulesets.bassa_intensita.terms import Kind, Status
from core.rulesets.bassa_intensita.words import _, pgettext, render, typed, typed_names, whose


def weapons_named(wanted: str, among: Iterable[str], *, begun: bool = True) -> list[str]:
    """The weapons of ``among`` (ids) that ``wanted`` names: an id, or a weapon's name in the
    book's language or another (``lanciarazzi-rpg``, A.9.2's row), whole; else, ``begun``,
    each whose id or name it begins (``lanciarazzi``: the one rocket launcher a man carries)."""
    w = typed(wanted)
    names = {wid: typed_names(wid) for wid in among}
    whole = [wid for wid in names if wid == w] or [wid for wid, said in names.items() if w in said]
    if whole or not begun:
        return whole
    return [wid for wid, said in names.items() if any(n.startswith(w) for n in said)]


def weapons_listed(ids: Iterable[str]) -> str:
    """Weapons by id, each with the name a reader of another language than English may type."""
    if lang() == SOURCE:
        return ", ".join(ids)
    return ", ".join(
        wid if typed(pgettext("term", wid)) == wid else f"{wid} ({typed(pgettext('term', wid))})" for wid in ids
    )


def carrier_of(ctx: Context, unit: Unit) -> Unit | None:
    """The vehicle a man is aboard (his ``aboard-<vehicle>`` badge), if any."""
    return next((ctx.unit(b.removeprefix("aboard-")) for b in unit.status if b.startswith("aboard-")), None)


def he_terrain(cover: str | None) -> str:
    """The target's terrain for an HE burst (A.10.3), from his ``cover``: dug in (a trench),
    in cover, or in the open."""
    return {"light": "cover", "heavy": "cover", "trench": "entrenched"}.get(cover or "", "open")


def flying(ctx: Context, unit: Unit) -> Unit | None:
    """The helicopter in the air that ``unit`` is or is aboard, if any (BI-R256: landing
    takes a whole turn, ``landed``)."""
    craft = carrier_of(ctx, unit) or unit
    if "helicopter" in craft.roles and not craft.has(Status.LANDED):
        return craft
    return None


def reachable(ctx: Context, unit: Unit) -> None:
    """Refuses what only anti-aircraft fire may do: reach a helicopter in the air, or a man
    it carries, who is hit only through its table (BI-R260, BI-R263; ruling BI-HELICOPTERS);
    and what reaches a man inside armour only through his vehicle (ruling BI-OCCUPANTS)."""
    heli = flying(ctx, unit)
    if heli is unit:
        raise Refused(
            _("{unit} is in the air: only anti-aircraft fire reaches it, aa (BI-R260; ruling BI-HELICOPTERS)").format(
                unit=unit.name
            ),
            rule="BI-R260",
        )
    if heli is not None:
        raise Refused(
            _("{unit} is inside {carrier}, in the air: only anti-aircraft fire reaches it, aa (BI-R260)").format(
                unit=unit.name, carrier=heli.name
            ),
            rule="BI-R260",
        )
    vehicle = carrier_of(ctx, unit)
    if vehicle is not None and damage.armour_column(vehicle):
        raise Refused(
            _("{unit} is inside {carrier}: fire at the vehicle (ruling BI-OCCUPANTS)").format(
                unit=unit.name, carrier=vehicle.name
            ),
            rule=("BI-R110", "BI-AMB-26"),
        )


def quality(unit: Unit) -> int:
    """His chance of success (BI-R010), with the referee's motivation (BI-R011)."""
    value = squads.chance(unit)
    if value is None:
        raise Refused(
            _("{unit} has no Quality (elite, veteran, regular, recruit or rabble)").format(unit=unit.name),
            rule="BI-R010",
        )
    return value


def badges(ctx: Context, unit: Unit, *add: str) -> None:
    ctx.emit(ev.StatusChanged(unit=unit.id, add=add))


def fired_at(ctx: Context, *units: Unit) -> None:
    """BI-R042: men fired at by an automatic weapon or HE in the fire phase move -25% in the
    next movement, the phase after it: marked ``fired-at`` now, ``under-fire`` at the turn's
    end (turn.py), counted by ``move``.  Any unit so fired at, in any phase, is ``shot-at``
    until the phase ends: under fire for a morale check it takes in it, whatever calls the
    check (A.13.2 BI-R181 "Sotto tiro di AE o armi automatiche", digest BI-AMB-41)."""
    for u in units:
        if u.in_play and not u.has(Status.SHOT_AT):
            badges(ctx, u, Status.SHOT_AT)
    if ctx.state.phase in TIER_PHASES:
        for u in units:
            if u.kind == Kind.MAN and u.in_play and not u.has(Status.FIRED_AT):
                badges(ctx, u, Status.FIRED_AT)


def ready(unit: Unit, doing: str, phase: str = "") -> None:
    """The golden rule (BI-R030): one move, one fire or one action per unit per turn;
    and what wounds and shock forbid (BI-R110, BI-R182).  ``doing``: move, mount (getting
    into or out of a vehicle), fire or act;
    ``phase``: the phase a fire is in (a stabilised vehicle's fire after its move is
    the fire phase's only, BI-R240).  A man struck in his own tier before he acted
    still acts as he was (BI-TIER-RESULTS)."""
    struck = unit.has(Status.STRUCK) or unit.has(Status.STRUCK_WOUNDED)
    if not unit.in_play and not struck:
        raise Refused(
            _("{unit} is out of action ({why})").format(unit=unit.name, why=render(unit.out)),
            rule=("BI-R110", "BI-R030"),
        )
    if unit.has(Status.SERIOUSLY_WOUNDED) and not struck:
        raise Refused(
            _("{unit} is seriously wounded: he can no longer move, fight or act (BI-R110)").format(unit=unit.name),
            rule="BI-R110",
        )
    # Shocked: "nessun movimento verso il nemico": a move away, or getting into or out of a
    # vehicle where he stands (``mount``), is still his to make
    if unit.has(Status.SHOCKED) and doing not in ("move", "mount") and not struck:
        raise Refused(
            _("{unit} is shocked: no fire or action until the end of next turn (BI-R110, BI-R182)").format(
                unit=unit.name
            ),
            rule=("BI-R110", "BI-R182"),
        )
    # A.13.1 (digest A.5.2, BI-R180): a check is taken at once, after the result that calls it;
    # in a fire tier the tier's fire is simultaneous and its checks follow it (BI-TIER-RESULTS)
    if unit.has(Status.MORALE_DUE) and (doing in ("move", "mount") or (doing == "fire" and phase not in TIER_PHASES)):
        raise Refused(
            _("{unit} must check morale first (BI-R180): morale {id}").format(unit=unit.name, id=unit.id),
            rule="BI-R180",
        )
    if any(b.startswith("aboard-") for b in unit.status) and doing == "move":
        raise Refused(
            _("{unit} is aboard a vehicle: dismount first (A.6)").format(unit=unit.name), rule=("BI-R026", "BI-R030")
        )
    done = activity(unit)
    if done == Status.MOVED_STABILISED and doing == "fire":
        if phase in TIER_PHASES:
            return  # BI-R240: it may still fire, at -1
        # BI-R240: "move in the movement phase and fire in the fire phase": no
        # opportunity fire after its own move
        raise Refused(
            _("{unit} has moved: a stabilised vehicle fires after its move only in the fire phase (BI-R240)").format(
                unit=unit.name
            ),
            rule="BI-R240",
        )
    if done == Status.MOVED and doing == "move" and unit.has(Status.DISMOUNTED):
        return  # BI-R042: out of a truck or car, he walks on at -50%
    if done == Status.BALKED:
        raise Refused(
            _("{unit} failed his isolation test and does nothing this turn (BI-R024)").format(unit=unit.name),
            rule="BI-R024",
        )
    if done:
        raise Refused(
            _("{unit} has already {done} this turn: one move, fire or action per turn (BI-R030)").format(
                unit=unit.name, done=pgettext("term", done)
            ),
            rule="BI-R030",
        )


def fires_wounded(unit: Unit) -> bool:
    """Whether a wound halves his chance to hit (BI-R110): a man wounded in his own tier
    before he fired fires as he was (ruling BI-TIER-RESULTS)."""
    return unit.has(Status.STRUCK_WOUNDED) or (unit.has(Status.WOUNDED) and not unit.has(Status.STRUCK))


def scout(unit: Unit) -> bool:
    """BI-R212: a scout counts as one only in an Elite or Veteran squad (ruling BI-SCOUT)."""
    return "scout" in unit.roles and unit.cls in special().scout.tiers


def light_of(state) -> str:
    """The light of the game: the scenario's ``scenario.night`` (day, moon or dark; day by default)."""
    value = state.vars.get("scenario.night", "day")
    return value if value in ("day", "moon", "dark") else "day"


def isolated(ctx: Context, unit: Unit, args: dict[str, Any]) -> bool:
    """BI-R024: isolated if the issuer says so, if he stands further from his leader
    (``lead=CM``) than the leader's command distance (BI-R021), or if his leader was
    killed and not yet replaced (BI-R028); a transport, once its radio is destroyed
    (BI-R140).  Snipers of Regular or better units and combat vehicles are free of
    command distance (BI-R023, BI-R025)."""
    if args.get("isolated"):
        return True
    if "sniper" in unit.roles and unit.cls in ("elite", "veteran", "regular"):
        return False
    if unit.kind != Kind.MAN:
        vtype = damage.vehicle_type(unit)
        if vtype is None or vtype.combat or unit.has(Status.COMBAT_VEHICLE):
            return False
        if unit.has(Status.RADIO_OUT):
            # BI-R140 "Radio distrutta: ... si considera sempre isolato": a transport keeps the
            # command radius (BI-R026, BI-R027), so it tests before it moves or fires
            ctx.emit(
                ev.Noted(
                    text=M("{unit} has lost its radio: it is always isolated (BI-R140)", unit=unit.name),
                    vis=unit_audience(unit),
                )
            )
            return True
    if squads.leader_lost(ctx.state, unit):
        ctx.emit(
            ev.Noted(
                text=M("{owner} leader is down and not replaced: he is isolated (BI-R028)", owner=whose(unit.name)),
                vis=unit_audience(unit),
            )
        )
        return True
    cm = args.get("lead")
    if cm is None:
        return False
    leader = squads.leader_of(ctx.state, unit)
    if leader is None:
        raise Refused(
            _("{unit} has no leader in play to measure from").format(unit=unit.name), rule=("BI-R021", "BI-R024")
        )
    reach = squads.command_range(leader, section=squads.leads_section(ctx.state, leader))
    if reach is not None and scout(unit):
        reach *= special().scout.command_times  # BI-R212
    if reach is None or cm > reach:
        why = M("may not lead a section") if reach is None else M("commands to {cm} cm", cm=reach)
        ctx.emit(
            ev.Noted(
                text=M(
                    "{unit} is {cm} cm from {leader}, who {why}: isolated (BI-R021)",
                    unit=unit.name,
                    cm=cm,
                    leader=leader.name,
                    why=why,
                ),
                vis=unit_audience(unit),
            )
        )
        return True
    return False


def passes_isolation(ctx: Context, unit: Unit, isolated: bool) -> bool:
    """BI-R024: a man beyond command distance rolls 1d10 under his Quality before he
    moves, fires or acts; failing, he does nothing this turn (ruling BI-ISOLATED)."""
    if not isolated:
        return True
    test, failed = M("isolation test"), M("failed: does nothing this turn")
    if roll_under(ctx, test, unit, quality(unit), (), "BI-R024", M("passed"), failed, step=dice_order.ISOLATION):
        return True
    badges(ctx, unit, "balked")
    return False


def very_easy_done(ctx: Context, unit: Unit, what: Msg, done: Msg) -> bool:
    """BI-R068: a very easy action is done with no die; a wounded man finds it easy, one
    level harder (BI-R110), and rolls for it (``what``, ``done`` name the roll)."""
    if not unit.has(Status.WOUNDED):
        return True
    chance = rules.action_chance(quality(unit), "easy")
    return chance >= rules.D10 or roll_under(
        ctx, what, unit, chance, (), "BI-R110", done, M("failed"), step=dice_order.ACTION
    )


def roll_under(
    ctx: Context,
    purpose: Text,
    unit: Unit,
    chance: int,
    mods: tuple[ev.Mod, ...],
    rule: str,
    yes: Text,
    no: Text,
    vis: tuple[str, ...] = (),
    *,
    step: str | tuple[str, ...],
) -> bool:

    (face,) = ctx.roll(
        purpose,
        1,
        step=step,
        sides=rules.D10,
        target=chance,
        under=True,
        mods=mods,
        rule=rule,
        unit=unit.id,
        vis=vis,
        outcome=lambda f: yes if rules.succeeds(f[0], chance) else no,
        check=ev.AtLeast(face=chance, under=True),
    )
    return rules.succeeds(face, chance)


def in_own_tier(ctx: Context, unit: Unit) -> None:
    tier = tier_of_phase(ctx.state.phase)
    if unit.cls != tier:
        raise Refused(
            _("{unit} acts in his own Quality tier, not in {phase} (BI-R061)").format(
                unit=unit.name, phase=pgettext("phase", ctx.state.phase)
            ),
            rule="BI-R061",
        )


ISOLATED = flag("isolated", "beyond command distance: roll first (BI-R024)")


LEAD = Param(
    "lead", "distance", "cm from his squad or section leader (BI-R021)", optional=True, keyword=True, hi=MAX_DISTANCE_CM
)
