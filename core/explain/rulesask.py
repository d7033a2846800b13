"""``rule? WORDS`` (Italian ``regola? …``): a rules question answered in sentences, in the
reader's language, at every door (the client, an SSH or browser seat, a plain seat) and by
``fireteam rules ask``: the rules of the ruleset's map it is about, best first, each with its
section, its status and what it says in the project's words (``core.explain.rulesearch`` finds them),
or that the rules do not say. A question that names pieces on the table is offered ``?``, which
shows what a command would take without giving it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from core.language.i18n import _, ngettext
from core.language.reader import lang
from core.refusal import TYPING, Refused

if TYPE_CHECKING:
    from core.explain.rulesearch import Answer
    from core.explain.rulesmap import Entry
    from core.ruleset import Ruleset

# The search (its stemmers, the maps' TOML) is imported in the functions that ask it: a client names
# the reading word in its first frame (its command line's guide) and pays for the search when asked.

#: The reading word, in English (the catalogues give the reader's: ``regola?``).
WORD = "rule?"


def ask(ruleset: Ruleset, question: str) -> Answer | None:
    """The rules ``question`` is about in ``ruleset``'s map; None for a ruleset without one."""
    from core.explain.rulesearch import index_for

    rules_map = ruleset.rules_map()
    return None if rules_map is None else index_for(rules_map, ruleset.domain).ask(question)


def statement(rule: Entry) -> str:
    """What a rule says, in the project's words and the reader's language (its title), said
    as a sentence (an arrow, which a screen reader spells out by its name, as a colon)."""
    said = rule.title_it if lang() == "it" and rule.title_it else rule.title
    said = said.replace(" → ", ": ").replace("→", ":")
    return said if said.endswith((".", "…", "?", "!")) else f"{said}."  # a title cut short keeps its "…"


def answer_lines(ruleset: Ruleset, question: str, pieces: Iterable[tuple[str, str]] = ()) -> list[str]:
    """``rule? question`` answered in sentences; ``pieces``: (id, name) of the pieces the asker
    sees on the table, for the offer of ``?``. :class:`Refused` for no question."""
    from core.explain.rulesearch import MAX_QUESTION
    from core.explain.rulesmap import STATUSES

    question = question.strip()
    if not question:
        raise Refused(_("rule? WORDS: a rules question, e.g. rule? can a suppressed man fire"), rule=TYPING)
    if len(question) > MAX_QUESTION:
        raise Refused(_("a rules question is at most {count} characters").format(count=MAX_QUESTION), rule=TYPING)
    answer = ask(ruleset, question)
    if answer is None:
        return [_("{ruleset} has no rules map yet: its rules cannot be asked.").format(ruleset=ruleset.shown_name())]
    if answer.silent is not None:
        topic = answer.silent.it if lang() == "it" else answer.silent.en
        said = _("The rules do not say: the rules of {ruleset} have nothing on {topic}.")
        out = [said.format(ruleset=ruleset.shown_name(), topic=topic)]
    elif not answer.found:
        said = _("The rules do not say: nothing in the rules of {ruleset} matches that well enough.")
        out = [said.format(ruleset=ruleset.shown_name())]
    else:
        out = [
            ngettext(
                "The rule that answers it:",
                "The rules that answer it, the likeliest first:",
                len(answer.found),
            )
        ]
        for found in answer.found:
            rule = found.rule
            out.append(
                _("{id} ({section}, {status}): {says}").format(
                    id=rule.id, section=rule.section, status=_(STATUSES[rule.status]), says=statement(rule)
                )
            )
    named = _named(question, pieces)
    if named:
        out.append(
            _("To see what a command would take, without giving it: ? COMMAND {pieces} (e.g. ? fire {pieces}).").format(
                pieces=" ".join(named)
            )
        )
    return out


def _named(question: str, pieces: Iterable[tuple[str, str]]) -> list[str]:
    """The ids of the pieces ``question`` names (by id or by name), in its order."""
    from core.explain.rulewords import words

    said = words(question)
    by_word: dict[str, str] = {}
    for piece_id, name in pieces:
        for w in {piece_id.lower(), *words(name)}:
            by_word.setdefault(w, piece_id)
    return list(dict.fromkeys(by_word[w] for w in said if w in by_word))
