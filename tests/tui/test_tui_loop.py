"""The referee's loop on the command line (issue #26): a refusal never swallows the
next command, table dice complete the line's, names and codes are offered as said."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playing import opened
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual.widgets import Select
from waiting import hint, piloted, press, screen_of, settled, type_text

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.screens.dialogs import DicePrompt
from tui.screens.forms import ActionForm

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "breaking_news" / "combat"))
sys.path.insert(0, str(TESTS / "rulesets" / "ludonet"))
from bn_combat_support import new_game  # noqa: E402
from ln_support import ludonet_game, play, to_phase  # noqa: E402

pytestmark = pytest.mark.long

SIZE = (100, 30)


async def save_asked_at_the_table(pilot) -> DicePrompt:
    """Table dice on, and a fire in the demo whose hit is on the line (dice=6): the prompt asks for the save."""
    await press(pilot, "f3")  # table dice
    await type_text(pilot, "fire conti bashir range=40 dice=6")
    await press(pilot, "enter")
    prompt = pilot.app.screen
    assert isinstance(prompt, DicePrompt)
    return prompt


async def test_a_refused_command_does_not_swallow_the_next(game):
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await type_text(pilot, "shoot nobody")
        await press(pilot, "enter")
        assert "✗" in hint(app)
        assert box.value == "shoot nobody"  # kept to be mended, selected
        before = game.log_length
        await type_text(pilot, "note after refusal")
        await press(pilot, "enter")
        notes = [line.event for line in game.log_lines(role="referee")[before:] if isinstance(line.event, ev.Noted)]
        assert [n.text for n in notes] == ["after refusal"], hint(app)
        await press(pilot, "up", "up")
        assert box.value == "shoot nobody"  # the refused line is in the history


async def test_table_dice_complete_the_dice_on_the_line(tmp_path):
    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        await save_asked_at_the_table(pilot)
        assert str(app.screen.query_one(".title").render()) == "Bashir Ali's save: 1d6, needs 5+"
        under = str(app.screen_stack[-2].query_one("#cmd-hint").render())
        assert under == "fire conti bashir range=40 dice=6: waiting for its dice"  # not the candidates typed past
        await press(pilot, "3", "enter")
        assert not isinstance(app.screen, DicePrompt), "asked again for the save"
        assert not demo.state.units["bashir"].in_play  # hit on the line's 6, the save's 3 fails (§8.0, §9.0)
        assert "✓" in hint(app)
    demo.close()


async def test_the_actions_form_offers_the_teams(tmp_path, monkeypatch):
    game = ludonet_game(tmp_path, monkeypatch)
    to_phase(game, 1, "morale")
    play(game, "out kurt", "out otto", "out mg42")
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await type_text(pilot, "morale vo")
        await press(pilot, "tab")
        assert box.value == "morale Gruppe Vogt "  # Tab completes a team by any word of its name
        box.value = ""
        app.screen.runner.start(next(s for s in game.commands if s.name == "morale"))
        await settled(pilot)
        form = screen_of(app, ActionForm)
        field = form.query_one("#field-team")
        assert isinstance(field, Select)  # a picker, not a box to type a name in
        assert [str(label) for label, _value in field._options[1:]] == sorted(
            {u.team for u in game.state.units.values() if u.team}
        )
        field.value = "Gruppe Vogt"
        await press(pilot, "ctrl+s")
    rolled = [line.event for line in game.log_lines(role="referee") if isinstance(line.event, ev.Rolled)]
    assert str(rolled[-1].roll.purpose.args["team"]) == "Gruppe Vogt"
    game.close()


async def test_the_phase_pane_names_the_verb_that_ends_the_game(tmp_path):
    from tui.panes.phase import PhasePane

    demo = new_game(tmp_path, "demo")  # the activation: the game may end (§14.0)
    async with piloted(demo) as (referee, pilot):
        assert "end-game ends the game" in str(referee.screen.query_one(PhasePane).render())
        await type_text(pilot, "end-game")
        await press(pilot, "enter")
        assert demo.state.result
        assert "ends the game" not in str(referee.screen.query_one(PhasePane).render())  # it has ended
    demo.close()
    other = new_game(tmp_path / "other", "demo")
    player = FireteamApp(other, role="regulars")
    async with player.run_test(size=SIZE):
        assert "ends the game" not in str(player.screen.query_one(PhasePane).render())  # the referee's to say
    other.close()


async def test_coded_options_say_what_they_mean(tmp_path):
    from tui.screens.help import HelpEntry, HelpScreen

    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario demo", seed=5)
    piece = next(iter(game.state.units))
    async with piloted(game, (160, 30)) as (app, pilot):
        await type_text(pilot, f"activate {piece} A")  # the completion's hint: each code and its meaning (C.3)
        await settled(pilot)
        said = hint(app)
        assert "A1 bound and prepare an attack (either order)" in said and "A5 move at full speed" in said
        app.screen.query_one(CommandInput).value = ""
        app.screen.runner.start(next(s for s in game.commands if s.name == "activate"))
        await settled(pilot)
        field = app.screen.query_one("#field-option")
        assert isinstance(field, Select)
        labels = [str(label) for label, _value in field._options[1:]]
        assert labels[0] == "A1 — bound and prepare an attack (either order)"
        assert labels[6] == "A7 — remove an immobilisation"
        await press(pilot, "escape")
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        activate = next(e for e in app.screen.query(HelpEntry) if e.text.startswith("activate "))
        assert "a6  mount or dismount (infantry and guns)" in activate.text
    game.close()


async def test_the_undo_question_keeps_the_keys_of_the_screen_under_it(game):
    from tui.screens.dialogs import ConfirmBox
    from tui.screens.game import GameScreen

    async with piloted(game) as (app, pilot):
        await type_text(pilot, "mark ivan suppressed")
        await press(pilot, "enter")
        screen = app.screen
        box = screen.query_one(ConfirmBox)
        await press(pilot, "ctrl+z")
        assert box.asking
        dice = screen.table_dice
        for key in ("f5", "ctrl+r", "f4", "f1", "f2", "ctrl+t", "down"):
            await press(pilot, key)  # the replay, the report, the help, the actions, table dice...
            assert app.screen is screen and isinstance(screen, GameScreen) and not screen.replay, key
            assert box.asking and box.display, key
        assert screen.table_dice == dice
        await press(pilot, "n")
        assert not box.asking and "suppressed" in game.state.units["ivan"].status
        await press(pilot, "ctrl+z", "y")  # answered as before
        assert "suppressed" not in game.state.units["ivan"].status


RULESETS = ("breaking-news", "bassa-intensita", "linea-di-tiro", "ludonet")


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_at_80x24_the_roster_says_what_is_below_and_how_to_reach_the_enemy(tmp_path, ruleset):
    """A new referee at 80x24: the other side's figures are below the roster's view; the
    footer names the key that goes there, the roster's border says how many rows are
    below, and that key and the arrows reach the last figure of the last side (#26)."""
    from textual.widgets._footer import FooterKey

    from tui.panes.roster import RosterPane
    from tui.panes.rosterview import RosterView

    game = opened(tmp_path / "g.ft", ruleset, "scenario demo", seed=3)
    last_side = list(game.state.sides)[-1]
    enemy = {u.id for u in game.state.units_of(last_side)}
    async with piloted(game, (80, 24), settle=True) as (app, pilot):
        assert isinstance(app.focused, CommandInput)  # where a referee starts
        footer = {str(k.description): k.key for k in app.screen.query(FooterKey)}
        assert footer.get("Roster") == "ctrl+s", footer
        pane = app.screen.query_one(RosterPane)
        view = app.screen.query_one(RosterView)
        below = view.rows - view.scrollable_content_region.height
        if ruleset == "breaking-news":
            assert below > 0  # the last side's figures do not fit (Ludonet's do, with no details rows: #48)
        if below > 0:
            assert str(pane.border_subtitle) == f"▼ {below} more (Ctrl+S)"
        else:  # every row shows: nothing to say
            assert not pane.border_subtitle
        await press(pilot, "ctrl+s")
        assert app.focused is view
        if below > 0:
            assert str(pane.border_subtitle) == f"▼ {below} more (↓ PgDn)"
        for _ in range(view.rows):
            await press(pilot, "down")
        await settled(pilot)
        assert view.cursor_key is not None and view.cursor_key[1] in enemy, view.cursor_key
        assert not pane.border_subtitle  # nothing left below


async def test_a_badge_that_holds_a_piece_names_it(tmp_path):
    """Bassa Intensità's men aboard the truck: the roster's badge names the vehicle as the
    log does (``aboard ACM 90 truck``), never by its id (#26)."""
    from tui.panes.rosterview import RosterView

    game = opened(tmp_path / "bi.ft", "bassa-intensita", "scenario convoy", seed=3)
    assert "aboard-truck" in game.state.units["gatti"].status
    app = FireteamApp(game, role=REFEREE)
    async with app.run_test(size=(160, 40)):
        rows = app.screen.query_one(RosterView).rows_text()
        gatti = next(row for row in rows if "Sgt Gatti" in row)
        assert "aboard ACM 90 truck" in gatti and "aboard truck" not in gatti, gatti
    said = [line.text for line in game.log_lines(role="referee")]
    assert not [t for t in said if "aboard truck" in t]
    game.close()


async def test_a_command_from_the_actions_form_says_what_it_did(game):
    """The form writes the line and runs it: the message line then says ✓ and what it did,
    not the command's usage (the line's change once overwrote the answer)."""
    async with piloted(game) as (app, pilot):
        app.screen.runner.start(next(s for s in game.commands if s.name == "mark"))
        await settled(pilot)
        form = screen_of(app, ActionForm)
        form.query_one("#field-unit").value = "ivan"
        form.query_one("#field-status").value = "suppressed"
        await press(pilot, "ctrl+s")
        for _ in range(3):
            await settled(pilot)
        assert "suppressed" in game.state.units["ivan"].status
        assert hint(app).startswith("✓ #"), hint(app)


async def test_a_class_a_scenario_defines_is_shown_by_its_name(tmp_path):
    """Linea di Tiro's pieces are of the scenario's profiles: the roster names the profile
    (*Panzergrenadier half-squad*), never its id (``pzgren``), as the log does (#26)."""
    from tui.panes.rosterview import RosterView

    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario breakout", seed=3)
    app = FireteamApp(game, role=REFEREE)
    async with app.run_test(size=(160, 40)):
        rows = app.screen.query_one(RosterView).rows_text()
        grenadiers = next(row for row in rows if "Panzergrenadiers" in row)
        assert "Panzergrenadier half-squad" in grenadiers and "pzgren" not in grenadiers, grenadiers
    game.close()


async def test_the_candidates_of_a_figure_say_its_name(tmp_path):
    """``activate baker``: three Shermans answer; the line under it says which is which
    (``s1 Sherman Baker 1 · s2 …``), their ids being what Tab puts on the line (#26)."""

    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario breakout", "next", seed=3)  # Q♥: the Americans'
    async with piloted(game, (160, 30)) as (app, pilot):
        await type_text(pilot, "activate baker")
        await settled(pilot)
        said = hint(app)
        assert "s1 Sherman Baker 1 · s2 Sherman Baker 2 · s3 Sherman Baker 3" in said, said
    game.close()


async def test_the_candidates_of_a_side_say_its_name(tmp_path):
    """``result`` in Linea di Tiro: Tab offers the sides by the ids it puts on the line,
    ``us  german``, which no pane shows (they say Combat Command B, Panzer-Lehr); the line
    under it says which is which, as for a figure (#48)."""

    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario breakout", "next", seed=3)
    async with piloted(game) as (app, pilot):
        await type_text(pilot, "result ")
        await settled(pilot)
        said = hint(app)
        assert said.startswith("us Combat Command B · german Panzer-Lehr · draw"), said
    game.close()


async def test_the_answer_to_a_command_that_ends_the_game_begins_with_the_result(tmp_path):
    """``end-game`` in Breaking News answered ``✓ #27 opened at the end: secret.dice =
    159ec1e6…``, the sealed dice's key and then fourteen secrets: the result was far past the
    row's edge.  What matters comes first: the game's result (#48)."""
    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        await type_text(pilot, "end-game")
        await press(pilot, "enter")
        assert demo.state.result
        said = hint(app)
        assert re.match(r"✓ #\d+ Game over: ", said), said
    demo.close()


async def test_an_emptied_line_says_the_last_answer_not_the_guide_of_what_was_erased(game):
    """Typing ``ne`` offers ``next``; erasing it leaves an empty line, and the hint under
    it says the last answer again (✓ or ✗), not the candidates of the erased word (#26)."""
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await type_text(pilot, "note first")
        await press(pilot, "enter")
        answer = hint(app)
        assert answer.startswith("✓") and "first" in answer
        await type_text(pilot, "ne")
        await settled(pilot)
        assert "next" in hint(app)
        await press(pilot, "backspace", "backspace")
        assert box.value == ""
        assert hint(app) == answer
        await type_text(pilot, "nobody")
        await press(pilot, "enter")
        refused = hint(app)
        assert refused.startswith("✗")
        await press(pilot, "ctrl+a", "ctrl+k")  # the refused line, erased
        assert box.value == ""
        assert hint(app) == refused


async def test_the_actions_filter_puts_the_command_named_first(tmp_path):
    """Ctrl+B, ``fire``, Enter: the fire form opens, not move's (whose help speaks of a
    fire team and came first in the list) (#26)."""
    from tui.screens.forms import ActionPicker

    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        await press(pilot, "ctrl+b")
        picker = screen_of(app, ActionPicker)
        await type_text(pilot, "fire")
        await settled(pilot)
        shown = picker.shown()
        assert shown[0] == "fire" and "move" in shown  # move is still found by its help
        await press(pilot, "enter")
        assert isinstance(app.screen, ActionForm) and app.screen.spec.name == "fire"
        await press(pilot, "escape")
        await press(pilot, "ctrl+b")
        await type_text(pilot, "react")  # several begin with it: the picker's order among them
        await settled(pilot)
        assert app.screen.shown()[0].startswith("react")
    demo.close()


async def test_the_actions_list_the_phases_own_first_in_the_order_tab_offers_them(tmp_path):
    """Ctrl+B in Breaking News' activation listed reveal, intelligence, board and negotiate
    first, and move and fire 12th and 23rd, under the list's edge: the phase's main
    commands come first, in the order its rules play them (§5.0), as on the empty line."""
    from tui.screens.forms import ActionPicker

    demo = new_game(tmp_path, "demo")
    assert demo.state.phase == "activation"
    main = list(demo.ruleset.phase("activation").commands)
    async with piloted(demo) as (app, pilot):
        await press(pilot, "ctrl+b")
        picker = screen_of(app, ActionPicker)
        assert picker.shown()[: len(main)] == main
        assert demo.complete("", "referee")[: len(main)] == main  # as Tab offers them
    demo.close()


async def test_enter_on_an_action_named_exactly_but_not_possible_now_says_why(tmp_path):
    """Ctrl+B, ``fire``, Enter at the initiative: fire is greyed (not before activation), and
    Enter says why rather than open the score form, whose help speaks of fire (#48)."""
    from tui.screens.forms import ActionPicker, allowed_now

    demo = opened(
        tmp_path / "bn.ft", "breaking-news", "scenario demo", "next", seed=3
    )  # the initiative: score may be given, fire not yet
    fire = next(s for s in demo.commands if s.name == "fire")
    why = allowed_now(fire, demo.state, "referee", demo.ruleset.domain)
    assert why  # greyed now
    async with piloted(demo) as (app, pilot):
        await press(pilot, "ctrl+b")
        picker = screen_of(app, ActionPicker)
        await type_text(pilot, "fire")
        await settled(pilot)
        assert picker.shown()[0] == "fire" and len(picker.shown()) > 1  # others speak of fire
        await press(pilot, "enter")
        assert app.screen is picker  # no other form opened
        said = picker.query_one("#picker-why")
        assert said.display and str(said.render()) == f"fire cannot be given now: {why}"
        await press(pilot, "backspace")  # the filter changes: the reason goes
        assert not said.display
        await press(pilot, "escape")
    demo.close()


async def test_the_chance_of_a_roll_is_seen_at_100x30(tmp_path):
    """At 100x30 a roll whose words wrap (Bassa Intensità's fire, its modifiers and
    rule) drew its dice as boxes and pushed the chance before the roll below the
    pane's edge: the dice go on one line where the boxes would not leave room (#26)."""
    from tui.panes.dice import DicePane

    game = opened(tmp_path / "bi.ft", "bassa-intensita", "scenario demo", "next dice=5,2", *["next"] * 5, seed=7)
    assert game.state.phase == "fire-veteran"
    game.execute("fire marra omar range=30 dice=3,7,8", role=REFEREE)
    async with piloted(game, settle=True) as (app, pilot):
        pane = app.screen.query_one(DicePane)
        drawn = "\n".join(strip.text for strip in pane.render_lines(pane.content_region.reset_offset))
        assert "needs 5 or less" in drawn
        assert "before the roll: 50.0% to roll 5 or less on 1d10" in drawn, drawn
    game.close()


async def test_a_refused_answer_to_the_dice_prompt_does_not_swallow_the_next(tmp_path):
    """A referee who types a command into the dice prompt, not seeing it (``nxet``), is
    refused; what he types next starts again (``3``), not ``nxet3`` (#26)."""
    from tui.plain import PlainInput

    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        prompt = await save_asked_at_the_table(pilot)
        await type_text(pilot, "nxet")
        await press(pilot, "enter")
        assert app.screen is prompt and "nxet" in str(prompt.query_one("#dice-error").render())
        await type_text(pilot, "3")
        assert prompt.query_one(PlainInput).value == "3"
        await press(pilot, "enter")
        assert not isinstance(app.screen, DicePrompt)
        assert not demo.state.units["bashir"].in_play  # the save's 3 fails (§9.0)
    demo.close()


async def test_the_dice_prompt_takes_keys_typed_in_a_burst_in_order(tmp_path):
    # tmux send-keys, a macro or a fast typist: Ctrl+U, the faces and Enter all
    # arrive before the first is handled.  Ctrl+U once acted after the faces
    # behind it, so Enter found an empty box ("you typed 0") and asked again.
    from textual import events

    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        prompt = await save_asked_at_the_table(pilot)
        for key in ["x", "ctrl+u", "3", "enter"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settled(pilot)
        assert not isinstance(app.screen, DicePrompt), str(prompt.query_one("#dice-error").render())
        assert not demo.state.units["bashir"].in_play  # the 3 was taken: the save fails (§8.0, §9.0)
    demo.close()


async def test_keys_typed_ahead_of_the_dice_prompt_are_its_faces(tmp_path):
    # A referee who knows what comes, or keys that arrive together (a slow network
    # over SSH, tmux send-keys): "next", Enter, the faces, Enter.  The faces once
    # went to the command line ("no command '6'"), the prompt opening after them.
    from tui.input_limits import BoundedInput, InputLimits
    from tui.terminal_parser import TerminalParser

    demo = new_game(tmp_path, "demo")  # turn 1's activation: next, next, and turn 2's initiative is rolled
    async with piloted(demo) as (app, pilot):
        await press(pilot, "f3")  # table dice
        handed = BoundedInput(app, InputLimits(), deliver=app.post_message, refuse=lambda why: None)
        handed.queue(list(TerminalParser().feed("next\rnext\rnext\r6 4\r3 2\r")))
        while handed._pump is not None:
            await settled(pilot)
        await settled(pilot)
        assert not isinstance(app.screen, DicePrompt)
        rolls = [line.event.roll for line in demo.log_lines(role="referee") if isinstance(line.event, ev.Rolled)]
        assert [r.faces for r in rolls[-2:]] == [(6, 4), (3, 2)]  # turn 2's initiative (§5.0), as typed
    demo.close()


@pytest.mark.parametrize("typed", ["help", "?", " HELP "])
async def test_help_typed_on_the_command_line_opens_the_help(game, typed):
    from tui.screens.help import HelpScreen

    async with piloted(game) as (app, pilot):
        before = game.log_length
        await type_text(pilot, typed)
        await press(pilot, "enter")
        assert isinstance(app.screen, HelpScreen)
        assert game.log_length == before  # nothing recorded, nothing refused


def test_no_ruleset_has_a_command_the_help_words_would_hide():
    """``help`` (``aiuto``) and ``?`` typed alone open the help: no command of any
    built-in ruleset may be named so, in either language."""
    from core.commands import names
    from core.game.builtins import builtin_commands
    from core.language.reader import reading
    from core.registry import BUILTIN, get_ruleset
    from tui.i18n import pgettext

    taken = set()
    with reading("it"):
        italian = pgettext("command", "help")
        for ruleset_id in BUILTIN:
            ruleset = get_ruleset(ruleset_id)
            for spec in [*ruleset.commands(), *builtin_commands(ruleset)]:
                taken |= {*names(spec, ruleset.domain), *spec.aliases}
    assert italian == "aiuto"
    assert {"next", "prossimo"} & taken  # the names are there to be compared
    assert not taken & {"help", "?", italian}


async def test_backspace_on_a_refused_line_takes_its_last_character_not_the_line(game):
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await type_text(pilot, "note hello!")
        await press(pilot, "shift+home")  # a whole line selected by hand: Backspace takes it all, as ever
        await press(pilot, "backspace")
        assert box.value == ""
        await type_text(pilot, "shoot nobody")
        await press(pilot, "enter")
        assert "✗" in hint(app) and box.value == "shoot nobody"
        await press(pilot, "backspace", "backspace")
        assert box.value == "shoot nobo"  # mended in place, a character at a time
        await type_text(pilot, "dy")
        await press(pilot, "enter")
        await press(pilot, "backspace")  # given back again: mended again
        assert box.value == "shoot nobod"


async def test_tab_offers_the_phase_as_its_rules_play_it_and_able_firers_first(tmp_path):
    """Bassa Intensità's convoy, the convoy moving (A.5.1): Tab on an empty line walks
    move, smoke, observe, fire, not aa first; Tab after ``fire`` offers the militia, who
    may fire at movers (BI-R050), before the convoy's men, whom it refuses now."""
    game = Game.new(tmp_path / "convoy.ft", "bassa-intensita", seed=11)
    play(game, "scenario convoy", "next dice=5,2", "next")
    assert (game.state.phase, game.state.active_side) == ("move-first", "convoy")
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        walked = []
        for _ in range(5):
            await press(pilot, "tab")
            walked.append(box.value)
        assert walked == ["move", "smoke", "observe", "fire", "aa"]
        await press(pilot, "ctrl+u")
        await type_text(pilot, "fire ")
        await settled(pilot)
        listed = hint(app).split()
        assert listed[:8] == ["abdi", "farah", "hassan", "puma", "truck", "gatti", "pinna", "russo"]
        await press(pilot, "tab")
        assert box.value == "fire abdi"
    game.close()
