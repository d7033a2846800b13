"""``fireteam rules``: every rule of a ruleset and what Fireteam does with it (``core.explain.rulesmap``);
``fireteam rules ask WORDS``: a rules question answered (``core.explain.rulesask``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from core.cli.lang import add_lang_option
from core.explain.rulesask import answer_lines
from core.explain.rulesmap import MEANINGS, STATUSES, Entry, as_json, by_section
from core.language.i18n import _, ngettext
from core.refusal import Refused
from core.registry import RulesetIds, available, get_ruleset
from core.ruleset import Ruleset


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help=_("every rule of a ruleset and what Fireteam does with it"))
    p.add_argument(
        "--ruleset",
        choices=RulesetIds(),
        metavar="RULESET",
        help=_("only this ruleset's (default: every ruleset with a map)"),
    )
    p.add_argument(
        "--status",
        choices=list(STATUSES),
        help=_("only the rules of this status: {statuses}").format(statuses=", ".join(STATUSES)),
    )
    p.add_argument(
        "--json",
        action="store_true",
        help=_(
            "a list of {id, status, code, tests, section, ruling, ruleset, title} (and variant, command, why where set)"
        ),
    )
    p.add_argument(
        "ask",
        nargs="*",
        metavar="ask WORDS",
        help=_(
            "a rules question, in Italian or English: what the rule that answers it says, or that the rules "
            "do not say (as rule? in a game)"
        ),
    )
    add_lang_option(p)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    rulesets = [get_ruleset(args.ruleset)] if args.ruleset else [get_ruleset(rid) for rid in available()]
    if args.ask:
        return _asked(args.ask, rulesets, out)
    maps = [(r, r.rules_map()) for r in rulesets]
    for ruleset in [r for r, m in maps if m is None]:  # a plugin's, mostly: said, never left out without a word
        print(_("{ruleset} has no rules map yet").format(ruleset=ruleset.shown_name()), file=sys.stderr)
    mapped = [(r, m) for r, m in maps if m is not None]
    if args.ruleset and not mapped:
        return 1
    if args.json:
        rows = [as_json(rule, r.id) for r, m in mapped for rule in m.select(args.status or "")]
        print(json.dumps(rows, ensure_ascii=False, indent=1), file=out)
        return 0
    for i, (ruleset, rmap) in enumerate(mapped):
        if i:
            print(file=out)
        for line in text_lines(ruleset, rmap.rules, rmap.select(args.status or "")):
            print(line, file=out)
    return 0


def _asked(words: list[str], rulesets: list[Ruleset], out: TextIO) -> int:
    """``fireteam rules ask WORDS``: the question answered for each ruleset (``core.explain.rulesask``)."""
    if words[0] != "ask" or len(words) < 2:
        print(
            _("fireteam rules ask WORDS: a rules question, e.g. fireteam rules ask can a pinned man fire"),
            file=sys.stderr,
        )
        return 2
    try:
        for i, ruleset in enumerate(rulesets):
            lines = answer_lines(ruleset, " ".join(words[1:]))
            print(
                *(([""] if i else []) + ([ruleset.shown_name()] if len(rulesets) > 1 else []) + lines),
                sep="\n",
                file=out,
            )
    except Refused as e:
        print(e, file=sys.stderr)
        return 2
    return 0


def status_word(status: str) -> str:
    return _(STATUSES[status])


def details(rule: Entry, ruleset: Ruleset) -> str:
    """What a rule's status names (its ruling, variant or command) and its note, in words
    (a variant by its name, ``Ruleset.variant_name``)."""
    said = []
    if rule.command:
        said.append(_("command: {command}").format(command=rule.command))
    if rule.ruling:
        said.append(_("ruling {ruling}").format(ruling=rule.ruling))
    if rule.variant:
        said.append(_("variant {variant}").format(variant=ruleset.variant_name(rule.variant)))
    if rule.why:
        said.append(rule.why)
    return "; ".join(said)


def summary(ruleset: Ruleset, rules: tuple[Entry, ...] | list[Entry]) -> str:
    """``Breaking News 1.5.1: 296 rules (180 enforced, 60 ruling, …)``."""
    counts: dict[str, int] = dict.fromkeys(STATUSES, 0)
    for r in rules:
        counts[r.status] += 1
    parts = ", ".join(f"{n} {status_word(s)}" for s, n in counts.items() if n)
    said = ngettext(
        "{ruleset} {version}: {count} rule ({statuses})", "{ruleset} {version}: {count} rules ({statuses})", len(rules)
    )
    return said.format(ruleset=ruleset.shown_name(), version=ruleset.version, count=len(rules), statuses=parts)


def text_lines(ruleset: Ruleset, every: tuple[Entry, ...], shown: list[Entry]) -> list[str]:
    """The map as a referee reads it: a count, a legend, the rules by section, then what he does himself."""
    lines = [summary(ruleset, every)]
    if len(shown) != len(every):
        lines.append(ngettext("{count} rule shown", "{count} rules shown", len(shown)).format(count=len(shown)))
    wide = max((len(status_word(s)) for s in STATUSES), default=8)
    ids = max((len(r.id) for r in shown), default=6)
    lines.append("")
    lines += [f"  {status_word(s):{wide}}  {_(MEANINGS[s])}" for s in STATUSES if any(r.status == s for r in shown)]
    for section, rules in by_section(shown):
        lines += ["", section]
        for r in rules:
            said = " — ".join(s for s in (r.title, details(r, ruleset)) if s)
            lines.append(f"  {r.id:{ids}}  {status_word(r.status):{wide}}" + (f"  {said}" if said else ""))
    yours = [r for r in shown if r.status == "referee"]
    if yours:
        said = _("Left to the referee ({count}): what he applies himself, with the command named")
        lines += ["", said.format(count=len(yours))]
        lines += [f"  {r.id:{ids}}  {r.section}: {r.command}" + (f"  {r.title}" if r.title else "") for r in yours]
    return lines
