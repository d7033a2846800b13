"""A seat's share of its command's sealed dice, as the table takes it (docs/secrets.md, "Sealed dice").

A share is fixed whole by the seat before the host sees it: its random bytes, the key's
commitment it saw (``saw``) and its own count of the shares its commands rolled (``nonce``:
1, 2, 3…, per seat name, the command's ``Issued.by``).  The table takes a share only if it
names a key, if the key is still the one it saw (``Game``'s check, at the roll),
and if its count is the seat's next one: not one its commands already rolled (used), nor
one past them (skipped: a count the host could choose from).  What the share is for, its
command, is bound by the roll's derivation (:func:`core.dice.faces.derive_share`), not chosen: the
command's name and arguments (:func:`command_digest`), whatever the spelling.

The seat's counts are read from the file (``SharedRoll.nonce``, undone commands too), so a
table opened again after a crash expects the same next count as before; a command that rolled
nothing used no count.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from core.dice.faces import Share
from core.language.i18n import _
from core.log import events as ev
from core.refusal import Refused

if TYPE_CHECKING:
    from core.commands import Parsed


def command_digest(parsed: Parsed) -> str:
    """What a share is for: the SHA-256 (hex) of its command's name and arguments as the table read
    them (``NAME|ARGUMENTS``, the arguments sorted by name), so the same command spelt otherwise (the
    line given again with its answers) is the same, and another command is not."""
    said = f"{parsed.spec.name}|{sorted(parsed.args.items())!r}"
    return hashlib.sha256(said.encode()).hexdigest()


class Counts:
    """Each seat's highest count of a share its commands rolled, in a file (its sealed rolls, undone too)."""

    def __init__(self, events: list[ev.Event]) -> None:
        self._last: dict[str, int] = {}
        self.took(events)

    def took(self, events: list[ev.Event]) -> None:
        """Count the shares that ``events`` (a command just written) rolled."""
        for e in events:
            if isinstance(e, ev.SharedRoll) and e.nonce > self._last.get(e.by, 0):
                self._last[e.by] = e.nonce

    def next(self, by: str) -> int:
        """The count seat ``by``'s next share must name (1 for its first)."""
        return self._last.get(by, 0) + 1


def check_share(share: Share, expected: int) -> None:
    """Refuse a share a sealed roll may not take: one that names no key (a page from before, or a
    share whose seal a proxy stripped: the table would otherwise roll it with whatever key is in
    force when the command comes, which the host can seal again after he saw the share), or one
    whose count is not the seat's next (``expected``).  A share that names no count is taken as the
    seat's next: the one count the table takes, so nothing is left to choose."""
    if share.saw is None:
        raise Refused(
            _(
                "this share of the dice names no key (a page older than the table, or a share changed on "
                "its way); reload the page and give the command again"
            ),
            rule="ENG-5",
        )
    if share.nonce is None:
        return
    if share.nonce < expected:
        said = _("this share of the dice (number {nonce}) was used before; give the command again")
        raise Refused(said.format(nonce=share.nonce), rule="ENG-5")
    if share.nonce > expected:
        said = _("this share of the dice is number {nonce}, the table expects {expected}; give the command again")
        raise Refused(said.format(nonce=share.nonce, expected=expected), rule="ENG-5")
