"""Scenario and force files: reading them safely, and saying where they are wrong.

A scenario file is TOML (docs/scenarios.md).  It is hostile input: it is read
only up to :data:`MAX_BYTES`, decoded by msgspec into the ruleset's frozen
schema (an unknown field is an error), then checked against the ruleset's
tables.  Every problem is a :class:`ScenarioError`, ``FILE:LINE: message``,
whose message names the field, the bad value and what is allowed.

msgspec reports where a value is by its path (``$.units[3].weapons[0]``);
tomllib keeps no positions, so :func:`locate` finds the line of a path in the
text by reading its table headers and keys (a TOML document says where every
key is on one line, which is all the locator needs).

Where files may be read from: anywhere, for a local client or a script; on an
SSH server (:func:`restrict_reads`) only from the user scenario folder of the
server's data folder, so a seat cannot make the server read its other files.
Built-in scenarios are named, never read by path.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import msgspec.inspect

from core.folders import folder
from core.language.i18n import _
from core.refusal import TYPING, Refused

#: The largest scenario or force file read (a large scenario is ~20 KB).
MAX_BYTES = 256 * 1024
SCENARIOS_FOLDER = "scenarios"
FORCES_FOLDER = "forces"


def data_dir() -> Path:
    return folder("data")


def user_scenarios_dir(ruleset_id: str) -> Path:
    """``<data>/scenarios/<ruleset>/``: the user's own scenario files."""
    return data_dir() / SCENARIOS_FOLDER / ruleset_id


def user_forces_dir(ruleset_id: str) -> Path:
    """``<data>/forces/<ruleset>/``: the user's own force files."""
    return data_dir() / FORCES_FOLDER / ruleset_id


def is_path(word: str) -> bool:
    """A word of ``scenario WORD`` that names a file rather than a built-in scenario."""
    return "/" in word or os.sep in word or word.endswith(".toml")


# ----------------------------------------------------------------------- errors


class ScenarioError(Refused):
    """A scenario or force file refused: ``FILE:LINE: message``, one line per problem."""

    def __init__(self, file: str, line: int, message: str, more: Iterable[tuple[int, str]] = ()) -> None:
        self.file = file
        self.problems = [(line, message), *more]
        super().__init__("\n".join(f"{file}:{n}: {m}" for n, m in self.problems), rule=TYPING)

    @property
    def line(self) -> int:
        return self.problems[0][0]


class Problem(msgspec.Struct, frozen=True):
    """Something wrong at ``path`` (keys and indexes from the document's root)."""

    path: tuple[str | int, ...]
    message: str


def close_matches(word: str, known: Iterable[str]) -> str:
    """``; did you mean a or b?`` — or the whole list when it is short and nothing is close."""
    options = sorted(set(known))
    near = difflib.get_close_matches(word, options, n=3, cutoff=0.6)
    if near:
        return _("; did you mean {words}?").format(words=_(" or ").join(near))
    if not options:
        return _(" (none is defined)")
    if len(options) <= 12:
        return _(" (allowed: {words})").format(words=", ".join(options))
    return _(" ({n} are allowed: see docs/scenarios.md)").format(n=len(options))


def dotted(path: Iterable[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(the file)"


# ---------------------------------------------------------------------- reading

_read_roots: tuple[Path, ...] | None = None
#: The scenarios and forces shipped with Fireteam, always readable.
BUILTIN_ROOT = (Path(__file__).parents[1] / "rulesets").resolve()


def restrict_reads(roots: Iterable[Path] | None) -> tuple[Path, ...] | None:
    """Read scenario and force files only under ``roots`` and the built-in ones (None:
    anywhere).  The SSH server calls this at start: a path a seat types is the server's.

    Returns the roots in force before, for :func:`restore_reads`.
    """
    global _read_roots
    before = _read_roots
    _read_roots = None if roots is None else (*(Path(r).resolve() for r in roots), BUILTIN_ROOT)
    return before


def restore_reads(before: tuple[Path, ...] | None) -> None:
    """Put back the read policy :func:`restrict_reads` returned (a server that stops
    inside a longer-lived process, as in tests, leaves it as it found it)."""
    global _read_roots
    _read_roots = before


def read_text(path: Path) -> str:
    """The file's text, within the size cap and the read policy, or Refused."""
    shown = str(path)
    if _read_roots is not None:
        real = Path(os.path.expanduser(path)).resolve()
        if not any(real.is_relative_to(root) for root in _read_roots):
            places = ", ".join(str(r) for r in _read_roots)
            raise ScenarioError(shown, 0, f"this server reads scenario files only from {places}")
        path = real
    try:
        # Not a FIFO or a device: opening one could block, or never end.
        if not stat.S_ISREG(os.stat(os.path.expanduser(path)).st_mode):
            raise ScenarioError(shown, 0, "not a regular file")
        with open(os.path.expanduser(path), "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise ScenarioError(shown, 0, f"cannot read: {e.strerror or e}") from None
    if len(raw) > MAX_BYTES:
        raise ScenarioError(shown, 0, f"larger than the limit of {MAX_BYTES // 1024} KB for a scenario file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ScenarioError(shown, line, "not UTF-8 text") from None


# --------------------------------------------------------------------- decoding

_TOML_AT = re.compile(r"\(at line (\d+), column \d+\)")
_MSGSPEC_AT = re.compile(r"^(.*?)(?: - at `\$(.*)`)?$", re.DOTALL)
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[\.\.\.\]")
_UNKNOWN = re.compile(r"unknown field `([^`]+)`")
_MISSING = re.compile(r"missing required field `([^`]+)`")
T = TypeVar("T")
#: What each constrained string pattern means, in words (docs/scenarios.md).
PATTERN_WORDS: dict[str, str] = {}


#: What the TOML parser is never given (tomllib has no limits of its own): a
#: line longer than this (a dotted key of 40 KB made it quadratic: 17 s, 2.4 GB),
MAX_LINE = 4096
#: arrays and inline tables nested deeper than this (3,000 exhausted its stack),
MAX_DEPTH = 16
#: or a key or table header of more dotted parts than this.  Every file Fireteam
#: ships stays far below each (its longest line is 162 characters).
MAX_KEY_PARTS = 8

# The scanner's tokens: a string whole (so nothing in it counts), a comment, or
# one character that shapes the document; everything else is skipped in runs.
_TOML_TOKEN = re.compile(
    r'''"""(?:[^"\\]|\\[\s\S]|"(?!""))*"{3,5}'''  # a multi-line basic string
    r"""|'''(?:[^']|'(?!''))*'{3,5}"""  # a multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'  # a basic string
    r"|'[^'\n]*'"  # a literal string
    r"""|#[^\n]*|[\[\]{}=,.\n]|[^"'#\[\]{}=,.\n]+"""
)


def check_bounds(text: str, file: str) -> None:
    """Refuse, at its line, what the TOML parser cannot bound: see :data:`MAX_LINE`,
    :data:`MAX_DEPTH` and :data:`MAX_KEY_PARTS`.  Anything else, a syntax error
    included, is the parser's to find.  A string left open ends the scan: the
    parser refuses the file there, reading nothing after it as TOML (and going
    on from each quote inside it would make the scan quadratic)."""
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise ScenarioError(file, number, f"line longer than {MAX_LINE} characters")
    number = 1
    stack: list[str] = []  # the open "[" and "{" of values
    key = True  # reading a key (or a table header), not a value
    parts = 1
    at = 0
    while m := _TOML_TOKEN.match(text, at):
        at = m.end()
        token = m.group()
        if token == "\n":
            number += 1
            if not stack:
                key, parts = True, 1
        elif token[0] in "\"'":
            number += token.count("\n")
        elif key:
            if token == ".":
                parts += 1
                if parts > MAX_KEY_PARTS:
                    raise ScenarioError(file, number, f"a key of more than {MAX_KEY_PARTS} dotted parts")
            elif token == "=":
                key = False
        elif token in "[{":
            stack.append(token)
            if len(stack) > MAX_DEPTH:
                raise ScenarioError(file, number, f"arrays or inline tables nested deeper than {MAX_DEPTH}")
            key, parts = token == "{", 1
        elif token in "]}" and stack:
            stack.pop()
        elif token == "," and stack and stack[-1] == "{":
            key, parts = True, 1


def toml_data(text: str, file: str) -> dict[str, Any]:
    """The TOML document, parsed within :func:`check_bounds`, or a ScenarioError at
    its line (a syntax error at the very end is on the file's last line)."""
    check_bounds(text, file)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_AT.search(str(e))
        message = _TOML_AT.sub("", str(e)).replace("(at end of document)", "").strip()
        line = int(m.group(1)) if m else max(1, len(text.rstrip("\n").split("\n")))
        raise ScenarioError(file, line, f"not valid TOML: {message}") from None


#: The most problems the schema reports in one file (each is one more decoding).
MAX_PROBLEMS = 50


def decode(text: str, schema: type[T], file: str) -> T:
    """The text decoded into ``schema``, or a ScenarioError at the right line."""
    decoded, problems = decode_all(text, schema, file)
    if problems:
        raise error_at(file, text, *problems)
    assert decoded is not None
    return decoded


def decode_all(text: str, schema: type[T], file: str) -> tuple[T | None, list[Problem]]:
    """The text decoded into ``schema`` less its faulty fields, and every problem found.

    msgspec stops at the first bad value; to name them all, the field at fault is
    dropped and the rest decoded again, so a misspelt or mistyped field does not
    hide the ones after it, and what is left can still be checked against the
    rules.  The decoding is None when a required field is missing or wrong (the
    document cannot be decoded without it); the problems then are those found.
    Invalid TOML is one problem: the parser says nothing past it.
    """
    data = toml_data(text, file)
    problems: list[Problem] = []
    dropped: set[tuple[str | int, ...]] = set()
    while len(problems) < MAX_PROBLEMS:
        try:
            return msgspec.convert(data, type=schema, strict=True), problems
        except msgspec.ValidationError as e:
            problem = _problem(str(e), data, schema)
            if (missing := _MISSING.search(str(e))) and (*problem.path, missing.group(1)) in dropped:
                break  # a required field dropped for its own problem, already reported
            problems.append(problem)
            at = _field_of(problem.path)
            parent = _value_at(data, at[:-1])
            if not at or not isinstance(parent, dict) or at[-1] not in parent:
                break  # nothing to drop (a missing field, a wrong document): no decoding past it
            value = parent.pop(at[-1])
            dropped.add(at)
            if _UNKNOWN.search(str(e)):
                # A misspelt field is read as the one it was surely meant for (the message
                # names it), so that field is not also reported missing, and its value
                # is still checked.
                near = difflib.get_close_matches(str(at[-1]), _fields_at(schema, list(at[:-1])), n=1, cutoff=0.6)
                if near and near[0] not in parent:
                    parent[near[0]] = value
    return None, problems


def _field_of(path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The path up to its last field's name: a bad list item drops the whole list (its
    other items keep their indexes in later messages; none is left out silently)."""
    end = len(path)
    while end and not isinstance(path[end - 1], str):
        end -= 1
    return path[:end]


def _problem(message: str, data: Any, schema: type) -> Problem:
    m = _MSGSPEC_AT.match(message)
    assert m is not None
    text, where = m.group(1), m.group(2) or ""
    path = _path(where, data)
    if unknown := _UNKNOWN.search(text):
        fields = _fields_at(schema, path)
        path.append(unknown.group(1))
        why = _("{field}: no such field{matches}").format(
            field=dotted(path), matches=close_matches(unknown.group(1), fields)
        )
        return Problem(tuple(path), why)
    if missing := _MISSING.search(text):
        return Problem(
            tuple(path), _("{field}: missing (it is required)").format(field=dotted([*path, missing.group(1)]))
        )
    for pattern, words in PATTERN_WORDS.items():
        for shown in (pattern, pattern.replace("\\", "\\\\")):
            text = text.replace(f"matching regex '{shown}'", words)
    value = _value_at(data, path)
    shown = "" if value is _NOTHING or isinstance(value, dict | list) else f" = {_short(value)}"
    return Problem(tuple(path), f"{dotted(path)}{shown}: {text[0].lower()}{text[1:]}")


def _path(where: str, data: Any) -> list[str | int]:
    """msgspec's ``.a[0].b`` as keys; a dict's key shows as ``[...]``: it is the dict's
    only key, or the path stops at the dict."""
    path: list[str | int] = []
    for key, index in _PATH_PART.findall(where):
        if not key and not index:
            node = _value_at(data, path)
            if not (isinstance(node, dict) and len(node) == 1):
                break
            key = next(iter(node))
        path.append(key or int(index))
    return path


def _fields_at(schema: type, path: list[str | int]) -> list[str]:
    """The field names of the struct that ``path`` leads to in ``schema``."""
    info: Any = msgspec.inspect.type_info(schema)
    for part in [*path, None]:
        while isinstance(info, msgspec.inspect.Metadata):
            info = info.type
        if isinstance(info, msgspec.inspect.StructType):
            if part is None:
                return [f.encode_name for f in info.fields]
            info = next((f.type for f in info.fields if f.encode_name == part), None)
        elif isinstance(info, msgspec.inspect.VarTupleType | msgspec.inspect.ListType):
            info = info.item_type
        elif isinstance(info, msgspec.inspect.DictType):
            info = info.value_type
        else:
            return []
    return []


_NOTHING = object()


def _value_at(data: Any, path: Iterable[str | int]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return _NOTHING
    return data


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def error_at(file: str, text: str, *problems: Problem) -> ScenarioError:
    """The problems as one error, each at its line, in the order of the file."""
    where = line_index(text)
    found = sorted((_line(where, p.path), p.message) for p in problems)
    return ScenarioError(file, *found[0], more=found[1:])


# --------------------------------------------------------------------- locating

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")


def _keys(dotted_keys: str) -> list[str]:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", dotted_keys)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


def line_index(text: str) -> dict[tuple[str | int, ...], int]:
    """Where each table, array-of-tables element and key starts (1-based lines)."""
    where: dict[tuple[str | int, ...], int] = {}
    counts: dict[tuple[str | int, ...], int] = {}
    current: tuple[str | int, ...] = ()
    in_string = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string:
            if line.count(in_string) % 2:
                in_string = ""
            continue
        if header := _HEADER.match(line):
            array = header.group(1) == "[["
            path: list[str | int] = []
            for key in _keys(header.group(2)):
                path.append(key)
                # A table under an array of tables belongs to its last element.
                if tuple(path) in counts and not (array and len(path) == len(_keys(header.group(2)))):
                    path.append(counts[tuple(path)] - 1)
            if array:
                base = tuple(path)
                where.setdefault(base, number)
                counts[base] = counts.get(base, 0) + 1
                path.append(counts[base] - 1)
            current = tuple(path)
            where.setdefault(current, number)
            continue
        if found := _KEY.match(line):
            where.setdefault((*current, *_keys(found.group(1))), number)
            rest = line[found.end() :]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2:
                    in_string = quote
    return where


def locate(text: str, path: Iterable[str | int]) -> int:
    """The line of the longest part of ``path`` the text shows (1 for the file)."""
    return _line(line_index(text), path)


def _line(where: dict[tuple[str | int, ...], int], path: Iterable[str | int]) -> int:
    parts = tuple(path)
    for end in range(len(parts), 0, -1):
        if parts[:end] in where:
            return where[parts[:end]]
    return 1
