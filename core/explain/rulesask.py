"""``rule? WORDS`` (Italian ``regola? …``): a rules question answered in sentences, in the
reader's language, at every door (the client, an SSH or browser seat, a plain seat) and by
``fireteam rules ask``: what the rule that answers it says (``core.explain.rulesearch`` finds it),
or that the rules do not say, with the ruling Fireteam decides by and the nearest rules. A
question that names pieces on the table is offered ``?``, which shows what a command would take
without giving it.

The answer is a list of parts, each a sentence or two, the answer itself first (issue #91: a
player hears it through a screen reader, and may stop after the first): the lead (the first
rule's statement, name and ruling; or the verdict that the rules do not say, with the ruling that
decides where one does, in one sentence), then the other rules or the nearest ones, by name
only, and the offer of ``?``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from core.language.i18n import _
from core.language.reader import lang
from core.refusal import TYPING, Refused

if TYPE_CHECKING:
    from core.explain.rulesearch import Answer
    from core.explain.rulesmap import Entry, Topic
    from core.ruleset import Ruleset

# The search (its stemmers, the maps' TOML) is imported in the functions that ask it: a client pays
# for it when asked (the reading word its first frame names is ``core.explain.WORD``).


def ask(ruleset: Ruleset, question: str) -> Answer | None:
    """The rules ``question`` is about in ``ruleset``'s map; None for a ruleset without one."""
    from core.explain.rulesearch import index_for

    rules_map = ruleset.rules_map()
    return None if rules_map is None else index_for(rules_map, ruleset.domain).ask(question)


def statement(rule: Entry | Topic) -> str:
    """What a rule (or the ruling of a topic the book is silent on) says, in the reader's
    language: its ``says`` or ``says_it``; "" where it has none in that language."""
    said = rule.says_it if lang() == "it" else rule.says
    return said.strip()


def title(rule: Entry) -> str:
    """A rule's name, its title in the reader's language where the map has it (else in English),
    said as words (an arrow, which a screen reader spells out by its name, as a colon; no
    closing stop, a title cut short without its "…")."""
    said = rule.title_it if lang() == "it" and rule.title_it else rule.title
    return said.replace(" → ", ": ").replace("→", ":").rstrip(".…").strip()


#: A statement's closing cite, its section in brackets (``… a 1 always fails (§9.0).``): every
#: statement of the built-in maps ends with one (tests/core/test_rules_map.py holds them to it).
_CITE = re.compile(r"\s*\(([^()]+)\)\.?$")


def uncited(says: str) -> tuple[str, str]:
    """A statement without its closing cite, and the cite ("" where it has none)."""
    cite = _CITE.search(says)
    return (says[: cite.start()], cite[1]) if cite else (says, "")


def stated(rule: Entry, ruled: bool = False) -> str:
    """One rule as an answer's lead says it: its statement, then its id, section, name and status;
    a rule with no statement in the reader's language by its title (a plugin's map); and, for a
    rule the book leaves unclear or silent (status ``ruling``), or for any rule with a ruling where
    ``ruled`` (``rule?``'s answer: the fragment gives no vehicle moves, and what Fireteam reads
    instead is ruling LN-VEHICLES; issue #91), the ruling, where the statement does not name it.
    The statement's closing cite is said with the rule's name, after it: a listener who stops after
    the statement has not heard "section 9 point 0" (1.5 s at eSpeak NG's default rate) before its end."""
    from core.explain.rulesmap import STATUSES

    status = _(STATUSES[rule.status])
    says = statement(rule)
    if says:
        body, cite = uncited(says)
        body = body if body.endswith((".", "!", "?")) else f"{body}."  # (a plugin's map may leave it off)
        if cite:
            name = _("Rule {id} ({section}): {title}, {status}.")
            out = f"{body} " + name.format(id=rule.id, section=cite, title=title(rule), status=status)
        else:
            out = f"{body} " + _("Rule {id}: {title}, {status}.").format(id=rule.id, title=title(rule), status=status)
    else:
        out = _("Rule {id} ({section}, {status}): {title}.").format(
            id=rule.id, section=rule.section, status=status, title=title(rule)
        )
    if rule.ruling and (rule.status == "ruling" or ruled) and rule.ruling not in says:
        out += " " + _("Ruling {ruling} (docs/rulings.md).").format(ruling=rule.ruling)
    return out


def named(rules: Iterable[Entry]) -> str:
    """Rules by name only, a pointer each (``SPOT-3, Sighting roll; SPOT-5, Success``)."""
    return "; ".join(_("{id}, {title}").format(id=r.id, title=title(r)) for r in rules)


def also(rules: Sequence[Entry]) -> list[str]:
    """The rules beside an answer's first, by name only, in one part (none for none)."""
    return [_("Also: {rules}.").format(rules=named(rules))] if rules else []


def said(answer: Answer, ruleset_name: str) -> list[str]:
    """``answer`` in sentences, the lead first (the module's docstring says the parts)."""
    if answer.found:
        return [stated(answer.found[0].rule, ruled=True), *also([f.rule for f in answer.found[1:]])]
    if answer.silent is not None:
        if answer.silent.ruling:  # the verdict and the ruling that decides in one lead, short to hear
            decides = _("The rules do not say; Fireteam's ruling {ruling}: {says}")
            out = [decides.format(ruling=answer.silent.ruling, says=statement(answer.silent))]
        else:
            topic = answer.silent.it if lang() == "it" else answer.silent.en  # the reader's, not the question's
            verdict = _("The rules do not say: the rules of {ruleset} have nothing on {topic}.")
            out = [verdict.format(ruleset=ruleset_name, topic=topic)]
    else:
        verdict = _("The rules do not say: nothing in the rules of {ruleset} matches that well enough.")
        out = [verdict.format(ruleset=ruleset_name)]
    if answer.nearest:
        out.append(_("Nearest: {rules}.").format(rules=named(f.rule for f in answer.nearest)))
    return out


def answer_lines(ruleset: Ruleset, question: str, pieces: Iterable[tuple[str, str]] = ()) -> list[str]:
    """``rule? question`` answered in sentences (:func:`said`); ``pieces``: (id, name) of the
    pieces the asker sees on the table, for the offer of ``?``. :class:`Refused` for no question."""
    from core.explain.rulesearch import MAX_QUESTION

    question = question.strip()
    if not question:
        raise Refused(_("rule? WORDS: a rules question, e.g. rule? can a suppressed man fire"), rule=TYPING)
    if len(question) > MAX_QUESTION:
        raise Refused(_("a rules question is at most {count} characters").format(count=MAX_QUESTION), rule=TYPING)
    answer = ask(ruleset, question)
    if answer is None:
        return [_("{ruleset} has no rules map yet: its rules cannot be asked.").format(ruleset=ruleset.shown_name())]
    out = said(answer, ruleset.shown_name())
    if piece_ids := _named(question, pieces):
        out.append(
            _("To see what a command would take, without giving it: ? COMMAND {pieces} (e.g. ? fire {pieces}).").format(
                pieces=" ".join(piece_ids)
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
