"""Rules questions answered offline: the rules of a ruleset's map that a question in Italian
or English is about, best first, or none when the rules do not say (issues #76, #91).

Plain BM25 (Robertson's Okapi weighting, written here: no numpy) over each rule of the map
(``core.explain.rulesmap``): its id, title, note, English ``words`` and the questions players ask that
it answers (``asked_en``, ``data/rules_asked.toml``: a rule is found by the words players use,
not only the book's) stemmed as English, its ``title_it``, ``words_it`` and ``asked_it`` as
Italian (Snowball's stemmers, PyStemmer); and over each topic the book is silent on
(``data/rules_silent.toml``), so that a question about the weather is told the book has
nothing on it rather than given the rule that shares a word with it. A
question is stemmed in the language it was typed in (told by its small words; where they do
not tell, both are tried and the better kept), and each of its words brings in, at
:data:`SYNONYM` weight, its translations in the ruleset's catalogues (``core.language.i18n.pairs``:
a command's, a term's, a choice's Italian and English, each word paired with the one in its
place, :meth:`Index._pair_all`), so a question in one language finds a rule written in the
other; and each word its twin, the word the map's own parallel texts put in its place
(``core.explain.ruletwins``), at the word's own weight (:data:`TWIN`): a question is scored on
both languages' words of each rule, so that it and its translation lead with the same rule
wherever one language's words of a rule are fewer (issue #91). A question that names a rule id finds it first.

Nothing is guessed. The answer is that the rules do not say where a topic the book is silent on
holds the question (a topic of two things only where the question names its other thing,
:meth:`Index._needed`; best, or by a thing it names that no rule holds: a thing counted in
whichever wording rules use least, the word, its translation or a word of the same meaning, so
that a question and its translation are told the same, :meth:`Index._ruled`), or where the best rule
holds too little of the question's weight (:data:`COVERED`, the share of its words' idf that the
rule matches, each word of the rule standing for one word of the question only) or scores too
little (:data:`FLOOR`, or :data:`STRONG` for each unit of the question's weight): the question's
key words are no rule's. Then the nearest rules are kept as pointers only (:data:`NEAREST`). A
near tie between two rules is no reason to abstain: on the sets tuned on, it stands far more
often for a right answer than for a question the book is silent on (docs/benchmark.md, #91).
The index of a ruleset is built once per process (:func:`index_for`), a question then takes
a millisecond or two (``tui/bench/rulesearch.py``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice

from core.explain.rulesmap import Entry, RulesMap, Topic
from core.explain.ruletwins import twins
from core.explain.rulewords import SMALL, alike, alike_table, fold, language_of, phrased, stem, stems, stems_of, words
from core.language.i18n import pairs

#: BM25's term-frequency saturation and length normalisation: a rule asked about in many words
#: (its questions, rules_asked.toml) is the better for saying a word often, and long less against it
#: (0.4, not 0.5, since each word is also scored by its twin, :data:`TWIN`: a long rule's two
#: languages both hold it, and 0.5 cost right first 3 of our 132, docs/benchmark.md).
K1, B = 3.0, 0.4
#: The weight of a word's translation beside the word itself, and of a word of the same meaning.
SYNONYM, ALIKE = 0.3, 0.5
#: The weight of a word's twin in the map's other language (``core.explain.ruletwins``) beside the
#: word itself: the same, so that a rule's score does not hang on which language's words hold it
#: (issue #91: 66 pairs of our own agreeing 56 → 60 with the twins alone, docs/benchmark.md).
TWIN = 1.0
#: The weight of a word read in the other language, and of a map's word a typo away, where the
#: map has not the word typed; and the shortest stem a typo is looked for in.
OTHER, TYPO, TYPO_LENGTH = 0.5, 0.6, 6
#: How many first letters of two stems, one in each language, tell the words of a catalogue's
#: two-word pair that stand for each other ("opportun" and "opportun").
COGNATE = 4
#: How likely a rule of each status is the answer beside the others: one with nothing to apply at
#: the table (a draft's wording, a table's size) is seldom what a player asks about.
PRIOR = {"not-applicable": 0.6}
#: And of a digest's note beside a rule (an ambiguity's reading, ``AMB-``; a draft's difference,
#: ``DIFF-``; the book's worked example, ``EX-``): a question is more often about the rule it qualifies.
BESIDE = 0.75
_BESIDE = re.compile(r"(?:^|-)(?:AMB|DIFF|EX)-")
#: The shortest word read as a part of a word that runs two together ("airstrike").
PART = 3
#: How near a rule's score a topic the book is silent on must come, when it holds a word of the
#: question that no rule holds, to be the answer (``Index._unsaid``).
OWN_WORD = 0.5
#: A question of this many words or fewer names a thing bare ("snipers?"): a topic the book is
#: silent on answers it only where the question names a thing of the topic's (a word of its name
#: or its words) that :data:`FEW` rules or fewer hold. A thing many rules name is the rules': a
#: book whose tables give snipers their modifiers is not silent on "snipers?" for having no rule
#: of snipers up trees. Nor is a topic whose own words hold more of the question's words than
#: any rule does: "how many turns does a game last?" is the topic of a game's length, not the
#: rule of smoke that "lasts six turns".
SHORT, FEW = 3, 5
#: The weight of a title's words beside a rule's other words (said twice as often).
TITLE = 1
#: The least score of the best rule (a rule that shares a word or two with an idle question by
#: chance scores less: on BM25's scale a word the map holds is worth its idf, some 3 to 5, less
#: where the question weighs it little), or else the least score for each unit of the question's
#: weight: a short question that one rule answers well (a word translated by the catalogues) is no
#: idle one.
FLOOR, STRONG = 6.0, 0.25
#: A best rule holding less than this share of the question's weight answers it only with both
#: the least score and this score for each unit of weight: a long question told in a player's own
#: words ("in Bolt Action I'd just take a pin test") is answered when the few words the map holds
#: point at one rule strongly.
COVERED, HELD = 0.25, 0.25
#: How much the share of the question's words a rule holds weighs on its score (0.65 with the
#: twins, 0.75 before them: a word held in both languages is already counted twice; 0.6 let a
#: rule holding one word of three, "best", answer "what's the best recipe for lasagne").
COORD = 0.65
#: The most rules an answer gives, and the longest question read (characters).
SHOWN, MAX_QUESTION = 3, 500
#: How near the best a rule's score must be to be given beside it (a share of the best).
NEAR = 0.4
#: Where the rules do not say: the most rules offered as the nearest, each scoring at least what
#: an answer must (:data:`FLOOR`: a rule sharing a word with an idle question is none) and
#: :data:`NEAR` of the first.
NEAREST = 2  # (no more than SHOWN: the rules an answer looks at)

#: A text read: its words (``Index.said``) and their stems but the small words'.
_Read = tuple[list[str], list[str]]

_ID = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)*-?\d+[a-z]?\b")


def _deletions(term: str) -> set[str]:
    """``term`` (``en:smoke``) with one letter of its stem left out, each way."""
    body = term[3:]
    return {term[:3] + body[:i] + body[i + 1 :] for i in range(len(body))}


@dataclass(frozen=True)
class Found:
    """One rule an answer gives: its entry and its score."""

    rule: Entry
    score: float


@dataclass(frozen=True)
class Answer:
    """The rules a question is about, best first (none: the rules do not say, and then maybe
    what about), and the language it was read in."""

    question: str
    language: str
    found: tuple[Found, ...] = ()
    #: When nothing is found: the topic the book is silent on that the question is about, if one is.
    silent: Topic | None = None
    #: When nothing is found: the rules nearest the question, best first, offered only as pointers
    #: (the book's sighting rule beside a question on fog), none where no rule comes near.
    nearest: tuple[Found, ...] = ()


@dataclass
class Index:
    """A ruleset's rules, ready to be asked."""

    rules: tuple[Entry, ...]
    silent: tuple[Topic, ...] = ()
    docs: list[Counter[str]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    idf: dict[str, float] = field(default_factory=dict)
    postings: dict[str, list[int]] = field(default_factory=dict)
    synonyms: dict[str, set[str]] = field(default_factory=dict)
    #: Each word of the map with its twin in the other language (``core.explain.ruletwins``).
    twins: dict[str, str] = field(default_factory=dict)
    by_id: dict[str, int] = field(default_factory=dict)
    deletions: dict[str, set[str]] = field(default_factory=dict)
    priors: list[float] = field(default_factory=list)
    said: dict[str, set[str]] = field(default_factory=lambda: {"en": set(), "it": set()})
    #: Each topic's own words (its name and its ``words_*``, stemmed): what a question must say, as
    #: typed, to be the topic's where a rule ranks first (``_unsaid``).
    named: list[frozenset[str]] = field(default_factory=list)
    #: Each topic's other thing (its ``needs_*``, stemmed; empty: none), of which a question must say
    #: a word for the topic to answer it (:meth:`_scored`).
    needs: list[frozenset[str]] = field(default_factory=list)
    average: float = 1.0
    usual: float = 1.0

    @classmethod
    def build(
        cls, rules: Iterable[Entry], lexicon: Iterable[tuple[str, str]] = (), silent: Iterable[Topic] = ()
    ) -> Index:
        """The index of ``rules`` and of the topics the book is ``silent`` on (each a document
        after the rules'); ``lexicon``: (English, Italian) pairs of words, synonyms."""
        index = cls(tuple(rules), tuple(silent))
        alike_table()  # the words alike stemmed now, not at the first question
        read: dict[tuple[str, str], _Read] = {}  # each text read once: its words, its stems

        def reading(text: str, language: str) -> _Read:
            if (text, language) not in read:
                said = words(phrased(text, language))
                read[text, language] = said, stems_of(said, language)
            return read[text, language]

        for i, rule in enumerate(index.rules):
            english = (rule.title,) * TITLE + (rule.why, rule.words_en, *rule.asked_en)
            italian = (rule.title_it,) * TITLE + (rule.words_it, *rule.asked_it)
            prior = PRIOR.get(rule.status, 1.0) * (BESIDE if _BESIDE.search(rule.id) else 1.0)
            index._add(i, [reading(t, "en") for t in english], [reading(t, "it") for t in italian], prior)
            index.by_id[rule.id.lower()] = i
        for i, topic in enumerate(index.silent, start=len(index.rules)):
            english = (topic.en, topic.words_en, *topic.asked_en)
            italian = (topic.it, topic.words_it, *topic.asked_it)
            named = stems(f"{topic.en} {topic.words_en}", "en") + stems(f"{topic.it} {topic.words_it}", "it")
            index.named.append(frozenset(named))
            index.needs.append(frozenset(stems(topic.needs_en, "en") + stems(topic.needs_it, "it")))
            # as likely as a rule; a tie goes to the rule, listed first
            index._add(i, [reading(t, "en") for t in english], [reading(t, "it") for t in italian], 1.0)
        n = len(index.docs)
        index.average = (sum(index.lengths) / n) if n else 1.0
        index.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in index.postings.items()}
        index.usual = sum(index.idf.values()) / len(index.idf) if index.idf else 1.0
        index._pair_all((stems(en, "en"), stems(it, "it")) for en, it in lexicon)
        parallel = _parallel(index.rules, index.silent)
        index.twins = twins((reading(en, "en")[1], reading(it, "it")[1]) for en, it in parallel)
        for term in index.idf:  # each word of the map by itself and with a letter left out, for typos
            if len(term) - 3 >= TYPO_LENGTH - 1:
                for d in (term, *_deletions(term)):
                    index.deletions.setdefault(d, set()).add(term)
        return index

    def _add(self, i: int, english: list[_Read], italian: list[_Read], prior: float) -> None:
        """Document ``i``: its ``english`` and ``italian`` texts, each read (its words, its stems)
        in its own language."""
        doc: Counter[str] = Counter()
        for language, texts in (("en", english), ("it", italian)):
            for said, stemmed in texts:
                self.said[language].update(said)
                doc.update(stemmed)
        self.docs.append(doc)
        self.priors.append(prior)
        self.lengths.append(sum(doc.values()))
        for term in doc:
            self.postings.setdefault(term, []).append(i)

    def _pair_all(self, lexicon: Iterable[tuple[list[str], list[str]]]) -> None:
        """The words of the pairs each other's synonyms: a word for a word; of two words for
        two, each word with the one the other language puts in its place, which one told by
        the pair's other word (the same stem, a pair of one word, or the same first
        :data:`COGNATE` letters: "opportunity fire" is "fuoco d'opportunità" because "fire"
        is "fuoco"). A pair whose order neither way tells is left out: paired every word with
        every word, "suppression test" made "test" a synonym of "soppressione" and a name's two
        words ("Abdi Faysal") each other's, and a question asked in English and in Italian
        led with other rules (issue #91)."""
        usable = [
            (en, it)
            for en, it in lexicon
            if en and it and len(en) == len(it) <= 2 and not any(t[3:].isdigit() for t in (*en, *it))
        ]  # a number stands for itself: "1" is no "Zug 1"
        single = {(en[0], it[0]) for en, it in usable if len(en) == 1}

        def told(a: str, b: str) -> bool:
            x, y = a[3:], b[3:]
            return x == y or (a, b) in single or (len(x) >= COGNATE and x[:COGNATE] == y[:COGNATE])

        paired = set(single)
        for en, it in usable:
            if len(en) == 2:
                straight = told(en[0], it[0]) or told(en[1], it[1])
                if straight != (told(en[0], it[1]) or told(en[1], it[0])):
                    paired.update(zip(en, it if straight else it[::-1], strict=True))
        for a, b in paired:
            if a[3:] != b[3:]:  # the same stem in both is found as it is
                self.synonyms.setdefault(a, set()).add(b)
                self.synonyms.setdefault(b, set()).add(a)

    def _alternatives(self, question: str, language: str) -> list[dict[str, float]]:
        """Each word of the question as the terms that stand for it, with their weights: the
        word itself (1); where the map has no such word, the word read in the other language
        (:data:`OTHER`: a "tank" in an Italian question) and the map's words a letter away
        (:data:`TYPO`); then a word of the same meaning (:data:`ALIKE`), a translation (:data:`SYNONYM`)."""
        other = "it" if language == "en" else "en"
        out = []
        for word in words(phrased(question, language)):
            if fold(word) in SMALL[language]:
                continue
            term = stem(language, word)
            alt = {term: 1.0}
            if term not in self.idf and not alike(term):
                read = stem(other, word)
                if read in self.idf and fold(word) not in SMALL[other]:
                    alt[read] = OTHER
                for near in self._near(term) | self._split(language, word):
                    alt.setdefault(near, TYPO)
            for found, w in list(alt.items()):
                for same in alike(found):
                    alt.setdefault(same, w * ALIKE)
            for near, w in list(alt.items()):
                for translated in self.synonyms.get(near, ()):
                    alt.setdefault(translated, w * SYNONYM)
            for found in [t for t, w in alt.items() if w == 1.0 and t in self.twins]:
                alt[self.twins[found]] = max(alt.get(self.twins[found], 0.0), TWIN)
            out.append(alt)
        return out

    def _split(self, language: str, word: str) -> set[str]:
        """The map's two words that ``word`` runs together ("airstrike": air, strike), each
        of :data:`PART` letters or more and written so in the map."""
        said = self.said[language]
        for cut in range(PART, len(word) - PART + 1):
            if word[:cut] in said and word[cut:] in said:
                return {stem(language, word[:cut]), stem(language, word[cut:])}
        return set()

    def _near(self, term: str) -> set[str]:
        """The map's terms of ``term``'s language a letter away from it (one left out, put in,
        changed, or two swapped): a typo; only for stems of :data:`TYPO_LENGTH` letters or more."""
        body = term[3:]
        if len(body) < TYPO_LENGTH:
            return set()
        found: set[str] = set()
        for d in (term, *_deletions(term)):
            found.update(self.deletions.get(d, ()))
        return {t for t in found if t[:3] == term[:3] and t != term}

    def _scored(self, alternatives: list[dict[str, float]]) -> tuple[list[tuple[float, int]], float, float]:
        """Every rule with a score, best first; the share of the question's weight that the best
        matches (a word the map has none of weighs as its words do on average); and the best
        score for each unit of that weight. A word of the rule matches one word of the question
        only: the rule's "destroyed" is not both the "distrutto" and the "carro" of "carro
        distrutto" (whose catalogue pair makes each word of it a synonym of each), nor its
        "punto" both a question's "punti" and a word alike."""
        scores: dict[int, float] = {}
        matched: dict[int, list[tuple[float, float, frozenset[str]]]] = {}
        most = self.usual
        whole = 0.0
        for alt in alternatives:
            weight = max((self.idf[t] for t in alt if t in self.idf), default=most)
            whole += weight
            has: dict[int, set[str]] = {}
            for term, w in alt.items():
                idf = self.idf.get(term, 0.0)
                for i in self.postings.get(term, ()):
                    tf = self.docs[i][term]
                    norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[i] / self.average))
                    scores[i] = scores.get(i, 0.0) + w * idf * norm
                    has.setdefault(i, set()).add(term)
            for i, terms in has.items():
                matched.setdefault(i, []).append((max(alt[t] for t in terms), weight, frozenset(terms)))
        # a rule that holds more of the question's words comes first (Lucene's "coord"); a topic of
        # two things is none where the question says nothing of the other (Topic.needs_en)
        ranked = sorted(
            (
                (s * (sum(f[1] for f in matched[i]) / whole) ** COORD * self.priors[i], i)
                for i, s in scores.items()
                if i < len(self.rules) or self._needed(i, alternatives)
            ),
            key=lambda si: (-si[0], si[1]),
        )
        if not ranked or not whole:
            return ranked, 0.0, 0.0
        held, again = _held(matched[ranked[0][1]])
        covered = held / (whole - again) if whole > again else 0.0
        return ranked, covered, ranked[0][0] / whole

    def ask(self, question: str) -> Answer:
        """The rules ``question`` is about (:class:`Answer`)."""
        question = question[:MAX_QUESTION]
        named = [self.by_id[m.lower()] for m in _ID.findall(question) if m.lower() in self.by_id]
        said = language_of(question)
        tried = []
        for language in (said,) if said else ("en", "it"):
            alternatives = self._alternatives(question, language)
            ranked, covered, strength = self._scored(alternatives)
            tried.append((covered, ranked[0][0] if ranked else 0.0, language, ranked, strength, alternatives))
        covered, _best, language, ranked, strength, alternatives = max(tried, key=lambda t: t[:2])
        if named:
            first = [Found(self.rules[i], math.inf) for i in dict.fromkeys(named)]
            rest = [Found(self.rules[i], s) for s, i in ranked if i not in named and i < len(self.rules)]
            return Answer(question, language, tuple((first + rest)[:SHOWN]))
        if ranked and ranked[0][1] >= len(self.rules) and len(alternatives) <= SHORT:
            rule = next((i for _s, i in ranked if i < len(self.rules)), None)
            most = self._words_held(rule, alternatives) if rule is not None else 0
            kept = [
                (s, i)
                for s, i in ranked
                if i < len(self.rules) or self._owns(i, alternatives, FEW) or self._words_held(i, alternatives) > most
            ]
            if kept and kept[0] != ranked[0]:
                strength *= kept[0][0] / ranked[0][0]
                ranked = kept
        top = ranked[0][0] if ranked else 0.0
        rules = [Found(self.rules[i], s) for s, i in islice(((s, i) for s, i in ranked if i < len(self.rules)), SHOWN)]
        if not top or (top < FLOOR and strength < STRONG) or (covered < COVERED and (top < FLOOR or strength < HELD)):
            return Answer(question, language, nearest=_nearest(rules))
        best = ranked[0][1] if ranked[0][1] >= len(self.rules) else self._unsaid(ranked, question, language)
        if best is not None:  # a topic the book is silent on holds the question (best, or by its own word)
            topic = self.silent[best - len(self.rules)]  # (one of the players, not of the battle, has no rule near)
            return Answer(question, language, silent=topic, nearest=() if topic.hobby else _nearest(rules))
        return Answer(question, language, tuple(f for f in rules[:SHOWN] if f.score >= NEAR * top))

    def _unsaid(self, ranked: list[tuple[float, int]], question: str, language: str) -> int | None:
        """The best topic the book is silent on, where a rule ranks first, that the question names,
        as it is typed, by the topic's thing (a word of its name or its words, not only of the
        questions asked of it: a player's "I wish") that no rule holds ("night" where no rule says
        night), and the topic scores :data:`OWN_WORD` of the rule's score: a question about the
        night's effect on sight is not about the rule of sight that holds its other words, nor
        about a topic between them that names nothing of it. Only what the question asks names it
        (:func:`asked_part`, read only when a topic scores near enough), and a topic of the hobby
        never does ("my daughter asks: does a man hit die at once?" asks of a rule)."""
        n, least = len(self.rules), OWN_WORD * ranked[0][0]
        near = [i for score, i in ranked if score >= least and i >= n and not self.silent[i - n].hobby]
        if not near:
            return None
        alternatives = self._alternatives(asked_part(question), language)
        return next((i for i in near if self._owns(i, alternatives)), None)

    def _needed(self, topic: int, alternatives: list[dict[str, float]]) -> bool:
        """Whether the question says a word of ``topic``'s other thing (as typed, or by its twin, a
        word alike or a translation), where the topic has one."""
        needs = self.needs[topic - len(self.rules)]
        return not needs or any(term in needs for alt in alternatives for term in alt)

    def _words_held(self, doc: int, alternatives: list[dict[str, float]]) -> int:
        """How many of the question's words document ``doc`` holds (as typed or by another term): a
        topic by its own words only (its name and its ``words_*``, not the questions asked of it)."""
        held = self.named[doc - len(self.rules)] if doc >= len(self.rules) else self.docs[doc]
        return sum(any(term in held for term in alt) for alt in alternatives)

    def _owns(self, topic: int, alternatives: list[dict[str, float]], few: int = 0) -> bool:
        """Whether the question names, as it is typed, a thing of ``topic`` (a word of its name
        or its words) that ``few`` rules or fewer name (none, unless told: :meth:`_ruled`)."""
        held = self.named[topic - len(self.rules)]
        return any(
            weight == 1.0 and term in held and self._ruled(term) <= few
            for alt in alternatives
            for term, weight in alt.items()
        )

    def _ruled(self, term: str) -> int:
        """How many rules name the thing ``term`` says, in whichever of its wordings rules use
        least but use: the word, its translations (the catalogues') and its words of the same
        meaning; none only where no rule holds any of them. So the decision does not hang on the
        language a question is typed in (issue #91): Linea di Tiro's Italian rules say "punti" of
        the table's points where its English rules say "points" of nothing, and "quanti punti
        vale un Panther?" was answered with a rule where "how many points is a Panther worth?"
        was told the book keeps no points; Ludonet's rules say "aereo", no "velivolo", and "come
        attacca un velivolo?" was told the book is silent where "how does an aircraft attack?"
        had its rule. (A translation no rule holds tells nothing: the catalogue's "pezzo" for a
        gun is no rule's word.)"""
        n = len(self.rules)
        said = (term, *self.synonyms.get(term, ()), *alike(term))
        return min((c for c in (sum(i < n for i in self.postings.get(t, ())) for t in said) if c), default=0)


def _parallel(rules: Iterable[Entry], silent: Iterable[Topic]) -> Iterable[tuple[str, str]]:
    """The map's texts said in both languages, each English one with its Italian: a rule's title,
    statement, words and each question asked of it; a silent topic's name, words and questions."""
    for rule in rules:
        yield from ((rule.title, rule.title_it), (rule.says, rule.says_it), (rule.words_en, rule.words_it))
        yield from zip(rule.asked_en, rule.asked_it, strict=False)  # (a rule may have a question more in one)
    for topic in silent:
        yield from ((topic.en, topic.it), (topic.words_en, topic.words_it))
        yield from zip(topic.asked_en, topic.asked_it, strict=False)


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


#: A comparison with another game or thing ("like a bomber card", "come in Bolt Action"): what it
#: names is not what is asked of this book.
_LIKE = re.compile(
    r"(?<!'d )(?<!would )\b(?i:like|as in|unlike) (?:a|an|the|in|with)\b[^,.;:?!]*"  # not "I'd like a…"
    r"|\b(?i:come) (?:in|nel|nei|nella|con|a|ad) [A-Z][^,.;:?!]*"  # Italian's names a game: "come in Bolt Action"
)


#: A question that asks of a thing told before it ("does that work?", "how far does it move?").
_BACK = re.compile(
    r"(?i)^(?:\w+ ){0,2}(?:does|do|did|can|could|will|would|is|was|should|may|might|must) (?:it|that|this)\b"
)


def asked_part(question: str) -> str:
    """What ``question`` asks: its sentences that end with a question mark, without those that
    tell the story before them ("My Rangers crouch by a burnt-out car. What do they need to spot
    the militia?" asks of spotting, not of wrecks), but with the one just before a question that
    asks of a thing it told ("We added a dog. How far does it move?"); the whole question where
    none ends so."""
    said = _SENTENCE.split(question.strip())
    asked = [
        f"{said[k - 1]} {s}" if k and not said[k - 1].endswith("?") and _BACK.search(s) else s
        for k, s in enumerate(said)
        if s.endswith("?")
    ]
    return _LIKE.sub("", " ".join(asked) or question)


def _nearest(rules: list[Found]) -> tuple[Found, ...]:
    """The rules offered as the nearest where the rules do not say (:data:`NEAREST`)."""
    return tuple(f for f in rules[:NEAREST] if f.score >= max(FLOOR, NEAR * rules[0].score))


def _held(found: list[tuple[float, float, frozenset[str]]]) -> tuple[float, float]:
    """The weight of the question's words a rule holds, each of its words standing for one of them
    (those it holds as they are first, then those it holds by a word alike or a translation), and
    the weight of the words it holds only by words that stand for others already: a question
    that says a thing twice ("the blast of a grenade") is not held the less for it."""
    used: set[str] = set()
    weight = again = 0.0
    for _w, word_weight, terms in sorted(found, key=lambda f: -f[0]):
        if terms - used:
            used |= terms
            weight += word_weight
        else:
            again += word_weight
    return weight, again


def lexicon(domain: str) -> list[tuple[str, str]]:
    """The (English, Italian) pairs of ``domain``'s catalogue and the core's: a ruleset's words."""
    from core.language.i18n import CORE_DOMAIN

    found = pairs("it", domain) + ([] if domain == CORE_DOMAIN else pairs("it", CORE_DOMAIN))
    short = ((en.replace("-", " "), it.replace("-", " ")) for en, it in found if "{" not in en)
    # only a word for a word, or two for two, are paired (Index._pair): a sentence is not stemmed for nothing
    return [(en, it) for en, it in short if len(en.split()) <= 3 and len(it.split()) <= 4]


#: Each map's index by (the map's id, domain), the map kept with it (so that its id is not reused).
_INDEXES: dict[tuple[int, str], tuple[RulesMap, Index]] = {}


def index_for(rules_map: RulesMap, domain: str) -> Index:
    """The index of ``rules_map`` with ``domain``'s words (a ruleset's catalogue), built once."""
    key = (id(rules_map), domain)
    if key not in _INDEXES:
        _INDEXES[key] = (rules_map, Index.build(rules_map.rules, lexicon(domain), rules_map.silent))
    return _INDEXES[key][1]
