"""What a start compiles, kept between runs (core.compilecache): regular expressions
given back exactly as the compiler makes them, the code dataclasses and named tuples
write run as compiled, never from a damaged or foreign file, only the start's."""

from __future__ import annotations

import builtins
import collections
import dataclasses
import hashlib
import marshal
import os
import re
import re._compiler as compiler
from typing import NamedTuple

import pytest

from core import compilecache

#: Patterns of every kind the compiler treats apart: named groups, flags given and
#: inline, a big Unicode class, look-arounds, back references, a conditional,
#: atomic and possessive, bytes.  (Flags as ``re`` passes them on: plain ints.)
CORPUS: list[tuple[str | bytes, int]] = [
    (r"(?P<key>[@a-zA-Z_-][a-zA-Z0-9_-]*)\s*:\s*(?P<value>[^;]+);", 0),
    ("[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]", 0),
    (r"(?<!\\)\[(?P<tag>[a-z#/@][^[]*?)]", 0),
    (r"^(\d+)-(\d+)(?=px)", int(re.MULTILINE)),
    (r"(a)?(?(1)b|c)\1?", 0),
    (r"(?i)fire\s+(?P<who>\w+)", 0),
    (r"sgt  rossi # a comment", int(re.VERBOSE | re.IGNORECASE)),
    (r"(?>ab|a)c*+", 0),
    (r".+", int(re.DOTALL | re.ASCII)),
    (rb"\x1b\[(\d+);(\d+)R", 0),
]
SAMPLES = [
    "color: red;",
    "a\x1bb\u2028",
    "[bold]x[/]",
    "12-40px\n3-4px",
    "abb",
    "ac",
    "FIRE rossi",
    "sgt rossi",
    "abcc",
    "x\ny",
]


#: The compiler as Python has it (no test module installs at import).
UNHOOKED = compiler.compile


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of its own; ``re``'s compiler and the module's state restored after."""
    if not compilecache.SUPPORTED:
        pytest.skip("kept only where the compiler's steps are known (CPython 3.11 to 3.13)")
    monkeypatch.setenv("FIRETEAM_CACHE_DIR", str(tmp_path))
    unhooked(monkeypatch)
    fresh_process(monkeypatch)
    return tmp_path


def unhooked(monkeypatch) -> None:
    """``re``'s compiler, and the builtins ``dataclasses`` and ``collections`` call, as Python has them."""
    monkeypatch.setattr(compiler, "compile", UNHOOKED)
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)
    monkeypatch.setattr(collections, "eval", builtins.eval, raising=False)


def fresh_process(monkeypatch) -> None:
    """The module as a new process finds it (nothing installed, read or recorded)."""
    monkeypatch.setattr(compilecache, "_original", None)
    for name in ("_patterns", "_codes", "_seen_patterns", "_seen_codes"):
        monkeypatch.setattr(compilecache, name, {})
    monkeypatch.setattr(compilecache, "_compiled", 0)
    monkeypatch.setattr(compilecache, "_installed_by", None)


def restart(monkeypatch) -> None:
    """As the next process starts: the compilers unhooked, the module fresh, then installed."""
    unhooked(monkeypatch)
    fresh_process(monkeypatch)
    compilecache.install()


def test_a_start_s_patterns_come_back_exactly_as_the_compiler_makes_them(cache, monkeypatch):
    compilecache.install()
    assert compiler.compile is not UNHOOKED
    first = [compiler.compile(p, f) for p, f in CORPUS]
    assert compilecache._compiled == len(CORPUS)
    compilecache.keep()
    assert compilecache.kept_file().is_file()

    # The next start: the same compiles, answered from the file.
    restart(monkeypatch)
    again = [compiler.compile(p, f) for p, f in CORPUS]
    assert compilecache._compiled == 0
    for (pattern, flags), kept, made in zip(CORPUS, again, first, strict=True):
        fresh = UNHOOKED(pattern, flags)
        # Patterns are equal only if their programs are (the engine compares the code).
        assert kept == fresh == made
        assert (kept.flags, kept.groups, kept.groupindex) == (fresh.flags, fresh.groups, fresh.groupindex)
        for text in SAMPLES:
            sample = text.encode() if isinstance(pattern, bytes) else text
            assert [m.groups() for m in kept.finditer(sample)] == [m.groups() for m in fresh.finditer(sample)]


def test_re_answers_from_the_kept_programs_too(cache, monkeypatch):
    compilecache.install()
    compiler.compile(r"(?P<unit>\w+) suppressed", 0)
    compilecache.keep()
    restart(monkeypatch)
    re.purge()  # (re's own cache would answer first)
    assert re.match(r"(?P<unit>\w+) suppressed", "rossi suppressed")["unit"] == "rossi"
    assert compilecache._compiled == 0


def test_a_start_that_compiled_nothing_new_writes_nothing(cache, monkeypatch):
    compilecache.install()
    compiler.compile("a+b", 0)
    compilecache.keep()
    path = compilecache.kept_file()
    written = path.stat().st_mtime_ns - 10**9
    os.utime(path, ns=(written, written))
    restart(monkeypatch)
    compiler.compile("a+b", 0)
    compilecache.keep()
    assert path.stat().st_mtime_ns == written


def test_only_the_start_s_patterns_are_written(cache):
    compilecache.install()
    compiler.compile("started", 0)
    compilecache.keep()
    compiler.compile("typed by a player", 0)  # after the first frame: a search, say
    collections.namedtuple("Later", "a b")
    assert not compilecache._seen_patterns and not compilecache._seen_codes  # not even held
    compilecache.keep()
    kept, _ = compilecache._read(compilecache.kept_file())
    assert (True, "started", 0) in kept
    assert (True, "typed by a player", 0) not in kept


def test_a_fork_of_the_start_writes_nothing(cache, monkeypatch):
    compilecache.install()
    compiler.compile("in the child", 0)
    monkeypatch.setattr(compilecache, "_installed_by", os.getpid() + 1)  # installed by its parent
    compilecache.keep()
    assert not compilecache.kept_file().exists()


def damaged(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def written_for(patterns, codes=None) -> bytes:
    """A file as the module writes one, holding these (whatever they are)."""
    body = marshal.dumps((patterns, {} if codes is None else codes))
    return compilecache.MAGIC + hashlib.sha256(body).digest() + body


@pytest.mark.parametrize(
    "spoil",
    [
        damaged,  # a torn or damaged file: its digest does not match
        lambda data: b"FTCC\x00\x00\x00\x02" + data[8:],  # another layout
        lambda data: written_for({(True, "a+b", 0): (0, [1, 2, 3])}),  # an entry of the wrong shape
        lambda data: written_for([1, 2]),  # not a table at all
        lambda data: compilecache.MAGIC + hashlib.sha256(b"N.").digest() + b"N.",  # not two tables
        lambda data: written_for({(False, "a+b", 0): (32, [], 0, {}, (None,))}),  # a str kept as bytes
        lambda data: written_for({(True, "(a)", 0): (32, [], 1, {"x": 1}, (None, "y"))}),  # groups named apart
        lambda data: written_for({(True, "(a)", 0): (32, [], 1, {}, (None,))}),  # groups counted apart
        lambda data: written_for({}, {("exec", "x = 1"): "x = 1"}),  # code kept as its text
        lambda data: written_for({}, {("exec", "x = 1"): compile("x = 1", "elsewhere.py", "exec")}),  # not made here
        lambda data: written_for({}, {("single", "x = 1"): compile("x = 1", "<string>", "single")}),  # another mode
    ],
)
def test_a_file_not_sound_is_not_read(cache, monkeypatch, spoil):
    compilecache.install()
    compiler.compile("a+b", 0)
    compilecache.keep()
    path = compilecache.kept_file()
    path.write_bytes(spoil(path.read_bytes()))
    restart(monkeypatch)
    assert compilecache._patterns == {} and compilecache._codes == {}
    assert compiler.compile("a+b", 0) == UNHOOKED("a+b", 0)


def test_a_program_the_engine_refuses_is_compiled_again(cache, monkeypatch):
    path = compilecache.kept_file()
    path.parent.mkdir(parents=True)
    # Sound in shape, digest and all, but not a program: the engine says "invalid SRE code".
    path.write_bytes(written_for({(True, "a+b", 0): (32, [1, 2, 3], 0, {}, (None,))}))
    compilecache.install()
    assert (True, "a+b", 0) in compilecache._patterns
    assert compiler.compile("a+b", 0) == UNHOOKED("a+b", 0)
    assert compiler.compile("a+b", 0).match("aab")


def test_the_bounds_hold_both_ways(cache, monkeypatch):
    monkeypatch.setattr(compilecache, "MAX_ENTRIES", 3)
    compilecache.install()
    for n in range(5):
        compiler.compile(f"x{n}", 0)
    compilecache.keep()
    kept, _ = compilecache._read(compilecache.kept_file())
    assert list(kept) == [(True, "x0", 0), (True, "x1", 0), (True, "x2", 0)]  # the first three the start compiled

    # The next start's two come first, then as many of the others' as fit.
    restart(monkeypatch)
    compiler.compile("z0", 0)
    compiler.compile("x2", 0)
    compilecache.keep()
    kept, _ = compilecache._read(compilecache.kept_file())
    assert list(kept) == [(True, "z0", 0), (True, "x2", 0), (True, "x0", 0)]

    path = compilecache.kept_file()
    path.write_bytes(written_for({(True, f"y{n}", 0): compilecache._program(f"y{n}", 0) for n in range(4)}))
    assert compilecache._read(path) == ({}, {})  # more than a file may hold
    monkeypatch.setattr(compilecache, "MAX_BYTES", 16)
    path.write_bytes(written_for({(True, "y", 0): compilecache._program("y", 0)}))
    assert compilecache._read(path) == ({}, {})  # larger than a file may be


def test_a_debug_listing_and_a_parsed_pattern_go_to_the_compiler(cache, capsys):
    compilecache.install()
    compiler.compile("ab", re.DEBUG)
    assert "LITERAL" in capsys.readouterr().out  # the compiler's own listing
    scanner = re.Scanner([(r"\d+", lambda s, t: int(t)), (r"\s+", None)])  # compiles a parsed pattern
    assert scanner.scan("1 22")[0] == [1, 22]
    assert (True, "ab", re.DEBUG) not in compilecache._seen_patterns


def test_another_python_installs_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("FIRETEAM_CACHE_DIR", str(tmp_path))
    unhooked(monkeypatch)
    fresh_process(monkeypatch)
    monkeypatch.setattr(compilecache, "SUPPORTED", False)
    compilecache.install()
    assert compiler.compile is UNHOOKED
    assert dataclasses.exec is builtins.exec and collections.eval is builtins.eval


def make_classes():
    """A data class with what dataclasses writes code for, and named tuples of both kinds."""
    point = dataclasses.make_dataclass(
        "Point",
        [
            ("x", int),
            ("y", int, dataclasses.field(default=0)),
            ("tags", tuple, dataclasses.field(default_factory=tuple)),
        ],
        frozen=True,
        order=True,
    )
    pair = collections.namedtuple("Pair", "left right", defaults=(9,))

    class Move(NamedTuple):
        who: str
        cm: int = 0

    return point, pair, Move


def use(point, pair, move) -> list:
    a, b = point(1, 2), point(1, 3, ("hit",))
    try:
        a.x = 5
        frozen = False
    except dataclasses.FrozenInstanceError:
        frozen = True
    return [
        repr(a), repr(b), a == point(1, 2), a < b, hash(a) == hash(point(1, 2)), frozen,
        point.__init__.__annotations__,  # types, as exec made them: no __future__ of ours
        repr(pair(1)), pair(1, 2)._asdict(), repr(move("rossi")), move("rossi", 5).cm,
    ]  # fmt: skip


def test_the_code_dataclasses_and_named_tuples_write_is_compiled_once(cache, monkeypatch):
    expected = use(*make_classes())  # as Python makes them
    assert expected[6] == {"x": int, "y": int, "tags": tuple, "return": None}
    compilecache.install()
    assert dataclasses.exec is compilecache._exec and collections.eval is compilecache._eval
    assert use(*make_classes()) == expected
    made = compilecache._compiled
    assert made >= 6  # Point's methods, each tuple's constructor
    compilecache.keep()
    restart(monkeypatch)
    assert use(*make_classes()) == expected
    assert compilecache._compiled == 0  # every text found kept
    assert len(compilecache._codes) == made
