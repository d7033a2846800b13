"""``rule?`` on its tuned question set (``rule_questions.toml``: questions as players ask them,
half in Italian, across the four rulesets, each with the rule ids that answer it or none): the
search was mended on it, so it is the regression bar, not a measure (``fireteam bench --rules``
measures a set written blind, issue #91): the right rule first, in the first three, and no answer
where the rules do not say (issue #76); and what the search is made of, each part on its own."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import pytest

from core.explain import rulesearch
from core.explain.rulesearch import Index
from core.explain.rulesmap import ByReferee
from core.explain.rulewords import language_of, stems, words
from core.registry import BUILTIN, get_ruleset

QUESTION_SETS = Path(__file__).resolve().parents[1] / "data" / "rule_questions"
#: The tuned set is the benchmark's data too (``fireteam bench --rules``): read by the tests that
#: measure it, never at collection (every xdist worker collects every module), and those tests
#: are ``long`` (they build the four rulesets' indexes), left out of the fast subset.
SETS = pytest.mark.long


@cache
def _questions(name: str) -> list[dict]:
    return tomllib.loads((QUESTION_SETS / name).read_text(encoding="utf-8"))["q"]


def _asked(q: dict) -> list[str]:
    ruleset = get_ruleset(q["ruleset"])
    return [f.rule.id for f in rulesearch.index_for(ruleset.rules_map(), ruleset.domain).ask(q["text"]).found]


@pytest.fixture(scope="module")
def answered() -> list[tuple[dict, list[str]]]:
    return [(q, _asked(q)) for q in _questions("rule_questions.toml")]


@SETS
def test_the_question_set_is_what_the_bar_is_measured_on():
    questions = _questions("rule_questions.toml")
    assert len(questions) >= 80
    assert sum(language_of(q["text"]) == "it" for q in questions) * 2 >= len(questions) - 2  # half, to a question
    assert {q["ruleset"] for q in questions} == set(BUILTIN)
    known = {r.id for rid in BUILTIN for r in get_ruleset(rid).rules_map().rules}
    assert {i for q in questions for i in q["expect"]} <= known
    assert sum(not q["expect"] for q in questions) >= 8


@SETS
def test_the_right_rule_comes_first_for_85_percent_and_in_the_first_three_for_95(answered):
    with_rule = [(q, got) for q, got in answered if q["expect"]]
    first = [q["text"] for q, got in with_rule if not got or got[0] not in q["expect"]]
    three = [q["text"] for q, got in with_rule if not any(i in q["expect"] for i in got[:3])]
    assert len(first) <= 0.15 * len(with_rule), first
    assert len(three) <= 0.05 * len(with_rule), three


@SETS
def test_it_abstains_where_the_rules_do_not_say(answered):
    """Every one: the points a tank costs in Bassa Intensità, or a destroyed tank gives in Linea di
    Tiro (neither keeps points), were answered by a rule holding one word of the question for two
    (an aim *punto* for "costa" and "punti"; "destroyed" for "carro" and "distrutto")."""
    without = [(q["text"], got) for q, got in answered if not q["expect"]]
    assert [(text, got) for text, got in without if got] == []


@SETS
def test_a_question_and_its_translation_lead_with_the_same_rule_or_both_abstain(answered):
    """Issue #91's bar, 90% of the pairs (``pair``): "quanti punti vale un Panther?" was answered with
    the rule of anti-tank fire where "how many points is a Panther worth?" was told Linea di Tiro
    keeps no points."""
    leads: dict[str, list[str]] = {}
    for q, got in answered:
        if q.get("pair"):
            leads.setdefault(q["pair"], []).append(got[0] if got else "")
    assert len(leads) >= 35 and all(len(led) == 2 for led in leads.values())
    apart = {name: led for name, led in leads.items() if len(set(led)) > 1}
    assert len(apart) <= 0.1 * len(leads), apart


@SETS
def test_our_own_pairs_lead_with_the_same_rule_in_both_languages_and_the_right_one():
    """Issue #91 on 66 pairs written for it (``rule_questions_pairs_dev.toml``, each question phrased
    in its own language, not word for word): 56 agreed while a question was scored on its own
    language's words (``Index.twins`` now scores it on both), and right first 119 of 132."""
    questions = _questions("rule_questions_pairs_dev.toml")
    known = {r.id for rid in BUILTIN for r in get_ruleset(rid).rules_map().rules}
    assert {i for q in questions for i in q["expect"]} <= known
    assert {q["ruleset"] for q in questions} == set(BUILTIN)
    leads: dict[str, list[str]] = {}
    wrong = []
    for q in questions:
        got = _asked(q)
        leads.setdefault(q["pair"], []).append(got[0] if got else "")
        if not got or got[0] not in q["expect"]:
            wrong.append(q["text"])
    assert len(leads) >= 60 and all(len(led) == 2 for led in leads.values())
    apart = {name: led for name, led in leads.items() if len(set(led)) > 1}
    assert len(apart) <= 0.1 * len(leads), apart
    assert len(wrong) <= 0.1 * len(questions), wrong


@SETS
def test_where_a_ruling_decides_what_the_book_leaves_open_the_answer_names_it(answered):
    """In the question's language: the verdict and the ruling ("The rules do not say; Fireteam's
    ruling BN-PTS-UNLISTED: ..."), or the rule Fireteam reads by it and the ruling's id."""
    from core.explain.rulesask import said
    from core.language.reader import reading

    ruled = [q for q, _got in answered if q.get("ruling")]
    unnamed = []
    for q in ruled:
        ruleset = get_ruleset(q["ruleset"])
        with reading(language_of(q["text"]) or "en"):
            answer = " ".join(said(rulesearch.index_for(ruleset.rules_map(), ruleset.domain).ask(q["text"]), "X"))
        if q["ruling"] not in answer:
            unnamed.append(q["text"])
    assert len(ruled) >= 20 and len(unnamed) <= 0.1 * len(ruled), unnamed


def test_a_thing_a_bare_question_names_is_counted_in_the_language_that_names_it_in_fewer_rules():
    """Italian rules that say "punti" of the table's points make "punti" many rules' words, where
    the English rules say "points" in few: "quanti punti costa?" is the topic of a force's points,
    as its English twin is. A translation no rule holds ("pezzo" for a gun) counts nothing."""
    from core.explain.rulesmap import Topic

    table = [_rule(f"A-{n}", f"Gun range bands {n}", title_it=f"Bande: i punti del tavolo {n}") for n in range(6)]
    tanks = [_rule("C-1", "Tank hits score points", title_it="Colpi al carro", words_en="tank hit")]
    points = Topic(en="points", it="punti", words_en="points cost", words_it="punti costo")
    lexicon = [("points", "punti"), ("tank", "carro"), ("gun", "pezzo")]
    index = Index.build([*table, *tanks, *OTHERS], lexicon, silent=[points])
    assert (index._ruled("it:punt"), index._ruled("en:point")) == (1, 1)  # one English rule says points
    assert Index.build([*table, *tanks, *OTHERS], silent=[points])._ruled("it:punt") == 6  # untranslated
    assert index._ruled("en:gun") == 6  # no rule says "pezzo"
    english, italian = index.ask("points?"), index.ask("punti?")
    assert (english.found, english.silent) == (italian.found, italian.silent) == ((), points)
    alone = Index.build([*table, *tanks, *OTHERS], silent=[points]).ask("punti?")
    assert alone.silent is None and alone.found[0].rule.id.startswith("A-")  # six rules' "punti", untranslated


def test_a_word_no_rule_holds_is_still_the_rules_thing_where_they_say_it_in_a_word_of_the_same_meaning():
    """Ludonet's rules say "aereo", no "velivolo": "come attacca un velivolo?" was told the book is
    silent (a topic of small arms against planes says "velivolo"), where its English twin had its rule."""
    from core.explain.rulesmap import Topic

    air = _rule("A-1", "How an aircraft attacks", title_it="Come attacca un aereo", words_it="attacco aereo")
    planes = Topic(en="small arms against planes", it="fucili contro velivoli", words_it="velivolo velivoli fucili")
    index = Index.build([air, *OTHERS], silent=[planes])
    assert (index._ruled("it:velivol"), index._ruled("it:fucil")) == (1, 0)
    assert [f.rule.id for f in index.ask("come attacca un velivolo?").found] == ["A-1"]
    assert index.ask("i fucili contro un velivolo?").silent == planes  # rifles no rule names


def test_a_players_short_words_are_the_words_of_the_same_meaning_a_rule_says():
    from core.explain.rulewords import alike, stem

    assert stem("en", "magazine") in alike(stem("en", "mag"))  # "is the mag empty?"
    assert alike(stem("en", "arty")) == {stem("en", "artillery")}  # "how do I call in arty?"


def test_a_word_of_a_rule_stands_for_one_word_of_the_question():
    """A catalogue that gives "destroyed" as "carro" (a tank, in a message's context) and as
    "distrutto" makes both words stand for it: a rule saying "destroyed" alone holds the
    question's "distrutto", not its "carro" too; and a question that says a thing twice ("the
    blast of a grenade") is held whole by the rule of grenades."""
    rules = [_rule("A-1", "Anti-tank results: destroyed, retreat", title_it="Risultati: distrutto, ritirata"), *OTHERS]
    index = Index.build(rules, [("destroyed", "carro"), ("destroyed", "distrutto")])
    ranked, covered, _strength = index._scored(index._alternatives("vittoria carro distrutto", "it"))
    destroyed = index.idf["it:distrutt"]  # "vittoria" is no word of the map: it weighs as its words do on average
    assert index.rules[ranked[0][1]].id == "A-1" and covered == destroyed / (destroyed + index.usual)
    grenades = Index.build([_rule("G-1", "Grenades: a 3 cm radius"), *OTHERS])
    ranked, covered, _strength = grenades._scored(grenades._alternatives("blast grenade", "en"))
    assert grenades.rules[ranked[0][1]].id == "G-1" and covered == 1.0


def test_a_question_is_stemmed_in_its_own_language_and_small_words_left_out():
    assert language_of("può sparare un uomo soppresso?") == "it"
    assert language_of("can a pinned man fire?") == "en"
    assert stems("Può sparare un uomo soppresso?", "it") == ["it:spar", "it:uom", "it:soppress"]
    assert stems("the men were pinned", "en") == ["en:men", "en:pin"]
    assert stems("can he clear a mine?", "en") == ["en:clear", "en:mine"]  # a landmine, not a small word
    assert stems("perche puo", "it") == []  # the small words without their accents too
    assert stems("com'è il turno?", "it") == ["it:turn"]  # "com'" is "come" elided, no "comando"
    assert stems("salgono a bordo", "it") == ["it:salg", "it:imbarc"]  # aboard, not the edge of a base
    assert stems("in mezzo al mezzo", "it") == ["it:inmezz", "it:mezz"]  # in the middle of the vehicle
    # who asks is no word of the question; asking for the guns is calling for them
    assert stems("my opponent asked: can I ask for the guns?", "en") == ["en:oppon", "en:call", "en:gun"]
    # "capisco" is stemmed as "capo" is: a player's "how do I tell" is no leader
    assert stems("come capisco chi è il capo?", "it") == ["it:cap"]
    # a child's "Dad" is who he asks, no word of the question (read as Italian, it was "dadi")
    assert stems("Dad, who rolls the dice first?", "en") == ["en:roll", "en:dice", "en:first"]


def test_he_in_capitals_is_high_explosive_and_he_in_small_letters_a_small_word():
    assert stems("HE at a Tiger?", "en") == ["en:explos", "en:tiger"]
    assert stems("can he fire?", "en") == ["en:fire"]
    assert stems("CAN HE FIRE?", "en") == ["en:fire"]  # shouted: no capital tells a word
    assert stems("HE su un carro", "it") == ["it:he", "it:carr"]  # no small word of Italian


def test_an_initialisms_plural_is_the_initialism():
    # a stemmer reads "ieds" as a verb's "-ied" ("i") and keeps "rpgs" a word of its own
    assert stems("IEDs and RPGs", "en") == stems("IED and RPG", "en") == ["en:ie", "en:rpg"]
    assert stems("gli RPGs", "it") == ["it:rpg"]


def test_a_vehicle_that_runs_men_over_overruns_them_and_a_man_running_over_to_a_wall_runs():
    assert stems("can my tank run them over?", "en") == ["en:tank", "en:overrun"]
    assert stems("he ran over to the wall", "en") == ["en:ran", "en:wall"]
    assert stems("can he run over 10 cm?", "en") == ["en:run", "en:10", "en:cm"]


def test_what_two_or_three_words_say_together_is_read_as_one_and_only_where_they_say_it():
    said = {
        "can my 4x4 run their infantry down?": ["en:4x4", "en:overrun", "en:infantri"],
        "can he run all the way down the street?": ["en:run", "en:street"],
        "can my MRAP run down an insurgent?": ["en:mrap", "en:overrun", "en:insurg"],
        "he ran down the street": ["en:ran", "en:street"],
        "can my truck break down?": ["en:truck", "en:breakdown"],
        "the plane was shot down": ["en:plane", "en:shootdown"],
        "can he shoot down into the yard?": ["en:shoot", "en:yard"],
        "can the tank bring the wall down?": ["en:tank", "en:demolish"],
        "can the tank bring down its fire?": ["en:tank", "en:bring", "en:fire"],
        "can I hit my own men?": ["en:fratricid", "en:men"],
        "take a rifle from the dead": ["en:take", "en:rifl", "en:corps"],
        "a knife fight": ["en:mele"],
        "we rolled the same": ["en:tie", "en:roll"],
        "the same man fires": ["en:man", "en:fire"],  # no number rolled: no tie
        "the dead man counts": ["en:dead", "en:man", "en:count"],  # nothing taken from him
        "does reactive armour help?": ["en:reactivearmour", "en:help"],
        "does he cop it?": ["en:hit"],
        "the lads debus from the wagon": ["en:lad", "en:dismount", "en:vehicl"],
        "who goes first each turn?": ["en:initi", "en:first", "en:turn"],
        "who fires first?": ["en:fire", "en:first"],  # no one goes: none takes the initiative
        "how many men can a truck carry?": ["en:capac", "en:men", "en:truck", "en:carri"],
        "how many grenades can a man carry?": ["en:grenad", "en:man", "en:carri"],  # a load, no seats
        "can my men free the journalist?": ["en:men", "en:rescu", "en:free", "en:journalist"],
        "is it a free action for the man?": ["en:free", "en:action", "en:man"],
        "can a building catch fire?": ["en:build", "en:burn"],  # no fire of weapons
        "they set the barn on fire": ["en:set", "en:barn", "en:burn"],
        "can my men fire at the barn?": ["en:men", "en:fire", "en:barn"],
        "both end on the same defeat points": ["en:both", "en:end", "en:tie", "en:defeat", "en:point"],
        # "get out" and "get away" are two small words each: one who gets out exits, who gets away escapes
        "can my guy get out of a melee?": ["en:guy", "en:exit", "en:mele"],
        "my men get out of the truck": ["en:men", "en:exit", "en:truck"],
        "he got away from the fight": ["en:escap", "en:fight"],
        "get him going again": [],  # "going" is "go", a small word
        "do they go full auto?": ["en:burst"],  # a weapon fired full auto fires a burst
        "fully automatic fire": ["en:burst", "en:fire"],
    }
    assert {q: stems(q, "en") for q in said} == said
    assert stems("lo stesso numero", "it") == ["it:parit", "it:numer"]
    assert stems("gli stessi punti", "it") == ["it:parit", "it:stess", "it:punt"]
    assert stems("la casa prende fuoco", "it") == ["it:cas", "it:incend"]  # burns: no fire of weapons
    assert stems("danno fuoco alla casa", "it") == ["it:incend", "it:cas"]
    assert stems("aprire il fuoco sulla casa", "it") == ["it:aprir", "it:fuoc", "it:cas"]  # the weapons' fire
    # who goes first takes the initiative in Italian too (the English phrase had no twin, issue #91)
    assert stems("chi va per primo?", "it") == ["it:iniz", "it:va", "it:prim"]
    assert stems("il primo uomo muove", "it") == ["it:prim", "it:uom", "it:muov"]  # no one goes first
    assert stems("le corazze reattive del carro", "it") == ["it:corazzareatt", "it:carr"]
    assert stems("il giocatore reattivo", "it") == ["it:giocator", "it:reatt"]  # who reacts
    assert stems("un cannone può lanciarsi in un corpo a corpo?", "it") == ["it:cannon", "it:caric", "it:misc"]
    assert stems("può lanciare una granata in un edificio?", "it") == ["it:lanc", "it:gran", "it:edific"]
    assert stems("ci sta un uomo nascosto", "it") == ["it:sta", "it:uom", "it:nascost"]  # no seats asked
    assert stems("lo perde piano piano", "it") == ["it:perd", "it:lent"]
    assert stems("quanti ci stanno nel camion?", "it") == ["it:capienz", "it:camion"]
    assert stems("la casa colpita crolla?", "it") == ["it:cas", "it:colp", "it:croll", "it:demol"]
    assert "it:demol" not in stems("la casa è vicina e il morale crolla", "it")  # a force's morale
    assert stems("ci stiamo menando", "it") == ["it:stiam", "it:men"]  # a fight going on, no seats
    assert stems("quanti soldati porta un camion?", "it") == ["it:capienz", "it:sold", "it:port", "it:camion"]
    assert "it:capienz" not in stems("quanti soldati porta in campo ciascun giocatore?", "it")  # a force's size
    assert stems("posso passare un caricatore?", "it") == ["it:portamunizion", "it:caric"]


def test_a_dialects_words_are_read_as_the_italian_they_stand_for_and_italians_own_words_as_they_are():
    assert stems("'o suldato è muorto? l'hanno pigliato", "it") == stems("il soldato è morto? l'hanno preso", "it")
    assert stems("quanno fernesce 'a partita? chi ha perzo?", "it") == stems(
        "quando finisce la partita? chi ha perso?", "it"
    )
    assert stems("er mio omo pò còre", "it") == stems("il mio uomo può correre", "it")
    assert stems("sto sparando e lui sta perdendo", "it") == ["it:sto", "it:spar", "it:sta", "it:perd"]  # "stare"
    assert stems("aggio pigliato", "en") == ["en:aggio", "en:pigliato"]  # only an Italian question's


def test_a_measure_typed_as_one_word_is_its_number_and_its_unit():
    assert words("shuffled 5cm, then 30 cm; a 2d6 roll") == ["shuffled", "5", "cm", "then", "30", "cm", "2d6", "roll"]
    assert words("l'arma c'è, isn't it") == ["arma", "is", "it"]  # one letter is no word


def _rule(rule_id: str, title: str, **words: str) -> ByReferee:
    return ByReferee(id=rule_id, section="§1", title=title, command="note", **words)


#: Rules about other things, so that a word's weight is a map's, not three rules'.
OTHERS = [_rule(f"Z-{n}", f"{thing} rule {n}") for n, thing in enumerate(["terrain", "vehicles", "cards"] * 10)]


def test_bm25_prefers_the_rule_holding_more_of_the_question_and_abstains_on_none():
    index = Index.build(
        [
            _rule("A-1", "Morale test after losses"),
            _rule("A-2", "Suppressed men test before acting", title_it="Gli uomini soppressi fanno una prova"),
            _rule("A-3", "Smoke drifts"),
            *OTHERS,
        ]
    )
    assert [f.rule.id for f in index.ask("do suppressed men test?").found][0] == "A-2"
    assert [f.rule.id for f in index.ask("gli uomini soppressi").found] == ["A-2"]
    assert index.ask("what is the best pizza?").found == ()


def test_a_catalogue_pair_brings_a_question_in_one_language_to_a_rule_in_the_other():
    rules = [_rule("A-1", "Smoke drifts"), _rule("A-2", "Morale test after losses"), *OTHERS]
    assert Index.build(rules).ask("fumo").found == ()
    bridged = Index.build(rules, [("Smoke", "Fumo")]).ask("fumo")
    assert [f.rule.id for f in bridged.found] == ["A-1"]


def test_a_rule_id_named_in_the_question_comes_first():
    ruleset = get_ruleset("breaking-news")
    index = rulesearch.index_for(ruleset.rules_map(), ruleset.domain)
    assert index.ask("what does SUP-3 say about smoke?").found[0].rule.id == "SUP-3"


def test_a_typo_finds_the_word_a_letter_away_and_a_short_word_is_not_guessed():
    rules = [_rule("A-1", "Ambush placement"), _rule("A-2", "Suppression test"), _rule("A-3", "Smoke"), *OTHERS]
    index = Index.build(rules)
    assert [f.rule.id for f in index.ask("ambsuh placement").found][:1] == ["A-1"]  # two letters swapped
    assert [f.rule.id for f in index.ask("supression").found][:1] == ["A-2"]  # one left out
    assert index.ask("smoek").found == ()  # a stem under six letters is taken as typed


def test_a_word_the_map_lacks_is_read_in_the_other_language_and_a_compound_split():
    rules = [_rule("A-1", "The tank fires", title_it="Il carro spara"), _rule("A-2", "Air strike area"), *OTHERS]
    index = Index.build(rules)
    # "carro" is no English word of the map; read as Italian it is
    assert [f.rule.id for f in index.ask("when does the carro fire").found][:1] == ["A-1"]
    assert [f.rule.id for f in index.ask("how big is an airstrike").found][:1] == ["A-2"]


def test_two_word_pairs_pair_each_word_with_the_one_in_its_place_and_a_pair_no_order_tells_not_at_all():
    pairs = [("fire", "fuoco"), ("opportunity fire", "fuoco opportunità"), ("opportunity", "opportunità")]
    pairs += [(f"{kind} fire", f"fuoco {it}") for kind, it in [("covering", "copertura"), ("support", "supporto"),
              ("friendly", "amico"), ("area", "area"), ("speculative", "speculativo")]]  # fmt: skip
    index = Index.build(OTHERS, pairs)
    assert index.synonyms["en:fire"] == {"it:fuoc"}  # "fire" goes with "fuoco", not with the words beside it
    assert index.synonyms["en:cover"] == {"it:copertur"}
    assert index.synonyms["en:friend"] == {"it:amic"}
    # "suppression test" is "test di soppressione": "test" is itself, so "suppression" is "soppressione"
    tested = Index.build(OTHERS, [("suppression test", "test soppressione")])
    assert tested.synonyms == {"en:suppress": {"it:soppression"}, "it:soppression": {"en:suppress"}}
    # a name's two words, and a pair whose order neither word tells, pair nothing
    assert Index.build(OTHERS, [("Abdi Faysal", "Abdi Faysal"), ("tank destroyed", "carro distrutto")]).synonyms == {}


def test_a_rule_with_nothing_to_apply_and_a_digests_note_rank_below_the_rule():
    from core.explain.rulesmap import NotApplicable

    rules = [
        NotApplicable(id="D-1", section="§1", title="Smoke drifts", why="a draft's wording"),
        _rule("A-1", "Smoke drifts"),
        _rule("A-AMB-1", "Smoke drifts"),
        *OTHERS,
    ]
    ranked, _covered, _strength = Index.build(rules)._scored(Index.build(rules)._alternatives("smoke drifts", "en"))
    assert [rules[i].id for _score, i in ranked[:3]] == ["A-1", "A-AMB-1", "D-1"]


def test_an_idle_question_sharing_one_word_by_chance_is_not_answered():
    rules = [_rule("A-1", "Smoke drifts two turns"), _rule("A-2", "Morale test after losses"), *OTHERS]
    index = Index.build(rules)
    assert index.ask("do we order pizza after the game turns").found == ()
    assert [f.rule.id for f in index.ask("how many turns does smoke last").found][:1] == ["A-1"]


def test_a_question_a_topic_the_book_is_silent_on_holds_best_is_not_answered_and_names_the_topic():
    from core.explain.rulesmap import Topic

    rules = [_rule("A-1", "Smoke drifts with the wind", words_en="smoke cloud drift"), *OTHERS]
    rain = Topic(en="weather", it="meteo", words_en="weather rain snow fog", words_it="pioggia neve nebbia")
    index = Index.build(rules, silent=[rain])
    assert [f.rule.id for f in Index.build(rules).ask("does rain change the smoke drifts").found][:1] == ["A-1"]
    silent = index.ask("rain, fog or snow?")
    assert (silent.found, silent.silent) == ((), rain)
    assert index.ask("does fog change anything").silent is None  # one word of it by chance names no topic
    assert index.ask("pioggia, neve o nebbia?").silent == rain
    # a question the rule holds better than the topic is the rule's, though they share a word
    answered = index.ask("how far does the smoke cloud drift in the wind")
    assert ([f.rule.id for f in answered.found][:1], answered.silent) == (["A-1"], None)


def test_a_topic_of_two_things_answers_only_a_question_that_names_its_other_thing():
    """A topic where a rule holds one of its things (the flamethrower, a row of the weapons' table)
    and the book nothing of the other (what it does to a vehicle): its ``needs_*`` words, one of
    which the question must say, in either language."""
    from core.explain.rulesmap import Topic

    table = "rifle pistol submachine gun machine gun sniper grenade flamethrower rocket launcher mortar cannon"
    rules = [_rule("A-1", "Weapons table", words_en=f"{table} dice range hit short medium long"), *OTHERS]
    asked = (
        "what does a flamethrower do to a tank?",
        "flamethrower against a vehicle?",
        "can a flamethrower burn a truck?",
    )
    loose = Topic(
        en="flamethrowers against vehicles", it="lanciafiamme contro i mezzi", words_en="flamethrower", asked_en=asked
    )
    flamer = Topic(
        en=loose.en, it=loose.it, words_en=loose.words_en, asked_en=asked, needs_en="vehicle tank", needs_it="carro"
    )
    question = "what does a flamethrower need to hit?"
    assert Index.build(rules, silent=[loose]).ask(question).silent == loose  # the table's question, taken
    index = Index.build(rules, silent=[flamer])
    assert [f.rule.id for f in index.ask(question).found] == ["A-1"]
    assert index.ask("can a flamethrower hurt a tank?").silent == flamer
    topic = len(rules)  # its other thing said in either language
    assert index._needed(topic, index._alternatives("danni a un carro?", "it"))
    assert not index._needed(topic, index._alternatives("danni a un uomo?", "it"))


def test_rules_asked_questions_bring_a_players_words_to_the_rule():
    plain = [_rule("A-1", "Covering fire"), _rule("A-2", "Suppression"), *OTHERS]
    asked = [
        _rule("A-1", "Covering fire", asked_en=("can my gunner watch the street and shoot whoever runs across?",)),
        _rule("A-2", "Suppression"),
        *OTHERS,
    ]
    question = "my gunner watches the street: can he shoot whoever runs across?"
    assert Index.build(plain).ask(question).found == ()
    assert [f.rule.id for f in Index.build(asked).ask(question).found][:1] == ["A-1"]


def test_a_question_naming_what_only_a_silent_topic_holds_is_that_topics_though_a_rule_holds_more():
    from core.explain.rulesmap import Topic

    rules = [_rule("A-1", "How far a man can see", words_en="see sight distance far spot"), *OTHERS]
    night = Topic(en="night", it="notte", words_en="night dark darkness", words_it="notte buio")
    index = Index.build(rules, silent=[night])
    question = "night game: how far can we see in the dark?"
    ranked, _covered, _strength = index._scored(index._alternatives(question, "en"))
    assert rules[ranked[0][1]].id == "A-1"  # the rule of sight holds more of the question...
    assert index.ask(question).silent == night  # ...but "night" is said by no rule
    assert [f.rule.id for f in index.ask("how far can we see?").found][:1] == ["A-1"]
    # and so where another topic, which names nothing of the question's own, scores above it
    lights = Topic(en="lamps", it="lampade", words_en="lamp lamps", asked_en=("dark game far",))
    both = Index.build(rules, silent=[lights, night])
    ranked, _covered, _strength = both._scored(both._alternatives(question, "en"))
    assert [i - len(rules) for _s, i in ranked[:3]] == [-len(rules), 0, 1]  # the rule, the lamps, the night
    assert both.ask(question).silent == night


def test_only_what_a_question_asks_names_a_topic_and_never_one_of_the_hobby():
    """The story told before the question (a dark night) and a topic of the players,
    not of the battle (a daughter at the table), do not take a question the rule of sight holds."""
    from core.explain.rulesmap import Topic

    rules = [_rule("A-1", "How far a man can see", words_en="see sight distance far spot"), *OTHERS]
    night = Topic(en="night", it="notte", words_en="night dark darkness")
    children = Topic(en="children", it="bambini", hobby=True, words_en="daughter son kids")
    index = Index.build(rules, silent=[night, children])
    assert index.ask("night game: how far can we see in the dark?").silent == night
    told = index.ask("It was dark night. How far can we see?")
    assert ([f.rule.id for f in told.found][:1], told.silent) == (["A-1"], None)
    asked = index.ask("My daughter and her kids ask: how far can we see?")
    assert ([f.rule.id for f in asked.found][:1], asked.silent) == (["A-1"], None)
    player = Topic(en="children", it="bambini", words_en="daughter son kids")
    assert Index.build(rules, silent=[night, player]).ask(asked.question).silent == player


def test_what_a_question_asks_is_its_sentences_asked_or_else_the_whole():
    assert rulesearch.asked_part("We had a long game. Smoke everywhere! Does smoke block sight?") == (
        "Does smoke block sight?"
    )
    assert rulesearch.asked_part("Two men. One dies? The other runs?") == "One dies? The other runs?"
    assert rulesearch.asked_part("smoke and sight") == "smoke and sight"
    # what a question compares with is another game's, not this book's
    assert rulesearch.asked_part("does it land at once, like a bomber card?") == "does it land at once, ?"
    assert rulesearch.asked_part("si ritira come in Bolt Action?") == "si ritira ?"
    assert rulesearch.asked_part("I'd like a sniper up a tree: can he?") == "I'd like a sniper up a tree: can he?"
    # a question that asks of the thing told just before it asks of that thing too
    assert rulesearch.asked_part("We added a dog. How far does it move?") == "We added a dog. How far does it move?"
    assert rulesearch.asked_part("He climbs a tree. Does that work?") == "He climbs a tree. Does that work?"
    assert rulesearch.asked_part("By a car. What makes it harder?") == "What makes it harder?"


def test_a_word_only_a_topics_asked_questions_hold_does_not_make_a_question_that_topics():
    """What only a topic's asked questions say (a player's "I wish") is not the thing it is about:
    its name and words are (a question wanting civilians is not about boats)."""
    from core.explain.rulesmap import Topic

    rules = [_rule("A-1", "Civilians", words_en="civilian civilians buy bought move"), *OTHERS]
    asked = ("I wish to buy a dinghy", "I wish to buy a boat", "wish a boat")
    boats = Topic(en="boats", it="barche", words_en="boat boats dinghy", asked_en=asked)
    index = Index.build(rules, silent=[boats])
    assert [f.rule.id for f in index.ask("I wish to buy civilians").found] == ["A-1"]
    assert index.ask("I wish to buy civilians and a dinghy").silent == boats


def test_a_thing_named_bare_is_the_rules_where_many_rules_name_it_and_a_topics_where_few_do():
    """ "snipers?" in a book whose tables give snipers their modifiers is not the topic of snipers
    up trees, though the topic's questions say sniper more often than any one rule; nor a topic of
    snipers' own, where six rules name them; where only a rule or two do, in passing, it is."""
    from core.explain.rulesmap import Topic

    said = ["fire modifiers", "spotting modifiers", "points", "cover", "dodging", "range"]
    table = "a table of numbers with its plus and minus for each man and each weapon"
    snipers = [_rule(f"A-{n}", f"{thing}: a sniper", words_en=table) for n, thing in enumerate(said)]
    asked = ("can my sniper climb a tree?", "a sniper up a tree", "sniper in the branches?", "sniper sniper")
    perches = Topic(en="tree perches", it="alberi", words_en="tree trees perch branches", asked_en=asked)
    own = Topic(en="snipers", it="cecchini", words_en="sniper marksman", asked_en=asked)
    for topic in (perches, own):
        index = Index.build([*snipers, *OTHERS], silent=[topic])
        ranked, _covered, _strength = index._scored(index._alternatives("snipers?", "en"))
        assert ranked[0][1] == len(index.rules)  # the topic scores best...
        answer = index.ask("snipers?")
        assert answer.silent is None and answer.found[0].rule.id.startswith("A-")  # ...but six rules name snipers
        assert index.ask("sniper up a tree?").silent == (perches if topic is perches else None)  # a tree is its alone
    assert Index.build([*snipers[:2], *OTHERS], silent=[own]).ask("snipers?").silent == own
    assert Index.build([*snipers[:2], *OTHERS], silent=[perches]).ask("snipers?").silent is None


def test_a_short_question_is_a_topics_where_it_holds_more_of_its_words_than_any_rule():
    """ "how many turns does a game last?" names no thing of its own (many rules say turn, game and
    last), yet the topic of a game's length holds all three of its words, and no rule more than
    two: the book is silent on it, as it is not on "snipers?"."""
    from core.explain.rulesmap import Topic

    things = ["fire", "move", "spot", "rally", "melee", "cards"]
    turns = [_rule(f"A-{n}", f"{thing}: each turn of the game") for n, thing in enumerate(things)]
    lasting = [
        _rule(f"S-{n}", f"{thing} lasts six turns")
        for n, thing in enumerate(["smoke", "gas", "flares", "dust", "fog", "panic"])
    ]
    length = Topic(
        en="how long a game lasts", it="durata", words_en="game lasts turns", asked_en=("how long is a game?",)
    )
    index = Index.build([*turns, *lasting, *OTHERS], silent=[length])
    assert index.ask("how many turns does a game last?").silent == length
    assert index.ask("smoke lasts?").found[0].rule.id == "S-0"  # a thing a rule holds, bare
    assert index.ask("game turns?").silent is None  # two words, which six rules hold both: theirs


def test_where_the_rules_do_not_say_the_nearest_rules_are_offered_only_as_pointers():
    """A question on fog, which the book is silent on, is not answered with the rule of sighting
    that shares its other words: that rule is offered beside the verdict, as the nearest; an idle
    question has no rule near, nor a topic of the players (who brings the beer at a game's end)."""
    from core.explain.rulesmap import Topic

    sight = _rule("A-1", "Sighting: the roll to spot a man", words_en="sighting spot spotting roll see distance")
    rules = [sight, _rule("A-2", "Smoke drifts"), *OTHERS]
    fog = Topic(en="fog", it="nebbia", words_en="fog mist", asked_en=("does fog change spotting?",))
    index = Index.build(rules, silent=[fog])
    foggy = index.ask("does fog change the sighting roll to spot a man?")
    assert (foggy.found, foggy.silent, [f.rule.id for f in foggy.nearest]) == ((), fog, ["A-1"])
    assert index.ask("does the sighting roll to spot a man change?").nearest == ()  # answered: no pointers
    assert index.ask("what does flibbertigibbet mean?").nearest == ()
    ruleset = get_ruleset("breaking-news")
    beer = rulesearch.index_for(ruleset.rules_map(), ruleset.domain).ask("chi porta le birre alla fine della partita?")
    assert beer.silent is not None and beer.silent.hobby and beer.nearest == ()  # (the end of a game is VIC-1's)


def test_a_word_and_the_word_its_translations_put_in_its_place_are_twins_and_a_chance_meeting_is_not():
    from core.explain.ruletwins import LEAST_PAIRS, twins

    card = [(["en:card", "en:draw"], ["it:cart", "it:pesc"])] * LEAST_PAIRS + [(["en:card"], ["it:cart"])]
    turn = [(["en:turn", "en:move"], ["it:turn", "it:muov"]), (["en:turn", "en:fire"], ["it:turn", "it:fuoc"])] * 3
    found = twins(card + turn)
    assert found["en:card"] == "it:cart" and found["it:cart"] == "en:card"
    assert found["en:turn"] == "it:turn"  # in every text of both, with each other word in few
    assert "en:move" not in found and "it:fuoc" not in found  # said together three times: below the least
    assert twins(card[: LEAST_PAIRS - 1]) == {}  # in fewer texts than the least: no twin
    # two as likely: the one first in order, whatever the order of the texts' words
    assert twins([(["en:fire"], ["it:tiro", "it:fuoco"])] * LEAST_PAIRS)["en:fire"] == "it:fuoco"


@SETS
def test_the_rulings_the_books_leave_open_are_said_silent_and_named_and_their_rules_questions_stay_the_rules():
    """Each a question of our own (not a question set's): the topic of a ruling that decides what the
    book leaves open (rules_silent.toml), and beside it the question its rule answers."""

    def asked(ruleset_id: str, question: str) -> str:
        ruleset = get_ruleset(ruleset_id)
        answer = rulesearch.index_for(ruleset.rules_map(), ruleset.domain).ask(question)
        return answer.silent.ruling if answer.silent else answer.found[0].rule.id if answer.found else ""

    said = {
        ("breaking-news", "how many points do I pay for an attack helicopter?"): "BN-PTS-GUNSHIP",
        ("breaking-news", "how does a helicopter gunship fight?"): "ART-6",
        ("breaking-news", "does a flamer do anything to an APC?"): "BN-C-FLAMER",
        ("breaking-news", "what does a flamethrower need to hit?"): "T-08",
        ("breaking-news", "we fought hand-to-hand before anyone fired: who is charged for firing first?"): (
            "BN-C-FIRST-SHOT"
        ),
        ("breaking-news", "who is charged for firing first?"): "FIRE-15",
        ("breaking-news", "is the reacting player allowed to set off his IED?"): "BN-C-REACTING-SUPPORT",
        ("breaking-news", "does each soldier carry grenades or must I buy them?"): "BN-C-GRENADE",
        ("breaking-news", "how far can a grenade be thrown?"): "T-10",
        ("bassa-intensita", "a squad with recruits and veterans loses its leader: whose Quality is rolled?"): (
            "BI-SQUAD-QUALITY"
        ),
        ("bassa-intensita", "the leader is dead, how is a new one chosen?"): "BI-R028",
    }
    assert {key: asked(*key) for key in said} == said
