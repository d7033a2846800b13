"""Redeeming an invitation's token: a browser let in, or an SSH key bound to the seat in the
seats file (the table process alone does it: it alone writes the store and the seats file)."""

from __future__ import annotations

import logging
import time

import asyncssh

from tui.ssh.host.serverlog import escaped
from tui.ssh.invitations.store import Grant, Invitation, InvitationRefused, Invitations, InvitationsError
from tui.ssh.seatsfile import Seats, SeatsError, SeatsFile, append_key, seats_in_force


def redeem_invitation(
    invitations: Invitations | None,
    seats: SeatsFile | Seats,
    log: logging.Logger,
    token: str,
    peer: str,
    *,
    key: asyncssh.SSHKey | None = None,
) -> Grant:
    """Use an invitation's token: a browser's or an SSH ``key``'s, which is bound to
    the seat in the seats file.  Only the table process calls this (it alone writes the store and the seats file).

    Raises ``InvitationRefused``, saying why for the log (the client is told nothing of it).
    """
    if invitations is None:
        raise InvitationRefused("this server takes no invitations")

    def can_bind(inv: Invitation) -> None:
        assert key is not None
        if not isinstance(seats, SeatsFile):
            raise InvitationRefused("there is no seats file to bind a key in")
        try:
            on_disk = seats.as_on_disk()
        except SeatsError as e:
            raise InvitationRefused(f"the seats file has a mistake, so no key is bound to it: {e}") from None
        if on_disk.by_name(inv.seat) is None:
            raise InvitationRefused(f"invitation {inv.id}: there is no seat {inv.seat!r} in the seats file")
        if (owner := on_disk.seat_of(key.public_data)) is not None:
            raise InvitationRefused(f"the key already belongs to seat {owner.name!r}")

    def bind(inv: Invitation) -> None:
        assert key is not None and isinstance(seats, SeatsFile)  # (``can_bind`` said so)
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        note = f"bound by invitation {inv.id} on {when}, from {escaped(peer)}"
        try:
            append_key(seats.path, inv.seat, key, note)
        except (SeatsError, OSError) as e:
            raise InvitationRefused(f"could not bind the key: {e}") from None

    try:
        if key is not None:
            grant = invitations.bind(token, key, can_bind, bind)
            log.info(
                "invitation %s bound a key to seat=%s from=%s key=%s",
                grant.invitation,
                grant.seat,
                peer,
                key.get_fingerprint(),
            )
        else:
            # A browser sits in the seat as the seats file has it: with no such seat there it could
            # not sit, so nothing of the invitation is used (an SSH key's bind checks the same).
            inv = invitations.admitting(token)
            if not inv.spectators and seats_in_force(seats).by_name(inv.seat) is None:
                raise InvitationRefused(f"invitation {inv.id}: there is no seat {inv.seat!r} in the seats file")
            grant = invitations.join(token)
            if grant.cookie:
                log.info(
                    "invitation %s let in browser %s seat=%s from=%s", grant.invitation, grant.browser, grant.seat, peer
                )
    except InvitationsError as e:
        log.error("invitation refused from=%s: %s", peer, e)
        raise InvitationRefused(str(e)) from None
    return grant
