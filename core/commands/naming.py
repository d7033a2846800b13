"""A command's names in two languages, the reader's and English: as typed, folded to be
compared, as help heads them; its usage and what its choices mean; the reader's numbers, and
a distance as the record writes it (which the reader writes with his decimal point)."""

from __future__ import annotations

import gettext
import re
import unicodedata
from functools import lru_cache

from core.language.i18n import CORE_DOMAIN, translations
from core.language.numerals import grouped, point
from core.language.reader import LANGUAGES, SOURCE, lang
from core.registry import NotARuleset
from core.ruleset import CommandSpec

#: What a name in the reader's language may be to be typed as one word: letters,
#: digits, ``-`` and ``.``, starting with a letter.  A translation that is not (a
#: phrase with a space, an ``=``) is not used: the English name is still there.
_TYPABLE = re.compile(r"[^\W\d_][\w.-]*")
#: The modules whose commands every ruleset shares (the referee's tools, undo, next,
#: note): their names are the core's words, whatever the ruleset's catalogue says.
SHARED = ("core.rulesets.common", "core.game.builtins")
#: A tape measure's reading as the record writes it: digits, up to two decimals after a
#: point, and a unit.
DISTANCE = re.compile(r'([0-9]{1,6}(?:\.[0-9]{1,2})?)(cm|in|")?', re.IGNORECASE)


def spec_domain(spec: CommandSpec, domain: str = CORE_DOMAIN) -> str:
    """The catalogue naming ``spec``: the core's for a shared command; a built-in
    ruleset's for a command its package handles (so a caller that does not name the
    ruleset's domain still finds its names); else ``domain``.
    ``python -m core.language.catalogues`` lists each name there."""
    module = getattr(spec.handler, "__module__", None) or ""
    if module in SHARED:
        return CORE_DOMAIN
    parts = module.split(".")
    if len(parts) > 3 and parts[:2] == ["core", "rulesets"]:
        return parts[2]
    return domain


def local_name(context: str, word: str, domain: str = CORE_DOMAIN) -> str:
    """``word`` (the English name of a command, an option or a choice: ``context``
    is ``command``, ``option`` or ``choice``) as the reader types it: its translation
    in ``domain`` (a ruleset's catalogue, falling back to the core's), else itself."""
    language = lang()
    if language == SOURCE:
        return word
    return _translated(translations(language, domain), context, word)


@lru_cache(maxsize=16_384)
def _translated(catalogue: gettext.NullTranslations, context: str, word: str) -> str:
    """``word``'s typable name in ``catalogue`` (kept per catalogue: a parse looks up
    every command's name, and a key pressed completes them all)."""
    name = catalogue.pgettext(context, word).strip().lower()
    return name if _TYPABLE.fullmatch(name) else word


def one_meaning(specs: list[CommandSpec], domain: str = CORE_DOMAIN) -> None:
    """Refuse (:class:`NotARuleset`, naming both) a word that would name two of a game's
    commands (``domain``: the ruleset's): an English name or alias another command has, a
    name in a reader's language another has there, or one that is another's English name.
    Checked as a game gathers its commands, so a ruleset's or a plugin's command cannot be
    shadowed unseen by a command the core adds (#76)."""
    english: dict[str, CommandSpec] = {}
    for spec in specs:
        for name in (spec.name, *spec.aliases):
            _claim(english, fold(name), spec, name)
    for language in LANGUAGES:
        if language == SOURCE:
            continue
        theirs: dict[str, CommandSpec] = {}
        for spec in specs:
            catalogue = translations(language, spec_domain(spec, domain))
            for name in (spec.name, *spec.aliases):
                word = fold(_translated(catalogue, "command", name))
                _claim(theirs, word, spec, f"{word} ({language})")
                if english.get(word, spec) is not spec:
                    _clash(english[word], spec, f"{word} ({language}, and in English)")


def _claim(taken: dict[str, CommandSpec], word: str, spec: CommandSpec, shown: str) -> None:
    other = taken.setdefault(word, spec)
    if other is not spec:
        _clash(other, spec, shown)


def _clash(first: CommandSpec, second: CommandSpec, word: str) -> None:
    def who(spec: CommandSpec) -> str:
        return f"{spec.name!r} ({getattr(spec.handler, '__module__', None) or '?'})"

    raise NotARuleset(f"two commands are called {word}: {who(first)} and {who(second)}")


@lru_cache(maxsize=16_384)
def fold_name(name: str) -> str:
    """:func:`fold` of a name from a catalogue (a few hundred of them), kept."""
    return fold(name)


def fold(word: str) -> str:
    """``word`` as a name in the reader's language is compared: lower case, without
    accents (``unita`` is ``unità``, for a keyboard without them)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def names(spec: CommandSpec, domain: str = CORE_DOMAIN) -> tuple[str, str]:
    """A command's name in the reader's language and in English (the same twice in
    English, or where the catalogue has no translation): for help that shows both."""
    return local_name("command", spec.name, spec_domain(spec, domain)), spec.name


def title(spec: CommandSpec, domain: str = CORE_DOMAIN) -> str:
    """A command as help heads it: ``tira (roll)`` for an Italian reader, ``roll`` in English."""
    mine, english = names(spec, domain)
    return english if mine == english else f"{mine} ({english})"


def example_words(words: str, domain: str = CORE_DOMAIN) -> str:
    """A help example's words of the player's own (``Param.prose``: ``fled the table``) in the
    reader's language: ``domain``'s message in the context ``example``, else as written."""
    language = lang()
    return words if language == SOURCE else translations(language, domain).pgettext("example", words)


def local_namer(context: str, domain: str):
    return lambda word: local_name(context, word, domain)


#: Names a command or an option had in the reader's language before one word was
#: chosen for each concept across the rulesets (#61: the books' Italian says *sparare*
#: and *distanza*, so ``fuoco``/``gittata`` became ``spara``/``distanza``): a line
#: typed or scripted with them still reads, as its English name, in every ruleset that
#: has the command or option, whichever book the word came from (a referee who typed
#: ``gittata=`` in Breaking News types it in Ludonet too); no help shows them.
#: By (language, context, English name).
FORMER_NAMES: dict[tuple[str, str, str], tuple[str, ...]] = {
    ("it", "command", "fire"): ("fuoco",),
    ("it", "command", "react-fire"): ("reagisci-fuoco",),
    ("it", "command", "reveal"): ("svela",),
    ("it", "command", "aa"): ("contraerea",),
    ("it", "option", "range"): ("gittata",),
    ("it", "option", "cover"): ("copertura",),
    ("it", "option", "source"): ("fonte",),
    ("it", "option", "medic"): ("soccorritore",),
}


#: Words the reader also types for a choice, that no help shows (#61): Italian answers a
#: switch with *sì* or *no*, whatever its catalogue names the choices (``table-dice``'s
#: ``attivi``, ``spenti``); compared folded (``si`` is ``sì``). By (language, English choice).
ALSO_CHOSEN: dict[tuple[str, str], tuple[str, ...]] = {("it", "on"): ("sì",), ("it", "off"): ("no",)}


def also_chosen(choice: str) -> tuple[str, ...]:
    """The other words the reader types for ``choice`` (:data:`ALSO_CHOSEN`)."""
    return ALSO_CHOSEN.get((lang(), choice), ())


def former_names(context: str, word: str) -> tuple[str, ...]:
    """The names ``word`` (the English name of a command or an option: ``context``)
    had in the reader's language (:data:`FORMER_NAMES`)."""
    return FORMER_NAMES.get((lang(), context, word), ())


def former_namer(context: str):
    return lambda word: former_names(context, word)


def decimal_point() -> str:
    """The reader's decimal separator (``,`` in Italian)."""
    return point(lang())


def number(n: int) -> str:
    """A whole number with the reader's thousands separator (``2,000``, ``2.000``)."""
    return grouped(n)


def usage(spec: CommandSpec, domain: str = CORE_DOMAIN, verb: str = "") -> str:
    """``spec``'s usage, in the reader's names (``domain``: its ruleset's catalogue);
    ``verb``: the name or alias it was called by (``end-game`` for ``victory``)."""
    domain = spec_domain(spec, domain)
    option = local_namer("option", domain)
    choice = local_namer("choice", domain)
    parts = [local_name("command", verb or spec.name, domain)]
    for p in spec.params:
        if p.keyword and p.kind == "choice":
            token = "|".join(choice(c) for c in p.choices)
        elif p.keyword:
            token = f"{option(p.name)}=…"
        else:
            token = option(p.name) + ("…" if p.many else "")
        parts.append(f"[{token}]" if p.optional else token)
    return " ".join(parts)


def meanings(spec: CommandSpec, domain: str = CORE_DOMAIN) -> dict[str, str]:
    """What the coded choices of ``spec`` mean (``Param.meanings``), in the reader's
    words, by the name the reader types them by (and their English names)."""
    domain = spec_domain(spec, domain)
    book = translations(lang(), domain)
    out: dict[str, str] = {}
    for p in spec.params:
        for choice, meaning in zip(p.choices, p.meanings, strict=False):
            said = book.gettext(meaning)
            out[choice] = out[local_name("choice", choice, domain)] = said
    return out
