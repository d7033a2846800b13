"""Starting a game, whatever the front: the new game screen (``tui.screens.newgame``) and the
line client's start (``tui.lines.start``) make a save the same way, and list the same last games.

Nothing here draws: no Textual (the line client imports it).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from core import folders
from core.cli.scenarios import user_scenarios
from core.game import Game
from core.language.reader import lang
from core.log.views import REFEREE
from core.ruleset import Refused, Ruleset
from core.scenarios.files import is_path
from tui.i18n import _, scenario_words
from tui.userdata import UserStore


def last_games(store: UserStore, saves: Path | None = None) -> list[Path]:
    """The games played last, the most recent first: those the command histories name and
    those of ``saves``, the data folder's ``saves/`` by default (``core.folders``), where
    every new game goes."""
    return store.recent_saves(saves if saves is not None else folders.saves())


def scenario_choices(ruleset: Ruleset) -> list[tuple[str, str]]:
    """(title, value) of every scenario offered: the built-in ones by id, then the user's own
    files by path (a refused one says so; choosing it says why)."""
    titles = {sid: getattr(sc, "title", sid) for sid, sc in scenarios_of(ruleset).items()}
    options = [(scenario_words(title) if title else sid, sid) for sid, title in titles.items()]
    for row in user_scenarios(ruleset):
        if row["title"]:
            title = row.get("titles", {}).get(lang()) or row["title"]  # the file's own words, where it gives them
            mark = _("{title} · yours").format(title=title)
        else:
            mark = _("{name} · yours, refused").format(name=Path(row["path"]).name)
        options.append((mark, row["path"]))
    return options


def file_words(sc: object, text: str) -> str:
    """A text of a scenario (built-in, or a file's ``Loaded``) in the reader's language: the
    words its file gives for it (``[translations.it]``), else the catalogue's (a built-in's)."""
    own = getattr(getattr(sc, "sc", sc), "translations", {}).get(lang(), {}).get(text)
    return own or scenario_words(text)


def scenarios_of(ruleset: Ruleset) -> dict:
    return dict(getattr(ruleset, "scenarios", {}) or {})


def default_name(ruleset_id: str, scenario: str) -> str:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    name = Path(scenario).stem if is_path(scenario) else scenario
    return f"{ruleset_id}-{name or 'game'}-{stamp}.ft"


def start_game(
    path: Path,
    ruleset_id: str,
    variant: str,
    scenario: str,
    seed: int | None,
    rosters: dict[str, str] | None = None,
    setup: Sequence[str] = (),
) -> Game:
    """Create the save, set the scenario up, field the rosters (side → file), then
    run the ``setup`` command lines (the set-up choices) as the referee.

    Raises Refused (with the ruleset's reason), SaveError or OSError; a game
    that could not start leaves no save behind.
    """
    # Game.new refuses an existing save (SaveError), but starts again in a file
    # that a crash left holding only part of a header, its bytes set aside.
    path.parent.mkdir(parents=True, exist_ok=True)
    game = Game.new(path, ruleset_id, variant, seed=seed)
    try:
        if scenario:
            game.execute(f"scenario {shlex.quote(scenario) if is_path(scenario) else scenario}", role=REFEREE)
        for side, roster in (rosters or {}).items():
            if roster.strip():
                try:
                    game.execute(f"roster {shlex.quote(roster.strip())} {side}", role=REFEREE)
                except Refused as e:
                    raise Refused(_("roster for {side}: {error}").format(side=side, error=e)) from None
        for line in setup:
            try:
                game.execute(line, role=REFEREE)
            except Refused as e:
                raise Refused(f"{line}: {e}") from None
    except Exception:  # whatever stopped it, no half-made save is left
        game.close()
        path.unlink(missing_ok=True)
        raise
    return game
