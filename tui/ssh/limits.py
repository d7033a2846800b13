"""The limits that keep one peer from stalling or dropping the table (docs/ssh.md, *Running on a public address*).

Every limit is here, with its default, in :class:`Limits`; ``fireteam serve``
lets the organiser change the ones he may want to (``tui.ssh.main``), and
the seat workers get the same values from the table process.  The helpers
below apply them: a gate for connections that have not logged in yet, and a
log that cannot itself be flooded.  A seat's input is bounded as the local
client's is, by ``tui.input_limits``.
"""

from __future__ import annotations

import argparse
import logging
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from core.language.i18n import N_
from tui.input_limits import InputLimits, TokenBucket  # noqa: F401  (TokenBucket: the web door's and the server's too)
from tui.ssh.language import _

_TYPED = InputLimits()


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """Every limit of the server, with its default (msgspec: the workers receive it as JSON)."""

    #: Connections not logged in yet, from one address and in all (OpenSSH's MaxStartups).
    unauth_per_address: int = 10
    unauth_total: int = 100
    #: Past ``unauth_start`` connections not logged in, a new one is refused at random, from
    #: ``unauth_rate`` per cent up to every one at ``unauth_total`` (OpenSSH's MaxStartups
    #: ``start:rate:full``, its random early drop, 10:30:100 by default as OpenSSH's).
    unauth_start: int = 10
    unauth_rate: int = 30
    #: Seconds a connection has to log in (OpenSSH's LoginGraceTime).
    login_grace_s: float = 60.0
    #: Past ``unauth_start`` (or its address's limit), seconds a connection has to begin
    #: authenticating (its client to ask for a user) before it is closed: a flood of idle
    #: connections is cleared at this pace, not at ``login_grace_s``'s.
    auth_grace_s: float = 5.0
    #: Past ``unauth_start``, seconds a connection that began authenticating has to finish: a
    #: flood that finishes the key exchange and then stalls is cleared at this pace, not at
    #: ``login_grace_s``'s (its address counts a penalty, as for an idle one).
    crowded_login_grace_s: float = 10.0
    #: An address whose connection was closed so is refused for this many seconds more each
    #: time, up to ``penalty_max_s`` (OpenSSH's PerSourcePenalties).
    penalty_s: float = 1.0
    penalty_max_s: float = 10.0
    #: Sessions (terminals and commands) open at once on one connection (OpenSSH's MaxSessions).
    sessions_per_connection: int = 4
    #: Terminals one seat has open at once, over all its connections.
    terminals_per_seat: int = 4
    #: A seat's input: characters per second it may send on average, and in one burst; key
    #: events read but not yet handled by its app; characters typed on one line (a command).
    #: By default the local client's own (``tui.input_limits``).
    input_rate: float = _TYPED.rate
    input_burst: int = _TYPED.burst
    input_backlog: int = _TYPED.backlog
    line_length: int = _TYPED.line_length
    #: The largest terminal drawn; a client claiming more is drawn this size.
    max_columns: int = 500
    max_rows: int = 200
    #: Seconds a window-change waits for the next, so a stream of them is one redraw; and the
    #: redraws window changes may cause a second, on average and at once (a client sending
    #: thousands of them a second must not take the loop from the other seats).
    resize_delay_s: float = 0.05
    resize_rate: float = 4.0
    resize_burst: int = 8
    #: Window-change requests one connection may send a second, on average and at once: far
    #: more than dragging a window's corner sends, while each request still costs its worker's
    #: loop the packet's decryption.  A connection over it is a misbehaving client: it is
    #: disconnected, saying why, and its address counts a penalty (as in ``Gate``).
    window_change_rate: float = 100.0
    window_change_burst: int = 1000
    #: Bytes a spectator may leave unsent before the frames of the shared screen skip him
    #: (``tui.ssh.seating.sharedscreen``): he is sent the whole screen again once they drain.
    spectator_buffer: int = 256 * 1024
    #: Seconds a spectator may stay behind like that before he is cut off.
    spectator_behind_s: float = 30.0
    #: A seat worker's event loop that has not turned for this long is hung: it is replaced.
    worker_hang_s: float = 120.0
    #: A browser's connection: seconds to send a request's headers (and the TLS handshake), or between two
    #: requests, before it is closed (a websocket is kept alive by pings instead).
    web_request_s: float = 10.0
    #: A browser's connections that are not a seat yet (the page, its files, keep-alives): from one
    #: address, and in all (``tui.ssh.web.gate``; never counted against the SSH limits above).  Room for
    #: a venue's crowd behind one address: thirty phones open up to six each at once.
    web_per_address: int = 256
    web_total: int = 768
    #: The last of ``web_total``'s places, kept for an address with fewer open than a browser opens at
    #: once (``tui.ssh.web.gate.BROWSER_AT_ONCE``, 6): while a flood from a few addresses fills the door, a
    #: browser from another still comes in (each flooder takes six of them at most: a flood from a
    #: sixth as many addresses as places fills them too).
    web_reserve: int = 64
    #: Browser seats one invitation's link holds open at once (a spectator link passed round a club).
    web_seats_per_invitation: int = 64
    #: The largest websocket message a browser may send, in bytes (a paste of a whole burst of input fits).
    web_message_bytes: int = 64 * 1024
    #: Websocket messages a browser may send a second, on average and at once (keys, resizes, pings).
    web_message_rate: float = 200.0
    web_message_burst: int = 400
    #: Websocket messages a browser may send a second, on average and at once, before it is cut off:
    #: past ``web_message_rate`` its messages are dropped, but each is still received in its worker's
    #: loop, at the other seats' cost; far past it, a browser is misbehaving (no page of ours sends
    #: that many) and is disconnected, saying why in the log, as an SSH client flooding window changes.
    web_cutoff_rate: float = 1000.0
    web_cutoff_burst: int = 2000
    #: Offer SHA-1 key exchange, MACs and ``ssh-rsa`` signatures (off, as in current OpenSSH).
    sha1: bool = False

    def clamped(self, width: int, height: int) -> tuple[int, int]:
        """A terminal's size as it is drawn: no larger than ``max_columns`` by ``max_rows``."""
        return min(width, self.max_columns), min(height, self.max_rows)


#: The limits ``fireteam serve`` lets the organiser set: option, field, help.
_OPTIONS = (
    ("--max-unauth-per-address", "unauth_per_address", N_("connections not logged in yet from one address")),
    ("--max-unauth", "unauth_total", N_("connections not logged in yet, in all")),
    (
        "--max-unauth-start",
        "unauth_start",
        N_("connections not logged in yet past which some are refused at random"),
    ),
    ("--max-unauth-rate", "unauth_rate", N_("the per cent of new connections refused at random past that")),
    ("--login-grace", "login_grace_s", N_("seconds a connection has to log in")),
    ("--auth-grace", "auth_grace_s", N_("seconds a connection has to begin logging in, past those")),
    ("--penalty", "penalty_s", N_("seconds an address is refused for each connection closed so")),
    ("--sessions-per-connection", "sessions_per_connection", N_("sessions open at once on one connection")),
    ("--terminals-per-seat", "terminals_per_seat", N_("terminals a seat has open at once")),
    ("--max-web-per-address", "web_per_address", N_("browser connections not seats yet from one address")),
    ("--max-web", "web_total", N_("browser connections not seats yet, in all")),
    ("--web-reserve", "web_reserve", N_("places of those kept for an address with fewer than 6 open")),
    ("--web-seats-per-invitation", "web_seats_per_invitation", N_("browser seats one invitation holds at once")),
    ("--input-rate", "input_rate", N_("characters a second a seat may type, on average")),
    ("--input-burst", "input_burst", N_("characters a seat may type at once")),
    ("--line-length", "line_length", N_("characters on one command line")),
    ("--worker-hang", "worker_hang_s", N_("seconds a seat worker's loop may stall before it is replaced")),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``fireteam serve``'s options for the limits (docs/ssh.md, *Running on a public address*)."""
    defaults = Limits()
    from core.folders import doc

    group = parser.add_argument_group(_("limits (see {doc}, Running on a public address)").format(doc=doc("ssh.md")))
    for option, name, text in _OPTIONS:
        default = getattr(defaults, name)
        group.add_argument(
            option,
            dest=f"limit_{name}",
            type=type(default),
            default=default,
            metavar="N",
            help=f"{_(text)} ({default})",
        )
    group.add_argument(
        "--sha1",
        action="store_true",
        help=_("also offer SHA-1 key exchange, MACs and ssh-rsa signatures (old clients)"),
    )


def from_args(args: argparse.Namespace) -> Limits:
    """The limits given on the command line (each must be positive); the defaults for those not given."""
    defaults = Limits()
    values = {name: getattr(args, f"limit_{name}", getattr(defaults, name)) for _option, name, _text in _OPTIONS}
    for option, name, _text in _OPTIONS:
        if values[name] <= 0:
            raise ValueError(_("{option} must be more than 0").format(option=option))
    if values["web_reserve"] >= values["web_total"]:
        raise ValueError(_("{reserve} must be less than {total}").format(reserve="--web-reserve", total="--max-web"))
    return Limits(**values, sha1=getattr(args, "sha1", False))


def input_limits(limits: Limits) -> InputLimits:
    """The bounds on what a seat types."""
    return InputLimits(
        rate=limits.input_rate, burst=limits.input_burst, backlog=limits.input_backlog, line_length=limits.line_length
    )


def to_json(limits: Limits) -> str:
    return msgspec.json.encode(limits).decode()


def from_json(text: str) -> Limits:
    return msgspec.json.decode(text, type=Limits)


@dataclass
class _Quiet:
    until: float
    suppressed: int = 0


class QuietLog:
    """At most one line per kind of event every ``interval`` seconds, with the count of those left out.

    Refusals are logged, but a flood of refusals must not flood the log.
    """

    def __init__(self, log: logging.Logger, interval: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self._log = log
        self._interval = interval
        self._clock = clock
        self._quiet: dict[str, _Quiet] = {}

    def warning(self, kind: str, msg: str, *args: object) -> None:
        now = self._clock()
        quiet = self._quiet.get(kind)
        if quiet is not None and now < quiet.until:
            quiet.suppressed += 1
            return
        more = quiet.suppressed if quiet is not None else 0
        if more:
            msg += " (and %d more like it in the last %.0f s)"
            args = (*args, more, self._interval)
        self._log.warning(msg, *args)
        self._quiet[kind] = _Quiet(now + self._interval)
        if len(self._quiet) > 1024:  # kinds are per address: forget the ones long quiet
            self._quiet = {k: q for k, q in self._quiet.items() if q.until > now}


def address_of(peer: str) -> str:
    """The address part of ``host:port`` (IPv6 addresses have colons of their own)."""
    return peer.rpartition(":")[0] or peer


class PerAddress(Counter[str]):
    """The connections open, by address (one with none left is forgotten: a flood's are not kept)."""

    def release(self, address: str) -> None:
        """One connection from ``address`` closed."""
        self[address] -= 1
        if not self[address]:
            del self[address]


@dataclass
class _Waiting:
    """A connection not logged in yet."""

    address: str
    since: float
    close: Callable[[], None]
    authenticating: bool = False


class Gate:
    """The connections that have not logged in: refuses those over the limits as they arrive, and
    clears the idle ones when there are many (OpenSSH's MaxStartups and PerSourcePenalties).

    A connection is ``admit``-ted (or refused), then either ``logged_in`` or
    ``closed``; only the time in between counts.  Past ``unauth_start`` of them,
    a new one is refused at random (more often the more there are: a flood
    cannot hold every place, and a player trying again gets one), and
    :meth:`sweep` closes those that have not begun authenticating within
    ``auth_grace_s`` (a client that asks for a user has finished the key
    exchange: idle ones are what a flood is made of), refusing their address
    for a while (``penalty_s`` each, up to ``penalty_max_s``), and those that
    began authenticating but have not finished within ``crowded_login_grace_s``
    (a flood that finishes the key exchange and stalls); so does it those of an
    address at its own limit.  An address with none waiting is never refused at
    random, and has ``unauth_start`` places past the total: a flood from a
    handful of addresses cannot leave none for a player from another.
    """

    #: The most addresses under penalty remembered: a flood from many cannot grow it without end.
    MAX_PENALTIES = 65_536

    def __init__(
        self,
        limits: Limits,
        log: logging.Logger,
        *,
        clock: Callable[[], float] = time.monotonic,
        chance: Callable[[], float] = random.random,
    ) -> None:
        self.limits = limits
        self._log = log
        self._clock = clock
        self._chance = chance
        self._waiting: dict[str, _Waiting] = {}  # peer -> its connection
        self._per_address = PerAddress()
        self._penalty: dict[str, float] = {}  # address -> refused until
        self._quiet = QuietLog(log)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def logging_in(self) -> int:
        """How many of those waiting began to log in (asked for a user)."""
        return sum(w.authenticating for w in self._waiting.values())

    def penalised(self, address: str) -> float:
        """Seconds ``address`` is still refused for (0: none)."""
        return max(0.0, self._penalty.get(address, 0.0) - self._clock())

    def admit(self, peer: str, close: Callable[[], None] = lambda: None) -> bool:
        """Whether the connection from ``peer`` may stay; ``close`` closes it (when it is swept)."""
        address = address_of(peer)
        limits = self.limits
        left = self.penalised(address)
        if left:
            self._quiet.warning(
                f"penalty {address}",
                "refused from=%s: its address left connections idle; refused for %.0f s more",
                peer,
                left,
            )
            return False
        here = self._per_address[address]
        if here >= limits.unauth_per_address:
            self._quiet.warning(
                f"address {address}",
                "refused from=%s: %d connections from this address have not logged in yet (limit %d)",
                peer,
                here,
                limits.unauth_per_address,
            )
            return False
        waiting = len(self._waiting)
        # An address with none waiting is a newcomer: the random drop and the total are for the addresses
        # holding places, so that a flood from a handful of addresses never leaves one for him; newcomers
        # have ``unauth_start`` places more (a flood from many addresses, each a newcomer once, fills them).
        full = limits.unauth_total + (limits.unauth_start if not here else 0)
        dropped = bool(here) and waiting >= limits.unauth_start and self._chance() < self._drop(waiting)
        if waiting >= full or dropped:
            self._quiet.warning(
                "total",
                "refused from=%s: %d connections have not logged in yet (refused at random past %d, all at %d)",
                peer,
                waiting,
                limits.unauth_start,
                limits.unauth_total,
            )
            return False
        self._waiting[peer] = _Waiting(address, self._clock(), close)
        self._per_address[address] += 1
        return True

    def _drop(self, waiting: int) -> float:
        """The chance a new connection is refused with ``waiting`` not logged in (OpenSSH's formula)."""
        limits = self.limits
        span = max(1, limits.unauth_total - limits.unauth_start)
        rate = min(100, max(0, limits.unauth_rate))
        return (rate + (100 - rate) * (waiting - limits.unauth_start) / span) / 100

    def authenticating(self, peer: str) -> None:
        """``peer``'s client asked for a user: it finished the key exchange, a sweep gives it longer."""
        waiting = self._waiting.get(peer)
        if waiting is not None:
            waiting.authenticating = True

    def sweep(self) -> int:
        """Close the connections idle past ``auth_grace_s`` (or authenticating past ``crowded_login_grace_s``)
        when more than ``unauth_start`` wait, or when their address is at its limit (else it would be
        refused for the whole login grace); how many."""
        limits = self.limits
        crowded = len(self._waiting) > limits.unauth_start
        full = {a for a, n in self._per_address.items() if n >= limits.unauth_per_address}
        if not crowded and not full:
            return 0
        now = self._clock()
        idle = [
            (peer, w)
            for peer, w in self._waiting.items()
            if (crowded or w.address in full)
            and now - w.since >= (limits.crowded_login_grace_s if w.authenticating else limits.auth_grace_s)
        ]
        for peer, w in idle:
            self._penalise(w.address, now)
            self.closed(peer)
            w.close()
        if idle:
            self._quiet.warning(
                "swept",
                "closed %d connections that had not begun to log in within %g s, or logged in within %g s "
                "(from %d addresses)",
                len(idle),
                self.limits.auth_grace_s,
                self.limits.crowded_login_grace_s,
                len({w.address for _peer, w in idle}),
            )
        return len(idle)

    def penalise(self, peer: str) -> None:
        """``peer``'s connection misbehaved after logging in (and was closed): its address is
        refused a while, as for a connection swept idle."""
        self._penalise(address_of(peer), self._clock())

    def _penalise(self, address: str, now: float) -> None:
        if address not in self._penalty and len(self._penalty) >= self.MAX_PENALTIES:
            self._penalty = {a: t for a, t in self._penalty.items() if t > now}
            if len(self._penalty) >= self.MAX_PENALTIES:
                return
        until = max(now, self._penalty.get(address, 0.0)) + self.limits.penalty_s
        self._penalty[address] = min(until, now + self.limits.penalty_max_s)

    def logged_in(self, peer: str) -> None:
        self.closed(peer)

    def closed(self, peer: str) -> None:
        waiting = self._waiting.pop(peer, None)
        if waiting is not None:
            self._per_address.release(waiting.address)
