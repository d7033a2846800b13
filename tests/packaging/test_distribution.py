"""What a packager gets: an sdist that builds the wheel and runs the suite, a wheel that needs no babel.

``python -m build`` makes the sdist from the checkout and the wheel from the sdist (as a
distribution's packager does), in an isolated environment of its build requirements.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("build", reason="the test extra installs build")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[list[str], list[str], bytes]:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=1200,  # a last guard: it installs its build requirements
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    [sdist] = out.glob("*.tar.gz")
    [wheel] = out.glob("*.whl")
    with tarfile.open(sdist) as t:
        in_sdist = [name.split("/", 1)[1] for name in t.getnames() if "/" in name]
    with zipfile.ZipFile(wheel) as z:
        in_wheel = z.namelist()
        metadata = z.read(next(n for n in in_wheel if n.endswith(".dist-info/METADATA")))
    return in_sdist, in_wheel, metadata


def test_the_sdist_holds_what_the_suite_needs(built):
    in_sdist, _wheel, _metadata = built
    tracked = subprocess.run(
        ["git", "ls-files", "tests", "docs", "saves", "core/language/locale"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout.split()  # fmt: skip
    assert tracked and [name for name in tracked if name not in in_sdist] == []
    for name in ("LICENSE", "README.md", "conftest.py", "setup.py", "pyproject.toml", ".ci/run"):
        assert name in in_sdist, name
    assert not [name for name in in_sdist if name.endswith((".msgpack", ".pyc"))]


def test_the_wheel_has_compiled_catalogues_the_docs_and_the_license(built):
    _sdist, in_wheel, metadata = built
    catalogues = sorted(p.stem for p in (ROOT / "core" / "language" / "locale").glob("it/LC_MESSAGES/*.po"))
    shipped = sorted(
        Path(n).stem for n in in_wheel if n.startswith("core/language/locale/it/") and n.endswith(".msgpack")
    )
    assert shipped == catalogues and len(catalogues) >= 7
    assert not [n for n in in_wheel if n.endswith(".po")]  # the sources stay in the sdist
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in in_wheel)
    assert any(n.endswith(".data/data/share/doc/fireteam/ssh.md") for n in in_wheel)  # serve --help's
    assert any(n.endswith(".data/data/share/man/man1/fireteam.1") for n in in_wheel)  # man fireteam
    said = metadata.decode()
    assert "License-Expression: MIT" in said
    assert "Requires-Dist: babel" not in said.split("Provides-Extra")[0]  # a build requirement, not a run-time one
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for classifier in declared["classifiers"]:
        assert f"Classifier: {classifier}" in said
