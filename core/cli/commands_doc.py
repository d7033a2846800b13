"""docs/commands.md's list of every command in Italian and English, made from the rulesets.

``python -m core.cli.commands_doc`` rewrites the section in place (after the catalogues
change); ``--check`` exits 1 if it is stale (``tests/core/test_commands_i18n.py``
asserts the same).  Each name is its ruleset's catalogue's (``core.commands.local_name``),
so a name not yet translated is listed in English alone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.commands import local_name, shortest_start, spec_domain
from core.game.builtins import game_commands
from core.language.reader import reading
from core.registry import BUILTIN, get_ruleset
from core.ruleset import CommandSpec

COMMANDS_MD = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
HEADING = "## Every command in Italian and English"
#: The section it comes before, where the file has none yet.
BEFORE = "## The dice of each command, in order"


def _pair(context: str, word: str, domain: str) -> str:
    """```fuoco` · `fire``, or ```scenario``` where both languages say it alike."""
    with reading("it"):
        mine = local_name(context, word, domain)
    return f"`{mine}`" if mine == word else f"`{mine}` · `{word}`"


def _row(spec: CommandSpec, domain: str, starts: dict[str, str]) -> str:
    domain = spec_domain(spec, domain)
    verb = " / ".join(_pair("command", n, domain) for n in (spec.name, *spec.aliases))
    start = f"`{starts['it']}`" if starts["it"] == starts["en"] else f"`{starts['it']}` · `{starts['en']}`"
    options = ", ".join(_pair("option", p.name, domain) for p in spec.params)
    choices = "; ".join(
        ", ".join(_pair("choice", c, domain) for c in p.choices) for p in spec.params if p.kind == "choice"
    )
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in (verb, start, options, choices)) + " |"


def _commands(ruleset_id: str) -> tuple[list[CommandSpec], dict[str, dict[str, str]]]:
    """Every command of the ruleset, in any of its variants, by name; and each one's shortest start
    in Italian and in English that names it alone in every variant that has it (the longest of
    its variants' shortest)."""
    every: dict[str, CommandSpec] = {}
    starts: dict[str, dict[str, str]] = {}
    for variant in get_ruleset(ruleset_id).variants:
        r = get_ruleset(ruleset_id, variant)
        specs = game_commands(r)
        for spec in specs:
            every.setdefault(spec.name, spec)
            for language in ("it", "en"):
                with reading(language):
                    start = shortest_start(spec, specs, r.domain)
                mine = starts.setdefault(spec.name, {}).setdefault(language, start)
                starts[spec.name][language] = max(mine, start, key=len)
    return sorted(every.values(), key=lambda s: s.name), starts


def section() -> str:
    """The section, from its heading to the blank line before the next."""
    out = [
        HEADING,
        "",
        "A reader in Italian (`--lang it`, an Italian locale, a seat's `lang`) may type every",
        "verb, option and choice by its Italian name, or by its English one: a word is matched",
        "in the reader's language first (a prefix of two Italian names is refused, naming them),",
        "then in English. The log records the English names (`tira 2d6 soglia=5` is recorded as",
        "`roll 2d6 target=5`, `25,5` as `25.5`), so a script in either language writes the same",
        "events, and each reader sees the line in his own names. Italian name first, then English;",
        "one name where both are the same (or the Italian is not yet in the catalogue). *Shortest*",
        "is the shortest start of the command's name that names it alone in each language, in every",
        "variant of the ruleset (`tests/core/test_command_prefixes.py` keeps it so).",
    ]
    for ruleset_id in BUILTIN:
        r = get_ruleset(ruleset_id)
        specs, starts = _commands(ruleset_id)
        out += ["", f"### {r.name}", "", "| command | shortest | options | choices |", "|---|---|---|---|"]
        out += [_row(spec, r.domain, starts[spec.name]) for spec in specs]
    return "\n".join(out) + "\n"


def updated(text: str) -> str:
    """``text`` (docs/commands.md) with the section replaced, or inserted before BEFORE."""
    new = section() + "\n"
    if HEADING in text:
        start = text.index(HEADING)
        end = text.find("\n## ", start + len(HEADING))
        return text[:start] + new + (text[end + 1 :] if end >= 0 else "")
    at = text.index(BEFORE)
    return text[:at] + new + text[at:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m core.cli.commands_doc")
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/commands.md is stale, changing nothing")
    args = ap.parse_args(argv)
    text = COMMANDS_MD.read_text(encoding="utf-8")
    new = updated(text)
    if args.check:
        if new != text:
            print(f"{COMMANDS_MD} is stale: run python -m core.cli.commands_doc", file=sys.stderr)
            return 1
        return 0
    if new != text:
        COMMANDS_MD.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
