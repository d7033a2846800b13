"""The ruleset registry imports only the ruleset a game asks for, and a ruleset
reads a built-in scenario only when it is first asked for (a faster start)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from core import ruleset
from core.rulesets.breaking_news import SCENARIOS
from core.rulesets.breaking_news.scenario_format import FORMAT
from core.rulesets.common import BuiltinScenarios, load_scenarios


def test_asking_for_one_ruleset_imports_that_one_only():
    code = (
        "import sys; from core.ruleset import available, get_ruleset; "
        "get_ruleset('breaking-news'); print(available()); "
        "print(sorted(m for m in sys.modules if m.startswith('core.rulesets.') and m.count('.') == 2))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == str(sorted(ruleset.BUILTIN))
    # Not even the rulesets' shared scenario code: opening a game needs none of it.
    assert out[1] == str(["core.rulesets.breaking_news"])


def test_every_ruleset_package_is_a_builtin():
    import pkgutil

    from core import rulesets

    packages = {m.name for m in pkgutil.iter_modules(rulesets.__path__) if m.ispkg}
    assert {module.rsplit(".", 1)[1] for module in ruleset.BUILTIN.values()} == packages
    for ruleset_id in ruleset.BUILTIN:
        assert ruleset.get_ruleset(ruleset_id).id == ruleset_id


def test_a_builtin_scenario_is_read_when_first_asked_for():
    scenarios = load_scenarios(FORMAT, SCENARIOS)
    # In the order of the files, as before they were read lazily (the scenario command lists them so).
    assert list(scenarios) == [p.stem for p in sorted(SCENARIOS.glob("*.toml"))] and not scenarios._loaded
    demo = scenarios["demo"]
    assert demo.id == "demo" and list(scenarios._loaded) == ["demo"]
    assert scenarios["demo"] is demo
    with pytest.raises(KeyError):
        scenarios["nowhere"]


def test_a_builtin_scenario_whose_id_is_not_its_file_name_is_refused(tmp_path):
    (tmp_path / "other.toml").write_text((SCENARIOS / "demo.toml").read_text(encoding="utf-8"), encoding="utf-8")
    scenarios = BuiltinScenarios(FORMAT, tmp_path)
    assert list(scenarios) == ["other"]
    with pytest.raises(ValueError, match="id is its file's name"):
        scenarios["other"]
