"""The EXTRAS that act on the table and are not another module's concept:
helicopter evacuation, and planting explosives (IED) at fake markers.

What a side bought is in ``extra.<side>.<id>`` (army.py writes it).  Combat
reads the support-fire extras (``improved_support_fire``, ``rules_of_engagement``,
``mortars``) with :func:`core.rulesets.breaking_news.ledger.extra`; Ambush and
Infiltrators are in deployment.py, Motivation in morale.py, Intelligence in
objectives.py, Media in media.py, Civilians in civilians.py, Negotiation in
negotiation.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.language.i18n import M, plain
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.campaign import deployment, forces, objectives
from core.rulesets.breaking_news.commands.common import LEADER, own_side, ready_to_act, require_ready, side_for
from core.rulesets.breaking_news.ledger import army, extra, set_var, var
from core.rulesets.breaking_news.words import DOMAIN, _, whose

LANDED, GONE = "landed", "gone"


# ------------------------------------------------------------------- helicopter


def helicopter_keys(side: str) -> tuple[str, str]:
    return f"helicopter.{side}.marker", f"helicopter.{side}.turn"


def _helicopter(ctx: Context, args: dict[str, Any]) -> None:
    """After all deployment: secretly note the landing marker and the turn it comes."""
    side = side_for(ctx, args["side"], f"helicopter {args['marker']} {args['turn']} side={{side}}")
    if not extra(ctx.state, side, "helicopter"):
        raise Refused(
            _("{side} bought no helicopter evacuation (Extras)").format(side=ctx.state.side_name(side)), rule="EXT-3"
        )
    if not all(deployment.all_placed(ctx.state, s) for s in ctx.state.sides):
        raise Refused(
            _("the landing point is noted after all the forces are deployed (Extras: Helicopter evacuation)"),
            rule="EXT-3",
        )
    owner, n = objectives.parse_marker(ctx.state, str(args["marker"]), args["of"] or side)
    if args["turn"] < 1:
        raise Refused(_("the helicopter comes in turn 1 or later"), rule="EXT-3")
    marker_key, turn_key = helicopter_keys(side)
    ctx.emit(ev.SecretSet(key=marker_key, owner=side, value=f"{owner}.{n}", vis=(side,)))
    ctx.emit(ev.SecretSet(key=turn_key, owner=side, value=str(args["turn"]), vis=(side,)))


#: The landed helicopter's figure: a vehicle that saves as light armour (§8.4, BN-C-HELICOPTER).
EVACUATION = "evacuation"


def _helicopter_spec(side: str) -> dict[str, Any]:
    return {
        "name": f"Helicopter ({side})",
        "side": side,
        "kind": "vehicle",
        "cls": "light",
        "roles": ("helicopter", EVACUATION),
    }


def _helicopter_id(state: GameState, side: str) -> str:
    """``helicopter-<side>``, or with a number when a scenario took that id."""
    uid, n = f"helicopter-{side}", 1
    while uid in state.units:
        n += 1
        uid = f"helicopter-{side}-{n}"
    return uid


def _evacuation_unit(state: GameState, side: str) -> Unit | None:
    return next((u for u in state.units.values() if u.side == side and EVACUATION in u.roles), None)


def landed(state: GameState, side: str) -> bool:
    """Is the side's helicopter on the ground, and not shot down?  (A game saved before
    the helicopter became a figure has none: it is on the ground all the same.)"""
    heli = _evacuation_unit(state, side)
    return var(state, f"helicopter.{side}", "") == LANDED and (heli is None or not heli.out)


def _shot_down(state: GameState, side: str) -> str:
    """How the enemy put the side's helicopter out ("knocked out by …"), or ''."""
    heli = _evacuation_unit(state, side)
    if heli is None or not heli.out or plain(heli.out) == forces.LEFT:
        return ""
    what, by = hits.parse_cause(heli.out)
    return DOMAIN.render(hits.cause(what, state.side_name(by)))  # the enemy by its name


def arrivals(ctx: Context) -> None:
    """Start of a turn: a helicopter due this turn lands at its marker."""
    for side in ctx.state.sides:
        marker_key, turn_key = helicopter_keys(side)
        due = ctx.state.secrets.get(turn_key)
        if due is None or var(ctx.state, f"helicopter.{side}", "") or int(due.value) != ctx.state.turn:
            continue
        for key in (marker_key, turn_key):
            ctx.emit(ev.Revealed(key=key, value=ctx.state.secrets[key].value))
        set_var(ctx, f"helicopter.{side}", LANDED)
        where = ctx.state.secrets[marker_key].value
        # "Helicopters can be fired upon": on the ground it is a target like the
        # §8.4 gunship (small arms and rockets, long range, a light-armoured save),
        # with no weapon of its own (rulings BN-HELI-TARGET).
        ctx.emit(ev.UnitAdded(unit=ev.UnitSpec(id=_helicopter_id(ctx.state, side), **_helicopter_spec(side))))
        ctx.emit(
            ev.Noted(
                text=M(
                    "{whose} helicopter lands at marker {marker}; it may be fired on (Extras)",
                    whose=whose(side),
                    marker=where,
                )
            )
        )


def waits(ctx: Context) -> None:
    """End of a turn: a landed helicopter stays for stragglers unless 1d6 shows 1."""
    for side in ctx.state.sides:
        if not landed(ctx.state, side):
            continue
        (face,) = ctx.roll(
            M("helicopter waiting"),
            1,
            step=dice_order.NEXT_END,
            side=side,
            target=2,
            rule="Extras: Helicopter evacuation",
            outcome=lambda f: M("waits another turn") if f[0] > 1 else M("leaves for good"),
            check=ev.AtLeast(face=2),  # Extras: Helicopter evacuation, a 1 and it leaves
        )
        if face == 1:
            set_var(ctx, f"helicopter.{side}", GONE)
            heli = _evacuation_unit(ctx.state, side)
            if heli is not None:
                ctx.emit(ev.UnitOut(unit=heli.id, cause=M(forces.LEFT)))


def _board(ctx: Context, args: dict[str, Any]) -> None:
    units = [ctx.unit(uid) for uid in args["units"]]
    sides = {u.side for u in units}
    if len(sides) != 1:
        raise Refused(_("one side boards its own helicopter"), rule="EXT-3")
    (side,) = sides
    if not landed(ctx.state, side):
        shot = _shot_down(ctx.state, side)
        raise Refused(
            _("{whose} helicopter was {shot}").format(whose=DOMAIN.render(whose(ctx.state.side_name(side))), shot=shot)
            if shot
            else _("{side} have no helicopter on the ground").format(side=ctx.state.side_name(side)),
            rule="EXT-3",
        )
    for u in units:
        # a badly wounded man carried aboard is out of danger (§9.3, AMB-47)
        if u.out and hits.parse_cause(u.out)[0] != hits.WOUNDED:
            raise Refused(
                _("{name} is out of the game ({out})").format(name=u.name, out=DOMAIN.render(u.out)), rule="EXT-3"
            )
        if not u.out:
            # boarding is getting into a vehicle (ruling BN-HELI): §6.3's complete move
            require_ready(ctx.state, u)
            if hits.has_acted(u):
                raise Refused(_("{unit} has already acted this turn").format(unit=u.name), rule="EXT-3")
    men = [u for u in units if not u.out]
    # a suppressed man tests first (§10.0); one who fails stays where he is
    aboard = [u for u in units if u.out or ready_to_act(ctx, u, args.get("leader"))]
    for u in aboard:
        ctx.emit(ev.UnitOut(unit=u.id, cause=M(forces.EVACUATED)))
    if aboard:
        ctx.emit(
            ev.Noted(
                text=M(
                    "{n} aboard {whose} helicopter: off the field, not lost (Extras)", n=len(aboard), whose=whose(side)
                )
            )
        )
    if men:
        hits.next_action(ctx, men)


# ----------------------------------------------------------------------- IEDs


def ied_key(side: str, n: int) -> str:
    return f"ied.{side}.{n}"


def charges(state: GameState, side: str) -> dict[str, int]:
    """IEDs planted so far, by kind."""
    out = {"proximity": 0, "remote": 0}
    for n in objectives.MARKERS:
        s = state.secrets.get(ied_key(side, n))
        if s is not None:
            out[s.value] += 1
    return out


def _plant_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Who may plant: a player his own side, and only an Irregular one (Extras: Explosives)."""
    own_side(ruleset, state, side, role)
    if army(state, side) != "irregular":
        raise Refused(_("only Irregulars plant IEDs (Extras: Explosives)"), rule="EXT-9")


def _free_fakes(state: GameState, side: str) -> list[int]:
    """``side``'s fake markers with no IED under them yet."""
    marked = objectives.markers(state, side)
    return [n for n in objectives.MARKERS if marked.get(n) == objectives.FAKE and ied_key(side, n) not in state.secrets]


def _plant_line(state: GameState, args: dict[str, Any]) -> Callable[[str], str]:
    """The line that plants for a side: under the marker typed if it is one of that
    side's free fake markers, else under the first of them (the referee sees them all)."""

    def line(side: str) -> str:
        free = _free_fakes(state, side)
        n = args["marker"] if args["marker"] in free or not free else free[0]
        return f"plant {n}{' remote' if args['remote'] else ''} side={side}"

    return line


def _plant(ctx: Context, args: dict[str, Any]) -> None:
    """Extras: Explosives — an IED under one of your own fake markers, kept secret."""
    side = side_for(ctx, args["side"], _plant_line(ctx.state, args), _plant_side)
    owner, n = objectives.parse_marker(ctx.state, str(args["marker"]), side)
    if owner != side or objectives.markers(ctx.state, side).get(n) != objectives.FAKE:
        raise Refused(_("an IED goes under one of your own fake markers (Extras: Explosives)"), rule="EXT-9")
    if ied_key(side, n) in ctx.state.secrets:
        raise Refused(_("there is an IED at marker {n} already").format(n=n), rule="EXT-9")
    kind = "remote" if args["remote"] else "proximity"
    bought = extra(ctx.state, side, "ied_remote" if kind == "remote" else "ied")
    if charges(ctx.state, side)[kind] >= bought:
        raise Refused(
            (
                DOMAIN.ngettext(
                    "{side} bought {bought} remote IED (Extras: Explosives)",
                    "{side} bought {bought} remote IEDs (Extras: Explosives)",
                    bought,
                )
                if kind == "remote"
                else DOMAIN.ngettext(
                    "{side} bought {bought} proximity IED (Extras: Explosives)",
                    "{side} bought {bought} proximity IEDs (Extras: Explosives)",
                    bought,
                )
            ).format(side=ctx.state.side_name(side), bought=bought),
            rule="EXT-9",
        )
    ctx.emit(ev.SecretSet(key=ied_key(side, n), owner=side, value=kind, vis=(side,)))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "helicopter",
        "After deployment, secretly note the helicopter's landing marker and the turn it comes.",
        _helicopter,
        params=(
            Param("marker", "int", "the landing marker's number", lo=1, hi=5),
            Param("turn", "int", "the turn it lands", lo=1, hi=99),
            Param("of", "side", "whose marker (default: your own)", optional=True, default="", keyword=True),
            Param("side", "side", "whose helicopter (for the referee)", optional=True, default="", keyword=True),
        ),
        rule="Extras: Helicopter evacuation",
        examples=("helicopter 2 5", "helicopter 1 4 of=irregulars"),
        phases=("deployment",),
    ),
    CommandSpec(
        "board",
        "Figures (or wounded carried to it) board the landed helicopter and leave the field.",
        _board,
        params=(Param("units", "own", "who boards", many=True), LEADER),
        rule="Extras: Helicopter evacuation",
        examples=("board rossi conti",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "plant",
        "Plant an IED under one of your fake markers (remote: you choose when it goes off).",
        _plant,
        params=(
            Param("marker", "int", "your fake marker's number", lo=1, hi=5),
            Param("remote", "choice", "remotely controlled", choices=("remote",), optional=True, keyword=True),
            Param("side", "side", "whose IED (for the referee)", optional=True, default="", keyword=True),
        ),
        rule="Extras: Explosives",
        examples=("plant 3", "plant 1 remote"),
        phases=("deployment",),
        side_check=_plant_side,
    ),
)
