"""``confirm`` typed at a seat: the line carried to the table with the result's certificate digest.

A player types ``confirm`` (``conferma``); his seat, whatever its door (the client, an SSH or a
plain seat, a browser's terminal or plain page: each runs a line through :func:`with_digest`
before it submits it), computes the certificate ``fireteam certify`` would write for the save
now, and sends ``confirm DIGEST``: the engine records that digest in the ``Confirmed`` fact
(``core.game.confirmation``), so the player confirms one result, the one its certificate says.
The certificate covers the save before its first confirmation (``certificate.certified_part``):
the second player confirms the same digest as the first.  Computing it runs ``verify`` over the
save (about a second for a game of a hundred commands).
"""

from __future__ import annotations

from core.game import Game
from core.game.confirmation import CONFIRM
from core.language.i18n import _
from core.refusal import Refused
from core.storage.savefile import SaveError


def with_digest(game: Game, text: str, role: str) -> str:
    """``text`` as the seat sends it: ``confirm`` alone given by a side's player once the game has
    ended, with the certificate's digest added; any other line as it is (the engine refuses a
    ``confirm`` out of its time with its rule).  Refused (ENG-9) when the save gives no
    certificate (it does not verify: the reason ``certify`` gives)."""
    if not game.state.result or role not in game.state.sides:
        return text  # (every line before the end: nothing parsed here)
    try:
        parsed = game.parse(text, role)
    except Refused:
        return text
    if parsed.spec.name != CONFIRM or parsed.args.get("result"):
        return text
    from core.league import certificate  # (verify's machinery: only once a player confirms)

    try:
        cert, _verified = certificate.certify(game.path)
    except SaveError as e:
        raise Refused(_("no result to confirm: {why}").format(why=e), rule="ENG-9") from None
    return f"{CONFIRM} {certificate.digest(cert)}"
