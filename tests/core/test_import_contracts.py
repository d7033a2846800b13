"""The package boundaries hold: import-linter's contracts (pyproject's
[tool.importlinter]) are kept, and their module lists leave no module out."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import core
import tui

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def children(package) -> set[str]:
    return {f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)}


@pytest.mark.subprocess
def test_every_contract_is_kept():
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(contracts())} kept, 0 broken" in result.stdout


def test_the_client_contract_names_every_client_module():
    # A new module of tui must be placed: in the client's list, or under tui.ssh.  (The entry
    # point, and the manual page made from its parsers, the server's included, are neither.)
    client = set(contracts()["client-without-server"]["source_modules"])
    assert client == children(tui) - {"tui.ssh", "tui.main", "tui.manpage", "tui.bench"}


def test_the_bench_contract_names_all_of_the_product():
    # The benchmarks and screenshot makers are run, never imported: only tui.main's `fireteam bench` may.
    product = set(contracts()["product-without-bench"]["source_modules"])
    assert product == {"core"} | children(tui) - {"tui.main", "tui.bench"}


def test_the_ruleset_contract_forbids_all_of_core_but_the_interface():
    # A new module or package of core is engine (forbidden to rulesets) unless made interface here.
    interface = {"core.ruleset", "core.commands"}
    # The facts a ruleset emits and reads, and who sees them: four modules of the log's room.
    interface |= {"core.log.events", "core.log.recordint", "core.log.state", "core.log.views"}
    # The reader's words and numbers, and the scenario format every ruleset's own extends (docs/scenarios.md).
    interface |= {"core.language.i18n", "core.language.reader", "core.language.numerals", "core.scenarios"}
    from core import language, log

    placed = children(core) - {"core.language", "core.log"} | children(language) | children(log)
    forbidden = set(contracts()["rulesets-plugin-interface"]["forbidden_modules"])
    assert {m for m in forbidden if m.startswith("core.")} == placed - interface - {"core.rulesets"}


def test_the_engine_contract_names_all_of_core_but_the_commands():
    # A new module or package of core is engine, which the headless commands sit over.
    engine = set(contracts()["commands-over-the-engine"]["source_modules"])
    assert engine == children(core) - {"core.cli", "core.report", "core.league", "core.event"}


def test_the_independence_contract_names_every_ruleset():
    from core import rulesets

    packages = {f"core.rulesets.{m.name}" for m in pkgutil.iter_modules(rulesets.__path__) if m.ispkg}
    assert set(contracts()["rulesets-independent"]["modules"]) == packages
