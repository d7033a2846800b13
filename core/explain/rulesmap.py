"""A ruleset's rules map: every rule id of its digest, and what Fireteam does with it.

The map is data, ``data/rules_map.toml`` in the ruleset's package (``Ruleset.rules_map``):
one ``[[rule]]`` per id of the English digest of its rulebook (``shared/rules/digest-*.md``),
each with its rulebook section, a ``title`` (what the rule is about, in the digest's words,
so that the map reads without the digest), ``says`` and ``says_it`` (what it says, in a sentence
or two of our own words with the book's numbers, in English and Italian) and a ``status``:

* ``enforced``: code applies it (``code``, ``module:function``) and a test checks it with
  exact dice (``tests``, ``path::test_name``); both at least one; every clause of it;
* ``partial``: as ``enforced``, but only part of it: ``why`` says what is left to the referee;
* ``ruling``: the book is unclear or silent and Fireteam decides, as ``docs/rulings.md``
  records under the id given in ``ruling``;
* ``variant``: it applies in the ruleset's variant named in ``variant``;
* ``referee``: it is left to the referee, who uses the command named in ``command``;
* ``not-applicable``: there is nothing to apply (``why`` says why: a rule about the
  physical table, which Fireteam has no model of, ruling CORE-MAP; a draft's title).

Any rule may also have ``title_it`` and ``why_it`` (its title and its note in Italian, shown
to an Italian reader: ``why`` says so where it falls back to the English) and
``words_en``, ``words_it`` (the other words a player asks about it with): ``rule?`` finds
rules by them (``core.explain.rulesearch``).  So it does by ``asked_en`` and ``asked_it``, the
questions players ask that the rule answers, kept apart in ``data/rules_asked.toml`` (a table
per rule id, ``en`` and ``it`` lists) so that the map reads as a map: :func:`load` adds them.
Beside them, ``data/rules_silent.toml`` lists what players ask about that the book has no rule
for (:class:`Topic`: weather, painting, boats…), so that ``rule?`` says the rules do not say, and
names Fireteam's ruling where one decides it (a draw on equal defeat points).

``code``, ``tests``, ``ruling`` and ``why`` may stand beside any status.  The status is the
tag of a msgspec tagged union, so a map that lacks what its status needs does not load.
Only cheap shape checks are made here (the fields' forms, each id once);
``tests/core/test_rules_map.py`` checks that the map is complete against the digest and
honest: every function imports, every test exists and names its rule, every ruling,
command and variant is the ruleset's.  ``fireteam rules`` and the client's Rules screen
(from the help) show it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar

import msgspec

from core.language.i18n import N_

#: ``module:function``, or ``module:Class.method``.
CODE_FORM = r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$"
#: ``tests/…/test_x.py::test_name``, or ``…::TestClass::test_name``.
TEST_FORM = r"^tests/([\w.-]+/)*test_\w+\.py::[A-Za-z_]\w*(::[A-Za-z_]\w*)?$"
#: A digest's rule id: ``FIRE-3``, ``AMB-01``, ``BI-R001``, ``LT-AMB-12``.
ID_FORM = r"^[A-Z]+(-[A-Z]+)*-?[0-9]+[a-z]?$"
#: The most rules one map may hold (a digest has a few hundred).
MAX_RULES = 5_000

CodeRef = Annotated[str, msgspec.Meta(pattern=CODE_FORM, max_length=200)]
TestRef = Annotated[str, msgspec.Meta(pattern=TEST_FORM, max_length=300)]
Word = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
Note = Annotated[str, msgspec.Meta(max_length=2_000)]
#: A question a rule answers (``rules_asked.toml``), and the most of them in each language.
Question = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]
MAX_ASKED = 12
#: The most topics a book is silent on that one map may list.
MAX_TOPICS = 200
Asked = Annotated[tuple[Question, ...], msgspec.Meta(max_length=MAX_ASKED)]
#: What a rule says (``Rule.says``): one line, no control characters, short enough to hear.
STATEMENT_MAX = 200
Statement = Annotated[str, msgspec.Meta(max_length=STATEMENT_MAX, pattern=r"^[^\x00-\x1f\x7f]*$")]

#: The statuses, in the order they are listed, each with its word (translated where shown).
STATUSES: dict[str, str] = {
    "enforced": N_("enforced"),
    "partial": N_("partial"),
    "ruling": N_("ruling"),
    "variant": N_("variant"),
    "referee": N_("referee"),
    "not-applicable": N_("not applicable"),
    "todo": N_("to do"),
}
#: What each status means, for a legend.
MEANINGS: dict[str, str] = {
    "enforced": N_("Fireteam applies it, and a test with the book's dice checks it"),
    "partial": N_("Fireteam applies part of it (tested so); the note says what is left to the referee"),
    "ruling": N_("the book is unclear or silent: Fireteam decides, as docs/rulings.md records"),
    "variant": N_("it applies in the variant named"),
    "referee": N_("left to the referee, with the command named"),
    "not-applicable": N_("nothing to apply at the table (the note says why)"),
    "todo": N_("not accounted for yet"),
}


class Rule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="status"):
    """One rule id of the digest and what Fireteam does with it (the fields any status may have)."""

    status: ClassVar[str] = ""
    id: Annotated[str, msgspec.Meta(pattern=ID_FORM, max_length=20)]
    section: Word
    title: Annotated[str, msgspec.Meta(max_length=200)] = ""
    #: What the rule says, in a sentence or two of our own words with the book's numbers and section
    #: ("An assault rifle reaches 150 cm (§8.0)."), in English and in Italian: what an answer says
    #: first (``rule?``, ``why``, ``?``), short enough to be heard.
    says: Statement = ""
    says_it: Statement = ""
    code: tuple[CodeRef, ...] = ()
    tests: tuple[TestRef, ...] = ()
    ruling: str = ""
    variant: str = ""
    command: str = ""
    why: Note = ""
    #: The title and the note in Italian, and more words a player asks about it with, in English
    #: and in Italian: what ``rule?`` searches (``core.explain.rulesearch``), each in its own language.
    title_it: Annotated[str, msgspec.Meta(max_length=200)] = ""
    why_it: Note = ""
    words_en: Note = ""
    words_it: Note = ""
    asked_en: Asked = ()
    asked_it: Asked = ()


class Enforced(Rule, frozen=True, tag="enforced"):
    status: ClassVar[str] = "enforced"
    code: Annotated[tuple[CodeRef, ...], msgspec.Meta(min_length=1)]
    tests: Annotated[tuple[TestRef, ...], msgspec.Meta(min_length=1)]


class Partial(Rule, frozen=True, tag="partial"):
    """Applied only in part: a referee must not read it as ``enforced``."""

    status: ClassVar[str] = "partial"
    code: Annotated[tuple[CodeRef, ...], msgspec.Meta(min_length=1)]
    tests: Annotated[tuple[TestRef, ...], msgspec.Meta(min_length=1)]
    why: Annotated[str, msgspec.Meta(min_length=1, max_length=2_000)]


class ByRuling(Rule, frozen=True, tag="ruling"):
    status: ClassVar[str] = "ruling"
    ruling: Word


class InVariant(Rule, frozen=True, tag="variant"):
    status: ClassVar[str] = "variant"
    variant: Word


class ByReferee(Rule, frozen=True, tag="referee"):
    status: ClassVar[str] = "referee"
    command: Word


class NotApplicable(Rule, frozen=True, tag="not-applicable"):
    status: ClassVar[str] = "not-applicable"
    why: Annotated[str, msgspec.Meta(min_length=1, max_length=2_000)]


class ToDo(Rule, frozen=True, tag="todo"):
    """Not accounted for yet: a map being written may hold these; a finished one may not."""

    status: ClassVar[str] = "todo"


Entry = Enforced | Partial | ByRuling | InVariant | ByReferee | NotApplicable | ToDo


class RulesMapError(ValueError):
    """A map that does not load: which file, which rule, what is wrong."""


class RuleAsked(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One rule's table in ``rules_asked.toml``: the questions it answers, in each language."""

    en: Asked = ()
    it: Asked = ()


#: The questions file beside a map, and the file of what its book is silent on.
ASKED, SILENT = "rules_asked.toml", "rules_silent.toml"


class Topic(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What players ask about that the book has no rule for (``rules_silent.toml``): its name in
    each language, shown in the answer, and the words and questions that ask about it."""

    en: Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
    it: Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
    #: A topic of the players and the hobby (the club, a child at the table, painting, other
    #: games), not of the battle: a question a rule holds names it only to say who asks.
    hobby: bool = False
    #: Where Fireteam decides what the book leaves open: the ``docs/rulings.md`` id, and what it
    #: decides in a sentence of our own words in each language (an answer names them).
    ruling: Annotated[str, msgspec.Meta(max_length=40)] = ""
    says: Statement = ""
    says_it: Statement = ""
    words_en: Note = ""
    words_it: Note = ""
    #: A topic of two things where a rule holds one (a flamethrower against a tank: the book has
    #: the flamethrower, not what it does to a vehicle): the other's words, of which a question must
    #: say one, in either language, for the topic to answer it ("what does a flamethrower need to
    #: hit?" asks the rule of the flamethrower). None: any question the topic holds best.
    needs_en: Note = ""
    needs_it: Note = ""
    asked_en: Asked = ()
    asked_it: Asked = ()


class Silent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``rules_silent.toml``: the topics."""

    topic: Annotated[tuple[Topic, ...], msgspec.Meta(max_length=MAX_TOPICS)] = ()


class RulesMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every rule of a map, in the file's order, and what the book is silent on (its own file's)."""

    rule: Annotated[tuple[Entry, ...], msgspec.Meta(max_length=MAX_RULES)] = ()
    silent: tuple[Topic, ...] = ()

    @property
    def rules(self) -> tuple[Entry, ...]:
        return self.rule

    def get(self, rule_id: str) -> Entry | None:
        return next((r for r in self.rule if r.id == rule_id), None)

    def counts(self) -> dict[str, int]:
        """How many rules have each status (every status, in :data:`STATUSES` order)."""
        out = dict.fromkeys(STATUSES, 0)
        for r in self.rule:
            out[r.status] += 1
        return out

    def select(self, status: str = "", query: str = "") -> list[Entry]:
        """The rules of ``status`` (any when empty) whose words hold ``query`` (any case)."""
        q = query.strip().lower()
        return [r for r in self.rule if (not status or r.status == status) and (not q or q in words(r).lower())]


def words(rule: Rule) -> str:
    """Everything a search may find in a rule: its id, section, status and every field."""
    return " ".join(
        (rule.id, rule.section, rule.title, rule.status, *rule.code, *rule.tests)
        + (rule.ruling, rule.variant, rule.command, rule.why)
    )


def by_section(rules: Iterable[Entry]) -> list[tuple[str, list[Entry]]]:
    """The rules grouped by their section, in the book's order (``§4.1`` before ``§10.0``;
    sections that are not numbered, such as the extras, after them); the rules of one
    section in the order given."""
    groups: dict[str, list[Entry]] = {}
    for r in rules:
        groups.setdefault(r.section, []).append(r)
    return sorted(groups.items(), key=lambda item: section_key(item[0]))


_NUMBER = re.compile(r"\d+")


def section_key(section: str) -> tuple[Any, ...]:
    """Numbered sections (``§8.0.2``, ``A.13.2``) by their numbers, the others after, by name."""
    first = section.split(",")[0].strip()
    numbers = tuple(int(n) for n in _NUMBER.findall(first))
    if first.startswith("§") and numbers:
        return (0, numbers, first)
    if numbers:
        return (1, first.rstrip("0123456789. "), numbers, first)
    return (2, (), first.lower())


def as_json(rule: Entry, ruleset_id: str) -> dict[str, Any]:
    """A rule as ``fireteam rules --json`` gives it: ``id``, ``status``, ``code``, ``tests``,
    ``section``, ``ruling`` (null when there is none), ``ruleset`` and ``title``, with
    ``variant``, ``command`` and ``why`` where they are set."""
    out: dict[str, Any] = {
        "ruleset": ruleset_id,
        "id": rule.id,
        "status": rule.status,
        "section": rule.section,
        "code": list(rule.code),
        "tests": list(rule.tests),
        "ruling": rule.ruling or None,
        "title": rule.title,
    }
    for name in ("variant", "command", "why"):
        if value := getattr(rule, name):
            out[name] = value
    return out


#: The engine's own rules (who gives which command, phases, undo, the shared tools): the
#: rules a refusal of the engine names (``core.refusal``), in a map of the same form.
ENGINE_MAP = Path(__file__).with_name("engine_rules.toml")
#: A rulebook section as a roll's ``rule`` cites it: ``§8.2``, ``A.9.3``, ``C.6``, ``Extras: Media``.
_SECTION = re.compile(r"§\d+(?:\.\d+)*|\b[A-C]\.\d+(?:\.\d+)*|Extras: [A-Z][\w ]*[a-z]|Calculating points")


@cache
def engine() -> RulesMap:
    """The engine's rules map (:data:`ENGINE_MAP`), read once."""
    return load(ENGINE_MAP)


def find(rmap: RulesMap | None, rule_id: str) -> Entry | None:
    """The rule ``rule_id`` of ``rmap`` or else of the engine's map; None for an id of neither."""
    return (rmap.get(rule_id) if rmap is not None else None) or engine().get(rule_id)


def cited(rmap: RulesMap | None, reference: str) -> tuple[str, ...]:
    """The rule ids a reference names, as a roll's or a command's ``rule`` words it: the ids
    it names that a map holds (``LN-R010, LN-R011``); else the rules that cite a ruling it
    names (``ruling LN-END``); else the rules of the sections it names (``§8.2``,
    ``Extras: Media``; ``A.12`` takes ``A.12.1`` too), in the map's order.  Empty when it names none of them."""
    rules = (*(rmap.rules if rmap is not None else ()), *engine().rules)
    ids = {r.id for r in rules}
    named = [w for w in re.findall(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+[a-z]?", reference) if w in ids]
    if named:
        return tuple(dict.fromkeys(named))
    rulings = set(re.findall(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+", reference))
    by_ruling = tuple(r.id for r in rules if r.ruling and r.ruling in rulings)
    if by_ruling:
        return by_ruling
    sections = set(_SECTION.findall(reference))
    return tuple(r.id for r in rules if any(r.section == s or r.section.startswith(s + ".") for s in sections))


def load(path: Path) -> RulesMap:
    """The map in ``path``, checked for its shape; :class:`RulesMapError` names the rule at fault."""
    data = path.read_bytes()
    try:
        found = msgspec.toml.decode(data, type=RulesMap)
    except msgspec.ValidationError as e:
        raise RulesMapError(f"{path}: {_which(data, str(e))}{e}") from None
    except msgspec.DecodeError as e:
        raise RulesMapError(f"{path}: {e}") from None
    seen: set[str] = set()
    for r in found.rule:
        if r.id in seen:
            raise RulesMapError(f"{path}: {r.id} is listed twice")
        seen.add(r.id)
    if found.silent:
        raise RulesMapError(f"{path}: what the book is silent on goes in {SILENT}")
    asked, silent = path.with_name(ASKED), path.with_name(SILENT)
    if asked.is_file():
        found = _with_asked(found, asked)
    if silent.is_file():
        try:
            topics = msgspec.toml.decode(silent.read_bytes(), type=Silent).topic
        except (msgspec.ValidationError, msgspec.DecodeError) as e:
            raise RulesMapError(f"{silent}: {e}") from None
        found = msgspec.structs.replace(found, silent=topics)
    return found


def _with_asked(found: RulesMap, path: Path) -> RulesMap:
    """``found`` with the questions of ``path`` (:data:`ASKED`) in its rules' ``asked_en`` and
    ``asked_it``; :class:`RulesMapError` names a table of no rule, or a rule asked in both files."""
    try:
        asked = msgspec.toml.decode(path.read_bytes(), type=dict[str, RuleAsked])
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise RulesMapError(f"{path}: {e}") from None
    if unknown := sorted(set(asked) - {r.id for r in found.rule}):
        raise RulesMapError(f"{path}: {', '.join(unknown)}: no rule of the map")
    rules = []
    for r in found.rule:
        if (more := asked.get(r.id)) is not None:
            if r.asked_en or r.asked_it:
                raise RulesMapError(f"{path}: {r.id} has questions in the map too")
            r = msgspec.structs.replace(r, asked_en=more.en, asked_it=more.it)
        rules.append(r)
    return RulesMap(rule=tuple(rules))


def _which(data: bytes, error: str) -> str:
    """``rule FIRE-3: `` for an error at ``$.rule[12]``, naming the rule by its id."""
    m = re.search(r"\$\.rule\[(\d+)\]", error)
    if not m:
        return ""
    try:
        rule = tomllib.loads(data.decode("utf-8"))["rule"][int(m.group(1))]
        return f"rule {rule['id']}: " if isinstance(rule.get("id"), str) else ""
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return ""
