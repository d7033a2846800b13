"""Fireteam runs on Python as Python is documented (issue 44): no module reaches into the
interpreter's private modules or reads code objects from disk, and a save is read in the
process that opens it, never by a helper process."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from core.game import Game
from core.storage.opencache import OpenCache
from tui.bench.engine import generate_save

ROOT = Path(__file__).resolve().parents[2]
#: The interpreter's own: the regular-expression engine and compiler, marshalled code.
PRIVATE = {"_sre", "marshal", "re._compiler", "re._parser", "sre_compile", "sre_parse", "sre_constants"}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
            names.add(f"re.{node.attr}")
    return names


@pytest.mark.long
def test_no_module_reaches_into_the_interpreter_s_private_modules():
    found = {}
    for package in ("core", "tui"):
        for path in (ROOT / package).rglob("*.py"):
            used = _imports(ast.parse(path.read_text(encoding="utf-8"))) & PRIVATE
            if used:
                found[str(path.relative_to(ROOT))] = sorted(used)
    assert found == {}


def test_the_check_finds_such_an_import():
    assert _imports(ast.parse("import marshal\nfrom re import _parser\nx = re._compiler")) >= {
        "marshal",
        "re._parser",
        "re._compiler",
    }


@pytest.fixture
def no_process(monkeypatch):
    """Every way a process could be started, refused."""

    def refused(*args, **kwargs):
        raise AssertionError("a process was started")

    monkeypatch.setattr(subprocess, "Popen", refused)
    for name in ("fork", "posix_spawn", "posix_spawnp", "system"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refused)


@pytest.mark.long
def test_a_big_save_is_read_in_the_process_that_opens_it(tmp_path, no_process):
    """Over 32 MiB: the size from which helper processes once checked and cut a save's lines."""
    path = tmp_path / "big.ft"
    generate_save(path, 310_000)
    assert path.stat().st_size > 32 << 20
    cache = OpenCache(tmp_path / "cache")
    first = Game.open(path, writable=False, cache=cache, cache_later=True)
    first.keep_cache()
    again = Game.open(path, writable=False, cache=cache)
    assert again.timeline.length == first.timeline.length > 0
    assert again.view("referee") == first.view("referee")


def test_nothing_that_opens_a_save_can_start_a_process():
    """What reads a save imports no way to start a process (the check above runs one big open;
    this one holds for every path through those modules)."""
    readers = [
        *(ROOT / "core" / "storage").glob("*.py"),
        *(ROOT / "core" / "game").glob("*.py"),
        ROOT / "tui" / "opening.py",
    ]
    starters = {"subprocess", "multiprocessing", "os.fork", "os.posix_spawn", "concurrent.futures"}
    found = {}
    for path in readers:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used = _imports(tree) & starters
        used |= {
            f"os.{node.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
            and node.attr in ("fork", "posix_spawn", "posix_spawnp", "system", "execv")
        }
        if used:
            found[str(path.relative_to(ROOT))] = sorted(used)
    assert found == {}
