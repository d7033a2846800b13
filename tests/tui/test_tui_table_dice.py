"""Table dice is the referee's choice for his whole table (issue #61): his Ctrl+T records
it in the log, every screen follows it, and a side's screen may not change it."""

from __future__ import annotations

import pytest
from playing import opened
from skirmish import patrol_game
from textual import events
from waiting import hint, piloted, press, screen_lines, type_text, until

from core.game import Game
from core.language.reader import reading
from core.log import events as ev
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.panes.phase import PhasePane
from tui.screens.dialogs import DicePrompt
from tui.screens.game import GameScreen
from tui.screens.held import HeldScreen

SIZE = (100, 30)


def title(app) -> str:
    return app.screen._shown_title


def prompt_title(app) -> str:
    """The dice prompt's title; "" before the prompt is on the screen, and while it is composed."""
    titles = app.screen.query(".title") if isinstance(app.screen, DicePrompt) else ()
    return str(titles.first().render()) if titles else ""


def last_roll(game) -> ev.Roll:
    return [line.event.roll for line in game.log_lines(role=REFEREE) if isinstance(line.event, ev.Rolled)][-1]


@pytest.mark.long
async def test_the_referees_ctrl_t_turns_table_dice_on_at_every_screen(tmp_path):
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "next dice=6,6,1,1"))  # blue active
    referee, blue = FireteamApp(game, role=REFEREE), FireteamApp(game, role="blue", seat="anna")
    async with referee.run_test(size=SIZE) as ref_pilot, blue.run_test(size=SIZE) as blue_pilot:
        length = game.log_length
        await press(blue_pilot, "ctrl+t")  # a side's screen: not his to change
        assert hint(blue) == "✗ Table dice are the referee's choice for the whole table: now OFF"
        assert game.log_length == length and not blue.screen.table_dice
        await type_text(blue_pilot, "shoot cole ivan 20", "enter")  # off: the game rolls, nothing asked
        assert not isinstance(blue.screen, DicePrompt) and not last_roll(game).manual

        await press(ref_pilot, "ctrl+t")
        assert referee.screen.table_dice and "TABLE DICE" in title(referee)
        await until(blue_pilot, lambda: "TABLE DICE" in title(blue), "the side's screen follows the referee's choice")
        await press(blue_pilot, "ctrl+t")
        assert hint(blue) == "✗ Table dice are the referee's choice for the whole table: now ON"
        assert blue.screen.table_dice

        await type_text(blue_pilot, "shoot diaz kemal 20", "enter")  # on: the side types his own dice
        assert isinstance(blue.screen, DicePrompt)
        assert str(blue.screen.query_one(".title").render()) == "Pte Diaz's fire at Kemal Aydin: 2d6, needs 4+ per die"
        await press(blue_pilot, "5", "space", "1", "enter")
        await until(blue_pilot, lambda: not isinstance(blue.screen, DicePrompt), "the prompt closes")
        roll = last_roll(game)
        assert roll.faces == (5, 1) and roll.manual and "suppressed" in game.state.units["kemal"].status

        await press(ref_pilot, "f3")  # and off again, for everyone
        await until(blue_pilot, lambda: "TABLE DICE" not in title(blue), "the side's screen follows it off")
    game.close()


@pytest.mark.long
async def test_another_sides_roll_at_a_sides_seat_says_whose_player_has_the_dice(tmp_path):
    """The defender's save asked at the firer's seat (issue #61) says the defender's player
    rolls it; the firer's own roll does not; given these faces, this outcome."""
    lines = ("scenario demo", "next dice=3", "next dice=6,6,1,1", f"{TABLE_DICE} on")  # regulars active
    game = opened(tmp_path / "g.ft", "breaking-news", *lines, seed=3)
    async with piloted(game, role="regulars", seat="anna") as (app, pilot):
        await type_text(pilot, "fire conti bashir range=40", "enter")
        await until(pilot, lambda: isinstance(app.screen, DicePrompt), "the fire's prompt")
        assert prompt_title(app).startswith("Pte Conti's fire") and not app.screen.query("#dice-owner")
        await press(pilot, "6", "enter")  # a hit (needs 4+, §8.0)
        await until(pilot, lambda: "save" in prompt_title(app), "the save's prompt")
        assert prompt_title(app) == "Bashir Ali's save: 1d6, needs 5+"
        owner = str(app.screen.query_one("#dice-owner").render())
        assert owner == "Somali militia: their player rolls these dice and calls out the faces"
        await press(pilot, "4", "enter")  # the save fails (needs 5+)
        await until(pilot, lambda: game.state.units["bashir"].out, "the save's faces decide")
        assert last_roll(game).faces == (4,) and last_roll(game).manual
    game.close()


def held_said(app) -> str:
    return str(app.screen.query_one("#held-said").render()) if isinstance(app.screen, HeldScreen) else ""


def phase_line(app) -> str:
    """The phase pane's line under it, where every seat says whose dice are awaited."""
    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    return str(screen.query_one(PhasePane).border_subtitle or "")


def served_fire(tmp_path, seated: set[str]) -> Game:
    """A table whose seats can each be asked for their own dice (issue #61), regulars active."""
    lines = ("scenario demo", "next dice=3", "next dice=6,6,1,1", f"{TABLE_DICE} on")
    game = opened(tmp_path / "g.ft", "breaking-news", *lines, seed=3)
    game.seated = lambda: seated
    return game


SAVE = "Bashir Ali's save: 1d6, needs 5+"


@pytest.mark.long
async def test_the_defenders_save_is_asked_at_the_defenders_own_seat(tmp_path):
    """The firer's seat types his fire's dice; the defender's seat is prompted for the save and its
    faces decide; the firer's seat shows whose dice are awaited meanwhile (issue #61)."""
    game = served_fire(tmp_path, {"regulars", "irregulars"})
    firer, defender = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role="irregulars", seat="bea")
    async with firer.run_test(size=SIZE) as fp, defender.run_test(size=SIZE) as dp:
        await type_text(fp, "fire conti bashir range=40", "enter")
        await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt, at the firer's seat")
        assert prompt_title(firer).startswith("Pte Conti's fire")
        await press(fp, "6", "enter")  # a hit (needs 4+, §8.0)
        waiting = f"waiting for Somali militia's dice: {SAVE}"
        await until(fp, lambda: held_said(firer) == waiting, "the firer's seat says whose dice it waits for")
        await until(dp, lambda: prompt_title(defender) == SAVE, "the save asked at the defender's seat")
        assert not defender.screen.query("#dice-owner")  # his own roll
        # The firer's line may name what the defender may not see: whose command, not its words.
        shown = [str(w.render()) for w in defender.screen.query("Plain")]
        assert "command: given by Bersaglieri" in shown and not [s for s in shown if "conti" in s]
        assert not [s for s in shown if "typed so far" in s]  # the firer's 6 was typed at his seat, not here
        assert phase_line(firer) == phase_line(defender) == waiting
        await press(dp, "4", "enter")  # the save fails (needs 5+)
        await until(dp, lambda: game.state.units["bashir"].out, "the defender's faces decide")
        assert last_roll(game).faces == (4,) and last_roll(game).manual and game.awaiting.held is None
        await until(fp, lambda: not isinstance(firer.screen, HeldScreen), "the firer's seat waits no more")
        await until(fp, lambda: phase_line(firer) == "" and phase_line(defender) == "", "nothing awaited now")
    game.close()


@pytest.mark.long
async def test_the_defenders_box_says_what_hit_him_and_another_seat_s_faces_close_it(tmp_path):
    """Issue #77: the defender's box on a phone or SSH screen said only "given by Bersaglieri"; it says
    what hit him first: the hits, the shooter and his weapon (the plain seat, spoken, says "1 hit,
    Pte Conti.").  A seat sharing his side (bruno)
    types the save: the box closes, and its line says the faces given there, back at the command line."""
    game = served_fire(tmp_path, {"regulars", "irregulars"})
    defender = FireteamApp(game, role="irregulars", seat="bea")
    async with defender.run_test(size=SIZE) as dp:
        assert game.submit("fire conti bashir range=40", role="regulars", by="anna", faces=[6]).awaited  # a hit
        await until(dp, lambda: prompt_title(defender) == SAVE, "the save asked at the defender's seat")
        said = str(defender.screen.query_one("#dice-answers").render())
        assert said == "1 hit: Pte Conti's fire with Assault rifle aimed at Bashir Ali, 40 cm"
        game.answer_held(role="irregulars", by="bruno", faces=[4])  # the save fails (needs 5+)
        assert game.awaiting.held is None and game.state.units["bashir"].out
        await until(dp, lambda: isinstance(defender.screen, GameScreen), "the box closed")
        await until(dp, lambda: hint(defender) == "given by bruno: 4", "the faces given at bruno's seat")
    game.close()


@pytest.mark.long
async def test_the_referee_answers_when_the_defender_has_no_seat_and_esc_withdraws(tmp_path):
    game = served_fire(tmp_path, {"regulars", REFEREE})
    firer, referee = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role=REFEREE)
    async with firer.run_test(size=SIZE) as fp, referee.run_test(size=SIZE) as rp:
        await type_text(fp, "fire conti bashir range=40", "enter")
        await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt")
        await press(fp, "6", "enter")
        await until(rp, lambda: prompt_title(referee) == SAVE, "the referee is asked for the save")
        waiting = f"waiting for the referee to give Somali militia's dice: {SAVE}"
        await until(fp, lambda: held_said(firer) == waiting, "the firer's seat says so")
        length = game.log_length
        await press(fp, "escape")  # the firer withdraws it
        await until(rp, lambda: not isinstance(referee.screen, DicePrompt), "the referee's prompt closes")
        assert game.awaiting.held is None and game.log_length == length
        assert hint(firer) == "✗ cancelled: fire conti bashir range=40 (nothing was recorded)"

        await type_text(fp, "fire conti bashir range=40", "enter")  # again; this time the referee answers
        await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt")
        await press(fp, "6", "enter")
        await until(rp, lambda: prompt_title(referee) == SAVE, "the referee is asked again")
        await press(rp, "5", "enter")  # the save holds (needs 5+)
        await until(rp, lambda: game.awaiting.held is None and game.log_length > length, "recorded")
        assert last_roll(game).faces == (5,) and not game.state.units["bashir"].out
        assert game.history.issued(game.history.next_cmd - 1).by == "anna"
    game.close()


WAITING_REF = f"Ctrl+T: give them yourself · waiting for Somali militia's dice: {SAVE}"
WITHDRAWN = "✗ cancelled: fire conti bashir range=40 (nothing was recorded)"


@pytest.mark.long
async def test_the_referees_ctrl_t_takes_over_a_roll_asked_of_a_seat_or_withdraws_it(tmp_path):
    """The defender stays seated and never answers: the referee's Ctrl+T opens the held roll's
    prompt at his screen; his faces decide it (the defender's prompt closes), his Esc withdraws it."""
    game = served_fire(tmp_path, {"regulars", "irregulars", REFEREE})
    firer, defender = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role="irregulars", seat="bea")
    referee = FireteamApp(game, role=REFEREE)
    async with firer.run_test(size=SIZE) as fp, defender.run_test(size=SIZE) as dp, referee.run_test(size=SIZE) as rp:
        for faces in ([6], [5]):
            await type_text(fp, "fire conti bashir range=40", "enter")
            await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt")
            await press(fp, *map(str, faces), "enter")  # a hit (needs 4+, §8.0)
            await until(dp, lambda: prompt_title(defender) == SAVE, "the save asked at the defender's seat")
            await until(rp, lambda: phase_line(referee) == WAITING_REF, "the referee's line names his key")
            assert not isinstance(referee.screen, DicePrompt)
            await press(rp, "ctrl+t")  # not table dice off: the held roll is his to give now
            await until(rp, lambda: prompt_title(referee) == SAVE, "the save's prompt at the referee's screen")
            if faces == [6]:
                length = game.log_length
                await press(rp, "escape")  # withdrawn: nothing recorded
                await until(fp, lambda: game.awaiting.held is None and not isinstance(firer.screen, HeldScreen), "gone")
                await until(dp, lambda: not isinstance(defender.screen, DicePrompt), "the defender is asked no more")
                assert game.log_length == length
                await until(fp, lambda: hint(firer) == WITHDRAWN, "the firer's seat is told it was withdrawn")
            else:
                await press(rp, "4", "enter")  # the save fails (needs 5+)
                await until(rp, lambda: game.state.units["bashir"].out, "the referee's faces decide")
                await until(dp, lambda: not isinstance(defender.screen, DicePrompt), "the defender is asked no more")
                assert last_roll(game).faces == (4,) and game.history.issued(game.history.next_cmd - 1).by == "anna"
        assert referee.screen.table_dice  # Ctrl+T took the roll; table dice stayed on
    game.close()


def offered(app) -> set[str]:
    """The actions the footer offers (the keys it shows), as ``tui.panes.footer`` reads them."""
    return {active.binding.action for active in app.screen.active_bindings.values() if active.binding.show}


async def test_only_the_referees_key_bar_offers_table_dice(tmp_path):
    """A side's Ctrl+T only says whose choice table dice is: his footer does not offer it (#61)."""
    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    referee, blue = FireteamApp(game, role=REFEREE), FireteamApp(game, role="blue", seat="anna")
    async with referee.run_test(size=SIZE) as ref_pilot, blue.run_test(size=SIZE) as blue_pilot:
        await until(ref_pilot, lambda: isinstance(referee.screen, GameScreen), "the referee's game screen")
        await until(blue_pilot, lambda: isinstance(blue.screen, GameScreen), "the side's game screen")
        assert "toggle_dice" in offered(referee)
        assert "toggle_dice" not in offered(blue) and "help" in offered(blue)
        await press(blue_pilot, "ctrl+t")  # the key still tells the side which it is
        assert hint(blue) == "✗ Table dice are the referee's choice for the whole table: now OFF"
    game.close()


@pytest.mark.long
async def test_the_referees_short_screen_shows_whose_dice_are_awaited(tmp_path):
    """At 80x24 the phase pane drops its bottom border, and with it the line naming the held
    roll and the referee's key: he saw nothing while the defender's save was awaited (#61)."""
    game = served_fire(tmp_path, {"regulars", "irregulars", REFEREE})
    firer, referee = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role=REFEREE)
    async with firer.run_test(size=SIZE) as fp, referee.run_test(size=(80, 24)) as rp:
        await type_text(fp, "fire conti bashir range=40", "enter")
        await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt")
        await press(fp, "6", "enter")  # a hit (needs 4+, §8.0): the save is asked of the irregulars
        await until(rp, lambda: phase_line(referee) == WAITING_REF, "the referee's line says it")
        await until(rp, lambda: any("waiting for Somali militia" in row for row in screen_lines(referee)), "shown")
        await press(rp, "ctrl+t", "escape")  # withdrawn: the line goes, and the border with it
        await until(rp, lambda: not any("waiting for" in row for row in screen_lines(referee)), "not shown")
        assert screen_lines(referee)[4].startswith("╭─ Roster")  # the pane's bottom border gone again
    game.close()


@pytest.mark.long
def initiative_at_two_seats(tmp_path):
    """The demo with table dice on, both sides and the referee seated: the referee's ``next``
    asks each side for its initiative; the referee's app and the Bersaglieri's."""
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", "next dice=3", f"{TABLE_DICE} on", seed=3)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    return game, FireteamApp(game, role=REFEREE), FireteamApp(game, role="regulars", seat="anna")


async def test_a_sides_roll_of_the_referees_command_says_the_referee_gave_it(tmp_path):
    """The referee's ``next`` asks each side for its initiative: the side's prompt said "command:
    given by referee" ("dato da arbitro" in Italian), a name where the book's words are "the
    referee" (#61)."""
    game, referee, side = initiative_at_two_seats(tmp_path)
    async with referee.run_test(size=SIZE) as rp, side.run_test(size=SIZE) as sp:
        await type_text(rp, "next", "enter")
        await until(sp, lambda: prompt_title(side).startswith("Bersaglieri's initiative"), "the side's prompt")
        shown = [str(w.render()) for w in side.screen.query("Plain")]
        assert "command: given by the referee" in shown, shown
        await press(rp, "escape")  # the referee withdraws his command
        await until(sp, lambda: not isinstance(side.screen, DicePrompt), "the side is asked no more")
    game.close()


@pytest.mark.long
@pytest.mark.parametrize(
    ("lang", "key"), [("en", "Ctrl+T: give them yourself"), ("it", "Ctrl+T: dalli tu")], ids=["en", "it"]
)
async def test_the_referees_key_to_take_a_held_roll_is_whole_at_80_columns(tmp_path, lang, key):
    """The waiting line ended in "(Ct…" at 80x24: the key came after the roll, which the
    line's width cut. It comes first, whole, in both languages (#61)."""
    game = served_fire(tmp_path, {"regulars", "irregulars", REFEREE})
    # A reader of the test's own: the app's ``lang`` sets the reader it runs under, which was
    # otherwise the process's, left Italian for the tests after it.
    with reading(lang):
        firer, referee = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role=REFEREE, lang=lang)
        async with firer.run_test(size=SIZE) as fp, referee.run_test(size=(80, 24)) as rp:
            await type_text(fp, "fire conti bashir range=40", "enter")
            await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt")
            await press(fp, "6", "enter")  # a hit (needs 4+, §8.0): the save is asked of the irregulars
            await until(rp, lambda: phase_line(referee).startswith(key), "the referee's line leads with his key")
            await until(rp, lambda: any(key in row for row in screen_lines(referee)), "the key shown whole")
            await press(rp, "ctrl+t", "escape")
            await until(rp, lambda: game.awaiting.held is None, "withdrawn")
    game.close()


@pytest.mark.long
@pytest.mark.parametrize("key", ["ctrl+t", "f3"])
async def test_the_referees_key_takes_a_roll_his_own_next_holds_for_a_side(tmp_path, key):
    """Issue #91: the line under the phase pane said "Ctrl+T: give them yourself", but for a roll his own
    ``next`` held (each side's initiative here; a secret objective die, a morale test) the key did
    nothing: his held box took it, and only Esc, which withdraws the ``next``, did anything."""
    game, referee, side = initiative_at_two_seats(tmp_path)
    async with referee.run_test(size=SIZE) as rp, side.run_test(size=SIZE) as sp:
        await type_text(rp, "next", "enter")
        await until(rp, lambda: isinstance(referee.screen, HeldScreen), "the referee's held box")
        assert "Ctrl+T: give them yourself" in held_words(referee)
        await until(sp, lambda: prompt_title(side).startswith("Bersaglieri's initiative"), "asked at the side's seat")
        await press(rp, key)
        await until(rp, lambda: prompt_title(referee).startswith("Bersaglieri's initiative"), "his prompt for it")
        held = game.awaiting.held
        assert held is not None and held.asked == "regulars" and held.request is not None
        await press(rp, *(["6"] * held.request.count), "enter")
        await until(sp, lambda: not isinstance(side.screen, DicePrompt), "the side is asked no more")
        await until(rp, lambda: getattr(game.awaiting.held, "asked", "") == "irregulars", "the other side's")
        await until(rp, lambda: isinstance(referee.screen, HeldScreen), "his held box again")
        await press(rp, key)
        await until(rp, lambda: prompt_title(referee).startswith("Somali militia's initiative"), "his prompt again")
        again = game.awaiting.held
        assert again is not None and again.request is not None
        await press(rp, *(["1"] * again.request.count), "enter")  # (no tie: no roll again)
        await until(rp, lambda: game.awaiting.held is None, "the next went on with his faces")
        await until(rp, lambda: isinstance(referee.screen, GameScreen), "his game screen")
        rolls = [line.event for line in game.log_lines(role=REFEREE) if isinstance(line.event, ev.Rolled)]
        assert [r.roll.faces[0] for r in rolls[-2:]] == [6, 1] and all(r.roll.manual for r in rolls[-2:])
    game.close()


async def test_a_sides_held_box_offers_no_key_to_take_the_roll(tmp_path):
    """Only the referee may take a held roll: a side's box for his own command's held roll has no such line."""
    game = served_fire(tmp_path, {"regulars", "irregulars", REFEREE})
    firer = FireteamApp(game, role="regulars", seat="anna")
    async with firer.run_test(size=SIZE) as fp:
        await type_text(fp, "fire conti bashir range=40", "enter")
        await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt")
        await press(fp, "6", "enter")  # a hit: the save is asked of the irregulars
        await until(fp, lambda: isinstance(firer.screen, HeldScreen), "the firer's held box")
        assert not any("give them yourself" in line for line in held_words(firer))
        await press(fp, "ctrl+t")
        assert isinstance(firer.screen, HeldScreen) and game.awaiting.held is not None  # the box stays
        await press(fp, "escape")
    game.close()


def held_words(app) -> list[str]:
    return [str(w.render()) for w in app.screen.query("Plain")]


def command_line(app) -> str:
    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    return screen.query_one("#cmd-input").value


@pytest.mark.long
async def test_what_is_typed_while_a_command_is_held_is_kept_on_the_command_line(tmp_path):
    """The referee's ``next`` is held for a side's initiative; he types ``next`` and Enter at once:
    it was lost, unsaid. It is kept for his command line, the box saying so, not run (#61)."""
    game, referee, side = initiative_at_two_seats(tmp_path)
    async with referee.run_test(size=SIZE) as rp, side.run_test(size=SIZE) as sp:
        await type_text(rp, "next", "enter")
        await until(rp, lambda: isinstance(referee.screen, HeldScreen), "his command is held")
        length = game.log_length
        await type_text(rp, "nexy", "backspace", "t", "enter")
        kept = "kept on your command line, not run while this command waits: next"
        await until(rp, lambda: kept in held_words(referee), "said")
        assert game.log_length == length  # not run
        referee.post_message(events.Paste("one\ntwo"))  # refused whole, as the command line refuses it
        await until(rp, lambda: "✗ the paste holds 2 lines: a box takes one" in held_words(referee), "refused")
        referee.post_message(events.Paste(" 6,6"))
        await until(rp, lambda: f"{kept} 6,6" in held_words(referee), "a paste kept too")
        await press(rp, *["backspace"] * 4)
        await until(rp, lambda: kept in held_words(referee), "mended")
        await press(rp, "escape")  # withdrawn: the line holds what he typed, to run now
        await until(rp, lambda: game.awaiting.held is None and isinstance(referee.screen, GameScreen), "withdrawn")
        assert command_line(referee) == "next" and game.log_length == length
        await until(sp, lambda: not isinstance(side.screen, DicePrompt), "the side is asked no more")
    game.close()


async def test_a_seats_hint_about_its_command_goes_when_the_referee_undoes_it(tmp_path):
    """The phone's hint still read "✓ #8 hit, wounded…" after the referee undid #8 (#61)."""
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "next dice=6,6,1,1"))  # blue active
    async with piloted(game, role="blue", seat="anna") as (blue, pilot):
        await type_text(pilot, "note over the wall", "enter")
        await until(pilot, lambda: hint(blue).startswith("✓ #"), "his command's hint")
        game.execute("undo", role=REFEREE)  # another seat's undo
        await until(pilot, lambda: hint(blue) == "", "the hint about an undone command goes")
        await type_text(pilot, "note again", "enter")
        await until(pilot, lambda: hint(blue).startswith("✓ #"), "his command's hint")
        game.execute("note from the referee", role=REFEREE)  # a command of another seat, nothing undone
        await until(pilot, lambda: blue.screen._seen_length == game.log_length, "his screen follows the note")
        assert hint(blue).startswith("✓ #")
        await type_text(pilot, "note mine", "enter")
        mine = game.history.last_effective()
        await until(
            pilot, lambda: hint(blue).startswith(f"✓ #{game.reading.numbering('blue').shown(mine)}"), "his hint"
        )
        await type_text(pilot, "undo", "enter")  # his own undo says what it did, and it stays said
        await until(pilot, lambda: not game.history.is_live(mine), "undone")
        await until(pilot, lambda: blue.screen._seen_length == game.log_length, "his screen follows his undo")
        assert hint(blue).startswith("✓ #") and "undo" in hint(blue)
    game.close()
