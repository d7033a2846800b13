"""``why`` and ``? COMMAND`` at the line client, the plain seat's words (issue #76): the
rule behind a refusal or a roll, the numbers the engine used, a step of the log; a command
asked ahead, face by face; and nothing of a roll hidden from the reader (A/B, 0 bytes)."""

from __future__ import annotations

from pathlib import Path

import msgspec
from lines_support import Seat
from playing import opened

from core.explain.rulesask import stated
from core.explain.rulesmap import ByReferee, ByRuling, RulesMap, find
from core.game import Game
from core.language.reader import reading
from core.log import events as ev
from core.registry import get_ruleset
from tui.lines.why import rule_lines, why_roll

#: The Ludonet recorded game's start (saves/ludonet-game.script, seed 2026): the Germans move first.
START = ("scenario tanks", 'note "Cagny"', "next")


def ludonet(path: Path, *lines: str) -> Game:
    return opened(path, "ludonet", *START, *lines, seed=2026)


def says(rule_id: str, lang: str = "en", ruleset: str = "ludonet") -> str:
    """What ``rule?`` and ``why`` say of a rule in ``lang``: its statement, id, name and status."""
    rule = find(get_ruleset(ruleset).rules_map(), rule_id)
    assert rule is not None and rule.says and rule.says_it
    with reading(lang):
        return stated(rule)


def test_why_after_a_refusal_names_the_rule_that_refused_it(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft", "@german move panzer 15"), "german")
    assert seat.say("move panzer 10") == ["Refused: Panzer IV has already moved this turn."]
    assert seat.say("why") == ["Refused: Panzer IV has already moved this turn.", says("LN-R010")]
    # its cite said with its name, after what it says (a listener who stops there has not heard it)
    assert says("LN-R010").endswith(" 3 cm crawling. Rule LN-R010 (B.3): Maximum move distances per turn, enforced.")


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
    """The roll as the log says it (who rolled, its need, faces and outcome), its chance alone (its
    need just said), what its rule says (issue #91); a roll's arrow said as a comma."""
    seat = Seat(ludonet(tmp_path / "g.ft", "@german move gren 10 run"), "german")
    assert seat.say("why") == [
        "Gefr Roth's fatigue: 1d6 needing 5+: 2, fresh",
        "Before the roll: 33.3%.",
        says("LN-R012"),
    ]


def test_why_says_a_rolls_working_once_and_keeps_a_scores_modifiers_in_its_total(tmp_path):
    """A need the modifiers moved: the roll's line says the need, the working lines the book's number
    and each modifier (not both: issue #91).  A score (no target) adds its modifiers into the total
    it shows, so its line keeps them."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo")
    save = ev.Roll(purpose="save", faces=(2,), target=4, mods=(ev.Mod("team leader", 1, "§9.0"),),
                   check=ev.AtLeast(face=4, base=5), outcome="failed")  # fmt: skip
    said = why_roll(game, ev.Rolled(roll=save, side="regulars"), "regulars")
    assert said[:2] == ["Bersaglieri's save: 1d6 needing 4+: 2 → failed", "Before the roll: 50.0%."]
    assert said[3:5] == ["The book's number before the modifiers: 5+.", "Modifier: team leader +1 (§9.0)."]
    score = ev.Roll(purpose="initiative", faces=(3, 4), mods=(ev.Mod("leadership", 2),), total=True)
    said = why_roll(game, ev.Rolled(roll=score, side="regulars"), "regulars")
    assert said[0] == "Bersaglieri's initiative: 2d6 (leadership +2): 3 4 +2 = 9"
    game.close()


def test_why_a_step_of_the_log_in_italian(tmp_path):
    """At an Italian seat the rules say what they say in Italian (``says_it``), named by the map's
    Italian titles (``title_it``), not its English."""
    seat = Seat(ludonet(tmp_path / "g.ft", "@german move gren 10 run"), "german", lang="it", verbose=True)
    assert seat.say("perché 4") == [
        "Passo 4: muovi gren 10 corsa.",
        says("LN-R010", "it"),
        "Anche: LN-R011, Movimento dei veicoli, dallo scenario.",  # the other rules by name only
        "stanchezza di Gefr Roth: 1d6 serve 5+: 2, fresco",
        "Prima del tiro: 33,3%.",
        says("LN-R012", "it"),
    ]
    assert says("LN-R010", "it").endswith(". Regola LN-R010 (B.3): Distanze massime di movimento per turno, applicata.")


def test_why_after_an_engine_refusal_in_italian_says_its_rule_and_note_in_italian(tmp_path):
    seat = Seat(ludonet(tmp_path / "g.ft"), "british", lang="it")
    assert seat.say("segna sherman nascosto") == ["Rifiutato: solo l'arbitro può usare segna."]
    assert seat.say("perché") == ["Rifiutato: solo l'arbitro può usare segna.", says("ENG-1", "it")]
    assert says("ENG-1", "it").endswith(
        "uno spettatore non ne dà. Regola ENG-1 (Motore, decisione CORE-ROLES): Chi dà quale comando, decisione."
    )


def test_a_rule_without_a_statement_in_the_readers_language_is_named_by_its_title_and_note(tmp_path, monkeypatch):
    """A plugin's map may say nothing of a rule: ``why`` names it by its title, section and status,
    the map's note and the ruling taken; what the map gives in English only is said to be so at an
    Italian seat."""
    game = opened(tmp_path / "bn.ft", "breaking-news")
    bare = ByReferee(id="Z-1", section="§7.0", title="Spotting at dusk", title_it="Avvistare al tramonto",
                     command="note", ruling="BN-C-SPOT", why="Typed by the spotter.")  # fmt: skip
    english = ByReferee(id="Z-2", section="§5.0", title="Initiative", command="note", why="Both drafts.")
    monkeypatch.setattr(type(game.ruleset), "rules_map", lambda self: RulesMap(rule=(bare, english)))
    with reading("en"):
        assert rule_lines(game, ["Z-1"]) == [
            "Rule Z-1 (§7.0, referee): Spotting at dusk. Fireteam: Typed by the spotter. "
            "Ruling BN-C-SPOT (docs/rulings.md)."
        ]
    with reading("it"):
        assert rule_lines(game, ["Z-1", "Z-2"]) == [
            "Regola Z-1 (§7.0, arbitro): Avvistare al tramonto. Fireteam, in inglese: Typed by the spotter. "
            "Decisione BN-C-SPOT (docs/rulings.md).",
            "Anche: Z-2, Initiative.",
        ]
        assert rule_lines(game, ["Z-2"]) == [
            "Regola Z-2 (§5.0, arbitro): Initiative (in inglese). Fireteam, in inglese: Both drafts."
        ]


def test_why_leads_with_what_the_rule_says_and_names_a_ruling_the_statement_does_not(tmp_path, monkeypatch):
    game = opened(tmp_path / "bn.ft", "breaking-news")
    ruled = ByReferee(id="Z-1", section="§5.0", title="Ties", title_it="Parità", command="note", ruling="BN-INI-TIE",
                      says="Tied initiative is rolled again (§5.0).", says_it="Si ritira (§5.0).")  # fmt: skip
    monkeypatch.setattr(type(game.ruleset), "rules_map", lambda self: RulesMap(rule=(ruled,)))
    with reading("en"):
        assert rule_lines(game, ["Z-1"]) == ["Tied initiative is rolled again. Rule Z-1 (§5.0): Ties, referee."]
    with reading("it"):
        assert rule_lines(game, ["Z-1"]) == ["Si ritira. Regola Z-1 (§5.0): Parità, arbitro."]
    uncited = msgspec.structs.replace(ruled, says="Tied initiative is rolled again")  # a plugin map: no cite, stop
    monkeypatch.setattr(type(game.ruleset), "rules_map", lambda self: RulesMap(rule=(uncited,)))
    with reading("en"):
        assert rule_lines(game, ["Z-1"]) == ["Tied initiative is rolled again. Rule Z-1: Ties, referee."]
    decided = msgspec.structs.replace(ruled, id="Z-2")
    decided = ByRuling(**{f: getattr(decided, f) for f in decided.__struct_fields__ if f != "command"})
    monkeypatch.setattr(type(game.ruleset), "rules_map", lambda self: RulesMap(rule=(decided,)))
    with reading("en"):  # the book unclear or silent: the ruling Fireteam takes is named
        assert rule_lines(game, ["Z-2"]) == [
            "Tied initiative is rolled again. Rule Z-2 (§5.0): Ties, ruling. Ruling BN-INI-TIE (docs/rulings.md)."
        ]


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
    seat = Seat(ludonet(tmp_path / "g.ft"), "german", verbose=True)
    said = seat.say("? move gren 10 run")
    assert said[:4] == [
        "It would roll first: Gefr Roth's fatigue: 1d6, needs 5+.",
        "Before the roll: 33.3%.",  # its need just said
        says("LN-R010"),  # the command's own rule first, what it says
        "On 1, 2, 3, 4: fresh; Gefr Roth moves 10 cm (run); Gefr Roth now moved, now ran.",
    ]
    assert said[4].startswith("On 5, 6: tired: no running for 3 turns; Gefr Roth moves 10 cm (run);")
    assert said[5:] == ["Also: LN-R011, Vehicle movement; LN-R012, Fatigue."]  # the others by name only
    assert seat.say("log 1")[-1].endswith("Kampfgruppe von Luck active.")  # nothing was given
    assert seat.say("? move gren 99") == [seat.say("move gren 99")[0]]  # refused as giving it is


def test_asking_ahead_an_opposed_roll_says_any_roll_not_every_face(tmp_path):
    """Initiative's first 2d6 does the same on all 36 faces (the other side rolls next): one line."""
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", "next", seed=2026)
    said = Seat(game).say("? next")
    assert said[1] == "Before the roll: 2d6 against the other side's roll: who wins depends on both."
    assert said[2].startswith("On any roll: then Somali militia's initiative: 2d6")
    assert Seat(game, lang="it").say("? next")[2].startswith("Con qualunque tiro: poi iniziativa di Milizia somala")
