"""Compiled regular expressions kept between runs, so a start compiles none.

Python compiles a regular expression the first time a process uses it, and
the compiler is Python (``re._parser``, ``re._compiler``): a client's start
compiles about ninety (Textual's CSS tokenizer, its colours, Rich's markup, the
standard library's modules, ours), 14-18 ms of its CPU, every start again.
What the compiler makes of a pattern is a program, a list of integers that the
regular-expression engine runs (``_sre.compile`` takes it, with the pattern's
groups).  So the programs a start made are kept in Fireteam's cache
(``core.cachedir``, subfolder ``patterns``) once its first frame is drawn
(:func:`keep`), and the next start's compiles are answered from them
(:func:`install`, as the ``fireteam`` command starts).

**Never another's.**  An entry is looked up by the exact pattern (its type,
its text, its flags), and a file is read only by the same Python build that
wrote it (its name is a digest of the interpreter's version and the engine's
own version numbers): a program is what this compiler makes of this pattern,
so it is the same program.  Where the compiler's last step is not the one
:func:`_program` repeats (another implementation, another version of Python
than 3.11 to 3.13), nothing is installed.

**Hostile input.**  A file is read only as ``core.cachedir`` reads an entry
(a regular file this user owns, at most :data:`MAX_BYTES`), only if its
SHA-256 matches, and only if it holds at most :data:`MAX_PATTERNS` entries of
the expected shape; the engine checks every program before it takes it
(``RuntimeError: invalid SRE code``), and a program it refuses is compiled
afresh instead.  The digest guards against damage, not against a writer with
the user's own rights, who could as well edit the program itself.

**Only the start's.**  What is written is the patterns compiled between
:func:`install` and :func:`keep`, the start's: the patterns of the modules
and of the first screen, never one made later from what a player typed (a
search in the help).  Only a local client keeps (``FireteamApp``), never an
SSH server, whose players type before any screen of theirs is drawn (a
screen reader's seat).  A start that found all it compiled writes nothing.
"""

from __future__ import annotations

import _sre
import hashlib
import marshal
import os
import re._compiler as _compiler
import re._parser as _parser
import sys
from pathlib import Path

SUBFOLDER = "patterns"
#: The first bytes of a file; the number changes with its layout.
MAGIC = b"FTRX\x00\x00\x00\x01"
#: The largest file read or written (a client's start keeps ~90 patterns, ~90 KB).
MAX_BYTES = 4 << 20
#: The most patterns a file holds: every kind of start's (a game, a replay, the start screen).
MAX_PATTERNS = 1024
#: Files kept for other Python builds, beside this one's.
KEEP_FILES = 4
_SUFFIX = ".patterns"

#: Where the compiler's last step is the one :func:`_program` repeats (checked in the tests).
SUPPORTED = sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] <= (3, 13)

#: (a str pattern?, the pattern, its flags): what ``re`` keys its own cache by.
Key = tuple[bool, "str | bytes", int]
#: What ``_sre.compile`` takes after the pattern: flags, program, groups, their names both ways.
Program = tuple[int, list[int], int, dict[str, int], tuple["str | None", ...]]

_kept: dict[Key, Program] = {}
_seen: dict[Key, Program] = {}
_compiled = 0  # patterns compiled since install (not found kept)
_original = None
_installed_by: int | None = None  # the process that installed, which alone writes (not a fork of it)


def install() -> None:
    """Answer this process's compiles from the kept programs, and record its start's."""
    global _original, _kept, _installed_by
    if not SUPPORTED or _original is not None:
        return
    try:
        _kept = _read(kept_file())
    except Exception:  # best effort: a cache never stops a start
        _kept = {}
    _original = _compiler.compile
    _installed_by = os.getpid()
    _compiler.compile = _compile  # what ``re`` calls on a pattern not in its own cache


def keep() -> None:
    """Write the start's programs, if it compiled any not kept, and stop recording (never raises)."""
    global _seen, _installed_by
    seen, _seen = _seen, {}
    writer, _installed_by = _installed_by, None
    if writer != os.getpid() or not _compiled:
        return
    entries = dict(seen)
    for key, program in _kept.items():  # the other starts' after this one's, as many as fit
        if len(entries) >= MAX_PATTERNS:
            break
        entries.setdefault(key, program)
    try:
        from core.cachedir import write_sealed

        write_sealed(kept_file(), MAGIC, marshal.dumps(entries), MAX_BYTES, others_kept=KEEP_FILES)
    except Exception:
        pass


def kept_file() -> Path:
    """This Python build's file: its name a digest of what a program depends on."""
    from core.cachedir import cache_root

    made_by = f"{MAGIC!r} {sys.version} {sys.implementation.cache_tag} {_sre.MAGIC} {_sre.CODESIZE} {sys.maxunicode}"
    return cache_root() / SUBFOLDER / (hashlib.sha256(made_by.encode()).hexdigest()[:40] + _SUFFIX)


def _compile(pattern, flags=0):
    """``re._compiler.compile``, from a kept program where there is one."""
    global _compiled
    if type(pattern) not in (str, bytes) or type(flags) is not int or flags & _compiler.SRE_FLAG_DEBUG:
        return _original(pattern, flags)  # (a parsed pattern from re.Scanner; a debug listing)
    key = (type(pattern) is str, pattern, flags)
    program = _kept.get(key)
    if program is not None:
        try:
            compiled = _sre.compile(pattern, *program)
        except Exception:  # a program the engine refuses: made again
            program = None
    if program is None:
        program = _program(pattern, flags)
        compiled = _sre.compile(pattern, *program)
        _compiled += 1
    if _installed_by is not None and len(_seen) < MAX_PATTERNS:
        _seen[key] = program
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


def _read(path: Path) -> dict[Key, Program]:
    """The programs a sound file holds, or none."""
    from core.cachedir import read_sealed

    body = read_sealed(path, MAGIC, MAX_BYTES)
    if body is None:
        return {}
    entries = marshal.loads(body)
    if type(entries) is not dict or len(entries) > MAX_PATTERNS:
        return {}
    return entries if all(_sound(key, program) for key, program in entries.items()) else {}


def _sound(key: object, program: object) -> bool:
    """Whether an entry has the shape of one (the engine checks the program itself)."""
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
