"""``fireteam invite``: invitations to the seats of ``fireteam serve``, made, listed and revoked.

``fireteam invite bruno`` prints, once, the invitation's browser link, its
SSH command and the link as a QR code for a phone's camera
(``tui.ssh.invitations.store`` keeps only the token's hash).  The addresses come
from what ``fireteam serve`` recorded in the data folder as it started
(``serve.json``: where players reach its SSH port and its browser seats), or
from ``--url`` and ``--ssh``.
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import sys
import time
from pathlib import Path

import msgspec

from core.language.i18n import N_
from core.scenarios.files import data_dir
from tui.ssh.invitations.store import (
    DEFAULT_SEAT_USES,
    DEFAULT_SPECTATOR_USES,
    SSH_PREFIX,
    Invitation,
    Invitations,
    InvitationsError,
    parse_duration,
)
from tui.ssh.language import _

ADDRESSES_NAME = "serve.json"
#: An invitation's states (``Invitation.state``), in the reader's words.
_STATES = {"open": N_("open"), "used up": N_("used up"), "expired": N_("expired"), "revoked": N_("revoked")}
#: Hosts that mean "every address of this machine": no player can type them.
_WILDCARDS = ("", "0.0.0.0", "::")


class Addresses(msgspec.Struct, kw_only=True):
    """Where players reach the server, as ``fireteam serve`` last started (``serve.json`` in the data folder)."""

    ssh_host: str
    ssh_port: int
    #: The browser seats' address (``--url``, else the host and ``--web`` port); "" without browser seats.
    web_url: str = ""
    seats: str = ""
    games: list[str] = msgspec.field(default_factory=list)


def reachable_host(host: str) -> str:
    """A host players can type for a server listening on ``host``: a wildcard becomes this machine's address."""
    if host not in _WILDCARDS:
        return host
    try:
        found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        found = []
    outward = [a for a in found if isinstance(a, str) and not a.startswith("127.")]
    return outward[0] if outward else socket.gethostname()


def web_url(host: str, port: int, *, tls: bool) -> str:
    name = reachable_host(host)
    name = f"[{name}]" if ":" in name else name
    scheme = "https" if tls else "http"
    default = 443 if tls else 80
    return f"{scheme}://{name}" + ("" if port == default else f":{port}")


def record_addresses(folder: Path, addresses: Addresses) -> Path:
    """Write ``serve.json`` (its owner's only), replacing the last one whole."""
    path = folder / ADDRESSES_NAME
    tmp = folder / f"{ADDRESSES_NAME}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(msgspec.json.format(msgspec.json.encode(addresses)) + b"\n")
    os.replace(tmp, path)
    return path


def read_addresses(folder: Path) -> Addresses | None:
    try:
        raw = (folder / ADDRESSES_NAME).read_bytes()[: 1 << 16]
        return msgspec.json.decode(raw, type=Addresses)
    except (OSError, msgspec.DecodeError):
        return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("seat", nargs="?", help=_("the seat to invite (its name in the seats file)"))
    parser.add_argument("--spectators", action="store_true", help=_("a spectator link instead of a seat's"))
    parser.add_argument("--game", default="", help=_("the game the invitation seats the player at"))
    parser.add_argument(
        "--expires", default="12h", help=_("how long the invitation lasts: 30m, 12h, 2d... (default: 12h)")
    )
    parser.add_argument(
        "--uses",
        type=int,
        default=0,
        help=_("browsers and SSH keys it may let in (default: {seat} for a seat, {spectators} for spectators)").format(
            seat=DEFAULT_SEAT_USES, spectators=DEFAULT_SPECTATOR_USES
        ),
    )
    parser.add_argument("--seats", type=Path, help=_("seats file (default: the one fireteam serve uses)"))
    parser.add_argument("--url", default="", help=_("the address players open in their browsers"))
    parser.add_argument("--ssh", default="", metavar="HOST[:PORT]", help=_("the address players reach over SSH"))
    parser.add_argument("--list", action="store_true", help=_("list the invitations"))
    parser.add_argument("--revoke", metavar="ID|SEAT", help=_("revoke an invitation, or every one of a seat"))


def invite_main(args: argparse.Namespace) -> int:
    folder = data_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    invitations = Invitations(folder)
    try:
        if args.list:
            return _list(invitations)
        if args.revoke:
            return _revoke(invitations, args.revoke)
        return _invite(invitations, folder, args)
    except InvitationsError as e:
        print(_("error: {reason}").format(reason=e), file=sys.stderr)
        return 2


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def _invite(invitations: Invitations, folder: Path, args: argparse.Namespace) -> int:
    if bool(args.seat) == bool(args.spectators):
        print(_("error: name a seat, or give --spectators (see fireteam invite --help)"), file=sys.stderr)
        return 2
    try:
        expires = parse_duration(args.expires)
    except ValueError as e:
        print(_("error: --expires: {reason}").format(reason=e), file=sys.stderr)
        return 2
    addresses = read_addresses(folder)
    seat = args.seat or ""
    role = "spectator"
    if seat:
        from tui.ssh.seatsfile import Seats, SeatsError  # asyncssh: not for every headless command's parser

        seats_path = args.seats or (Path(addresses.seats) if addresses and addresses.seats else folder / "seats.toml")
        try:
            seats = Seats.load(seats_path)
        except SeatsError as e:
            print(_("error: {reason}").format(reason=e), file=sys.stderr)
            return 2
        found = seats.by_name(seat)
        if found is None:
            print(
                _("error: there is no seat {seat} in {file}").format(seat=repr(seat), file=seats_path), file=sys.stderr
            )
            return 2
        role = found.role
    if args.game and addresses and addresses.games and args.game not in addresses.games:
        print(
            _("error: the server serves no game {game} (games: {games})").format(
                game=repr(args.game), games=", ".join(addresses.games)
            ),
            file=sys.stderr,
        )
        return 2
    try:
        token, inv = invitations.create(seat, game=args.game, expires_s=expires, uses=args.uses)
    except ValueError as e:
        print(_("error: {reason}").format(reason=e), file=sys.stderr)
        return 2
    url = (args.url or (addresses.web_url if addresses else "")).rstrip("/")
    ssh_host, ssh_port = _ssh_address(args.ssh, addresses)
    out = sys.stdout
    if seat:
        head = _("Invitation {id} to the seat {seat} ({role})").format(id=inv.id, seat=seat, role=role)
    else:
        head = _("Spectator link {id}").format(id=inv.id)
    game = _(", game {game}").format(game=inv.game) if inv.game else ""
    print(
        head + game + ": " + _("{uses} uses, until {when}.").format(uses=inv.uses, when=_when(inv.expires)),
        file=out,
    )
    print(file=out)
    link = f"{url}/join/{token}" if url else ""
    if link:
        print(_("In a browser:"), link, file=out)
    if seat:
        port = "" if ssh_port == 22 else f"-p {ssh_port} "
        print(_("Over SSH:"), f"ssh {port}{SSH_PREFIX}{token}@{ssh_host}", file=out)
        print("  " + _("(with any key; that key is then the seat's, and the player needs no token again)"), file=out)
    if link:
        print(file=out)
        import segno  # only here: every headless command builds this command's parser

        qr = io.StringIO()
        segno.make(link, error="m").terminal(out=qr, compact=True, border=2)
        print(qr.getvalue(), end="", file=out)
    else:
        print(
            _(
                "No browser link: start the server with --web PORT (it records its address), "
                "or give --url http://HOST:PORT."
            ),
            file=out,
        )
    print(file=out)
    print(
        _(
            "The token is shown only now: the server keeps only its hash. To revoke it: fireteam invite --revoke {id}"
        ).format(id=inv.id),
        file=out,
    )
    return 0


def _ssh_address(given: str, addresses: Addresses | None) -> tuple[str, int]:
    if given:
        host, sep, port = given.rpartition(":") if given.count(":") == 1 else (given, "", "")
        if sep and port.isdigit():
            return host, int(port)
        return given, addresses.ssh_port if addresses else 2222
    if addresses:
        return reachable_host(addresses.ssh_host), addresses.ssh_port
    return reachable_host(""), 2222


def _list(invitations: Invitations) -> int:
    now = time.time()
    found = invitations.all()
    if not found:
        print(_("No invitations."))
        return 0
    browsers = invitations.browsers_by_invitation()
    for inv in found:
        print(_line(inv, now, browsers.get(inv.id, 0)))
    return 0


def _line(inv: Invitation, now: float, browsers: int) -> str:
    who = inv.seat or _("spectators")
    game = f" @{inv.game}" if inv.game else ""
    return _("{id}  {who}{game}  {state}  {used}/{uses} uses ({browsers} browsers, {keys} keys)  until {when}").format(
        id=inv.id,
        who=who,
        game=game,
        state=_(_STATES[inv.state(now)]),
        used=inv.used,
        uses=inv.uses,
        browsers=browsers,
        keys=len(inv.keys),
        when=_when(inv.expires),
    )


def _revoke(invitations: Invitations, what: str) -> int:
    revoked = invitations.revoke(what)
    if not revoked:
        print(
            _("error: no open invitation is named {what}, nor is to a seat of that name").format(what=repr(what)),
            file=sys.stderr,
        )
        return 1
    for inv in revoked:
        print(
            _("revoked {id} ({who}): its browsers are sent away within a second").format(
                id=inv.id, who=inv.seat or _("spectators")
            )
        )
    return 0
