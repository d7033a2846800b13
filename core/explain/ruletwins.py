"""Each word of a rules map with the word the map's other language puts in its place, learnt
from the map itself (issue #91): a rule's title and ``title_it``, its ``says`` and ``says_it``,
its ``words_en`` and ``words_it``, and each question players ask of it in English beside the same
question in Italian (``asked_en``, ``asked_it``, written in pairs), and so a topic the book is
silent on. Two stems that are said in the same pairs of texts far more often than by chance
stand for each other ("en:suppress" and "it:soppress", "en:card" and "it:cart").

Why: ``rule?`` scored a question on the words of its own language, reaching the other only
through the catalogues' few pairs, so where a rule's English and Italian words differed, a
question and its translation led with different rules (25 pairs written blind: 15 agreeing).
With each word's twin a question is scored on both languages' words of every rule, whichever
language it is typed in (``core.explain.rulesearch``, :data:`TWIN`).

The measure is Dice's coefficient over the pairs of texts (twice the pairs holding both stems,
over the pairs holding each): a word and its translation are said together in most pairs, a
frequent word ("turn", "tiro") with every other word in few of them. Each stem keeps the one of
the other language it is likeliest with (of two as likely, the one first in order, so that the
table is the same in every process), and only where that one keeps it too: a twin both ways.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

#: The least Dice's coefficient of two twins, and the least pairs of texts that say both: words said
#: together three times by chance are no evidence (Italian's "curare", in five texts, three of them
#: beside "patch up", took it for its twin, and "un medico può curare se stesso?" was given the
#: medic's rule where its English twin was told the book is silent). Measured on 66 pairs of our
#: own (docs/benchmark.md): 0.3 to 0.5 agree alike.
LEAST_DICE, LEAST_PAIRS = 0.3, 4


def twins(texts: Iterable[tuple[list[str], list[str]]]) -> dict[str, str]:
    """Each stem of ``texts`` (pairs of one text's English stems and its Italian's) with its
    twin of the other language, where it has one (both ways: ``en:card`` → ``it:cart`` and back)."""
    english: Counter[str] = Counter()
    italian: Counter[str] = Counter()
    both: Counter[tuple[str, str]] = Counter()
    for en, it in texts:
        e, i = set(en), set(it)
        english.update(e)
        italian.update(i)
        both.update((a, b) for a in e for b in i)
    best: dict[str, tuple[float, str]] = {}
    for (a, b), n in both.items():
        if n < LEAST_PAIRS:
            continue
        dice = 2 * n / (english[a] + italian[b])
        if dice < LEAST_DICE:
            continue
        for x, y in ((a, b), (b, a)):
            was, found = best.get(x, (0.0, ""))
            if dice > was or (dice == was and y < found):  # a tie to the stem first in order, not a set's
                best[x] = (dice, y)
    return {x: y for x, (_dice, y) in best.items() if best[y][1] == x}
