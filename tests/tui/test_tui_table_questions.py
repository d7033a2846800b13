"""Bassa Intensità's checks due are walked by ``next`` in one sequence of prompts, asking
only what the game cannot know (issue #48), and the table dice's prompt says the chance
and, for a roll read off a table, what each face means before the roll: in the Textual
client (Pilot) and the line client (plain mode, plain SSH seats)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playing import opened
from waiting import piloted, press, screen_of, settled, type_text

from core.game import Game
from core.ruleset import Refused
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.screens.dialogs import DicePrompt, QuestionPrompt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lines"))
from lines_support import Seat  # noqa: E402
from playing import names

from core.log.views import REFEREE

SIZE = (100, 30)
#: The militia a hit on Omar Haji, their leader, makes check morale (M6), after him (M7).
CHECKING = ("omar", "said", "yusuf", "karim", "tariq")


def elite_fire(path: Path) -> Game:
    """Bassa Intensità's demo, played on to the Elite tier's fire."""
    game = opened(path, "bassa-intensita", "scenario demo", "next dice=5,2", seed=3)
    for _ in range(4):
        game.execute("next", role=REFEREE)
    assert game.state.phase == "fire-elite"
    return game


def casualty(path: Path) -> Game:
    """The demo in the Elite tier's fire: Ferrante's first shot wounds Omar Haji, in heavy
    cover (1: a hit; damage 7: wounded); the second misses (10).  Five checks are due."""
    game = elite_fire(path)
    game.execute("fire ferrante omar range=10 heavy dice=1,7,10", role=REFEREE)
    assert all(game.state.units[u].has("morale-due") for u in CHECKING)
    return game


async def give(pilot, text: str) -> None:
    """Type ``text`` and press enter, each handled in turn."""
    await type_text(pilot, text)
    await press(pilot, "enter")


def title(screen) -> str:
    return str(screen.query_one(".title").render())


def shown(screen, selector: str) -> str:
    widget = screen.query_one(selector)
    return " ".join(widget.render_line(y).text.strip() for y in range(widget.size.height)).strip()


@pytest.mark.long
async def test_next_walks_every_check_due_in_one_sequence_of_prompts(tmp_path):
    game = casualty(tmp_path / "bi.ft")
    app = FireteamApp(game, role=REFEREE)
    keys = 0
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f3")  # table dice
        await give(pilot, "next")
        keys += 5
        seen = []
        while True:
            await settled(pilot)
            screen = app.screen
            if isinstance(screen, QuestionPrompt):
                seen.append(("asked", title(screen)))
                await press(pilot, "enter")  # none: the default, said in the prompt
                keys += 1
            elif isinstance(screen, DicePrompt):
                seen.append(("dice", title(screen).split(":")[0]))
                await press(pilot, "2", "enter")  # every check passes
                keys += 2
            else:
                break
        # Omar's cover came with the fire line: not asked again; his four men's is
        assert seen == [
            ("dice", "Omar Haji's morale (the check that is due)"),
            ("asked", "Said the marksman's cover for his morale check (BI-R181)"),
            ("dice", "Said the marksman's morale (the check that is due)"),
            ("asked", "Yusuf Ali's cover for his morale check (BI-R181)"),
            ("dice", "Yusuf Ali's morale (the check that is due)"),
            ("asked", "Karim Nur's cover for his morale check (BI-R181)"),
            ("dice", "Karim Nur's morale (the check that is due)"),
            ("asked", "Tariq Nur's cover for his morale check (BI-R181)"),
            ("dice", "Tariq Nur's morale (the check that is due)"),
        ]
        assert not any(game.state.units[u].has("morale-due") for u in CHECKING)
        assert game.state.phase == "fire-veteran"
        assert keys == 19  # one casualty: five checks at the table, not ~40 keys
    game.close()


async def test_a_cover_answer_is_checked_and_escape_cancels(tmp_path):
    game = casualty(tmp_path / "bi.ft")
    async with piloted(game) as (app, pilot):
        await give(pilot, "next")  # the game's dice: only the questions are asked
        prompt = screen_of(app, QuestionPrompt)
        assert title(prompt) == "Said the marksman's cover for his morale check (BI-R181)"
        answers = prompt.query_one("#question-answers")
        assert [answers.render_line(y).text.strip() for y in range(answers.size.height)] == [
            "none: in the open",
            "light: in light cover +1",
            "heavy: in heavy cover +2",
            "trench: a trench counts as heavy cover: +2",
        ]
        await give(pilot, "hedge")
        assert app.screen is prompt
        assert "'hedge' is not an answer here" in str(prompt.query_one("#question-error").render())
        await press(pilot, "escape")
        assert not isinstance(app.screen, QuestionPrompt | DicePrompt)
        assert game.state.units["said"].has("morale-due")  # nothing was recorded
    game.close()


@pytest.mark.long
async def test_the_dice_prompt_says_the_chance_and_what_each_face_means_before_the_roll(tmp_path):
    game = elite_fire(tmp_path / "bi.ft")
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")
        await give(pilot, "fire ferrante omar range=10 heavy")
        prompt = screen_of(app, DicePrompt)
        # Elite 6 + short range 1 - heavy cover 2 = 5
        assert shown(prompt, "#dice-chance") == "chance before the roll: needs 5 or less on 1d10: 50.0%"
        await press(pilot, "1", "enter")  # a hit: the damage, read off A.12.1's table
        prompt = app.screen
        assert title(prompt) == "Omar Haji's damage: 1d10"
        assert shown(prompt, "#dice-meanings") == (
            "what the faces mean: 1: near miss; 2–5: shocked; 6–8: wounded; 9: seriously wounded; 10: dead"
        )
        assert not prompt.query("#dice-chance")  # a table's row has no chance of its own
    game.close()


def test_plain_mode_walks_the_same_checks(tmp_path):
    """The line client (``fireteam --plain``, a plain SSH seat) asks the same questions in
    the same sequence; an empty line takes the default, a wrong answer is asked again."""
    game = casualty(tmp_path / "bi.ft")
    game.execute("table-dice on", role=REFEREE)
    seat = Seat(game)
    said = seat.say("next")
    # brief: what it needs, not the modifiers behind it (help and verbose on say them)
    assert said[0] == "Omar Haji's morale (the check that is due): 1d10, needs 4 or less; chance 40.0%."
    said = seat.say("2")
    assert said[:2] == [
        "Question: Said the marksman's cover for his morale check (BI-R181).",
        "Answers: none: in the open; light: in light cover +1; heavy: in heavy cover +2; "
        "trench: a trench counts as heavy cover: +2.",
    ]
    assert seat.client.prompt == "Your answer (an empty line: none; cancel cancels): "
    said = seat.say("hedge")
    assert any("'hedge' is not an answer here" in line for line in said)
    said = seat.say("h")  # heavy: Regular 4 + 3 - 2 + 2 = 7
    assert said[0].startswith("Said the marksman's morale (the check that is due): 1d10, needs 7 or less")
    seat.say("2")
    for _ in range(3):
        seat.say("")  # no cover
        seat.say("2")
    assert not any(game.state.units[u].has("morale-due") for u in CHECKING)
    assert game.state.phase == "fire-veteran"
    game.close()


async def test_odds_in_the_client_says_the_chances_and_gives_the_command_back(tmp_path):
    """``odds COMMAND``, the line client's reading word, in the Textual client too: the
    chance of the first roll, nothing given, the command back on the line to give."""
    game = elite_fire(tmp_path / "bi.ft")
    before = game.log_length
    async with piloted(game) as (app, pilot):
        await give(pilot, "odds fire ferrante omar range=10")
        hint = str(app.screen.query_one("#cmd-hint").render())
        assert hint.startswith("Needs 7 or less on 1d10: 70.0%. Modifiers: Elite Quality +6"), hint
        assert app.screen.query_one(CommandInput).value == "fire ferrante omar range=10"
        assert game.log_length == before  # nothing was given
    game.close()


async def test_the_odds_of_a_command_that_cannot_be_given_now_say_why(tmp_path):
    """``odds fire sanna karim`` in the Elite tier's fire answered "rolls no dice now, or
    cannot be given now" (#48): which, and why not, the referee had to find by giving it.
    The refusal is said, as giving it would say it; the command comes back to mend."""
    game = elite_fire(tmp_path / "bi.ft")
    with pytest.raises(Refused) as refused:  # Cpl Sanna is a Veteran: not his tier's fire yet
        game.execute("fire sanna karim range=30", role=REFEREE)
    names(refused.value, "BI-R061")
    why = str(refused.value)
    before = game.log_length
    async with piloted(game) as (app, pilot):
        await give(pilot, "odds fire sanna karim range=30")
        hint = str(app.screen.query_one("#cmd-hint").render())
        assert hint == f"✗ fire sanna karim range=30 cannot be given now: {why}", hint
        assert app.screen.query_one(CommandInput).value == "fire sanna karim range=30"
        assert game.log_length == before
    game.close()


@pytest.mark.long
async def test_linea_di_tiro_with_table_dice_asks_the_card_the_table_drew(tmp_path):
    """C.2.1 D2 (ruling LT-TABLE-DECK): F3, then next: the card is typed, as a keyboard
    types it; one already drawn is refused with why, and asked again."""
    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario demo", seed=5)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")
        await give(pilot, "next")
        prompt = screen_of(app, QuestionPrompt)
        assert title(prompt) == "the card the table drew (LT-R010)"
        await give(pilot, "ks")
        assert game.state.card == "K♠"
        await give(pilot, "next")
        await give(pilot, "ks")
        assert isinstance(app.screen, QuestionPrompt)
        error = str(app.screen.query_one("#question-error").render())
        assert error.startswith("K♠ cannot be the answer now: it is not in the pile"), error
        await give(pilot, "joker")  # the refused answer is selected: typing replaces it
        assert (game.state.turn, game.state.card) == (2, "Joker")
    game.close()


@pytest.mark.long
async def test_a_face_whose_meaning_names_it_is_not_named_twice(tmp_path):
    """Breaking News' secret objective die (§4.1): each outcome says its face already
    ("3: Regular marker 3 becomes a main objective too"); the prompt does not put
    "3: " before it again."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")
        await give(pilot, "objective-roll")
        prompt = screen_of(app, DicePrompt)
        meanings = shown(prompt, "#dice-meanings")
        assert "3: Regular marker 3 becomes a main objective too" in meanings
        assert "1: 1:" not in meanings and "6: 6:" not in meanings
    game.close()


@pytest.mark.long
async def test_the_card_prompt_gives_a_typed_example_and_shows_a_refusal_whole(tmp_path):
    """Linea di Tiro's card with table dice at 100x30: the box's example is typed as a
    keyboard types a card (``ah``, not ``A♥``), and the refusal of a card drawn already
    wraps over the rows it needs (it was cut at the box's edge, "drawn since the")."""
    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario demo", seed=5)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")
        await give(pilot, "next")
        assert isinstance(app.screen, QuestionPrompt)
        assert app.screen.query_one("Input").placeholder == "an answer, e.g. ah"
        await give(pilot, "kh")
        await give(pilot, "next")
        await give(pilot, "kh")
        prompt = screen_of(app, QuestionPrompt)
        said = str(prompt.query_one("#question-error").render())
        assert len(said) > 80 and said.startswith("K♥ cannot be the answer now")  # longer than a row
        error = prompt.query_one("#question-error")
        assert prompt.query_one("Vertical").content_region.contains_region(error.region)  # not past the box's edge
        assert "".join(shown(prompt, "#question-error").split()) == "".join(said.split())
    game.close()


async def test_the_odds_notice_is_withdrawn_when_its_commands_dice_prompt_opens(tmp_path):
    """#61: the odds notice stayed 20 s over the dice prompt of the command it was asked of."""
    game = elite_fire(tmp_path / "bi.ft")
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")  # table dice
        await give(pilot, "odds fire ferrante omar range=10")
        assert [n.title for n in app._notifications] == ["odds: fire ferrante omar range=10"]
        await press(pilot, "enter")  # the command given back, given: its dice asked at the table
        assert isinstance(app.screen, DicePrompt)
        assert [n.title for n in app._notifications] == []
    game.close()
