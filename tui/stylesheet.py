"""A stylesheet whose rules are parsed once per process, not once per app.

Each Textual app parses its CSS (the widgets' default CSS, the app's, the
screens') into rule sets of its own: about 0.45 MB a seat, the same rules
every time, since every seat of ``fireteam serve`` runs the same app with the
same theme.  :class:`SharedStylesheet` keeps what it parses in a cache of the
process, keyed by the CSS and where it came from (as Textual's own cache of
one stylesheet is) and by the stylesheet's variables (the theme's colours,
which the parse substitutes): an app of another theme parses its own.

Rule sets are only read once parsed (matched against nodes, their styles
copied into each node's), so apps can share them.  Textual's ``reparse``
parses in a fresh ``Stylesheet``; ours parses in a fresh one of its own class,
so that reparsing (a screen with CSS pushed, the theme set) shares too
(``tui.textual_internals.ParsingStylesheet``, where the private step this
refines is named).

**Kept between processes.**  Parsing is Textual's tokenizer, in Python: about
14 ms of a client's start for its 23 pieces of CSS (114 rule sets), the same
every time.  So what a process parsed is kept in Fireteam's cache
(``core.cachedir``, ``css/``), and the next process reads it back (2-3 ms)
instead of parsing (:func:`keep_parsed`, called once the first frame is drawn).
A piece of CSS is found there by a digest of everything its parse depends on
(the key above); the file is named by this format, Python's version and
Textual's parsing modules (their files' times and sizes, as Python checks a
compiled module's source).  It holds the pieces every kind of start parsed (a
game's, a replay's, the start screen's, each theme's), of which a start asks
for half or less: so the pieces one start parsed are a group, pickled together,
and a group is unpickled only when a parse asks for one of its pieces.  The
file is read as hostile input: only if it is a regular file of at most
:data:`MAX_BYTES` carrying the SHA-256 of what follows (the groups: their
pieces' digests and their pickle, in MessagePack), and each group unpickled by
an unpickler that makes nothing but Textual's CSS model (rule sets, selectors,
styles and their values: ``tui.textual_internals.CSS_MODEL``) and enum members
of those classes; anything else, or any error, and the CSS (of that group, or
of every piece) is parsed as before.  A pickle's BUILD sets attributes on
whatever it is given, a class too: what the unpickler hands it of Textual
(those classes, their enum members, the model's functions) is watched, put
back as it was if the pickle changed it, and the group refused (about 0.15 ms
of a read).  (The digest guards against damage; the unpickler
against a file that would run code or change Textual; ``core.cachedir`` against
another user's file.  A writer with the user's rights could change the CSS
itself too: the rules such a file holds are believed as the CSS would be, and
CPython's unpickler makes its memo as long as the largest index a file names,
so a file of a few bytes can make a start allocate gigabytes.)
"""

from __future__ import annotations

import operator
import os
import types
from pathlib import Path
from typing import Any

import msgspec
from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation

from tui.textual_internals import CSS_MODEL, CSS_PARSERS, STYLE_RULE_LOOKUPS, ParsingStylesheet, css_variables

#: Parsed rules, by (CSS, where from, default rules?, tie breaker, scope, variables): a few themes × some
#: fifty sources of CSS fit.
_RULES: LRUCache[tuple[object, ...], list[RuleSet]] = LRUCache(1024)

#: Bump when what the kept file holds changes shape, or how a piece of CSS is found in it
#: (2: by the digest of the variables, not the variables; 3: in groups, a pickle each).
FORMAT = 3
#: A kept file larger than this is neither read nor written.
MAX_BYTES = 4 << 20
#: Pieces of CSS a kept file holds at most, counted in every group (beyond it, it starts again from
#: this process's; a file holding more is not read).
MAX_KEPT = 512
MAGIC = b"fireteam-css\n"
_SUFFIX = ".rules"


class KeptPieces:
    """The pieces of CSS a kept file holds, in groups (the pieces one start parsed, in one
    pickle): a group is unpickled whole the first time a parse asks for one of its pieces."""

    def __init__(self, groups: list[tuple[list[bytes], bytes]]) -> None:
        #: Each group's pieces (the digests of their keys) and its pickle (their rule sets, in that order).
        self.groups = groups
        self._group_of = {digest: number for number, (digests, _) in enumerate(groups) for digest in digests}
        self._read: dict[bytes, list[RuleSet] | None] = {}

    def __len__(self) -> int:
        return len(self._group_of)

    def get(self, digest: bytes) -> list[RuleSet] | None:
        """A piece's rule sets, or None if the file has not got it (or it cannot be read)."""
        number = self._group_of.get(digest)
        if number is None:
            return None
        if digest not in self._read:
            digests, body = self.groups[number]
            try:
                pieces: list[list[RuleSet] | None] = list(_unpickled(body, len(digests)))
            except Exception:  # hostile or damaged: its pieces are parsed as before
                pieces = [None] * len(digests)
            self._read.update(zip(digests, pieces, strict=True))
        return self._read[digest]


#: This process's: what the kept file held, once read; what it parsed since (digest of the key: rules).
_kept: KeptPieces | None = None
_parsed: dict[bytes, list[RuleSet]] = {}
_groups_decoder = msgspec.msgpack.Decoder(list[tuple[list[bytes], bytes]])


class SharedStylesheet(ParsingStylesheet):
    """Textual's stylesheet, parsing each piece of CSS once per process and theme (see the module's doc)."""

    #: The variables last digested (Textual's dict, never changed in place: replaced), and their digest.
    _digested: tuple[dict[str, str], bytes] | None = None

    def _variables_digest(self) -> bytes:
        # Each parse asks for every piece of CSS again (some 100 asks a start, 23 pieces):
        # the ~150 variables are sorted and digested once per set, not at every ask.
        variables = css_variables(self)
        if self._digested is None or self._digested[0] is not variables:
            self._digested = (variables, _digest(tuple(sorted(variables.items()))))
        return self._digested[1]

    def parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_digest())
        rules = _RULES.get(key)
        if rules is None:
            digest = _digest(key)
            rules = _kept_rules().get(digest)
            if rules is None:
                rules = _parsed[digest] = super().parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _RULES[key] = rules
        return rules


def _digest(key: tuple[object, ...]) -> bytes:
    import hashlib

    # The key is strings, numbers, booleans, bytes and tuples of them: its repr is the same in every process.
    return hashlib.blake2b(repr(key).encode("utf-8", "surrogatepass"), digest_size=16).digest()


#: Kept files of other Textuals (or Pythons) left in the folder at most.
KEEP_FILES = 4


def kept_file() -> Path:
    """Where this format, Textual and Python keep parsed CSS."""
    import hashlib
    import importlib
    import sys

    from core.cachedir import cache_root

    # Textual's own files, as Python's compiled modules are checked (their times and sizes), not its
    # version: that is read from its package's metadata, which would cost more than a parse.
    made_by = [FORMAT, sys.version]
    for name in CSS_PARSERS:
        info = os.stat(importlib.import_module(name).__file__ or "")
        made_by.append((name, info.st_mtime_ns, info.st_size))
    return cache_root() / "css" / (hashlib.blake2b(repr(made_by).encode(), digest_size=8).hexdigest() + _SUFFIX)


def _kept_rules() -> KeptPieces:
    global _kept
    if _kept is None:
        try:
            _kept = KeptPieces(_read(kept_file()))
        except Exception:  # hostile or damaged: parsed as before (never a reason not to start)
            _kept = KeptPieces([])
    return _kept


def _read(path: Path) -> list[tuple[list[bytes], bytes]]:
    """The groups of pieces a kept file holds (none if it is not one, or is damaged)."""
    from core.cachedir import read_sealed

    body = read_sealed(path, MAGIC, MAX_BYTES)
    if body is None:
        return []
    groups = _groups_decoder.decode(body)
    return groups if _pieces(groups) <= MAX_KEPT else []


def _pieces(groups: list[tuple[list[bytes], bytes]]) -> int:
    return sum(len(digests) for digests, _ in groups)


def _unpickled(body: bytes, pieces: int) -> list[list[RuleSet]]:
    """The rule sets of a group of ``pieces`` pieces, from its pickle (``UnpicklingError`` if it is anything else)."""
    import enum
    import io
    import pickle

    def member(owner: Any, name: str) -> Any:
        # How an enum member is pickled (only those of the classes below), and a
        # style's ``get_rule`` and ``has_rule`` (its own rules' ``get`` and
        # ``__contains__``): nothing else is looked up.
        if isinstance(owner, type) and issubclass(owner, enum.Enum) and name in owner.__members__:
            return owner[name]
        if type(owner) is dict and name in STYLE_RULE_LOOKUPS:
            return getattr(owner, name)
        raise pickle.UnpicklingError(f"not a member: {name!r}")

    # A pickle's BUILD sets attributes on whatever it is given, a class or a function too:
    # what it was handed of Textual is watched, and put back as it was if the pickle changed it.
    handed: dict[int, tuple[object, tuple[dict[str, object], tuple[object, ...]]]] = {}

    def watched(found: Any) -> Any:
        for thing in (found, *(found.__members__.values() if isinstance(found, enum.EnumType) else ())):
            if id(thing) not in handed:
                handed[id(thing)] = (thing, _state(thing))
        return found

    class Model(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) == ("builtins", "getattr"):
                return member
            if (module, name) in CSS_MODEL:
                return watched(super().find_class(module, name))
            raise pickle.UnpicklingError(f"not CSS: {module}.{name}")

    try:
        kept = Model(io.BytesIO(body)).load()
    finally:
        changed = [(thing, was) for thing, was in handed.values() if not _same(_state(thing), was)]
        for thing, was in changed:
            _put_back(thing, was)
    if changed:
        raise pickle.UnpicklingError(f"the pickle changed {changed[0][0]!r}")
    if not (
        isinstance(kept, list)
        and len(kept) == pieces
        and all(isinstance(rules, list) and all(isinstance(rule, RuleSet) for rule in rules) for rules in kept)
    ):
        raise pickle.UnpicklingError(f"not {pieces} lists of rule sets")
    return kept


#: What a pickle's BUILD could set on a class or a function besides its ``__dict__`` (on an enum member: its class).
_CLASS_OUTSIDE = ("__class__", "__bases__", "__name__", "__qualname__")
_FUNCTION_OUTSIDE = ("__class__", "__name__", "__qualname__", "__code__", "__defaults__", "__kwdefaults__")
_OTHER_OUTSIDE = ("__class__",)
_GETTERS = {names: operator.attrgetter(*names) for names in (_CLASS_OUTSIDE, _FUNCTION_OUTSIDE)}
_NONE = object()


def _outside(thing: object) -> tuple[str, ...]:
    if isinstance(thing, type):
        return _CLASS_OUTSIDE
    return _FUNCTION_OUTSIDE if isinstance(thing, types.FunctionType) else _OTHER_OUTSIDE


def _state(thing: object) -> tuple[dict[str, object], tuple[object, ...]]:
    names = _outside(thing)
    return dict(vars(thing)), (type(thing),) if names is _OTHER_OUTSIDE else _GETTERS[names](thing)


def _same(now: tuple[dict[str, object], tuple[object, ...]], was: tuple[dict[str, object], tuple[object, ...]]) -> bool:
    # By identity: a value the pickle made could compare equal to the one it replaced.
    return (
        list(now[0]) == list(was[0])
        and all(map(operator.is_, now[0].values(), was[0].values()))
        and all(map(operator.is_, now[1], was[1]))
    )


def _put_back(thing: object, was: tuple[dict[str, object], tuple[object, ...]]) -> None:
    attributes, outside = was
    for name, value in zip(_outside(thing), outside, strict=True):
        if getattr(thing, name) is not value:
            setattr(thing, name, value)
    now = vars(thing)
    for name in [name for name in now if name not in attributes]:
        delattr(thing, name)
    for name, value in attributes.items():
        if now.get(name, _NONE) is not value:
            setattr(thing, name, value)


def keep_parsed() -> None:
    """Keep what this process parsed, and had not found kept, for the next process (best effort: never raises)."""
    global _kept, _parsed
    if not _parsed:
        return
    import pickle

    from core.cachedir import write_sealed

    # The groups kept already go as they were read (their pickles untouched): this process's pieces are one more.
    groups = _kept_rules().groups if _pieces(_kept_rules().groups) + len(_parsed) <= MAX_KEPT else []
    parsed, _parsed = _parsed, {}
    if len(parsed) > MAX_KEPT:
        return  # more than a kept file may hold
    try:
        body = pickle.dumps(list(parsed.values()), protocol=pickle.HIGHEST_PROTOCOL)
        _unpickled(body, len(parsed))  # what cannot be read back is not written
        _kept = KeptPieces([*groups, (list(parsed), body)])
        write_sealed(kept_file(), MAGIC, msgspec.msgpack.encode(_kept.groups), MAX_BYTES, others_kept=KEEP_FILES)
    except Exception:
        pass
