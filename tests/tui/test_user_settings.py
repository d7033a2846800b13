"""What a user sets by hand in the config folder: the cursor's blink, keys, theme files (docs/files.md)."""

from __future__ import annotations

import json

import pytest
from playing import opened
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import piloted, press, told, type_text

from tui.commandline import CommandInput
from tui.textual_internals import keymap
from tui.userdata import UserStore


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
    async with piloted(game, store=store, settle=True) as (app, pilot):
        assert app.screen.query_one(CommandInput).cursor_blink is blink


@pytest.mark.long
async def test_keys_rebind_an_action_and_wrong_entries_are_left_out_with_a_notice(game, store):
    settings(store, keys={"help": "f9", "nosuch": "f10", "undo": "ctrl+u; rm -rf"})
    async with piloted(game, store=store, settle=True) as (app, pilot):
        notes = told(app)
        assert any(n.startswith("keys: no action 'nosuch'") for n in notes)
        assert any(n.startswith("keys: 'undo': 'ctrl+u; rm -rf' is not a list of key names") for n in notes)
        assert keymap(app) == {"help": "f9"}
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
    async with piloted(game, store=store, settle=True) as (app, pilot):
        assert app.theme == "club-night"
        assert str(app.current_theme.primary) in ("#FF8800", "#ff8800")
        notes = "\n".join(told(app))
        assert f"theme file ignored ({themes / 'bad.toml'})" in notes
        assert f"theme file ignored ({themes / 'typo.toml'})" in notes and "primray" in notes
        assert "themes: textual-dark is a theme already" in notes
        assert "bad" not in app.available_themes and "typo" not in app.available_themes


@pytest.mark.long
async def test_every_key_named_in_words_is_the_one_the_user_bound(store, tmp_path):
    """The command palette, the command line's hint, the roster's, the undo's hint and line, the
    help's every section and the footer name the key an action has now (settings' keys), read
    from its binding by id, never a key written in a sentence (issue 59)."""
    from textual.command import CommandList, CommandPalette
    from waiting import until

    from tui.panes.phase import PhasePane
    from tui.panes.roster import RosterPane
    from tui.panes.rosterview import RosterView
    from tui.screens.help import HelpScreen
    from tui.textual_internals import FooterKey

    # Keys the command line keeps none of (Textual's Input has Ctrl+E, Ctrl+K, Ctrl+W); undo and redo swapped.
    settings(store, keys={"help": "f11", "roster": "f10", "undo": "ctrl+y", "redo": "ctrl+z", "actions": "ctrl+f"})
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", "note hi", seed=3)
    async with piloted(game, (80, 24), store=store) as (app, pilot):
        screen = app.screen
        box = screen.query_one(CommandInput)
        assert box.placeholder == "type a command (Tab completes, F11 help)"
        pane, view = screen.query_one(RosterPane), screen.query_one(RosterView)
        await until(pilot, lambda: view.rows > view.scrollable_content_region.height, "the roster's rows")
        await until(pilot, lambda: str(pane.border_subtitle).endswith("more (F10)"), "the roster's key")
        assert "Ctrl+Y undoes #2 note hi" in str(screen.query_one(PhasePane).render())
        await until(pilot, lambda: screen.query(FooterKey), "the footer")  # (mounted after the first frame)
        footer = {str(k.description): k.key for k in screen.query(FooterKey)}
        assert footer.get("Roster") == "f10", footer  # the command line's key to the roster too
        await press(pilot, "ctrl+s")  # the key it had, from the command line: no longer
        assert app.focused is box

        await press(pilot, "ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await type_text(pilot, "focus the roster")
        listing = app.screen.query_one(CommandList)

        def said() -> str:
            return "\n".join(str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count))

        await until(pilot, lambda: "move the keyboard to the roster" in said(), "the palette's entry")
        assert "move the keyboard to the roster (F10)" in said() and "Ctrl+S" not in said()
        await press(pilot, "escape")
        await until(pilot, lambda: app.screen is screen, "the game screen")
        entries = {name: text for name, text, _action in screen.palette_actions()}
        assert entries["Help"] == "every key and command (F11)"
        assert entries["Actions"] == "pick an action from a list and fill in a form (Ctrl+F)"
        assert entries["Rules"] == "every rule of the ruleset and what Fireteam does with it (F11, then F2 / Ctrl+R)"

        await press(pilot, "ctrl+y")
        await press(pilot, "y")
        hint = screen.query_one("#cmd-hint")
        await until(pilot, lambda: "undone" in str(hint.render()), "the undo's line")
        assert str(hint.render()) == "↶ undone: #2 note hi (Ctrl+Z redoes it)"

        await press(pilot, "f11")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        keys = {title: [b.key for b in bindings if b.description == "Roster"] for title, bindings in app.screen.keys}
        assert keys["Game"] == ["f10"] and keys["Command line"] == ["f10"]


async def test_the_replay_bar_names_the_replay_s_keys_as_bound(game, store):
    from waiting import until

    from tui.screens.replay_bar import ReplayBar

    settings(store, keys={"quit-replay": "x", "next-event": "l", "faster": "f11"})
    async with piloted(game, (160, 24), replay=True, store=store) as (app, pilot):
        bar = app.screen.query_one(ReplayBar)
        await until(pilot, lambda: "speed" in bar.render_line(1).text, "the replay bar")
        assert bar.render_line(1).text.rstrip() == (
            "  x leave  ← l event  [ ] phase  { } turn  t go to turn  < > start/end  Space play  F11 - speed"
        )
