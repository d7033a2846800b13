"""``confirm`` typed at a seat: the line carried to the table with the result's certificate digest.

A player types ``confirm`` (``conferma``); his seat, whatever its door (the client, an SSH or a
plain seat, a browser's terminal or plain page: each runs a line through :func:`with_digest`
before it submits it), computes the certificate ``fireteam certify`` would write for the save
now, and sends ``confirm DIGEST``: the engine records that digest in the ``Confirmed`` fact
(``core.game.confirmation``), so the player confirms one result, the one its certificate says.
The certificate covers the save before its first confirmation (``certificate.certified_part``):
the second player confirms the same digest as the first.  Computing it runs ``verify`` over the
save (about a second for a game of a hundred commands).

A confirmation counts in a league only from a seat bound to its player, by his key or his
invitation (``certificate.confirmed_sides``, issue #90): at a seat that is not (a single
table's, where whoever opens the client as a side could type it, or the referee's), the seat
refuses it before it is sent and tells the player to sign the certificate with his key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.game.confirmation import CONFIRM
from core.language.i18n import _
from core.refusal import Refused
from core.storage.errors import SaveError

if TYPE_CHECKING:
    from core.game.front import Front


def with_digest(game: Front, text: str, role: str, by: str) -> str:
    """``text`` as the seat ``by`` sends it: ``confirm`` alone given by a side's player once the
    game has ended, with the certificate's digest added; any other line as it is (the engine
    refuses a ``confirm`` out of its time with its rule).  Refused (ENG-9) at a seat not bound to
    a player of ``role``, and when the save gives no certificate (it does not verify: the reason
    ``certify`` gives)."""
    if not game.state.result or role not in game.state.sides:
        return text  # (every line before the end: nothing parsed here)
    try:
        parsed = game.parse(text, role)
    except Refused:
        return text
    if parsed.spec.name != CONFIRM or parsed.args.get("result"):
        return text
    from core.league import certificate  # (verify's machinery: only once a player confirms)

    bound = any(
        p.side == role and p.name == by and p.via in certificate.BOUND and by != role for p in game.reading.players()
    )
    if not bound:
        said = _("confirm counts only at your own seat (your key or invitation): here, sign with your SSH key instead")
        raise Refused(said, rule="ENG-9")

    try:
        cert, _verified = certificate.certify(game.path)
    except SaveError as e:
        raise Refused(_("no result to confirm: {why}").format(why=e), rule="ENG-9") from None
    return f"{CONFIRM} {certificate.digest(cert)}"
