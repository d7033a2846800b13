"""``why`` and ``? COMMAND`` at the line client, the plain seat's words (issue #76): the
rule behind a refusal or a roll, the numbers the engine used, a step of the log; a command
asked ahead, face by face; and nothing of a roll hidden from the reader (A/B, 0 bytes)."""

from __future__ import annotations

from pathlib import Path

from lines_support import Seat
from playing import opened

from core.game import Game
from core.language.reader import reading
from tui.lines.why import rule_lines

#: The Ludonet recorded game's start (saves/ludonet-game.script, seed 2026): the Germans move first.
START = ("scenario tanks", 'note "Cagny"', "next")


def ludonet(path: Path, *lines: str) -> Game:
    return opened(path, "ludonet", *START, *lines, seed=2026)


def test_why_after_a_refusal_names_the_rule_that_refused_it(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft", "@german move panzer 15"), "german")
    assert seat.say("move panzer 10") == ["Refused: Panzer IV has already moved this turn."]
    assert seat.say("why") == [
        "Refused: Panzer IV has already moved this turn.",
        "Rule LN-R010 (B.3, enforced): Maximum move distances per turn.",
    ]


def test_why_after_a_typing_error_says_no_rule_refuses_it(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft"), "german")
    assert seat.say("move gren")[0].startswith("Refused: move: missing")
    assert seat.say("why")[-1] == "No rule refuses it: the line is mistyped or misused (a typing error)."


def test_why_keeps_a_refusal_s_own_question_mark(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft"), "german")
    seat.say("mvoe gren 10")
    first = seat.say("why")[0]
    assert first.startswith("Refused: ") and first.endswith("?"), first  # not "…?."


def test_why_after_a_roll_gives_the_numbers_and_the_rules(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft", "@german move gren 10 run"), "german")
    assert seat.say("why") == [
        "Gefr Roth's fatigue: 1d6 needing 5+: 2 → fresh",
        "It needed 5+.",
        "Before the roll: 33.3% to roll 5+ on 1d6.",
        "It came to: fresh.",
        "Rule LN-R012 (B.3, enforced): Fatigue. Ruling LN-FATIGUE (docs/rulings.md).",
    ]


def test_why_a_step_of_the_log_in_italian(tmp_path):
    """At an Italian seat the rules are named by the map's Italian titles (``title_it``), not its English."""
    seat = Seat(ludonet(tmp_path / "g.ft", "@german move gren 10 run"), "german", lang="it")
    assert seat.say("perché 4") == [
        "Passo 4: muovi gren 10 corsa.",
        "Regola LN-R010 (B.3, applicata): Distanze massime di movimento per turno.",
        "Regola LN-R011 (B.3, applicata): Movimento dei veicoli, dallo scenario. Decisione LN-VEHICLES "
        "(docs/rulings.md).",
        "stanchezza di Gefr Roth: 1d6 serve 5+: 2 → fresco",
        "Serviva 5+.",
        "Prima del tiro: 33,3% di fare 5+ con 1d6.",
        "Esito: fresco.",
        "Regola LN-R012 (B.3, applicata): Fatica: chi corre può stancarsi e non correre per tre turni. "
        "Decisione LN-FATIGUE (docs/rulings.md).",
    ]


def test_why_after_an_engine_refusal_in_italian_says_its_rule_and_note_in_italian(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft"), "british", lang="it")
    assert seat.say("segna sherman nascosto") == ["Rifiutato: solo l'arbitro può usare segna."]
    assert seat.say("perché") == [
        "Rifiutato: solo l'arbitro può usare segna.",
        "Regola ENG-1 (Motore, decisione): Chi dà quale comando. Fireteam: l'arbitro dà i comandi dell'arbitro "
        "e può agire per qualunque parte; un giocatore dà i comandi della sua parte per i suoi pezzi; uno "
        "spettatore guarda e non ne dà. Decisione CORE-ROLES (docs/rulings.md).",
    ]


def test_what_the_map_gives_in_english_only_is_said_to_be_in_english(tmp_path):
    """Breaking News's T-07 and DIFF-09 have an Italian title and an English note (every rule of the
    four maps has its Italian title now: a title in English only is a plugin's map's)."""
    game = opened(tmp_path / "bn.ft", "breaking-news")
    with reading("it"):
        assert rule_lines(game, ["T-07", "DIFF-09"]) == [
            "Regola T-07 (§7.0, applicata): Avvistamento: 1d6 uguale o sopra il numero richiesto. Fireteam, "
            "in inglese: A night scenario (night = true) adds the +2 to every sighting by itself, but for a "
            "spotter with the night-visors role (BN-C-NIGHT); jungle is typed. Decisione BN-C-SPOT (docs/rulings.md).",
            "Regola DIFF-09 (§5.0, decisione): Bozza italiana: all'iniziativa il modificatore del capo. Fireteam, "
            "in inglese: Both drafts: the main commander's leadership, else the highest still in play. Decisione "
            "BN-INI-LEADER (docs/rulings.md).",
        ]
    with reading("en"):  # in English, no word of it
        assert "in English" not in " ".join(rule_lines(game, ["T-07", "DIFF-09"]))


def test_a_roll_hidden_from_a_side_explains_nothing_to_it(tmp_path):
    """A/B: the British ask ``why`` and ``why N`` for every step, in a game where a hidden
    German rolled and in one where he did not: the same bytes (the Germans do see it)."""
    hidden = ("mark gren hidden",)
    asked = ["why", *(f"why {n}" for n in range(1, 9)), "? fire sherman gren range=30"]

    def british(game: Game) -> bytes:
        seat = Seat(game, "british")
        return "\n".join(line for q in asked for line in seat.say(q)).encode()

    without = british(ludonet(tmp_path / "a.ft", *hidden))
    rolled = ludonet(tmp_path / "b.ft", *hidden, "@german move gren 10 run")
    assert british(rolled) == without
    assert any(line.startswith("Gefr Roth's fatigue: 1d6") for line in Seat(rolled, "german").say("why 5"))


def test_asking_ahead_at_the_line_client(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft"), "german")
    said = seat.say("? move gren 10 run")
    assert said[:3] == [
        "move gren 10 run would roll first: Gefr Roth's fatigue: 1d6, needs 5+.",
        "Before the roll: needs 5+ on 1d6: 33.3%.",
        "On 1, 2, 3, 4: fresh; Gefr Roth moves 10 cm (run); Gefr Roth now moved, now ran.",
    ]
    assert said[3].startswith("On 5, 6: tired: no running for 3 turns; Gefr Roth moves 10 cm (run);")
    assert "Rule LN-R012 (B.3, enforced): Fatigue. Ruling LN-FATIGUE (docs/rulings.md)." in said
    assert seat.say("log 1")[-1].endswith("Kampfgruppe von Luck active.")  # nothing was given
    assert seat.say("? move gren 99") == [seat.say("move gren 99")[0]]  # refused as giving it is


def test_asking_ahead_an_opposed_roll_says_any_roll_not_every_face(tmp_path):
    """Initiative's first 2d6 does the same on all 36 faces (the other side rolls next): one line."""
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", "next", seed=2026)
    said = Seat(game).say("? next")
    assert said[1] == "Before the roll: 2d6 against the other side's roll: who wins depends on both."
    assert said[2].startswith("On any roll: then Somali militia's initiative: 2d6")
    assert Seat(game, lang="it").say("? next")[2].startswith("Con qualunque tiro: poi iniziativa di Milizia somala")
