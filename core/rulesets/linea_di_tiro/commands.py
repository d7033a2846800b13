"""Linea di Tiro commands: activation (A1–A7), "unit" moves, anti-tank fire (2d6),
MG/HE fire (1d6), morale, and the referee's spotting."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.linea_di_tiro import rules
from core.rulesets.linea_di_tiro.tables import Profile, at_table, mg_table, morale, options
from core.rulesets.linea_di_tiro.turn import ATTACK_BADGES, card_kind
from core.state import Unit
from core.views import unit_audience, unit_visible

READY_BADGES = ("ready-1", "ready-2")
MAX_READY = len(READY_BADGES)  # ruling LT-READY (digest LT-AMB-08)


def profile(ctx: Context, unit: Unit) -> Profile:
    return ctx.ruleset.profile(ctx.state, unit)  # type: ignore[attr-defined]


def ready(unit: Unit) -> int:
    """How many prepared ("ready") attacks the piece holds."""
    return next((i + 1 for i, b in reversed(list(enumerate(READY_BADGES))) if unit.has(b)), 0)


def attacks_left(unit: Unit) -> int:
    """How many attacks the piece may still execute under the current card."""
    return next((i + 1 for i, b in reversed(list(enumerate(ATTACK_BADGES))) if unit.has(b)), 0)


def _count_badges(ctx: Context, unit: Unit, badges: tuple[str, ...], old: int, new: int) -> None:
    if old == new:
        return
    ctx.emit(
        ev.StatusChanged(
            unit=unit.id,
            add=(badges[new - 1],) if new else (),
            remove=(badges[old - 1],) if old else (),
        )
    )


def _say(ctx: Context, unit: Unit, text: str) -> None:
    """A note about a piece, seen by whoever may see the piece."""
    ctx.emit(ev.Noted(text=text, vis=unit_audience(unit)))


# --------------------------------------------------------------------- activation


def _activate(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R010/R020: a number card activates one piece of its side; a face card every
    piece of one platoon (ruling LT-PLATOON), each once; a joker none."""
    s = ctx.state
    piece = ctx.unit(args["piece"])
    option = options()[args["option"]]
    kind = card_kind(s)
    if kind == "joker":
        raise Refused("a joker activates no piece: it is the scenario's special card (LT-R010)")
    if piece.side != s.active_side:
        raise Refused(f"the card {s.card} is {s.active_side}'s: {piece.name} cannot be activated (LT-R010)")
    if not piece.in_play:
        raise Refused(f"{piece.name} is out of action")
    if any(piece.has(o) for o in options()):
        raise Refused(f"{piece.name} has already been activated on this card ({s.card})")
    others = [u for u in s.units.values() if u.id != piece.id and any(u.has(o) for o in options())]
    if kind == "number" and others:
        raise Refused(f"a number card activates one piece, and {others[0].name} was activated (LT-R010)")
    if kind == "face":
        if s.vars.get("unit_move") == s.turn:
            raise Refused(f"the card {s.card} was spent on a unit move (LT-R010)")
        if others and others[0].team != piece.team:
            raise Refused(f"the card {s.card} activates platoon {others[0].team}; {piece.name} is in {piece.team}")
    immobilised = piece.has("immobilised")
    if option.recover and not immobilised:
        raise Refused(f"{piece.name} is not immobilised (A7)")
    if option.moves and immobilised:
        raise Refused(f"{piece.name} is immobilised and cannot move until it recovers (A7; ruling LT-IMMOBILISED)")
    prepare = option.prepare if args["prepare"] is None else args["prepare"]
    if not 0 <= prepare <= option.prepare:
        raise Refused(f"{option.id} prepares at most {option.prepare} attack(s)")
    held = ready(piece)
    if held + prepare > MAX_READY:
        raise Refused(f"{piece.name} holds {held} ready attack(s); at most {MAX_READY} (ruling LT-READY)")
    execute = min(option.execute, option.attacks - prepare)
    ctx.emit(ev.StatusChanged(unit=piece.id, add=(option.id,)))
    _say(ctx, piece, f"{piece.name}: {option.id}, {option.title} (LT-R020)")
    _count_badges(ctx, piece, READY_BADGES, held, held + prepare)
    _count_badges(ctx, piece, ATTACK_BADGES, 0, execute)
    if option.recover:
        ctx.emit(ev.StatusChanged(unit=piece.id, remove=("immobilised",)))


def _unit_move(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R010/R090 (ruling LT-ARTILLERY): a face card may be spent on a "unit" move
    instead of a platoon: calling for artillery (it fires when a joker comes out),
    continuing an artillery attack, or another move the scenario allows."""
    s = ctx.state
    if card_kind(s) != "face":
        raise Refused("only a face card gives a unit move (LT-R010)")
    if s.vars.get("unit_move") == s.turn:
        raise Refused(f"the card {s.card} was already spent on a unit move")
    if any(any(u.has(o) for o in options()) for u in s.units.values()):
        raise Refused(f"the card {s.card} already activated a platoon")
    side = s.active_side
    key = f"artillery.{side}"
    what = args["what"]
    if what == "call-artillery":
        if s.vars.get(key) in ("requested", "firing"):
            raise Refused(f"{side}'s artillery is already {s.vars[key]}")
        ctx.emit(ev.VarSet(key=key, value="requested"))
    elif what == "continue-artillery":
        if s.vars.get(key) != "firing":
            raise Refused(f"{side}'s artillery is not firing: it starts on a joker (LT-R090)")
        ctx.emit(ev.Noted(text=f"{side}'s artillery fires again: every unit in the square takes an mg attack"))
    ctx.emit(ev.VarSet(key="unit_move", value=s.turn))
    if args["text"]:
        ctx.emit(ev.Noted(text=args["text"]))


# --------------------------------------------------------------------------- fire


def _spend_attack(ctx: Context, shooter: Unit, use_ready: bool) -> None:
    """An attack is executed under the shooter's activation (A2–A4) or, with ``ready``,
    by spending a prepared attack, which a piece may do out of its turn in reply
    (LT-R052) or when it is spotted (LT-R053)."""
    if use_ready:
        held = ready(shooter)
        if not held:
            raise Refused(f"{shooter.name} holds no ready attack")
        _count_badges(ctx, shooter, READY_BADGES, held, held - 1)
        return
    if ctx.state.active_side != shooter.side or not any(shooter.has(o) for o in options()):
        raise Refused(f"{shooter.name} is not activated on this card; with a ready attack, add: ready")
    left = attacks_left(shooter)
    if not left:
        raise Refused(f"{shooter.name}'s activation has no attack left to execute (LT-R020)")
    _count_badges(ctx, shooter, ATTACK_BADGES, left, left - 1)


def _check_target(shooter: Unit, target: Unit) -> None:
    if not shooter.in_play or not target.in_play:
        raise Refused("both pieces must be in play")
    if shooter.side == target.side:
        raise Refused(f"{target.name} is on {shooter.name}'s side")
    if not unit_visible(target, shooter.side):
        raise Refused(f"{target.name} has not been spotted: only a visible piece may be attacked (LT-R030)")


def _at(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R050 ("TIRO CONTROCARRO"): 2d6 plus modifiers against attack minus protection."""
    shooter, target = ctx.unit(args["shooter"]), ctx.unit(args["target"])
    _check_target(shooter, target)
    attacker, defender = profile(ctx, shooter), profile(ctx, target)
    long_range = bool(args["long"])
    attack = attacker.at_long if long_range else attacker.at
    if not attack:
        raise Refused(f"{shooter.name} has no anti-tank attack{' at long range' if long_range else ''}")
    if not defender.front:
        raise Refused(f"{target.name} has no armour: fire at it with mg (LT-R060)")
    protection = defender.side if args["flank"] else defender.front
    table = at_table()
    mods = [ev.Mod(m.label, m.value, "LT-R050") for m in table.modifiers if m.id == "hull-down" and args["hulldown"]]
    mods += [ev.Mod(m.label, m.value, "LT-R050") for m in table.modifiers if m.id == "close" and args["close"]]
    _spend_attack(ctx, shooter, bool(args["ready"]))
    diff = attack - protection
    faces = ctx.roll(
        f"AT fire at {target.name}, attack {attack} - protection {protection} = {diff:+d}",
        2,
        mods=mods,
        total=True,
        rule="LT-R050",
        unit=shooter.id,
        outcome=lambda f: _AT_WORDS[rules.at_result(attack, protection, sum(f) + _sum(mods), long_range)],
    )
    result = rules.at_result(attack, protection, sum(faces) + _sum(mods), long_range)
    _apply(ctx, target, result)


def _mg(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R060/R071 ("ALTRI TIRI (MG & HE)"): 1d6 against attack factor minus defence."""
    shooter, target = ctx.unit(args["shooter"]), ctx.unit(args["target"])
    _check_target(shooter, target)
    attacker, defender = profile(ctx, shooter), profile(ctx, target)
    if not attacker.mg:
        raise Refused(f"{shooter.name} has no MG/HE attack")
    table = mg_table()
    defences = {d.id: d for d in table.defences}
    key = args["defence"] or defender.defence
    if not key:
        raise Refused(f"say what {target.name} is doing: defence={'|'.join(defences)} (C.7.1)")
    defence = defences[key]
    # The only die modifier on this table is the ambush of LT-R053 (ruling LT-MG-MODS).
    mods = [ev.Mod("ambush by an unspotted piece", -1, "LT-R053")] if args["ambush"] else []
    _spend_attack(ctx, shooter, bool(args["ready"]))
    diff = attacker.mg - defence.value
    (face,) = ctx.roll(
        f"MG/HE fire at {target.name}, attack {attacker.mg} - {defence.label} {defence.value} = {diff:+d}",
        1,
        mods=mods,
        total=True,
        rule="LT-R060",
        unit=shooter.id,
        outcome=lambda f: _MG_WORDS[rules.mg_result(attacker.mg, defence.value, f[0] + _sum(mods))],
    )
    result = rules.mg_result(attacker.mg, defence.value, face + _sum(mods))
    if result == "I" and defender.front:
        result = "T"  # an armoured vehicle tests morale instead (C.7 legend)
    _apply(ctx, target, result)


def _sum(mods: list[ev.Mod]) -> int:
    return sum(m.value for m in mods)


_AT_WORDS = {"D": "D: destroyed", "R": "R: routs without a test", "T": "T: morale test", "-": "no effect"}
_MG_WORDS = {"D": "D: destroyed", "I": "I: immobilised (a vehicle tests morale)", "-": "no effect"}


def _apply(ctx: Context, target: Unit, result: str) -> None:
    """Combat results apply at once (LT-R051)."""
    if result == "D":
        ctx.emit(ev.UnitOut(unit=target.id, cause="destroyed"))
    elif result == "R":
        _flee(ctx, target)
    elif result == "T":
        _say(ctx, target, f"{target.name} must test morale: morale {target.id}")
    elif result == "I":
        _count_badges(ctx, target, READY_BADGES, ready(target), 0)
        if not target.has("immobilised"):
            ctx.emit(ev.StatusChanged(unit=target.id, add=("immobilised",)))


def _flee(ctx: Context, piece: Unit) -> None:
    """LT-R080 (digest LT-AMB-22): it flees its full move, back to the enemy, and loses its ready attacks."""
    _count_badges(ctx, piece, READY_BADGES, ready(piece), 0)
    if not piece.has("retreating"):
        ctx.emit(ev.StatusChanged(unit=piece.id, add=("retreating",)))
    ctx.emit(ev.Moved(unit=piece.id, cm=profile(ctx, piece).speed, how="flees, back to the enemy"))


# ------------------------------------------------------------------------- morale


def _morale(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R080/R081: 1d6, +1 for being immobilised and +1 for each other situation the
    referee names (``plus=``), against the piece's morale."""
    piece = ctx.unit(args["piece"])
    if not piece.in_play:
        raise Refused(f"{piece.name} is out of action")
    value = profile(ctx, piece).morale
    mods = []
    if piece.has("immobilised"):
        mods.append(ev.Mod("immobilised", 1, "LT-R081"))
    if args["plus"]:
        if args["plus"] < 0:
            raise Refused("plus= counts situations that make the test harder (+1 each)")
        mods.append(ev.Mod("situations", args["plus"], "LT-R081"))
    (face,) = ctx.roll(
        f"morale test, morale {value}",
        1,
        mods=mods,
        total=True,
        rule="LT-R080",
        unit=piece.id,
        outcome=lambda f: rules.morale_result(f[0] + _sum(mods), value),
    )
    result = rules.morale_result(face + _sum(mods), value)
    if result == "flee":
        _flee(ctx, piece)
    elif result == "fall-back":
        _count_badges(ctx, piece, READY_BADGES, ready(piece), 0)
        ctx.emit(ev.Moved(unit=piece.id, cm=morale().fall_back_cm, how="falls back, facing the enemy"))


# ---------------------------------------------------------------------- spotting


def _spot(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R030..R034: the referee, measuring on the table, puts a spotted piece on it."""
    piece = ctx.unit(args["piece"])
    if not piece.has("hidden"):
        raise Refused(f"{piece.name} is not hidden")
    by = ctx.state.other_side(piece.side)
    if by in piece.spotted_by:
        raise Refused(f"{piece.name} is already spotted")
    ctx.emit(ev.Spotted(unit=piece.id, by_side=by))


# ----------------------------------------------------------------------- the list


def _flag(name: str, help: str) -> Param:
    return Param(name, "choice", help, optional=True, default=False, choices=(name,), keyword=True)


_READY = _flag("ready", "spend a prepared attack (a reply out of turn, LT-R052)")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "activate",
        "Activate a piece on the current card with one of the options A1-A7.",
        _activate,
        params=(
            Param("piece", "own"),
            Param("option", "choice", "A1..A7 (LT-R020)", choices=tuple(options())),
            Param(
                "prepare",
                "int",
                "attacks to prepare (default: as many as the option gives)",
                optional=True,
                keyword=True,
            ),
        ),
        rule="LT-R020",
        examples=("activate sherman1 A2", "activate panzer A4 prepare=2", "activate gis A7"),
        phases=("card",),
    ),
    CommandSpec(
        "unitmove",
        "Spend a face card on a unit move: call for artillery, continue its attack, or another.",
        _unit_move,
        params=(
            Param("what", "choice", choices=("call-artillery", "continue-artillery", "other")),
            Param("text", "text", optional=True),
        ),
        rule="LT-R090",
        examples=("unitmove call-artillery on the farm",),
        phases=("card",),
    ),
    CommandSpec(
        "at",
        "Anti-tank fire: 2d6 on the AT table, attack minus protection.",
        _at,
        params=(
            Param("shooter", "own"),
            Param("target", "enemy"),
            _flag("long", "long range: the long-range attack; above 6 no effect"),
            _flag("flank", "the shot comes from the side or rear: side protection"),
            _flag("hulldown", "target hull down or in prepared cover: +1"),
            _flag("close", "range 5 cm or less, or an ambush: -1"),
            _READY,
        ),
        rule="LT-R050",
        examples=("at sherman1 panzer", "at pak sherman1 flank ready close"),
        phases=("card",),
        rolls=True,
    ),
    CommandSpec(
        "mg",
        "MG or HE fire: 1d6 on the MG/HE table, attack factor minus defence.",
        _mg,
        params=(
            Param("shooter", "own"),
            Param("target", "enemy"),
            Param(
                "defence",
                "choice",
                "what the target is doing (C.7.1); vehicles have their own",
                optional=True,
                choices=tuple(d.id for d in mg_table().defences),
                keyword=True,
            ),
            _flag("ambush", "an unspotted piece's prepared attack at its spotter: -1 (LT-R053)"),
            _READY,
        ),
        rule="LT-R060",
        examples=("mg gis grenadiers defence=still-open",),
        phases=("card",),
        rolls=True,
    ),
    CommandSpec(
        "morale",
        "Morale test: 1d6 (+1 immobilised, +1 per situation) against the piece's morale.",
        _morale,
        params=(
            Param("piece", "own"),
            Param("plus", "int", "situations: +1 each (LT-R081)", optional=True, default=0, keyword=True),
        ),
        rule="LT-R080",
        examples=("morale sherman1", "morale gis plus=1"),
        phases=("card",),
        rolls=True,
    ),
    CommandSpec(
        "spot",
        "Put a hidden piece on the table: the enemy has spotted it (LT-R032).",
        _spot,
        params=(Param("piece", "unit"),),
        rule="LT-R032",
        examples=("spot pak",),
        phases=("card",),
        who="referee",
    ),
)
