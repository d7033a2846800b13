"""Bassa Intensità 1.9: tables against the rulebook, rules with exact dice, and the
turn machine driven through whole turns."""

from __future__ import annotations

import re
from contextlib import closing
from pathlib import Path

import pytest
from playing import names, play, refused

from core.dice.faces import NeedDice
from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused
from core.rulesets.bassa_intensita import rules
from core.rulesets.bassa_intensita.tables import (
    difficulties,
    hit_modifiers,
    move_modes,
    observation,
    tiers,
    weapons,
)

BOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "bassa-intensita-1.9-it.md"


@pytest.fixture(scope="module")
def book_lines() -> list[str]:
    if not BOOK.exists():
        pytest.skip(f"rulebook not found at {BOOK}")
    return BOOK.read_text(encoding="utf-8").splitlines()


def _row(lines: list[str], label: str) -> list[str]:
    """The tab-separated cells after ``label`` on the first line that starts with it."""
    for line in lines:
        cells = [c.strip() for c in line.split("\t")]
        cells = [c for c in cells if c]
        if cells and cells[0].startswith(label):
            return cells[1:]
    raise AssertionError(f"no row {label!r} in the rulebook")


def _cm(cell: str) -> int | None:
    return None if cell == "NO" else int(re.search(r"[0-9]+", cell).group())


# ------------------------------------------------------------------ tables vs book


def test_quality_table_matches_the_book(book_lines):
    """Rules: BI-R010."""
    assert [t.id for t in tiers()] == ["elite", "veteran", "regular", "recruit", "rabble"]
    for t in tiers():
        assert int(_row(book_lines, t.it)[0]) == t.chance


def test_weapons_table_matches_the_book(book_lines):
    """Rules: BI-R070, BI-R075."""
    start = book_lines.index(next(line for line in book_lines if line.startswith("ARMA\tCOLPI")))
    table = book_lines[start : start + 30]
    for w in weapons().values():
        cells = _row(table, w.it)
        assert int(cells[0]) == w.shots, w.id
        assert cells[1] == ("HE" if w.he else "Singolo"), w.id
        assert [_cm(c) for c in cells[2:5]] == [w.short, w.normal, w.long], w.id
    # the assault rifle's area row is the only one with its own ranges (BI-AMB-05)
    ar_area = table[table.index(next(x for x in table if x.startswith("Fucile d'Assalto"))) + 1].split("\t")
    ar = weapons()["assault-rifle"]
    assert [_cm(c) for c in ar_area[3:6]] == [ar.area_short, ar.area_normal, ar.area_long]
    assert "4 x 10" in ar_area[2] and ar.area == "4 x 10"


def test_hit_modifiers_match_the_book(book_lines):
    """Rules: BI-R080, BI-AMB-02."""
    start = book_lines.index(next(line for line in book_lines if "SITUAZIONE\tMODIFICA" in line))
    table = book_lines[start : start + 25]
    for m in hit_modifiers().values():
        line = next(x for x in table if m.it in x)
        value = line.rstrip().split("\t")[-1].replace(" ", "") or line.split("\t")[-2].replace(" ", "")
        if m.halves:
            assert value == "½", m.id
        else:
            assert int(value) == m.add, m.id
        if m.max_cm is not None:
            assert f"{m.max_cm}" in line, m.id


def test_movement_actions_and_observation_match_the_book(book_lines):
    """Rules: BI-R040, BI-R066, BI-R165."""
    for mode in move_modes().values():
        assert _cm(_row(book_lines, mode.it)[0]) == mode.cm
    chances = {"Automatica": "automatic", "2 x Qualità": 2, "Qualità": 1, "1/2 x Qualità": "half"}
    for d in difficulties()[:-1]:
        book = chances[_row(book_lines, d.it + " (")[0]]
        assert book == ("automatic" if d.automatic else "half" if d.halved else d.times)
    words = {d.it: d.id for d in difficulties()}
    for row in observation().values():
        cells = _row(book_lines, row.it)
        assert [words[c] for c in cells] == [row.infantry, row.open_vehicle, row.closed_vehicle]


# --------------------------------------------------------------------- pure rules


def test_range_bands_follow_the_digest_examples():
    """Rules: BI-R075, BI-R076, BI-AMB-05, BI-AMB-06."""
    w = weapons()
    assert rules.range_band(w["shotgun"], 20) == "long"  # no normal band
    assert rules.range_band(w["hand-grenade"], 12) is None
    assert rules.range_band(w["assault-rifle"], 10, area=True) == "normal"  # no short band in area mode
    assert rules.range_band(w["assault-rifle"], 15) == "short"  # limits are inclusive
    assert rules.range_band(w["mg"], 150, area=True) == "long"  # blank area row: single-target ranges


def test_hit_chance_adds_then_halves_and_rounds_up():
    """Rules: BI-R003, BI-R083, BI-AMB-03, BI-AMB-04."""
    t = hit_modifiers()
    # Veteran, short range, opportunity fire: (5 + 1) / 2 = 3 (BI-R082)
    chance, mods = rules.hit_chance(5, [t["short"], t["opportunity"]])
    assert chance == 3
    assert 5 + sum(m.value for m in mods) == 3
    # two halvings: wounded Regular at opportunity: ceil(4 / 4) = 1
    assert rules.hit_chance(4, [t["wounded"], t["opportunity"]])[0] == 1
    # 5 / 2 = 2.5 rounds up to 3 (BI-R002)
    assert rules.hit_chance(5, [t["covering"]])[0] == 3
    # nothing left: Rabble at long range in heavy cover
    assert rules.hit_chance(2, [t["long"], t["heavy-cover"]])[0] == 0
    assert not rules.succeeds(1, 0)
    assert rules.succeeds(10, 10)


def test_night_rows_depend_on_the_distance():
    """Rules: BI-R081, BI-R084."""
    assert rules.night_modifiers("moon", "", 15) == ["moon-near"]
    assert rules.night_modifiers("moon", "", 40) == ["moon-far"]
    assert rules.night_modifiers("dark", "portable", 90) == ["dark", "intensifier-portable"]
    with pytest.raises(Refused, match="beyond") as no:
        rules.night_modifiers("dark", "", 25)
    names(no.value, "BI-R081")
    with pytest.raises(Refused, match="beyond") as no:
        rules.night_modifiers("moon", "portable", 120)
    names(no.value, "BI-R081")


def test_action_chances_by_quality():
    # digest BI-R066: Elite 12/6/3; Veteran 10/5/3; Regular 8/4/2; Recruit 6/3/2; Rabble 4/2/1
    """Rules: BI-R002."""
    expected = {6: (12, 6, 3), 5: (10, 5, 3), 4: (8, 4, 2), 3: (6, 3, 2), 2: (4, 2, 1)}
    for q, chances in expected.items():
        assert tuple(rules.action_chance(q, d) for d in ("easy", "normal", "difficult")) == chances
    assert rules.action_chance(2, "very-easy") == 10
    assert rules.action_chance(6, "no") == 0


def test_observation_shifts():
    """Rules: BI-R069, BI-R165."""
    assert rules.observation_difficulty("no", target_fired=True, night=False) == "difficult"
    assert rules.observation_difficulty("normal", target_fired=False, night=True) == "difficult"
    assert rules.observation_difficulty("very-easy", target_fired=True, night=False) == "very-easy"
    assert rules.observation_difficulty("difficult", target_fired=False, night=True) == "no"


# ------------------------------------------------------------------- turn machine


@pytest.fixture
def game(tmp_path):
    with closing(Game.new(tmp_path / "bi.ft", "bassa-intensita", seed=11)) as g:
        g.execute("scenario demo", role=REFEREE)
        yield g


def to_next_turn(g: Game, phase: str) -> None:
    """Move on to ``phase`` of the next turn (initiative to folgore, who moves first)."""
    turn = g.state.turn
    while (g.state.turn, g.state.phase) != (turn + 1, phase):
        g.execute("next dice=5,2" if g.state.phase == "initiative" else "next", role=REFEREE)


def rolls(events: list[ev.Event], rule: str = "") -> list[ev.Roll]:
    """The rolls among ``events`` (only those under ``rule`` if given)."""
    return [e.roll for e in events if isinstance(e, ev.Rolled) and (not rule or e.roll.rule == rule)]


def test_a_whole_turn_visits_every_phase_in_order(game):
    """Rules: BI-R061, BI-AMB-11."""
    s = game.state
    assert (s.turn, s.phase) == (1, "initiative")
    facts = play(game, "next dice=2,2,6,1")  # a tie, rolled again (ruling BI-INI-TIE)
    assert [r.faces for r in rolls(facts)] == [(2,), (2,), (6,), (1,)]
    assert any(isinstance(e, ev.Noted) and "tied" in plain(e.text) for e in facts)
    s = game.state
    assert (s.phase, s.active_side, s.vars["first_mover"]) == ("cover", "folgore", "folgore")
    play(game, "next")
    assert (game.state.phase, game.state.active_side, game.state.reacting_side) == ("move-first", "folgore", "militia")
    play(game, "next")
    assert (game.state.phase, game.state.active_side) == ("move-second", "militia")
    seen = []
    for _ in range(7):
        play(game, "next")
        seen.append(game.state.phase)
    assert seen == ["observe", "fire-elite", "fire-veteran", "fire-regular", "fire-recruit", "fire-rabble", "end"]
    play(game, "next")
    assert (game.state.turn, game.state.phase) == (2, "initiative")


def test_the_winner_may_move_second_and_only_he_chooses(game):
    play(game, "next dice=1,4")
    assert game.state.active_side == "militia"
    refused(game, "@folgore order second", "militia won the initiative", rule="ENG-2")
    play(game, "@militia order second")
    play(game, "next")
    assert (game.state.phase, game.state.active_side) == ("move-first", "folgore")
    play(game, "next")
    assert (game.state.phase, game.state.active_side) == ("move-second", "militia")


def test_out_of_turn_commands_are_refused(game):
    refused(game, "@folgore next", "only the referee", rule="ENG-1")
    play(game, "next dice=5,2", "next")  # folgore moves first
    refused(game, "@militia move omar 10", "Folgore patrol's movement", rule="ENG-2")
    refused(game, "@folgore fire marra omar range=20", "cannot fire in its own movement", rule="BI-R050")
    with pytest.raises(Refused, match="cannot move: it is Folgore patrol's movement") as no:
        play(game, "move omar 10")  # the referee too: it is a rule, not a permission
    names(no.value, "ENG-2")
    refused(game, "@folgore act marra normal", "not allowed in the first movement phase", rule="ENG-2")
    play(game, "@folgore next")  # the mover ends his movement himself
    assert game.state.phase == "move-second"
    refused(game, "@folgore next", "only the referee", rule="ENG-1")


def test_the_golden_rule_allows_one_activity_per_turn(game):
    """Rules: BI-R030, BI-R050, BI-R060."""
    play(game, "next dice=5,2", "next", "@folgore move marra 12")
    refused(game, "@folgore move marra 4", "already moved this turn", rule="BI-R030")
    # opportunity fire uses the shooter's one activity: he may not fire again in his tier
    play(game, "@militia fire omar marra range=20 dice=9,9")
    play(game, "next")
    refused(game, "@militia move omar 5", "already fired", rule="BI-R030")
    play(game, "next", "next", "next", "next")
    assert game.state.phase == "fire-regular"
    refused(game, "@militia fire omar sanna range=20", "already fired", rule="BI-R030")
    # the next turn starts afresh
    to_next_turn(game, "move-first")
    play(game, "@folgore move marra 12")


def test_opportunity_fire_is_halved_and_sees_how_the_target_moved(game):
    """Rules: BI-R050."""
    play(game, "next dice=5,2", "next", "@folgore move marra 8 cautious")
    # the hit goes on to its damage roll (a 1: near miss) before the second shot
    facts = play(game, "@militia fire omar marra range=20 dice=2,1,3")
    r = rolls(facts, "A.9.4")
    # Regular 4, cautious target -1, opportunity ½: ceil(3/2) = 2 (BI-R082)
    assert [plain(x.outcome) for x in r] == ["hit: roll damage (A.12)", "miss"]
    assert all(x.target == 2 and x.under for x in r)
    assert sum(m.value for m in r[0].mods) == 2
    assert [plain(x.outcome) for x in rolls(facts, "A.12.1")] == ["near miss"]
    assert game.state.units["marra"].has("morale-due")


def test_fire_tiers_take_only_their_own_quality(game):
    """Rules: BI-R010, BI-R061, BI-R080."""
    play(game, "next dice=5,2", *["next"] * 4)
    assert game.state.phase == "fire-elite"
    refused(game, "fire marra omar range=20", "Veteran Quality", rule="BI-R061")
    facts = play(game, "fire ferrante omar range=10 dice=7,3,8")
    # Elite 6 + short range 1 = 7: a 7 hits (damage 3: shocked), an 8 misses
    assert [plain(x.outcome) for x in rolls(facts, "A.9.4")] == ["hit: roll damage (A.12)", "miss"]
    play(game, "next dice=1")  # Omar's check, due, is taken on the way (passed)
    assert not game.state.units["omar"].has("morale-due")
    # a tier whose units have all acted or are out is passed over
    play(game, "out yusuf")
    play(game, "next")  # fire-veteran → fire-regular
    play(game, "next")  # fire-regular → (no recruit) → fire-rabble
    assert game.state.phase == "fire-rabble"


def test_running_is_not_allowed_two_turns_in_a_row(game):
    """Rules: BI-R040, BI-R041."""
    play(game, "next dice=5,2", "next", "@folgore move sanna 24 running")
    refused(game, "@folgore move deiana 17", "1 to 16 cm", rule="BI-R040")
    to_next_turn(game, "move-first")
    assert game.state.units["sanna"].has("ran")
    refused(game, "@folgore move sanna 20 running", "ran last turn", rule="BI-R041")
    play(game, "@folgore move sanna 16")


def test_aim_gives_an_aimed_shot_next_turn(game):
    """Rules: BI-R085, BI-AMB-19."""
    play(game, "next dice=5,2", *["next"] * 5)
    assert game.state.phase == "fire-veteran"
    play(game, "@folgore aim marra")
    to_next_turn(game, "fire-veteran")
    facts = play(game, "@folgore fire marra omar range=20 dice=6,1,7")
    # Veteran 5 + aimed 1 = 6
    assert [plain(x.outcome) for x in rolls(facts, "A.9.4")] == ["hit: roll damage (A.12)", "miss"]
    assert any(plain(m.label) == "aimed shot" for m in rolls(facts)[0].mods)


def test_bi_r061_an_action_waits_for_its_own_tier(game):
    """BI-R061: actions go by Quality tier as fire does: in the Veterans' fire phase Ferrante
    (Elite, whose tier has passed) may not aim; Marra (Veteran) may."""
    play(game, "next dice=5,2", *["next"] * 5)
    assert game.state.phase == "fire-veteran"
    refused(game, "aim ferrante", "Lt Ferrante acts in his own Quality tier, not in veterans. fire", rule="BI-R061")
    play(game, "@folgore aim marra")
    assert game.state.units["marra"].has("aiming")


def test_isolation_test_failure_costs_the_turn(game):
    """Rules: BI-R024, BI-AMB-07."""
    play(game, "next dice=5,2", "next")
    facts = play(game, "@folgore move deiana 10 isolated dice=6")
    assert not any(isinstance(e, ev.Moved) for e in facts)  # Veteran needs 5 or less
    refused(game, "@folgore move deiana 10", "failed his isolation test", rule="BI-R024")
    facts = play(game, "@folgore move sanna 10 isolated dice=5")
    assert any(isinstance(e, ev.Moved) and e.cm == 10 for e in facts)


def test_a_hidden_man_must_be_observed_before_he_is_fired_at(game):
    """Rules: BI-R160, BI-R161, BI-R163, BI-R164, BI-AMB-63."""
    play(game, "mark omar hidden")
    play(game, "next dice=5,2", "next", "next", "next")
    assert game.state.phase == "observe"
    refused(game, "@folgore fire marra omar range=30", "no unit 'omar'", rule=TYPING)
    # stationary infantry in cover, seen by infantry: difficult, ceil(5/2) = 3 for a Veteran
    facts = play(game, "observe marra omar cover dice=4")
    assert plain(rolls(facts)[0].outcome) == "nothing seen"
    assert "omar" not in game.view("folgore").units
    # the failed roll is not told (the phase's banner, "Turn 1: observation", is)
    told = [line.text for line in game.log_lines("folgore") if not isinstance(line.event, ev.PhaseBegan)]
    assert not any("observation" in text for text in told)
    # one attempt at him at the end of the phase, whoever looks (BI-R164); again at the end of the fire phase
    refused(game, "observe ferrante omar cover dice=3", "one attempt", rule="BI-R164")
    while game.state.phase != "end":
        play(game, "next")
    play(game, "observe ferrante omar cover dice=3")
    assert "omar" in game.view("folgore").units
    refused(game, "observe sanna omar cover", "already seen", rule="BI-R163")


def test_a_shot_in_the_phase_makes_observation_easier(game):
    """Rules: BI-R160, BI-R165."""
    play(game, "next dice=5,2", *["next"] * 5)
    play(game, "mark omar hidden")
    assert game.state.phase == "fire-veteran"
    play(game, "next")  # fire-regular
    play(game, "@militia fire omar deiana range=20 dice=9,9")
    while game.state.phase != "end":
        play(game, "next")
    # Omar fired this phase: difficult → normal, 5 or less for a Veteran
    facts = play(game, "observe marra omar cover dice=5")
    assert "(normal)" in plain(rolls(facts)[0].purpose)
    assert any(isinstance(e, ev.Spotted) and e.unit == "omar" for e in facts)


def test_the_hidden_marksman_fires_only_on_a_low_d6_and_is_seen_only_then(game):
    """Rules: BI-R085, BI-AMB-58."""
    play(game, "next dice=5,2", "next", "next", "next")
    refused(game, "observe marra said cover", "has not fired this turn", rule="BI-R210")
    play(game, "next", "next", "next")
    assert game.state.phase == "fire-regular"
    # a Regular sniper fires on 1-2 (BI-R210): a 3 and he holds his fire
    facts = play(game, "@militia fire said deiana range=50 dice=3")
    assert plain(rolls(facts)[0].outcome) == "he holds his fire"
    assert game.state.units["said"].has("held-fire") and not game.state.units["deiana"].has("wounded")
    while game.state.phase != "end":
        play(game, "next")
    refused(game, "observe marra said cover", "has not fired this turn", rule="BI-R210")
    to_next_turn(game, "fire-regular")
    facts = play(game, "@militia fire said deiana range=50 dice=2,3,5")
    # Regular 4, long -1, sniper's aimed shot +1, bolt action -1 = 3; damage 5 + 1 (sniper): wounded
    assert plain(rolls(facts, "A.9.4")[0].outcome) == "hit: roll damage (A.12)"
    assert plain(rolls(facts, "A.12.1")[0].outcome) == "wounded"
    assert game.state.units["deiana"].has("wounded")
    play(game, "morale deiana dice=1")
    while game.state.phase != "end":
        play(game, "next")
    # seen only by infantry, as a difficult observation, firing or not: 3 for a Veteran
    facts = play(game, "observe marra said cover dice=3")
    assert "(difficult)" in plain(rolls(facts)[0].purpose)
    assert "said" in game.view("folgore").units


def test_the_fire_roll_is_replayed_not_rerolled(game, tmp_path):
    play(game, "next dice=5,2", "next", "@folgore move marra 8")
    play(game, "@militia fire omar marra range=20")
    before = game.state
    path = game.path
    game.close()
    with closing(Game.open(path)) as again:
        assert again.state == before


def test_a_tied_initiative_asks_for_the_same_roll_again_and_says_so(game):
    """A.5.1, ruling BI-INI-TIE: at the table the referee types 2 and 2; the prompt
    that follows is the first side's initiative once more, and says "again" (the
    same words as before would read as a prompt that did not take the faces)."""
    with pytest.raises(NeedDice) as first:
        game.execute("next", role=REFEREE, faces=[])
    with pytest.raises(NeedDice) as retie:
        game.execute("next", role=REFEREE, faces=[2, 2])
    assert first.value.request.again == 0
    assert retie.value.request.again == 1
    assert retie.value.request.text() == first.value.request.text().replace("initiative", "initiative again")
    with pytest.raises(NeedDice) as second_side:
        game.execute("next", role=REFEREE, faces=[2, 2, 6])
    assert second_side.value.request.again == 1
    assert "again" in second_side.value.request.text()


def test_tab_on_an_empty_line_offers_the_phases_commands_first(game):
    """BI-R051: in the covering-fire phase a referee who does not know the words
    finds them by Tab: the commands made for this phase before those of any phase, its
    main ones as A.5.1 plays it (the order to move, covering fire at an enemy, at a
    feature), and a side is not offered the referee's alone."""
    play(game, "next dice=6,2")
    assert game.state.phase == "cover"
    made_for_it = ["order", "fire", "screen", "smoke"]
    assert set(made_for_it) == {s.name for s in game.commands if s.phases and "cover" in s.phases}
    offered = game.complete("", role="referee")
    assert offered[: len(made_for_it)] == made_for_it
    assert "screened" in offered  # the referee's own, for another phase: offered last
    assert offered.index("screened") > offered.index("next")
    side = next(iter(game.state.sides))
    assert "screened" not in game.complete("", side)
    assert game.complete("s", side)[0] == "screen"


def test_a_command_unknown_and_unlike_any_names_those_of_the_phase(game):
    play(game, "next dice=6,2")
    with pytest.raises(Refused) as refused:
        game.parse("overwatch", REFEREE)
    names(refused.value, TYPING)
    # in the order Tab offers them: the phase as A.5.1 plays it
    assert str(refused.value) == "no command 'overwatch'; now: order, fire, screen, smoke"
    with pytest.raises(Refused, match=r"did you mean next\?$") as no:
        game.parse("nxet", REFEREE)  # a near one is still named alone
    names(no.value, TYPING)
