"""What happens to a figure that is hit: saving throws (§9), out of action, the
optional wounded rule (§9.3), suppression (§10.0), vehicles (§9.2).

Also the small facts every combat command reads about a unit (its class, its
weapons, its badges this turn) and the optional-rule switches.

Casualties are recorded as ``UnitOut`` with a cause of the form
``"<what> by <side>"`` (``killed``, ``wounded``, ``died of wounds``,
``knocked out``, ``destroyed``), so defeat points (§14) can be derived from the
facts: :func:`parse_cause` reads one back.  A stabilised man (§9.3) gets a new
``UnitOut`` with cause ``stabilised``.  The unit's ``kind`` (man, civilian,
journalist, vehicle) says who was hit.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.commands import local_name, or_list, whole_number
from core.language.i18n import N_, M, Msg, Text, plain, render
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, Context, Refused
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.ledger import civilian_hit, set_unit_var, set_var, unit_var, var
from core.rulesets.breaking_news.options import option
from core.rulesets.breaking_news.rules import saves
from core.rulesets.breaking_news.rules.saves import SaveFacts
from core.rulesets.breaking_news.tables import TroopClass, troop_classes
from core.rulesets.breaking_news.tables.combat import Weapon, weapons
from core.rulesets.breaking_news.terms import Kind, Status
from core.rulesets.breaking_news.words import DOMAIN, IT, _, whose

# ------------------------------------------------------------------ causes

#: The longest distance a command takes, in cm: 10 m, more than any table; the
#: rules' own limits (a weapon's range, a move's length) are checked where they apply.
MAX_CM = 1_000

KILLED = N_("killed")
WOUNDED = N_("wounded")
DIED = N_("died of wounds")
STABILISED = N_("stabilised")
KNOCKED_OUT = N_("knocked out")
DESTROYED = N_("destroyed")


#: Said between a stabilised man's cause and the side that wounded him: "stabilised
#: by irregulars" read as if the enemy had saved him.  Saves made before it hold the
#: bare "stabilised by SIDE", which :func:`parse_cause` reads the same.
_STABILISED_JOINT = ", wounded"


def cause(what: str, by_side: str) -> Msg:
    """The words of a ``UnitOut``: ``what`` (one of the causes above) and the side."""
    if not by_side:
        return M(what)
    if what == STABILISED:
        return M("stabilised, wounded by {side}", side=by_side)
    return M("{what} by {side}", what=M(what), side=by_side)


#: The causes :func:`cause` records, read back from its message without writing its
#: words: none holds " by ", and each is its own English (a test holds both).
_READ_AS_WRITTEN = frozenset({KILLED, WOUNDED, DIED, STABILISED, KNOCKED_OUT, DESTROYED, N_("captured")})


def parse_cause(text: Text) -> tuple[str, str]:
    """``"killed by regulars"`` → ``("killed", "regulars")``; the side may be ''.
    Read from the English words (:func:`core.language.i18n.plain`): an older save holds them as a
    sentence, a newer one as a message.  A message :func:`cause` wrote is read as it was
    written, without its words: the rules read every loss's cause at every settling."""
    if isinstance(text, Msg):
        written = _as_written(text)
        if written is not None:
            return written
    what, _sep, side = plain(text).partition(" by ")
    return what.removesuffix(_STABILISED_JOINT) if what.startswith(STABILISED) else what, side


def _as_written(text: Msg) -> tuple[str, str] | None:
    """(what, side) of a message in one of :func:`cause`'s shapes, or None.  A side
    with a "." is left to the words (they may write it as a decimal number)."""
    args = text.args
    if not args:
        return (text.id, "") if text.id in _READ_AS_WRITTEN else None
    side = args.get("side")
    if type(side) is not str or "." in side:
        return None
    if text.id == "{what} by {side}" and len(args) == 2:
        what = args.get("what")
        if type(what) is Msg and not what.args and what.id in _READ_AS_WRITTEN:
            return what.id, side
    elif text.id == "stabilised, wounded by {side}" and len(args) == 1:
        return STABILISED, side
    return None


def italian(ctx: Context) -> bool:
    return ctx.ruleset.variant == IT


# ------------------------------------------------------------ unit facts

#: Badges that last for the turn they were earned in; cleared at its end.
ACTION_BADGES = {
    "run": "ran",
    "shoot": "moved",  # move and shoot, more than 5 cm: +1 to fire
    "climbed": "climbed",  # move and shoot over a level-1 obstacle: 5 cm, +1 to fire
    "cautious": "crept",  # up to 5 cm: fires freely
    "covering": "covering",
}
TURN_BADGES = (
    *ACTION_BADGES.values(),
    "fired",  # fired this action: the action is over
    "acted",  # entered/left a vehicle, reloaded, fought: the action is over
    "panicked",  # failed its suppression test this turn
    "looked",  # used its sighting attempt this turn (§7.0)
    "dodging",  # declared a dodge against the next shot (§6.5)
    "rpg-fired",  # RPG/GL fired by opportunity this turn (§8.2)
    "reloading",  # changing magazine (§8.0.3)
    "falling-back",  # a retreating man who failed his test: he must fall back 15 cm (§12.0)
)


def troop(unit: Unit) -> TroopClass | None:
    return troop_classes().get(unit.cls)


def is_vehicle(unit: Unit) -> bool:
    return unit.kind == Kind.VEHICLE


def is_helicopter(unit: Unit) -> bool:
    """§8.4: a helicopter gunship is a vehicle with the role ``helicopter`` (a light-armoured save)."""
    return is_vehicle(unit) and "helicopter" in unit.roles


def is_sniper(unit: Unit) -> bool:
    return "sniper" in unit.roles or "SNIPER" in unit.weapons


def is_leader(unit: Unit) -> bool:
    return "leader" in unit.roles or "commander" in unit.roles


def carried_weapons(unit: Unit) -> list[str]:
    """The weapons a figure may fire, by id: his own and, for a combatant, hand grenades
    (ruling BN-C-GRENADE)."""
    carried = [w.upper() for w in unit.weapons]
    if troop(unit) and "GRENADE" not in carried:
        carried.append("GRENADE")
    return carried


def require_armed(unit: Unit) -> list[str]:
    """:func:`carried_weapons`, refusing a figure with none (a civilian, a journalist):
    no ``weapon=`` makes him fire."""
    carried = carried_weapons(unit)
    if not carried:
        raise Refused(_("{unit} carries no weapon").format(unit=unit.name), rule="FIRE-1")
    return carried


def unit_weapon(unit: Unit, ctx: Context, name: str | None) -> Weapon:
    """The weapon a unit fires: the one named (by id prefix), else its first.  Every
    combatant is taken to carry hand grenades (ruling BN-C-GRENADE)."""
    table = weapons(ctx.ruleset.variant)
    carried = require_armed(unit)
    if not name:
        if not unit.weapons:
            raise Refused(_("{unit} carries no weapon").format(unit=unit.name), rule="FIRE-1")
        first = carried[0]
        if first not in table:
            raise Refused(
                _("{unit} weapon {first} is not on the §8.0 table").format(
                    unit=DOMAIN.render(whose(unit.name)), first=first
                ),
                rule="T-08",
            )
        return table[first]
    hits = [w for w in carried if w.lower() == name.lower()] or [
        w for w in carried if w.lower().startswith(name.lower())
    ]
    if len(hits) != 1:
        raise Refused(
            _("{unit} carries {carried}; which is {name!r}?").format(
                unit=unit.name, carried=", ".join(carried), name=name
            ),
            rule=TYPING,
        )
    if hits[0] not in table:
        raise Refused(_("{weapon} is not on the §8.0 table").format(weapon=hits[0]), rule="T-08")
    return table[hits[0]]


def action_badge(unit: Unit) -> str:
    for b in ACTION_BADGES.values():
        if unit.has(b):
            return b
    return ""


def has_acted(unit: Unit) -> bool:
    return bool(action_badge(unit)) or unit.has(Status.FIRED) or unit.has(Status.ACTED) or unit.has(Status.RELOADING)


#: The badges of a move that may end in base contact (§5.0 a–c).
MOVE_BADGES = ("ran", "moved", "crept", "climbed")


def may_fight(unit: Unit) -> bool:
    """§11.0 with §5.0: hand-to-hand is how a move into base contact ends (AMB-50), so a
    man who has only moved this turn may still fight; one who fired, gave covering fire,
    reloaded or already fought may not (ruling BN-C-MELEE-MOVE)."""
    if unit.has(Status.FIRED) or unit.has(Status.ACTED) or unit.has(Status.RELOADING):
        return False
    badge = action_badge(unit)
    return not badge or badge in MOVE_BADGES


#: A figure not yet placed (deployment.py): it neither acts nor can be reached.
OFF_TABLE = "off-table"


def require_in_play(unit: Unit) -> None:
    if unit.out:
        raise Refused(
            _("{unit} is out of action ({cause})").format(unit=unit.name, cause=render(unit.out, "breaking_news")),
            # a man is out by a failed save (§9.0), a vehicle by its own save's table (§9.2, T-14)
            rule=("VSAVE-1", "T-14") if is_vehicle(unit) else ("SAVE-2", "FIRE-14"),
        )
    if unit.has(OFF_TABLE):
        raise Refused(_("{unit} is not on the table yet").format(unit=unit.name), rule=("DEP-3", "DEP-4"))


#: The reactions a refusal names to a figure off the active side, by the action refused
#: (§5.0): a fire's is opportunity fire (§8.2), a move's a dodge (§6.5); any other, both.
REACTIONS = {"fire": ("react-fire",), "covering": ("react-fire",), "move": ("react-dodge",)}
ANY_REACTION = ("react-fire", "react-dodge")


def reactions(command: str) -> str:
    """The reactions instead of ``command``, in the reader's command words: what to type."""
    return or_list([local_name("command", name, DOMAIN.name) for name in REACTIONS.get(command, ANY_REACTION)])


def require_active(state: GameState, unit: Unit, command: str = "") -> None:
    """The active player's figures act in his activation (§5.0); the others react, which the
    refusal names (:func:`reactions`)."""
    require_in_play(unit)
    if unit.side != state.active_side:
        raise Refused(
            _("{unit} is not on the active side ({active_side}); it may only react: {reactions}").format(
                unit=unit.name, active_side=state.side_name(state.active_side), reactions=reactions(command)
            ),
            rule="ACT-1",
        )


def require_reacting(ctx: Context, unit: Unit) -> None:
    require_in_play(unit)
    if unit.side != ctx.state.reacting_side:
        raise Refused(
            _("{unit} is on the active side; reactions are the reacting player's (§5.0)").format(unit=unit.name),
            rule="ACT-2",
        )


def resolve_units(ctx: Context, words: str | None, *, side: str | None = None) -> list[Unit]:
    """Units named in a comma list (``with=conti,bianchi``), as the issuer sees them."""
    from core.commands import find_unit

    if not words:
        return []
    out = []
    for w in words.replace("+", ",").split(","):
        if w.strip():
            out.append(ctx.state.units[find_unit(w.strip(), ctx.state, ctx.role, side=side).id])
    return out


def int_list(text: str | None, what: str, lo: int, hi: int) -> tuple[int, ...] | None:
    """``2,1`` (or ``2/1``): whole numbers, each from ``lo`` to ``hi``."""
    if text is None:
        return None
    return tuple(whole_number(p.strip(), what, lo, hi) for p in str(text).replace("/", ",").split(",") if p.strip())


def badge(ctx: Context, unit: Unit, *add: str, remove: Sequence[str] = ()) -> None:
    add = tuple(a for a in add if not unit.has(a))
    remove = tuple(r for r in remove if unit.has(r))
    if add or remove:
        ctx.emit(ev.StatusChanged(unit=unit.id, add=add, remove=remove))


def reveal(ctx: Context, unit: Unit, why: Msg) -> None:
    """A hidden figure that fires or moves too far is sighted by everyone (§7.0)."""
    if unit.has(Status.HIDDEN):
        ctx.emit(ev.StatusChanged(unit=unit.id, remove=("hidden",)))
        ctx.emit(ev.Noted(text=M("{unit} {why} and is sighted (§7.0)", unit=unit.name, why=why)))


def next_action(ctx: Context, units: Sequence[Unit]) -> None:
    """Number the active player's actions, so a reacting figure reacts once to each, and
    record who acted in sight, the men opportunity fire may answer (§8.2): the var
    ``action`` is ``N:TURN:ids:K``, N counted all game long (what a reaction is keyed by),
    K within this turn's activation (§5.0: one a turn; what the log says).  An action by
    hidden figures alone is not numbered in public: nobody can react to it (nor are
    hidden men of a group named)."""
    seen = [u.id for u in units if not u.has(Status.HIDDEN)]
    if not seen:
        return
    n, k = action_number(ctx.state) + 1, activation_action(ctx.state) + 1
    set_var(ctx, "action", f"{n}:{ctx.state.turn}:{','.join(seen)}:{k}")


#: The moves that leave a man his fire (§5.0 b and c, §6.2), and those that leave him his
#: covering fire (§5.0 d: a move of up to 5 cm, which a cautious move is too).
MOVES_TO_FIRE = (Status.MOVED, Status.CREPT, Status.CLIMBED)
MOVES_TO_COVER = (Status.COVERING, Status.CREPT)


def moved_to_fire(state: GameState, group: Sequence[Unit], moves: Sequence[str] = MOVES_TO_FIRE) -> bool:
    """Whether ``group``'s fire completes the action they moved in (§6.4, ACT-3): a group's
    move and its fire at one target are one group action, each enemy figure reacting once
    to it, as a lone figure's move and fire are his one action (§5.0), and so are a
    covering move and its covering fire (``moves`` MOVES_TO_COVER).  So it is when every
    firer moved, in a move that leaves him that fire, in the active player's latest action
    in sight (ruling BN-C-GROUP)."""
    actors = action_actors(state) or ()
    return bool(actors) and all(u.id in actors and any(u.has(m) for m in moves) for u in group)


def action_number(state: GameState) -> int:
    """The number of the active player's latest action in sight (0: none yet).  A save made
    before the actors were recorded holds the bare number."""
    return int(str(var(state, "action", 0)).partition(":")[0] or 0)


def activation_action(state: GameState) -> int:
    """The number of the active player's latest action in sight in this turn's activation
    (0: none yet this turn; a save made before it was recorded counts from here)."""
    value = var(state, "action", 0)
    if isinstance(value, int):
        return 0
    parts = value.split(":")
    return int(parts[3]) if len(parts) > 3 and int(parts[1]) == state.turn else 0


def action_actors(state: GameState) -> tuple[str, ...] | None:
    """The men who moved or fired in the enemy's latest action of this turn, whom
    opportunity fire may answer (§8.2); () when there is none this turn, None when the
    save does not say (it was made before the actors were recorded)."""
    value = var(state, "action", 0)
    if isinstance(value, int):
        return () if not value else None
    _n, _sep, rest = value.partition(":")
    turn, _sep, tail = rest.partition(":")
    ids = tail.partition(":")[0]  # then the number within the activation, in newer saves
    return tuple(ids.split(",")) if int(turn) == state.turn and ids else ()


def first_fire(ctx: Context, side: str) -> None:
    """Record which side fired first: §14 charges it defeat points (not done here)."""
    if "first_fire" not in ctx.state.vars:
        set_var(ctx, "first_fire", side)


# ------------------------------------------------------------------ saves


def class_save(unit: Unit) -> int:
    """The §3.0 save; civilians and journalists, who have no class, save at 4+ (AMB-59)."""
    t = troop(unit)
    return t.save if t else saves.save_table().civilian


def take_hits(
    ctx: Context,
    unit: Unit,
    count: int,
    *,
    by_side: str,
    source: str = saves.NORMAL,
    protected: bool = False,
    vs_special_forces: bool = False,
    heavy_vehicle: bool = False,
    vehicle_column: str = "light",
    flank: bool = False,
    in_cover: bool | None = None,
) -> bool:
    """Roll the saves for ``count`` hits and apply the result.  True if it survived.
    ``in_cover``: whether he stood in cover, so that saving drops him out of sight
    (§10.0); by default whether he was ``protected``.  A suppressed man in the open is
    protected against fire from past 25 cm without being in cover (BN-C-SUPPRESS-HIDE)."""
    if count <= 0 or unit.out:
        return True
    if is_vehicle(unit):
        bombardment = source == saves.BOMBARDMENT
        return vehicle_hits(
            ctx, unit, count, by_side=by_side, column=vehicle_column, flank=flank, bombardment=bombardment
        )
    facts = SaveFacts(
        leader=is_leader(unit),
        protected=protected or unit.has(Status.IN_VEHICLE) and vehicle_of(ctx, unit) == "protected",
        source=source,
        heavy_vehicle=heavy_vehicle,
        vs_special_forces=vs_special_forces,
    )
    value = saves.save_value(class_save(unit), facts)
    mods = saves.save_mods(facts)
    faces = ctx.roll(
        M("save"),
        count,
        step=(dice_order.SAVES, dice_order.BLAST_SAVES),
        target=value,
        mods=mods,
        rule="§9.1" if source in (saves.IED, saves.BOMBARDMENT, saves.EXPLOSION) else "§9.0",
        unit=unit.id,
        outcome=lambda f: M("saved: suppressed") if saves.all_saved(f, value, mods) else M("failed: out of action"),
        check=saves.save_check(value, mods),
    )
    survived = saves.all_saved(faces, value, mods)
    if survived:
        suppress(ctx, unit, in_cover=protected if in_cover is None else in_cover)
    else:
        casualty(ctx, unit, by_side)
    if unit.kind == Kind.CIVILIAN and by_side:
        # §14.0 scores civilians hit (Italian draft) or killed (English): the ledger decides.
        civilian_hit(ctx, ctx.unit(unit.id), by_side, killed=not survived)
    return survived


#: §8.8: "the occupants of a vehicle that is protected but not armoured are subject to
#: small arms fire"; those of an armoured one are not (rulings BN-C-ARMOURED-OCCUPANTS).
ARMOURED = ("light", "heavy", "tank")


def require_exposed(ctx: Context, unit: Unit) -> None:
    """A man inside an armoured vehicle cannot be hit himself: the vehicle is (§8.8)."""
    if unit.has(Status.IN_VEHICLE) and vehicle_of(ctx, unit) in ARMOURED:
        vehicle = ctx.state.units[str(unit_var(ctx.state, unit.id, "aboard", ""))]
        raise Refused(
            _("{unit} is inside {vehicle}, an armoured vehicle: only the vehicle can be hit (§8.8)").format(
                unit=unit.name, vehicle=vehicle.name
            ),
            rule=("VF-1", "AMB-39"),
        )


def require_on_foot(ctx: Context, unit: Unit) -> None:
    """§6.3: a man aboard a vehicle leaves it only by getting out, "a complete move", so
    until he has he takes no step on foot: no move, dodge, going to ground, hand-to-hand
    or storming from his seat (rulings BN-C-EMBARK)."""
    if not unit.has(Status.IN_VEHICLE):
        return
    vid = str(unit_var(ctx.state, unit.id, "aboard", ""))
    vehicle = ctx.state.units.get(vid)
    # A scenario may give the badge with no vehicle recorded: he is still aboard one.
    named = vehicle.name if vehicle else vid or _("a vehicle")
    raise Refused(
        _("{unit} is aboard {vehicle}: getting out is his whole move (disembark, §6.3)").format(
            unit=unit.name, vehicle=named
        ),
        rule="MOV-5",
    )


def vehicle_of(ctx: Context, unit: Unit) -> str:
    vid = unit_var(ctx.state, unit.id, "aboard", "")
    v = ctx.state.units.get(str(vid))
    return v.cls if v else ""


def suppress(ctx: Context, unit: Unit, *, in_cover: bool) -> None:
    """§10.0: suppressed; a man already in cover also becomes hidden."""
    badge(ctx, unit, "suppressed")
    if in_cover and not unit.has(Status.HIDDEN) and not is_vehicle(unit):
        ctx.emit(ev.Noted(text=M("{unit} was in cover: suppressed, he drops out of sight (§10.0)", unit=unit.name)))
        ctx.emit(ev.StatusChanged(unit=unit.id, add=("hidden",)))


def casualty(ctx: Context, unit: Unit, by_side: str) -> None:
    """Out of action; under the optional wounded rule roll 1–2 dead, 3–6 turns to live (§9.3)."""
    if option(ctx.state, "wounded") and not is_vehicle(unit):
        (face,) = ctx.roll(
            M("wound"),
            1,
            step=dice_order.WOUND,
            rule="§9.3",
            unit=unit.id,
            outcome=lambda f: (
                M("dead") if not saves.wound(f[0]) else M("badly wounded: {turns} turns without a medic", turns=f[0])
            ),
            check=ev.Read(),  # §9.3: the face is the turns he lives
        )
        turns = saves.wound(face)
        if turns:
            ctx.emit(ev.UnitOut(unit=unit.id, cause=cause(WOUNDED, by_side)))
            set_unit_var(ctx, ctx.unit(unit.id), "wound", ctx.state.turn + turns)
            _leave_vehicle(ctx, unit)
            return
    ctx.emit(ev.UnitOut(unit=unit.id, cause=cause(KILLED, by_side)))
    _leave_vehicle(ctx, unit)


def _leave_vehicle(ctx: Context, unit: Unit) -> None:
    """A dead man leaves his seat; a dead driver leaves his vehicle running (§8.8)."""
    vehicle = ctx.state.units.get(str(unit_var(ctx.state, unit.id, "aboard", "")))
    if vehicle is None:
        return
    set_unit_var(ctx, unit, "aboard", "")
    if "driver" in unit.roles and vehicle.in_play:
        set_unit_var(ctx, vehicle, "driverless", 1)
        if italian(ctx):
            text = M(
                "{vehicle} has lost its driver: it runs on straight on for a whole move, then stops; "
                "hitting an obstacle stops it sooner (§8.8)",
                vehicle=vehicle.name,
            )
        else:
            text = M(
                "{vehicle} has lost its driver: it runs on for a whole move, then stops; "
                "hitting an obstacle stops it sooner (§8.8)",
                vehicle=vehicle.name,
            )
        ctx.emit(ev.Noted(text=text))


def driverless(state: GameState, vehicle: Unit) -> bool:
    """§8.8: its driver was put out of action and no other driver is aboard: after its
    run-on (the referee's), the vehicle stops and is not driven again."""
    if not unit_var(state, vehicle.id, "driverless", 0):
        return False
    return not any("driver" in u.roles for u in occupants(state, vehicle))


def occupants(state: GameState, vehicle: Unit) -> list[Unit]:
    return [u for u in state.units.values() if u.in_play and unit_var(state, u.id, "aboard", "") == vehicle.id]


def vehicle_hits(
    ctx: Context, vehicle: Unit, count: int, *, by_side: str, column: str, flank: bool, bombardment: bool = False
) -> bool:
    """§9.2: one save per hit by type and weapon (+2 under a bombardment, §8.4); a fail
    knocks it out, a fail by 3+ blows it up: the men inside save (§9.1) and the
    survivors get out suppressed."""
    vtype = vehicle.cls
    if vtype == "tank":
        vtype = "tank-side" if flank else "tank-front"
    try:
        value = saves.vehicle_save_value(vtype, column, ctx.ruleset.variant)
    except KeyError:
        raise Refused(
            _("{vehicle} has no vehicle type (tank, heavy, light, protected, unprotected)").format(
                vehicle=vehicle.name
            ),
            rule=("VSAVE-1", "T-14"),
        ) from None
    if value == 0:
        ctx.emit(ev.Noted(text=M("{vehicle} is unharmed: this weapon cannot hurt it (§9.2)", vehicle=vehicle.name)))
        return True
    mods = saves.vehicle_save_mods(value, bombardment)
    bonus = sum(m.value for m in mods)
    faces = ctx.roll(
        M("vehicle save"),
        count,
        step=(dice_order.SAVES, dice_order.BLAST_SAVES),
        target=value,
        mods=mods,
        rule="§9.2",
        unit=vehicle.id,
        outcome=lambda f: _vehicle_outcome(f, value, bonus),
        check=saves.vehicle_save_check(value, bonus),
        certain_if=(True,),  # every die through: nothing more is read (a fail's margin is: §9.2)
    )
    results = [saves.vehicle_save(f, value, bonus) for f in faces]
    if all(r.passed for r in results):
        return True
    exploded = any(r.exploded for r in results)
    ctx.emit(ev.UnitOut(unit=vehicle.id, cause=cause(DESTROYED if exploded else KNOCKED_OUT, by_side)))
    if exploded:
        heavy = saves.explosion_heavy(vehicle.cls, ctx.ruleset.variant)
        for man in occupants(ctx.state, vehicle):
            # A man who saves is suppressed by take_hits (§10.0) and gets out of the wreck.
            if take_hits(ctx, man, 1, by_side=by_side, source=saves.EXPLOSION, heavy_vehicle=heavy):
                ctx.emit(ev.StatusChanged(unit=man.id, remove=("in-vehicle",)))
                set_unit_var(ctx, man, "aboard", "")
    return False


def _vehicle_outcome(faces: tuple[int, ...], value: int, bonus: int = 0) -> Msg:
    results = [saves.vehicle_save(f, value, bonus) for f in faces]
    if all(r.passed for r in results):
        return M("saved")
    return M("explodes") if any(r.exploded for r in results) else M("knocked out")
