"""The dependency bounds: each run-time dependency has a floor .ci/run installs and tests, and a
library whose private modules the client uses has a ceiling below its next major release."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
DEPENDENCIES = [Requirement(d) for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]]


def test_every_floor_becomes_a_pin_for_the_lowest_versions_run():
    done = subprocess.run(
        [sys.executable, ROOT / ".ci" / "floors.py", ROOT / "pyproject.toml"],
        capture_output=True,
        text=True,
        check=True,
    )
    pins = dict(line.split("==") for line in done.stdout.split())
    assert sorted(pins) == sorted(r.name for r in DEPENDENCIES)
    for requirement in DEPENDENCIES:
        assert requirement.specifier.contains(pins[requirement.name]), requirement  # the floor is allowed


#: Each library whose private parts the client uses, and the one module that uses them.
INTERNALS = {
    "textual": ROOT / "tui" / "textual_internals.py",
    "asyncssh": ROOT / "tui" / "ssh" / "host" / "asyncssh_internals.py",
}


def test_the_libraries_whose_private_parts_are_used_stop_below_their_next_major():
    source = INTERNALS["textual"].read_text()
    private = set(re.findall(r"^\s*from (\w+)\.(?:\w+\.)*_\w+ import", source, re.M))
    assert private == {"textual"}
    assert "._transport" in INTERNALS["asyncssh"].read_text()  # asyncssh's: a member, not a module
    for requirement in DEPENDENCIES:
        if requirement.name in INTERNALS:
            floor = next(s.version for s in requirement.specifier if s.operator == ">=")
            major = int(floor.split(".")[0])
            assert requirement.specifier.contains(f"{major}.99") and not requirement.specifier.contains(
                f"{major + 1}.0"
            )
