"""Linea di Tiro activation (C.3: options A1–A7) and "unit" moves (C.2, C.10)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.linea_di_tiro.pieces import (
    MAX_READY,
    activated,
    attacks_left,
    counted,
    is_tank,
    profile,
    ready,
    recover,
    require_in_play,
    require_tested,
    say,
    set_count,
)
from core.rulesets.linea_di_tiro.scenario_vars import (
    ABOARD_VAR,
    ARTILLERY_CARD,
    aboard,
    artillery_factor,
    joker_starts_artillery,
)
from core.rulesets.linea_di_tiro.tables import artillery, options
from core.rulesets.linea_di_tiro.terms import Kind, Status
from core.rulesets.linea_di_tiro.turn import ATTACK_BADGES, PREPARE_BADGES, READY_BADGES, card_kind
from core.rulesets.linea_di_tiro.words import _, either, owner, pgettext, whose

# --------------------------------------------------------------------- activation


def _activate(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R010/R020: a number card activates one piece of its side; a face card every
    piece of one platoon (ruling LT-PLATOON), each once; a joker none."""
    s = ctx.state
    piece = ctx.unit(args["piece"])
    option = options()[args["option"]]
    _card_allows(s, piece)
    immobilised = piece.has(Status.IMMOBILISED)
    if option.recover and not immobilised:
        raise Refused(_("{unit} is not immobilised (A7)").format(unit=piece.name), rule=("LT-R020", "LT-AMB-21"))
    if (option.speed or option.mount) and immobilised:
        # A5 and A6 are nothing but a move; A1 and A2 are carried out in part (LT-AMB-09),
        # their bound refused by `move` (ruling LT-IMMOBILISED).
        raise Refused(
            _("{unit} is immobilised and cannot move until it recovers (A7; ruling LT-IMMOBILISED)").format(
                unit=piece.name
            ),
            rule=("LT-R081", "LT-AMB-21"),
        )
    prepare = option.prepare if args["prepare"] is None else args["prepare"]
    if not 0 <= prepare <= option.prepare:
        raise Refused(
            _("{option} prepares at most {n} attack(s)").format(option=option.id, n=option.prepare),
            rule=("LT-R020", "LT-AMB-08"),
        )
    held = ready(piece)
    if held + prepare > MAX_READY:
        raise Refused(
            _("{unit} holds {n} ready attack(s); at most {most} (ruling LT-READY)").format(
                unit=piece.name, n=held, most=MAX_READY
            ),
            rule="LT-AMB-08",
        )
    if option.speed and aboard(s, piece):
        # A5 is nothing but a move: a piece aboard moves with its vehicle (LT-R020)
        raise Refused(
            _("{unit} is aboard a vehicle: A6 gets it off first (LT-R020)").format(unit=piece.name), rule="LT-R020"
        )
    if option.mount and is_tank(profile(ctx, piece)):
        # C.3 A6: "salire o scendere da mezzi (fanteria e artiglieria)": not a tank.
        raise Refused(
            _("{unit} is a tank: only infantry and guns mount or dismount (A6)").format(unit=piece.name),
            rule=("LT-R020", "LT-AMB-30"),
        )
    if args["into"] is not None and not option.mount:
        raise Refused(
            _("into= names the vehicle a piece mounts with A6, not {option}").format(option=option.id), rule=TYPING
        )
    execute = min(option.execute, option.attacks - prepare)
    # "o v.v." (LT-R020): what A1 or A3 does not prepare now it may prepare after its other half;
    # A4's attacks are one pool, prepared from what is left to execute (``_prepare``).
    later = 0 if option.shared else min(option.prepare - prepare, option.attacks - prepare - execute)
    ctx.emit(ev.StatusChanged(unit=piece.id, add=(option.id,)))
    say(ctx, piece, M("{unit}: {option}, {title} (LT-R020)", unit=piece.name, option=option.id, title=M(option.title)))
    if option.mount:
        _mount_or_dismount(ctx, piece, args["into"])
    set_count(ctx, piece, READY_BADGES, held + prepare)
    set_count(ctx, piece, ATTACK_BADGES, execute)
    set_count(ctx, piece, PREPARE_BADGES, later)
    if option.recover:
        recover(ctx, piece)


def _card_allows(s: GameState, piece: Unit) -> None:
    """LT-R010: the card drawn activates ``piece``: its side's, not a joker; a number card
    one piece, a face card the pieces of one platoon (ruling LT-PLATOON), each once."""
    kind = card_kind(s)
    if kind == "joker":
        raise Refused(
            _("a joker activates no piece: it is the scenario's special card (LT-R010)"), rule=("LT-R010", "LT-AMB-05")
        )
    if piece.side != s.active_side:
        raise Refused(
            _("the card {card} is {whose}: {unit} cannot be activated (LT-R010)").format(
                card=s.card, whose=owner(s.side_name(s.active_side)), unit=piece.name
            ),
            rule="LT-R010",
        )
    require_in_play(piece)
    if piece.has(Status.RETREATING):
        raise Refused(_("{unit} is fleeing under this card (LT-R051)").format(unit=piece.name), rule="LT-R051")
    if any(piece.has(o) for o in options()):
        raise Refused(
            _("{unit} has already been activated on this card ({card})").format(unit=piece.name, card=s.card),
            rule="LT-R010",
        )
    others = [u for u in s.units.values() if u.id != piece.id and any(u.has(o) for o in options())]
    if kind == "number" and others:
        raise Refused(
            _("a number card activates one piece, and {unit} was activated (LT-R010)").format(unit=others[0].name),
            rule="LT-R010",
        )
    if kind == "face":
        if s.vars.get("unit_move") == s.turn:
            raise Refused(_("the card {card} was spent on a unit move (LT-R010)").format(card=s.card), rule="LT-R010")
        if others and others[0].team != piece.team:
            raise Refused(
                _("the card {card} activates platoon {platoon}; {unit} is in {team}").format(
                    card=s.card, platoon=others[0].team, unit=piece.name, team=piece.team
                ),
                rule=("LT-R010", "LT-AMB-04"),
            )


def _prepare(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R020 ("o v.v."): an activated piece prepares, after its bound or its executed
    attack, the attack its option left to prepare (A1, A3), or one A4 has not executed."""
    piece = ctx.unit(args["piece"])
    require_in_play(piece)
    option_id = activated(ctx, piece)
    if not option_id or ctx.state.active_side != piece.side:
        raise Refused(
            _("{unit} is not activated on this card: activate it first").format(unit=piece.name),
            rule=("LT-R020", "LT-AMB-08"),
        )
    if piece.has(Status.RETREATING):
        raise Refused(_("{unit} is fleeing under this card (LT-R051)").format(unit=piece.name), rule="LT-R051")
    require_tested(ctx, piece)
    held = ready(piece)
    if held >= MAX_READY:
        raise Refused(
            _("{unit} holds {n} ready attack(s); at most {most} (ruling LT-READY)").format(
                unit=piece.name, n=held, most=MAX_READY
            ),
            rule="LT-AMB-08",
        )
    later, left = counted(piece, PREPARE_BADGES), attacks_left(piece)
    if later:
        set_count(ctx, piece, PREPARE_BADGES, later - 1)
    elif options()[option_id].shared and left:
        set_count(ctx, piece, ATTACK_BADGES, left - 1)
    else:
        raise Refused(
            _("{whose} activation has no attack left to prepare (LT-R020)").format(whose=owner(piece.name)),
            rule="LT-R020",
        )
    set_count(ctx, piece, READY_BADGES, held + 1)


def _mount_or_dismount(ctx: Context, piece: Unit, into: str | None) -> None:
    """A6 (LT-R020): a piece aboard gets off; one on foot gets on the vehicle ``into``.

    Aboard is the ``in-vehicle`` badge and the ``aboard.<piece>`` variable, as a
    scenario's ``aboard`` sets them (docs/scenarios.md).
    """
    key = ABOARD_VAR.format(unit=piece.id)
    aboard = str(ctx.state.vars.get(key, ""))
    vis = (piece.side,) if piece.has(Status.HIDDEN) else ()
    if piece.has(Status.IN_VEHICLE) or aboard:
        if into is not None:
            raise Refused(
                _("{unit} is aboard: A6 gets it off first (into= is for a piece on foot)").format(unit=piece.name),
                rule=("LT-R020", "LT-AMB-30"),
            )
        ctx.emit(ev.StatusChanged(unit=piece.id, remove=("in-vehicle",)))
        if aboard:
            ctx.emit(ev.VarSet(key=key, value="", vis=vis))
        say(ctx, piece, M("{unit} dismounts", unit=piece.name))
        return
    if into is None:
        raise Refused(
            _("{unit} is on foot: name the vehicle it mounts, into=VEHICLE (A6)").format(unit=piece.name),
            rule=("LT-R020", "LT-AMB-30"),
        )
    vehicle = ctx.unit(into)
    require_in_play(vehicle)
    if vehicle.id == piece.id or vehicle.kind != Kind.VEHICLE:
        raise Refused(
            _("{vehicle} is not a vehicle {unit} can mount (A6)").format(vehicle=vehicle.name, unit=piece.name),
            rule=("LT-R020", "LT-AMB-30"),
        )
    ctx.emit(ev.StatusChanged(unit=piece.id, add=("in-vehicle",)))
    ctx.emit(ev.VarSet(key=key, value=vehicle.id, vis=vis))
    say(ctx, piece, M("{unit} mounts {vehicle}", unit=piece.name, vehicle=vehicle.name))


def _unit_move(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R010/R090 (ruling LT-ARTILLERY): a face card may be spent on a "unit" move
    instead of a platoon: calling for artillery (a company command or a piece named for
    it, at a sector it sees; it fires when a joker comes out), continuing an artillery
    attack (it fires again on this card), or another move the scenario allows."""
    s = ctx.state
    if card_kind(s) != "face":
        raise Refused(_("only a face card gives a unit move (LT-R010)"), rule=("LT-R010", "LT-AMB-07"))
    if s.vars.get("unit_move") == s.turn:
        raise Refused(
            _("the card {card} was already spent on a unit move").format(card=s.card), rule=("LT-R010", "LT-AMB-04")
        )
    if any(any(u.has(o) for o in options()) for u in s.units.values()):
        raise Refused(
            _("the card {card} already activated a platoon").format(card=s.card), rule=("LT-R010", "LT-AMB-04")
        )
    side = s.active_side
    key = f"artillery.{side}"
    what = args["what"]
    if what == "call-artillery":
        if not artillery_factor(s, side):
            raise Refused(
                _("this scenario gives {side} no artillery support with an HE factor (LT-R090)").format(
                    side=s.side_name(side)
                ),
                rule="LT-R090",
            )
        if not joker_starts_artillery(s):
            raise Refused(
                _("in this scenario a joker starts no artillery, so none can be called (LT-R090)"),
                rule=("LT-R090", "LT-AMB-07"),
            )
        if s.vars.get(key) in ("requested", "firing"):
            raise Refused(
                _("{whose} artillery is already {state}").format(
                    whose=owner(s.side_name(side)), state=pgettext("term", s.vars[key])
                ),
                rule=("LT-R090", "LT-AMB-27"),
            )
        caller = _caller(ctx, args.get("by"), side)
        ctx.emit(ev.VarSet(key=key, value="requested"))
        say(
            ctx,
            caller,
            M(
                "{unit} calls for {whose} artillery; it opens fire on the next joker (LT-R090)",
                unit=caller.name,
                whose=whose(side),
            ),
        )
    elif what == "continue-artillery":
        if s.vars.get(key) != "firing":
            raise Refused(
                _("{whose} artillery is not firing: it starts on a joker (LT-R090)").format(
                    whose=owner(s.side_name(side))
                ),
                rule=("LT-R090", "LT-AMB-27"),
            )
        ctx.emit(ev.VarSet(key=ARTILLERY_CARD + side, value=s.turn))
        text = M("{whose} artillery fires again: every unit in the square takes an attack (barrage)", whose=whose(side))
        ctx.emit(ev.Noted(text=text))
    ctx.emit(ev.VarSet(key="unit_move", value=s.turn))
    if args["text"]:
        ctx.emit(ev.Noted(text=args["text"]))


def _caller(ctx: Context, piece_id: str | None, side: str) -> Unit:
    """LT-R090: only a company command or a piece named for it calls artillery."""
    roles = artillery().caller_roles
    if piece_id is None:
        raise Refused(
            _("name the piece that calls: by=PIECE (one with the role {roles}; LT-R090)").format(roles=either(roles)),
            rule="LT-R090",
        )
    caller = ctx.unit(piece_id)
    if caller.side != side:
        raise Refused(
            _("{unit} is not {whose}").format(unit=caller.name, whose=owner(ctx.state.side_name(side))), rule="LT-R090"
        )
    require_in_play(caller)
    if caller.has(Status.RETREATING):
        # LT-R051/R080 (ruling LT-ROUT-CARD): fleeing, back to the enemy, it directs no guns
        raise Refused(_("{unit} is fleeing under this card (LT-R051)").format(unit=caller.name), rule="LT-R051")
    if not set(roles) & set(caller.roles):
        raise Refused(
            _("{unit} cannot call artillery: only a {roles} may (LT-R090)").format(
                unit=caller.name, roles=either(roles)
            ),
            rule="LT-R090",
        )
    return caller


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "activate",
        "Activate a piece on the current card with one of the options A1-A7.",
        _activate,
        params=(
            Param("piece", "own"),
            Param(
                "option",
                "choice",
                "A1..A7 (LT-R020)",
                choices=tuple(options()),
                meanings=tuple(o.title for o in options().values()),  # C.3: the activation table's words
            ),
            Param(
                "prepare",
                "int",
                "attacks to prepare now (default: as many as the option gives; the rest later with prepare)",
                optional=True,
                keyword=True,
            ),
            Param("into", "own", "with A6: the vehicle a piece on foot mounts", optional=True, keyword=True),
        ),
        rule="LT-R020",
        examples=("activate sherman1 A2", "activate panzer A4 prepare=2", "activate first A6 into=m3"),
        phases=("card",),
    ),
    CommandSpec(
        "prepare",
        "An activated piece prepares an attack after the other half of its option (A1, A3: "
        "either order) or one of A4's it has not executed. No dice.",
        _prepare,
        params=(Param("piece", "own"),),
        rule="LT-R020",
        examples=("prepare sherman1",),
        phases=("card",),
    ),
    CommandSpec(
        "unitmove",
        "Spend a face card on a unit move: call for artillery, continue its attack, or another.",
        _unit_move,
        params=(
            Param("what", "choice", choices=("call-artillery", "continue-artillery", "other")),
            Param("by", "own", "the company command or observer that calls (LT-R090)", optional=True, keyword=True),
            Param("text", "text", optional=True, prose=True),
        ),
        rule="LT-R090",
        examples=("unitmove call-artillery by=captain on the farm", "unitmove continue-artillery"),
        phases=("card",),
    ),
)
