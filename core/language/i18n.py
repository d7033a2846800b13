"""Words in the reader's language: gettext catalogues, one language per reader.

The source language is English: every message is written in English in the code
(the gettext ``msgid``) and Italian comes from the catalogues under
``core/language/locale/it/LC_MESSAGES/<domain>.po``, compiled to the ``.msgpack``
beside it when Fireteam is built or installed (setup.py), and read from it as
``gettext`` would read a ``.mo`` (``core.language.compiled``).  A message missing from
a catalogue falls back to English.

Domains keep each vocabulary apart, as the same English word can be two Italian
ones ("fire" is *fuoco* in one book and *tiro* in another):

* ``fireteam``: the core, the headless commands and the report;
* ``client``: the Textual client (falling back to ``fireteam``);
* ``server``: the SSH server's own words (falling back to ``client``, then ``fireteam``);
* one per ruleset, named as its package (``breaking_news``), falling back to
  ``fireteam``: the book's own words, its narration, its commands' names.

**Who reads** is ``core.language.reader``'s: a reader per process, or per SSH seat.

**Events hold no words.**  A fact a ruleset records in words is a :class:`Msg`:
the English template (its ``msgid``) and its arguments, rendered for each reader
by :func:`render`.  The same save replays to the same JSON in every language;
older saves, whose events hold finished English sentences, display as written.

Marking: ``_("…")`` translates now; ``N_("…")`` marks a constant translated later
(a table's row); ``M("… {unit} …", unit=...)`` makes a :class:`Msg` for an event.
Commands' names are translated with the context ``command``, their options with
``option`` and choices with ``choice`` (``pgettext``); statuses, phases and other
terms a ruleset shows as words, with ``term``.
"""

from __future__ import annotations

import copy
import gettext
import os
import re
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Union

import msgspec

from core.language.numerals import localised
from core.language.reader import LANGUAGES, SOURCE, lang
from core.log.recordint import RecordInt

if TYPE_CHECKING:
    from core.language.compiled import Catalogue

LOCALE_DIR = Path(__file__).parent / "locale"
CORE_DOMAIN = "fireteam"
CLIENT_DOMAIN = "client"
SERVER_DOMAIN = "server"


# ----------------------------------------------------------------------- messages


class Msg(msgspec.Struct, frozen=True, gc=False, array_like=True, omit_defaults=True):
    """A sentence kept as data in an event: the English template and its arguments.

    ``id`` is the gettext ``msgid``, with ``{name}`` fields; ``args`` fills them.
    An argument is a name or a number shown as it is, or a :class:`Msg` of its own
    (a term, a phrase), rendered in the reader's language first.  On disk it is a
    JSON array, ``["{side} fired first", {"side": "regulars"}]``.
    """

    id: str
    args: dict[str, Union[str, RecordInt, Msg]] = {}

    def __post_init__(self) -> None:
        # Run for every message made or decoded (msgspec calls it, inner messages
        # first): a save is hostile input, and a few hundred bytes of nested
        # messages naming their argument ten times each would render to 10^10
        # characters.  A ValueError here is a ValidationError of the decode.
        if len(self.args) > MAX_ARGS:
            raise ValueError(f"a message with more than {MAX_ARGS} arguments")
        depth, size = _measure(self)
        if depth > MAX_NESTING:
            raise ValueError(f"a message that nests deeper than {MAX_NESTING} levels")
        if size > MAX_RENDERED:
            raise ValueError(f"a message that renders to more than {MAX_RENDERED} characters")


#: How deep messages may nest in one another: far more than any rule writes (a
#: roll's outcome naming a term in a phrase), far less than a hostile save would
#: need to exhaust the stack.  A deeper message is refused when made or read.
MAX_NESTING = 16
#: The most arguments one message takes (a rule's sentence names a handful).
MAX_ARGS = 32
#: The most characters a message may render to, reckoned on its English
#: template: no longer than a save's line may be (``savefile.MAX_LINE_BYTES``).
MAX_RENDERED = 1 << 20

_FIELDS = string.Formatter()


def _measure(msg: Msg) -> tuple[int, int]:
    """(levels of nesting, characters rendered in English) of ``msg``.

    As :func:`render` would write it: a template that :func:`fill` refuses is
    shown as written.  The inner messages were measured when they were made, so
    this walk is bounded by the limits it checks.
    """
    if not msg.args:
        return 1, len(msg.id)  # (a term: no field to fill)
    depth = 1
    sizes: dict[str, int] = {}
    for name, value in msg.args.items():
        if isinstance(value, Msg):
            inner, sizes[name] = _measure(value)
            depth = max(depth, inner + 1)
        else:
            sizes[name] = len(value) if isinstance(value, str) else len(str(value))
    parts = _template_parts(msg.id)
    if parts is None:
        return depth, len(msg.id)
    size = 0
    for literal, field in parts:
        size += len(literal)
        if field is None:
            continue
        if field not in sizes:
            return depth, len(msg.id)
        size += sizes[field]
    return depth, size


@lru_cache(maxsize=4096)
def _template_parts(template: str) -> tuple[tuple[str, str | None], ...] | None:
    """(the text before, field name) of each part of ``template``; None if :func:`fill`
    would refuse it whatever the arguments (it does not parse, or has a field with a
    format or a conversion).  Cached: a save repeats a few hundred templates (this
    halves the cost of decoding a message), and a game's rules make and read the same
    few sentences thousands of times (a re-rolled game reads each loss's cause)."""
    try:
        parts = list(_FIELDS.parse(template))
    except ValueError:
        return None
    if any(spec or conversion for _literal, _field, spec, conversion in parts):
        return None
    return tuple((literal, field) for literal, field, _spec, _conversion in parts)


#: What an event holds where it says something in words: a :class:`Msg`, or in a
#: save from before messages, a finished English sentence.
Text = Union[str, Msg]


def M(template: str, /, **args: str | int | Msg) -> Msg:
    """A message for an event; babel extracts ``template`` as a ``msgid``."""
    return Msg(template, args)


def N_(message: str) -> str:
    """Marks a constant for the catalogue; it is translated where it is shown."""
    return message


# --------------------------------------------------------------------- catalogues


@cache
def _loaded(lang: str, domain: str) -> Catalogue | None:
    """One domain's catalogue for ``lang``, read once per process from its compiled file; None
    where there is none (English).

    An installed Fireteam has the compiled files its build made (``core.language.compiled``),
    and no ``.po``.  A checkout has both once installed (``pip install -e .`` compiles them in
    place): a ``.po`` edited since, a tree never built, or a compiled file that cannot be read,
    is compiled here with babel (a test and build requirement) and its compiled file left
    beside it for the next process, where the checkout may be written; without babel, or an
    install's compiled file that cannot be read, English, and why, said once on stderr.
    """
    if lang == SOURCE:
        return None
    from core.language import compiled  # (an English reader's start does without it)

    # (Paths as strings: pathlib's joins cost a start more than the stat calls they name.)
    base = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", domain)
    po, made = base + ".po", base + compiled.SUFFIX
    edited, built = _modified(po), _modified(made)
    if built is not None and (edited is None or edited <= built):
        try:
            return compiled.read(made)
        except compiled.Unreadable as e:
            if edited is None:
                _say_english(f"the {lang} {domain} catalogue cannot be read ({e})")
    if edited is None:
        return None
    return _compiled_now(Path(po), lang, domain)


def _modified(path: str) -> int | None:
    """When ``path`` was written; None if it is not a file (a FIFO or a folder in a catalogue's place is none)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns if S_ISREG(st.st_mode) else None


def _compiled_now(po: Path, lang: str, domain: str) -> Catalogue | None:
    """``po`` compiled with babel (a checkout), and left compiled; None, said once, without babel."""
    from core.language import compiled

    try:
        data = compiled.compiled(po.read_bytes(), lang, domain)
    except ImportError:
        _say_english(f"the {lang} catalogues are not compiled here (pip install -e . again, or pip install babel)")
        return None
    _leave(po.with_suffix(compiled.SUFFIX), data)
    return compiled.decoded(data)


def _leave(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a checkout that cannot be written compiles again next time)."""
    import contextlib
    import tempfile

    with contextlib.suppress(OSError):
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=path.suffix, dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@cache
def _say_english(why: str) -> None:
    import sys

    print(f"fireteam: {why}: English instead", file=sys.stderr)


def _catalogue(lang: str, domain: str) -> gettext.NullTranslations:
    """A link of a fallback chain: its own copy of the loaded catalogue (sharing its
    messages), as each chain sets the fallback of its links."""
    loaded = _loaded(lang, domain)
    return gettext.NullTranslations() if loaded is None else copy.copy(loaded)


def pairs(lang: str, domain: str) -> list[tuple[str, str]]:
    """Every translated message of ``domain``'s own catalogue in ``lang``, as (English,
    translation), contexts left out: the words a search takes as each other's synonyms
    (``core.explain.rulesearch``); none in English."""
    loaded = _loaded(lang, domain)
    messages = loaded.messages if loaded is not None else {}
    return [(key.rpartition("\x04")[2], text) for key, text in messages.items() if key and text]


def forget_catalogues() -> None:
    """Read the catalogues afresh when next asked (a test that changes ``LOCALE_DIR``)."""
    _loaded.cache_clear()
    _say_english.cache_clear()
    translations.cache_clear()
    _scenario_words.cache_clear()


@cache
def translations(lang: str, domain: str = CORE_DOMAIN) -> gettext.NullTranslations:
    """``domain``'s catalogue for ``lang``, falling back to the client's and the
    core's, then to English."""
    chain = [domain]
    if domain not in (CORE_DOMAIN, CLIENT_DOMAIN):
        chain.append(CLIENT_DOMAIN)
    if domain != CORE_DOMAIN:
        chain.append(CORE_DOMAIN)
    first = _catalogue(lang, chain[0])
    last = first
    for d in chain[1:]:
        nxt = _catalogue(lang, d)
        last.add_fallback(nxt)
        last = nxt
    return first


#: English words for the ids a ruleset's code names, by (domain, context): a status
#: ``attacks-1`` reads "one attack left".  The catalogues translate the id itself.
_ENGLISH: dict[tuple[str, str], dict[str, str]] = {}


def english_words(domain: str, context: str, words: Mapping[str, str]) -> None:
    """Say the ids ``words`` names (in ``domain``, with ``context``: ``term``, ``phase``,
    or ``""`` for an id recorded as a message of its own) in those English words wherever
    the reader's catalogue has none."""
    _ENGLISH.setdefault((domain, context), {}).update(words)


class Domain:
    """The translating functions of one domain, for the current reader::

    _ = Domain("breaking_news").gettext
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def gettext(self, message: str) -> str:
        return translations(lang(), self.name).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return translations(lang(), self.name).ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        said = translations(lang(), self.name).pgettext(context, message)
        if said == message:
            # An id the code names (``attacks-1``) is no English: its words, where given.
            return _ENGLISH.get((self.name, context), {}).get(message, said)
        return said

    def term(self, word: str) -> str:
        """A ruleset's term (a status, a phase, a weapon) in the reader's language."""
        return self.pgettext("term", word)

    def render(self, text: Text) -> str:
        return render(text, self.name)

    def in_every_language(self, context: str, message: str) -> list[str]:
        """``message`` as each language's reader writes it (a word a referee may type,
        such as "draw" in a result: a script means the same whoever reads it)."""
        return sorted({translations(language, self.name).pgettext(context, message) for language in LANGUAGES})


_core = Domain(CORE_DOMAIN)
_ = _core.gettext
ngettext = _core.ngettext
pgettext = _core.pgettext

#: The context of a built-in scenario's own words in the core's catalogue (``scenario_words``).
SCENARIO = "scenario"


def scenario_words(text: str, language: str | None = None) -> str:
    """A built-in scenario's own words (its title, description, sides' names, victory, special
    rules) in the reader's language (or ``language``).  The game records them as the file writes
    them, in English, so that a save reads the same in every language; they are translated
    where shown.  The catalogue holds the built-in files' texts alone
    (``core.language.catalogues``): a user's file is shown as its author wrote it, or in the
    words it gives for the reader's language (``[translations.it]``, recorded as
    ``GameSetUp.words`` and read through :func:`naming`), unless a text of it is word for
    word a built-in's (ruling I18N-SCENARIO)."""
    if not text:
        return text
    names = _NAMES.get()
    if names is not None and names.words:  # the game's scenario file gives its own (GameSetUp.words)
        own = names.words.get(language or lang(), {}).get(text)
        if own and len(own) <= OWN_WORDS_MAX:
            return own
    if len(text) > SCENARIO_CACHED:  # a hostile save's long strings are never kept
        return _composed(translations(language or lang()), text)
    return _scenario_words(language or lang(), text)


#: The longest of a game's own words :func:`scenario_words` shows (a scenario file's ``TEXT_MAX``,
#: core.scenarios.schema); a longer one, only a hostile save's, is left unused.
OWN_WORDS_MAX = 2000

#: The longest text :func:`scenario_words` keeps the answer for: longer than every built-in
#: scenario's (its longest, a description, is 150 characters).
SCENARIO_CACHED = 400


@lru_cache(maxsize=4096)
def _scenario_words(language: str, text: str) -> str:
    # Cached: every string a message holds is looked up when rendered (``_render``), and a
    # miss walks the whole chain of catalogues.
    return _composed(translations(language), text)


#: A hidden objective's worth, as its secret records it after its words ("Well: behind the farm
#: (10 points)"; core.scenarios.schema).
_WORTH = re.compile(r"(?P<words>.*) \((?P<points>\d+) points\)")


def _composed(tr: gettext.NullTranslations, text: str) -> str:
    """``text`` in ``tr``'s language: a built-in scenario's text, or a fact the game composed of
    such texts joined by ": " (an objective's name and place, a minefield's kind and place), each
    part translated; what no catalogue holds stays as written."""
    said = tr.pgettext(SCENARIO, text)
    if said != text or ": " not in text:
        return said
    parts = text.split(": ")
    worth = _WORTH.fullmatch(parts[-1])
    if worth:
        parts[-1] = worth["words"]
    said = ": ".join(tr.pgettext(SCENARIO, part) for part in parts)
    if worth:
        points = int(worth["points"])
        said += " (" + tr.ngettext("{n} point", "{n} points", points).format(n=points) + ")"
    return said


# ------------------------------------------------------------ a game's names


class Names(msgspec.Struct, frozen=True):
    """What a game calls its sides and pieces, by id, while its words are rendered
    (:func:`naming`): the players know them by their names, never by the ids that
    commands type and events record."""

    sides: Mapping[str, str] = {}
    pieces: Mapping[str, str] = {}
    #: The scenario file's own words in other languages (language -> {text: its words}).
    words: Mapping[str, Mapping[str, str]] = {}


#: The game whose words are being rendered (none: ids are shown as recorded).
_NAMES: ContextVar[Names | None] = ContextVar("fireteam_names", default=None)
#: The longest name :func:`naming` uses (a scenario file's limit); a longer one, only a
#: hostile save's, is cut.  With ids of at least one character, a message named can
#: render at most this many times longer than reckoned (``_measure``).
NAME_LIMIT = 60


@contextmanager
def naming(names: Names) -> Iterator[None]:
    """Render a game's words with its names: inside, a message's argument that is
    exactly one of its sides' ids (``{side}`` = ``regulars``, as rules record them)
    reads as that side's name (``Bersaglieri``) in every language (but an argument
    named ``…_id``: an id as a command takes it, in a hint of what to type), and
    :func:`side_name` and :func:`piece_name` name what a ruleset's phrase holds by id.
    An id that is a number is never taken for a side (it is a count far more often).
    The mappings are read as they are then (a game's live views do)."""
    token = _NAMES.set(names)
    try:
        yield
    finally:
        _NAMES.reset(token)


def _named(names: Mapping[str, str], key: str) -> str:
    name = names.get(key) if not key.isdigit() else None
    if not name:
        return key
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


def side_name(side: str) -> str:
    """A side's id as its players know it, while a game is rendered (:func:`naming`)."""
    names = _NAMES.get()
    return side if names is None else _named(names.sides, side)


def piece_name(piece: str) -> str:
    """A piece's id as its players know it, while a game is rendered (:func:`naming`)."""
    names = _NAMES.get()
    return piece if names is None else _named(names.pieces, piece)


#: The possessives the rulesets' ``whose`` records (``regulars'``, ``Rossi's``): English
#: writes one or the other as the name shown ends, so it is chosen once the name is.
_POSSESSIVES = ("{name}'", "{name}'s")


# ---------------------------------------------------------------------- rendering


def render(text: Text, domain: str = CORE_DOMAIN, language: str | None = None, *, named: bool = True) -> str:
    """``text`` in the reader's language (or ``language``).

    A plain string (an older save's sentence, a name) is looked up as it is and
    shown untranslated when the catalogue lacks it.  A :class:`Msg`'s template is
    translated, then filled; a template that is not a plain ``{name}`` template
    (a hostile save's ``{x.__class__}``, a field with no argument) is shown as
    written, never evaluated.  While a game is rendered (:func:`naming`), an
    argument that is a side's id is its name, unless the message could then
    render past :data:`MAX_RENDERED`, or ``named`` is False (:func:`plain`: the
    words a rule reads back, such as the side in a recorded cause, are the ids).  An
    argument that is a built-in scenario's words (a side's name a result recorded) reads
    in the reader's language (:func:`scenario_words`).
    """
    tr = translations(language or lang(), domain)
    if isinstance(text, str):
        return tr.gettext(text) if text else text
    names = _NAMES.get() if named else None
    sides = names.sides if names is not None else {}
    if sides and _measure(text)[1] * NAME_LIMIT > MAX_RENDERED:
        sides = {}  # (only a hostile save's message comes near)
    return _render(text, tr, domain, language, 0, sides)


def _render(
    text: Msg, tr: gettext.NullTranslations, domain: str, language: str | None, depth: int, sides: Mapping[str, str]
) -> str:
    template = tr.gettext(text.id)
    if template == text.id:
        # An id recorded as a message of its own (a ledger column ``first-fire``): its
        # English words, where its ruleset gives them (``english_words`` with no context).
        template = _ENGLISH.get((domain, ""), {}).get(text.id, template)
    values = {}
    for k, v in text.args.items():
        if isinstance(v, Msg):
            values[k] = _render(v, tr, domain, language, depth + 1, sides) if depth + 1 < MAX_NESTING else v.id
        else:
            if isinstance(v, str) and sides and not k.endswith("_id"):  # an id as commands type it
                v = _named(sides, v)
            if isinstance(v, str):  # a built-in scenario's words a rule recorded (a side's name)
                v = scenario_words(v, language)
            values[k] = _argument(v, language)
    if template in _POSSESSIVES:
        template = "{name}'" if values.get("name", "").endswith("s") else "{name}'s"
    return fill(template, values) or fill(text.id, values) or text.id


#: An argument written as a decimal number (a measured distance): shown with the
#: reader's decimal point.
_DECIMAL = re.compile(r"-?[0-9]{1,9}\.[0-9]{1,6}")


def _argument(value: str | int, language: str | None) -> str:
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return localised(value, language)
    return str(value)


def fill(template: str, values: Mapping[str, str]) -> str | None:
    """``template`` with its ``{name}`` fields filled from ``values``; None if it has
    any other kind of field (an index, an attribute, a conversion, a format) or a
    field with no value."""
    parts = _template_parts(template)
    if parts is None:
        return None
    out: list[str] = []
    for literal, field in parts:
        out.append(literal)
        if field is None:
            continue
        if not field.isidentifier() or field not in values:
            return None
        out.append(values[field])
    return "".join(out)


def plain(text: Text) -> str:
    """``text`` in English, as the source wrote it, its ids as recorded (never named,
    :func:`naming`): for tests and the rules' own checks."""
    return render(text, CORE_DOMAIN, SOURCE, named=False)
