"""What the game screen offers beside its panes: the help, the rules, the command palette's
entries and the reader's language (``GameScreen`` mixes this in)."""

from __future__ import annotations

from textual.binding import Binding

from core.game.front import Front
from core.language.reader import LANGUAGE_NAMES, lang
from tui.commandline import CommandInput
from tui.i18n import N_, _
from tui.keymap import bound, key_label, keys_of
from tui.panes.log import LogPane, LogView
from tui.panes.roster import RosterPane
from tui.panes.rosterview import RosterView


class GameMenu:
    """The help, the rules and the palette's entries, as they apply to the screen now."""

    game: Front

    def action_help(self, query: str = "") -> None:
        """The help screen; ``query`` searched there from the start (``help fire``)."""
        # The app's own keys are read from the app, so this screen need not import it.
        # Titles and descriptions stay English here: the help screen shows them in the reader's language.
        palette = Binding(self.app.COMMAND_PALETTE_BINDING, "", N_("Command palette: every action"))
        sections = [
            (N_("Game"), [b for b in self.BINDINGS if self._binding_applies(b)]),
            (N_("Anywhere"), [*self.app.BINDINGS, palette]),
            (N_("Command line"), [*CommandInput.BINDINGS, Binding("right", "", N_("Accept the greyed suggestion"))]),
            (N_("Roster"), RosterView.BINDINGS + RosterPane.BINDINGS),
            (N_("Log"), LogView.BINDINGS + LogPane.BINDINGS),
        ]
        # Each with the keys it has now: the user's, for an id his keymap rebinds.
        keys = [(title, [bound(self, b) for b in bindings]) for title, bindings in sections]
        from tui.screens.help import HelpScreen  # imported when first shown, not at the start

        self.app.push_screen(HelpScreen(keys, self.game.commands, self.game.ruleset, query))

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen  # imported when first shown, not at the start

        self.app.push_screen(RulesScreen(self.game.ruleset))

    def _binding_applies(self, b) -> bool:
        action = b.action.split("(")[0]
        if action in self.REPLAY_ACTIONS:
            return self.replay
        if action in self.LIVE_ACTIONS:
            return not self.replay
        if action in self.LOCAL_ACTIONS:
            return not self.remote
        return True

    def palette_actions(self) -> list[tuple[str, str, str]]:
        """(name, help, action) for the command palette; only those that apply now.  An action's
        keys end its help, read from its binding as they are now (the user may have rebound them)."""
        undo, redo = self.undo_preview(), self.redo_preview()
        from tui.screens.help import HelpScreen  # (the palette is opened after the start)

        (rules,) = [b for b in HelpScreen.BINDINGS if b.id == "rules"]
        entries = [
            (_("Help"), _("every key and command"), "help"),
            (
                _("Rules"),
                _("every rule of the ruleset and what Fireteam does with it ({help}, then {rules})").format(
                    help=keys_of(self, "help"), rules=key_label(rules.key)
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
        by_action = {b.action: b for b in self.BINDINGS}
        entries = [
            (name, f"{said} ({key_label(bound(self, by_action[action]).key)})", action)
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
        return [
            e
            for e in entries
            if self.check_action(e[2].split("(")[0], ()) is not False
            and (e[2] != "play_from_here" or not self._why_not_play_from_here())
        ]

    def action_language(self, code: str) -> None:
        set_language = getattr(self.app, "set_language", None)
        if set_language is not None and code in LANGUAGE_NAMES:
            set_language(code)
