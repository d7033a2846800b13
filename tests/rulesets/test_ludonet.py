"""Ludonet quick rules: tables against the fragment, rules with exact dice, and the
turn machine driven through whole turns."""

from __future__ import annotations

from pathlib import Path

import pytest
from playing import (
    play,
    refused,
)

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.rulesets.ludonet import rules
from core.rulesets.ludonet.tables import areas, fire, melee, morale, movement, vehicles, visibility

BOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "ludonet-quick-rules-it.md"
DIGEST = BOOK.with_name("digest-bassa-intensita-ludonet-linea-di-tiro.md")


@pytest.fixture(scope="module")
def book() -> str:
    if not BOOK.exists():
        pytest.skip(f"rulebook not found at {BOOK}")
    return BOOK.read_text(encoding="utf-8")


# ------------------------------------------------------------------ tables vs book


def test_movement_matches_the_fragment(book):
    for mode in movement().modes:
        assert f"{mode.it}: {mode.cm} cm." in book
    assert f"{movement().heavy_it}: {movement().heavy} cm." in book
    assert "se si ottiene 5 o 6, si è stanchi e non si può correre nei prossimi tre turni" in book
    assert (movement().tired_on, movement().tired_turns) == (5, 3)


def test_fire_matches_the_fragment(book):
    t = fire()
    assert "deve ottenere con il lancio di 1D6, 5 o 6, oppure 4,5 o 6 se il bersaglio è entro metà raggio" in book
    assert (t.full, t.half) == (5, 4)
    assert "ha mosso in questo turno, è ferito o il bersaglio è coricato oppure al riparo, sottraete 1" in book
    assert "Aggiungete 1 se il tiratore è esperto" in book
    assert {m.id: m.value for m in t.modifiers} == {"moved": -1, "wounded": -1, "prone": -1, "cover": -1, "expert": 1}
    assert "con 5/6 è eliminato, con 2/3/4 è ferito e con 1 il colpo è nullo" in book
    assert (t.no_effect_max, t.wound_max) == (1, 4)
    assert "Aggiungere +1, se l'arma che tira è pesante. Con due ferite si viene eliminati" in book
    assert (t.heavy_damage, t.wounds_to_eliminate) == (1, 2)


def test_melee_and_morale_match_the_fragment(book):
    lines = {m.id: m.value for m in melee().modifiers}
    for text, key in (
        ("+1: commandos", "expert"),
        ("+2: figura che attacca alle spalle", "behind"),
        ("-1: soldato coricato", "prone"),
        ("-2: soldato ferito", "wounded"),
    ):
        assert text in book
        assert lines[key] == int(text.split(":")[0])
    assert "subisce il 50% di perdite" in book and "1 o 2 indicano che il morale è scosso" in book
    assert (morale().loss_fraction_num, morale().loss_fraction_den, morale().shaken_max) == (1, 2, 2)


def test_visibility_matches_the_fragment(book):
    v = visibility()
    assert "eccetto mortai o artiglieria, che possono effettuare un tiro indiretto" in book
    assert (
        f"Dentro boschi o macchie la visibilità è ridotta a {v.woods_standing_cm}cm per un uomo in posizione "
        f"eretta; se è sdraiato è visibile solo fino a {v.woods_prone_cm}cm" in book
    )


def test_vehicles_match_the_fragment(book):
    t = vehicles()
    assert (
        "lanciano entrambi un dado, al risultato ottenuto addizionano ciascuno i propri Valori di Combattimento" in book
    )
    assert f"{t.immobilise_it} rispetto al bersaglio, il bersaglio è immobilizzato per due turni (o ferito" in book
    assert f"{t.destroy_it} rispetto a quello del bersaglio, il bersaglio è distrutto" in book
    assert (t.immobilise_min, t.destroy_min, t.immobilised_turns) == (1, 3, 2)


def test_areas_and_leaving_match_the_fragment(book):
    a = areas()
    assert "La granata che esplode ha un raggio di 3cm ed ogni figura compresa nel raggio" in book
    assert a.grenade.radius_cm == 3
    assert "Ogni aereo sul campo di battaglia può effettuare massimo tre passaggi" in book
    assert "colpiscono sempre solo con 5 o 6, provocando un'area di 3cm di diametro" in book
    assert (a.aircraft.passes, a.aircraft.hit_on, a.aircraft.diameter_cm) == (3, 5, 3)
    assert "Le armi di controaerea colpiscono con 5 o 6" in book and a.anti_aircraft.hit_on == 5
    assert "l'avversario godrà di un un ultimo lancio di dado con la modifica di +2" in book
    assert melee().leaving.opponent_bonus == 2


def test_every_table_names_its_digest_section():
    if not DIGEST.exists():
        pytest.skip(f"digest not found at {DIGEST}")
    digest = DIGEST.read_text(encoding="utf-8")
    a = areas()
    tables = {
        "movement": (movement(), "B.3"),
        "visibility": (visibility(), "B.4"),
        "fire": (fire(), "B.5, B.6"),
        "melee": (melee(), "B.8"),
        "morale": (morale(), "B.9"),
        "vehicles": (vehicles(), "B.7"),
        "grenade": (a.grenade, "B.6"),
        "aircraft": (a.aircraft, "B.9"),
        "anti-aircraft": (a.anti_aircraft, "B.9"),
        "artillery": (a.artillery, "B.4"),
    }
    for name, (table, section) in tables.items():
        assert table.section == section, name
        for s in section.split(", "):
            assert f"\n## {s} " in digest, name
        for rule in table.rule.replace("..", ", ").split(", "):
            rule = rule if rule.startswith("LN-") else "LN-" + rule
            assert f"**{rule}" in digest, (name, rule)


def test_the_rulings_leave_nothing_unencoded():
    rulings = (Path(__file__).resolve().parents[2] / "docs" / "rulings.md").read_text(encoding="utf-8")
    ludonet = rulings[rulings.index("## Ludonet quick skirmish rules") :]
    assert "not encoded" not in ludonet.lower()  # no rule of the fragment is left out
    for ruling in ("LN-GRENADE", "LN-VS-INFANTRY", "LN-LEAVE", "LN-AIR", "LN-AA", "LN-REINFORCE", "LN-END"):
        assert f"| {ruling} |" in ludonet


# --------------------------------------------------------------------- pure rules


def test_to_hit_needs():
    """Rules: LN-R030, LN-R031, LN-AMB-05."""
    assert rules.to_hit_needed(False, ()) == 5
    assert rules.to_hit_needed(True, ()) == 4
    mods = rules.to_hit_mods(["moved", "prone", "cover"])  # cumulative (ruling LN-MODS)
    assert rules.to_hit_needed(True, mods) == 7  # cannot hit
    assert rules.to_hit_needed(False, rules.to_hit_mods(["expert"])) == 4
    assert not rules.hits(6, 7) and rules.hits(4, 4)


def test_damage_and_melee():
    """Rules: LN-R035, LN-R036, LN-R050."""
    assert [rules.damage(f, heavy=False) for f in range(1, 7)] == ["none"] + ["wound"] * 3 + ["eliminated"] * 2
    assert rules.damage(1, heavy=True) == "wound"
    assert rules.damage(4, heavy=True) == "eliminated"
    assert rules.melee_winner(5, 5) == "tie" and rules.melee_winner(6, 5) == "a" and rules.melee_winner(1, 3) == "b"


def test_morale_is_due_at_half_losses():
    """Rules: LN-R070."""
    assert not rules.morale_due(5, 2) and rules.morale_due(5, 3) and rules.morale_due(4, 2)
    assert not rules.morale_due(4, 0) and not rules.morale_due(4, 4)  # nobody left to test
    assert rules.shaken(2) and not rules.shaken(3)


# ------------------------------------------------------------------- turn machine


@pytest.fixture
def game(tmp_path):
    g = Game.new(tmp_path / "ln.ft", "ludonet", seed=9)
    g.execute("scenario demo", role=REFEREE)
    yield g
    g.close()


def rolls(events):
    return [e.roll for e in events if isinstance(e, ev.Rolled)]


def test_written_deployment_is_each_sides_secret(game):
    """Rules: LN-R001."""
    assert game.state.phase == "deployment"
    assert set(game.view("paras").secrets) == {"deployment.paras"}
    assert set(game.view("garrison").secrets) == {"deployment.garrison"}
    assert "mg42" not in game.view("paras").units


def test_the_first_player_is_rolled_once_and_keeps_moving_first(game):
    """Rules: LN-R002, LN-AMB-01."""
    facts = play(game, "next dice=4,4,2,6")  # a tie, then garrison wins
    assert [r.faces for r in rolls(facts)] == [(4,), (4,), (2,), (6,)]
    s = game.state
    assert (s.turn, s.phase, s.active_side, s.vars["first_player"]) == (1, "move-first", "garrison", "garrison")
    phases = []
    for _ in range(7):
        facts = play(game, "next")
        assert not rolls(facts)
        phases.append((game.state.turn, game.state.phase, game.state.active_side))
    assert phases == [
        (1, "move-second", "paras"),
        (1, "reveal", ""),
        (1, "fire", ""),
        (1, "melee", ""),
        (1, "morale", ""),
        (1, "end", ""),
        (2, "move-first", "garrison"),  # no new roll: first player is fixed for the scenario
    ]


def test_out_of_turn_commands_are_refused(game):
    refused(game, "@paras next", "only the referee", rule="LN-AMB-01")
    play(game, "next dice=6,1")
    refused(game, "@garrison move hans 5", "7th Parachute Battalion's move", rule="LN-AMB-01")
    refused(game, "move hans 5", "cannot move: it is 7th Parachute Battalion's move", rule="LN-AMB-01")
    refused(game, "@paras fire smith hans half", "not allowed in the first movement phase", rule="ENG-2")
    play(game, "@paras move smith 10", "@paras next")
    assert game.state.active_side == "garrison"
    play(game, "@garrison move hans 5")
    refused(game, "@garrison move hans 5", "already moved", rule="LN-R010")
    refused(game, "@paras next", "Farm garrison's move", rule="LN-AMB-01")


def test_movement_allowances_and_fatigue(game):
    """Rules: LN-R010, LN-R012, LN-AMB-19, LN-AMB-24."""
    play(game, "next dice=6,1")
    refused(game, "@paras move smith 11", "1 to 10 cm", rule="LN-R010")
    refused(game, "@paras move bren 14 run", "cannot run", rule="LN-AMB-24")
    refused(game, "@paras move bren 6", "1 to 5 cm", rule="LN-R010")
    facts = play(game, "@paras move jones 14 run dice=5")
    assert plain(rolls(facts)[0].outcome) == "tired: no running for 3 turns"
    play(game, "@paras move wood 14 run dice=4")
    assert not game.state.units["wood"].has("tired-3")
    # tired in turn 1: no running in turns 2, 3 and 4; free again in turn 5
    for turn in (2, 3, 4):
        while (game.state.turn, game.state.phase) != (turn, "move-first"):
            play(game, "next")
        refused(game, "@paras move jones 14 run", "tired", rule="LN-R012")
    while (game.state.turn, game.state.phase) != (5, "move-first"):
        play(game, "next")
    play(game, "@paras move jones 14 run dice=1")


def test_fire_is_simultaneous(game):
    """Rules: LN-R035, LN-R037, LN-AMB-21, LN-AMB-25."""
    play(game, "next dice=6,1", "@paras move smith 10", "next", "next", "clear mg42 hidden", "next")
    assert game.state.phase == "fire"
    # Smith moved (-1) but is expert (+1): 4+ within half range; damage 3 = wound
    facts = play(game, "@paras fire smith hans half dice=4,3")
    assert [(r.target, plain(r.outcome)) for r in rolls(facts)] == [(4, "hit"), (None, "wound")]
    # Hans is hit but still fires back in the same phase (LN-R021)
    facts = play(game, "@garrison fire hans smith half dice=5,6")
    assert plain(rolls(facts)[1].outcome) == "eliminated"
    assert game.state.units["smith"].in_play and game.state.units["hans"].in_play
    refused(game, "@paras fire smith kurt full", "already fired", rule="LN-R030")
    # two wounds in one phase eliminate: Jones and Wood both wound Kurt
    play(game, "@paras fire jones kurt full dice=5,2", "@paras fire wood kurt full dice=6,4")
    play(game, "next")
    s = game.state
    assert s.phase == "melee"
    assert plain(s.units["smith"].out) == "eliminated"
    assert plain(s.units["kurt"].out) == "eliminated"
    assert s.units["hans"].in_play and s.units["hans"].has("wounded")
    assert not any(u.has("hit-wound") or u.has("hit-kill") for u in s.units.values())


def test_heavy_weapon_and_hidden_targets(game):
    """Rules: LN-R036."""
    play(game, "next dice=6,1", "@paras move brown 3 crawl", "next", "next", "next")
    refused(game, "@paras fire bren mg42 full", "no unit 'mg42'", rule=TYPING)
    # the crawler lies down: -1 to hit him; the MG 42's damage +1 turns a 4 into elimination
    facts = play(game, "@garrison fire mg42 brown full dice=6,4")
    assert rolls(facts)[0].target == 6
    assert plain(rolls(facts)[1].outcome) == "eliminated"


def test_melee_and_morale(game):
    """Rules: LN-R050, LN-R051, LN-AMB-12."""
    play(game, "next dice=6,1", *["next"] * 4)
    assert game.state.phase == "melee"
    facts = play(game, "@paras melee smith hans behind dice=3,5")  # 3 + 1 expert + 2 behind = 6 > 5
    assert plain(rolls(facts)[0].outcome) == "total 6"
    assert plain(game.state.units["hans"].out) == "eliminated in melee by Cpl Smith"
    facts = play(game, "@paras melee jones fritz dice=3,4")  # 3 + 1 = 4: a tie
    assert any(isinstance(e, ev.Noted) and "fight on" in plain(e.text) for e in facts)
    play(game, "out kurt", "next")
    assert game.state.phase == "morale"
    refused(game, "@garrison morale Gruppe Vogt", "lost 2 of 5", rule="LN-R070")
    play(game, "out otto")
    facts = play(game, "@garrison morale gruppe vogt dice=2")
    assert plain(rolls(facts)[0].outcome) == "shaken: falls back"
    assert game.state.units["fritz"].has("retreating")
