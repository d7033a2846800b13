"""``rule?``'s answer in sentences (``core.explain.rulesask.said``, issue #91): the lead first,
what the first rule says in the reader's language; the others by name; where the rules do not
say, the verdict, the ruling that decides it and the nearest rules as pointers only."""

from __future__ import annotations

from core.explain.rulesask import said
from core.explain.rulesearch import Answer, Found
from core.explain.rulesmap import ByReferee, ByRuling, Topic
from core.language.reader import reading

SIGHT = ByReferee(id="S-1", section="§7.0", title="Sighting → roll", title_it="Avvistare", command="note",
                  says="Sighting needs 1d6 at 3+ (§7.0).", says_it="Avvistare richiede 3+ su 1d6 (§7.0).")  # fmt: skip
TIES = ByRuling(id="S-2", section="§5.0", title="Ties", ruling="BN-INI-TIE", says="Ties roll again (§5.0)")
BARE = ByReferee(id="S-3", section="§9.0", title="Saves…", command="note")
DRAW = Topic(en="a tie on points", it="la parità", ruling="BN-VIC-DRAW", says="A draw.", says_it="Pareggio.")


def test_an_answer_leads_with_what_its_first_rule_says_and_names_the_others():
    answer = Answer("?", "en", (Found(SIGHT, 9.0), Found(TIES, 8.0), Found(BARE, 7.0)))
    with reading("en"):
        assert said(answer, "Breaking News") == [
            "Sighting needs 1d6 at 3+. Rule S-1 (§7.0): Sighting: roll, referee.",  # its cite with its name
            "Also: S-2, Ties; S-3, Saves.",
        ]
    with reading("it"):  # the reader's language, whatever the question's
        assert said(answer, "Breaking News") == [
            "Avvistare richiede 3+ su 1d6. Regola S-1 (§7.0): Avvistare, arbitro.",
            "Anche: S-2, Ties; S-3, Saves.",
        ]


def test_a_rule_the_book_leaves_to_a_ruling_names_it_and_one_without_a_statement_is_named_by_its_title():
    with reading("en"):
        assert said(Answer("?", "en", (Found(TIES, 1.0),)), "X") == [
            "Ties roll again. Rule S-2 (§5.0): Ties, ruling. Ruling BN-INI-TIE (docs/rulings.md)."
        ]
        assert said(Answer("?", "en", (Found(BARE, 1.0),)), "X") == ["Rule S-3 (§9.0, referee): Saves."]
    with reading("it"):  # no Italian statement: the title, as a plugin's map may leave it
        assert said(Answer("?", "it", (Found(TIES, 1.0),)), "X") == [
            "Regola S-2 (§5.0, decisione): Ties. Decisione BN-INI-TIE (docs/rulings.md)."
        ]


def test_a_rule_fireteam_reads_by_a_ruling_names_it_where_its_statement_does_not():
    """The fragment gives no vehicle moves and Fireteam reads the scenario's (LN-VEHICLES): an answer
    that said the rule and left the ruling unnamed left the player the book's gap (issue #91)."""
    moves = ByReferee(id="S-4", section="B.3", title="Vehicles", command="note", ruling="LN-VEHICLES",
                      says="The scenario sets a vehicle's move (B.3).")  # fmt: skip
    named = ByReferee(id="S-5", section="B.3", title="Vehicles", command="note", ruling="LN-VEHICLES",
                      says="The scenario sets a vehicle's move, ruling LN-VEHICLES (B.3).")  # fmt: skip
    with reading("en"):
        assert said(Answer("?", "en", (Found(moves, 1.0),)), "X") == [
            "The scenario sets a vehicle's move. Rule S-4 (B.3): Vehicles, referee."
            " Ruling LN-VEHICLES (docs/rulings.md)."
        ]
        assert said(Answer("?", "en", (Found(named, 1.0),)), "X") == [
            "The scenario sets a vehicle's move, ruling LN-VEHICLES. Rule S-5 (B.3): Vehicles, referee."
        ]


def test_where_the_rules_do_not_say_the_ruling_that_decides_and_the_nearest_rules_only_as_pointers():
    silent = Answer("?", "en", silent=DRAW, nearest=(Found(SIGHT, 9.0),))
    with reading("en"):
        assert said(silent, "Breaking News") == [
            "The rules do not say; Fireteam's ruling BN-VIC-DRAW: A draw.",
            "Nearest: S-1, Sighting: roll.",
        ]
        assert said(Answer("?", "en"), "Breaking News") == [
            "The rules do not say: nothing in the rules of Breaking News matches that well enough."
        ]
    with reading("it"):
        assert said(silent, "Breaking News") == [
            "Le regole non lo dicono; decisione di Fireteam BN-VIC-DRAW: Pareggio.",
            "Le più vicine: S-1, Avvistare.",
        ]
