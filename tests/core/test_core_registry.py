"""The ruleset registry: it imports only the ruleset a game asks for, and a ruleset
reads a built-in scenario only when it is first asked for (a faster start); it finds
the rulesets installed packages declare (entry points), and no broken or hostile one
stops a start or takes a built-in's place."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fifth_ruleset import Outpost

from core import registry
from core.language.i18n import CORE_DOMAIN
from core.registry import NotARuleset, available, get_ruleset, register, unregister
from core.ruleset import Ruleset
from core.rulesets.breaking_news import SCENARIOS
from core.rulesets.breaking_news.scenario_format import FORMAT
from core.rulesets.common import BuiltinScenarios, load_scenarios


@pytest.mark.subprocess
def test_asking_for_one_ruleset_imports_that_one_only():
    code = (
        "import sys; from core.registry import available, get_ruleset; "
        "get_ruleset('breaking-news'); print(available()); "
        "print(sorted(m for m in sys.modules if m.startswith('core.rulesets.') and m.count('.') == 2))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == str(sorted(registry.BUILTIN))
    # Not even the rulesets' shared scenario code: opening a game needs none of it.
    assert out[1] == str(["core.rulesets.breaking_news"])


def test_every_ruleset_package_is_a_builtin():
    import pkgutil

    from core import rulesets

    packages = {m.name for m in pkgutil.iter_modules(rulesets.__path__) if m.ispkg}
    assert {ref.partition(":")[0].rsplit(".", 1)[1] for ref in registry.BUILTIN.values()} == packages
    for ruleset_id in registry.BUILTIN:
        assert registry.get_ruleset(ruleset_id).id == ruleset_id


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


# ------------------------------------------------------------------ the contract


def test_a_ruleset_that_leaves_out_what_it_must_give_cannot_be_made_nor_registered():
    class Half(Ruleset):
        id = "half"
        name = "Half"

    with pytest.raises(TypeError, match="commands"):
        Half()
    with pytest.raises(NotARuleset, match="does not give commands, domain, phases, version"):
        register(Half)
    assert "half" not in available()


def test_register_refuses_a_built_in_s_id_a_taken_one_a_bad_one_and_what_is_no_ruleset():
    class Impostor(Outpost):
        id = "ludonet"

    class Twin(Outpost):
        pass

    class Climber(Outpost):
        id = "../../etc"

    with pytest.raises(NotARuleset, match="already installed"):
        register(Impostor)
    with pytest.raises(NotARuleset, match="already registered"):
        register(Twin)  # Outpost has the id (tests/registry_walk.py)
    with pytest.raises(NotARuleset, match="lowercase letters"):
        register(Climber)
    with pytest.raises(NotARuleset, match="not a subclass"):
        register(print)  # type: ignore[arg-type]
    assert get_ruleset("ludonet").name == "Ludonet quick skirmish" and get_ruleset("outpost").name == "Outpost"


def test_a_registered_ruleset_is_known_until_unregistered():
    class Seventh(Outpost):
        id = "seventh"

    register(Seventh)
    try:
        assert "seventh" in available() and type(get_ruleset("seventh")) is Seventh
        register(Seventh)  # again: nothing changes
    finally:
        unregister("seventh")
    with pytest.raises(ValueError, match="unknown ruleset 'seventh'"):
        get_ruleset("seventh")


def test_every_ruleset_declares_its_domain_the_built_ins_their_package_s():
    for ruleset_id in registry.BUILTIN:
        cls = registry.ruleset_class(ruleset_id)
        assert cls.domain == cls.__module__.rsplit(".", 1)[1]  # the catalogue files' names
    assert get_ruleset("outpost").domain == CORE_DOMAIN


# ------------------------------------------------------------ installed plugins

PLUGINS = {
    # name = value: what an installed package declares in the group
    "good-rules": "good_rules:GoodRules",
    "broken-rules": "broken_rules:Rules",
    "ludonet": "good_rules:GoodRules",
    "not-a-class": "good_rules:NOT_A_RULESET",
    "wrong-id": "good_rules:GoodRules",
    "Bad_Id": "good_rules:GoodRules",
}


@pytest.fixture
def installed(tmp_path):
    """A folder on the path of a child process with packages installed there: one good
    ruleset and the ways a plugin can be broken or hostile."""
    site = tmp_path / "site"
    info = site / "good_rules-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: good-rules\nVersion: 1.0\n", encoding="utf-8")
    lines = "".join(f"{name} = {value}\n" for name, value in PLUGINS.items())
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINTS}]\n{lines}", encoding="utf-8")
    (site / "good_rules.py").write_text(
        textwrap.dedent(
            """
            from core.language.i18n import CORE_DOMAIN
            from core.ruleset import CommandSpec, Phase, Ruleset

            class GoodRules(Ruleset):
                id = "good-rules"
                name = "Good rules"
                version = "2"
                domain = CORE_DOMAIN
                phases = (Phase("setup", "Set-up", "referee", "note something"),)

                def commands(self):
                    return ()

            NOT_A_RULESET = "a string"
            """
        ),
        encoding="utf-8",
    )
    (site / "broken_rules.py").write_text("raise RuntimeError('a bug\\nover two lines [b]markup[/b]')\n")
    return site


def _child(site: Path, code: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(site)])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)


@pytest.mark.subprocess
def test_an_installed_plugin_is_found_and_plays_and_a_broken_or_hostile_one_is_reported_in_a_line_and_left_out(
    installed, tmp_path
):
    code = (
        "import sys; from core.registry import available, get_ruleset; from core.game import Game; "
        "print(available()); print(get_ruleset('good-rules').name, get_ruleset('ludonet').name); "
        f"g = Game.new({str(tmp_path / 'g.ft')!r}, 'good-rules', seed=1); g.execute('note it plays', role='referee'); "
        'print(g.log_lines("referee")[-1].text)'
    )
    done = _child(installed, code)
    out = done.stdout.splitlines()
    assert out[0] == str(sorted([*registry.BUILTIN, "good-rules"]))
    assert out[1:] == ["Good rules Ludonet quick skirmish", "note: it plays"]
    reports = done.stderr.splitlines()
    assert sorted(reports) == sorted(
        [
            "ruleset plugin 'Bad_Id' (good_rules:GoodRules) left out: NotARuleset: "
            "GoodRules.id is 'good-rules', not 'Bad_Id'",
            "ruleset plugin 'broken-rules' (broken_rules:Rules) left out: RuntimeError: "
            "a bug over two lines [b]markup[/b]",
            "ruleset plugin 'ludonet' (good_rules:GoodRules) left out: NotARuleset: the id 'ludonet' is taken",
            "ruleset plugin 'not-a-class' (good_rules:NOT_A_RULESET) left out: NotARuleset: "
            "'a string' is not a subclass of core.ruleset.Ruleset",
            "ruleset plugin 'wrong-id' (good_rules:GoodRules) left out: NotARuleset: "
            "GoodRules.id is 'good-rules', not 'wrong-id'",
        ]
    )


@pytest.mark.subprocess
def test_a_start_that_lists_no_rulesets_does_not_look_for_plugins(installed):
    """Finding the installed plugins reads every installed package's metadata and imports
    each plugin: opening a game of a built-in ruleset, or building the command line's
    parser, does neither."""
    code = (
        "import sys, tui.main, core.registry; "
        "tui.main._parser().parse_args(['scenarios']); core.registry.get_ruleset('ludonet'); "
        "print(core.registry._PLUGINS is None, 'good_rules' in sys.modules)"
    )
    done = _child(installed, code)
    assert done.stdout.split() == ["True", "False"] and done.stderr == ""


@pytest.mark.subprocess
def test_a_command_listing_the_rulesets_says_each_plugin_left_out_though_its_start_imports_no_registry(installed):
    """The handler is set on the registry's logger by its name before any parser is built (a
    command that lists no ruleset never imports the registry): ``script --help`` still says them."""
    code = (
        "import contextlib, io, sys; from tui.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['script', '--help'])\n"
    )
    said = _child(installed, code).stderr.splitlines()
    assert "fireteam: ruleset plugin 'broken-rules' (broken_rules:Rules) left out: RuntimeError: " in "\n".join(said)
    assert all(line.startswith("fireteam: ruleset plugin ") for line in said), said
