"""What the Linea di Tiro commands share about a piece: its profile, its badges
(ready attacks, attacks left, shots fired, the HE streak) and the results that
move it (flee, fall back)."""

from __future__ import annotations

from core.language.i18n import M, Msg, Text
from core.log import events as ev
from core.log.state import Unit
from core.log.views import unit_audience, unit_visible
from core.ruleset import Context, Refused
from core.rulesets.linea_di_tiro.tables import Profile, morale, options, spotting
from core.rulesets.linea_di_tiro.terms import Kind, Status
from core.rulesets.linea_di_tiro.turn import ATTACK_BADGES, FIRED_BADGES, HE_BADGES, PREPARE_BADGES, READY_BADGES
from core.rulesets.linea_di_tiro.words import _, owner

MAX_READY = len(READY_BADGES)  # ruling LT-READY (digest LT-AMB-08)
#: LT-R051: a piece whose result calls for a morale test (a T, or an I on a tank) takes
#: it before it fires again, a reply included: ``morale_due.<piece>`` = 1 until the test,
#: or a flight, settles it (ruling LT-TEST-FIRST); as public as the piece.
MORALE_DUE_VAR = "morale_due."


def profile(ctx: Context, unit: Unit) -> Profile:
    return ctx.ruleset.profile(ctx.state, unit)  # type: ignore[attr-defined]


def kind(ctx: Context, unit: Unit) -> str:
    """``vehicle`` or ``infantry`` (LT-R001)."""
    return "vehicle" if profile(ctx, unit).vehicle else "infantry"


def is_tank(p: Profile) -> bool:
    """An armoured vehicle: one with front protection (ruling LT-MG-TANKS)."""
    return p.vehicle and p.front > 0


def is_gun(unit: Unit, p: Profile) -> bool:
    """A gun: a piece of the kind ``gun``, or a vehicle without armour (LT-R001,
    LT-AMB-19).  A small gun's profile makes it infantry ("il resto è fanteria"), yet it
    is a gun in an assault (LT-R100, LT-R103)."""
    return unit.kind == Kind.GUN or (p.vehicle and not p.front)


def counted(unit: Unit, badges: tuple[str, ...]) -> int:
    """The number a piece's counting badges hold (``ready-2`` → 2)."""
    return next((i + 1 for i, b in reversed(list(enumerate(badges))) if unit.has(b)), 0)


def ready(unit: Unit) -> int:
    """How many prepared ("ready") attacks the piece holds."""
    return counted(unit, READY_BADGES)


def attacks_left(unit: Unit) -> int:
    """How many attacks the piece may still execute under the current card."""
    return counted(unit, ATTACK_BADGES)


def fired(unit: Unit) -> int:
    """How many times the piece has fired since its last bound (LT-R033)."""
    return counted(unit, FIRED_BADGES)


def he_streak(unit: Unit) -> int:
    """How many HE attacks in a row the immobilised piece has taken (LT-R061)."""
    return counted(unit, HE_BADGES)


def set_count(ctx: Context, unit: Unit, badges: tuple[str, ...], new: int) -> None:
    old = counted(unit, badges)
    new = min(new, len(badges))
    if old == new:
        return
    ctx.emit(
        ev.StatusChanged(
            unit=unit.id,
            add=(badges[new - 1],) if new else (),
            remove=(badges[old - 1],) if old else (),
        )
    )


def say(ctx: Context, unit: Unit, text: Text) -> None:
    """A note about a piece, seen by whoever may see the piece."""
    ctx.emit(ev.Noted(text=text, vis=unit_audience(unit)))


def require_in_play(unit: Unit) -> None:
    if not unit.in_play:
        raise Refused(_("{unit} is out of action").format(unit=unit.name), rule=("LT-R050c", "LT-R060a"))


def activated(ctx: Context, unit: Unit) -> str:
    """The option the piece took on the current card ("" if none)."""
    return next((o for o in options() if unit.has(o)), "")


def require_able_to_fire(unit: Unit) -> None:
    """LT-R051: a piece that flees or routs does not fire."""
    if unit.has(Status.RETREATING):
        raise Refused(_("{unit} is fleeing and does not fire (LT-R051)").format(unit=unit.name), rule="LT-R051")


def test_due(ctx: Context, piece: Unit, due: bool) -> None:
    """LT-R051: the morale test a result calls for is pending (``due``) or settled."""
    key = MORALE_DUE_VAR + piece.id
    if bool(ctx.state.vars.get(key)) != due:
        ctx.emit(ev.VarSet(key=key, value=1 if due else 0, vis=unit_audience(piece)))


def require_tested(ctx: Context, piece: Unit) -> None:
    """LT-R051 ("i risultati di combattimento sono applicati immediatamente"): a piece
    whose morale test is pending attacks nothing, not even in reply, and makes no move,
    until it takes it."""
    if ctx.state.vars.get(MORALE_DUE_VAR + piece.id):
        raise Refused(
            _("{unit} must first take the morale test its result calls for: morale {id} (LT-R051)").format(
                unit=piece.name, id=piece.id
            ),
            rule="LT-R051",
        )


def spend_attack(ctx: Context, shooter: Unit, use_ready: bool, fires: bool = True) -> None:
    """An attack is executed under the shooter's activation (A2–A4) or, with ``ready``,
    by spending a prepared attack, which a piece may do out of its turn in reply
    (LT-R052) or when it is spotted (LT-R053).  An attack that ``fires`` doubles the
    piece's spotting distance (LT-R033); a melee is hand to hand and does not."""
    require_able_to_fire(shooter)
    require_tested(ctx, shooter)
    if use_ready:
        held = ready(shooter)
        if not held:
            raise Refused(_("{unit} holds no ready attack").format(unit=shooter.name), rule=("LT-R052", "LT-AMB-08"))
        set_count(ctx, shooter, READY_BADGES, held - 1)
    else:
        if ctx.state.active_side != shooter.side or not activated(ctx, shooter):
            raise Refused(
                _("{unit} is not activated on this card; with a ready attack, add: ready").format(unit=shooter.name),
                rule=("LT-R020", "LT-AMB-08"),
            )
        left = attacks_left(shooter)
        if not left:
            raise Refused(
                _("{whose} activation has no attack left to execute (LT-R020)").format(whose=owner(shooter.name)),
                rule="LT-R020",
            )
        set_count(ctx, shooter, ATTACK_BADGES, left - 1)
    if fires:
        has_fired(ctx, shooter)


def has_fired(ctx: Context, shooter: Unit) -> None:
    """LT-R033: each shot doubles the piece's spotting distance until its next bound."""
    shots = fired(shooter) + 1
    set_count(ctx, shooter, FIRED_BADGES, min(shots, spotting().max_doublings))


def check_target(shooter: Unit, target: Unit) -> None:
    if not shooter.in_play or not target.in_play:
        raise Refused(_("both pieces must be in play"), rule=("LT-R050c", "LT-R060a"))
    if shooter.side == target.side:
        raise Refused(
            _("{unit} is on {whose} side").format(unit=target.name, whose=owner(shooter.name)),
            rule=("LT-R050", "LT-R060"),
        )
    if not unit_visible(target, shooter.side):
        raise Refused(
            _("{unit} has not been spotted: only a visible piece may be attacked (LT-R030)").format(unit=target.name),
            rule="LT-R030",
        )


def lose_ready(ctx: Context, piece: Unit) -> None:
    set_count(ctx, piece, READY_BADGES, 0)


def flee(ctx: Context, piece: Unit, why: Msg | None = None) -> None:
    """LT-R080 (digest LT-AMB-22): it flees its full move, back to the enemy, loses its
    ready attacks and, fleeing, fires no more under this card (LT-R051); a test it owed
    is settled by the flight."""
    test_due(ctx, piece, False)
    lose_ready(ctx, piece)
    set_count(ctx, piece, ATTACK_BADGES, 0)
    set_count(ctx, piece, PREPARE_BADGES, 0)
    if not piece.has(Status.RETREATING):
        ctx.emit(ev.StatusChanged(unit=piece.id, add=("retreating",)))
    cm = profile(ctx, piece).speed
    ctx.emit(ev.Moved(unit=piece.id, cm=cm, how=M("flees, back to the enemy")))
    if why is None:
        say(ctx, piece, M("{unit} flees {cm} cm, back to the enemy (LT-R080)", unit=piece.name, cm=cm))
    else:
        say(ctx, piece, M("{unit} flees {cm} cm, back to the enemy, {why} (LT-R080)", unit=piece.name, cm=cm, why=why))


def fall_back(ctx: Context, piece: Unit) -> None:
    """LT-R080: 5 cm back, facing the enemy; the ready attacks are lost, and nothing else
    of the piece's activation: its bound and attacks still to come (ruling LT-FALL-BACK)."""
    lose_ready(ctx, piece)
    cm = morale().fall_back_cm
    ctx.emit(ev.Moved(unit=piece.id, cm=cm, how=M("falls back, facing the enemy")))
    say(ctx, piece, M("{unit} falls back {cm} cm, facing the enemy (LT-R080)", unit=piece.name, cm=cm))


def sum_mods(mods: list[ev.Mod] | tuple[ev.Mod, ...]) -> int:
    return sum(m.value for m in mods)


def recover(ctx: Context, piece: Unit) -> None:
    """The piece is no longer immobilised (A7, or a melee won: LT-R102); its HE streak ends."""
    set_count(ctx, piece, HE_BADGES, 0)
    if piece.has(Status.IMMOBILISED):
        ctx.emit(ev.StatusChanged(unit=piece.id, remove=("immobilised",)))
