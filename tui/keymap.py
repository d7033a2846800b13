"""The user's keys: the client's actions rebound from ``settings.json``'s ``keys`` (docs/files.md).

As posting, harlequin and lazygit take a keymap: an action's id (each binding of the
game screen has one, :func:`actions`) to the keys that run it, comma-separated in Textual's
names (``"help": "f1,ctrl+f"``, ``"undo": "ctrl+u"``).  The file is the user's, and is
checked as any input: an unknown id or a key that is not a key name is left out with
a notice, and the rest is applied (``App.set_keymap``).

Wherever the client names a key in words (the help, the command palette, a hint, a
notice), it names the key the binding has now, read by the binding's id (:func:`keys_of`),
as posting does: a key written in a sentence would be wrong once the user rebinds it.
"""

from __future__ import annotations

import dataclasses
import re

from textual.binding import Binding

from tui.i18n import N_, _
from tui.textual_internals import InApp, keymap

#: A key as Textual names it: ``f1``, ``ctrl+f``, ``colon``, ``right_square_bracket``, ``ctrl+shift+up``.
KEY = re.compile(r"[a-z0-9_]{1,32}(\+[a-z0-9_]{1,32}){0,3}")
#: Keys one action may have.
MAX_KEYS = 8
#: Textual's names of keys, as the client writes them (translated where they are words).
KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "plus": "+",
    "minus": "-",
    "space": N_("Space"),
    "colon": ":",
    "less_than_sign": "<",
    "greater_than_sign": ">",
    "left_curly_bracket": "{",
    "right_curly_bracket": "}",
    "equals_sign": "=",
    "escape": N_("Esc"),
    "enter": N_("Enter"),
    "pageup": N_("PgUp"),
    "pagedown": N_("PgDn"),
    "backslash": "\\",
    "underscore": "_",
    "right": N_("Right"),
    "left": N_("Left"),
    "up": N_("Up"),
    "down": N_("Down"),
    "home": N_("Home"),
    "end": N_("End"),
    "tab": N_("Tab"),
}
#: Keys Textual names by what a terminal sends for them: Ctrl+Space comes as NUL, ``ctrl+@``.
KEY_ALIASES = {"ctrl+@": "ctrl+space"}
#: The arrow keys, where a row is short of room (the replay bar).
ARROWS = {"left": "←", "right": "→", "up": "↑", "down": "↓"}


#: The game screen's keys (``tui.screens.game.GameScreen.BINDINGS``), by id: every key the
#: client names in words is read from here, with the keys the user's keymap gives an id.
GAME_BINDINGS = [
    # Every F-key has a Ctrl key too (terminals take some F-keys for
    # themselves, macOS needs Fn), shown first in the footer since it works
    # everywhere; tests/tui/test_tui_keys.py checks each has one and a palette entry.
    # Not Ctrl+G: that is BEL, which ends terminal escape sequences, so the
    # remnant of a cut one (a hostile paste) would press it.
    Binding("ctrl+f,f1", "help", N_("Help"), id="help"),
    Binding("ctrl+b,f2", "pick_action", N_("Actions"), id="actions"),
    Binding("ctrl+t,f3", "toggle_dice", N_("Table dice"), id="table-dice"),
    Binding("ctrl+r,f5", "open_replay", N_("Replay"), show=False, id="replay"),
    Binding("ctrl+o,f4", "report", N_("Report"), show=False, id="report"),
    Binding("ctrl+z", "undo", N_("Undo"), id="undo"),
    Binding("ctrl+y", "redo", N_("Redo"), show=False, id="redo"),
    Binding("ctrl+s,f6", "focus_pane('roster')", N_("Roster"), show=False, id="roster"),
    Binding("ctrl+l,f7", "focus_pane('log')", N_("Log"), show=False, id="log"),
    # Not the colon: a printable key typed in a pane goes to the command line, a colon too (GameScreen.on_key).
    Binding("ctrl+x,f8", "focus_pane('command')", N_("Command line"), show=False, id="command-line"),
    Binding("ctrl+n", "new_game", N_("New game"), show=False, id="new-game"),
    Binding("ctrl+g,f9", "whole_answer", N_("The last answer, whole"), show=False, id="whole-answer"),
    # Ctrl+_ (Ctrl+/ in most terminals): the letters left are the command line's editing keys.
    Binding("ctrl+underscore,f10", "keep_copy", N_("Keep my copy of the game"), show=False, id="keep-copy"),
    # Replay: the replay bar lists its keys, so the footer keeps to 80 columns.
    Binding("right", "step(1)", N_("Next event"), show=False, id="next-event"),
    Binding("left", "step(-1)", N_("Prev event"), show=False, id="prev-event"),
    Binding("right_square_bracket", "phase(1)", N_("Next phase"), show=False, id="next-phase"),
    Binding("left_square_bracket", "phase(-1)", N_("Prev phase"), show=False, id="prev-phase"),
    Binding("right_curly_bracket", "turn(1)", N_("Next turn"), show=False, id="next-turn"),
    Binding("left_curly_bracket", "turn(-1)", N_("Prev turn"), show=False, id="prev-turn"),
    Binding("t", "jump_turn", N_("Go to turn"), show=False, id="go-to-turn"),
    Binding("less_than_sign", "edge(-1)", N_("Start"), show=False, id="start"),
    Binding("greater_than_sign", "edge(1)", N_("End"), show=False, id="end"),
    Binding("space", "play", N_("Play/pause"), show=False, id="play-pause"),
    Binding("plus,equals_sign", "speed(1)", N_("Faster"), show=False, id="faster"),
    Binding("minus", "speed(-1)", N_("Slower"), show=False, id="slower"),
    Binding("escape", "leave_replay", N_("Leave replay"), show=False, id="leave-replay"),
    # As a pager's: back to the live game, or out of a replay opened alone (Esc, which
    # also clears a search, never quits).
    Binding("q", "quit_replay", N_("Leave replay, or quit a replay opened alone"), show=False, id="quit-replay"),
    Binding("w", "play_from_here", N_("Play from here (what-if)"), show=False, id="play-from-here"),
]


def key_label(keys: str) -> str:
    """Textual's comma-separated key names in words: ``ctrl+f,f1`` is ``Ctrl+F / F1``."""
    out = []
    for key in keys.split(","):
        parts = KEY_ALIASES.get(key, key).split("+")
        parts[-1] = _(KEY_NAMES[parts[-1]]) if parts[-1] in KEY_NAMES else parts[-1]
        if len(parts) > 1 and len(parts[-1]) == 1:
            parts[-1] = parts[-1].upper()  # Ctrl+G; a letter alone keeps its case (n and N differ)
        out.append("+".join(p.capitalize() if len(p) > 1 and p.islower() else p for p in parts))
    return " / ".join(out)


def actions() -> dict[str, str]:
    """Each action's id, and what it does (in English, as the help screen's source)."""
    return {b.id: b.description for b in GAME_BINDINGS if b.id}


def checked(keys: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The keymap to apply, and what was left out of ``keys`` and why."""
    known = actions()
    keymap, problems = {}, []
    for action, value in keys.items():
        shown = repr(action[:40])
        if action not in known:
            problems.append(
                _("keys: no action {action} (the actions: {known})").format(action=shown, known=", ".join(known))
            )
            continue
        names = [name.strip() for name in value.split(",")]
        if not 0 < len(names) <= MAX_KEYS or not all(KEY.fullmatch(name) for name in names):
            problems.append(
                _("keys: {action}: {keys} is not a list of key names (such as f1,ctrl+f)").format(
                    action=shown, keys=repr(value[:80])
                )
            )
            continue
        keymap[action] = ",".join(names)
    return keymap, problems


def bound(node: InApp, binding: Binding) -> Binding:
    """``binding`` as it is now: with the keys the keymap of ``node``'s app gives its id
    (``App.set_keymap``), else its own."""
    keys = keymap(node)
    if binding.id is None or binding.id not in keys:  # (a binding without an id no keymap can name)
        return binding
    return dataclasses.replace(binding, key=keys[binding.id])


def bound_keys(node: InApp, binding_id: str) -> list[str]:
    """The keys (Textual's names) of the game screen's binding ``binding_id`` as they are now; its
    first is the one every terminal sends (``GAME_BINDINGS``), where a hint has room for one."""
    (binding,) = [b for b in GAME_BINDINGS if b.id == binding_id]
    return bound(node, binding).key.split(",")


def keys_of(node: InApp, binding_id: str, *, first: bool = False) -> str:
    """The keys of the game screen's binding ``binding_id`` as they are now, in words (``Ctrl+F / F1``);
    ``first``: only the first (:func:`bound_keys`)."""
    keys = bound_keys(node, binding_id)
    return key_label(",".join(keys[:1] if first else keys))


def short_key(node: InApp, binding_id: str) -> str:
    """The first key of ``binding_id`` as a row short of room writes it: an arrow key as its arrow."""
    key = bound_keys(node, binding_id)[0]
    return ARROWS.get(key) or key_label(key)
