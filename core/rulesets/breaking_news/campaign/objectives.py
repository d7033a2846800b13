"""Objectives (§4.1, §4.1.1) and Extras: Intelligence.

Each defending side has five numbered markers — one main, two secondary, two
fakes — whose roles are secrets of their owner (``marker.<side>.<n>``).  In
mission 2 the Irregular player also rolls a secret die (``objective.die``, his
alone): 1–5 makes that Regular marker a main objective as well (AMB-06, the
Italian reading), 6 turns the Regular's own main objective into a fake.  The
Regular player is not told.

A side may also have its roles drawn at random (``objectives SIDE random``, rulings
BN-OBJ-RANDOM): 1d5 picks the main marker and 1d6 the pair of secondaries among the
other four, rolled for that side's eyes only.

There is no map: the referee says when an enemy comes within 10 cm of a marker
(``reveal``) and which side holds a marker at the end of a turn (``take``).
A marker revealed shows what its owner put there; the die's effect stays
secret until that marker is taken or the game ends (rulings BN-OBJ-REVEAL).
"""

from __future__ import annotations

from typing import Any

from core.commands import find_side
from core.language.i18n import N_, M, Msg
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.campaign import forces
from core.rulesets.breaking_news.commands.common import own_side, side_for
from core.rulesets.breaking_news.ledger import (
    army,
    charge,
    defeat_line,
    extra,
    irregular_side,
    regular_side,
    set_var,
    var,
)
from core.rulesets.breaking_news.terms import PhaseId
from core.rulesets.breaking_news.words import IT, _

MAIN, SECONDARY, FAKE = "main", "secondary", "fake"
MARKERS = range(1, 6)
DIE = "objective.die"
MISSIONS = {
    1: N_("Regulars against Regulars, or Irregulars against Irregulars: each side defends five markers"),
    2: N_("Regulars against Irregulars: each side defends five markers, and the Irregular player's secret die"),
    3: N_("Special Forces against Regulars or Irregulars: only the other side defends five markers"),
}


def marker_key(side: str, n: int) -> str:
    return f"marker.{side}.{n}"


def markers(state: GameState, side: str) -> dict[int, str]:
    """The declared roles of a side's markers (what its owner put there)."""
    out = {}
    for n in MARKERS:
        s = state.secrets.get(marker_key(side, n))
        if s is not None:
            out[n] = s.value
    return out


def mission(state: GameState) -> int:
    return int(var(state, "mission", 0))


def die(state: GameState) -> int:
    s = state.secrets.get(DIE)
    return int(s.value) if s else 0


def effective_role(state: GameState, owner: str, n: int) -> str:
    """A marker's role once the Irregular's secret die is applied (§4.1 mission 2)."""
    declared = markers(state, owner).get(n, "")
    if mission(state) != 2 or owner != regular_side(state):
        return declared
    d = die(state)
    if d == n:
        return MAIN
    if d == 6 and declared == MAIN:
        return FAKE
    return declared


def die_effect(face: int, declared: dict[int, str]) -> Msg:
    """The die's effect in words (for the Irregular player and the final count)."""
    if face == 6:
        return M("6: the Regular main objective becomes a fake")
    if declared.get(face) == MAIN:
        return M("{face}: the Regular main objective already: no change", face=face)
    return M("{face}: Regular marker {face} becomes a main objective too", face=face)


def parse_marker(state: GameState, word: str, owner: str = "") -> tuple[str, int]:
    """``4`` (with ``owner``, or when only one side has markers) or ``regulars.4``."""
    side_word, _sep, number = word.rpartition(".")
    if side_word:
        owner = find_side(side_word, state)
    try:
        n = int(number)
    except ValueError:
        raise Refused(
            _("a marker is a number 1–5, or SIDE.NUMBER, not {word!r}").format(word=word), rule=TYPING
        ) from None
    if n not in MARKERS:
        raise Refused(_("markers are numbered 1 to 5 (§4.1)"), rule=("OBJ-1", "OBJ-2"))
    if not owner:
        owners = [s for s in state.sides if markers(state, s)]
        if len(owners) != 1:
            raise Refused(
                _("whose marker {n}? write SIDE.{n} (e.g. {next}.{n})").format(
                    n=n, next=next(iter(state.sides), "regulars")
                ),
                rule=TYPING,
            )
        owner = owners[0]
    if n not in markers(state, owner):
        raise Refused(_("{owner} have no marker {n}").format(owner=owner, n=n), rule=TYPING)
    return owner, n


# --------------------------------------------------------------------- commands


def _mission(ctx: Context, args: dict[str, Any]) -> None:
    m = args["number"]
    if m not in MISSIONS:
        raise Refused(_("missions are 1, 2 or 3 (§4.1)"), rule="OBJ-1")
    armies = sorted(army(ctx.state, s) for s in ctx.state.sides)
    if m == 2 and armies != ["irregular", "regular"]:
        raise Refused(_("mission 2 is Regulars against Irregulars (§4.1)"), rule="OBJ-1")
    if m == 1 and len(set(armies)) != 1:
        raise Refused(_("mission 1 is Regulars against Regulars or Irregulars against Irregulars (§4.1)"), rule="OBJ-1")
    if m == 3 and sum(forces.special_forces(ctx.state, s) for s in ctx.state.sides) != 1:
        raise Refused(
            _(
                "mission 3 is Special Forces (every man R1) against Regulars or Irregulars: "
                "one side, and one only, must field them (§4.1, rulings BN-OBJ-MISSION)"
            ),
            rule="OBJ-1",
        )
    if any(markers(ctx.state, s) for s in ctx.state.sides):
        raise Refused(_("the markers are already set for the current mission"), rule="OBJ-1")
    set_var(ctx, "mission", m)
    ctx.emit(ev.Noted(text=M("mission {n}: {what} (§4.1)", n=m, what=M(MISSIONS[m]))))


def defends(state: GameState, side: str) -> bool:
    """Mission 3: the Special Forces side has no markers of its own."""
    if mission(state) == 3:
        return not forces.special_forces(state, side)
    return mission(state) in (1, 2)


#: The pairs of secondary markers a 1d6 picks among the four that are not the main (BN-OBJ-RANDOM).
PAIRS = 6


def random_roles(main_face: int, pair_face: int) -> tuple[int, tuple[int, int]]:
    """The main marker (1d5) and the secondaries (1d6: the pairs of the other four
    markers, lowest first: 1 → the two lowest … 6 → the two highest)."""
    others = [n for n in MARKERS if n != main_face]
    pairs = [(a, b) for i, a in enumerate(others) for b in others[i + 1 :]]
    return main_face, pairs[pair_face - 1]


def _objectives_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Whose markers may be chosen: a player his own, of a side that defends some (§4.1)."""
    if role in state.sides and role != side:
        raise Refused(_("each player chooses his own objectives"), rule=("OBJ-1", "ENG-1"))
    if not mission(state):
        raise Refused(_("choose the mission first: mission 2"), rule="OBJ-1")
    if not defends(state, side):
        raise Refused(
            _("{side} defend no markers in mission 3 (§4.1)").format(side=state.side_name(side)),
            rule=("OBJ-1", "OBJ-2"),
        )


def _objectives(ctx: Context, args: dict[str, Any]) -> None:
    side = args["side"]
    _objectives_side(ctx.ruleset, ctx.state, side, ctx.role)
    if any(ctx.state.secrets[marker_key(side, n)].revealed for n in markers(ctx.state, side)):
        raise Refused(_("a marker is already revealed: too late to change them"), rule="OBJ-1")
    secondary = list(args["secondary"])
    if args["main"] == "random":
        if secondary:
            raise Refused(_("random draws the secondary markers too: objectives regulars random"), rule="OBJ-1")
        main, secondary = _draw(ctx, side)
    else:
        main = int(args["main"])
    chosen = [main, *secondary]
    if len(secondary) != 2 or len(set(chosen)) != 3 or any(n not in MARKERS for n in chosen):
        raise Refused(
            _("name the main marker and two secondary ones, all different, from 1 to 5: objectives regulars 4 2 5"),
            rule="OBJ-1",
        )
    for n in MARKERS:
        role = MAIN if n == main else SECONDARY if n in secondary else FAKE
        ctx.emit(ev.SecretSet(key=marker_key(side, n), owner=side, value=role, vis=(side,)))


def _draw(ctx: Context, side: str) -> tuple[int, list[int]]:
    """Roll a side's roles where only that side (and the referee) see the dice."""
    ctx.emit(
        ev.Noted(text=M("{side}: objective markers drawn at random, in secret (rulings BN-OBJ-RANDOM)", side=side))
    )
    (main,) = ctx.roll(
        M("main objective"),
        1,
        step=dice_order.OBJECTIVES_MAIN,
        side=side,
        sides=len(MARKERS),
        rule="§4.1",
        vis=(side,),
        outcome=lambda f: M("marker {n} is the main objective", n=f[0]),
        check=ev.Read(),
    )
    (pair,) = ctx.roll(
        M("secondary objectives"),
        1,
        step=dice_order.OBJECTIVES_SECONDARY,
        side=side,
        sides=PAIRS,
        rule="§4.1",
        vis=(side,),
        outcome=lambda f: _secondary_words(random_roles(main, f[0])[1]),
        check=ev.Read(),
    )
    return main, list(random_roles(main, pair)[1])


def _secondary_words(pair: tuple[int, int]) -> Msg:
    return M("markers {a} and {b} are secondary", a=pair[0], b=pair[1])


def _objective_roll(ctx: Context, args: dict[str, Any]) -> None:
    irregulars = irregular_side(ctx.state)
    if mission(ctx.state) != 2:
        raise Refused(_("the secret objective die belongs to mission 2 (§4.1)"), rule="OBJ-2")
    if ctx.role in ctx.state.sides and ctx.role != irregulars:
        raise Refused(_("the Irregular player rolls the secret objective die (§4.1)"), rule="OBJ-2")
    if DIE in ctx.state.secrets:
        raise Refused(_("the secret objective die has been rolled"), rule="OBJ-2")
    roll_die(ctx)


def roll_die(ctx: Context) -> None:
    """Roll the Irregular player's die where only he (and the referee) see it."""
    irregulars = irregular_side(ctx.state)
    regulars = regular_side(ctx.state)
    declared = markers(ctx.state, regulars)
    if not declared:
        raise Refused(_("{regulars} must choose their objectives first").format(regulars=regulars), rule="OBJ-2")
    ctx.emit(ev.Noted(text=M("{side} roll the secret objective die (§4.1)", side=irregulars)))
    (face,) = ctx.roll(
        M("secret objective die"),
        1,
        step=(dice_order.NEXT_SETUP, dice_order.OBJECTIVE_ROLL),
        side=irregulars,
        rule="§4.1",
        vis=(irregulars,),
        outcome=lambda f: die_effect(f[0], declared),
        check=ev.Read(),  # §4.1: the face picks the objective's effect
    )
    ctx.emit(ev.SecretSet(key=DIE, owner=irregulars, value=str(face), vis=(irregulars,)))


def _take(ctx: Context, args: dict[str, Any]) -> None:
    taker = args["side"]
    owner, n = parse_marker(ctx.state, str(args["marker"]), ctx.state.other_side(taker))
    if var(ctx.state, f"taken.{owner}.{n}", ""):
        raise Refused(
            _("{owner} marker {n} was taken already: it is taken for good (§4.1.1)").format(owner=owner, n=n),
            rule=("OBJ-5", "OBJ-6"),
        )
    set_var(ctx, f"taken.{owner}.{n}", taker)
    key = marker_key(owner, n)
    declared = ctx.state.secrets[key].value
    if not ctx.state.secrets[key].revealed:
        ctx.emit(ev.Revealed(key=key, value=declared))
    role = effective_role(ctx.state, owner, n)
    if role != declared and not ctx.state.secrets[DIE].revealed:
        face = die(ctx.state)
        ctx.emit(ev.Revealed(key=DIE, value=str(face)))
        ctx.emit(
            ev.Noted(
                text=M(
                    "the Irregular player's secret die was {effect}", effect=die_effect(face, markers(ctx.state, owner))
                )
            )
        )
    what = M("{taker} take {owner} marker {n} (§4.1.1)", taker=taker, owner=owner, n=n)
    if role == MAIN:
        charge(ctx, owner, "main-objective", M("{what}: a main objective", what=what))
    elif role == SECONDARY:
        charge(ctx, owner, "secondary-objective", M("{what}: a secondary objective", what=what))
        if defeat_line(ctx, "secondary-objective").points == 0:
            ctx.emit(ev.Noted(text=M("{what}: a secondary objective, worth no points in this draft", what=what)))
    else:
        ctx.emit(ev.Noted(text=M("{what}: a fake", what=what)))


def _reveal(ctx: Context, args: dict[str, Any]) -> None:
    words = args["what"].split()
    if len(words) == 1 and (words[0].count(".") >= 2 or not words[0].rpartition(".")[2].isdigit()):
        _reveal_key(ctx, words[0])
        return
    number = [w for w in words if w.rpartition(".")[2].isdigit()]
    named = [w for w in words if w not in number]
    if len(number) != 1 or len(named) > 1:
        raise Refused(_("reveal NUMBER [SIDE], SIDE.NUMBER, or a secret's key"), rule=TYPING)
    side = ""
    if named:
        side = find_side(named[0], ctx.state)
    owner, n = parse_marker(ctx.state, number[0], side)
    if ctx.role in ctx.state.sides and ctx.role != owner:
        raise Refused(_("the owner of a marker (or the referee) reveals it"), rule=("OBJ-3", "ENG-1"))
    key = marker_key(owner, n)
    if ctx.state.secrets[key].revealed:
        raise Refused(_("{owner} marker {n} is already revealed").format(owner=owner, n=n), rule="OBJ-3")
    ctx.emit(ev.Revealed(key=key, value=ctx.state.secrets[key].value))
    rule = M("within 10 cm and in line of sight") if ctx.ruleset.variant == IT else M("reached within 10 cm")
    ctx.emit(ev.Noted(text=M("{owner} marker {n} is revealed: an enemy {rule} (§4.1)", owner=owner, n=n, rule=rule)))


def _reveal_key(ctx: Context, key: str) -> None:
    """Any secret by its key: the referee's tool (objective die, IEDs, the helicopter)."""
    secret = ctx.state.secrets.get(key)
    if secret is None or ctx.role in ctx.state.sides and ctx.role != secret.owner:
        # a player cannot tell another side's secret from no secret at all
        raise Refused(_("you have no secret {key!r}").format(key=key), rule=TYPING)
    if secret.revealed:
        raise Refused(_("{key} is already revealed").format(key=key), rule="ENG-7")
    ctx.emit(ev.Revealed(key=key, value=secret.value))


def reveal_all(ctx: Context) -> None:
    """The end of the game: every secret is shown (EN §4.1: the die "until the end")."""
    for key, secret in list(ctx.state.secrets.items()):
        if not secret.revealed:
            ctx.emit(ev.Revealed(key=key, value=secret.value))


def _intelligence_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Who may roll Intelligence: a player for his own side, a side that bought it and has
    not rolled it yet (Extras: Intelligence)."""
    own_side(ruleset, state, side, role)
    if not extra(state, side, "intelligence"):
        raise Refused(_("{side} bought no Intelligence (Extras)").format(side=state.side_name(side)), rule="EXT-8")
    if var(state, f"intelligence.{side}", 0):
        raise Refused(_("one Intelligence roll per game (Extras: Intelligence)"), rule="EXT-8")


def _intelligence(ctx: Context, args: dict[str, Any]) -> None:
    side = side_for(ctx, args["side"], "intelligence {side}", _intelligence_side)
    level = extra(ctx.state, side, "intelligence")
    if ctx.state.phase == PhaseId.DEPLOYMENT and not forces.special_forces(ctx.state, side):
        raise Refused(_("only Special Forces roll Intelligence before deployment (Extras: Intelligence)"), rule="EXT-8")
    other = ctx.state.other_side(side)
    counter = extra(ctx.state, other, "intelligence")
    need = level - counter
    if need < 1:
        raise Refused(
            _("level {level} against counter-intelligence {counter}: no roll can succeed").format(
                level=level, counter=counter
            ),
            rule="EXT-8",
        )
    set_var(ctx, f"intelligence.{side}", 1)
    mods = (ev.Mod(M("counter-intelligence"), -counter, "Extras: Intelligence"),) if counter else ()
    (face,) = ctx.roll(
        M("intelligence"),
        1,
        step=dice_order.INTELLIGENCE,
        side=side,
        target=need,
        under=True,
        mods=mods,
        rule="Extras: Intelligence",
        outcome=lambda f: M("success") if f[0] <= need else M("failure"),
        check=ev.AtLeast(face=need, under=True),  # Extras: Intelligence
    )
    if face > need:
        return
    mains = [n for n, role in markers(ctx.state, other).items() if role == MAIN]
    for n in mains:
        key = marker_key(other, n)
        if not ctx.state.secrets[key].revealed:
            ctx.emit(ev.Revealed(key=key, value=MAIN))
    if not mains:
        ctx.emit(
            ev.Noted(
                text=M(
                    "{other} must show {side} where the objective is (no main marker of theirs in play)",
                    other=other,
                    side=side,
                )
            )
        )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "mission",
        "Choose the mission (§4.1): 1 like against like, 2 Regulars against Irregulars, 3 Special Forces.",
        _mission,
        params=(Param("number", "int", "1, 2 or 3", lo=1, hi=3),),
        rule="§4.1",
        examples=("mission 2",),
        phases=("deployment",),
        who="referee",
    ),
    CommandSpec(
        "objectives",
        "Secretly choose your main and two secondary markers (the other two are fakes), or draw them at random.",
        _objectives,
        params=(
            Param("side", "side", "whose markers"),
            Param(
                "main",
                "choice",
                "the main objective's number, or random to draw all the roles",
                choices=(*(str(n) for n in MARKERS), "random"),
            ),
            Param("secondary", "int", "the two secondary objectives", optional=True, many=True, lo=1, hi=5),
        ),
        rule="§4.1",
        examples=("objectives regulars 4 2 5", "objectives irregulars random"),
        phases=("deployment",),
        rolls=True,
        dice=(dice_order.OBJECTIVES_MAIN, dice_order.OBJECTIVES_SECONDARY),
        side_check=_objectives_side,
    ),
    CommandSpec(
        "objective-roll",
        "Mission 2: the Irregular player's secret die that may make a Regular marker a main objective.",
        _objective_roll,
        rule="§4.1",
        examples=("objective-roll",),
        phases=("deployment",),
        rolls=True,
        dice=(dice_order.OBJECTIVE_ROLL,),
    ),
    CommandSpec(
        "take",
        "End of turn: a side holds an enemy marker (a man within 5 cm, no enemy within 30 cm): taken for good.",
        _take,
        params=(
            Param("marker", "int", "the enemy marker's number", lo=1, hi=5),
            Param("side", "side", "the side that takes it"),
        ),
        rule="§4.1.1",
        examples=("take 4 irregulars",),
        phases=("end",),
        who="referee",
    ),
    CommandSpec(
        "reveal",
        "An enemy came within 10 cm of a marker: show what it is (or, as the referee, reveal any secret by key).",
        _reveal,
        params=(
            Param(
                "what", "text", "NUMBER [SIDE] (the marker's owner), SIDE.NUMBER, or a secret's key", secret_key=True
            ),
        ),
        rule="§4.1",
        examples=("reveal 3 regulars", "reveal regulars.3"),
        phases=("initiative", "activation", "end", "final"),
    ),
    CommandSpec(
        "intelligence",
        "Roll Intelligence once per game: at or under your level (less the enemy's) and he shows his main objective.",
        _intelligence,
        params=(Param("side", "side", "the side rolling", optional=True, default=""),),
        rule="Extras: Intelligence",
        examples=("intelligence regulars",),
        phases=("deployment", "initiative", "activation", "end"),
        rolls=True,
        dice=(dice_order.INTELLIGENCE,),
        side_check=_intelligence_side,
    ),
)
