"""``confirm``: a seated player confirms the game's result at his seat, where he has no key to
sign it with (issue #74; ``Confirmed``).

The line is ``confirm DIGEST``: the player types ``confirm`` and his seat adds the SHA-256 of the
result's certificate as ``fireteam certify`` would write it now (``core.league.atseat``), so a
confirmation binds one result.  The engine checks who and when, in this order (rule ENG-9,
docs/rulings.md "CORE-CONFIRM"; who gives it, ENG-1):

* a side's player confirms for his own side; the referee confirms no side's result (ENG-1);
* only once the game has ended (ENG-9);
* once a side (ENG-9);
* a side whose player the log names (``Seated``: the served table's seat, or ``players``) (ENG-9);
* the digest as a seat computes it: 64 hex digits (a mistyped line).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.language.i18n import _, scenario_words
from core.log import events as ev
from core.refusal import TYPING
from core.ruleset import Context, Refused

if TYPE_CHECKING:
    from core.game.front import Front

#: The command's name (the core's word; Italian ``conferma`` in the catalogue).
CONFIRM = "confirm"
#: A certificate's digest: the hex SHA-256 of its bytes.
DIGEST = re.compile(r"[0-9a-f]{64}")


def confirm(game: Front, ctx: Context, args: dict[str, str], by: str) -> None:
    """The ``Confirmed`` fact of ``ctx.role``'s player (the seat ``by``: where two share a side,
    the one who confirms), or Refused saying which rule stops it."""
    side = ctx.role
    if side not in ctx.state.sides:
        raise Refused(_("the referee confirms no side's result: each player confirms at his own seat"), rule="ENG-1")
    if not ctx.state.result:
        raise Refused(_("a result is confirmed once the game has ended: not yet"), rule="ENG-9")
    timeline = game.history.timeline()
    if any(type(e) is ev.Confirmed and e.side == side for e in timeline):
        said = _("{side} has confirmed this result already: a side confirms once")
        raise Refused(said.format(side=scenario_words(ctx.state.side_name(side))), rule="ENG-9")
    seated = [e for e in timeline if type(e) is ev.Seated and e.side == side]
    if not seated:
        said = _("the log names no player for {side}: the referee names him first (players SIDE=NAME)")
        raise Refused(said.format(side=scenario_words(ctx.state.side_name(side))), rule="ENG-9")
    digest = (args.get("result") or "").strip().lower()
    if not DIGEST.fullmatch(digest):
        said = _("confirm: your seat adds the certificate's digest (64 hex digits): type confirm alone at your seat")
        raise Refused(said, rule=TYPING)
    # The person who gives it, where the log names him for this side (two seats may share it);
    # else the side's player the log names last (a single table: the seat is the side's role).
    name = next((e.name for e in reversed(seated) if e.name == by), seated[-1].name)
    ctx.emit(ev.Confirmed(side=side, name=name, result=digest))
