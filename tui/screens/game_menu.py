"""What the game screen offers beside its panes, as it applies now: the help, the rules, the command
palette's entries, and which of the screen's actions each mode allows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, Protocol

from textual.binding import Binding, BindingType

from core.language.reader import LANGUAGE_NAMES, lang
from tui.commandline import CommandInput
from tui.i18n import N_, _
from tui.keymap import bound, key_label, keys_of
from tui.panes.log import LogPane, LogView
from tui.panes.roster import RosterPane
from tui.panes.rosterview import RosterView
from tui.screens.replay_bar import why_not_play_from_here
from tui.screens.seat import SeatScreen

if TYPE_CHECKING:
    from tui.screens.undo_redo import UndoRedo

#: The game screen's actions that only replay offers, those that only a live game offers, and those
#: only the user's own client offers (not a served table's seat).
REPLAY_ACTIONS = frozenset(
    {"step", "phase", "turn", "jump_turn", "edge", "play", "speed", "leave_replay", "quit_replay", "play_from_here"}
)
LIVE_ACTIONS = frozenset({"pick_action", "toggle_dice", "undo", "redo", "open_replay", "whole_answer"})
LOCAL_ACTIONS = frozenset({"new_game", "load_game"})


class MenuScreen(SeatScreen, Protocol):
    """The game screen, as its menu reads it."""

    BINDINGS: ClassVar[list[BindingType]]
    undo_redo: UndoRedo

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None: ...


def mode_allows(action: str, *, replay: bool, remote: bool) -> bool:
    """Whether the screen's ``action`` (its name, without arguments) applies in this mode."""
    if action in REPLAY_ACTIONS:
        return replay
    if action in LIVE_ACTIONS:
        return not replay
    if action in LOCAL_ACTIONS:
        return not remote
    return True


def _bindings(*groups: Iterable[BindingType]) -> list[Binding]:
    """The bindings of classes' ``BINDINGS``: every one of the client's is a Binding (Textual's type allows a tuple)."""
    return [b for group in groups for b in group if isinstance(b, Binding)]


def show_help(screen: MenuScreen, query: str = "") -> None:
    """The help screen; ``query`` searched there from the start (``help fire``)."""
    app = screen.app
    # The app's own keys are read from the app, so this screen need not import it.
    # Titles and descriptions stay English here: the help screen shows them in the reader's language.
    palette = Binding(app.COMMAND_PALETTE_BINDING, "", N_("Command palette: every action"))
    game_keys = [
        b
        for b in _bindings(screen.BINDINGS)
        if mode_allows(b.action.split("(")[0], replay=screen.replay, remote=screen.remote)
    ]
    sections = [
        (N_("Game"), game_keys),
        (N_("Anywhere"), [*_bindings(app.BINDINGS), palette]),
        (
            N_("Command line"),
            [*_bindings(CommandInput.BINDINGS), Binding("right", "", N_("Accept the greyed suggestion"))],
        ),
        (N_("Roster"), _bindings(RosterView.BINDINGS, RosterPane.BINDINGS)),
        (N_("Log"), _bindings(LogView.BINDINGS, LogPane.BINDINGS)),
    ]
    # Each with the keys it has now: the user's, for an id his keymap rebinds.
    keys = [(title, [bound(screen, b) for b in bindings]) for title, bindings in sections]
    from tui.screens.help import HelpScreen  # imported when first shown, not at the start

    app.push_screen(HelpScreen(keys, screen.game.commands, screen.game.ruleset, query))


def show_rules(screen: SeatScreen) -> None:
    from tui.screens.rules import RulesScreen  # imported when first shown, not at the start

    screen.app.push_screen(RulesScreen(screen.game.ruleset))


def palette_actions(screen: MenuScreen) -> list[tuple[str, str, str]]:
    """(name, help, action) for the command palette; only those that apply now.  An action's
    keys end its help, read from its binding as they are now (the user may have rebound them)."""
    undo, redo = screen.undo_redo.undo_preview(), screen.undo_redo.redo_preview()
    from tui.screens.help import HelpScreen  # (the palette is opened after the start)

    (rules,) = [b for b in _bindings(HelpScreen.BINDINGS) if b.id == "rules"]
    entries = [
        (_("Help"), _("every key and command"), "help"),
        (
            _("Rules"),
            _("every rule of the ruleset and what Fireteam does with it ({help}, then {rules})").format(
                help=keys_of(screen, "help"), rules=key_label(rules.key)
            ),
            "rules",
        ),
        (_("Undo"), _("take back {command}").format(command=undo) if undo else _("take back nothing"), "undo"),
        (_("Redo"), _("bring back {command}").format(command=redo) if redo else _("bring back nothing"), "redo"),
        (_("Actions"), _("pick an action from a list and fill in a form"), "pick_action"),
        (_("Table dice"), _("the referee's choice: real dice typed at every seat, or the game's"), "toggle_dice"),
        (
            _("The last answer, whole"),
            _("the command line's last answer, which its row cuts with …"),
            "whole_answer",
        ),
        (
            _("Keep my copy"),
            _("your side's copy of the game so far, to hold the referee's save against later"),
            "keep_copy",
        ),
        (_("Replay this game"), _("step through the game from the start"), "open_replay"),
        (_("Focus the roster"), _("move the keyboard to the roster"), "focus_pane('roster')"),
        (_("Focus the log"), _("move the keyboard to the action log"), "focus_pane('log')"),
        (_("Focus the command line"), _("move the keyboard to the command line"), "focus_pane('command')"),
        (_("Report"), _("the after-action report: turn by turn, losses, score, the dice's luck"), "report"),
        (_("Leave replay"), _("back to the live game"), "leave_replay"),
        (_("Next event"), _("replay: one event forward"), "step(1)"),
        (_("Previous event"), _("replay: one event back"), "step(-1)"),
        (_("Next phase"), _("replay: to the next phase"), "phase(1)"),
        (_("Previous phase"), _("replay: to the previous phase"), "phase(-1)"),
        (_("Next turn"), _("replay: to the next turn"), "turn(1)"),
        (_("Previous turn"), _("replay: to the previous turn"), "turn(-1)"),
        (_("Go to turn"), _("replay: jump to a turn"), "jump_turn"),
        (_("Play / pause"), _("replay: play at the chosen speed"), "play"),
        (_("Play from here"), _("replay: a what-if game, a new save from this step"), "play_from_here"),
        (_("New game"), _("choose a ruleset and scenario"), "new_game"),
        (_("Load game"), _("open a save from saves/"), "load_game"),
    ]
    by_action = {b.action: b for b in _bindings(screen.BINDINGS)}
    entries = [
        (name, f"{said} ({key_label(bound(screen, by_action[action]).key)})", action)
        if action in by_action
        else (name, said, action)
        for name, said, action in entries
    ]
    # The other languages, each named in itself (so a reader who cannot read this one finds his own).
    for code, name in LANGUAGE_NAMES.items():
        if code != lang():
            entries.append(
                (
                    _("Language: {name}").format(name=name),
                    _("show the client in {name} (Language, Lingua); remembered for next time").format(name=name),
                    f"language('{code}')",
                )
            )
    no_what_if = why_not_play_from_here(screen.game, screen.role, screen.remote)
    return [
        e
        for e in entries
        if screen.check_action(e[2].split("(")[0], ()) is not False and (e[2] != "play_from_here" or not no_what_if)
    ]
