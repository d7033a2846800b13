"""Every ruleset's rules map (``core.explain.rulesmap``) is complete and honest.

Complete: every rule id of the ruleset's digest (``shared/rules/digest-*.md``, beside the
checkout) is in the map exactly once, and none is left ``todo``.  Honest: every ``code``
entry imports and is a function or method; every ``tests`` entry is a test function of that
file whose name, docstring or a comment inside it names the rule's id; every ``ruling`` is a
row of docs/rulings.md; every ``command`` is one of the ruleset's commands and every
``variant`` one of its variants.  The checks themselves are tried on bogus entries, so they
can fail.

Every ruleset with a ``data/rules_map.toml`` is checked; its digest and the form of its
ids are in :data:`DIGESTS`.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from functools import cache, cached_property
from pathlib import Path

import msgspec
import pytest

from core.explain import rulesmap
from core.explain.rulesmap import RulesMap, RulesMapError, Topic
from core.game.builtins import builtin_commands
from core.registry import BUILTIN, available, get_ruleset

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules"
RULINGS = ROOT / "docs" / "rulings.md"

_BN_FAMILIES = (
    "T|AMB|DIFF|EX|EXT|FIRE|MOR|COV|SPOT|SAVE|OPP|OBJ|MOV|SUP|BLD|ART|PTS|PLT|MORT|INI|DP|DEP|WND|MEL|ACT|VSAVE"
    "|VIC|VF|SMK|FF|SPEC"
)
_SHARED_DIGEST = "digest-bassa-intensita-ludonet-linea-di-tiro.md"
#: Each ruleset's digest and the form of its rule ids there (every id the digest names).
DIGESTS: dict[str, tuple[str, str]] = {
    "breaking-news": ("digest-breaking-news.md", rf"(?<![\w-])(?:{_BN_FAMILIES})-\d+(?![\w-])"),
    "bassa-intensita": (_SHARED_DIGEST, r"(?<![\w-])BI-(?:R|AMB-)\d+(?![\w-])"),
    "linea-di-tiro": (_SHARED_DIGEST, r"(?<![\w-])LT-(?:R|AMB-)\d+(?![\w-])"),
    "ludonet": (_SHARED_DIGEST, r"(?<![\w-])LN-(?:R|AMB-)\d+(?![\w-])"),
}

#: The digest's unnumbered notes that have rows of their own, under ids of the map's making
#: (the digest gives them none): Bassa Intensità's weapon notes of A.9.3, BI-WN<n> for note (n),
#: and the note under A.6.2's vehicle table on a move partly on the road, BI-R045a;
#: Breaking News' notes under its tables that no numbered rule states, T-nn and a letter;
#: Linea di Tiro's notes under its two fire tables, a letter after the rule that reads the table:
#: LT-R050a the AT table's long-range note, b its die modifiers, c its legend; LT-R060a the MG/HE
#: legend, b the defence values (C.7.1).
NOTE_ROWS: dict[str, set[str]] = {
    "bassa-intensita": {f"BI-WN{n}" for n in range(1, 9)} | {"BI-R045a"},
    "breaking-news": {"T-11a", "T-17a"},
    "linea-di-tiro": {"LT-R050a", "LT-R050b", "LT-R050c", "LT-R060a", "LT-R060b"},
}

MAPPED = [rid for rid in available() if get_ruleset(rid).rules_map() is not None]


def _map(ruleset_id: str) -> RulesMap:
    found = get_ruleset(ruleset_id).rules_map()
    assert found is not None
    return found


def digest_ids(ruleset_id: str) -> set[str]:
    name, form = DIGESTS[ruleset_id]
    path = RULES / name
    if not path.is_file():
        pytest.skip(f"the digest is not beside the checkout ({path}): completeness cannot be checked here")
    return set(re.findall(form, path.read_text(encoding="utf-8"))) | NOTE_ROWS.get(ruleset_id, set())


# ----------------------------------------------------------------- the checks


def completeness_problems(rmap: RulesMap, ids: set[str]) -> list[str]:
    listed = [r.id for r in rmap.rules]
    problems = [f"{i}: not in the map" for i in sorted(ids - set(listed))]
    problems += [f"{i}: not a rule of the digest" for i in sorted(set(listed) - ids)]
    problems += [f"{i}: listed {listed.count(i)} times" for i in sorted(set(listed)) if listed.count(i) > 1]
    return problems


def code_problem(ref: str) -> str | None:
    """Why ``module:qualified.name`` is not a function or method of the code (None if it is)."""
    module_name, _, qualname = ref.partition(":")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as e:
        return f"{ref}: {module_name} does not import ({e})"
    for part in qualname.split("."):
        try:
            obj = inspect.getattr_static(obj, part)
        except AttributeError:
            return f"{ref}: {module_name} has no {qualname}"
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    elif isinstance(obj, property):
        obj = obj.fget
    elif isinstance(obj, cached_property):
        obj = obj.func
    if inspect.ismethod(obj):
        obj = obj.__func__
    obj = inspect.unwrap(obj)  # functools.cache and other wrappers
    if isinstance(obj, functools.partial):  # a table read on first use (core.ruleset.Tables.table)
        obj = obj.func
    if inspect.ismethod(obj):
        obj = obj.__func__
    if not inspect.isfunction(obj):
        return f"{ref}: not a function or method ({type(obj).__name__})"
    return None


@cache
def _parsed(path: Path) -> tuple[str, ast.Module] | None:
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def _found(body: list[ast.stmt], name: str) -> ast.AST | None:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return next((n for n in body if isinstance(n, kinds) and n.name == name), None)


def names_the_rule(source: str, name: str, rule_id: str) -> bool:
    """Whether a test names ``rule_id``: in its source (docstring, comments, strings) as
    written (``FIRE-3``, not ``FIRE-30``), or in its name (``test_fire_3_…``)."""
    if re.search(rf"(?<![\w-]){re.escape(rule_id)}(?![\w-])", source):
        return True
    return re.search(rf"(?:^|_){re.escape(rule_id.lower().replace('-', '_'))}(?:_|$)", name) is not None


def _test_node(ref: str) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef | None, str]:
    """The source of the test ``path::name`` (from its first decorator), its node, or why there is none."""
    path, *names = ref.split("::")
    parsed = _parsed(ROOT / path)
    if parsed is None:
        return "", None, f"{ref}: no file {path}"
    text, tree = parsed
    body: list[ast.stmt] = tree.body
    node: ast.AST | None = None
    for name in names:
        node = _found(body, name)
        if node is None:
            return "", None, f"{ref}: {path} has no {'::'.join(names)}"
        body = getattr(node, "body", [])
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not node.name.startswith("test"):
        return "", None, f"{ref}: not a test function"
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return "\n".join(text.splitlines()[first - 1 : node.end_lineno]), node, ""


def cited_test_problem(ref: str, rule_id: str) -> str | None:
    """Why ``path::name`` (or ``path::Class::name``) is not a test that names ``rule_id``."""
    source, node, problem = _test_node(ref)
    if node is None:
        return problem
    own = source.splitlines()[node.lineno - min([node.lineno, *(d.lineno for d in node.decorator_list)]) :]
    if not names_the_rule("\n".join(own), node.name, rule_id):
        return f"{ref}: does not name {rule_id} (in its name, docstring or a comment)"
    return None


#: How a test names the variant it plays: its id, the word ``variant`` (a parameter), or the
#: ``IT`` constant the Breaking News tests bind to the Italian draft's id.
_PLAYS_VARIANT = r"(?<![\w-]){id}(?![\w-])|\bvariant\b|\bIT\b"


def variant_test_problem(ref: str, variant: str) -> str | None:
    """Why the test ``ref`` does not play ``variant`` (a ``variant`` rule's test must)."""
    source, node, problem = _test_node(ref)
    if node is None:
        return problem
    if not re.search(_PLAYS_VARIANT.format(id=re.escape(variant)), source):
        return f"{ref}: does not play the variant {variant}"
    return None


@cache
def _rulings() -> frozenset[str]:
    return frozenset(re.findall(r"^\| ([A-Z][A-Z0-9-]+) \|", RULINGS.read_text(encoding="utf-8"), re.M))


@cache
def _commands(ruleset_id: str) -> frozenset[str]:
    ruleset = get_ruleset(ruleset_id)
    return frozenset(
        name for spec in [*ruleset.commands(), *builtin_commands(ruleset)] for name in (spec.name, *spec.aliases)
    )


def honesty_problems(rmap: RulesMap, ruleset_id: str) -> list[str]:
    ruleset = get_ruleset(ruleset_id)
    problems = []
    for r in rmap.rules:
        problems += [f"{r.id}: {p}" for ref in r.code if (p := code_problem(ref))]
        problems += [f"{r.id}: {p}" for ref in r.tests if (p := cited_test_problem(ref, r.id))]
        if r.ruling and r.ruling not in _rulings():
            problems.append(f"{r.id}: ruling {r.ruling} is not in docs/rulings.md")
        if r.command and r.command not in _commands(ruleset_id):
            problems.append(f"{r.id}: {r.command} is not a command of {ruleset_id}")
        if r.variant and r.variant not in ruleset.variants:
            problems.append(f"{r.id}: {r.variant} is not a variant of {ruleset_id}")
        if r.status == "variant":
            if not r.tests:
                problems.append(f"{r.id}: no test plays the variant {r.variant}")
            problems += [f"{r.id}: {p}" for ref in r.tests if (p := variant_test_problem(ref, r.variant))]
    for t in rmap.silent:
        if t.ruling and t.ruling not in _rulings():
            problems.append(f"topic {t.en}: ruling {t.ruling} is not in docs/rulings.md")
        if bool(t.ruling) != bool(t.says and t.says_it):
            problems.append(f"topic {t.en}: a ruling says what it decides in both languages, and only a ruling")
    return problems


# ---------------------------------------------------------------- the maps


#: Each ruleset's rulings (docs/rulings.md) that no rule or silent topic of its map carries: each
#: says how a command plays a rule the map has (``BN-C-COVER-EXCEPTIONS`` reads §8.0's list, T-09
#: answers), or what the program does beside the book (a deck's dice, a scenario's variables), so a
#: player's question is the rule's, not one the book is silent on. A ruling that decides what the book
#: leaves open is a topic of ``rules_silent.toml`` (``BN-C-CARRY-ONCE``), so that ``rule?`` says the book
#: is silent and names it (issue #91: the blind sets ask of them); a new ruling goes to one or here.
READINGS = {
    "breaking-news": {
        "BN-ONE-COMMANDER", "BN-DEP-QUICK", "BN-OBJ-RANDOM", "BN-HELI-TARGET", "BN-IED", "BN-C-COVER-EXCEPTIONS",
        "BN-C-PROTECTED-OCCUPANTS", "BN-C-MARKER", "BN-C-CAUSE", "BN-C-OPTIONS",
    },
    "bassa-intensita": {
        "BI-ORDER", "BI-TIERS", "BI-TARGET-MOVE", "BI-M3", "BI-MORALE-NEXT", "BI-HEAVY-WEAPONS", "BI-MOUNT",
        "BI-MAIN-GUN", "BI-BURST-ZONE", "BI-AA-AIRCRAFT", "BI-FIRE-DICE", "BI-END-ROUT", "BI-SCENARIO-VARS",
    },
    "linea-di-tiro": {
        "LT-DECK-DICE", "LT-TABLE-DECK", "LT-TURN", "LT-GUNS", "LT-FALL-BACK", "LT-TEST-FIRST", "LT-RATING",
        "LT-SCENARIO-VARS",
    },
    "ludonet": {"LN-NO-MARKERS", "LN-REINFORCE"},
}  # fmt: skip
_PREFIXES = {"breaking-news": "BN-", "bassa-intensita": "BI-", "linea-di-tiro": "LT-", "ludonet": "LN-"}


@pytest.mark.parametrize("ruleset_id", sorted(_PREFIXES))
def test_every_ruling_of_a_ruleset_is_carried_by_its_map_or_listed_as_a_reading(ruleset_id):
    rmap = _map(ruleset_id)
    carried = {r.ruling for r in rmap.rules} | {t.ruling for t in rmap.silent}
    said = " ".join(f"{r.says} {r.why}" for r in rmap.rules)  # a rule may name the ruling it reads by
    uncarried = {
        ruling
        for ruling in _rulings()
        if ruling.startswith(_PREFIXES[ruleset_id])
        and ruling not in carried
        and not re.search(rf"\b{re.escape(ruling)}\b", said)
    }
    assert uncarried == READINGS[ruleset_id]


@pytest.mark.parametrize("ruleset_id", MAPPED)
def test_the_map_lists_every_rule_of_the_digest_once(ruleset_id):
    assert completeness_problems(_map(ruleset_id), digest_ids(ruleset_id)) == []


@pytest.mark.parametrize("ruleset_id", MAPPED)
def test_no_rule_is_left_to_do(ruleset_id):
    assert [r.id for r in _map(ruleset_id).rules if r.status == "todo"] == []


@pytest.mark.parametrize("ruleset_id", MAPPED)
def test_every_rule_says_what_it_is_about(ruleset_id):
    # a referee reads the map without the digest beside him
    assert [r.id for r in _map(ruleset_id).rules if not r.title.strip()] == []


def test_every_rule_says_what_it_says_in_both_languages_with_its_section():
    # An answer leads with what the rule says (issue #91): a rule with no statement would be
    # answered by its title alone, and one without its section could not be checked in the book.
    maps = [_map(ruleset_id) for ruleset_id in MAPPED] + [rulesmap.engine()]
    unsaid = [r.id for m in maps for r in m.rules if not (r.says.strip() and r.says_it.strip())]
    unplaced = [r.id for m in maps for r in m.rules if r.section not in r.says]
    # ... and each ends with its cite in brackets, which an answer says with the rule's name (rulesask.stated)
    uncited = [r.id for m in maps for r in m.rules for says in (r.says, r.says_it) if not re.search(r"\)\.?$", says)]
    assert (unsaid, unplaced, uncited) == ([], [], [])


@pytest.mark.long
@pytest.mark.parametrize("ruleset_id", MAPPED)
def test_the_map_is_honest(ruleset_id):
    assert honesty_problems(_map(ruleset_id), ruleset_id) == []


def test_every_ruleset_has_a_map_and_a_digest():
    # the rulesets Fireteam ships (a test may register a ruleset of its own, without a map)
    assert sorted(BUILTIN) == sorted(DIGESTS) and set(BUILTIN) <= set(MAPPED)


@pytest.mark.parametrize("ruleset_id", MAPPED)
def test_every_variant_is_mapped(ruleset_id):
    """Each variant of a ruleset (Breaking News's Italian draft) has the rules it changes in the
    map, as ``variant`` rules whose tests play it (checked by the honesty test)."""
    rmap = _map(ruleset_id)
    for variant in get_ruleset(ruleset_id).variants:
        if variant:
            assert [r.id for r in rmap.rules if r.variant == variant and r.status == "variant"], variant


# ------------------------------------------------------- the checks can fail


def _one(toml: str) -> RulesMap:
    return msgspec.toml.decode(toml.encode(), type=RulesMap)


HONEST = """
[[rule]]
id = "FIRE-5"
section = "§8.0"
status = "enforced"
code = ["core.rulesets.breaking_news.rules.fire:shot"]
tests = ["tests/core/test_rules_map.py::test_the_checker_finds_each_kind_of_lie"]
ruling = "BN-C-OVERFLOW"
"""


def test_the_checker_finds_a_topics_ruling_that_is_none_and_a_ruling_that_says_nothing():
    honest = Topic(en="a draw", it="un pareggio", ruling="BN-VIC-DRAW", says="A draw.", says_it="Pareggio.")
    assert honesty_problems(RulesMap(silent=(honest,)), "breaking-news") == []
    unknown = msgspec.structs.replace(honest, ruling="BN-NO-SUCH")
    assert honesty_problems(RulesMap(silent=(unknown,)), "breaking-news") == [
        "topic a draw: ruling BN-NO-SUCH is not in docs/rulings.md"
    ]
    for mute in (msgspec.structs.replace(honest, says_it=""), msgspec.structs.replace(honest, ruling="")):
        assert honesty_problems(RulesMap(silent=(mute,)), "breaking-news") == [
            "topic a draw: a ruling says what it decides in both languages, and only a ruling"
        ]


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (("rules.fire:shot", "rules.fire:no_such_rule"), "has no no_such_rule"),
        (("rules.fire:shot", "rules.nowhere:shot"), "does not import"),
        (("rules.fire:shot", "rules.fire:AIMED"), "not a function"),
        (("test_rules_map.py::test_the", "test_rules_map.py::test_no_such"), "has no test_no_such"),
        (("tests/core/test_rules_map.py", "tests/core/test_nowhere.py"), "no file"),
        (
            ("test_rules_map.py::test_the_checker_finds_each_kind_of_lie", "test_rules_map.py::honesty_problems"),
            "not a test",
        ),
        (('id = "FIRE-5"', 'id = "FIRE-6"'), "does not name FIRE-6"),
        (('ruling = "BN-C-OVERFLOW"', 'ruling = "BN-C-NO-SUCH"'), "not in docs/rulings.md"),
        (('ruling = "BN-C-OVERFLOW"', 'command = "no-such-command"'), "not a command"),
        (('ruling = "BN-C-OVERFLOW"', 'variant = "it-1999"'), "not a variant"),
    ],
)
def test_the_checker_finds_each_kind_of_lie(change, found):
    """The honest entry (FIRE-5) passes; each lie in it is found.  (Names FIRE-5: this test
    is the entry's own.)"""
    assert honesty_problems(_one(HONEST), "breaking-news") == []
    lie = HONEST.replace(*change)
    assert lie != HONEST
    problems = honesty_problems(_one(lie), "breaking-news")
    assert len(problems) == 1 and found in problems[0], problems


def test_the_checker_finds_a_missing_a_stray_and_a_repeated_rule():
    rmap = _one(HONEST + HONEST.replace("FIRE-5", "FIRE-99") + HONEST)
    assert completeness_problems(rmap, {"FIRE-5", "FIRE-4"}) == [
        "FIRE-4: not in the map",
        "FIRE-99: not a rule of the digest",
        "FIRE-5: listed 2 times",
    ]


def test_a_rule_names_its_id_as_a_whole_word():
    assert names_the_rule("digest FIRE-3: ...", "test_x", "FIRE-3")
    assert not names_the_rule("digest FIRE-30 and BI-AMB-01", "test_x", "FIRE-3")
    assert not names_the_rule("BI-AMB-01", "test_x", "AMB-01")
    assert names_the_rule("", "test_fire_3_long_range", "FIRE-3")
    assert not names_the_rule("", "test_fire_30_long_range", "FIRE-3")


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (('status = "enforced"', 'status = "enforced"\nwhy = "x"\nreferee = "mark"'), "unknown field `referee`"),
        (('code = ["core.rulesets.breaking_news.rules.fire:shot"]', "code = []"), "length >= 1"),
        (('status = "enforced"', 'status = "ruled"'), "Invalid value 'ruled'"),
        (('status = "enforced"', 'status = "referee"'), "missing required field `command`"),
        (('status = "enforced"', 'status = "variant"'), "missing required field `variant`"),
        (('status = "enforced"', 'status = "not-applicable"'), "missing required field `why`"),
        (('"core.rulesets.breaking_news.rules.fire:shot"', '"fire.target_number"'), "matching regex"),
        (("test_rules_map.py::", "test_rules_map.py:"), "matching regex"),
    ],
)
def test_a_map_of_the_wrong_shape_does_not_load(tmp_path, change, found):
    path = tmp_path / "rules_map.toml"
    path.write_text(HONEST, encoding="utf-8")
    assert [r.id for r in rulesmap.load(path).rules] == ["FIRE-5"]
    path.write_text(HONEST.replace(*change), encoding="utf-8")
    with pytest.raises(RulesMapError, match=re.escape(found)) as e:
        rulesmap.load(path)
    assert "rule FIRE-5: " in str(e.value)


def test_a_rule_listed_twice_does_not_load(tmp_path):
    path = tmp_path / "rules_map.toml"
    path.write_text(HONEST + HONEST, encoding="utf-8")
    with pytest.raises(RulesMapError, match="FIRE-5 is listed twice"):
        rulesmap.load(path)


PLAYED = """
[[rule]]
id = "DIFF-24"
section = "§8.0"
status = "variant"
variant = "it-2009-12-09"
code = ["core.rulesets.breaking_news.tables.combat:weapons"]
tests = ["tests/breaking_news/combat/test_bn_combat_tables.py::test_italian_fire_table_differences"]
"""


# (Out of the test below, whose source must not name the draft it does not play.)
NOT_PLAYED = "does not play the variant it-2009-12-09"
NO_TEST = "no test plays the variant it-2009-12-09"


def test_a_rule_of_a_draft_needs_a_test_that_plays_it():
    """DIFF-24, the Italian draft's Milan row: its entry passes with the test that plays that
    draft; citing this test instead, which does not, or no test at all, is found."""
    assert honesty_problems(_one(PLAYED), "breaking-news") == []
    cited = "tests/breaking_news/combat/test_bn_combat_tables.py::test_italian_fire_table_differences"
    mine = "tests/core/test_rules_map.py::test_a_rule_of_a_draft_needs_a_test_that_plays_it"
    assert honesty_problems(_one(PLAYED.replace(cited, mine)), "breaking-news") == [f"DIFF-24: {mine}: {NOT_PLAYED}"]
    untested = PLAYED.replace(f'tests = ["{cited}"]', "")
    assert honesty_problems(_one(untested), "breaking-news") == [f"DIFF-24: {NO_TEST}"]


def test_the_questions_file_gives_each_rule_its_questions_and_refuses_a_rule_it_lacks(tmp_path):
    path = tmp_path / "rules_map.toml"
    path.write_text(HONEST, encoding="utf-8")
    asked = tmp_path / rulesmap.ASKED
    asked.write_text('["FIRE-5"]\nen = ["can I shoot twice?"]\nit = ["posso sparare due volte?"]\n', encoding="utf-8")
    (rule,) = rulesmap.load(path).rules
    assert (rule.asked_en, rule.asked_it) == (("can I shoot twice?",), ("posso sparare due volte?",))
    asked.write_text('["FIRE-6"]\nen = ["can I shoot twice?"]\n', encoding="utf-8")
    with pytest.raises(RulesMapError, match="FIRE-6: no rule of the map"):
        rulesmap.load(path)
    asked.write_text('["FIRE-5"]\nen = ["a line\\u0007"]\n', encoding="utf-8")
    with pytest.raises(RulesMapError, match="matching regex"):
        rulesmap.load(path)
    asked.write_text('["FIRE-5"]\nen = ["q"]\n', encoding="utf-8")
    path.write_text(HONEST + 'asked_en = ["q"]\n', encoding="utf-8")
    with pytest.raises(RulesMapError, match="FIRE-5 has questions in the map too"):
        rulesmap.load(path)


@pytest.mark.parametrize("ruleset_id", MAPPED)
def test_every_rule_of_a_builtin_map_is_asked_in_both_languages(ruleset_id):
    unasked = [r.id for r in _map(ruleset_id).rules if not (r.asked_en and r.asked_it)]
    assert unasked == []


def test_the_silent_file_lists_its_topics_and_only_it_may(tmp_path):
    path = tmp_path / "rules_map.toml"
    path.write_text(HONEST, encoding="utf-8")
    silent = tmp_path / rulesmap.SILENT
    silent.write_text('[[topic]]\nen = "weather"\nit = "meteo"\nwords_en = "rain snow"\n', encoding="utf-8")
    (topic,) = rulesmap.load(path).silent
    assert (topic.en, topic.it, topic.words_en) == ("weather", "meteo", "rain snow")
    silent.write_text('[[topic]]\nen = "weather"\n', encoding="utf-8")
    with pytest.raises(RulesMapError, match="missing required field `it`"):
        rulesmap.load(path)
    silent.unlink()
    path.write_text(HONEST + '[[silent]]\nen = "weather"\nit = "meteo"\n', encoding="utf-8")
    with pytest.raises(RulesMapError, match="goes in rules_silent.toml"):
        rulesmap.load(path)
