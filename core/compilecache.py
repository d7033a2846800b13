"""What a start compiles, kept between runs, so the next start compiles none of it.

A client's start compiles two kinds of things every time, in Python, before
its first frame, most of them for Textual and Rich:

* **regular expressions** (about ninety: Textual's CSS tokenizer, its colours,
  Rich's markup, the standard library's modules, ours), 14-18 ms of its CPU.
  What ``re``'s compiler (``re._parser``, ``re._compiler``) makes of a pattern
  is a program, a list of integers the regular-expression engine runs
  (``_sre.compile`` takes it, with the pattern's groups);
* **the code ``dataclasses`` and ``collections.namedtuple`` write**: each data
  class's methods (``__init__``, ``__repr__``, ``__eq__``, ...) and each named
  tuple's constructor, written as source text and compiled (``exec``, ``eval``),
  about 140 of them, 10-15 ms.

So what a start compiled is kept in Fireteam's cache (``core.cachedir``,
subfolder ``compiled``) once its first frame is drawn (:func:`keep`), and the
next start's compiles of the same things are answered from it (:func:`install`,
as the ``fireteam`` command starts): a program given to the engine as the
compiler would give it, a code object run as a ``.pyc``'s is.

**Never another's.**  A pattern is looked up by its exact type, text and flags,
a text of code by its exact text and mode, and a file is read only by the same
Python build that wrote it (its name is a digest of the interpreter's version,
its bytecode's magic number and the engine's own version numbers): what is
kept is what this compiler makes of this text.  The texts are compiled as
``exec`` and ``eval`` compile them for the modules that write them (no
``__future__`` flags; those modules have none).  Where the regular-expression
compiler's last step is not the one :func:`_program` repeats (another
implementation, a Python before 3.11 or after 3.13), nothing is installed.

**Hostile input.**  A file is read only as ``core.cachedir`` reads an entry (a
regular file this user owns, not everybody's to write, at most
:data:`MAX_BYTES`), only if its SHA-256 matches, and only if it holds at most
:data:`MAX_ENTRIES` of each kind, of the expected shapes; the engine checks
every program before it takes it, and a program it refuses is compiled afresh.
The code objects are trusted as Python trusts its ``__pycache__``: the digest
guards against damage, not against a writer with the user's own rights, who
could as well edit the program itself.

**Only the start's.**  What is written is what was compiled between
:func:`install` and :func:`keep`, the start's: the modules' and the first
screen's, never a pattern made later from what a player typed (a search in
the help).  Only a local client keeps (``FireteamApp``), never an SSH server,
whose players type before any screen of theirs is drawn (a screen reader's
seat).  A start that found all it compiled writes nothing.
"""

from __future__ import annotations

import _sre
import collections
import dataclasses
import hashlib
import marshal
import os
import re._compiler as _compiler
import re._parser as _parser
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType

SUBFOLDER = "compiled"
#: The first bytes of a file; the number changes with its layout.
MAGIC = b"FTCC\x00\x00\x00\x01"
#: The largest file read or written (a demo start keeps 108 patterns and 258 texts of code, 341 KB).
MAX_BYTES = 8 << 20
#: The most entries of each kind a file holds: every kind of start's (a game, a replay, the start screen).
MAX_ENTRIES = 1024
#: Files kept for other Python builds, beside this one's.
KEEP_FILES = 4
_SUFFIX = ".compiled"

#: Where the regular-expression compiler's last step is the one :func:`_program`
#: repeats (checked in the tests).
SUPPORTED = sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] <= (3, 13)

#: A pattern: (a str pattern?, the pattern, its flags), what ``re`` keys its own cache by.
PatternKey = tuple[bool, "str | bytes", int]
#: What ``_sre.compile`` takes after the pattern: flags, program, groups, their names both ways.
Program = tuple[int, list[int], int, dict[str, int], tuple["str | None", ...]]
#: A text of code: its mode (``exec``, ``eval``) and the text.
CodeKey = tuple[str, str]

_patterns: dict[PatternKey, Program] = {}
_codes: dict[CodeKey, CodeType] = {}
_seen_patterns: dict[PatternKey, Program] = {}
_seen_codes: dict[CodeKey, CodeType] = {}
_compiled = 0  # compiled since install (not found kept)
_original = None  # re's own compiler
_installed_by: int | None = None  # the process that installed, which alone writes (not a fork of it)


def install() -> None:
    """Answer this process's compiles from what the last start kept, and record its start's."""
    global _original, _patterns, _codes, _installed_by
    if not SUPPORTED or _original is not None:
        return
    try:
        _patterns, _codes = _read(kept_file())
    except Exception:  # best effort: a cache never stops a start
        _patterns, _codes = {}, {}
    _original = _compiler.compile
    _installed_by = os.getpid()
    _compiler.compile = _compile  # what ``re`` calls on a pattern not in its own cache
    # The two modules call these by name: their own globals come before the builtins.
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    collections.eval = _eval  # type: ignore[attr-defined]


def keep() -> None:
    """Write what the start compiled, if it compiled anything not kept, and stop recording (never raises)."""
    global _seen_patterns, _seen_codes, _installed_by
    patterns, codes = _seen_patterns, _seen_codes
    _seen_patterns, _seen_codes = {}, {}
    writer, _installed_by = _installed_by, None
    if writer != os.getpid() or not _compiled:
        return
    try:
        from core.cachedir import write_sealed

        body = marshal.dumps((_with_others(patterns, _patterns), _with_others(codes, _codes)))
        write_sealed(kept_file(), MAGIC, body, MAX_BYTES, others_kept=KEEP_FILES)
    except Exception:
        pass


def _with_others(seen: dict, kept: dict) -> dict:
    """This start's entries, then as many of the other starts' as fit."""
    entries = dict(seen)
    for key, value in kept.items():
        if len(entries) >= MAX_ENTRIES:
            break
        entries.setdefault(key, value)
    return entries


def kept_file() -> Path:
    """This Python build's file: its name a digest of what a program and a code object depend on."""
    from core.cachedir import cache_root

    made_by = (
        f"{MAGIC!r} {sys.version} {sys.implementation.cache_tag} {MAGIC_NUMBER!r} "
        f"{_sre.MAGIC} {_sre.CODESIZE} {sys.maxunicode} {sys.flags.optimize}"
    )
    return cache_root() / SUBFOLDER / (hashlib.sha256(made_by.encode()).hexdigest()[:40] + _SUFFIX)


# ------------------------------------------------------------------ regular expressions


def _compile(pattern, flags=0):
    """``re._compiler.compile``, from a kept program where there is one."""
    global _compiled
    if type(pattern) not in (str, bytes) or type(flags) is not int or flags & _compiler.SRE_FLAG_DEBUG:
        return _original(pattern, flags)  # (a parsed pattern from re.Scanner; a debug listing)
    key = (type(pattern) is str, pattern, flags)
    program = _patterns.get(key)
    if program is not None:
        try:
            compiled = _sre.compile(pattern, *program)
        except Exception:  # a program the engine refuses: made again
            program = None
    if program is None:
        program = _program(pattern, flags)
        compiled = _sre.compile(pattern, *program)
        _compiled += 1
    if _installed_by is not None and len(_seen_patterns) < MAX_ENTRIES:
        _seen_patterns[key] = program
    return compiled


def _program(pattern: str | bytes, flags: int) -> Program:
    """What ``re._compiler.compile`` gives ``_sre.compile``, as plain values (Python
    3.11 to 3.13's own steps: parse, make the code, name the groups both ways)."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # The opcodes are ints of a subclass, which marshal does not write: plain ints, as the engine reads them.
    return (
        int(flags | parsed.state.flags),
        [int(c) for c in code],
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


# ------------------------------------------------------------------ generated code


def _exec(source, globals=None, locals=None, /, **kwargs):
    """``exec`` as ``dataclasses`` calls it, a text compiled once for every start."""
    return exec(_code(source, "exec"), globals, locals, **kwargs)


def _eval(source, globals=None, locals=None, /):
    """``eval`` as ``collections.namedtuple`` calls it, a text compiled once for every start."""
    return eval(_code(source, "eval"), globals, locals)


def _code(source, mode: str):
    """The code ``source`` compiles to, from the kept code objects where it is there."""
    global _compiled
    if type(source) is not str:
        return source  # code already, or bytes: as the builtin takes it
    key = (mode, source)
    code = _codes.get(key)
    if code is None:
        # As exec and eval compile a text for the module calling them, which has no __future__ imports.
        code = compile(source, "<string>", mode, dont_inherit=True)
        _compiled += 1
    if _installed_by is not None and len(_seen_codes) < MAX_ENTRIES:
        _seen_codes[key] = code
    return code


# ------------------------------------------------------------------ the file


def _read(path: Path) -> tuple[dict[PatternKey, Program], dict[CodeKey, CodeType]]:
    """What a sound file holds, or nothing."""
    from core.cachedir import read_sealed

    body = read_sealed(path, MAGIC, MAX_BYTES)
    if body is None:
        return {}, {}
    kept = marshal.loads(body)
    if type(kept) is not tuple or len(kept) != 2 or not all(type(k) is dict and len(k) <= MAX_ENTRIES for k in kept):
        return {}, {}
    patterns, codes = kept
    if not all(_sound_pattern(key, program) for key, program in patterns.items()):
        return {}, {}
    if not all(_sound_code(key, code) for key, code in codes.items()):
        return {}, {}
    return patterns, codes


def _sound_pattern(key: object, program: object) -> bool:
    """Whether a pattern's entry has the shape of one (the engine checks the program itself)."""
    if type(key) is not tuple or len(key) != 3 or type(program) is not tuple or len(program) != 5:
        return False
    is_str, pattern, flags = key
    if type(is_str) is not bool or type(pattern) is not (str if is_str else bytes) or type(flags) is not int:
        return False
    final_flags, code, groups, groupindex, indexgroup = program
    return (
        type(final_flags) is int
        and type(code) is list
        and type(groups) is int
        and type(groupindex) is dict
        and type(indexgroup) is tuple
        and 0 <= groups == len(indexgroup) - 1
        and all(
            type(name) is str and type(i) is int and 0 < i <= groups and indexgroup[i] == name
            for name, i in groupindex.items()
        )
    )


def _sound_code(key: object, code: object) -> bool:
    """Whether a code text's entry has the shape of one: compiled from ``<string>`` in its mode."""
    return (
        type(key) is tuple
        and len(key) == 2
        and key[0] in ("exec", "eval")
        and type(key[1]) is str
        and type(code) is CodeType
        and code.co_filename == "<string>"
    )
