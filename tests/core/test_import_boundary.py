"""core/ never imports textual or tui: importing all of it pulls in neither.

The static imports are checked by import-linter (tests/core/test_import_contracts.py);
this runs them, so an import made by name at run time is caught too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import core

pytestmark = pytest.mark.subprocess

CORE = Path(core.__file__).parent
FORBIDDEN = ("textual", "tui")


def test_importing_every_core_module_loads_no_textual_or_tui():
    code = f"""
import importlib, pkgutil, sys
import core
names = [m.name for m in pkgutil.walk_packages(core.__path__, "core.")]
for name in names:
    importlib.import_module(name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {FORBIDDEN!r})
print(len(names))
print(",".join(bad))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=CORE.parent, timeout=120)
    assert result.returncode == 0, result.stderr
    count, bad = result.stdout.splitlines()
    expected = len([p for p in CORE.rglob("*.py")])
    assert int(count) >= expected - 1  # every module but core/__init__ itself
    assert bad == "", f"core pulled in {bad}"
