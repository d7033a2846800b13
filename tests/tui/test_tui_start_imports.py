"""The client's start imports only what its first frame needs (issue #15's ``start_ratio``).

A fresh process opens the demo save and runs the client to its first frame,
as a player starting ``fireteam SAVE`` in English would; what that frame does
not need must still be out of ``sys.modules`` then: the ruleset's commands,
the commands every game has and the command language (in English), the ruleset's
turn machine and scenario code (the game screen gathers the commands once the
frame is drawn, for the command line), the loading screen (a big save's), the
help screen, forking, json, Rich's emoji table, the report's chart library;
the last of these still once the client is idle.
No timing here (``fireteam bench --client`` measures the start); the screens
and commands themselves are exercised by the other Pilot tests, which import
them as they are used.
"""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual.geometry import Size
from textual.screen import Screen
from waiting import IN_CHILD, piloted, settled

from tui.panes.footer import KeysFooter
from tui.plain import Plain, PlainLabel
from tui.screens.dialogs import ConfirmBox
from tui.screens.game import FooterRoom, GameScreen
from tui.textual_internals import FooterKey

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "saves" / "demo-game.ft"

#: Imported by nothing the first frame needs (each made lazy for the start).
NOT_AT_FIRST_FRAME = (
    "core.rulesets.breaking_news.commands.campaign",
    "core.rulesets.breaking_news.turn",
    "core.rulesets.breaking_news.commands.combat",
    "core.rulesets.breaking_news.scenario_format",
    "core.rulesets.breaking_news.setup",
    "core.rulesets.common",
    "core.scenarios.files",
    # The open cache (and its hash, blake3): a save under tui.opening.CACHE_FROM_BYTES opens without it.
    "core.storage.opencache",
    "blake3",
    # The error log's file handler: made at the first error (core.errorlog.ErrorLog).
    "logging.handlers",
    # The rules' tables (TOML): the roster names a class only where a scenario does
    # (Ruleset.scenario_class), and whether a variable has words is told without them
    # (Ruleset.has_words: an extra bought always has).  A shown line that names an extra
    # reads its name from the extras table (issue #26): none of the demo's last lines does.
    "tomllib",
    # The footer (Textual's, with ours) and the undo box, mounted once the frame is drawn;
    # the dialogs there too, the others when asked for.
    "textual.widgets._footer",
    "tui.panes.footer",
    "tui.screens.dialogs",
    # The headless commands (the client reads their names from core.cli), the rules search (rule?'s
    # stemmers and maps), the league's confirm, and Breaking News's hits, whose optional rules the
    # phase pane names from a module of their own (issue #93).
    "core.cli.main",
    "core.cli.parsers",
    "core.explain.rulesearch",
    "core.league",
    "core.rulesets.breaking_news.hits",
    # The commands every game has (and the confirm they hold): gathered with the ruleset's.
    "core.game.builtins",
    "core.game.confirmation",
    # Which sessions' claims are believed (verify's): an open reads only the last claim, which
    # the store keeps (EventStore.last_claimed).
    "core.secrets.sessions",
    # What the game calls on a command, its odds, a dry run (core.game.engine's imports where
    # called), and the type of what a command is given with.
    "core.game.asking",
    "core.game.bugs",
    "core.game.odds",
    "core.game.given",
    # The game screen's menu (help, rules, palette: the footer asks it once the frame is drawn), the
    # replay bar (a replay's), and the screen as its parts see it (a type, and the menu's).
    "tui.screens.game_menu",
    "tui.screens.replay_bar",
    "tui.screens.seat",
    # Breaking News's kinds and statuses as types: its rules' (and the catalogues'); its tables,
    # read to name a class or an extra (the roster asks a scenario's class name first).
    "core.rulesets.breaking_news.terms",
    "core.rulesets.breaking_news.tables",
)
#: ... nor, in English, the command language (what the first frame draws runs none of it: it is
#: imported by the first key typed, or as the commands are gathered once the frame is drawn). An
#: Italian log's lines are named in the reader's words by it (``core.commands.localize_line``, from
#: the commands' kept shapes, ``core.language.shapes``), from catalogues read by
#: ``core.language.compiled``, which English has none of.
IN_ENGLISH_NOT = (
    "core.language.compiled",
    "core.language.shapes",
    "core.commands",
    *(f"core.commands.{module.name}" for module in pkgutil.iter_modules([str(ROOT / "core" / "commands")])),
)
#: ... nor, in Italian, the command language but for the record's (``core.commands.record``, with
#: the names and words it reads): nothing drawn parses, completes or resolves a word then.
IN_ITALIAN_NOT = tuple(f"core.commands.{module}" for module in ("parsing", "completion", "verbs", "pieces", "values"))
#: ... nor by anything the client does until a key is pressed.
NOT_UNTIL_USED = (
    "core.storage.fork",
    "core.secrets.sidecopy",
    "core.report",
    "pygal",
    "plotext",
    "tui.screens.loading",
    "textual.widgets._progress_bar",
    "tui.screens.help",
    # The palette's game commands: when the palette first opens.
    "tui.palette",
    "json",
    "rich._emoji_codes",
    # The reading words' answers (why, ? COMMAND, confirm, rule?): when one is given.
    "tui.screens.asking",
    "core.explain.rulesask",
    # What draws a secret (a salt, a dice key, a sealed roll's faces, a marker's label, a new
    # game's seed): when one is drawn.
    "secrets",
    "hmac",
)

CHILD = """
import asyncio, sys
from pathlib import Path
import tui.main
from tui.app import FireteamApp
from tui.opening import open_or_follow
from tui.screens.game import GameScreen

at_first_frame = []
add_hidden = GameScreen._add_hidden
drawn = asyncio.Event()

def first_frame_drawn(screen):  # what the screen runs once its first frame is drawn
    assert screen._shown_view is not None  # the panes show the game
    at_first_frame.extend(sys.modules)
    add_hidden(screen)
    drawn.set()

GameScreen._add_hidden = first_frame_drawn

async def start():
    game, _ = open_or_follow(Path(sys.argv[1]), False)
    app = FireteamApp(game, role="referee", lang=sys.argv[2] if len(sys.argv) > 2 else None)
    async with app.run_test(size=(100, 30)) as pilot:
        # Idle is after the first frame's hidden widgets are added: a loaded machine can leave
        # the app with nothing queued between its first frame and that turn of the loop.
        await drawn.wait()
        await settled(pilot)
        idle = list(sys.modules)
    game.close()
    print(" ".join(at_first_frame))
    print(" ".join(idle))

asyncio.run(start())
"""


def _modules_after_start(tmp_path: Path, lang: str = "") -> tuple[set[str], set[str]]:
    """The modules imported at the first frame, and once the client is idle (in ``lang``: ``--lang``'s)."""
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "TEXTUAL"))}
    env["LC_ALL"] = "C"  # an English start
    out = subprocess.run(
        [sys.executable, "-c", IN_CHILD + CHILD, str(save), *([lang] if lang else [])],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    first_frame, idle = out.stdout.splitlines()
    return set(first_frame.split()), set(idle.split())


@pytest.mark.subprocess
def test_the_start_imports_nothing_its_first_frame_does_not_need(tmp_path):
    first_frame, idle = _modules_after_start(tmp_path)
    assert "tui.screens.game" in first_frame and "core.rulesets.breaking_news" in first_frame  # it did start
    assert len(IN_ENGLISH_NOT) > 5  # (the command language's modules found)
    assert [name for name in NOT_AT_FIRST_FRAME + NOT_UNTIL_USED + IN_ENGLISH_NOT if name in first_frame] == []
    assert [name for name in NOT_UNTIL_USED if name in idle] == []
    assert "core.rulesets.breaking_news.commands.combat" in idle  # gathered once the frame is drawn


@pytest.mark.subprocess
def test_an_italian_start_imports_no_more_of_the_ruleset_than_an_english_one(tmp_path):
    # Its log's command lines are named from the commands' kept shapes (core.language.shapes).
    first_frame, idle = _modules_after_start(tmp_path, "it")
    assert "tui.screens.game" in first_frame and "babel" not in first_frame  # it did start; its catalogues are compiled
    assert "core.language.compiled" in first_frame  # (they were read)
    assert "core.commands.record" in first_frame  # (the log's lines were named in the reader's words)
    assert [name for name in NOT_AT_FIRST_FRAME + NOT_UNTIL_USED + IN_ITALIAN_NOT if name in first_frame] == []
    assert "core.rulesets.breaking_news.commands.combat" in idle


async def test_what_the_first_frame_does_not_show_is_there_once_it_is_drawn(game):
    # The undo box, the "too small" notice, the footer and the panes' search and filter
    # lines are mounted after the first frame (GameScreen._add_hidden), where they were.
    async with piloted(game, settle=True) as (app, pilot):
        screen = app.screen
        assert isinstance(screen.children[0], ConfirmBox) and not screen.children[0].display
        assert screen.children[-1].id == "too-small"
        # The footer is in its row's place, once the screen's keys are settled.
        assert not screen.query(FooterRoom) and isinstance(screen.children[-2], KeysFooter)
        assert "Quit" in [key.description for key in screen.query(FooterKey)]
        assert [w.id for w in screen.query_one("#log").children] == ["log-view", "log-status", "log-query"]
        assert [w.id for w in screen.query_one("#roster").children] == ["roster-filter", "roster-view", "unit-details"]
        hidden = screen.query("#log-status, #log-query, #roster-filter")
        assert len(hidden) == 3 and not any(w.display for w in hidden)


@pytest.mark.long
@pytest.mark.parametrize(("replay", "size"), [(False, (100, 30)), (True, (80, 24)), (False, (160, 48))])
async def test_the_first_frame_is_styled_as_a_full_restyle_would_style_it(game, monkeypatch, replay, size):
    # Its widgets are styled as they are mounted, not all again when it is first shown
    # (GameScreen.on_screen_resume): what they hold at the first frame is what
    # styling every one of them again gives.
    seen: list[tuple[dict, dict]] = []
    add_hidden = GameScreen._add_hidden

    def first_frame_drawn(screen: GameScreen) -> None:
        def styles() -> dict:
            return {node: node.styles.css for node in screen.walk_children(with_self=True)}

        before = styles()
        screen.app.update_styles(screen)
        seen.append((before, styles()))
        add_hidden(screen)

    monkeypatch.setattr(GameScreen, "_add_hidden", first_frame_drawn)
    async with piloted(game, size, replay=replay) as (app, pilot):
        await settled(pilot)
    assert len(seen) == 1
    before, after = seen[0]
    assert len(before) >= 10 and before == after


@pytest.mark.parametrize("replay", [False, True])
async def test_the_first_frame_lays_the_screen_out_once(game, monkeypatch, replay):
    # Textual sends the app's first size to the screen twice more as it starts; each laid
    # every widget out again, to where it was (GameScreen.on_resize).  A real resize still does.
    laid_out: list[object] = []
    layout = Screen._refresh_layout
    add_hidden = GameScreen._add_hidden

    def counted(screen: Screen, size: Size | None = None, scroll: bool = False) -> None:
        laid_out.append(size)
        layout(screen, size, scroll)

    def first_frame_drawn(screen: GameScreen) -> None:
        laid_out.append("first frame")
        add_hidden(screen)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    monkeypatch.setattr(GameScreen, "_add_hidden", first_frame_drawn)
    async with piloted(game, (100, 30), replay=replay, settle=True) as (app, pilot):
        assert laid_out.index("first frame") == 1, laid_out
        await pilot.resize_terminal(70, 20)
        await settled(pilot)
        assert (70, 20) in laid_out and app.screen.query_one("#main").size.width == 70


async def test_a_question_asked_as_its_box_is_mounted_shows_in_it(game):
    # A key pressed before the first frame asks in a box made then: it is composed with the question.
    async with piloted(game, settle=True) as (app, pilot):
        box = ConfirmBox()
        box.ask("Undo #2 next?", "phase", on_yes=lambda: None)
        await app.screen.mount(box)
        await settled(pilot)
        assert box.display and box.asking
        assert str(box.query_one(".title", PlainLabel).render()) == "Undo #2 next?"
        assert str(box.query_one("#confirm-detail", Plain).render()) == "phase"


@pytest.mark.subprocess
def test_the_collector_is_paused_from_the_first_import_for_the_client_only(monkeypatch, tmp_path):
    import gc

    import core.cli.main
    import tui.run
    from tui.main import main

    seen = {}
    monkeypatch.setattr(core.cli.main, "run_headless", lambda args: seen.setdefault("headless", gc.isenabled()) and 0)
    monkeypatch.setattr(tui.run, "run_app", lambda **kwargs: seen.setdefault("client", gc.isenabled()) and 0)
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    main(["log", str(save)])
    main([str(save)])
    assert seen == {"headless": True, "client": False}
    assert gc.isenabled()  # and back on once the client has quit
    # "From the first import": importing the entry point imports none of Fireteam's
    # modules (main() does, once the collector is paused).
    code = "import sys, tui.main; print(sorted(m for m in sys.modules if m.startswith(('core', 'tui.'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["['tui.main']"]
