"""The browser door's own limits on connections that are not seats yet (docs/ssh.md, *Browser seats*).

A browser opening a link makes several ordinary HTTP connections at once (the
page, its stylesheets and scripts; Chromium keeps up to six per server) and
holds them open between requests.  Thirty phones on one venue's Wi-Fi, or every
browser behind a reverse proxy, come from one address.  Counted against the SSH
limits on logins (``tui.ssh.limits.Gate``: ten per address), they shut each
other out; and the SSH limits would count them against the SSH players too.

So the browser door counts its own: connections that are not a seat's
websocket yet, per address (``Limits.web_per_address``, room for a venue's
crowd behind one address) and in all (``Limits.web_total``, which keeps a flood
from taking the process's file descriptors), the last ``Limits.web_reserve`` of
those kept for an address with fewer than a browser's connections at once open
(a flood from a few addresses fills the rest and six each of the reserve, no more:
a browser from elsewhere still comes in, its page and its files).  Each connection
is short-lived anyway: its request's headers must come within ``Limits.web_request_s``, and
an idle keep-alive is closed after as long.  A websocket that becomes a seat
no longer counts here: the seats' own limits hold it (``terminals_per_seat``,
``web_seats_per_invitation``, the message rate).
"""

from __future__ import annotations

import logging

from tui.ssh.limits import Limits, PerAddress, QuietLog, address_of

#: The connections a browser opens to one server at once (Chromium's six: the page and its files):
#: an address with fewer open may take the places ``Limits.web_reserve`` keeps.
BROWSER_AT_ONCE = 6


class WebGate:
    """Browser connections that are not seats yet: refuses those over the web door's limits as they arrive."""

    def __init__(self, limits: Limits, log: logging.Logger) -> None:
        self.limits = limits
        self._open: dict[str, str] = {}  # peer -> its address
        self._per_address = PerAddress()
        self._quiet = QuietLog(log)

    @property
    def waiting(self) -> int:
        return len(self._open)

    def admit(self, peer: str) -> bool:
        """Whether the browser connection from ``peer`` may be served."""
        address = address_of(peer)
        limits = self.limits
        here = self._per_address[address]
        if here >= limits.web_per_address:
            self._quiet.warning(
                f"web address {address}",
                "browser connection refused from=%s: %d from this address are open and not seats (limit %d)",
                peer,
                here,
                limits.web_per_address,
            )
            return False
        if len(self._open) >= limits.web_total:
            self._quiet.warning(
                "web total",
                "browser connection refused from=%s: %d are open and not seats (limit %d)",
                peer,
                len(self._open),
                limits.web_total,
            )
            return False
        if here >= BROWSER_AT_ONCE and len(self._open) >= limits.web_total - limits.web_reserve:
            # The rest is kept for a browser newly come: a flood must not shut out a newcomer.
            self._quiet.warning(
                "web reserve",
                "browser connection refused from=%s: %d are open and not seats; the last %d of %d are kept for "
                "addresses with fewer than %d open",
                peer,
                len(self._open),
                limits.web_reserve,
                limits.web_total,
                BROWSER_AT_ONCE,
            )
            return False
        self._open[peer] = address
        self._per_address[address] += 1
        return True

    def closed(self, peer: str) -> None:
        """``peer``'s connection closed, or became a seat's websocket: it no longer counts."""
        address = self._open.pop(peer, None)
        if address is not None:
            self._per_address.release(address)
