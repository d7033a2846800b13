"""The app driven by keys through Textual's Pilot."""

from __future__ import annotations

import io

import pytest
from playing import opened
from rich.console import Console
from skirmish import game_fixture, patrol_game  # noqa: F401  (a fixture)
from textual import events
from textual.widgets import Select
from waiting import hint, piloted, press, screen_of, settled, told, type_command, type_text, until

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.storage.fork import boundaries
from tui.app import FireteamApp, check_role
from tui.commandline import CommandInput
from tui.panes.dice import DicePane
from tui.panes.log import LogPane, LogView
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane
from tui.plain import Plain
from tui.run import run_app
from tui.screens.dialogs import ConfirmBox, DetailsScreen, DicePrompt
from tui.screens.forms import ActionForm, ActionPicker, command_text
from tui.screens.game import GameScreen

SIZE = (100, 30)


def rendered(widget) -> str:
    """What a widget's render() shows, as plain text."""
    console = Console(width=widget.content_size.width or 80, file=io.StringIO(), record=True)
    console.print(widget.render())
    return console.export_text()


def phase_text(app) -> str:
    return str(app.screen.query_one(PhasePane).render())


def roster_units(app) -> set[str]:
    return {key[1] for key in app.screen.query_one(RosterPane).view.item_keys() if key[0] == "unit"}


async def test_a_full_turn_by_keys(game):
    async with piloted(game) as (app, pilot):
        assert isinstance(app.focused, CommandInput)
        assert "Deployment" in phase_text(app)
        await type_command(pilot, "next")
        assert game.state.phase == "initiative"
        assert "Initiative" in phase_text(app) and "Turn 1" in phase_text(app)
        await type_command(pilot, "next")  # rolls initiative
        state = game.state
        assert state.phase == "activation" and state.active_side
        text = phase_text(app)
        assert "Activation" in text and "active " + state.sides[state.active_side].name in text
        dice = rendered(app.screen.query_one(DicePane))
        assert "initiative" in dice and "╭───╮" in dice
        assert "✓ #3" in hint(app)
        await type_command(pilot, "next")
        assert game.state.phase == "end"
        await type_command(pilot, "next")
        assert (game.state.turn, game.state.phase) == (2, "initiative")
        assert "Turn 2" in phase_text(app)
        log = app.screen.query_one(LogView)
        assert log.rows == game.log_length  # the referee's log has every event
        assert log.line_at(log.cursor).text == "Turn 2: initiative"


async def test_an_invalid_command_says_why_and_changes_nothing(game):
    async with piloted(game) as (app, pilot):
        before = game.log_length
        await type_command(pilot, "mark nobody suppressed")
        assert game.log_length == before
        assert "✗ no unit 'nobody'" in hint(app)
        assert app.screen.query_one(CommandInput).value == "mark nobody suppressed"  # kept to fix it
        await type_command(pilot, "")
        assert game.log_length == before


@pytest.mark.long
async def test_tab_completes_commands_and_units(game):
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press(pilot, "m", "a", "tab")
        assert box.value == "mark "
        await press(pilot, "i", "v", "tab")
        assert box.value == "mark ivan "
        await press(pilot, "s", "u", "tab", "enter")
        assert "suppressed" in game.state.units["ivan"].status
        await press(pilot, "up")
        assert box.value == "mark ivan suppressed"


async def test_tab_through_the_commands_says_what_each_takes(game):
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press(pilot, "tab")  # an empty line: the commands, one per Tab
        first = box.value
        assert first and " " not in first
        assert hint(app).startswith(f"{first} ") and "  " in hint(app)  # its usage, then its help
        assert not hint(app).startswith(f"{first}   {first}")  # not the name said twice
        await press(pilot, "tab")
        assert box.value != first and hint(app).startswith(f"{box.value} ") and "  " in hint(app)
        await press(pilot, "ctrl+u", "m", "a")
        assert hint(app) == "mark"  # a word still being typed: the commands it begins, no usage yet


@pytest.mark.long
async def test_undo_names_the_command_then_redo(game):
    async with piloted(game) as (app, pilot):
        await type_command(pilot, "mark ivan suppressed")
        assert "Ctrl+Z undoes #2 mark ivan suppressed" in phase_text(app)
        await press(pilot, "ctrl+z")
        box = app.screen.query_one(ConfirmBox)
        assert box.asking and box.question == "Undo #2 mark ivan suppressed?"
        await press(pilot, "escape")  # cancelled: nothing happens
        assert "suppressed" in game.state.units["ivan"].status
        await press(pilot, "ctrl+z", "enter")
        assert "suppressed" not in game.state.units["ivan"].status
        log = app.screen.query_one(LogView)
        struck = [log.line_at(r) for r in range(log.rows) if log.line_at(r).undone]
        assert [line.text for line in struck] == ["» referee: mark ivan suppressed", "Ivan Petrov now suppressed"]
        await press(pilot, "ctrl+y")
        assert box.asking and box.question == "Redo #2 mark ivan suppressed?"
        await press(pilot, "y")
        assert "suppressed" in game.state.units["ivan"].status


@pytest.mark.long
async def test_table_dice_asks_for_exactly_the_faces_needed(game):
    async with piloted(game) as (app, pilot):
        await type_command(pilot, "next")
        await press(pilot, "f3")
        await type_command(pilot, "next")  # initiative: 2d6 for each side
        assert isinstance(app.screen, DicePrompt)
        assert (app.screen.count, app.screen.sides) == (2, 6)
        # whose roll, what for; the command's dice in order on the help key
        assert str(app.screen.query_one(".title").render()) == "Blue Patrol's initiative: 2d6 (leadership +1)"
        assert not app.screen.query_one("#dice-order").display
        await press(pilot, "f1")
        shown = app.screen.query_one("#dice-order")
        order = [shown.render_line(y).text.rstrip() for y in range(shown.size.height)]
        assert order == ["its dice, in order:", "1. initiative: 2d6 + leadership per side"]  # one step: unmarked

        await press(pilot, "7", "1", "enter")  # a d6 cannot show 7: asked again
        assert isinstance(app.screen, DicePrompt)
        await press(pilot, "backspace", "backspace", "6", "space", "6", "enter")
        assert isinstance(app.screen, DicePrompt) and app.screen.typed == [6, 6]
        await press(pilot, "1", "1", "enter")
        assert game.state.phase == "activation"
        rolls = [line.event.roll for line in game.log_lines(role="referee") if isinstance(line.event, ev.Rolled)]
        assert [r.faces for r in rolls] == [(6, 6), (1, 1)] and all(r.manual for r in rolls)
        assert game.state.active_side == "blue"


@pytest.mark.long
async def test_cancelling_the_dice_prompt_records_nothing(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")
        await type_command(pilot, "roll 2d6")
        before = game.log_length
        assert isinstance(app.screen, DicePrompt)
        await press(pilot, "escape")
        assert game.log_length == before
        assert "cancelled" in hint(app)


@pytest.mark.long
async def test_forms_build_a_command_line(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f2")
        assert isinstance(app.screen, ActionPicker)
        spec = next(s for s in game.commands if s.name == "mark")
        await press(pilot, "escape")
        app.screen.runner.start(spec)
        await settled(pilot)
        form = screen_of(app, ActionForm)
        form.query_one("#field-unit").value = "kemal"
        form.query_one("#field-status").value = "wounded"
        await press(pilot, "ctrl+s")
        assert "wounded" in game.state.units["kemal"].status
    dp = next(s for s in game.commands if s.name == "dp")
    assert (
        command_text(dp, {"side": "blue", "points": "5", "reason": "building damaged"}) == "dp blue 5 building damaged"
    )


async def test_a_form_at_a_browser_s_page_names_no_key_a_phone_lacks_and_runs_on_a_tap(game):
    """Issue #77: a phone's page has no Ctrl (its keys: Esc, Tab, the arrows, F1, ^P), yet the
    Actions form said "Ctrl+S: run".  At a page the form has a Run button and names it instead."""
    spec = next(s for s in game.commands if s.name == "mark")
    for page in (False, True):
        async with piloted(game, remote=True) as (app, pilot):
            app.page = page  # (the page's door sets it as the seat sits: tui.ssh.seating.seat)
            await settled(pilot)
            app.screen.runner.start(spec)
            await settled(pilot)
            form = screen_of(app, ActionForm)
            said = " ".join(str(w.render()) for w in form.query(Plain))
            assert ("Ctrl+S" in said) is not page, said
            assert bool(form.query("#form-run")) is page
            if page:
                assert "Run: give the command" in said
                form.query_one("#field-unit").value = "kemal"
                form.query_one("#field-status").value = "wounded"
                await pilot.click("#form-run")
                await until(pilot, lambda: "wounded" in game.state.units["kemal"].status, "the mark given")


@pytest.mark.long
async def test_a_forms_side_picker_offers_only_the_sides_the_command_takes_now(tmp_path):
    """Ludonet's victory (#48): before the game begins no side may be named the winner,
    after the first turn begins both may, with draw beside them, as Tab offers them."""
    game = opened(tmp_path / "ln.ft", "ludonet", "scenario demo", seed=3, clock=lambda: 1_700_000_000_000)
    victory = next(s for s in game.commands if s.name == "victory")
    async with piloted(game) as (app, pilot):

        async def winners() -> list[str]:
            app.screen.runner.start(victory)
            await settled(pilot)
            form = screen_of(app, ActionForm)
            picker = form.query_one("#field-winner")
            values = [value for _label, value in picker._options if value is not Select.NULL]
            await press(pilot, "escape")
            return values

        assert await winners() == ["draw"]
        game.execute("next", role=REFEREE)
        assert await winners() == ["paras", "garrison", "draw"]
    game.close()


@pytest.mark.long
async def test_log_details_search_and_filter(game):
    game.execute("next", role=REFEREE)
    game.execute("next", role=REFEREE)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f7")
        log = app.screen.query_one(LogView)
        assert app.focused is log
        pane = app.screen.query_one(LogPane)
        await press(pilot, "ctrl+e", *"Red Cell's initiative", "enter")  # the side by its name
        await pilot.wait_for_scheduled_animations()
        line = log.line_at(log.cursor)
        assert isinstance(line.event, ev.Rolled) and (line.event.side, line.event.roll.purpose) == ("red", "initiative")
        assert app.screen.query_one(DicePane).border_title == "Selected roll"
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailsScreen)
        await press(pilot, "escape")
        await press(pilot, "ctrl+k", *"kind:roll", "enter")
        assert pane.filter.kinds == ("roll",) and log.rows == 2
        await press(pilot, "escape")
        assert log.rows == game.log_length


@pytest.mark.long
async def test_roster_filter_and_unit_to_command_line(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, *"mark", "space", "f6", "ctrl+k", *"rpg", "enter")
        assert roster_units(app) == {"kemal"}
        await press(pilot, "enter")
        assert app.screen.query_one(CommandInput).value == "mark kemal "


@pytest.mark.long
async def test_a_side_sees_only_its_view_and_follows_other_seats(tmp_path):
    game = patrol_game(tmp_path / "shared.ft")
    referee, blue_app = FireteamApp(game, role=REFEREE), FireteamApp(game, role="blue", seat="anna")
    async with referee.run_test(size=SIZE) as ref_pilot, blue_app.run_test(size=SIZE) as reg_pilot:
        assert {"omar", "yusuf"} <= roster_units(referee)
        assert not {"omar", "yusuf"} & roster_units(blue_app)
        log = blue_app.screen.query_one(LogView)
        texts = [log.line_at(r).text for r in range(log.rows)]
        assert not any("Omar" in t or "Yusuf" in t or "cache" in t for t in texts)
        rows_before = log.rows
        await type_command(ref_pilot, "mark ivan wounded")
        await settled(reg_pilot)
        assert log.rows == rows_before + 2
        assert "Ivan Petrov now wounded" in [log.line_at(r).text for r in range(log.rows)]
        await type_command(ref_pilot, "mark omar wounded")  # hidden: the patrol learns nothing
        await settled(reg_pilot)
        assert log.rows == rows_before + 2
        assert "Ctrl+Z" not in phase_text(blue_app)  # the referee's command is not theirs to undo
        game.close()


@pytest.mark.long
async def test_replay_steps_through_the_game(game):
    for text in ("next", "next", "mark ivan suppressed", "next", "next", "next"):
        game.execute(text, role=REFEREE)
    game.close()
    replay = Game.open(game.path, writable=False)
    async with piloted(replay, replay=True) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.replay
        end = replay.timeline.length
        assert screen.vp.step == end
        await press(pilot, "less_than_sign")
        assert screen.vp.step == 0 and "Before play" in phase_text(app)
        await press(pilot, "right", "right")
        assert screen.vp.step == 2
        await press(pilot, "right_square_bracket")  # to the next phase: deployment begins
        first_phase = replay.timeline.next_phase(2)
        assert screen.vp.step == first_phase and "Deployment" in phase_text(app)
        await press(pilot, "right_curly_bracket")
        assert screen.vp.step == replay.timeline.turn_start(1)
        await press(pilot, "t", "2", "enter")
        assert screen.vp.step == replay.timeline.turn_start(2) and "Turn 2" in phase_text(app)
        await press(pilot, "left")
        assert screen.vp.step == replay.timeline.turn_start(2) - 1
        state = replay.timeline.state_at(screen.vp.step)
        assert (state.turn, state.phase) == (1, "end")
        await press(pilot, "left_square_bracket")
        assert screen.vp.step == replay.timeline.previous_phase(replay.timeline.turn_start(2) - 1)
        log = screen.query_one(LogView)
        assert log.rows == screen.vp.limit()  # the log stops where the replay stands
        await press(pilot, "greater_than_sign")
        assert screen.vp.step == end
        assert replay.writer is None


@pytest.mark.long
async def test_replay_from_the_live_game_and_back(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f5")
        assert isinstance(app.screen, GameScreen) and app.screen.replay
        await press(pilot, "less_than_sign", "escape")
        assert isinstance(app.screen, GameScreen) and not app.screen.replay


@pytest.mark.long
async def test_play_from_here_starts_a_what_if_game_and_leaves_the_original(game):
    for text in ("next", "next", "mark ivan suppressed", "next"):
        game.execute(text, role=REFEREE)
    original = game.path
    before = original.read_bytes()
    async with piloted(game) as (app, pilot):
        await press(pilot, "f5", "less_than_sign", "right_square_bracket", "right")
        shown = app.screen.vp.step
        bounds = boundaries(game)
        assert shown not in bounds  # one event into a command: the fork starts before that command
        await press(pilot, "w")
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.replay and screen.game is app.game
        forked = app.game
        assert forked.path.name.startswith("patrol.whatif-") and forked.writable
        parent = forked.header.parent
        assert parent is not None and parent.path == str(original.resolve())
        assert parent.step == max(b for b in bounds if b < shown)
        assert forked.timeline.length == parent.step
        await press(pilot, *"note what if", "enter")
        assert forked.history.issued(forked.history.eff_cmds[-1]).text == "note what if"
    assert original.read_bytes() == before


async def test_play_from_here_is_the_referees_alone(game):
    """``w`` in a side's replay makes no what-if game, and says why (it said nothing, #48)."""
    async with piloted(game, role="blue", replay=True) as (app, pilot):
        await press(pilot, "w")
        assert app.game is game and not list(game.path.parent.glob("*.whatif-*"))
        assert "play_from_here" not in [action for _, _, action in app.screen.palette_actions()]
        said = [(n.title, n.message) for n in app._notifications]
        assert said == [
            (
                "Cannot play from here",
                "a what-if game is the referee's: it starts from the whole save,"
                " which holds what Blue Patrol may not see",
            )
        ]


@pytest.mark.long
async def test_q_leaves_a_replay_for_the_live_game_and_quits_a_replay_opened_alone(game):
    """As a pager's q (#48): from F5's replay, back to the game; a replay opened alone
    (``fireteam SAVE --replay``) has nothing under it, and q ends the client."""
    async with piloted(game) as (app, pilot):
        await press(pilot, "f5")
        assert app.screen.replay
        await press(pilot, "q")
        assert isinstance(app.screen, GameScreen) and not app.screen.replay
        await press(pilot, "q")  # live, q is typed on the command line
        assert app.screen.query_one(CommandInput).value == "q" and app.return_code is None
    async with piloted(game, replay=True) as (alone, pilot):
        await press(pilot, "right", "q")
    assert alone.return_code == 0


async def test_the_replay_bar_says_how_to_leave_at_80_columns(game):
    """At 80x24 the replay bar's row of keys was cut before ``q leave``: a newcomer saw no
    way out of the replay (#48).  q comes first; the row still ends in … where cut."""
    from tui.screens.replay_bar import ReplayBar

    async with piloted(game, (80, 24), replay=True, settle=True) as (app, pilot):
        bar = app.screen.query_one(ReplayBar)
        keys = bar.render_line(1).text
        assert keys.strip().startswith("q leave"), keys
        assert keys.rstrip().endswith("…")  # the rest is cut, and says so


async def test_replay_as_a_side_skips_what_it_cannot_see(game):
    async with piloted(game, role="blue", replay=True) as (app, pilot):
        screen = app.screen
        await press(pilot, "less_than_sign")
        seen = []
        while screen.vp.step < game.timeline.length:
            await press(pilot, "right")
            seen.append(screen.vp.step)
            assert len(seen) <= game.timeline.length
        assert not {"omar", "yusuf"} & roster_units(app)
        hidden_steps = [
            s
            for s in range(1, game.timeline.length + 1)
            if game.history.timeline(s - 1, s)[0].vis and "blue" not in game.history.timeline(s - 1, s)[0].vis
        ]
        assert hidden_steps and not set(hidden_steps) & set(seen)


def test_run_app_refuses_a_corrupt_save_without_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.ft"
    bad.write_text("this is not a save\n")
    assert run_app(bad, False, "referee") == 2
    err = capsys.readouterr().err
    assert "cannot open the save" in err and "Traceback" not in err
    assert run_app(tmp_path / "missing.ft", True, "referee") == 2
    assert "no such save" in capsys.readouterr().err


def test_unknown_role_is_refused(game):
    assert check_role(game, "blue") is None
    assert "not a role" in check_role(game, "martians")


async def test_a_spectator_is_told_he_cannot_undo_or_redo(tmp_path):
    """Issue 28: a spectator's Ctrl+Z said the last command was not his to undo."""
    game = patrol_game(tmp_path / "seats.ft", commands=("next", "next"))
    async with piloted(game, role="spectator", seat="guest") as (app, pilot):
        await press(pilot, "ctrl+z")
        assert not app.screen.query_one(ConfirmBox).asking
        assert "a spectator cannot undo" in hint(app)
        await press(pilot, "ctrl+y")
        assert "a spectator cannot redo" in hint(app)


async def test_a_player_undoes_only_his_own_command(tmp_path):
    game = patrol_game(tmp_path / "seats.ft", commands=("next", "next"))
    assert game.state.active_side == "blue"
    async with piloted(game, role="blue", seat="anna") as (app, pilot):
        await press(pilot, "ctrl+z")
        assert not app.screen.query_one(ConfirmBox).asking
        assert "the last command is not yours; ask the referee to undo it" in hint(app)
        await type_command(pilot, "move cole 12")
        assert game.state.units["cole"].moved_cm == 12
        # The file's command 4 is blue's third: the set-up, which placed a hidden
        # enemy, is a command blue never saw, and a side counts only what it sees.
        assert "Ctrl+Z undoes #3 move cole 12" in phase_text(app)
        await press(pilot, "ctrl+z")
        assert app.screen.query_one(ConfirmBox).question == "Undo #3 move cole 12?"
        await press(pilot, "enter")
        assert game.state.units["cole"].moved_cm == 0
        assert game.history.issued(4).by == "anna"
    game.close()


async def test_a_player_is_refused_an_undo_of_dice_before_he_is_asked(tmp_path):
    """Issue #61: a side's Ctrl+Z on its own command that rolled dice must not ask first."""
    game = patrol_game(tmp_path / "seats.ft", commands=("next", "next"))
    game.execute("shoot cole ivan 20", role="blue", by="anna")  # rolls its dice (T4)
    length = game.log_length
    async with piloted(game, role="blue", seat="anna") as (app, pilot):
        await press(pilot, "ctrl+z")
        assert not app.screen.query_one(ConfirmBox).asking
        assert "only the referee can undo that" in hint(app)
        assert game.log_length == length
    game.close()


async def test_spectators_watch(game):
    async with piloted(game, role="spectator") as (app, pilot):
        before = game.log_length
        await type_command(pilot, "note hello")
        assert "✗ spectators watch" in hint(app) and game.log_length == before
        assert not {"omar", "yusuf"} & roster_units(app)


@pytest.mark.long
async def test_a_remote_seat_cannot_touch_the_server(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    async with piloted(game, remote=True) as (app, pilot):
        await press(pilot, "f12", "ctrl+n")
        assert isinstance(app.screen, GameScreen)  # no new/load game on a shared table
        assert not list(tmp_path.glob("*.svg"))
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "Quit" in titles


@pytest.mark.long
async def test_a_form_leaves_out_what_was_not_chosen(game):
    async with piloted(game) as (app, pilot):
        app.screen.runner.start(next(s for s in game.commands if s.name == "out"))
        await settled(pilot)
        form = app.screen
        assert form.text() == "out"  # nothing chosen yet: no placeholder words
        form.query_one("#field-unit").value = "kemal"
        assert form.text() == "out kemal"


async def test_keys_typed_in_a_burst_keep_their_order(game):
    # A fast typist, a macro or tmux send-keys: keys arrive before the previous
    # ones are handled.  Clearing the line, completing and Enter must still
    # happen exactly where they were typed, not after the characters behind them.
    async with piloted(game) as (app, pilot):
        line = app.focused
        assert isinstance(line, CommandInput)

        def burst(*keys: str) -> None:
            for key in keys:
                char = key if len(key) == 1 else (" " if key == "space" else None)
                app.post_message(events.Key(key, char))

        burst(*"xyz", "ctrl+u", *"no", "tab", *'"ok"')
        await settled(pilot)
        assert line.value == 'note "ok"'
        burst("enter", *"abc")
        await settled(pilot)
        assert game.log_lines(role="referee")[-1].text == "note: ok"
        assert line.value == "abc"
        # A refused command is given back to mend, selected: what is typed after
        # Enter takes its place (the command runs as Enter is handled, before them).
        burst("ctrl+u", *"bogus", "enter", *"xy")
        await settled(pilot)
        assert line.value == "xy" and game.log_lines(role="referee")[-1].text == "note: ok"
        burst("ctrl+u", *"bogus", "enter")
        await settled(pilot)
        assert "✗" in hint(app) and line.value == "bogus"


async def test_go_to_turn_names_the_turns_it_may_go_to(game):
    """#61: the box said "a turn number, e.g. 3", whatever turns the game had reached."""
    from textual.widgets import Input

    from tui.screens.dialogs import AskScreen

    for _ in range(6):
        game.execute("next", role=REFEREE)
    first, last = game.timeline.turns()
    assert last > first  # two turns begun at least: a range to name
    async with piloted(game) as (app, pilot):
        await press(pilot, "f5", "t")  # replay, then go to turn
        assert isinstance(app.screen, AskScreen)
        assert app.screen.query_one(Input).placeholder == f"a turn from {first} to {last}"
        await type_text(pilot, str(last + 5))
        await press(pilot, "enter")
        notices = told(app)
        assert f"turn {last + 5} was never reached: from {first} to {last}" in notices
