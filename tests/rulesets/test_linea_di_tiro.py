# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro 1.0: tables against the rulebook, the card machine driven with a
deck of known order, activations, fire with exact dice, and replay of the deck."""

from __future__ import annotations

from contextlib import closing

import pytest
from linea_di_tiro_support import (  # noqa: F401  (fixtures)
    FIRST,
    artillery,
    book,
    faces_for,
    game,
    inject,
    piece,
    play,
    rolls,
    stacked,
)  # noqa: F401  (fixtures)
from playing import names, refused

from core.game import Game
from core.language.i18n import plain
from core.language.reader import reading
from core.log import events as ev
from core.log.outcome import AnswerNeeded, Outcome, Refusal
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused
from core.rulesets.linea_di_tiro import rules
from core.rulesets.linea_di_tiro.tables import at_table, deck, mg_table, morale, options


def _grid(book: str, heading: str, rows: int) -> list[list[str]]:
    """The result letters of the table under ``heading``: one list per die row."""
    lines = book.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    body = [cells for cells in (line.split("\t") for line in lines[start:]) if cells[0].isdigit()]
    return [cells[1:] for cells in body[:rows]]


def _by_rows(table) -> list[list[str]]:
    return [[c.results[r] for c in table.columns] for r in range(len(table.columns[0].results))]


# ------------------------------------------------------------------ tables vs book


def test_the_deck_is_the_books(book):
    """Rules: LT-AMB-06."""
    cards = deck().cards()
    assert len(cards) == 54 and cards.count("Joker") == 2  # LT-R002
    assert len(set(cards)) == 53
    assert "54 carte" in book and "Quando mancano 10 carte" in book
    assert deck().reshuffle_at == 10
    # hearts or diamonds: the allied player; spades or clubs: the axis player (LT-R010)
    assert "cuori o quadri il giocatore alleato" in book and "picche o fiori lo fa il giocatore dell'asse" in book
    assert {s.name: s.army for s in deck().suits} == {
        "hearts": "allied",
        "diamonds": "allied",
        "spades": "axis",
        "clubs": "axis",
    }
    assert deck().kind("A♠") == "number" and deck().kind("Q♥") == "face" and deck().kind("Joker") == "joker"


def test_activation_options_are_the_books_seven(book):
    """Rules: LT-R020."""
    section = book.split("## Attivazione")[1].split("##")[0]
    bullets = [line for line in section.splitlines() if line.startswith("- ")]
    assert len(bullets) == len(options()) == 7
    assert "2 attacchi" in bullets[3] and options()["A4"].attacks == 2
    assert "piena velocità" in bullets[4] and options()["A5"].speed
    assert "immobilizzazione" in bullets[6] and options()["A7"].recover


def test_at_table_matches_the_book(book):
    """Rules: LT-R050, LT-AMB-15."""
    assert _grid(book, "## TIRO CONTROCARRO", 7) == _by_rows(at_table())
    heads = book.split("## TIRO CONTROCARRO")[1].splitlines()[3].split("\t")[1:]
    assert heads == [c.label for c in at_table().columns]
    assert "8+\t- nessun effetto -" in book and at_table().no_effect_from == 8
    assert "alla lunga distanza nessun effetto con un risultato >6" in book and at_table().long_range_max == 6
    mods = {m.id: m.value for m in at_table().modifiers}
    assert mods == {"hull-down": 1, "close": -1}
    assert '"scafo sotto" +1' in book and 'distanza ≤5 cm o "imboscata" -1' in book


def test_mg_table_and_defences_match_the_book(book):
    """Rules: LT-R060."""
    assert _grid(book, "## ALTRI TIRI", 5) == _by_rows(mg_table())
    assert "6\tnessun effetto" in book and mg_table().no_effect_from == 6
    defences = {d.id: d.value for d in mg_table().defences}
    for phrase, keys in {
        "fant. in movimento allo scoperto 0": ["moving-open"],
        'fant. in "balzo" allo scoperto +2': ["bound-open"],
        'mezzi "aperti" +3': ["bound-protected", "still-open", "open-vehicle"],
        "fant. e art. in posizione preparata +4": ["prepared"],
        "carri leggeri, autoblindo +4": ["light-tank"],
        "fant. trincerata, altri carri +5": ["entrenched", "tank"],
    }.items():
        assert phrase in book
        value = int(phrase.rsplit(" ", 1)[1])
        assert all(defences[k] == value for k in keys), phrase


def test_morale_rule_reads_the_split_sentence(book):
    """Rules: LT-R080."""
    assert "doppio del valore di morale" in book and "indietreggia di 5 cm" in book
    assert morale().flee_times == 2 and morale().fall_back_cm == 5


# --------------------------------------------------------------------- pure rules


def test_results_read_from_the_tables():
    """Rules: LT-R050, LT-R060."""
    assert rules.at_result(5, 5, 5, long_range=False) == "T"
    assert rules.at_result(5, 5, 4, long_range=False) == "R"
    assert rules.at_result(9, 2, 7, long_range=False) == "D"  # +7 is in the ≥+5 column
    assert rules.at_result(9, 2, 7, long_range=True) == "-"  # above 6 at long range
    assert rules.at_result(1, 5, 1, long_range=False) == "R"  # ≤-3
    assert rules.at_result(5, 5, 8, long_range=False) == "-"
    assert rules.mg_result(3, 3, 2) == "I"
    assert rules.mg_result(6, 0, 3) == "D"
    assert rules.mg_result(6, 0, 6) == "-"
    assert rules.mg_result(1, 3, 0) == "I"  # below 1 reads as row 1


def test_morale_results():
    """Rules: LT-R080, LT-AMB-01."""
    assert [rules.morale_result(t, 3) for t in (3, 4, 5, 6, 7)] == ["steady", "fall-back", "fall-back", "flee", "flee"]


def test_restack_keeps_the_ten_on_top():
    """Rules: LT-R011."""
    order = deck().cards()
    new = rules.restack(order, 44, list(reversed(order[:44])))
    assert new[:10] == order[44:] and sorted(new) == sorted(order)
    with pytest.raises(ValueError):
        rules.restack(order, 44, order[1:45])


# ---------------------------------------------------------------- the card machine


def test_the_shuffle_is_the_referees_secret(game):
    """Rules: LT-R002."""
    assert game.state.vars["secret.deck"].split(",") == stacked()
    assert game.state.phase == "deployment"
    assert "secret.deck" not in game.view("us").vars

    def deck_lines(role):
        return [line for line in game.log_lines(role) if getattr(line.event, "key", "") == "secret.deck"]

    assert deck_lines("german") == [] and deck_lines("us") == []
    assert [line.text.split(":")[0] for line in deck_lines("referee")] == ["the deck is shuffled"]


def test_next_draws_the_cards_in_order_and_names_the_side(game):
    """Rules: LT-R010."""
    seen = []
    for _ in FIRST:
        facts = play(game, "next")
        began = next(e for e in facts if isinstance(e, ev.PhaseBegan))
        seen.append((began.turn, began.card, began.active))
        assert not rolls(facts)  # drawing rolls nothing
    assert seen == [
        (1, "7♥", "us"),
        (2, "Q♠", "german"),
        (3, "Joker", ""),
        (4, "3♣", "german"),
        (5, "K♦", "us"),
        (6, "2♥", "us"),
    ]
    assert game.state.vars["deck.drawn"] == 6


def test_a_number_card_activates_one_piece_once(game):
    """Rules: LT-R010, LT-R020."""
    play(game, "next")  # 7♥: us
    refused(game, "@german activate panzer A2", "7♥ is US 2nd Armored's", rule="LT-R010")
    refused(game, "activate panzer A2", "7♥ is US 2nd Armored's", rule="LT-R010")  # a rule, for the referee too
    facts = play(game, "@us activate sherman1 A2")
    assert any(isinstance(e, ev.StatusChanged) and e.add == ("A2",) for e in facts)
    assert any(isinstance(e, ev.Noted) and "A2, bound and execute" in plain(e.text) for e in facts)
    refused(game, "@us activate sherman1 A5", "already been activated on this card", rule="LT-R010")
    refused(game, "@us activate sherman2 A5", "activates one piece", rule="LT-R010")
    play(game, "@us next")  # the card's side ends its card: Q♠
    assert game.state.units["sherman1"].status == ()  # the card's badges go with it
    refused(game, "@us next", "Q♠ is Kampfgruppe Heinz's", rule="LT-R010")


def test_a_face_card_activates_one_platoon(game):
    """Rules: LT-R010, LT-AMB-04."""
    play(game, "next", "next")  # Q♠: german, a face card
    play(game, "@german activate panzer A5")
    refused(game, "@german activate grenadiers A1", "activates platoon Zug 1", rule="LT-R010")
    play(game, "@german activate pak A1")  # the hidden gun is in the same platoon
    refused(game, "@german unitmove call-artillery", "already activated a platoon", rule="LT-R010")


def test_a_face_card_may_call_artillery_which_opens_on_the_joker(game):
    """Rules: LT-R090, LT-AMB-07."""
    inject(game, piece("hauptmann", "german", "rifles", roles=("company-command",)))
    play(game, "next", "next")
    refused(
        game,
        "@german unitmove call-artillery by=hauptmann on the crossroads",
        "gives Kampfgruppe Heinz no artillery support",
        rule="LT-R090",
    )
    inject(game, *artillery("german", 4))
    refused(game, "@german unitmove call-artillery on the crossroads", "name the piece that calls", rule="LT-R090")
    refused(
        game,
        "@german unitmove call-artillery by=panzer on the crossroads",
        "only a company-command or observer",
        rule="LT-R090",
    )
    play(game, "@german unitmove call-artillery by=hauptmann on the crossroads")
    refused(game, "@german activate panzer A5", "spent on a unit move", rule="LT-R010")
    facts = play(game, "next")  # the joker
    assert game.state.active_side == "" and game.state.card == "Joker"
    assert game.state.vars["artillery.german"] == "firing"
    assert any(isinstance(e, ev.Noted) and "artillery opens fire" in plain(e.text) for e in facts)
    refused(game, "activate panzer A5", "joker activates no piece", rule="LT-R010")
    refused(game, "@us activate sherman1 A5", "no side's", rule="LT-R052")


def test_at_fire_by_the_activated_piece_with_exact_dice(game):
    """Rules: LT-R050, LT-AMB-17."""
    play(game, "next", "@us activate sherman1 A2")
    # Sherman attack 5 against the Panzer's front 5: column 0; 2 + 3 = 5 → T
    facts = play(game, "@us at sherman1 panzer dice=2,3")
    roll = rolls(facts)[0]
    assert roll.faces == (2, 3) and roll.total and plain(roll.outcome) == "modified total 5, column 0: T: morale test"
    assert any(isinstance(e, ev.Noted) and "must test morale" in plain(e.text) for e in facts)
    refused(game, "@us at sherman1 panzer", "no attack left", rule="LT-R020")
    refused(game, "@us at sherman2 panzer", "not activated on this card", rule="LT-R020")


def test_at_fire_destroys_and_routs(game):
    """Rules: LT-R050, LT-AMB-14."""
    play(game, "next", "@us activate sherman1 A4 prepare=0")
    facts = play(game, "@us at sherman1 panzer flank dice=3,4")  # 5 vs side 3: +2; 7 → T
    assert plain(rolls(facts)[0].outcome) == "modified total 7, column +2: T: morale test"
    facts = play(game, "@us at sherman1 panzer flank close dice=1,1")  # 2 - 1 = 1 → D
    assert sum(m.value for m in rolls(facts)[0].mods) == -1
    assert plain(rolls(facts)[0].outcome) == "modified total 1, column +2: D: destroyed"  # the total compared
    assert plain(game.state.units["panzer"].out) == "destroyed"


def test_a_ready_attack_replies_out_of_turn(game):
    """Rules: LT-R052, LT-AMB-13."""
    play(game, "next", "next")  # Q♠
    play(game, "@german activate panzer A1")
    assert game.state.units["panzer"].has("ready-1")
    play(game, "next", "next", "next")  # Joker, 3♣, K♦: us
    refused(game, "@german at panzer sherman1", "is US 2nd Armored's", rule="LT-R010")
    play(game, "@us activate sherman1 A4 prepare=0", "@us at sherman1 panzer dice=6,6")  # 12: no effect
    facts = play(game, "@german at panzer sherman1 ready long dice=5,2")  # 5 vs 5, 7 at long range → no effect
    assert plain(rolls(facts)[0].outcome) == "modified total 7, column 0: no effect"
    assert not game.state.units["panzer"].has("ready-1")
    play(game, "@us at sherman1 panzer dice=6,6")
    refused(game, "@german at panzer sherman1 ready", "holds no ready attack", rule="LT-R052")


def test_ready_attacks_are_capped_at_two(game):
    """Rules: LT-AMB-08, LT-AMB-09."""
    play(game, "next", "next", "@german activate panzer A4")  # prepares 2
    assert game.state.units["panzer"].has("ready-2")
    play(game, "next", "next")  # Joker, 3♣: german
    refused(game, "@german activate panzer A1", "at most 2", rule="LT-AMB-08")
    play(game, "@german activate panzer A1 prepare=0")


def test_mg_fire_immobilises_infantry_and_a7_removes_it(game):
    """Rules: LT-R020, LT-R060, LT-AMB-21."""
    play(game, "next", "@us activate gis A2")
    refused(game, "@us mg gis grenadiers", "say what Grenadiers is doing", rule="LT-R060b")
    facts = play(game, "@us mg gis grenadiers defence=still-open dice=2")  # 3 - 3 = 0; 2 → I
    assert plain(rolls(facts)[0].outcome) == "modified total 2, column 0: I: immobilised, loses its ready attacks"
    assert game.state.units["grenadiers"].has("immobilised")
    play(game, "next", "next", "next")  # Q♠, Joker, 3♣: german
    refused(game, "@german activate grenadiers A5", "immobilised and cannot move", rule="LT-AMB-21")
    play(game, "@german activate grenadiers A7")
    assert not game.state.units["grenadiers"].has("immobilised")


def test_morale_test_with_exact_dice(game):
    """Rules: LT-R080, LT-R081, LT-AMB-17."""
    play(game, "next")
    facts = play(game, "@us morale sherman1 dice=5")  # morale 4: 5 → falls back 5 cm
    assert plain(rolls(facts)[0].outcome) == "modified total 5: fall-back"
    assert any(isinstance(e, ev.Moved) and e.cm == 5 for e in facts)
    facts = play(game, "@us morale gis plus=2 dice=4")  # morale 3: 4 + 2 = 6 → flees
    assert plain(rolls(facts)[0].outcome) == "modified total 6: flee"
    assert game.state.units["gis"].has("retreating")


def test_the_hidden_gun_is_attacked_only_once_spotted(game):
    """Rules: LT-R030, LT-AMB-19, LT-AMB-31."""
    play(game, "next", "@us activate sherman1 A2")
    refused(game, "@us mg sherman1 pak", "no unit 'pak'", rule=TYPING)
    assert "pak" not in game.view("us").units
    play(game, "spot pak by=gis at=10 state=still-cover")  # a vehicle stationary in cover: 20 cm
    assert "pak" in game.view("us").units
    facts = play(game, "@us mg sherman1 pak dice=1")  # 3 - prepared 4 = -1; 1 → I (a gun is not a tank)
    assert plain(rolls(facts)[0].outcome) == "modified total 1, column <0: I: immobilised, loses its ready attacks"


def test_reshuffle_at_ten_cards_and_replay_never_shuffles_again(game, tmp_path):
    """Rules: LT-AMB-03."""
    order = game.state.vars["secret.deck"].split(",")
    for _ in range(43):
        play(game, "next")
    # the 44th draw leaves 10 cards: the 44 discards are shuffled and put under them
    facts = play(game, "next")
    began = next(e for e in facts if isinstance(e, ev.PhaseBegan))
    assert (began.turn, began.card) == (44, order[43])
    assert any(isinstance(e, ev.Noted) and "LT-R011" in plain(e.text) for e in facts)
    new = game.state.vars["secret.deck"].split(",")
    assert new[:10] == order[44:] and sorted(new[10:]) == sorted(order[:44])
    shuffle = [e.roll for e in facts if isinstance(e, ev.Rolled)]
    assert new[10:] != order[:44] or shuffle  # shuffled by the game's dice
    assert game.state.vars["deck.drawn"] == 0
    path, before = game.path, game.state
    game.close()
    with closing(Game.open(path)) as again:
        assert again.state == before
        drawn = [again.execute("next", role=REFEREE).events[-1] for _ in range(3)]
        assert [e.card for e in drawn] == order[44:47]
        assert again.state.vars["secret.deck"].split(",") == new


def test_a_word_of_the_game_that_is_no_command_names_the_commands_whose_help_speaks_of_it(game):
    """A referee used to another game types ``attack`` or ``fire``: Linea di Tiro's
    attacks are ``at`` and ``mg`` (LT-R050, LT-R060), named from their help."""

    def refusal(text: str, role: str = "referee") -> str:
        with pytest.raises(Refused) as refused:
            game.parse(text, role)
        names(refused.value, TYPING)  # no command of that name: a word mistyped, no rule
        return str(refused.value)

    assert refusal("fire") == "no command 'fire'; the word is in the help of at, mg"
    assert refusal("attack") == "no command 'attack'; the word is in the help of at, barrage, mg, prepare, unitmove"
    assert refusal("nxet") == "no command 'nxet'; did you mean next?"  # no word of the help: a typo
    assert "help" not in refusal("zz")  # too short to look for


def test_a_word_naming_a_commands_action_points_to_that_command_in_either_language(game):
    """Issue #61: ``draw`` is in the help of ``result`` (a drawn game), but a card is drawn
    by ``next`` (LT-R010); ``spara``, the other games' Italian fire, points to the attacks
    (LT-R050, LT-R060) as the English ``fire`` does, not to a command spelled like it."""

    def refusal(text: str, language: str) -> str:
        with reading(language), pytest.raises(Refused) as refused:
            game.parse(text, REFEREE)
        names(refused.value, TYPING)  # no command of that name: a word mistyped, no rule
        return str(refused.value)

    assert refusal("draw", "en") == "no command 'draw'; did you mean next?"
    assert refusal("pesca", "it") == "comando 'pesca': non esiste; forse intendevi avanti?"
    assert refusal("spara easy panzer", "it") == "comando 'spara': non esiste; forse intendevi controcarro o mg?"
    assert refusal("shoot easy panzer", "it") == "comando 'shoot': non esiste; forse intendevi controcarro o mg?"
    assert refusal("shoot easy panzer", "en") == "no command 'shoot'; did you mean at or mg?"


def test_the_referee_is_offered_the_active_sides_pieces_first(game):
    """LT-R010: the card's side activates; the referee, who may act for either, is
    offered its pieces before the others (the roster's order had the other side's among them)."""
    play(game, "next")  # 7♥: us
    assert game.state.active_side == "us"
    offered = game.complete("activate ", role="referee")
    units = game.state.units
    ours = [u for u in offered if u in units and units[u].side == "us"]
    assert ours and offered[: len(ours)] == ours
    assert any(units[u].side != "us" for u in offered[len(ours) :] if u in units)
    play(game, "@us next")  # Q♠: the Germans'
    offered = game.complete("activate ", role="referee")
    assert units[offered[0]].side == game.state.active_side != "us"


def test_a_table_with_its_own_deck_types_the_card_it_drew(game):
    """C.2.1 D2, LT-R010/R011 (ruling LT-TABLE-DECK): with table dice, ``next`` draws no
    card of the game's: it asks which the table drew, refuses one not in the pile, and
    the cards drawn come back only as the reshuffle says."""
    asked = game.submit("next", role=REFEREE, faces=[], answers=[])
    assert isinstance(asked, AnswerNeeded)
    assert asked.question.text() == "the card the table drew (LT-R010)"
    assert len(asked.question.choices) == 53 and "Joker" in asked.question.choices  # 54 cards, two jokers
    outcome = game.submit("next", role=REFEREE, faces=[], answers=["ks"])  # the table drew the K♠, not the game's 7♥
    assert isinstance(outcome, Outcome)
    began = next(e for e in outcome.events if isinstance(e, ev.PhaseBegan))
    assert (began.turn, began.card, began.active) == (1, "K♠", "german")
    again = game.submit("next", role=REFEREE, faces=[], answers=[])
    assert "K♠" not in again.question.choices and "K♠" in again.question.closed
    with pytest.raises(ValueError, match="K♠ cannot be the answer now: it is not in the pile"):
        again.question.take("KS")
    refused = game.submit("next", role=REFEREE, faces=[], answers=["K♠"])  # a hostile seat's answer: checked again
    assert isinstance(refused, Refusal) and "K♠ cannot be the answer now" in refused.why
    with pytest.raises(ValueError, match="'14h' is not an answer here"):
        again.question.take("14h")
    # a script types it on the line; the game's own draw takes over where the table left off
    play(game, "next answers=7h dice=")
    assert game.state.card == "7♥"
    play(game, "next")  # the game's deck, the two cards the table drew swapped to its top: its third
    assert game.state.card == "Joker"


def test_a_card_the_table_mistyped_is_refused_listing_what_to_type(game):
    """Issue #61 (ruling LT-TABLE-DECK): the refusal lists the cards as the keyboard types
    them (``ah``, ``7h``), not as the log prints them (``A♥``), in either language."""
    asked = game.submit("next", role=REFEREE, faces=[], answers=[])
    listed = "ah, 2h, 3h, 4h, 5h, 6h, 7h, 8h, 9h, 10h, jh, qh, …"
    with pytest.raises(ValueError) as refused:
        asked.question.take("14h")
    assert str(refused.value) == f"'14h' is not an answer here; answer one of: {listed}"
    with reading("it"), pytest.raises(ValueError) as refused:
        asked.question.take("")
    assert str(refused.value) == f"rispondi con una tra: {listed}"


def test_a_table_drawing_from_its_own_deck_does_not_print_the_games_deck(game):
    """Ruling LT-TABLE-DECK: the card the table drew is said; the game's order, kept in
    step with it, is neither printed again nor committed again (the end of the game opens
    the shuffle's order, and the table's draws are public cards)."""
    shuffled = game.state.vars["secret.deck"]
    before = len(game.log_lines(REFEREE))
    play(game, "next answers=ks dice=")
    said = [line.text for line in game.log_lines(REFEREE)[before:]]
    assert "the table drew K♠ from its own deck" in said
    assert not any("shuffled" in text or "Q♦" in text for text in said), said
    assert game.state.vars["secret.deck"] == shuffled
    assert game.view("us").vars["deck.table"] == "0:K♠"


def test_after_a_table_reshuffle_the_ten_cards_left_come_first():
    """LT-R011 (ruling LT-RESHUFFLE): after the 44th draw the 10 left are on top; a card of
    the discards shuffled under them cannot be drawn before they are."""
    order = stacked()
    assert rules.drawable(order, 43, 43) == order[43:]
    after = order[44:] + order[:44]
    assert rules.drawable(after, 0, 44) == order[44:]
    assert rules.drawable(after, 9, 53) == [order[53]]
    assert rules.drawable(after, 10, 54) == order[:44]
