"""The apps of one process share the CSS rules they parse (``tui.stylesheet``): a seat of ``fireteam serve`` does
not hold its own copy of the same rules; an app of another theme gets rules of its own colours."""

from __future__ import annotations

from skirmish import patrol_game
from textual.color import Color
from waiting import settled

from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.stylesheet import SharedStylesheet

SIZE = (100, 30)


def rule_ids(app: FireteamApp) -> list[int]:
    """The identities of the app's rule sets, in order."""
    return [id(rule) for rule in app.stylesheet.rules]


async def test_two_seats_share_their_rules_and_another_theme_parses_its_own(tmp_path):
    game = patrol_game(tmp_path / "shared.ft")
    first, second = FireteamApp(game, role="blue", seat="anna"), FireteamApp(game, role="red", seat="ivan")
    async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
        await settled(one)
        await settled(two)
        assert isinstance(first.stylesheet, SharedStylesheet) and isinstance(second.stylesheet, SharedStylesheet)
        mine = rule_ids(first)
        assert len(mine) > 10 and rule_ids(second) == mine  # every rule set the very same object
        background = second.screen.styles.background
        assert first.screen.styles.background == background

        other = next(t for t in second.available_themes if t != second.theme and "light" in t)
        second.theme = other
        await settled(two)
        # Its rules were parsed again, with its theme's colours; the first seat's stay as they were.
        assert not set(rule_ids(second)) & set(mine)
        assert rule_ids(first) == mine
        assert second.screen.styles.background != background
        assert first.screen.styles.background == background
        assert isinstance(second.screen.styles.background, Color)


def test_the_shared_stylesheet_takes_the_variables_textual_computed_for_the_app_not_computing_them_again(
    tmp_path, monkeypatch
):
    from textual.app import App

    from tui.textual_internals import css_variables

    game = patrol_game(tmp_path / "vars.ft")
    computed: list[dict[str, str]] = []
    compute = App.get_css_variables

    def counted(self):
        computed.append(compute(self))
        return computed[-1]

    monkeypatch.setattr(App, "get_css_variables", counted)
    app = FireteamApp(game, role=REFEREE)
    assert len(computed) == 1  # the theme's colours, computed once (~2 ms)
    assert isinstance(app.stylesheet, SharedStylesheet)
    assert css_variables(app.stylesheet) == computed[0] == compute(app)
    game.close()


def test_a_stylesheet_given_new_variables_parses_with_them_not_with_the_ones_it_keyed_before():
    # Its variables are keyed once per set (the sorted set and its digest kept): a new set
    # (Textual replaces the dict, as a theme changes) must be keyed again, or the CSS of a
    # widget first mounted after the change would get the old theme's colours.
    stylesheet = SharedStylesheet(variables={"ink": "#102030"})
    css = "Label { color: $ink; }"
    before = stylesheet.parse_rules(css, ("test", "ink"))
    stylesheet.set_variables({"ink": "#a0b0c0"})
    after = stylesheet.parse_rules(css, ("test", "ink"))
    assert before[0].styles.color == Color.parse("#102030")
    assert after[0].styles.color == Color.parse("#a0b0c0")
