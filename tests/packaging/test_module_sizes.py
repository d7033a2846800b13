"""No module of the product over 800 lines (the client's standard), but those named below, each
waiting for its own split: a module that grows past the limit fails here by name."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 800
#: Over the limit before this test was written, each to be split in its turn (none may join them).
WAITING: set[str] = set()  # (none now: the last, tui/ssh/host/server.py, was split for issue #77)


def test_no_module_of_the_product_is_over_800_lines():
    over = {}
    for package in ("core", "tui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT and name not in WAITING:
                over[name] = lines
    assert over == {}


def test_what_waits_for_its_split_is_still_over_the_limit():
    """A module split leaves this list: none stays named once it is under the limit, or gone."""
    for name in WAITING:
        path = ROOT / name
        assert path.exists() and len(path.read_text(encoding="utf-8").splitlines()) > LIMIT, name


def test_the_game_screen_is_split_by_what_it_shows():
    """tui/screens/game.py was 1,308 lines (issue #77): its replay, held rolls, undo and redo,
    help and palette are modules of their own, each under the limit."""
    screens = ROOT / "tui" / "screens"
    for name in ("game", "replaying", "awaiting", "undoing", "gamemenu"):
        assert len((screens / f"{name}.py").read_text(encoding="utf-8").splitlines()) <= LIMIT, name
