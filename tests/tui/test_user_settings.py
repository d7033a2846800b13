"""What a user sets by hand in the config folder: the cursor's blink, keys, theme files (docs/files.md)."""

from __future__ import annotations

import json

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import press, settled

from core.views import REFEREE
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.userdata import UserStore

SIZE = (100, 30)


@pytest.fixture(name="store")
def store_fixture(tmp_path) -> UserStore:
    return UserStore(tmp_path / "config", tmp_path / "state")


def settings(store: UserStore, **values) -> None:
    store.config.mkdir(parents=True, exist_ok=True)
    store.settings_path.write_text(json.dumps(values), encoding="utf-8")


@pytest.mark.parametrize("blink", [True, False])
async def test_the_cursor_blinks_unless_the_settings_say_not(game, store, blink):
    if not blink:
        settings(store, cursor_blink=False)
    app = FireteamApp(game, role=REFEREE, store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.screen.query_one(CommandInput).cursor_blink is blink


async def test_keys_rebind_an_action_and_wrong_entries_are_left_out_with_a_notice(game, store):
    settings(store, keys={"help": "f9", "nosuch": "f10", "undo": "ctrl+u; rm -rf"})
    app = FireteamApp(game, role=REFEREE, store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        notes = [n.message for n in app._notifications]
        assert any(n.startswith("keys: no action 'nosuch'") for n in notes)
        assert any(n.startswith("keys: 'undo': 'ctrl+u; rm -rf' is not a list of key names") for n in notes)
        assert app.user_keys == {"help": "f9"}
        await press(pilot, "f9")
        assert type(app.screen).__name__ == "HelpScreen"
        await press(pilot, "escape")
        await press(pilot, "f1")  # the key it had: no longer
        assert type(app.screen).__name__ == "GameScreen"


async def test_a_theme_file_is_a_theme_and_a_bad_one_is_said_not_used(game, store):
    themes = store.themes_folder
    themes.mkdir(parents=True)
    (themes / "club.toml").write_text('name = "club-night"\nprimary = "#ff8800"\nbackground = "#101010"\n')
    (themes / "bad.toml").write_text('name = "bad"\nprimary = "not a colour"\n')
    (themes / "typo.toml").write_text('name = "typo"\nprimary = "#ffffff"\nprimray = "#000000"\n')
    (themes / "clash.toml").write_text('name = "textual-dark"\nprimary = "#ffffff"\n')
    settings(store, theme="club-night")
    app = FireteamApp(game, role=REFEREE, store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.theme == "club-night"
        assert str(app.current_theme.primary) in ("#FF8800", "#ff8800")
        notes = "\n".join(n.message for n in app._notifications)
        assert f"theme file ignored ({themes / 'bad.toml'})" in notes
        assert f"theme file ignored ({themes / 'typo.toml'})" in notes and "primray" in notes
        assert "themes: textual-dark is a theme already" in notes
        assert "bad" not in app.available_themes and "typo" not in app.available_themes
