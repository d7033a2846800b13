"""``rule? WORDS`` in the Textual client (the SSH and browser seats run it too): the answer in
a notice, as text, nothing given; a question refused says how to ask (issue #76)."""

from __future__ import annotations

from playing import opened
from waiting import piloted, press, type_text

from core.log.views import REFEREE


async def _give(pilot, text: str) -> None:
    await type_text(pilot, text)
    await press(pilot, "enter")


async def test_a_rules_question_is_answered_in_a_notice_and_nothing_is_given(tmp_path):
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    before = game.log_length
    async with piloted(game, role=REFEREE) as (app, pilot):
        await _give(pilot, "rule? [b]can[/b] a suppressed man shoot back?")
        (notice,) = app._notifications
        assert notice.title == "rule?"
        lines = notice.message.split("\n")
        rule = game.ruleset.rules_map().get("SUP-2")
        said = rule.says.removesuffix(" (§10.0).")  # what the rule says first (#91), its cite with its name
        ruled = f" Ruling {rule.ruling} (docs/rulings.md)."  # and the ruling Fireteam reads it by
        assert lines[0] == f"{said}. Rule SUP-2 (§10.0): Effects, enforced.{ruled}", lines
        assert not notice.markup  # the question's words are never read as markup
        assert game.log_length == before
        # The line under the prompt never said the client's own word was no command.
        assert "no command" not in str(app.screen.query_one("#cmd-hint").render())
    game.close()


async def test_a_rules_question_without_words_says_how_to_ask(tmp_path):
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    async with piloted(game, role=REFEREE) as (app, pilot):
        await _give(pilot, "rule?")
        assert list(app._notifications) == []
        hint = str(app.screen.query_one("#cmd-hint").render())
        assert "rule? WORDS: a rules question" in hint, hint
    game.close()


async def test_the_guide_says_no_reading_word_is_a_typing_error(tmp_path):
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    async with piloted(game, role=REFEREE) as (app, pilot):
        for typed in ("rule? can a", "why 1", "? fire"):
            await type_text(pilot, typed)
            hint = str(app.screen.query_one("#cmd-hint").render())
            assert "no command" not in hint, (typed, hint)
            for _ in typed:
                await press(pilot, "backspace")
        await type_text(pilot, "rulez? can")
        assert "no command" in str(app.screen.query_one("#cmd-hint").render())  # a typo still is
    game.close()


async def test_an_answers_notice_goes_with_the_next_line_given(tmp_path):
    """The notice sat over the message line for its 30 s: the next command's refusal was cut
    under it (seen playing the demo: `why`, then `fire …` refused)."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    async with piloted(game, role=REFEREE) as (app, pilot):
        await _give(pilot, "rule? can a suppressed man shoot back?")
        assert len(app._notifications) == 1
        await _give(pilot, "fire nobody")
        assert list(app._notifications) == []
        await _give(pilot, "rule? can a suppressed man shoot back?")
        assert len(app._notifications) == 1  # a new answer still shows
    game.close()
