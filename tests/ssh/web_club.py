"""A served table that takes browsers too (``fireteam serve --web``), for the web door's tests.

The seats file and the invitations store are real files in the test's folder,
as ``fireteam serve`` has them in the data folder.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import ssl
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from ssh_club import SEATS, Club, demo_game, make_keys, no_standby, seat_workers, seats_toml

from core.game import Game
from tui.bench.crowd import CHROMIUM_ARGS
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.invitations.store import Invitations
from tui.ssh.limits import Limits
from tui.ssh.seatsfile import SeatsFile

#: Debian's Chromium, which the browser tests drive (Playwright cannot download a browser of its own here), with
#: the crowd bench's switches.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def playwright_or_skip():
    """Playwright's asyncio API, for a browser test module, which is skipped, saying so, where Chromium (see the
    README) or Playwright is missing."""
    if not shutil.which("chromium"):
        pytest.skip(
            "Chromium is not installed (apt-get install chromium): the browser tests need it", allow_module_level=True
        )
    return pytest.importorskip("playwright.async_api", reason="Playwright is not installed (pip install playwright)")


@contextlib.asynccontextmanager
async def chromium_browser() -> AsyncIterator[Any]:
    """A headless Chromium (``CHROMIUM``), closed after."""
    async with playwright_or_skip().async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class WebClub:
    """The table, its SSH side (``club``) and what a browser needs to reach it."""

    club: Club
    invitations: Invitations
    web_port: int
    folder: Path
    tls: bool = False

    @property
    def game(self) -> Game:
        return self.club.game

    @property
    def origin(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.web_port}"

    def url(self, path: str) -> str:
        return self.origin + path

    @property
    def cookie_name(self) -> str:
        return f"fireteam-{self.web_port}"

    def log(self) -> str:
        return self.club.log()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made here (cryptography comes with asyncssh)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    import ipaddress

    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def client_tls() -> ssl.SSLContext:
    """A client that trusts the test's own certificate (it is checked elsewhere: here, only TLS is)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@contextlib.asynccontextmanager
async def web_table(
    folder: Path,
    caplog,
    *,
    limits: Limits | None = None,
    workers: int = 0,
    standby: bool = False,
    tls: bool = False,
    public_url: str = "",
    plain: Collection[str] = (),
    langs: dict[str, str] | None = None,
    others: Collection[str] = (),
    **server: Any,
) -> AsyncIterator[WebClub]:
    """The demo game served to SSH seats and browsers by ``fireteam serve --workers N``: 0, the seats in this
    process; else real seat workers, with the standby only if ``standby``; ``plain``: the seats the seats file
    makes plain; ``langs``: the seats whose entry names a language (seats in this process); ``others``: the names
    of more tables served besides ``table``, each a demo game of its own (seats in this process)."""
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    game = demo_game(folder / "table.ft")
    invitations = Invitations(folder)
    tls_files = self_signed(folder) if tls else None
    assert not (workers and others), "more tables are served in this process only"
    more: list[Table] = []
    with contextlib.ExitStack() as spared:
        if workers:
            pool = seat_workers(folder, [Table("table", game)], keys, SEATS, limits, plain=plain, workers=workers)
            pool.invitations = invitations
            pool.open_web("127.0.0.1", 0, public_url=public_url, tls_files=tls_files)
            if not standby:
                spared.enter_context(no_standby())
            port = await pool.start("127.0.0.1", 0)
            web_port = pool.web_port
            club = Club(pool, port, keys, game, [], caplog, folder / "serve.log")
        else:
            seats_path = folder / "seats.toml"
            seats_path.write_text(seats_toml(keys, SEATS, langs, plain=plain))
            more = [Table(name, demo_game(folder / f"{name}.ft")) for name in others]
            serve = FireteamServer(
                [Table("table", game), *more],
                SeatsFile(seats_path, logging.getLogger("fireteam.serve")),
                asyncssh.generate_private_key("ssh-ed25519"),
                invitations=invitations,
                limits=limits,
                **server,
            )
            context = None
            if tls_files is not None:
                from tui.ssh.web.door import tls_context

                context = tls_context(*tls_files)
            serve.open_web(port=0, public_url=public_url, tls=context)
            web_port = await serve.start_web("127.0.0.1", 0)
            port = await serve.start("127.0.0.1", 0)
            club = Club(serve, port, keys, game, [], caplog)
        try:
            yield WebClub(club, invitations, web_port, folder, tls)
        finally:
            await club.close()
            game.close()
            for table in more:
                table.game.close()
