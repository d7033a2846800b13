"""Re-rolls you can trust (issue #52): a re-rolled game gives each side's orders when that side
acts in the re-rolled game, not in the real game's sequence.

Duel is a small ruleset with Breaking News' turn: each turn 1d6 each for the initiative (ties
to blue), the winner alone acts and the other reacts, then an end phase.  Blue acted in the
real turn 1, red in turn 2; the re-rolls deal the initiative anew.
"""

from __future__ import annotations

import re
from contextlib import closing
from fractions import Fraction
from itertools import product
from math import sqrt

import pytest
from recorded import SAVES

from core.dice.faces import ManualDice
from core.game import Game
from core.language.i18n import CORE_DOMAIN
from core.log import events as ev
from core.log.state import GameState
from core.log.views import REFEREE
from core.registry import register, unregister
from core.report.reroll import DRAW, plan, play_once, reroll, score_kind
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset

PIECES = (("b1", "Blue 1", "blue"), ("b2", "Blue 2", "blue"), ("r1", "Red 1", "red"), ("r2", "Red 2", "red"))
TURNS = 2
HIT = 4  # a shot kills on 4+


def _setup(ctx: Context, args: dict) -> None:
    ctx.emit(ev.GameSetUp(scenario="Duel", sides=(ev.SideSpec("blue", "Blue"), ev.SideSpec("red", "Red"))))
    for uid, name, side in PIECES:
        ctx.emit(ev.UnitAdded(unit=ev.UnitSpec(uid, name, side)))
    ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))


def _shot(ctx: Context, args: dict) -> None:
    firer, target = ctx.unit(args["unit"]), ctx.unit(args["target"])
    for u in (firer, target):
        if u.out:
            raise Refused(f"{u.name} is out of action")
    (face,) = ctx.roll("shot", 1, target=HIT, unit=firer.id, check=ev.AtLeast(face=HIT))
    if face >= HIT:
        ctx.emit(ev.UnitOut(unit=target.id, cause="shot"))
    else:
        ctx.emit(ev.Noted(text="missed"))


class Duel(Ruleset):
    id = "test-duel"
    name = "Duel"
    version = "0.1"
    domain = CORE_DOMAIN
    phases = (
        Phase("setup", "Set-up", "referee", "setup"),
        Phase("initiative", "Initiative", "referee", "next rolls 1d6 each"),
        Phase("activation", "Activation", "active", "the active side fires, the other reacts; next"),
        Phase("end", "End", "referee", "next"),
    )

    def commands(self):
        pieces = (Param("unit", "own"), Param("target", "enemy"))
        return [
            CommandSpec("setup", "Set the table.", _setup, who="referee", phases=("setup",)),
            CommandSpec("fire", "The active side fires.", _shot, params=pieces, rolls=True, dice=("shot",)),
            CommandSpec("react", "The reacting side fires back.", _shot, params=pieces, rolls=True, dice=("shot",)),
        ]

    def check_turn(self, state: GameState, parsed, role: str) -> None:
        name = parsed.spec.name
        if role == REFEREE:
            return
        if name == "next" and (state.phase != "activation" or role != state.active_side):
            raise Refused("only the referee moves the game on, except the active side ending its activation")
        if name == "fire" and role != state.active_side:
            raise Refused(f"{state.side_name(state.active_side)} are active: you may only react")
        if name == "react" and role != state.reacting_side:
            raise Refused("reactions are the reacting side's")

    def advance(self, ctx: Context) -> None:
        s = ctx.state
        if s.phase == "initiative":
            if any(not any(u.in_play for u in s.units_of(side)) for side in s.sides):
                raise Refused("the initiative needs both sides in play")
            blue, red = (ctx.roll("initiative", 1, side=side, check=ev.Opposed())[0] for side in ("blue", "red"))
            active = "blue" if blue >= red else "red"
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="activation", active=active, reacting=s.other_side(active)))
        elif s.phase == "activation":
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="end", active=s.active_side, reacting=s.reacting_side))
        elif s.turn < TURNS:
            ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="initiative"))
        else:
            ctx.emit(ev.GameEnded(result="the last turn is over"))

    def sequence_step(self, state: GameState) -> tuple[object, ...]:
        """As Breaking News: a side's turns as the active side, its end phase with it."""
        if state.phase in ("activation", "end"):
            return ("activation", state.active_side)
        return super().sequence_step(state)


#: The real game: blue wins turn 1's initiative, red turn 2's; every shot misses.
DUEL = (
    "setup",
    "next dice=6,1",
    "@blue fire b1 r1 dice=1",
    "@blue fire b2 r2 dice=1",
    "@red react r2 b2 dice=1",
    "@blue next",
    "next",
    "next dice=1,6",
    "@red fire r1 b1 dice=1",
    "@red fire r2 b2 dice=1",
    "@blue react b1 r1 dice=1",
    "@red next",
    "next",
)


def _play(game: Game, lines) -> None:
    for line in lines:
        role, _sep, text = line[1:].partition(" ") if line.startswith("@") else (REFEREE, "", line)
        game.execute(text, role=role)


@pytest.fixture
def duel(tmp_path):
    register(Duel)
    game = Game.new(tmp_path / "d.ft", Duel.id)
    _play(game, DUEL)
    yield game
    game.close()
    unregister(Duel.id)


def _once(game: Game, faces: list[int]):
    """One re-rolled game of ``game``'s orders with exactly these faces, and the faces left over."""
    dice = ManualDice(faces)
    played = play_once(game, plan(game), dice, score_kind(game.history.timeline()))
    return played, dice.unused


def test_when_the_initiative_flips_each_sides_orders_come_in_its_own_turn(duel):
    """Red wins turn 1 (1 against 6) and blue turn 2 (6 against 1): red's activation of the real
    turn 2, with blue's reaction to it, is given in turn 1, then blue's with red's reaction.
    Every order is carried out, and every face rolled: two initiatives, six shots, all misses."""
    played, unused = _once(duel, [1, 6, 2, 2, 2, 6, 1, 2, 2, 2])
    assert played.skipped == []
    assert unused == 0
    assert played.scores == {"blue": 0, "red": 0}


def test_a_piece_killed_in_the_rerolled_game_loses_only_its_own_orders(duel):
    """Red acts first and kills Blue 2 (a 6): Blue 2's shot and the reaction aimed at him are
    skipped as he is out of action; Blue 1's shot and reaction are carried out (a 1 each)."""
    played, unused = _once(duel, [1, 6, 1, 6, 1, 6, 1, 1])
    assert played.skipped == [
        ("fire b2 r2 dice=1", "Blue 2 is out of action"),
        ("react r2 b2 dice=1", "Blue 2 is out of action"),
    ]
    assert unused == 0
    assert played.scores == {"blue": 1, "red": 0}


def test_a_side_that_never_wins_the_initiative_again_has_its_orders_skipped_saying_so(duel):
    """Blue wins both initiatives (6 against 1): blue's one activation is given in turn 1; in
    turn 2 the referee moves blue's empty turn on, the game ends, and red's activation never
    came: its orders are skipped with the moment they were given in.  The two nexts that
    closed red's turn had nothing to close: they are not counted."""
    played, unused = _once(duel, [6, 1, 1, 1, 1, 6, 1])
    never = "the re-rolled game ended before its step came (turn 2, activation phase, Red active)"
    assert played.skipped == [
        ("fire r1 b1 dice=1", never),
        ("fire r2 b2 dice=1", never),
        ("react b1 r1 dice=1", never),
    ]
    assert unused == 0
    assert played.scores == {"blue": 0, "red": 0}


def test_where_the_referee_cannot_move_the_game_on_the_orders_left_are_skipped_with_why(duel):
    """Red acts first and kills both blue pieces: turn 2's initiative is refused (no blue piece
    in play), and the referee cannot move the game on: blue's activation never comes (its
    nexts, with nothing to close, are not counted)."""
    played, unused = _once(duel, [1, 6, 6, 6])
    stopped = "the re-rolled game stopped before it: the initiative needs both sides in play"
    assert played.skipped == [
        ("react b1 r1 dice=1", "Blue 1 is out of action"),
        ("next dice=1,6", "the initiative needs both sides in play"),
        ("fire b1 r1 dice=1", stopped),
        ("fire b2 r2 dice=1", stopped),
        ("react r2 b2 dice=1", stopped),
    ]
    assert unused == 0
    assert played.scores == {"blue": 2, "red": 0}


@pytest.mark.long
def test_win_rates_match_the_initiative_and_the_shots_within_sampling_error(tmp_path):
    """One shot a side (4+ kills), blue's in the real turn 1, red's in turn 2.  Worked out from
    the dice: each turn's initiative (1d6 each, ties to blue) gives its winner his next
    activation, if he has one left; each shot kills half the time, and a dead piece fires no
    more.  The side that lost fewer pieces wins."""
    register(Duel)
    try:
        game = Game.new(tmp_path / "s.ft", Duel.id)
        lines = ("setup", "next dice=6,1", "@blue fire b1 r1 dice=1", "@blue next", "next")
        _play(game, (*lines, "next dice=1,6", "@red fire r1 b1 dice=1", "@red next", "next"))
        n = 3000
        wins = reroll(game, n, seed=7).wins()
        game.close()
    finally:
        unregister(Duel.id)
    for side, p in _exact_duel().items():
        share, sigma = wins[side] / n, sqrt(float(p * (1 - p)) / n)
        assert abs(share - float(p)) < 4 * sigma, (side, share, float(p))


def _exact_duel() -> dict[str, Fraction]:
    out = {"blue": Fraction(0), "red": Fraction(0), DRAW: Fraction(0)}
    faces = range(1, 7)
    for b1, r1, b2, r2 in product(faces, repeat=4):
        winners = ["blue" if b >= r else "red" for b, r in ((b1, r1), (b2, r2))]
        acting = list(dict.fromkeys(winners))  # one activation each: a second win finds none left
        for hits in product((True, False), repeat=len(acting)):
            alive, lost = {"blue", "red"}, dict.fromkeys(("blue", "red"), 0)
            for side, hit in zip(acting, hits, strict=True):
                other = "red" if side == "blue" else "blue"
                if side in alive and hit:
                    alive.discard(other)
                    lost[other] += 1
            winner = DRAW if lost["blue"] == lost["red"] else min(lost, key=lost.__getitem__)
            out[winner] += Fraction(1, 6**4) / 2 ** len(acting)
    return out


#: What each ruleset says to an order given out of turn: none of these may skip an order of a
#: re-rolled game, whose orders each come when their side acts (the real game's sequence gave
#: them: "Bersaglieri are active: you may only react", a side's next not its own, a fire
#: tier not its own, a card not its side's, "not allowed in the end phase").
OUT_OF_TURN = {
    "demo-game": r"are active: you may only react|only the referee moves the game on|reacting player's|"
    r"field at least half their force|deploy the rest of their force before|not allowed in the",
    "bassa-intensita-game": r"movement \(A\.5\.1\)|only the referee moves the game on|not allowed in the|"
    r"own Quality tier|acts in his own tier|won the initiative and chooses",
    "linea-di-tiro-game": r"you may only fire a ready attack in reply|no card has been drawn|"
    r"cannot be activated \(LT-R010\)|only a face card|a number card activates one piece|not allowed in the",
    "ludonet-game": r"move \(B\.2\)|it is .* move|only the referee moves the game on|not allowed in the",
}


@pytest.mark.long
@pytest.mark.parametrize("save", sorted(OUT_OF_TURN))
def test_no_order_of_a_recorded_game_is_skipped_for_coming_out_of_turn(save):
    with closing(Game.open(SAVES / f"{save}.ft", writable=False)) as game:
        rerolls = reroll(game, 60, seed=2)
    out_of_turn = re.compile(OUT_OF_TURN[save])
    said = {why for g in rerolls.games for _text, why in g.skipped if out_of_turn.search(why)}
    assert said == set()


def _stretch_of(save: str) -> dict[str, tuple]:
    """Each order's stretch of play in a recorded game (the first order of each text)."""
    with closing(Game.open(SAVES / f"{save}.ft", writable=False)) as game:
        given = plan(game)
    out: dict[str, tuple] = {}
    for order in given.orders:
        out.setdefault(order.text, order.stretch)
    return out


def test_the_rulesets_name_the_stretch_each_recorded_order_was_given_in():
    """Breaking News: the real turn 2 is the Bersaglieri's first as the Active Player, turn 6 the
    militia's third, the end phase goes with the turn, the deployment steps are each side's
    (§4.2, §5.0).  Bassa Intensità and Ludonet: a side's movement, first or second (A.5.1,
    LN-R002).  Linea di Tiro: a side's cards of each kind (LT-R010): card 5 (9♠) is the
    Germans' third number card."""
    from core.rulesets.bassa_intensita.phases import MOVE_PHASES as BI_MOVES
    from core.rulesets.ludonet.phases import MOVE_PHASES as LN_MOVES

    demo = _stretch_of("demo-game")
    assert demo["deploy rossi bianchi conti lupo"] == (("deployment", "regulars"), 1)
    assert demo["deploy greco marino ferri"] == (("deployment", "regulars"), 2)
    assert demo["fire bianchi dahir range=39"] == (("activation", "regulars"), 1)
    assert demo["react-fire aden bianchi range=39"] == (("activation", "regulars"), 1)
    assert demo["ambush faysal"] == (("activation", "regulars"), 1)
    assert demo["fire aden rossi range=19"] == (("activation", "irregulars"), 3)
    bi = _stretch_of("bassa-intensita-game")
    assert bi["mine puma at dice=1,5"] == ((2, BI_MOVES, "convoy"), 1)
    assert bi["fire abdi russo range=15"] == ((2, "fire-regular", ""), 1)
    ln = _stretch_of("ludonet-game")
    assert ln["move bazooka 5"] == ((1, LN_MOVES, "british"), 1)
    assert ln["move panzer 15"] == ((1, LN_MOVES, "german"), 1)
    lt = _stretch_of("linea-di-tiro-game")
    assert lt["at stug m3 dice=4,5"] == (("card", "number", "german"), 3)
    assert lt["unitmove call-artillery by=captain on the mill across the river"] == (("card", "face", "us"), 1)
