"""The kept shapes of the rulesets' commands (``core.language.shapes``) show every
recorded line as the commands themselves do, and spare a log drawn in Italian
the import of the ruleset's rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from recorded import recorded_games

from core.commands import localize_line
from core.game import Game
from core.game.builtins import builtin_commands
from core.language import shapes
from core.language.catalogues import command_shapes, stale_shapes
from core.language.reader import reading
from core.registry import BUILTIN, get_ruleset

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "saves" / "demo-game.ft"


def test_the_kept_shapes_are_the_codes():
    """``python -m core.language.catalogues update`` writes them; a command changed without it fails here."""
    assert not stale_shapes(), "command_shapes.json is stale: python -m core.language.catalogues update"
    assert shapes.decode(shapes.PATH.read_bytes()) == command_shapes()


def test_every_ruleset_and_variant_is_kept():
    for ruleset_id in BUILTIN:
        for variant in get_ruleset(ruleset_id).variants:
            kept = shapes.command_shapes(ruleset_id, variant)
            assert kept is not None
            ruleset = get_ruleset(ruleset_id, variant)
            names = [spec.name for spec in (*ruleset.commands(), *builtin_commands(ruleset))]
            assert [shape.name for shape in kept] == names
    assert shapes.command_shapes("no-such-ruleset", "") is None


def _lines(ruleset_id: str, variant: str) -> list[str]:
    """Lines to show: every example of the ruleset's commands, and every line of its recorded games."""
    ruleset = get_ruleset(ruleset_id, variant)
    out = [example for spec in (*ruleset.commands(), *builtin_commands(ruleset)) for example in spec.examples]
    for game in recorded_games():
        if game.ruleset == ruleset_id:
            out += [line.strip() for line in game.script.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


@pytest.mark.parametrize(
    ("ruleset_id", "variant"),
    [(r, v) for r in BUILTIN for v in get_ruleset(r).variants],
)
def test_a_line_is_shown_in_italian_from_the_shapes_as_from_the_commands(ruleset_id, variant):
    ruleset = get_ruleset(ruleset_id, variant)
    specs = [*ruleset.commands(), *builtin_commands(ruleset)]
    kept = shapes.command_shapes(ruleset_id, variant)
    assert kept is not None
    lines = _lines(ruleset_id, variant)
    with reading("it"):
        shown = [localize_line(line, specs, ruleset.domain) for line in lines]
        assert [localize_line(line, kept, ruleset.domain) for line in lines] == shown
    assert sum(a != b for a, b in zip(lines, shown, strict=True)) >= 5, "the lines must read otherwise in Italian"


def test_a_game_shows_its_log_in_italian_before_and_after_its_commands_are_gathered():
    game = Game.open(DEMO, writable=False)
    with reading("it"):
        before = [line.text for line in game.log_lines(role="referee")]
        assert game._specs is None  # the shapes named them
        _ = game.commands
        assert [line.text for line in game.log_lines(role="referee")] == before
    with reading("en"):
        english = [line.text for line in game.log_lines(role="referee")]
    assert before != english


@pytest.mark.subprocess
def test_a_log_drawn_in_italian_imports_none_of_the_rulesets_commands():
    """A fresh process, as a client's start: the log's lines in Italian, and no rules module."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from core.game import Game\n"
        "from core.language.reader import reading\n"
        f"game = Game.open(Path({str(DEMO)!r}), writable=False)\n"
        "with reading('it'):\n"
        "    lines = [line.text for line in game.log_lines('referee')]\n"
        "assert any(line.startswith('» ') for line in lines)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('core.rulesets.breaking_news.commands',"
        " 'core.rulesets.breaking_news.rules', 'core.rulesets.common', 'core.scenarios'))"
        " and m not in CONTRACT))\n"
    )
    # The ruleset contract's own type of a set-up's choice (core.ruleset re-exports it) is no rule.
    code = "CONTRACT = {'core.scenarios', 'core.scenarios.choices'}\n" + code
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
