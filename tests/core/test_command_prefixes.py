"""Every language's abbreviations stay unambiguous (issue #93).  A command may be typed by any
start of its name that names it alone, in the reader's language or in English
(docs/commands.md).  What the docs teach, each command's shortest start in each language in
docs/commands.md's tables and the examples of its prose and of the help, must keep naming its
command in every variant of the ruleset that has it: a new command whose name takes one fails
here, by the start and the commands it could now be (docs/architecture.md, "How to name a
command").
"""

from __future__ import annotations

import re

import pytest

from core.cli.commands_doc import COMMANDS_MD, HEADING
from core.commands import find_verb, names
from core.game.builtins import game_commands
from core.language.catalogues import read
from core.language.reader import reading
from core.registry import BUILTIN, get_ruleset
from core.ruleset import CommandSpec, Refused, Ruleset
from tui.screens.help import LANGUAGE

#: A cell of docs/commands.md's tables: ```segna` · `mark``, or ```scenario``` where both say it alike.
CELL = re.compile(r"`([^`]+)`(?: · `([^`]+)`)?")


def documented_starts() -> dict[str, list[tuple[str, str, str]]]:
    """docs/commands.md's tables: each ruleset's name -> (language, start, the command's name in it)."""
    text = COMMANDS_MD.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    section = section[: section.find("\n## ", len(HEADING))]
    out: dict[str, list[tuple[str, str, str]]] = {}
    ruleset = ""
    for line in section.splitlines():
        if line.startswith("### "):
            ruleset = line[4:]
        elif line.startswith("| `"):
            verb, start = (CELL.match(cell.strip()) for cell in line.split("|")[1:3])
            assert verb is not None and start is not None, line
            italian, english = verb[1], verb[2] or verb[1]
            out.setdefault(ruleset, []).append(("it", start[1], italian))
            out[ruleset].append(("en", start[2] or start[1], english))
    return out


def taught_examples() -> list[tuple[str, str, str]]:
    """The starts the prose teaches: (language, the start, the whole word), in docs/commands.md
    (```ma ah sup` is `mark ahmed suppressed```) and in the help's example of each language."""
    text = COMMANDS_MD.read_text(encoding="utf-8")
    out = [("en", short, whole) for short, whole in re.findall(r"`(\w+)[^`]*` is `(\w+)[^`]*`", text)]
    helps = {"en": LANGUAGE, "it": read("it", "client")[LANGUAGE].string}
    for language, said in helps.items():
        match = re.search(r"\((\w+) \w+ \w+\)", said)
        assert match is not None, f"the {language} help shows no example of a start"
        out.append((language, match[1], ""))
    return out


def _variants(ruleset_id: str) -> list[Ruleset]:
    return [get_ruleset(ruleset_id, variant) for variant in get_ruleset(ruleset_id).variants]


def ambiguous(start: str, name: str, specs: list[CommandSpec], domain: str) -> str:
    """Why ``start`` no longer names the command called ``name`` in the reader's language among
    ``specs`` ("" if it does, or if none is so called there)."""
    wanted = next((s for s in specs if names(s, domain)[0] == name), None)
    if wanted is None:
        return ""
    try:
        found = find_verb(start, specs, domain)
    except Refused as e:
        return str(e)
    return "" if found is wanted else f"{start!r} is {names(found, domain)[0]}"


@pytest.mark.parametrize("ruleset_id", BUILTIN)
def test_each_commands_documented_shortest_start_names_it_in_every_variant(ruleset_id):
    name = get_ruleset(ruleset_id).name
    starts = documented_starts()[name]
    wrong = []
    for ruleset in _variants(ruleset_id):
        specs = game_commands(ruleset)
        for language, start, command in starts:
            with reading(language):
                why = ambiguous(start, command, specs, ruleset.domain)
            if why:
                wrong.append(f"{ruleset.variant or ruleset.id} ({language}): {start!r} for {command}: {why}")
    assert wrong == [], "a name took a documented start: rename it, or change the start (commands_doc)"


def test_every_command_has_its_documented_start():
    """The tables list every command of every ruleset (``python -m core.cli.commands_doc``
    writes them; ``test_commands_i18n`` holds them to it)."""
    starts = documented_starts()
    assert set(starts) == {get_ruleset(r).name for r in BUILTIN}
    for ruleset_id in BUILTIN:
        listed = {command for language, _start, command in starts[get_ruleset(ruleset_id).name] if language == "en"}
        every = {spec.name for r in _variants(ruleset_id) for spec in game_commands(r)}
        assert every <= listed, ruleset_id


def test_the_starts_the_prose_and_the_help_teach_name_their_command_in_breaking_news():
    """``ma ah sup`` is ``mark``; the help's ``fi ro ah`` and its Italian are ``fire`` (the demo's
    ruleset, its pieces Rossi and Ahmed)."""
    ruleset = get_ruleset("breaking-news")
    specs = game_commands(ruleset)
    for language, start, whole in taught_examples():
        with reading(language):
            try:
                found = find_verb(start, specs, ruleset.domain)
            except Refused as e:
                pytest.fail(f"{start!r} ({language}) names no one command: {e}")
            said = names(found, ruleset.domain)[0]
        assert said == whole if whole else found.name == "fire", (language, start, said)


def test_a_name_that_takes_a_documented_start_is_named():
    """So that the first test can fail: a new command ``segnalibro`` (a referee's bookmark, its
    name in Italian as in English) takes ``se``, documented for ``segna``."""
    ruleset = get_ruleset("breaking-news")
    bookmark = CommandSpec("segnalibro", "Bookmark this moment.", lambda ctx, args: None, who="referee")
    specs = [*game_commands(ruleset), bookmark]
    with reading("it"):
        assert ambiguous("se", "segna", game_commands(ruleset), ruleset.domain) == ""
        assert ambiguous("se", "segna", specs, ruleset.domain) == "'se' può essere segna o segnalibro"
