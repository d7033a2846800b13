"""Linea di Tiro spotting (C.4, "Visibilità") and movement (C.5, "Movimento").

The referee measures on the table and types the distance; the core decides."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg
from core.log import events as ev
from core.log.views import REFEREE_ONLY
from core.ruleset import MAX_DISTANCE_CM, TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.linea_di_tiro import rules, scenario_vars
from core.rulesets.linea_di_tiro.pieces import (
    activated,
    fired,
    kind,
    profile,
    ready,
    require_in_play,
    require_tested,
    say,
    set_count,
)
from core.rulesets.linea_di_tiro.rules import spotting
from core.rulesets.linea_di_tiro.tables import spotting as spotting_table
from core.rulesets.linea_di_tiro.terms import Kind, Status
from core.rulesets.linea_di_tiro.turn import AMBUSH_VAR, FIRED_BADGES
from core.rulesets.linea_di_tiro.words import AMBUSH_REPLY, _, owner

STATES = tuple(dict.fromkeys(r.state for r in spotting_table().targets))
#: The scenario's visibility in cm (``visibility``), 0 or absent: the general table.
VISIBILITY = "visibility"


def _spot(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R030..R034, R053: whether an observer spots a hidden piece at the distance the
    referee measured; a piece spotted with a ready attack may reply at its spotter."""
    target, observer = ctx.unit(args["piece"]), ctx.unit(args["by"])
    require_in_play(target)
    require_in_play(observer)
    if observer.side == target.side:
        raise Refused(
            _("{unit} is on {whose} side").format(unit=observer.name, whose=owner(target.name)), rule="LT-R032"
        )
    if not target.has(Status.HIDDEN):
        raise Refused(_("{unit} is not hidden: it is on the table (LT-R030)").format(unit=target.name), rule="LT-R030")
    if observer.side in target.spotted_by:
        raise Refused(
            _("{unit} is already spotted by {side}").format(unit=target.name, side=ctx.state.side_name(observer.side)),
            rule=("LT-R030", "LT-R032"),
        )
    cm = args["at"]
    if cm < 0:
        raise Refused(_("a distance cannot be negative"), rule=TYPING)
    target_kind = kind(ctx, target)
    row = spotting_table().row(target_kind, args["state"])
    if row is None:
        known = ", ".join(spotting_table().states(target_kind))
        if target_kind == Kind.VEHICLE:
            said = _("{unit} is a vehicle: its state is one of {states} (LT-R032)")
        else:
            said = _("{unit} is infantry: its state is one of {states} (LT-R032)")
        raise Refused(said.format(unit=target.name, states=known), rule="LT-R032")
    shots = fired(target)
    seen_from_vehicle = profile(ctx, observer).vehicle
    recon = spotting_table().recon_role in observer.roles
    limit = spotting.distance(target_kind, args["state"], shots, seen_from_vehicle, recon)
    # C.4: "La visibilità può variare da scenario a scenario": the scenario's visibility
    # (night, fog) bounds every distance of the general table, the infinite one too.
    scenario = ctx.state.vars.get(VISIBILITY)
    capped = False
    if isinstance(scenario, int | float) and scenario > 0 and (limit is None or limit > scenario):
        limit, capped = float(scenario), True
    why = _explain(row.label, limit, shots, seen_from_vehicle and not recon, capped)
    if not spotting.spotted(cm, limit):
        seen = M(
            "{observer} does not spot {target} at {cm} cm: {why}",
            observer=observer.name,
            target=target.name,
            cm=cm,
            why=why,
        )
        ctx.emit(ev.Noted(text=seen, vis=REFEREE_ONLY))
        return
    ctx.emit(ev.Spotted(unit=target.id, by_side=observer.side))
    say(
        ctx,
        target,
        M("{observer} spots {target} at {cm} cm: {why}", observer=observer.name, target=target.name, cm=cm, why=why),
    )
    if ready(target):
        ctx.emit(ev.VarSet(key=AMBUSH_VAR + target.id, value=observer.id, vis=REFEREE_ONLY))
        say(
            ctx,
            target,
            M(
                AMBUSH_REPLY,
                target=target.name,
                observer=observer.name,
                target_id=target.id,
                observer_id=observer.id,
            ),
        )


def _explain(label: str, limit: float | None, shots: int, halved: bool, capped: bool = False) -> Msg:
    """Why a piece is spotted or not: the table's row, then what changed its distance (a
    scenario's visibility below it, ``capped``, last)."""
    if limit is None:
        return M("{row}, seen at any distance (LT-R032)", row=M(label))
    if capped:
        return M("{row}; the scenario's visibility is {cm} cm (LT-R032)", row=M(label), cm=f"{limit:g}")
    why: Msg = M(label)
    if shots:
        times = spotting_table().fire_factor ** shots
        why = M(
            "{row}, fired {shots} time(s) since its last bound: x{times} (LT-R033)", row=why, shots=shots, times=times
        )
    if halved:
        why = M("{row}, seen from a vehicle: halved (LT-R034)", row=why)
    return M("{row}; spotted within {cm} cm", row=why, cm=f"{limit:g}")


def _move(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R040..R042: a bound (A1, A2) or a move at speed (A5), as far as the piece's
    bound/speed; a bound repositions a piece that has fired (LT-R033)."""
    piece = ctx.unit(args["piece"])
    require_in_play(piece)
    option = activated(ctx, piece)
    if not option or ctx.state.active_side != piece.side:
        raise Refused(
            _("{unit} is not activated on this card: activate it with A1, A2 or A5 first").format(unit=piece.name),
            rule=("LT-R020", "LT-AMB-09"),
        )
    if piece.has(Status.MOVED):
        raise Refused(_("{unit} has already moved under this card (LT-R020)").format(unit=piece.name), rule="LT-R020")
    if piece.has(Status.IMMOBILISED):
        raise Refused(
            _("{unit} is immobilised and cannot move until it recovers (A7; ruling LT-IMMOBILISED)").format(
                unit=piece.name
            ),
            rule=("LT-R081", "LT-AMB-21"),
        )
    require_tested(ctx, piece)
    if scenario_vars.aboard(ctx.state, piece):
        # A6 is an activation of its own: a piece aboard moves with its vehicle, on foot
        # only once it has dismounted (LT-R020)
        raise Refused(
            _("{unit} is aboard a vehicle: A6 gets it off first (LT-R020)").format(unit=piece.name), rule="LT-R020"
        )
    if piece.has(Status.RETREATING):
        raise Refused(
            _("{unit} has fled its whole move under this card (LT-R080, ruling LT-ROUT-CARD)").format(unit=piece.name),
            rule=("LT-R080", "LT-R050c", "LT-AMB-22"),
        )
    p = profile(ctx, piece)
    mode, allowed = rules.move_allowance(option, p.bound, p.speed)
    cm = args["cm"]
    if cm < 0:
        raise Refused(_("a distance cannot be negative; a bound backwards is typed as its length"), rule=TYPING)
    if cm > allowed:
        if mode == "bound":
            said = _("{whose} bound is at most {cm} cm (LT-R041)")
        else:
            said = _("{whose} move at speed is at most {cm} cm (LT-R042)")
        raise Refused(said.format(whose=owner(piece.name), cm=allowed), rule=("LT-R041", "LT-R042"))
    how = M("bound") if mode == "bound" else M("at speed")
    ctx.emit(ev.Moved(unit=piece.id, cm=cm, how=how))
    ctx.emit(ev.StatusChanged(unit=piece.id, add=("moved",)))
    if mode == "bound" and fired(piece):
        set_count(ctx, piece, FIRED_BADGES, 0)
        say(ctx, piece, M("{unit} is repositioned: its visibility is no longer doubled (LT-R033)", unit=piece.name))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "spot",
        "Does an observer spot a hidden piece at the distance measured? The core decides; "
        "a spotted piece is put on the table. No dice.",
        _spot,
        params=(
            Param("piece", "unit", "the hidden piece"),
            Param("by", "unit", "the observing enemy piece, with a line of sight", keyword=True),
            Param("at", "distance", "the measured distance in cm", keyword=True, hi=MAX_DISTANCE_CM),
            Param("state", "choice", "what the hidden piece is doing (LT-R032)", choices=STATES, keyword=True),
        ),
        rule="LT-R032",
        examples=("spot pak by=sherman1 at=12 state=still-cover",),
        phases=("card",),
        who="referee",
    ),
    CommandSpec(
        "move",
        "Move an activated piece: a bound (A1, A2; 10 cm, or a turn on the spot: 0) or at speed (A5; 30 cm). No dice.",
        _move,
        params=(Param("piece", "own"), Param("cm", "distance", "the distance measured", hi=MAX_DISTANCE_CM)),
        rule="LT-R041",
        examples=("move gis 10", "move sherman1 0"),
        phases=("card",),
    ),
)
