"""The user's keys: the client's actions rebound from ``settings.json``'s ``keys`` (docs/files.md).

As posting, harlequin and lazygit take a keymap: an action's id (each binding of the
game screen has one, ``ACTIONS``) to the keys that run it, comma-separated in Textual's
names (``"help": "f1,ctrl+f"``, ``"undo": "ctrl+u"``).  The file is the user's, and is
checked as any input: an unknown id or a key that is not a key name is left out with
a notice, and the rest is applied (``App.set_keymap``).
"""

from __future__ import annotations

import re

from tui.i18n import _

#: A key as Textual names it: ``f1``, ``ctrl+f``, ``colon``, ``right_square_bracket``, ``ctrl+shift+up``.
KEY = re.compile(r"[a-z0-9_]{1,32}(\+[a-z0-9_]{1,32}){0,3}")
#: Keys one action may have.
MAX_KEYS = 8


def actions() -> dict[str, str]:
    """Each action's id, and what it does (in English, as the help screen's source)."""
    from tui.screens.game import GameScreen

    return {b.id: b.description for b in GameScreen.BINDINGS if b.id}


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
