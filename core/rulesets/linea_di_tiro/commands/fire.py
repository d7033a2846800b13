"""Linea di Tiro fire and morale: anti-tank fire (2d6, C.6), MG/HE fire (1d6, C.7),
morale tests and voluntary rout (C.8)."""

from __future__ import annotations

from typing import Any

from core.commands import local_name
from core.language.i18n import N_, M, Msg, Text
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import REFEREE_ONLY, unit_audience
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused, Ruleset, flag
from core.rulesets.linea_di_tiro import dice_order, rules
from core.rulesets.linea_di_tiro.pieces import (
    activated,
    check_target,
    fall_back,
    flee,
    has_fired,
    he_streak,
    is_gun,
    is_tank,
    lose_ready,
    profile,
    ready,
    require_able_to_fire,
    require_in_play,
    require_tested,
    say,
    set_count,
    spend_attack,
    sum_mods,
    test_due,
)
from core.rulesets.linea_di_tiro.tables import Profile, at_table, mg_table, movement
from core.rulesets.linea_di_tiro.terms import Status
from core.rulesets.linea_di_tiro.turn import AMBUSH_VAR, HE_BADGES
from core.rulesets.linea_di_tiro.words import DOMAIN, MORALE_DUE, _

#: The latest attack a piece survived and may answer (LT-R052): ``ATTACKER:TARGET:CARD``,
#: referee-only (the attacker may be hidden).  A reply spends it; any later attack, or a
#: new card, replaces it (ruling LT-REPLY).
LAST_ATTACK_VAR = "secret.last-attack"


READY = flag("ready", "spend a prepared attack (a reply out of turn, LT-R052)")
AMBUSH = flag("ambush", "a just-spotted piece's ready attack at its first spotter: -1 (LT-R053)")
OPPORTUNITY = flag("opportunity", "an opportunity shot at an assaulting piece (LT-R100/R102; ruling LT-OPPORTUNITY)")


def _fire_with(ctx: Context, shooter: Unit, target: Unit, args: dict[str, Any]) -> None:
    """Spend the attack the shot uses: the activation's, a ready one, an ambush reply
    (LT-R053) or an opportunity shot (a ready attack if held, else one free shot a card)."""
    if args.get("ambush"):
        key = AMBUSH_VAR + shooter.id
        spotter = ctx.state.vars.get(key)
        if not spotter:
            raise Refused(
                _("{unit} has no ambush to fire: it comes at once, under the card it was spotted on (LT-R053)").format(
                    unit=shooter.name
                ),
                rule="LT-R053",
            )
        if spotter != target.id:
            raise Refused(
                _("{unit} may reply with -1 only at the first enemy that spotted it (LT-R053)").format(
                    unit=shooter.name
                ),
                rule="LT-R053",
            )
        ctx.emit(ev.VarSet(key=key, value="", vis=REFEREE_ONLY))
        spend_attack(ctx, shooter, use_ready=True)
    elif args.get("opportunity"):
        require_able_to_fire(shooter)
        _require_assaulting(ctx, shooter, target)
        if ready(shooter):
            spend_attack(ctx, shooter, use_ready=True)
        elif shooter.has(Status.OPPORTUNITY):
            raise Refused(
                _("{unit} has had its free opportunity shot on this card (ruling LT-OPPORTUNITY)").format(
                    unit=shooter.name
                ),
                rule="LT-AMB-25",
            )
        else:
            require_tested(ctx, shooter)
            ctx.emit(ev.StatusChanged(unit=shooter.id, add=("opportunity",)))
            has_fired(ctx, shooter)
    elif args.get("ready"):
        require_able_to_fire(shooter)
        if not ready(shooter):
            raise Refused(_("{unit} holds no ready attack").format(unit=shooter.name), rule=("LT-R052", "LT-AMB-08"))
        _answer(ctx, shooter, target)
        spend_attack(ctx, shooter, use_ready=True)
    else:
        spend_attack(ctx, shooter, use_ready=False)


def _require_assaulting(ctx: Context, shooter: Unit, target: Unit) -> None:
    """LT-R100/R102 (ruling LT-OPPORTUNITY): an opportunity shot answers an assault, so its
    target is a piece of the side whose card it is, activated on it and not fleeing; a
    tank assaults by overrunning in the course of its move (A1, A2, A5), and of what it
    overruns only a gun shoots first: infantry tests morale and strikes first instead.
    A tank is assaulted only on the flank or rear (LT-R101), never frontally."""
    if is_tank(profile(ctx, shooter)):
        raise Refused(
            _(
                "{unit} is a tank: it is assaulted only on the flank or rear, so it has no opportunity shot (LT-R101)"
            ).format(unit=shooter.name),
            rule=("LT-R101", "LT-AMB-25"),
        )
    option = activated(ctx, target)
    if target.side != ctx.state.active_side or not option or target.has(Status.RETREATING):
        raise Refused(
            _(
                "{unit} is assaulting nobody under this card: an opportunity shot answers an assault (LT-R100, LT-R102)"
            ).format(unit=target.name),
            rule=("LT-R100", "LT-R102", "LT-AMB-25"),
        )
    if not is_tank(profile(ctx, target)):
        return
    if option not in movement().options:
        raise Refused(
            _("{unit} is not moving under this card: a tank assaults in the course of its move (LT-R100)").format(
                unit=target.name
            ),
            rule=("LT-R100", "LT-AMB-25"),
        )
    if not is_gun(shooter, profile(ctx, shooter)):
        raise Refused(
            _(
                "{unit} is overrun as infantry: it tests morale and may strike first (overrun); "
                "the opportunity shot is a gun's (LT-R100)"
            ).format(unit=shooter.name),
            rule=("LT-R100", "LT-AMB-25"),
        )


def _answer(ctx: Context, shooter: Unit, target: Unit) -> None:
    """LT-R052: a prepared attack answers the attack the piece has just survived, at its
    attacker, once (ruling LT-REPLY): the record is spent by the reply."""
    attacker, _sep, rest = str(ctx.state.vars.get(LAST_ATTACK_VAR, "")).partition(":")
    attacked, _sep, card = rest.partition(":")
    if attacked != shooter.id or card != str(ctx.state.turn):
        raise Refused(
            _("{unit} may spend a ready attack only to answer the attack it has just survived (LT-R052)").format(
                unit=shooter.name
            ),
            rule="LT-R052",
        )
    if attacker != target.id:
        raise Refused(
            _("{unit} answers only the piece that has just attacked it (LT-R052)").format(unit=shooter.name),
            rule=("LT-R052", "LT-AMB-10"),
        )
    ctx.emit(ev.VarSet(key=LAST_ATTACK_VAR, value="", vis=REFEREE_ONLY))


def _reply_in_play(shooter: Unit, args: dict[str, Any]) -> None:
    """LT-R052, LT-R053: a reply (a ready attack, an ambush) answers an attack its piece has
    survived; one out of action survived nothing, and its reply is refused by that rule, not
    by the AT or MG/HE tables' legends that put it out (issue #91)."""
    if shooter.in_play or not (args.get("ready") or args.get("ambush")):
        return
    said = _("{unit} is out of action: only a piece that survives an attack replies to it ({rule})")
    if args.get("ambush"):
        raise Refused(said.format(unit=shooter.name, rule="LT-R053"), rule="LT-R053")
    raise Refused(said.format(unit=shooter.name, rule="LT-R052"), rule="LT-R052")


def record_attack(ctx: Context, shooter: Unit, target: Unit) -> None:
    """LT-R052: the target of an attack that survives it may answer it (``_answer``); one
    the attack routed flees and does not fire (LT-R051), so it has nothing to answer with."""
    after = ctx.state.units[target.id]
    survived = after.in_play and not after.has(Status.RETREATING)
    value = f"{shooter.id}:{target.id}:{ctx.state.turn}" if survived else ""
    ctx.emit(ev.VarSet(key=LAST_ATTACK_VAR, value=value, vis=REFEREE_ONLY))


def _able(ruleset: Ruleset, state: GameState, shooter: Unit) -> Profile:
    """A shooter in play who is not fleeing (LT-R051), and his profile."""
    require_in_play(shooter)
    require_able_to_fire(shooter)
    return ruleset.profile(state, shooter)  # type: ignore[attr-defined]


def at_check(ruleset: Ruleset, state: GameState, shooter: Unit) -> None:
    """What ``at`` refuses of a shooter whatever else is typed: out of play, fleeing
    (LT-R051), or with no anti-tank attack at any range (LT-R050).  Completion offers
    such pieces last (``CommandSpec.figure_check``)."""
    p = _able(ruleset, state, shooter)
    if not p.at and not p.at_long:
        raise Refused(_("{unit} has no anti-tank attack").format(unit=shooter.name), rule=("LT-R001", "LT-R050"))


def mg_check(ruleset: Ruleset, state: GameState, shooter: Unit) -> None:
    """What ``mg`` refuses of a shooter whatever else is typed: out of play, fleeing
    (LT-R051), or with no MG/HE attack (LT-R060)."""
    if not _able(ruleset, state, shooter).mg:
        raise Refused(_("{unit} has no MG/HE attack").format(unit=shooter.name), rule=("LT-R001", "LT-R060"))


def _at(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R050 ("TIRO CONTROCARRO"): 2d6 plus modifiers against attack minus protection."""
    shooter, target = ctx.unit(args["shooter"]), ctx.unit(args["target"])
    _reply_in_play(shooter, args)
    check_target(shooter, target)
    at_check(ctx.ruleset, ctx.state, shooter)
    attacker, defender = profile(ctx, shooter), profile(ctx, target)
    long_range = bool(args["long"])
    attack = attacker.at_long if long_range else attacker.at
    if not attack:  # (at_check refused a piece with none at either range)
        if long_range:
            raise Refused(
                _("{unit} has no anti-tank attack at long range").format(unit=shooter.name),
                rule=("LT-R050", "LT-AMB-13"),
            )
        raise Refused(
            _("{unit} has an anti-tank attack only at long range").format(unit=shooter.name),
            rule=("LT-R050", "LT-AMB-13"),
        )
    if not defender.front:
        raise Refused(
            _("{unit} has no armour: fire at it with mg (LT-R060)").format(unit=target.name),
            rule=("LT-R060", "LT-AMB-31"),
        )
    protection = defender.side if args["flank"] else defender.front
    table = at_table()
    close = args["close"] or args["ambush"]  # one modifier for either (ruling LT-AT-MODS)
    mods = [ev.Mod(M(m.label), m.value, "LT-R050") for m in table.modifiers if m.id == "hull-down" and args["hulldown"]]
    mods += [ev.Mod(M(m.label), m.value, "LT-R050") for m in table.modifiers if m.id == "close" and close]
    _fire_with(ctx, shooter, target, args)
    diff = attack - protection

    def outcome(faces: tuple[int, ...]) -> Msg:
        total = sum(faces) + sum_mods(mods)
        result = rules.at_result(attack, protection, total, long_range)
        return _verdict(total, table.column(diff).label, _AT_WORDS[result])

    def meaning(faces: tuple[int, ...]) -> Msg:  # the table's row for these dice, for the prompt
        return M(_AT_WORDS[rules.at_result(attack, protection, sum(faces) + sum_mods(mods), long_range)])

    faces = ctx.roll(
        M(
            "AT fire at {target}, attack {attack} - protection {protection} = {diff}",
            target=target.name,
            attack=attack,
            protection=protection,
            diff=f"{diff:+d}",
        ),
        2,
        step=dice_order.AT_FIRE,
        mods=mods,
        total=True,
        rule="LT-R050",
        unit=shooter.id,
        outcome=outcome,
        meaning=meaning,
        check=ev.Read(),  # LT-R050: a row of the AT table
    )
    result = rules.at_result(attack, protection, sum(faces) + sum_mods(mods), long_range)
    _hit_streak(ctx, target, defender, he=False)
    apply_result(ctx, target, result)
    record_attack(ctx, shooter, target)


def _mg(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R060/R061/R071 ("ALTRI TIRI (MG & HE)"): 1d6 against attack factor minus defence."""
    shooter, target = ctx.unit(args["shooter"]), ctx.unit(args["target"])
    _reply_in_play(shooter, args)
    check_target(shooter, target)
    mg_check(ctx.ruleset, ctx.state, shooter)
    attacker = profile(ctx, shooter)
    # The only die modifier on this table is the ambush of LT-R053 (ruling LT-MG-MODS).
    mods = [ev.Mod(M("ambush by an unspotted piece"), -1, "LT-R053")] if args["ambush"] else []
    defence = defence_of(ctx, target, args["defence"])
    _fire_with(ctx, shooter, target, args)
    what = M("HE fire at {target}", target=target.name) if args["he"] else M("MG fire at {target}", target=target.name)
    mg_attack(ctx, target, attacker.mg, defence, bool(args["he"]), mods, shooter.id, what)
    record_attack(ctx, shooter, target)


def defence_of(ctx: Context, target: Unit, key: str | None) -> tuple[Msg, int]:
    """C.7.1: the target's defence, from what the referee says it is doing or, for a
    vehicle, its own: its role ``open`` or ``light`` (the unit's own data), else its
    profile's."""
    defences = {d.id: d for d in mg_table().defences}
    by_role = next((d.id for d in defences.values() if d.role and d.role in target.roles), "")
    key = key or by_role or profile(ctx, target).defence
    if not key:
        raise Refused(
            _("say what {unit} is doing: defence={choices} (C.7.1)").format(
                unit=target.name, choices="|".join(local_name("choice", d, DOMAIN.name) for d in defences)
            ),
            rule=("LT-R060b", "LT-AMB-19"),
        )
    return M(defences[key].label), defences[key].value


def mg_attack(
    ctx: Context,
    target: Unit,
    attack: int,
    defence: tuple[Msg, int],
    he: bool,
    mods: list[ev.Mod],
    by: str,
    what: Msg,
    side: str = "",
) -> None:
    """One attack on the MG/HE table, with the consecutive-HE bonus (LT-R061); ``what``
    heads the roll's purpose, which the log puts after the name of the unit ``by`` (or
    of ``side``, for an attack no unit on the table makes: artillery)."""
    defender = profile(ctx, target)
    infantry_pinned = target.has(Status.IMMOBILISED) and not is_tank(defender)
    bonus = rules.he_bonus(he_streak(target)) if he and infantry_pinned else 0
    factor = attack + bonus
    label, value = defence
    diff = factor - value
    table = mg_table()
    sums: dict[str, Text | int] = {
        "what": what,
        "attack": attack,
        "defence": label,
        "value": value,
        "diff": f"{diff:+d}",
    }
    if bonus:
        purpose = M(
            "{what}, attack {attack} + {bonus} for consecutive HE (LT-R061) - {defence} {value} = {diff}",
            bonus=bonus,
            **sums,
        )
    else:
        purpose = M("{what}, attack {attack} - {defence} {value} = {diff}", **sums)

    def read(faces: tuple[int, ...]) -> str:
        result = rules.mg_result(factor, value, faces[0] + sum_mods(mods))
        return "T" if result == "I" and is_tank(defender) else result  # C.7 legend

    def outcome(faces: tuple[int, ...]) -> Msg:
        return _verdict(faces[0] + sum_mods(mods), table.column(diff).label, _MG_WORDS[read(faces)])

    (face,) = ctx.roll(
        purpose,
        1,
        step=(dice_order.MG_HE, dice_order.ARTILLERY),
        mods=mods,
        total=True,
        rule="LT-R060",
        unit=by,
        side=side,
        # about the target, who may be hidden (LT-R030): as private as he is
        vis=() if by else unit_audience(ctx.unit(target.id)),
        outcome=outcome,
        meaning=lambda f: M(_MG_WORDS[read(f)]),  # the table's row alone, for the prompt
        check=ev.Read(),  # LT-R060: a row of the MG/HE table
    )
    result = rules.mg_result(factor, value, face + sum_mods(mods))
    if result == "I" and is_tank(defender):
        result = "T"  # an armoured vehicle tests morale instead (C.7 legend)
    apply_result(ctx, target, result)
    # LT-R061 (ruling LT-HE-STREAK): the streak is counted after the result, so the
    # HE attack that immobilises the piece is its first consecutive HE shot.
    after = ctx.state.units[target.id]
    if after.in_play:
        _hit_streak(ctx, after, defender, he=he)


def _hit_streak(ctx: Context, target: Unit, defender: Profile, he: bool) -> None:
    """LT-R061: an HE attack that leaves infantry immobilised lengthens its streak; any
    other attack breaks it."""
    pinned = target.has(Status.IMMOBILISED) and not is_tank(defender)
    set_count(ctx, target, HE_BADGES, rules.he_streak_after(he_streak(target), he, pinned))


#: The tables' legends (C.6, C.7), each result's letter and words.
_AT_WORDS = {
    "D": N_("D: destroyed"),
    "R": N_("R: routs without a test"),
    "T": N_("T: morale test"),
    "-": N_("no effect"),
}
_MG_WORDS = {
    "D": N_("D: destroyed"),
    "I": N_("I: immobilised, loses its ready attacks"),
    "T": N_("I: a tank tests morale"),
    "-": N_("no effect"),
}
#: LT-R080: a morale test's results (rules.morale_result).
_MORALE_WORDS = {"flee": N_("flee"), "fall-back": N_("fall-back"), "steady": N_("steady")}


def _verdict(total: int, column: str, result: str) -> Msg:
    return M("modified total {total}, column {column}: {result}", total=total, column=column, result=M(result))


def apply_result(ctx: Context, target: Unit, result: str) -> None:
    """Combat results apply at once (LT-R051)."""
    if result == "D":
        ctx.emit(ev.UnitOut(unit=target.id, cause=M("destroyed")))
    elif result == "R":
        flee(ctx, target, M("routed without a test"))
    elif result == "T":
        # the test comes before anything else the piece does: a reply waits for it (LT-R051)
        test_due(ctx, target, True)
        say(ctx, target, M(MORALE_DUE, unit=target.name, id=target.id))
    elif result == "I":
        lose_ready(ctx, target)
        if not target.has(Status.IMMOBILISED):
            ctx.emit(ev.StatusChanged(unit=target.id, add=("immobilised",)))


# ------------------------------------------------------------------------- morale


def _morale(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R080/R081: 1d6, +1 for being immobilised and +1 for each other situation the
    referee names (``plus=``), against the piece's morale."""
    piece = ctx.unit(args["piece"])
    require_in_play(piece)
    value = profile(ctx, piece).morale
    mods = morale_mods(piece, args["plus"])
    (face,) = ctx.roll(
        M("morale test, morale {value}", value=value),
        1,
        step=dice_order.MORALE_TEST,
        mods=mods,
        total=True,
        rule="LT-R080",
        unit=piece.id,
        outcome=lambda f: M(
            "modified total {total}: {result}",
            total=f[0] + sum_mods(mods),
            result=M(_MORALE_WORDS[rules.morale_result(f[0] + sum_mods(mods), value)]),
        ),
        check=rules.steady_check(value, sum_mods(mods)),  # LT-R080: steady is the success
    )
    result = rules.morale_result(face + sum_mods(mods), value)
    test_due(ctx, piece, False)
    if result == "flee":
        flee(ctx, piece)
    elif result == "fall-back":
        fall_back(ctx, piece)


def morale_mods(piece: Unit, plus: int) -> list[ev.Mod]:
    """LT-R081: +1 immobilised, +1 per other situation."""
    if plus < 0:
        raise Refused(_("plus= counts situations that make the test harder (+1 each)"), rule=TYPING)
    mods = [ev.Mod(M("immobilised"), 1, "LT-R081")] if piece.has(Status.IMMOBILISED) else []
    if plus:
        mods.append(ev.Mod(M("situations"), plus, "LT-R081"))
    return mods


def _rout(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R082 (ruling LT-VOLUNTARY-ROUT): a piece may always rout of its own will, to
    avoid a test or leave a dangerous place: it flees as on a failed test."""
    piece = ctx.unit(args["piece"])
    require_in_play(piece)
    if piece.has(Status.RETREATING):
        raise Refused(_("{unit} is already fleeing").format(unit=piece.name), rule=("LT-R082", "LT-AMB-33"))
    flee(ctx, piece, M("a voluntary rout"))


# ----------------------------------------------------------------------- the list


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "at",
        "Anti-tank fire: 2d6 on the AT table, attack minus protection. Dice: the two d6.",
        _at,
        params=(
            Param("shooter", "own"),
            Param("target", "enemy"),
            flag("long", "long range: the long-range attack; above 6 no effect"),
            flag("flank", "the shot comes from the side or rear: side protection"),
            flag("hulldown", "target hull down or in prepared cover: +1"),
            flag("close", "range 5 cm or less: -1"),
            READY,
            AMBUSH,
            OPPORTUNITY,
        ),
        rule="LT-R050",
        examples=("at sherman1 panzer", "at pak sherman1 flank ready close", "at pak sherman1 ambush"),
        phases=("card",),
        figure_check=at_check,
        rolls=True,
        dice=(dice_order.AT_FIRE,),
        known_elsewhere_as=("shoot",),  # the verb another game fires with ("fire" is in its help)
    ),
    CommandSpec(
        "mg",
        "MG or HE fire: 1d6 on the MG/HE table, attack factor minus defence. Dice: one d6.",
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
            flag("he", "high-explosive rounds: +1 per HE attack in a row at immobilised infantry (LT-R061)"),
            READY,
            AMBUSH,
            OPPORTUNITY,
        ),
        rule="LT-R060",
        examples=("mg gis grenadiers defence=still-open", "mg sherman1 grenadiers he defence=prepared"),
        phases=("card",),
        figure_check=mg_check,
        rolls=True,
        dice=(dice_order.MG_HE,),
        known_elsewhere_as=("shoot",),  # the verb another game fires with ("fire" is in its help)
    ),
    CommandSpec(
        "morale",
        "Morale test: 1d6 (+1 immobilised, +1 per situation) against the piece's morale. Dice: one d6.",
        _morale,
        params=(
            Param("piece", "own"),
            Param("plus", "int", "situations: +1 each (LT-R081)", optional=True, default=0, keyword=True),
        ),
        rule="LT-R080",
        examples=("morale sherman1", "morale gis plus=1"),
        phases=("card",),
        rolls=True,
        dice=(dice_order.MORALE_TEST,),
    ),
    CommandSpec(
        "rout",
        "Rout of the piece's own will: it flees its full move, back to the enemy, and loses its ready attacks.",
        _rout,
        params=(Param("piece", "own"),),
        rule="LT-R082",
        examples=("rout gis",),
        phases=("card",),
    ),
)
