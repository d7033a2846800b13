"""One browser's websocket at a table (``tui.ssh.web.door``): what its page sends goes to its seat's
session, held to the door's limits; its page is told the dice's seal, its next share's count and its
seat, and what each roll of a share it sent used (docs/secrets.md, "The player's own check of his dice")."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Callable, Sequence
from typing import NamedTuple

import msgspec
from aiohttp import WebSocketError, WSCloseCode, WSMsgType, web

from core.dice.faces import CONTRIBUTION_BYTES, Share
from core.language.i18n import M, Text
from core.language.reader import Reader, reading
from core.log import events as ev
from core.log.outcome import Outcome
from tui.ssh.invitations.store import Grant
from tui.ssh.language import _
from tui.ssh.limits import TokenBucket
from tui.ssh.seating.chooser import GameChooser
from tui.ssh.seating.seat import Door, Host, SeatSession, Table
from tui.ssh.seatsfile import Seat, Seats
from tui.ssh.web.channel import WebChannel
from tui.ssh.web.plain import WebPlainSeat

#: A browser's terminal: xterm.js shows 256 colours and true colour.
BROWSER_ENV = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}


class _Size(msgspec.Struct, forbid_unknown_fields=True):
    width: int
    height: int


#: A browser's message: its kind and its value, typed so that nothing else (a deep nest of arrays, say) is read.
_MESSAGE = msgspec.json.Decoder(tuple[str, str | _Size | tuple[str, int]])


class Sent(NamedTuple):
    """A page's share of the dice as it came, and the digest of the keys it was drawn for (``keys``:
    SHA-256, as hex, of the UTF-8 of every ``stdin`` text the page sent since its last Enter, the
    message that holds the Enter included; None when the page named none)."""

    share: Share
    keys: str | None


def contribution_of(text: str) -> Sent | None:
    """A page's share of the dice, ``HEX SEAL COUNT KEYS``: exactly ``CONTRIBUTION_BYTES`` as lowercase
    hex, the commitment of the key the page was told was in force when it drew them (64 lowercase
    hex digits, or nothing for none), the seat's count of its shares it was told comes next
    (1 to ``MAX_SHARE_COUNT``, in decimal), and the digest of the keys it is for (:class:`Sent`, 64
    lowercase hex digits); None for anything else.  A page from before sends ``HEX SEAL COUNT``,
    ``HEX SEAL`` or ``HEX`` alone (so does a proxy that strips them): its keys, its count, and then
    its seal, are None; the door refuses the line of a share that names no keys (:class:`BrowserSeat`),
    and the table a share that names no key while the dice are sealed (``core.dice.shares``)."""
    parts = text.split(" ")
    if len(parts) > 4:
        return None
    mine, seal, count, keys = [*parts, None, None, None][:4]
    if mine is None or len(mine) != 2 * CONTRIBUTION_BYTES or mine.strip(_HEX):
        return None
    if seal is not None and (len(seal) not in (0, 2 * DIGEST_BYTES) or seal.strip(_HEX)):
        return None
    if count is not None and not (count.isascii() and count.isdigit() and 0 < int(count) <= MAX_SHARE_COUNT):
        return None
    if keys is not None and (len(keys) != 2 * DIGEST_BYTES or keys.strip(_HEX)):
        return None
    return Sent(Share(bytes.fromhex(mine), seal, None if count is None else int(count)), keys)


def keys_bytes(text: str) -> bytes:
    """What a page hashes of the keys it sent: their UTF-8, as the browser's ``TextEncoder`` makes it
    (a lone surrogate, which JSON can carry, as U+FFFD)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


#: The highest count of a seat's shares a page may name (a game rolls far fewer).
MAX_SHARE_COUNT = 10**9
#: The shares a door remembers giving its seat, to tell the page what their rolls used (a command rolls one).
MAX_FORWARDED = 64
#: The faces of one command told to the page at most (a barrage rolls tens).
MAX_FACES_TOLD = 100
_HEX = "0123456789abcdef"
#: Bytes in a key's commitment (a SHA-256 digest).
DIGEST_BYTES = 32


class BrowserSeat:
    """One browser's websocket at a table: what it sends goes to its :class:`SeatSession`."""

    def __init__(
        self,
        host: Host,
        ws: web.WebSocketResponse,
        transport: asyncio.Transport | None,
        grant: Grant,
        seat: Seat,
        *,
        peer: str,
        reader: Reader,
        size: tuple[int, int],
        plain: bool = False,
        recheck: Callable[[Seats], tuple[Text, str] | None],
    ) -> None:
        self.host = host
        self.ws = ws
        self.grant = grant
        self.peer = peer
        self.reader = reader
        channel = self.channel = WebChannel(ws, transport, why=lambda: self.session.end_reason)
        door_of = Door(
            peer=peer,
            reader=reader,
            size=size,
            env=BROWSER_ENV,
            recheck=recheck,
            page=True,
            download=lambda address: channel.control(["download", address]),  # the page fetches it (fireteam.mjs)
        )
        #: The seat as plain lines, for the plain page; else a screen, for the terminal.
        self.plain = WebPlainSeat(host, seat, channel, control=channel.control, **door_of) if plain else None
        self.session: SeatSession = self.plain or SeatSession(
            host, seat, channel, watching_size=self._tell_screen, **door_of
        )
        self.chooser: GameChooser | None = None
        self._told_seal: str | None = None  # the dice's seal the page was last told
        self._told_count: int | None = None  # and the count of the seat's shares that comes next
        self._forwarded: dict[tuple[str, int | None], str] = {}  # the shares given to the seat: (seal, count) → bytes
        self._keys = hashlib.sha256()  # of the keys typed since the last Enter, as the page hashes them
        self._held: Sent | None = None  # the page's last share, until the keys it was drawn for come
        self._unsubscribe: Callable[[], None] = lambda: None  # from the table's game (``_open``)
        limits = host.limits
        self._bucket = TokenBucket(limits.web_message_rate, limits.web_message_burst)
        self._cutoff = TokenBucket(limits.web_cutoff_rate, limits.web_cutoff_burst)

    async def run(self) -> None:
        session = self.session
        with reading(self.reader):
            self._sit()
        too_big = flooded = False
        try:
            async for message in self.ws:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    error = self.ws.exception()
                    too_big = isinstance(error, WebSocketError) and error.code == WSCloseCode.MESSAGE_TOO_BIG
                    break
                if self._cutoff.take(1) < 1:
                    flooded = True
                    break
                if self._bucket.take(1) < 1:
                    session.input_refused(
                        M(
                            "more than {rate} messages a second from the browser (bursts of {burst}): one dropped",
                            rate=f"{self.host.limits.web_message_rate:.0f}",
                            burst=self.host.limits.web_message_burst,
                        )
                    )
                    continue
                if message.type == WSMsgType.TEXT:
                    with reading(self.reader):
                        self._received(message.data)
            if flooded:
                await self._cut_off()
        finally:
            if too_big:
                self.host.log.warning(
                    "websocket closed seat=%s role=%s from=%s: a message over %d bytes",
                    session.seat.name,
                    session.seat.role,
                    self.peer,
                    self.host.limits.web_message_bytes,
                )
            session.gone()
            session.left("message too big" if too_big else "flooded" if flooded else "disconnected")
            if self.chooser is not None:
                self.chooser.close()
            self._unsubscribe()

    async def _cut_off(self) -> None:
        """Disconnect a browser sending far more messages than any page of ours does, saying why in the log.

        Its address is not refused for a while, as an SSH client's is: a crowd's browsers share one (a
        venue's Wi-Fi, a reverse proxy), and the others did nothing."""
        limits = self.host.limits
        self.host.log.warning(
            "disconnected seat=%s role=%s from=%s: more websocket messages than %d at once and %g a second",
            self.session.seat.name,
            self.session.seat.role,
            self.peer,
            limits.web_cutoff_burst,
            limits.web_cutoff_rate,
        )
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many messages")

    def _sit(self) -> None:
        host = self.host
        session = self.session
        tables: Sequence[Table] = [t for t in host.tables if session.seat.may_sit(t.name)]
        if self.grant.game:
            table = next((t for t in tables if t.name == self.grant.game), None)
            if table is None:
                session.say(_("There is no game {name} here.").format(name=repr(self.grant.game)) + "\n")
                session.finish(1)
                return
            self._open(table)
        elif len(tables) == 1:
            self._open(tables[0])
        else:
            self.chooser = GameChooser(
                tables,
                session.seat,
                send=session.say,
                sit=self._open,
                leave=lambda: session.finish(0),
                plain=self.plain is not None,
            )
            self.chooser.show()

    def _open(self, table: Table) -> bool:
        """Seat the browser at ``table``, and tell its page the dice's seal and its next share's count,
        and each new one."""
        opened = self.session.open(table)
        if opened:
            self.channel.control(["seat", self.session.seat.name])  # whose shares the page keeps
            self._tell_seal()
            # A key sealed again (``dice-key``, public) is told at once: a share drawn under the
            # old one would be refused (docs/secrets.md, "Sealed dice"); so is the next count, once
            # the seat's command rolled one (no other's command moves it: nothing is sent for those).
            self._unsubscribe = table.game.subscribe(self._changed, role=self.session.seat.role)
        return opened

    def _changed(self, outcome: Outcome) -> None:
        self._tell_seal()
        self._tell_rolled(outcome.events)

    def _seal(self) -> str | None:
        """The commitment of the game's sealed key in force ("" for none; None before a table)."""
        table = self.session.table
        return table.game.sealing.seal() if table is not None else None

    def _tell_seal(self) -> None:
        """``["seal", DIGEST]`` and ``["count", N]``: what the page names with the next share it draws
        (docs/secrets.md), each when it changed since the page was last told."""
        seal = self._seal()
        if seal is not None and seal != self._told_seal:
            self._told_seal = seal
            self.channel.control(["seal", seal])
        table = self.session.table
        count = table.game.sealing.next_share(self.session.seat.name) if table is not None else None
        if count is not None and count != self._told_count:
            self._told_count = count
            self.channel.control(["count", count])

    def _tell_rolled(self, events: list[ev.Event]) -> None:
        """``["rolled", {"count", "seal", "contribution", "faces"}]``: what each command of the seat's that took a
        share this door gave it rolled with, the page to hold against the share it sent (``shares.mjs``): bytes
        put in the place of its own, or its own under another count or key, are said on the player's page.  Only
        rolls of shares this page's door gave (the seat's other browsers and doors keep their own)."""
        name = self.session.seat.name
        told: set[int] = set()
        for e in events:
            if not isinstance(e, ev.SharedRoll) or e.by != name or e.nonce in told:
                continue
            if (e.saw, e.nonce) not in self._forwarded and e.contribution not in self._forwarded.values():
                continue
            told.add(e.nonce)
            faces = [
                f
                for r in events
                if isinstance(r, ev.SharedRoll) and r.by == name and r.nonce == e.nonce
                for f in r.roll.faces
            ]
            said = {"count": e.nonce, "seal": e.saw, "contribution": e.contribution, "faces": faces[:MAX_FACES_TOLD]}
            self.channel.control(["rolled", said])

    def _tell_screen(self, size: tuple[int, int]) -> None:
        """``["screen", {"width": W, "height": H}]``: the size of the shared screen a spectator's page shows
        next, which it draws its terminal at, with the largest font that fits the page (fireteam.mjs)."""
        self.channel.control(["screen", {"width": size[0], "height": size[1]}])

    def _received(self, text: str) -> None:
        """One message of the browser's: ``["stdin", TEXT]``, ``["resize", {"width": W, "height": H}]``,
        ``["dice", "HEX SEAL COUNT KEYS"]``, the page's share of its next command's dice, the key's seal
        and the count it was told (answered with the seal and count in force) and the digest of the keys it
        is for (:meth:`_typed`), or (the plain page's) ``["tab", [LINE, POS]]``, Tab at ``POS`` of the line typed."""
        try:
            kind, value = _MESSAGE.decode(text)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            return  # not one of ours (the page sends nothing else): ignored
        if kind == "stdin" and isinstance(value, str):
            self._typed(value)
        elif kind == "resize" and isinstance(value, _Size) and value.width > 0 and value.height > 0:
            self.session.resize(*self.host.limits.clamped(value.width, value.height))
        elif kind == "dice" and isinstance(value, str) and (sent := contribution_of(value)) is not None:
            self._held = sent
            self._tell_seal()
        elif kind == "tab" and isinstance(value, tuple) and self.plain is not None:
            self.plain.tab(*value)

    def _typed(self, value: str) -> None:
        """Keys typed (a line, on the plain page).  The page sends its share just before the message that
        holds an Enter, naming the digest of every key it sent since the last Enter, that message included:
        what the share is for, fixed by the page before the share left it.  The share goes to the seat only
        if the keys that came are those (docs/secrets.md, "Who fixes what, and when"); if not (a line
        swapped, keys added or dropped on their way, or a share that names none), that message is not
        given, and the seat is told why: the host cannot re-attach a share to another line."""
        self._keys.update(keys_bytes(value))
        held, self._held = self._held, None
        enter = "\r" in value or "\n" in value
        given = True
        if held is not None:
            given = held.keys == self._keys.hexdigest()
            if given:
                self.session.contributed(held.share)
                self._forwarded[(held.share.saw or "", held.share.nonce)] = held.share.contribution.hex()
                while len(self._forwarded) > MAX_FORWARDED:
                    del self._forwarded[next(iter(self._forwarded))]
            else:
                self.session.input_refused(
                    M(
                        "a line came with a share of the dice drawn for other keys (a page older than the "
                        "table, or a line changed on its way): it was not given; reload the page and type it again"
                    )
                )
        elif enter and None not in (self._told_seal, self._told_count) and not self.session.watching:
            # The page sends a share with every line once it was told the seal and the count: a line without
            # one had it dropped on its way (a proxy that saw the faces it would give), and drawing for it at
            # the table would let that proxy choose which rolls the page's shares decide.
            given = False
            self.channel.control(["unshared", None])  # said on the page's own bar too, beside the game
            self.session.input_refused(
                M(
                    "a line came without its share of the dice (dropped on its way, or a page older than the "
                    "table): it was not given; give it again"
                )
            )
        if enter:
            self._keys = hashlib.sha256()  # the page starts again after an Enter, as here
        if not given:
            return
        if self.chooser is not None and self.chooser.open:
            value = self.chooser.feed(value)
        if value:
            self.session.feed(value)
