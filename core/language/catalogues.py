"""The translation catalogues: what each domain must translate, kept in step with the code.

``python -m core.language.catalogues update`` re-reads the code with babel's extractor
(``_``, ``N_``, ``M``, ``gettext``, ``ngettext``, ``pgettext``) and walks
every ruleset's commands (names in the context ``command``, options in ``option``,
choices in ``choice``; help, dice phrases and phases as plain messages), then
updates each ``core/language/locale/<lang>/LC_MESSAGES/<domain>.po``: new messages are added
untranslated, translations kept, messages no longer in the code dropped.

``update`` also writes ``core/language/command_shapes.json``, the shape of every
ruleset's commands (``core.language.shapes``).

``--domain NAME`` (repeatable) limits either to those domains.
``update`` is idempotent: a catalogue it wrote, run again, is left byte for byte (no babel
version, date or line number in it; the messages in the code's order).
``python -m core.language.catalogues check`` lists what is untranslated or stale (the
command shapes too, and a catalogue not as ``update`` writes it), and exits 1 if anything
is; ``tests/core/test_i18n_catalogues.py``, ``tests/core/test_catalogues_update.py`` and
``tests/core/test_command_shapes.py`` assert the same.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

from core.commands import example_prose, spec_domain
from core.game.builtins import game_commands
from core.language import shapes
from core.language.i18n import CLIENT_DOMAIN, CORE_DOMAIN, LOCALE_DIR, SCENARIO, SERVER_DOMAIN
from core.language.reader import LANGUAGES, SOURCE
from core.registry import BUILTIN, get_ruleset, ruleset_class
from core.ruleset import CommandSpec
from core.rulesets.bassa_intensita.scenario_format import MINE_KINDS
from core.scenarios.files import BUILTIN_ROOT

ROOT = Path(__file__).resolve().parents[2]
#: ``Domain.term(word)`` cannot be told apart from its word by babel: a term the
#: code names is written ``pgettext("term", "pinned")``, or listed by ``Ruleset.terms``.
KEYWORDS = {**DEFAULT_KEYWORDS, "M": None}
#: Each built-in ruleset's package folder, whose words are the domain the ruleset declares.
RULESET_FOLDERS = {
    Path(sys.modules[ruleset_class(ruleset_id).__module__].__file__ or "").parent: ruleset_class(ruleset_id).domain
    for ruleset_id in BUILTIN
}
#: The built-in rulesets' domains: domain → the ruleset's id.
RULESET_DOMAINS = {ruleset_class(ruleset_id).domain: ruleset_id for ruleset_id in BUILTIN}
DOMAINS = (CORE_DOMAIN, CLIENT_DOMAIN, SERVER_DOMAIN, *sorted(RULESET_DOMAINS))
_HEADER = """\
# Fireteam's words in Italian: the {domain} domain (core/language/i18n.py).
# New messages come from the code: python -m core.language.catalogues update
"""
#: The date every catalogue's header carries, so that updating one changes only its words.
_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def domain_of(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).parts
    if rel[:2] == ("tui", "ssh"):
        return SERVER_DOMAIN
    if rel[0] == "tui":
        return CLIENT_DOMAIN
    for folder, domain in RULESET_FOLDERS.items():
        if path.resolve().is_relative_to(folder):
            return domain
    return CORE_DOMAIN


def _sources(domain: str) -> Iterator[Path]:
    for top in ("core", "tui"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if domain_of(path) == domain:
                yield path


@cache
def template(domain: str) -> Catalog:
    """Every message ``domain`` must translate, as the code has them now."""
    cat = Catalog(domain=domain, project="Fireteam", fuzzy=False)
    for path in _sources(domain):
        rel = path.relative_to(ROOT).as_posix()
        for _line, msg, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            if not msg or (isinstance(msg, tuple) and not msg[0]):
                continue
            # No line number (None): babel writes the file alone, so a moved line changes no catalogue.
            cat.add(msg, locations=[(rel, None)], auto_comments=comments, context=context)  # type: ignore[list-item]
    for owner, msgid, context in _ruleset_words():
        if owner == domain:
            where = next(
                (folder.relative_to(ROOT).as_posix() for folder, d in RULESET_FOLDERS.items() if d == domain),
                "core/rulesets/common.py",
            )
            cat.add(msgid, locations=[(where, None)], context=context)  # type: ignore[list-item]  # as above
    return cat


def _ruleset_words() -> Iterator[tuple[str, str, str | None]]:
    """The words of every ruleset's commands and phases, in every variant, each with
    its domain: a command the rulesets share (``core.rulesets.common``, or one every
    game has: ``core.game``) is the core's, as is the ``dice=`` option of every command."""
    from core.game.builtins import game_commands
    from core.rulesets.common import STATUSES as SHARED_STATUSES

    yield CORE_DOMAIN, "dice", "option"
    # The statuses every ruleset may show (the referee's to mark): the core's terms, which
    # a ruleset's catalogue falls back to where it has none of its own.
    yield from ((CORE_DOMAIN, s, "term") for s in SHARED_STATUSES)
    for ruleset_id in BUILTIN:
        for variant in get_ruleset(ruleset_id).variants:
            r = get_ruleset(ruleset_id, variant)
            for spec in game_commands(r):
                domain = spec_domain(spec, r.domain)
                yield domain, spec.name, "command"
                for alias in (*spec.aliases, *spec.known_elsewhere_as):
                    yield domain, alias, "command"
                if spec.help:
                    yield domain, spec.help, None
                # the player's own words of its examples, help's to show in the reader's language
                yield from ((domain, words, "example") for e in spec.examples for words in example_prose(e, spec))
                yield from ((domain, d, None) for d in spec.dice)
                for p in spec.params:
                    yield domain, p.name, "option"
                    if p.help:
                        yield domain, p.help, None
                    if p.kind in ("choice", "side"):  # a side's place may take other words (draw)
                        yield from ((domain, c, "choice") for c in p.choices)
                    if p.kind == "choice":
                        yield from ((domain, m, None) for m in p.meanings)
            yield from ((r.domain, t, "term") for t in r.terms())
            yield from ((r.domain, t, None) for t in r.phrases())
            for phase in r.phases:
                yield r.domain, phase.id, "phase"
                yield from ((r.domain, t, None) for t in (phase.title, phase.expects) if t)
    yield CORE_DOMAIN, "ended", "phase"  # every game's last phase (core.log.state, GameEnded)
    yield from ((CORE_DOMAIN, text, SCENARIO) for text in _scenario_words())


def _scenario_words() -> Iterator[str]:
    """The words of the built-in scenarios a reader is shown in his language
    (``core.language.i18n.scenario_words``): titles, descriptions, sides' names, victories,
    special rules, Linea di Tiro's jokers, the objectives' and minefields' names and places,
    the support's names, Bassa Intensità's kinds of minefield (a mine's fact is its kind
    and place), and the teams' names of the scenarios and of the forces a game brings in
    (ruling I18N-TEAM), and the pieces' names: a name that is words (*ACM 90 truck*, *Said the
    marksman*) reads in Italian, a person's name as it is (ruling I18N-SCENARIO)."""
    yield from MINE_KINDS.values()
    forces = ("*/forces/*.toml", "*/scenarios/rosters/*.toml")
    for path in sorted(p for pattern in forces for p in BUILTIN_ROOT.glob(pattern)):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        yield from (unit["team"] for unit in data.get("units", ()) if unit.get("team"))
        yield from (unit["name"] for unit in data.get("units", ()))
    for path in sorted(BUILTIN_ROOT.glob("*/scenarios/*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        yield from (unit["team"] for unit in data.get("units", ()) if unit.get("team"))
        yield from (unit["name"] for unit in data.get("units", ()))
        yield from (data[key] for key in ("title", "description") if data.get(key))
        yield from (side["name"] for side in data.get("sides", ()))
        victory, joker = data.get("victory", {}).get("summary"), data.get("jokers", {}).get("effect")
        yield from (text for text in (victory, *data.get("special_rules", ()), joker) if text)
        for table, keys in (("objectives", ("name", "where")), ("mines", ("where",)), ("support", ("name",))):
            yield from (entry[key] for entry in data.get(table, ()) for key in keys if entry.get(key))


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str) -> Catalog:
    path = po_path(lang, domain)
    if not path.is_file():
        return Catalog(locale=lang, domain=domain, project="Fireteam")
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


#: babel's header line naming its own version: left out, so that a catalogue does not change
#: with the babel that wrote it (``update`` on a clean clone changes nothing).
_GENERATED_BY = re.compile(rb'^"Generated-By: [^"\n]*\\n"\n', re.MULTILINE)


def rendered(lang: str, domain: str) -> bytes:
    """``lang``'s catalogue of ``domain`` as ``update`` writes it: the code's messages in the
    code's order (``template``), translations kept, messages the code dropped gone, no line
    numbers, no dates, no babel version."""
    cat = read(lang, domain)
    cat.update(template(domain), no_fuzzy_matching=True)
    cat.revision_date = cat.creation_date = _EPOCH  # creation_date is the POT-Creation-Date header
    cat.fuzzy = False
    cat.header_comment = _HEADER.format(domain=domain)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=False, include_lineno=False, ignore_obsolete=True)
    return _GENERATED_BY.sub(b"", buf.getvalue())


def update(domains: tuple[str, ...] = DOMAINS) -> None:
    for domain in domains:
        for lang in LANGUAGES:
            if lang == SOURCE:
                continue
            data = rendered(lang, domain)
            path = po_path(lang, domain)
            if not path.is_file() or path.read_bytes() != data:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)


def unsettled(lang: str, domain: str) -> bool:
    """Whether ``lang``'s catalogue of ``domain`` is not what ``update`` would write (a
    message added by hand out of the code's order, one the code dropped, another babel's header)."""
    path = po_path(lang, domain)
    return not path.is_file() or path.read_bytes() != rendered(lang, domain)


#: The kinds of parameter whose choices a recorded line names in the reader's words (a side's: draw).
_NAMED = ("choice", "side")


def shapes_of(specs: list[CommandSpec], domain: str) -> tuple[shapes.CommandShape, ...]:
    """The shapes of ``specs``, a ruleset's commands (``domain``: the ruleset's)."""
    return tuple(
        shapes.CommandShape(
            spec.name,
            spec_domain(spec, domain),
            tuple(spec.aliases),
            tuple(
                shapes.ParamShape(p.name, p.kind, p.keyword, p.many, tuple(p.choices) if p.kind in _NAMED else ())
                for p in spec.params
            ),
        )
        for spec in specs
    )


def command_shapes() -> shapes.Shapes:
    """The shapes of every built-in ruleset's commands, in each variant, as the code gives them."""
    out: shapes.Shapes = {}
    for ruleset_id in BUILTIN:
        for variant in get_ruleset(ruleset_id).variants:
            ruleset = get_ruleset(ruleset_id, variant)
            specs = game_commands(ruleset)  # as core.game.Game.commands gathers them
            out.setdefault(ruleset_id, {})[variant] = shapes_of(specs, ruleset.domain)
    return out


def update_shapes() -> None:
    shapes.PATH.write_bytes(shapes.encode(command_shapes()))


def stale_shapes() -> bool:
    """Whether ``command_shapes.json`` is not what the code gives."""
    try:
        return shapes.PATH.read_bytes() != shapes.encode(command_shapes())
    except OSError:
        return True


def untranslated(lang: str, domain: str) -> list[str]:
    """The messages ``domain`` needs that ``lang``'s catalogue lacks (or marks fuzzy)."""
    have = read(lang, domain)
    out = []
    for m in template(domain):
        if not m.id:
            continue
        got = have.get(m.id, m.context)
        if got is None or got.fuzzy or not (all(got.string) if isinstance(got.string, tuple) else got.string):
            key = m.id if isinstance(m.id, str) else m.id[0]
            out.append(f"{m.context}|{key}" if m.context else key)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m core.language.catalogues")
    ap.add_argument("action", choices=("update", "check"))
    ap.add_argument("--domain", action="append", choices=DOMAINS, help="only these domains (default: all)")
    args = ap.parse_args(argv)
    domains = tuple(args.domain or DOMAINS)
    if args.action == "update":
        update(domains)
        update_shapes()
        return 0
    bad = 0
    if stale_shapes():
        bad += 1
        print(f"{shapes.PATH.name}: stale (python -m core.language.catalogues update)")
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        for domain in domains:
            missing = untranslated(lang, domain)
            bad += len(missing)
            for m in missing:
                print(f"{lang}/{domain}: {m}")
            if unsettled(lang, domain):
                bad += 1
                print(f"{lang}/{domain}: not as update writes it (python -m core.language.catalogues update)")
    print(f"{bad} untranslated or unsettled", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
