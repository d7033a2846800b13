"""Bassa Intensità 1.9 played through commands with exact dice: damage after a hit,
wounds, morale, leaders, HE, vehicles and the end of the game.  The pieces are built
here (UnitSpec), not read from a scenario file."""

from __future__ import annotations

import itertools
import secrets
from contextlib import closing
from fractions import Fraction
from typing import Any

import pytest
from playing import play, refused

from core import registry
from core.dice.faces import CONTRIBUTION_BYTES, Share
from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.outcome import AnswerNeeded, DiceNeeded, Outcome, Refusal
from core.log.questions import NeedAnswer
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Context
from core.rulesets.bassa_intensita import BassaIntensita
from core.rulesets.common import Scenario

U = ev.UnitSpec
PIECES = (
    U(id="capo", name="Sgt Capo", side="blue", team="A", cls="regular", weapons=("assault-rifle",), roles=("leader",)),
    U(id="bruno", name="Pte Bruno", side="blue", team="A", cls="regular", weapons=("assault-rifle",)),
    U(id="carlo", name="Pte Carlo", side="blue", team="A", cls="regular", weapons=("rifle",), roles=("frag-vest",)),
    U(id="gino", name="Pte Gino", side="blue", team="E", cls="regular", weapons=("rubber",), roles=("engineer",)),
    U(id="vito", name="Sgt Vito", side="blue", team="S", cls="veteran", weapons=("carbine",), roles=("leader",)),
    U(id="sara", name="Pte Sara", side="blue", team="S", cls="veteran", weapons=("carbine",), roles=("scout",)),
    U(id="fo", name="Lt Foschi", side="blue", team="FO", cls="veteran", weapons=("carbine",), roles=("observer",)),
    U(id="elio", name="Cpl Elio", side="blue", team="B", cls="elite", weapons=("sniper-rifle",), roles=("sniper",)),
    U(
        id="lince",
        name="Lince",
        side="blue",
        kind="vehicle",
        cls="regular",
        weapons=("mg",),
        roles=("wheeled-apc", "dischargers"),
        stats={"capacity": 4},
    ),
    U(
        id="ariete",
        name="Ariete",
        side="blue",
        kind="vehicle",
        cls="veteran",
        weapons=("gun-heavy", "mg"),
        roles=("tank", "stabilised"),
        stats={"gun_mm": 120},
    ),
    U(id="lynx", name="Lynx", side="blue", kind="vehicle", cls="veteran", weapons=("mg",), roles=("helicopter",)),
    U(id="rico", name="Pte Rico", side="blue", team="HB", cls="veteran", weapons=("carbine",), roles=("fast-rope",)),
    U(id="zaid", name="Zaid", side="red", team="AA", cls="veteran", weapons=("manpads",)),
    U(id="omar", name="Omar", side="red", team="H", cls="regular", weapons=("assault-rifle",), roles=("leader",)),
    U(id="ali", name="Ali", side="red", team="H", cls="regular", weapons=("rpg",)),
    U(id="hassan", name="Hassan", side="red", team="H", cls="recruit", weapons=("smg",)),
    U(id="tecnica", name="Technical", side="red", kind="vehicle", cls="rabble", weapons=("mg",), roles=("technical",)),
    U(id="bmp", name="BMP", side="red", kind="vehicle", cls="recruit", weapons=("autocannon",), roles=("tracked-apc",)),
)
TABLE = Scenario(
    id="table",
    title="Test table",
    sides=(ev.SideSpec("blue", "Blue"), ev.SideSpec("red", "Red")),
    units=PIECES,
)


class _Table(BassaIntensita):
    """The ruleset with the pieces above, and the scenario's variables set as a scenario would."""

    id = "bassa-intensita"
    turns = 2

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios = {**self.scenarios, "table": TABLE}

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        super()._scenario(ctx, args)
        if args["name"] == "table":
            ctx.emit(ev.VarSet(key="scenario.turns", value=self.turns))
            ctx.emit(ev.VarSet(key="scenario.victory", value="blue hold the crossroads"))


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", _Table)
    with closing(Game.new(tmp_path / "bi.ft", "bassa-intensita", seed=3)) as g:
        g.execute("scenario table", role=REFEREE)
        yield g


@pytest.fixture
def long_game(tmp_path, monkeypatch):
    """The same table, 6 turns long."""
    monkeypatch.setattr(_Table, "turns", 6)
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", _Table)
    with closing(Game.new(tmp_path / "bi6.ft", "bassa-intensita", seed=3)) as g:
        g.execute("scenario table", role=REFEREE)
        yield g


def rolls(events: list[ev.Event], rule: str = "") -> list[ev.Roll]:
    return [e.roll for e in events if isinstance(e, ev.Rolled) and (not rule or e.roll.rule == rule)]


def goto(g: Game, phase: str, turn: int | None = None) -> None:
    """Move on to ``phase`` (of ``turn``); blue wins every initiative and moves first."""
    turn = g.state.turn if turn is None else turn
    while (g.state.turn, g.state.phase) != (turn, phase):
        g.execute("next dice=6,1" if g.state.phase == "initiative" else "next", role=REFEREE)


def unit(g: Game, uid: str):
    return g.state.units[uid]


# ---------------------------------------------------------------------- infantry


def test_a_hit_rolls_damage_and_a_wound_asks_for_morale(game):
    """Rules: BI-R072, BI-R086, BI-R110, BI-R180, BI-R181, BI-AMB-41."""
    goto(game, "fire-regular")
    facts = play(game, "@blue fire capo omar range=20 dice=4,7,9")
    # Regular 4: the first shot hits, damage 7 wounds; the second misses
    assert [plain(r.outcome) for r in rolls(facts, "A.9.4")] == ["hit: roll damage (A.12)", "miss"]
    assert plain(rolls(facts, "A.12.1")[0].outcome) == "wounded"
    omar = unit(game, "omar")
    assert omar.has("wounded") and omar.has("morale-due") and omar.has("morale-fire")
    # his leader is wounded: his men check morale too (M6)
    assert unit(game, "ali").has("morale-due") and unit(game, "hassan").has("morale-due")
    # Omar: Regular 4 + 3, wounded -3, under automatic fire -2, heavy cover +2 = 4
    odds = game.odds("morale omar heavy", role="referee")
    assert (odds.target, odds.sides, odds.chances[1]) == (4, 10, Fraction(4, 10))
    facts = play(game, "morale omar heavy dice=4")
    assert rolls(facts)[0].target == 4 and plain(rolls(facts)[0].outcome) == "passed"
    assert not unit(game, "omar").has("morale-due")


def test_same_tier_fire_still_lets_the_struck_man_act_in_his_tier(game):
    """Rules: BI-R061."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,10")  # dead at once
    assert not unit(game, "omar").in_play
    facts = play(game, "@red fire omar capo range=20 dice=9,9")  # he fires in his own tier all the same
    assert len(rolls(facts, "A.9.4")) == 2
    for man in ("ali", "hassan"):
        play(game, f"morale {man} dice=1")
    # his leader is dead: Ali is isolated and tests first (1), then misses (10) and the RPG deviates (1: a dud)
    facts = play(game, "@red fire ali carlo range=15 dice=1,10,1")
    assert [r.rule for r in rolls(facts)] == ["BI-R024", "A.9.4", "A.10.1"]
    play(game, "next")  # fire-recruit: the grace ends with the tier
    assert not unit(game, "omar").has("struck")


def test_a_second_wound_kills_and_the_squad_feels_it(game):
    """Rules: BI-R086, BI-R112, BI-AMB-21."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo hassan range=20 dice=1,6,1,6")
    # two hits, two wounds: the second kills (ruling BI-SECOND-WOUND)
    assert plain(unit(game, "hassan").out).startswith("killed by Sgt Capo's Assault rifle")
    # M5: his squad mates must check
    assert unit(game, "omar").has("morale-due") and unit(game, "ali").has("morale-due")


def test_a_squad_all_down_reminds_the_referee_of_m2(game):
    for man in ("ali", "hassan"):
        play(game, f"out {man} killed")
    goto(game, "fire-regular")
    facts = play(game, "@blue fire capo omar range=20 dice=1,10")
    assert any(isinstance(e, ev.Noted) and "squad H is all killed or wounded" in plain(e.text) for e in facts)


def test_a_vest_and_a_sniper_modify_the_damage_die(game):
    """Rules: BI-R093, BI-R111, BI-AMB-24."""
    goto(game, "fire-elite")
    play(game, "mark carlo hidden")  # nothing to do with the vest: just not to shoot him
    facts = play(game, "@blue fire elio omar range=25 dice=1,8,3")
    # sniper +1: 8 + 1 = 9, seriously wounded
    r = rolls(facts, "A.12.1")[0]
    assert plain(r.outcome) == "seriously wounded" and any(plain(m.label) == "shot by a sniper" for m in r.mods)
    for man in ("ali", "hassan"):  # M6: their leader is seriously wounded
        play(game, f"morale {man} dice=1")
    goto(game, "fire-regular")
    play(game, "clear carlo hidden")
    facts = play(game, "@red fire ali carlo range=15 dice=1,1,2")
    # RPG hit: the burst is at Carlo (open, short: 6); damage 2, frag vest -1: near miss
    assert rolls(facts, "A.10.3")[0].target == 6
    assert plain(rolls(facts, "A.12.1")[0].outcome) == "near miss"


def test_the_seriously_wounded_die_undressed(game):
    """Rules: BI-R110, BI-R112, BI-R113."""
    goto(game, "fire-regular")
    play(game, "@red fire omar bruno range=20 dice=1,9,1,1,9")
    # seriously wounded (his clock: 1 turn), then hit again: a second hit of 2 or more kills
    assert plain(unit(game, "bruno").out) == "killed by Omar's Assault rifle"
    play(game, "morale capo dice=1", "morale carlo dice=1")
    play(game, "next")  # fire-recruit
    play(game, "@red fire hassan capo range=10 dice=1,9,1,9")
    # Recruit 3 + short 1 = 4: hit, seriously wounded, dies at the end of turn 1 + 1; the second shot misses
    assert unit(game, "capo").has("seriously-wounded")
    assert game.state.vars["secret.dies.capo"] == 2
    assert "secret.dies.capo" not in game.view("red").vars  # the clock is the referee's
    assert not any("dress" in line.text for line in game.log_lines("blue") + game.log_lines("red"))
    assert "dies at the end of turn 2" in game.log_lines(role="referee")[-2].text or any(
        "dies at the end of turn 2" in line.text for line in game.log_lines(role="referee")
    )
    play(game, "morale carlo dice=1")  # M6: his leader is seriously wounded
    goto(game, "fire-regular", 2)
    refused(game, "@blue fire capo hassan range=10", "seriously wounded: he can no longer", rule="BI-R110")
    facts = play(game, "@blue dress carlo capo dice=5")  # Normal: Regular 4
    assert plain(rolls(facts)[0].outcome) == "not yet"
    goto(game, "end", 2)
    facts = play(game, "next")
    assert plain(unit(game, "capo").out) == "died of his wounds, not dressed in time"
    assert game.state.phase == "final"


def test_a_dressed_man_counts_as_wounded(game):
    """Rules: BI-R062, BI-R113, BI-AMB-36."""
    play(game, "mark capo seriously-wounded")
    goto(game, "fire-regular")
    refused(game, "@blue dress carlo bruno", "not seriously wounded", rule="BI-R110")
    facts = play(game, "@blue dress carlo capo dice=4")
    assert plain(rolls(facts)[0].outcome) == "dressed: he counts as wounded"
    capo = unit(game, "capo")
    assert capo.has("wounded") and not capo.has("seriously-wounded")
    assert game.state.vars["secret.dies.capo"] == 0
    play(game, "mark bruno seriously-wounded")
    refused(game, "@blue dress carlo bruno", "already acted", rule="BI-R030")


def test_wounds_slow_the_move_and_harden_actions(game):
    """Rules: BI-R042, BI-R065, BI-R069, BI-R110, BI-AMB-13, BI-AMB-18, BI-R066."""
    play(game, "mark bruno wounded", "mark carlo prone")
    goto(game, "move-first")
    refused(game, "@blue move bruno 9", "1 to 8 cm", rule="BI-R040")
    refused(game, "@blue move bruno 5 via=door,", r"1 to 4 cm \(through a door, wounded\)", rule="BI-R040")
    refused(
        game, "@blue move bruno 2 via=wounded", r"no via 'wounded'", rule=TYPING
    )  # counted by the engine: never named twice
    play(game, "@blue move bruno 4 via=door")
    # standing up costs a quarter: 12 of 16
    refused(game, "@blue move carlo 13", "1 to 12 cm", rule="BI-R040")
    play(game, "@blue move carlo 12")
    assert not unit(game, "carlo").has("prone")
    refused(game, "@blue move capo 5 via=roof", r"no via 'roof' \(choose from under-fire, stand-up, door", rule=TYPING)
    goto(game, "fire-regular", 2)
    refused(game, "@blue act bruno difficult disarm the mine", "impossible for a wounded man", rule="BI-R069")
    facts = play(game, "@blue act bruno easy dice=4")  # easy → normal for him: Regular 4
    assert rolls(facts)[0].target == 4 and plain(rolls(facts)[0].outcome) == "done"


def test_a_shocked_man_does_not_fire_until_the_end_of_next_turn(game):
    """Rules: BI-AMB-20."""
    goto(game, "fire-regular")
    play(game, "@red fire omar carlo range=20 dice=1,3,10")  # shocked
    play(game, "morale carlo dice=1")
    carlo = unit(game, "carlo")
    assert carlo.has("shocked") and carlo.has("prone") and carlo.has("struck")
    goto(game, "move-first", 2)
    assert unit(game, "carlo").has("shocked") and not unit(game, "carlo").has("shocked-now")
    refused(game, "@blue move carlo 5", "shocked: no move towards the enemy", rule="BI-R182")
    play(game, "@blue move carlo 5 away")
    goto(game, "end", 2)
    play(game, "next")
    assert not unit(game, "carlo").has("shocked")


# ------------------------------------------------------------------------ morale


def test_a_failed_check_can_panic_or_surrender(game):
    """Rules: BI-AMB-44, BI-AMB-45."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo ali range=20 dice=1,1,9")  # near miss: morale due
    # Ali: Regular 4 + 3 + under automatic fire -2 = 5; a 6 fails; 1d6 = 5: panic
    facts = play(game, "morale ali dice=6,5")
    assert [plain(r.outcome) for r in rolls(facts)] == ["failed: roll the effect", "panic"]
    moved = [e for e in facts if isinstance(e, ev.Moved)]
    assert moved and moved[0].cm == 24 and "panic" in plain(moved[0].how)
    assert unit(game, "ali").has("shocked")
    # a second failure while shocked: shocked counts as panic (BI-R184)
    facts = play(game, "morale ali m4 dice=9,1")
    assert plain(rolls(facts)[1].outcome) == "panic"
    # surrender with an enemy close by takes him
    play(game, "morale ali m3 enemy dice=9,6")
    assert plain(unit(game, "ali").out) == "surrendered (BI-R182)"


def test_a_referee_check_needs_a_trigger_and_the_fanatic_stat_counts(game):
    """Rules: BI-R181."""
    goto(game, "fire-regular")
    refused(game, "morale hassan", "no check is due", rule="BI-R180")
    facts = play(game, "morale hassan m1 light near=2 dice=3")
    # Recruit 3 + 3 + light cover 1 - 2 seriously wounded near = 5
    assert rolls(facts)[0].target == 5


def test_a_dead_leader_isolates_his_squad_until_replaced(game):
    """Rules: BI-R028, BI-R181, BI-AMB-42."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,10")
    play(game, "morale ali dice=1", "morale hassan dice=1")
    facts = play(game, "morale ali m4 dice=1")
    # commander killed -1, isolated -2: Regular 4 + 3 - 3 = 4
    assert rolls(facts)[0].target == 4


def test_leader_replacement_with_exact_dice(game):
    """Rules: BI-R021."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,10")
    play(game, "morale ali dice=1", "morale hassan dice=1")
    goto(game, "end")
    facts = play(game, "next dice=4")
    r = rolls(facts, "BI-R028")[0]
    assert (r.target, plain(r.outcome)) == (4, "Ali takes over (recruit)")
    assert unit(game, "ali").has("leader") and unit(game, "ali").has("ability-recruit")
    play(game, "next dice=6,1", "next", "next")  # to red's movement
    # Hassan 10 cm from his new Recruit leader (6 cm): isolated, rolls first
    facts = play(game, "@red move hassan 5 lead=10 dice=9")
    assert rolls(facts)[0].rule == "BI-R024" and unit(game, "hassan").has("balked")


# ---------------------------------------------------------------------- vehicles


def test_an_rpg_penetrates_and_damages_an_armoured_carrier(game):
    """Rules: BI-R130, BI-R131, BI-R132, BI-R140, BI-R180, BI-AMB-28."""
    goto(game, "fire-regular")
    facts = play(game, "@red fire ali lince range=15 flank dice=1,9,7")
    # penetration: other armoured 8 + flank 2 = 10; a 9 penetrates; damage 7: a weapon lost
    pen = rolls(facts, "A.12.3")[0]
    assert pen.target == 10 and plain(pen.outcome) == "penetrated"
    assert unit(game, "lince").has("weapon-lost-mg") and unit(game, "lince").has("damaged")
    # the only weapon, and so the main one: morale at -2
    assert unit(game, "lince").has("morale-table-2")
    facts = play(game, "morale lince dice=3")
    # Regular 4 + 3 - 2 (table) - 2 (HE fire) = 3
    assert rolls(facts)[0].target == 3
    refused(game, "@blue fire lince omar range=20", "destroyed", rule="BI-R140")


def test_small_arms_cannot_hurt_a_tank_and_a_gun_kills_a_technical(game):
    """Rules: BI-R120, BI-AMB-27, BI-AMB-28."""
    goto(game, "fire-veteran")
    facts = play(game, "@blue fire ariete tecnica range=40 dice=2,3")
    # gun on an unarmoured vehicle: 3 + 4 = 7, immobilised and morale -2
    assert plain(rolls(facts, "A.12.2")[0].outcome) == "immobilised"
    assert unit(game, "tecnica").has("immobilised")
    play(game, "morale tecnica dice=1")
    goto(game, "fire-regular")
    facts = play(game, "@red fire omar ariete range=20 dice=1,9")
    assert any(isinstance(e, ev.Noted) and "cannot penetrate" in plain(e.text) for e in facts)
    assert unit(game, "ariete").in_play


def test_a_destroyed_carrier_hurts_the_men_aboard(game):
    goto(game, "move-first")
    play(game, "@blue mount bruno lince", "@blue mount carlo lince")
    assert unit(game, "bruno").has("aboard-lince")
    refused(game, "@blue move bruno 4", "aboard a vehicle", rule="BI-R026")
    goto(game, "fire-regular")
    refused(game, "@red fire omar bruno range=15", "inside Lince: fire at the vehicle", rule="BI-R110")
    play(game, "@red fire ali lince range=15 dice=1,3,10,2,10")
    # penetrated (3 ≤ 8), damage 10: destroyed; Bruno 2: shocked, Carlo 10: dead
    assert plain(unit(game, "lince").out).startswith("destroyed by Ali's RPG")
    assert unit(game, "bruno").has("shocked") and not unit(game, "bruno").has("aboard-lince")
    assert not unit(game, "carlo").in_play


def test_vehicles_move_by_type_and_a_stabilised_gun_fires_after_a_short_move(game):
    """Rules: BI-R045, BI-R093, BI-R240."""
    goto(game, "move-first")
    refused(game, "@blue move ariete 61", "1 to 60 cm off-road", rule="BI-R045")
    play(game, "@blue move ariete 29")
    assert unit(game, "ariete").has("moved-stabilised")
    goto(game, "fire-veteran")
    facts = play(game, "@blue fire ariete omar range=40 dice=4,1,1")
    # Veteran 5, short range +1, firing on the move -1 = 5: hit; HE burst on Omar 1 ≤ 6; damage 1
    r = rolls(facts, "A.9.4")[0]
    assert r.target == 5 and any("stabilised" in plain(m.label) for m in r.mods)
    play(game, "morale omar dice=1")
    refused(game, "@blue fire ariete omar range=40", "already fired", rule="BI-R030")


def test_an_armed_transport_may_become_a_combat_vehicle(game):
    """Rules: BI-R027."""
    goto(game, "move-first")
    play(game, "@blue mount bruno lince")
    refused(game, "@blue combat lince", "still carries troops", rule="BI-R027")
    goto(game, "move-first", 2)
    play(game, "@blue dismount bruno", "@blue combat lince")
    refused(game, "@blue mount carlo lince", "takes no troops back", rule="BI-R027")


# -------------------------------------------------------------------------- HE


def test_a_burst_rolls_for_each_man_in_its_area(game):
    """Rules: BI-R073, BI-R092."""
    goto(game, "fire-regular")
    facts = play(game, "burst hassan source=gun-150 long cover=trench dice=2,6")
    # entrenched, long: 1, +1 for a gun over 103 mm = 2; damage 6: wounded
    r = rolls(facts, "A.10.3")[0]
    assert r.target == 2 and sum(m.value for m in r.mods) == 2
    assert unit(game, "hassan").has("wounded")
    refused(game, "burst omar source=rifle", "no HE source", rule=TYPING)


def test_an_he_miss_deviates(game):
    """Rules: BI-R090, BI-AMB-01, BI-AMB-23."""
    goto(game, "fire-regular")
    facts = play(game, "@red fire ali carlo range=40 dice=9,4")
    assert plain(rolls(facts, "A.10.1")[0].outcome) == "lands 20 cm long of the target (50% of 40 cm)"


# ---------------------------------------------------------------- end of the game


def test_the_game_ends_when_a_side_cannot_fight(game):
    for u in ("omar", "ali", "hassan", "tecnica", "zaid"):
        play(game, f"out {u} killed")
    play(game, "mark bmp seriously-wounded")  # nonsense for a vehicle, but it cannot fight
    play(game, "next")  # no initiative is rolled: the game is over
    assert game.state.phase == "ended"
    assert plain(game.state.result).startswith("Blue win: Red have nobody left who can fight")
    assert "Red: 5 killed, 1 seriously wounded" in plain(game.state.result)
    # as data: Blue's id, and the men and vehicles out of action (the seriously wounded are not)
    assert (game.state.winner, game.state.draw, game.state.scores) == ("blue", False, {"blue": 0, "red": 5})


def test_after_the_last_turn_the_referee_records_the_result(game):
    goto(game, "end", 2)
    facts = play(game, "next")
    assert game.state.phase == "final"
    assert any(isinstance(e, ev.Noted) and "blue hold the crossroads" in plain(e.text) for e in facts)
    refused(game, "next", "record the result", rule="ENG-2")
    play(game, "victory blue the crossroads are held")
    assert plain(game.state.result) == "Blue win: the crossroads are held. Losses: Blue: no losses; Red: no losses"
    assert any("Game over" in line.text for line in game.log_lines(role="referee"))


def test_a_draw_and_a_refused_victory(game):
    goto(game, "observe")
    refused(game, "victory", r"name the winning side \(blue \(Blue\), red \(Red\)\) or say draw", rule=TYPING)
    play(game, "victory draw")
    assert plain(game.state.result).startswith("a draw: the referee ends the game")
    assert (game.state.winner, game.state.draw, game.state.scores) == ("", True, {"blue": 0, "red": 0})
    refused(game, "victory blue", "the game is over", rule="ENG-2")


# ----------------------------------------------------------------- indirect fire


def test_a_call_for_fire_from_contact_to_fire_for_effect(game):
    """Rules: BI-R100, BI-R102, BI-R103, BI-AMB-29, BI-AMB-33."""
    goto(game, "fire-veteran")
    refused(game, "@blue call ariete dedicated mm=105", "not a forward observer", rule="BI-R100")
    refused(game, "@blue call fo dedicated", "give the calibre", rule="BI-R091")
    facts = play(game, "@blue call fo general mm=81 dice=3")
    # general support: difficult, ceil(5 / 2) = 3 for a Veteran
    assert rolls(facts)[0].target == 3 and plain(rolls(facts)[0].outcome) == "done"
    assert game.state.vars["secret.support.fo"] == "contacted:gun-102:1"
    assert "secret.support.fo" not in game.view("blue").vars
    assert not any("contact" in line.text or "Foschi is through" in line.text for line in game.log_lines("red"))
    assert any("Foschi is through" in line.text for line in game.log_lines("blue"))
    refused(game, "@blue ranging fo", "next turn", rule="BI-R103")
    goto(game, "fire-veteran", 2)
    # precise (5 ≤ 5), 1d10 = 9: short right, 2d6 short (3 + 4) and 2d6 right (6 + 6)
    facts = play(game, "@blue ranging fo dice=5,9,3,4,6,6")
    assert [plain(r.outcome) for r in rolls(facts)] == ["precise", "short right", "7 cm", "12 cm"]
    assert any(
        isinstance(e, ev.Noted) and plain(e.text) == "the ranging shot lands 7 cm short and 12 cm right" for e in facts
    )
    assert game.state.vars["secret.support.fo"] == "ranged:gun-102:2"
    # the ranging shot is not his action: he may still act this turn
    refused(game, "@blue ffe fo", "next turn", rule="BI-R103")


def test_an_imprecise_ranging_shot_can_be_lost_and_called_again(game):
    """Rules: BI-R102, BI-R103, BI-AMB-30."""
    goto(game, "fire-veteran")
    facts = play(game, "@blue call fo mortar mm=60")  # easy: 10 for a Veteran, no roll
    assert not rolls(facts)
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ranging fo dice=6,2")
    assert [plain(r.outcome) for r in rolls(facts)] == ["imprecise", "where are you shooting?"]
    assert game.state.vars["secret.support.fo"] == "lost:gun-76:2"


def test_fire_for_effect_and_a_shift_and_smoke_shells(long_game):
    """Rules: BI-R104, BI-R105, BI-R171, BI-AMB-32, BI-AMB-33, BI-AMB-34, BI-AMB-47."""
    game = long_game
    goto(game, "fire-veteran")
    play(game, "@blue call fo dedicated mm=120 dice=1")
    goto(game, "fire-veteran", 2)
    play(game, "@blue ranging fo dice=1,1")  # bull's-eye
    goto(game, "fire-veteran", 3)
    facts = play(game, "@blue ffe fo")
    texts = [plain(e.text) for e in facts if isinstance(e, ev.Noted)]
    assert "within 8 cm (short) and 15 cm (long): burst UNIT source=gun-150 indirect" in texts[0]
    assert "M3" in texts[1]  # over 100 mm: morale for everyone within 20 cm
    assert unit(game, "fo").has("acted")
    goto(game, "fire-veteran", 4)
    refused(game, "@blue shift fo 25", "1 to 20 cm", rule="BI-R104")
    play(game, "@blue shift fo 20")
    goto(game, "fire-veteran", 5)
    play(game, "@blue ffe fo smoke dice=2")
    smoke = [v for k, v in game.state.vars.items() if k.startswith("smoke.")]
    assert smoke == ["shells|8 x 90 cm|Lt Foschi|12"]  # 6 + 2 turns from turn 5
    assert game.ruleset.describe_var("smoke.1", smoke[0]) == (
        "smoke: smoke shells (8 x 90 cm) by Lt Foschi, until the end of turn 12"
    )


def test_an_air_strike_and_its_strafing_pass(game):
    """Rules: BI-R250, BI-R251, BI-R252, BI-AMB-49, BI-AMB-50, BI-AMB-51, BI-AMB-52."""
    goto(game, "fire-veteran")
    play(game, "@blue call fo air bomb=at dice=5")  # normal by default (ruling BI-AIR-CONTACT)
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ffe fo dice=1,2")
    assert any(isinstance(e, ev.Noted) and "at bombs: a 60 x 20 cm area" in plain(e.text) for e in facts)
    # AT bombs against a man: open, short 6, halved to 3
    facts = play(game, "burst hassan source=bomb-at dice=3,1")
    assert rolls(facts, "A.10.3")[0].target == 3
    play(game, "morale hassan dice=1")
    # the strafing pass: a Regular pilot hits on 4 or less; the BMP is penetrated on 7
    facts = play(game, "strafe bmp dice=4,7,1")
    assert [r.rule for r in rolls(facts)] == ["BI-R253", "A.12.3", "A.12.4"]


def test_smoke_grenades_last_six_turns_and_a_d6(game):
    """Rules: BI-R170, BI-R171, BI-AMB-48."""
    goto(game, "move-first")
    play(game, "@blue smoke bruno dice=1")
    assert unit(game, "bruno").has("fired")
    assert game.state.vars["smoke.1"] == "grenade|5 x 20|Pte Bruno|7"
    assert game.ruleset.describe_var("smoke.1", game.state.vars["smoke.1"]) == (
        "smoke: smoke grenade (5 x 20 cm, within 10 cm of him) by Pte Bruno, until the end of turn 7"
    )
    older = "smoke grenade (5 x 20 cm, within 10 cm of him) by Pte Bruno|7"  # a save from before smoke as data
    assert game.ruleset.describe_var("smoke.1", older) == (
        "smoke: smoke grenade (5 x 20 cm, within 10 cm of him) by Pte Bruno, until the end of turn 7"
    )
    refused(game, "@blue smoke ariete", "no smoke dischargers", rule="BI-R170")
    play(game, "@blue smoke lince dice=6")
    assert "horseshoe" in game.state.vars["smoke.2"]


# --------------------------------------------------------------- air and helicopters


def test_helicopters_fly_by_a_roll_and_anti_aircraft_fire_hits_them(game):
    """Rules: BI-R047, BI-R255, BI-R261, BI-R264, BI-AMB-41, BI-AMB-54."""
    goto(game, "move-first")
    facts = play(game, "@blue move lynx 100 dice=3,4")
    # 2d6 x 10: 70 cm this turn
    moved = [e for e in facts if isinstance(e, ev.Moved)]
    assert moved[0].cm == 70 and plain(rolls(facts)[0].outcome) == "up to 70 cm"
    # MANPADS at a helicopter during the movement: 3 + 1 (Veteran) = 4, halved: 2
    facts = play(game, "@red aa zaid lynx dice=2,3,1")
    r = rolls(facts, "BI-R260")[0]
    assert r.target == 2 and sum(m.value for m in r.mods) == 2
    # 2d6 = 4: morale, and the rotor is damaged
    assert unit(game, "lynx").has("rotor-damaged") and unit(game, "lynx").has("morale-due")
    # helicopter morale: Veteran 5 + 3 = 8, and no -2 "under HE or automatic fire": the
    # MANPADS's row (BI-R260) is neither, nor does the helicopter table's row 3-4 give it
    # (A.13.2, BI-R263; ruling BI-AA-MORALE); a 9 fails; 6: surrender counts as panic,
    # and on 1d6 of 1 or 2 it lands or goes home, as the referee says (BI-R264)
    assert not unit(game, "lynx").has("morale-fire")
    facts = play(game, "morale lynx dice=9,6,2")
    r = rolls(facts, "A.13.2")[0]
    assert r.target == 8 and "under HE or automatic fire" not in [plain(m.label) for m in r.mods]
    assert "Lynx lands or goes back to base: the referee says which" in [
        plain(e.text) for e in facts if isinstance(e, ev.Noted)
    ]


def test_a_damaged_rotor_may_bring_the_helicopter_down(game):
    """BI-R263: the damaged rotor's 1d6 is rolled as the movement phase begins; on a 2
    the helicopter lands or goes home, which is its move for the turn."""
    play(game, "mark lynx rotor-damaged")
    goto(game, "cover")
    facts = play(game, "next dice=2")
    assert plain(rolls(facts)[0].outcome) == "it must land or go home"
    assert not [e for e in facts if isinstance(e, ev.Moved)]
    refused(game, "@blue move lynx 30 dice=3,3", "already moved", rule="BI-R030")


def test_men_board_a_helicopter_only_once_it_has_landed(game):
    goto(game, "move-first")
    aloft = r"Lynx is in the air: men board a helicopter only once it has landed \(BI-R256\)"
    refused(game, "@blue mount bruno lynx", aloft, rule="BI-R256")
    play(game, "@blue land lynx")
    facts = play(game, "@blue mount bruno lynx", "@blue mount rico lynx")
    assert unit(game, "bruno").has("aboard-lynx") and unit(game, "rico").has("aboard-lynx")
    assert [plain(e.how) for e in facts if isinstance(e, ev.Moved)][0] == "mounts Lynx: half his move"
    goto(game, "move-first", 2)
    play(game, "@blue land lynx")  # takes off: the whole turn (BI-R256)
    assert not unit(game, "lynx").has("landed")
    refused(game, "@blue dismount bruno", "in the air: men get off once it has landed", rule="BI-R256")


def test_trained_men_fast_rope_from_a_hovering_helicopter(long_game):
    game = long_game
    goto(game, "move-first")
    play(game, "@blue land lynx", "@blue mount bruno lynx", "@blue mount rico lynx")
    goto(game, "move-first", 2)
    play(game, "@blue land lynx")  # takes off
    goto(game, "move-first", 3)
    play(game, "@blue hover lynx")
    assert unit(game, "lynx").has("hovering") and unit(game, "lynx").has("moved")
    refused(
        game,
        "@blue dismount bruno",
        r"Pte Bruno is not trained to fast-rope \(BI-R257\): Lynx must land",
        rule="BI-R257",
    )
    facts = play(game, "@blue dismount rico")
    assert [plain(e.how) for e in facts if isinstance(e, ev.Moved)] == ["fast-ropes down from Lynx: half his move"]
    assert not unit(game, "rico").has("aboard-lynx") and unit(game, "rico").has("moved")
    # hovering is the helicopter's move: it neither flies nor lands again this turn
    refused(game, "@blue move lynx 30 dice=3", "already moved this turn", rule="BI-R030")
    # and it lasts the turn only
    goto(game, "move-first", 4)
    assert not unit(game, "lynx").has("hovering")
    refused(game, "@blue dismount bruno", "rope down while it hovers", rule="BI-R256")


def test_a_landed_helicopter_does_not_hover(game):
    """Rules: BI-R256."""
    goto(game, "move-first")
    play(game, "@blue land lynx")
    goto(game, "move-first", 2)
    refused(game, "@blue hover lynx", "has landed: men get off it as from any vehicle", rule="BI-R257")
    refused(game, "@blue hover lince", "Lince is not a helicopter", rule="BI-R257")


def test_an_aircraft_shot_down_never_attacks_and_a_damaged_one_may_return(game):
    """Rules: BI-R262, BI-AMB-55."""
    goto(game, "fire-veteran")
    play(game, "@blue call fo air dice=1")
    facts = play(game, "@red aa zaid aircraft dice=3,5")
    # MANPADS vs aircraft 2 + 1 = 3: hit; 1d6 = 5: damaged, breaks off
    assert plain(rolls(facts)[1].outcome) == "damaged: it breaks off"
    assert game.state.vars["aircraft.blue"] == "damaged:1"
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ffe fo dice=4")
    assert plain(rolls(facts)[0].outcome) == "not this turn"


def test_an_rpg_cannot_reach_an_aircraft_and_a_shot_down_one_never_comes(game):
    """Rules: BI-R260, BI-R261, BI-R262, BI-AMB-53."""
    from core.rulesets.bassa_intensita.commands.air import aa_chance
    from core.rulesets.bassa_intensita.tables import air

    rocket = next(r for r in air().aa if r.weapon == "at-rocket")
    assert aa_chance(rocket, "aircraft", "elite", False)[0] == 0  # NO
    assert aa_chance(rocket, "helicopter", "rabble", False)[0] == 0  # 1 - 2
    cannon = next(r for r in air().aa if r.weapon == "aa-cannon")
    assert aa_chance(cannon, "helicopter", "elite", True)[0] == 2  # (2 + 2) / 2
    goto(game, "fire-veteran")
    play(game, "@blue call fo air dice=1")
    play(game, "@red aa zaid aircraft dice=1,2")
    assert game.state.vars["aircraft.blue"] == "down"
    goto(game, "fire-veteran", 2)
    refused(game, "@blue ffe fo", "shot down", rule="BI-R262")


# ------------------------------------------------------------------ special rules


def test_mines_and_booby_traps(game):
    """Rules: BI-R132, BI-R220, BI-R221, BI-R222, BI-R223, BI-AMB-59."""
    goto(game, "move-first")
    # AP mine, short distance (2 cm), in the open: 6; damage 6: wounded
    facts = play(game, "mine carlo ap dice=6,7")
    assert rolls(facts, "A.10.3")[0].target == 6 and unit(game, "carlo").has("wounded")
    play(game, "morale carlo dice=1")
    # a booby trap: one man, in the open at short distance whatever his cover
    facts = play(game, "mine bruno trap dice=7")
    assert rolls(facts)[0].target == 6 and plain(rolls(facts)[0].outcome) == "unhurt"
    facts = play(game, "mine ariete ap")
    assert any(isinstance(e, ev.Noted) and "does nothing" in plain(e.text) for e in facts)
    # an AT mine under a tank: penetrates as an AT rocket (6 against a tank)
    facts = play(game, "mine ariete at dice=7")
    assert rolls(facts)[0].target == 6 and plain(rolls(facts)[0].outcome).startswith("not penetrated")
    play(game, "morale ariete dice=1")
    # under a soft vehicle: destroyed on 1-3
    play(game, "mine tecnica at dice=3")
    assert plain(unit(game, "tecnica").out) == "destroyed by an anti-tank mine"
    # a man near an AT mine: only the long distance (1 in the open... 3)
    facts = play(game, "mine hassan at dice=4")
    assert rolls(facts)[0].target == 3


def test_detection_is_not_an_action_and_engineers_do_better(game):
    """Rules: BI-R224, BI-AMB-59."""
    goto(game, "move-first")
    facts = play(game, "detect gino trap dice=4")  # engineer: a trap is normal, 4
    assert rolls(facts)[0].target == 4 and plain(rolls(facts)[0].outcome) == "found it"
    facts = play(game, "detect bruno trap dice=3")  # difficult: 2
    assert rolls(facts)[0].target == 2 and plain(rolls(facts)[0].outcome) == "nothing found"
    play(game, "@blue move bruno 10")
    refused(game, "detect bruno minefield", "too fast", rule="BI-R224")
    play(game, "@blue move capo 8 cautious")
    play(game, "detect capo minefield dice=4")
    assert not unit(game, "gino").has("acted")


def test_rubber_bullets_hit_as_a_carbine_and_wound_less(game):
    """Rules: BI-R230."""
    goto(game, "fire-regular")
    facts = play(game, "@blue fire gino hassan range=10 dice=5,10")
    # carbine, short range: Regular 4 + 1 = 5; damage 10 (dead) counts as wounded
    assert "Rubber bullets" in plain(rolls(facts, "A.9.4")[0].purpose)
    assert unit(game, "hassan").in_play and unit(game, "hassan").has("wounded")


def test_flashbangs_shock_and_tear_gas_halves(game):
    """Rules: BI-R231, BI-R232."""
    goto(game, "fire-regular")
    play(game, "@blue flashbang bruno omar ali")
    assert unit(game, "omar").has("shocked") and unit(game, "ali").has("shocked")
    facts = play(game, "@blue gas capo hassan dice=1")
    assert unit(game, "hassan").has("gassed")
    assert game.state.vars["gas.1"] == "hassan|7"
    play(game, "next")  # fire-recruit
    facts = play(game, "@red fire hassan capo range=10 dice=3,9")
    # Recruit 3, short +1, halved in gas: 2
    assert [r.target for r in rolls(facts, "A.9.4")] == [2, 2]
    goto(game, "move-second", 2)
    refused(game, "@red move hassan 9", r"1 to 8 cm \(in tear gas\)", rule="BI-R040")


def test_a_scout_works_twice_as_far_from_his_leader_and_observes_better(game):
    """Rules: BI-R212."""
    goto(game, "move-first")
    # Vito, a Veteran squad leader, commands to 12 cm; his scout to 24
    facts = play(game, "@blue move sara 8 cautious lead=20")
    assert not rolls(facts)
    facts = play(game, "@blue move vito 8 cautious")
    play(game, "mark hassan hidden")
    goto(game, "observe")
    # stationary infantry in cover: difficult, one step easier for the cautious scout: normal, 5
    facts = play(game, "observe sara hassan cover dice=5")
    assert "(normal)" in plain(rolls(facts)[0].purpose) and plain(rolls(facts)[0].outcome) == "spotted"


def test_covering_fire_at_a_feature_strikes_a_hidden_man_who_fires(game):
    """Rules: BI-R051, BI-R054, BI-AMB-17, BI-AMB-20."""
    play(game, "mark hassan hidden")
    play(game, "next dice=6,1")  # cover phase
    refused(game, "@blue screen carlo feature=orchard", "only automatic weapons", rule="BI-R053")
    play(game, '@blue screen bruno feature="the orchard"')
    assert unit(game, "bruno").has("fired")
    play(game, "next")
    refused(game, "@blue move bruno 5", "already fired", rule="BI-R030")
    goto(game, "fire-recruit")
    # Hassan, hidden in the orchard, tries to fire: Bruno's covering fire strikes first, at half:
    # Regular 4, short +1, ½ = 3; the first shot misses, the second hits; damage 2: shocked
    facts = play(game, "screened bruno hassan range=12 dice=4,3,2")
    assert [r.target for r in rolls(facts, "A.9.4")] == [3, 3]
    assert unit(game, "hassan").has("shocked") and unit(game, "hassan").has("hidden")
    seen = game.log_lines("blue")
    # (the banner in the ruleset's words: this table, a subclass declared in a test, has its domain)
    start = max(i for i, line in enumerate(seen) if "screened" in line.text or "recruits' fire" in line.text)
    assert not any("Hassan" in line.text for line in seen[start:])  # not given away
    refused(game, "screened bruno hassan range=12", "already taken", rule="BI-R051")
    # covering fire is resolved before he can fire (BI-R053): shocked by it, he does not
    # fire in his own tier as the simultaneous fire of the tier would let him (BI-R061;
    # rulings BI-SHOCKED-TIME, BI-TIER-RESULTS)
    assert not unit(game, "hassan").has("struck")
    refused(game, "@red fire hassan bruno range=12", "Hassan is shocked: no fire", rule="BI-R110")


def test_every_command_of_the_ruleset_says_its_dice_rule_and_an_example(game):
    own = [
        c
        for c in game.ruleset.commands()
        if c.name not in ("scenario", "roll", "mark", "clear", "out", "back", "dp", "reveal")
    ]
    assert len(own) >= 29
    for spec in own:
        assert "dice" in spec.help.lower(), spec.name
        assert spec.rule and spec.examples, spec.name
        assert all(e.split()[0] == spec.name for e in spec.examples), spec.name


def test_radio_turret_and_mobility_hits_on_armour(game):
    """Rules: BI-R025, BI-R131, BI-R140, BI-R183, BI-AMB-08, BI-AMB-38, BI-AMB-39."""
    goto(game, "fire-regular")
    # by hand: an AT grenade on the tank's flank: 3 + 2 = 5; a 5 penetrates; damage 2: radio
    facts = play(game, "hit ariete weapon=at-grenade flank dice=5,2")
    assert rolls(facts, "A.12.3")[0].target == 5
    assert unit(game, "ariete").has("radio-out") and not unit(game, "ariete").has("damaged")
    # radio gone: always isolated for morale; an undamaged tank's crew has -2 on the effect
    facts = play(game, "morale ariete dice=9,4")
    assert any(plain(m.label) == "isolated" for m in rolls(facts)[0].mods)
    assert plain(rolls(facts)[1].outcome) == "shocked"  # 4 - 2 = 2
    play(game, "hit ariete weapon=at-grenade dice=1,6")  # turret jammed: it has one
    assert unit(game, "ariete").has("turret-jammed") and unit(game, "ariete").has("damaged")
    play(game, "morale ariete dice=1")
    play(game, "hit lince weapon=at-grenade dice=1,6")  # no turret: a weapon instead
    assert unit(game, "lince").has("weapon-lost-mg")
    play(game, "morale lince dice=1")
    play(game, "hit lince weapon=at-grenade dice=1,3", "morale lince dice=1")
    play(game, "hit lince weapon=at-grenade dice=1,4", "morale lince dice=1")
    assert unit(game, "lince").has("slowed-twice")
    goto(game, "move-first", 2)
    refused(game, "@blue move lince 21 road", "1 to 20 cm road", rule="BI-R045")  # 80 halved twice


def test_a_soft_vehicle_halved_and_a_panicking_crew(game):
    """Rules: BI-R121, BI-AMB-14."""
    goto(game, "fire-veteran")
    facts = play(game, "@blue fire ariete tecnica range=40 dice=2,1")
    # a natural 1 on the unarmoured table is never modified: near miss
    assert plain(rolls(facts, "A.12.2")[0].outcome) == "near miss (natural 1: never modified)"
    # the technical's Rabble crew: 2 + 3 - 2 = 3; a 7 fails; 5: panic. It has not moved
    # onto a road: it flees its off-road allowance, 20 cm, not its road 120 (BI-R045,
    # BI-R182; ruling BI-PANIC, digest BI-AMB-45)
    facts = play(game, "morale tecnica dice=7,5")
    moved = [e for e in facts if isinstance(e, ev.Moved)]
    assert moved[0].cm == 20 and unit(game, "tecnica").has("shocked")
    play(game, "morale tecnica m1 dice=9,6")
    assert plain(unit(game, "tecnica").out) == "abandoned by its crew, who panic (BI-R182)"


def test_a_panicking_vehicle_flees_its_allowance_on_the_road_it_stands_on_as_now(game):
    """BI-R182 (ruling BI-PANIC, digest BI-AMB-45): flight at maximum speed on the ground
    the vehicle stands on, as its allowance is now: on the road it drove onto, the
    technical's 120 cm halved by a mobility hit (BI-R045, ruling BI-MOBILITY): 60."""
    goto(game, "move-second")
    play(game, "@red move tecnica 50 road")
    play(game, "mark tecnica slowed")
    # Rabble 2 + 3 = 5; a 7 fails; 5: panic
    facts = play(game, "morale tecnica m1 dice=7,5")
    assert [e.cm for e in facts if isinstance(e, ev.Moved)] == [60]
    # off the road again (away from the enemy: it is shocked), it flees off-road: 20 halved, 10
    goto(game, "move-second", 2)
    play(game, "@red move tecnica 5 away")
    facts = play(game, "morale tecnica m1 dice=7,5")
    assert [e.cm for e in facts if isinstance(e, ev.Moved)] == [10]


def test_a_squad_leader_is_replaced_by_an_unhurt_man_not_one_who_panicked(game):
    """BI-R028: "one survivor becomes the new leader"; Ali, the squad's best, has just
    panicked and is Shocked: Hassan, unhurt, takes over (ruling BI-LEADER)."""
    play(game, "out omar killed")
    goto(game, "fire-regular")
    # Ali: Regular 4 + 3, isolated -2, commander killed -1 = 4; a 9 fails; 5: panic
    facts = play(game, "morale ali m4 dice=9,5")
    assert plain(rolls(facts)[1].outcome) == "panic" and unit(game, "ali").has("shocked")
    goto(game, "end")
    facts = play(game, "next dice=4")
    # the squad's Quality is still that of its survivors, Regular: 4 or less
    r = rolls(facts, "BI-R028")[0]
    assert (r.target, plain(r.outcome)) == (4, "Hassan takes over (recruit)")
    assert unit(game, "hassan").has("leader") and not unit(game, "ali").has("leader")


def test_motivation_and_landing(game):
    """Rules: BI-R011, BI-AMB-62."""
    play(game, "motivation hassan -1")
    refused(game, "motivation hassan 2", "value must be a whole number from -1 to 1, not '2'", rule=TYPING)
    goto(game, "fire-recruit")
    facts = play(game, "@red fire hassan capo range=10 dice=4,4")
    r = rolls(facts, "A.9.4")[0]
    # Recruit 3 - 1 + short 1 = 3
    assert r.target == 3 and any(plain(m.label) == "motivation" and m.value == -1 for m in r.mods)
    goto(game, "move-first", 2)
    play(game, "@blue land lynx")
    assert unit(game, "lynx").has("landed")
    refused(game, "@red aa zaid lynx", "landed", rule="BI-R260")


def test_hostile_numbers_and_names_are_refused(game):
    goto(game, "cover")
    refused(game, '@blue screen bruno feature="wood|x"', "without '\\|'", rule=TYPING)
    refused(game, f"@blue screen bruno feature={'w' * 61}", "1 to 60 characters", rule=TYPING)
    refused(
        game, "@blue fire capo omar range=-5", "range must be a distance from 0 to 1000 cm: .*not '-5'", rule=TYPING
    )
    goto(game, "move-first")
    refused(game, "@blue move bruno 5 lead=-3", "lead must be a distance from 0 to 1000 cm: .*not '-3'", rule=TYPING)
    goto(game, "fire-veteran")
    refused(
        game, "@blue call fo dedicated mm=99999", "mm must be a whole number from 1 to 1000, not '99999'", rule=TYPING
    )
    refused(game, "morale omar m4 near=-2", "near must be a whole number from 0 to 50, not '-2'", rule=TYPING)


def test_a_fallen_replacement_is_replaced_one_level_below_him(long_game):
    """Rules: BI-AMB-09."""
    game = long_game
    play(game, "out omar killed")
    goto(game, "end")
    play(game, "next dice=1")  # Ali takes over as a Recruit
    play(game, "out ali killed")
    goto(game, "end", 2)
    facts = play(game, "next dice=1")
    # Hassan alone, a Recruit: 3 or less; one level below Ali's Recruit ability
    assert plain(rolls(facts, "BI-R028")[0].outcome) == "Hassan takes over (rabble)"


def test_smoke_and_gas_lift_when_their_time_is_over(tmp_path, monkeypatch):
    """Rules: BI-R171, BI-R232, BI-AMB-61."""
    monkeypatch.setattr(_Table, "turns", 9)
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", _Table)
    with closing(Game.new(tmp_path / "bi9.ft", "bassa-intensita", seed=3)) as game:
        game.execute("scenario table", role=REFEREE)
        goto(game, "move-first")
        play(game, "@blue smoke bruno dice=1")  # 6 + 1 turns: turns 1 to 7
        goto(game, "fire-regular")
        play(game, "@blue gas capo hassan dice=2")  # 6 + 2 turns: 1 to 8
        goto(game, "end", 7)
        facts = play(game, "next")
        assert game.state.vars["smoke.1"] == "" and unit(game, "hassan").has("gassed")
        assert any(
            isinstance(e, ev.Noted) and plain(e.text) == "the smoke grenade (5 x 20 cm, within 10 cm of him) lifts"
            for e in facts
        )
        goto(game, "end", 8)
        play(game, "next")
        assert game.state.vars["gas.1"] == "" and not unit(game, "hassan").has("gassed")


def test_a_damaged_aircraft_comes_back_in_a_later_fire_phase_not_this_one(long_game):
    """A.15.3: Blue's observer calls an aircraft in turn 1; it is due in turn 2's fire phase.
    In turn 2's movement phase Zaid's MANPADS fires at it as opportunity fire (chance 2 + 1
    veteran = 3, halved and rounded up to 2): his 1d10 of 1 hits, and 1d6 of 5 damages it.  It
    "does not complete its attack": in this turn's fire phase it cannot come back, even on a 6;
    in the next turn's fire phase a 6 on 1d6 brings it back, and it attacks.

    Rules: BI-R260, BI-R261, BI-R262, BI-AMB-55.
    """
    game = long_game
    goto(game, "fire-veteran")
    play(game, "@blue call fo air dice=1")
    goto(game, "move-first", 2)
    facts = play(game, "@red aa zaid aircraft dice=1,5")
    assert rolls(facts)[0].target == 2
    assert plain(rolls(facts, "BI-R262")[0].outcome) == "damaged: it breaks off"
    goto(game, "fire-veteran", 2)
    refused(game, "@blue ffe fo dice=6", "next fire phase", rule="BI-R262")
    goto(game, "fire-veteran", 3)
    # back on a 6; its strike is precise (1d10 of 1 under 5) and a bull's-eye (1d10 of 1)
    facts = play(game, "@blue ffe fo dice=6,1,1")
    assert plain(rolls(facts, "BI-R262")[0].outcome) == "it comes back and attacks"
    assert plain(rolls(facts, "A.11")[0].outcome) == "bull's-eye"


def test_next_takes_every_check_due_asking_only_the_cover_no_fire_line_gave(game):
    """Rules: A.13.1, BI-R181 (ruling BI-MORALE-NEXT): one casualty makes three checks
    due; ``next`` walks them in one command, asking the cover of Ali and Hassan (their
    leader's M6) and not Omar's, which the fire line gave; at the table each check's die
    is asked in the same sequence."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 heavy dice=1,7,9")  # a hit, wounded: Omar checks (M7), his men (M6)
    assert unit(game, "omar").has("morale-cover-heavy")
    asked: list[str] = []
    answers: list[str] = []
    faces: list[int] = []
    table = iter([4, 4, 5, 4])  # the faces the table rolls, in turn
    while True:
        result = game.submit("next", role=REFEREE, faces=faces, answers=answers)
        if isinstance(result, AnswerNeeded):
            asked.append(result.question.text())
            answers.append({"Ali": "l", "Hassan": "none"}[result.question.whose])
        elif isinstance(result, DiceNeeded):
            asked.append(result.request.text())
            faces.append(next(table))
        else:
            break
    assert isinstance(result, Outcome), result
    # Omar: Regular 4 + 3, wounded -3, under fire -2, heavy cover +2 = 4: a 4 passes.
    # Ali: 4 + 3, fire -2, light +1 = 6: a 4 passes; Hassan (Recruit 3) + 3 - 2 = 4: a 5 fails
    assert asked == [
        "Omar's morale (the check that is due): 1d10, needs 4 or less (regular Quality +4, morale +3, wounded -3, "
        "in heavy cover +2, under HE or automatic fire -2)",
        "Ali's cover for his morale check (BI-R181)",
        "Ali's morale (the check that is due): 1d10, needs 6 or less (regular Quality +4, morale +3, "
        "in light cover +1, under HE or automatic fire -2)",
        "Hassan's cover for his morale check (BI-R181)",
        "Hassan's morale (the check that is due): 1d10, needs 4 or less (recruit Quality +3, morale +3, "
        "under HE or automatic fire -2)",
        "Hassan's morale effect: 1d6",
    ]
    assert [plain(r.outcome) for r in rolls(result.events, "A.13.2")] == ["passed", "passed", "failed: roll the effect"]
    assert not any(unit(game, u).has("morale-due") for u in ("omar", "ali", "hassan"))
    assert game.state.phase != "fire-regular"


def test_next_with_its_own_dice_asks_the_cover_but_a_script_takes_none(game):
    """Rules: A.13.1 (ruling BI-MORALE-NEXT): the game's own dice still need the cover
    (the client asks it); given no answers at all (a script), a cover is none."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,7,9")
    result = game.submit("next", role=REFEREE, answers=[])
    assert isinstance(result, AnswerNeeded) and result.question.whose == "Omar"
    refused = game.submit("next", role=REFEREE, answers=["hedge"])
    assert isinstance(refused, Refusal) and "answer one of: none, light, heavy, trench" in refused.why
    facts = play(game, "next dice=1,1,1")
    assert [r.target for r in rolls(facts, "A.13.2")] == [2, 5, 4]  # no cover for any of them
    assert game.state.phase != "fire-regular"


def test_next_asks_for_an_enemy_near_only_when_a_check_comes_to_surrender(game):
    """Rules: BI-R182 (ruling BI-MORALE-NEXT): Omar fails (3 against 2) and rolls 6, Surrender:
    only then is the table asked whether an enemy is near; yes, and he surrenders."""
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,7,9")
    asked = game.submit("next", role=REFEREE, faces=[3, 6], answers=["none"])
    assert isinstance(asked, AnswerNeeded)
    assert asked.question.text() == "Omar's surrender: a visible enemy within 12 cm to surrender to? (BI-R182)"
    facts = play(game, "next answers=none,yes,none,none dice=3,6,1,1")
    assert [plain(r.outcome) for r in rolls(facts, "A.13.3")] == ["surrender"]
    assert plain(unit(game, "omar").out) == "surrendered (BI-R182)"
    assert not any(unit(game, u).has("morale-due") for u in ("ali", "hassan"))


def test_a_surrender_asked_after_sealed_dice_keeps_its_dice(tmp_path, monkeypatch):
    """Rules: BI-R182 (issue #60): with sealed dice, the answer to "an enemy to surrender to?"
    continues the command that asked it, with the dice that gave the Surrender: not the
    command drawn again with fresh dice (which refused the answer as one too many)."""
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", _Table)
    game = Game.new(tmp_path / "sealed.ft", "bassa-intensita")  # no seed: its dice are sealed
    game.execute("scenario table", role=REFEREE)
    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,7,9")  # Omar wounded: his check needs 2 or less
    contributions = (n.to_bytes(CONTRIBUTION_BYTES, "big") for n in itertools.count())

    def asks_surrender(contribution: bytes) -> bool:
        # Whether next, with this contribution, fails Omar's check and rolls his effect a 6:
        # Surrender (A.13.3), which asks for an enemy to surrender to. Nothing written, nothing kept.
        try:
            share = Share(contribution, game.sealing.seal())
            game._resolve(game.parse("next", REFEREE), {"role": REFEREE, "answers": ["none"]}, share)
        except NeedAnswer as asked:
            return str(asked).startswith("Omar's surrender")
        return False

    with monkeypatch.context() as probing:
        probing.setattr(game.sealing, "ask_later", lambda *args: None)
        surrender = next(filter(asks_surrender, contributions))
    asked = game.submit("next", role=REFEREE, answers=["none"], saw=game.sealing.seal(), contribution=surrender)
    assert isinstance(asked, AnswerNeeded) and asked.question.whose == "Omar"
    assert asked.question.text().startswith("Omar's surrender")
    # The prompt cancelled and the command given again, however spelt: the same dice, the same question.
    for spelt in ("next", "end", "NEXT answers=none"):
        assert game.submit(spelt, role=REFEREE, answers=[] if "=" in spelt else ["none"]) == asked
    # Answered as the clients answer: the command again, its answers so far and the new one;
    # a browser seat sends a fresh contribution with each line, which does not re-roll it.
    answers = ["none", "yes"]
    result = game.submit(
        "next",
        role=REFEREE,
        answers=answers,
        saw=game.sealing.seal(),
        contribution=secrets.token_bytes(CONTRIBUTION_BYTES),
    )
    while isinstance(result, AnswerNeeded):  # Ali's and Hassan's covers, and what their own dice ask
        answers.append("none" if "none" in result.question.options() else "no")
        result = game.submit("next", role=REFEREE, answers=answers)
    assert isinstance(result, Outcome), result
    (effect,) = [e for e in result.events if isinstance(e, ev.SealedRoll) and e.roll.rule == "A.13.3"][:1]
    assert (effect.contribution, effect.draw, effect.roll.faces) == (surrender.hex(), 1, (6,))
    assert plain(effect.roll.outcome) == "surrender"
    assert plain(unit(game, "omar").out) == "surrendered (BI-R182)"
    game.close()


def test_an_italian_referee_answers_the_cover_in_his_words(game):
    """A question's answers are named as the command's choices are (msgctxt choice): an
    Italian referee types ``pesante`` and the check takes heavy cover."""
    from core.language.reader import reading

    goto(game, "fire-regular")
    play(game, "@blue fire capo omar range=20 dice=1,7,9")
    with reading("it"):
        asked = game.submit("next", role=REFEREE, answers=[])
        assert "pesante" in " ".join(asked.question.options())
        facts = game.execute("next dice=1,1,1", role=REFEREE, answers=["pesante", "n", "n"]).events
    # Omar: Regular 4 + 3, wounded -3, under fire -2, heavy cover +2 = 4
    assert [r.target for r in rolls(facts, "A.13.2")] == [4, 5, 4]
