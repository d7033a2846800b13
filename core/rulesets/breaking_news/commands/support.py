"""Breaking News support fire commands: calling artillery, aircraft and the
Irregulars' off-table mortar (§8.4, §8.5, Extras: Mortars), IEDs (Extras:
Explosives), and the optional-rule switches."""

from __future__ import annotations

from typing import Any

from core.language.i18n import N_, M, Msg
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits, options
from core.rulesets.breaking_news.campaign import objectives
from core.rulesets.breaking_news.commands.common import own_side, side_for
from core.rulesets.breaking_news.ledger import army, extra, set_var, var
from core.rulesets.breaking_news.rules import fire, support
from core.rulesets.breaking_news.tables.combat import support as support_table
from core.rulesets.breaking_news.tables.combat import weapons
from core.rulesets.breaking_news.words import DOMAIN, _, whose

SUPPORT_KINDS = ("artillery", "mortar", "counter")


def _support_fire(ctx: Context, side: str, kind: str) -> None:
    """Refuse support fire the side does not have: Regulars have artillery and aircraft
    (§8.4); Irregulars have support fire only through the Mortars extra, which is their
    whole support (Extras: Mortars, AMB-34).  Counter-battery is the opponent's own
    support fire turned on the mortar.  What a side bought is in its books (army.py);
    the referee cannot grant what was not paid for (rulings BN-C-SUPPORT-EXTRAS)."""
    mortars = bool(extra(ctx.state, side, "mortars"))
    if kind == "mortar" and not mortars:
        raise Refused(
            _("{side} bought no Mortars: no off-table mortar to call (Extras: Mortars)").format(
                side=ctx.state.side_name(side)
            ),
            rule=("MORT-3", "EXT-5"),
        )
    if kind != "mortar" and army(ctx.state, side) == "irregular":
        if not mortars:
            raise Refused(
                _(
                    "{side} are Irregulars without the Mortars extra: they have no support fire (Extras: Mortars)"
                ).format(side=ctx.state.side_name(side)),
                rule=("MORT-3", "EXT-5"),
            )
        if kind == "artillery":
            raise Refused(
                _("the support fire of {side} is their mortar: call-support mortar (Extras: Mortars)").format(
                    side=ctx.state.side_name(side)
                ),
                rule=("MORT-3", "EXT-5"),
            )


def _call(ctx: Context, args: dict[str, Any]) -> None:
    """§8.4: at the start of the turn 1d6, 4+ (Improved Support Fire +1, ROE −1, as the
    side bought them); it lands at the start of the next turn.  Extras, Mortars: 5+.
    Counter-battery against a mortar that has fired: 4+ silences it (AMB-36)."""
    side = side_for(ctx, args.get("side"), f"call-support {args.get('kind') or 'artillery'} side={{side}}")
    kind = args.get("kind") or "artillery"
    _support_fire(ctx, side, kind)
    key = f"support.{side}"
    # §8.4: "At the start of the turn the player calls for support by rolling": one roll a
    # turn, of whatever kind, granted or not; a call granted last turn lands before this
    # turn's initiative and leaves this turn's call free (rulings BN-C-ONE-CALL).
    called = var(ctx.state, f"support-call.{side}", 0) == ctx.state.turn
    if called or any(turn > ctx.state.turn for _kind, turn in _pending(ctx.state, side)):
        raise Refused(
            _("{side} has already called for support this turn (§8.4, ruling BN-C-ONE-CALL)").format(
                side=ctx.state.side_name(side)
            ),
            rule=("ART-2", "ART-3", "MORT-3"),
        )
    mods = support.call_mods(
        bool(extra(ctx.state, side, "improved_support_fire")), bool(extra(ctx.state, side, "rules_of_engagement"))
    )
    t = support_table()
    enemy = ctx.state.other_side(side)
    if kind == "mortar":
        if var(ctx.state, f"mortar-silenced.{side}"):
            raise Refused(
                _("{side} mortar has been silenced by counter-battery fire").format(
                    side=DOMAIN.render(whose(ctx.state.side_name(side)))
                ),
                rule=("MORT-3", "EXT-5"),
            )
        need = t.mortar.irregular_call
    elif kind == "counter":
        if not var(ctx.state, f"mortar-fired.{enemy}"):
            raise Refused(
                _("counter-battery fire needs an enemy mortar that has already fired (Extras: Mortars)"),
                rule=("MORT-3", "AMB-36"),
            )
        need = t.mortar.counter_battery
    else:
        need = t.artillery.call
    set_var(ctx, f"support-call.{side}", ctx.state.turn)
    (face,) = ctx.roll(
        _CALLS[kind],
        1,
        step=dice_order.CALL,
        side=side,
        target=need,
        mods=mods,
        rule="§8.4" if kind == "artillery" else "Extras: Mortars",
        outcome=lambda f: M("granted") if support.call_succeeds(f[0], need, mods) else M("refused"),
        check=support.call_check(need, mods),
    )
    if not support.call_succeeds(face, need, mods):
        return
    if kind == "counter":
        set_var(ctx, f"mortar-silenced.{enemy}", 1)
        ctx.emit(ev.Noted(text=M("{whose} mortar is suppressed (Extras: Mortars)", whose=whose(enemy))))
        return
    calls = [*_pending(ctx.state, side), (kind, ctx.state.turn + 1)]
    set_var(ctx, key, ";".join(f"{k}@{t}" for k, t in calls))
    ctx.emit(ev.Noted(text=M(_LANDS[kind], whose=whose(side), turn=ctx.state.turn + 1)))


def _pending(state: GameState, side: str) -> list[tuple[str, int]]:
    """The side's support granted and not landed yet, as (kind, turn it lands): the call
    of last turn until it lands, and this turn's."""
    text = str(var(state, f"support.{side}", ""))
    calls = (entry.partition("@") for entry in text.split(";") if entry)
    return [(kind, int(turn)) for kind, _sep, turn in calls]


_CALLS = {
    "artillery": M("call for artillery support"),
    "mortar": M("call for mortar support"),
    "counter": M("counter-battery fire"),
}
_LANDS = {
    "artillery": N_("{whose} artillery fire will land at the start of turn {turn}, before initiative (§8.4)"),
    "mortar": N_("{whose} mortar fire will land at the start of turn {turn}, before initiative (§8.4)"),
}


def land_support(ctx: Context) -> None:
    """Start of turn (§8.4): support called last turn arrives.  Artillery: the bombed
    player moves the 30 cm template 4d6 cm his way, then every figure under it saves
    (blast ... source=bombardment).  Mortar: fire it with the mortar command."""
    s = ctx.state
    for side in list(s.sides):
        key = f"support.{side}"
        calls = _pending(s, side)
        due = [k for k, turn in calls if turn == s.turn]
        if not due:
            continue
        set_var(ctx, key, ";".join(f"{k}@{t}" for k, t in calls if t != s.turn))
        kind = due[0]
        if kind == "artillery":
            # The bombardment is the side's fire: before any shot it is the first (§14.0, FIRE-15).
            hits.first_fire(ctx, side)
            a = support_table().artillery
            faces = ctx.roll(
                M("bombardment drift"),
                a.drift_dice,
                step=dice_order.NEXT_DRIFT,
                side=side,
                total=True,
                rule="§8.4",
                outcome=lambda f: M("{cm} cm", cm=sum(f)),
                check=ev.Read(),
            )
            ctx.emit(
                ev.Noted(
                    text=M(
                        "{whose} bombardment lands: {other} moves the centre of the {template} cm template {cm} cm "
                        "his way; every figure under it saves at {save}+ with +{bonus}: "
                        "blast ... source=bombardment by={side}",
                        whose=whose(side),
                        side=side,
                        other=s.other_side(side),
                        template=a.template_cm,
                        cm=sum(faces),
                        save=a.save,
                        bonus=a.save_bonus,
                    )
                )
            )
        else:
            set_var(ctx, f"mortar-ready.{side}", s.turn)
            ctx.emit(ev.Noted(text=M("{whose} mortar fire arrives: mortar range=N (§8.5)", whose=whose(side))))


def _mortar(ctx: Context, args: dict[str, Any]) -> None:
    """§8.5: the off-table mortar rolls on the Tank/mortars row; a miss puts the 10 cm
    template 3 cm per point away, where the opponent chooses."""
    side = side_for(ctx, args.get("side"), f"mortar range={args['range']} side={{side}}")
    if var(ctx.state, f"mortar-ready.{side}") != ctx.state.turn:
        raise Refused(
            _("{side} has no mortar fire arriving this turn: call-support kind=mortar").format(
                side=ctx.state.side_name(side)
            ),
            rule=("MORT-1", "EXT-5"),
        )
    weapon = weapons(ctx.ruleset.variant)["MORTAR"]
    need, dice = fire.base_shot(weapon, fire.AIMED, args["range"])
    (face,) = ctx.roll(
        M("mortar fire, {cm} cm", cm=args["range"]),
        dice,
        step=dice_order.MORTAR_FIRE,
        side=side,
        target=need,
        rule="§8.5",
        outcome=lambda f: M("on target") if f[0] >= need else M("off target"),
        check=ev.AtLeast(face=need),
    )
    set_var(ctx, f"mortar-ready.{side}", 0)
    set_var(ctx, f"mortar-fired.{side}", 1)
    hits.first_fire(ctx, side)
    if face >= need:
        ctx.emit(ev.Noted(text=M("the 10 cm mortar template lands on the target: blast ... source=mortar")))
        return
    if options.option(ctx.state, "deviation"):
        direction = None
        if face != 1:
            (direction,) = ctx.roll(
                M("mortar deviation direction"),
                1,
                rule="§8.0.2",
                side=side,
                check=ev.Read(),
                step=dice_order.MORTAR_MISS,
            )
        d = fire.deviation(weapon, need, face, direction)
        if d.dud:
            ctx.emit(ev.Noted(text=M("the mortar round did not fire (a 1, §8.0.2)")))
            return
        lands = M("the mortar lands {where} (§8.0.2): blast ... source=mortar", where=fire.landing(d, M("the target")))
        ctx.emit(ev.Noted(text=lands))
        return
    off = fire.placement_offset(support_table().mortar.step_cm, need, face)
    ctx.emit(
        ev.Noted(
            text=M(
                "the mortar template lands {cm} cm off, where {side} chooses (§8.5): blast ... source=mortar",
                cm=off,
                side=ctx.state.other_side(side),
            )
        )
    )


def _ied_site(ctx: Context, where: str) -> str:
    """Where the IED is: a player sets off only a charge his side planted (``plant``),
    named ``N`` or ``SIDE.N``; the referee may also name any place the scenario set one."""
    if ctx.role not in ctx.state.sides:
        return where
    owner, n = objectives.parse_marker(ctx.state, where, ctx.role)
    site = f"{owner}.{n}"
    secret = ctx.state.secrets.get(f"ied.{site}")
    if secret is None or secret.owner != ctx.role:
        # the same words whether the enemy has a charge there or not
        raise Refused(
            _("{role} planted no IED at marker {where} (plant, Extras: Explosives)").format(role=ctx.role, where=where),
            rule="EXT-9",
        )
    return site


def ied_place(state: GameState, where: str) -> Msg | str:
    """Where an IED is, as a player says it: ``regulars.4`` is the regulars' marker 4
    (its side by its name once shown); a place the scenario named, as named."""
    side, _sep, n = where.rpartition(".")
    if side in state.sides and n.isdigit():
        return M("{whose} marker {n}", whose=whose(side), n=n)
    return where


def ied_owner(state: GameState, key: str) -> str:
    """The side that planted the IED at ``key`` ("" if the scenario set it)."""
    secret = state.secrets.get(key)
    return secret.owner if secret else ""


def _ied(ctx: Context, args: dict[str, Any]) -> None:
    """Extras, Explosives: an IED goes off unless 1d6 shows 1 or 2; a dud is spent."""
    where = _ied_site(ctx, args["where"])
    key = f"ied.{where}"
    if var(ctx.state, key) == "spent":
        raise Refused(
            _("the IED at {where} has already gone off or failed").format(where=where), rule=("EXT-9", "AMB-43")
        )
    (face,) = ctx.roll(
        M("IED at {where}", where=ied_place(ctx.state, where)),
        1,
        step=dice_order.IED,
        side=ied_owner(ctx.state, key),
        target=support_table().ied.dud_up_to + 1,
        rule="Extras: Explosives",
        outcome=lambda f: M("explodes") if support.ied_explodes(f[0]) else M("dud"),
        check=ev.AtLeast(face=support_table().ied.dud_up_to + 1),
    )
    set_var(ctx, key, "spent")
    if support.ied_explodes(face):
        ctx.emit(
            ev.Noted(
                text=M(
                    "the IED at {where} explodes: every figure under the template saves at {save}+: "
                    "blast ... source=ied",
                    where=ied_place(ctx.state, where),
                    save=support_table().ied.save,
                )
            )
        )


def _option(ctx: Context, args: dict[str, Any]) -> None:
    name, on = args["name"], args["state"] == "on"
    if options.option(ctx.state, name) == on:
        raise Refused(_("{name} is already {state}").format(name=name, state=args["state"]), rule="ENG-7")
    set_var(ctx, f"option.{name}", int(on))
    ctx.emit(
        ev.Noted(
            text=M("optional rule {rule}: {state}", rule=M(options.OPTIONS[name]), state=M("on") if on else M("off"))
        )
    )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "call-support",
        "Call support fire at the start of the turn (§8.4): artillery/aircraft on 4+, the Irregulars' mortar "
        "on 5+ (Extras), or counter-battery on 4+; Improved Support Fire and Rules of Engagement apply as bought; "
        "it lands next turn before initiative.",
        _call,
        params=(
            Param("kind", "choice", "artillery, mortar or counter", optional=True, choices=SUPPORT_KINDS, keyword=True),
            Param("side", "side", "the calling side (for the referee)", optional=True, keyword=True),
        ),
        rule="§8.4, Extras: Mortars, Improved Support Fire, Rules of Engagement",
        examples=("call-support", "call-support mortar", "call-support counter"),
        phases=("initiative",),
        rolls=True,
        dice=(dice_order.CALL,),
        side_check=own_side,
    ),
    CommandSpec(
        "mortar",
        "Fire the off-table mortar that arrives this turn (§8.5); then name who is under it with blast.",
        _mortar,
        params=(
            Param("range", "distance", "distance from the firing edge in cm", keyword=True, hi=hits.MAX_CM),
            Param("side", "side", "the firing side (for the referee)", optional=True, keyword=True),
        ),
        rule="§8.5",
        examples=("mortar range=60",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.MORTAR_FIRE, dice_order.MORTAR_MISS),
        side_check=own_side,
    ),
    CommandSpec(
        "ied",
        "Set off an IED (1-2 on 1d6 is a dud); then name who is under it with blast (Extras: Explosives).",
        _ied,
        params=(Param("where", "text", "the marker it is under: N or SIDE.N (the referee: any place)"),),
        rule="Extras: Explosives",
        examples=("ied 4", "ied irregulars.4"),
        rolls=True,
        dice=(dice_order.IED,),
    ),
    CommandSpec(
        "option",
        "Switch an optional rule: deviation (§8.0.2), ammo (§8.0.3), wounded (§9.3).",
        _option,
        params=(
            Param("name", "choice", choices=tuple(options.OPTIONS), meanings=tuple(options.OPTIONS.values())),
            Param("state", "choice", choices=("on", "off")),
        ),
        rule="§8.0.2, §8.0.3, §9.3",
        examples=("option ammo on", "option wounded on"),
        phases=("setup", "deployment"),
        who="referee",
    ),
)
