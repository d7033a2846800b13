"""A league's standings on the venue's relay (issue #74): ``fireteam relay --league FILE`` serves
``/standings``, fetched here over HTTP as a browser would: the page ``league standings --format html``
gives, every name escaped, under the relay's policy (no inline script or style allowed), in English and
Italian; a league file that changes is read again, one that does not is not.

The game is confirmed at both seats (``confirm``), so the league takes it with no signature at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from ssh_club import fireteam_process, read_until

from core.cli.main import run_script
from core.game import Game
from core.language.reader import reading
from core.league import certificate, render, season, standings
from core.league.atseat import with_digest
from tests.shared.club import rechained
from tests.shared.keys import keygen, signer_line
from tui.main import main as fireteam
from tui.ssh.venue.connection import NatsOptions
from tui.ssh.venue.leaguepage import LeaguePage
from tui.ssh.venue.relay import Relay

pytestmark = [pytest.mark.server, pytest.mark.subprocess]  # (ssh-keygen makes the organiser's key)

LOG = logging.getLogger("test.standings")
#: A last guard: a loaded machine starts the relay in seconds.
GUARD_S = 120.0


def confirmed_game(folder: Path, name: str, end: str) -> tuple[Path, Path]:
    script = folder / f"{name}.script"
    seats = "players german=anna via=invitation\nplayers british=bruno via=invitation\n"
    script.write_text(f"scenario tanks\n{seats}next\n{end}\n", encoding="utf-8")
    save = folder / f"{name}.ft"
    assert run_script(script, save, 7, "ludonet", "", out=io.StringIO()) == 0
    for side, player in (("german", "anna"), ("british", "bruno")):
        game = Game.open(save)
        try:
            game.execute(with_digest(game, "confirm", side, player), role=side, by=player)
        finally:
            game.close()
    cert, _v = certificate.certify(save)
    path = certificate.default_path(save)
    certificate.write(cert, path)
    return save, path


@pytest.fixture
def league(tmp_path: Path) -> Path:
    key = keygen(tmp_path, "org")
    signers = tmp_path / "allowed_signers"
    signers.write_text(signer_line(key, "org") + "\n")
    path = tmp_path / "club.league"
    season.new(path, "<b>Club</b> & co", signers, "org", (3, 1, 0), key)
    return path


async def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as s, s.get(url, headers=headers or {}) as r:
        return r.status, await r.text(), dict(r.headers)


@contextlib.asynccontextmanager
async def standings_served(league: Path) -> AsyncIterator[tuple[Relay, str]]:
    """A relay serving ``league``'s standings page (no NATS needed for it), and the page's address."""
    relay = Relay(NatsOptions("nats://127.0.0.1:1"), LOG)
    relay.standings = LeaguePage(league)
    port = await relay.start_web("127.0.0.1", 0)
    try:
        yield relay, f"http://127.0.0.1:{port}/standings"
    finally:
        await relay.close()


def test_the_relay_serves_the_leagues_standings_and_reads_a_changed_file_again(tmp_path, league):
    save, cert = confirmed_game(tmp_path, "g1", "victory german held")
    season.add(league, save, cert, [], tmp_path / "org")  # the organiser vouches for the seats

    async def go() -> None:
        async with standings_served(league) as (relay, base):
            status, page, headers = await fetch(base + "?lang=en")
            assert status == 200 and headers["Content-Type"].startswith("text/html")
            csp = headers["Content-Security-Policy"]
            assert "unsafe-inline" not in csp and "default-src 'none'" in csp
            assert f"style-src 'self' {render.PAGE_STYLE_SOURCE}" in csp  # its one style, by its hash (#91)
            with reading("en"):
                assert page == render.page(standings.table(season.load(league)), "<b>Club</b> & co", "en")
            assert "&lt;b&gt;Club&lt;/b&gt; &amp; co" in page and "<b>" not in page
            assert "anna" in page and "confirmed by both players" in page and "<script" not in page
            status, italian, _h = await fetch(base, {"Accept-Language": "it-IT,it;q=0.9"})
            assert status == 200 and 'lang="it"' in italian and "confermata da entrambi i giocatori" in italian
            reads = relay.standings.reads
            await fetch(base + "?lang=en")
            assert relay.standings.reads == reads  # the same file: not read again
            save2, cert2 = confirmed_game(tmp_path, "g2", "victory british held")
            season.add(league, save2, cert2, [], tmp_path / "org")
            status, again, _h = await fetch(base + "?lang=en")
            assert status == 200 and relay.standings.reads == reads + 1
            assert again.count("<li>") == 2 and page.count("<li>") == 1
            league.write_bytes(b"not a league\n")
            status, said, _h = await fetch(base)
            assert status == 503 and "club.league" in said
            assert str(tmp_path) not in said  # issue #90: not where the relay keeps its files

    asyncio.run(go())


def test_one_reading_serves_every_waiting_request_and_a_changed_league_is_flagged(tmp_path, league):
    """Issue #90: 200 requests of a 63 MB league each parsed it (2 GB); a re-chained edit showed as signed."""
    save, cert = confirmed_game(tmp_path, "g1", "victory german held")
    season.add(league, save, cert, [], tmp_path / "org")  # the organiser vouches for the seats

    async def go() -> None:
        async with standings_served(league) as (relay, base):
            answers = await asyncio.gather(*(fetch(base + ("?lang=it" if n % 2 else "")) for n in range(40)))
            assert {status for status, _page, _h in answers} == {200}
            assert relay.standings.reads == 1  # one reading, both languages, for all forty
            rechained(league, lambda records: records.append(records[2]))  # the game's record again
            status, page, _h = await fetch(base + "?lang=en")
            assert status == 200 and "repeats game 1 (line 3)" in page and "not counted: flagged" in page
            rechained(league, lambda records: records[1].update(win=30))
            status, said, _h = await fetch(base)
            assert status == 503 and "not those its organiser signed" in said and str(tmp_path) not in said

    asyncio.run(go())


def test_a_flagged_line_on_the_relays_page_names_the_file_not_where_the_relay_keeps_it(tmp_path, league):
    """Issue #90, point 9: the 503 showed the server's absolute path; a page whose re-check flags a
    line (a winner changed in a stored certificate, re-chained) showed it still, in each flagged line."""
    save, cert = confirmed_game(tmp_path, "g1", "victory german held")
    season.add(league, save, cert, [], tmp_path / "org")
    rechained(league, lambda records: records[2].update(certificate=records[2]["certificate"].replace("german", "x")))

    async def go() -> None:
        async with standings_served(league) as (_relay, base):
            for lang in ("en", "it"):
                status, page, _h = await fetch(f"{base}?lang={lang}")
                assert status == 200 and "club.league:3: " in page
                assert str(tmp_path) not in page

    asyncio.run(go())


def test_a_forged_seat_confirmation_is_flagged_on_the_page(tmp_path, league):
    """The trust audit's R1: the winner changed inside a game's certificate, its seat confirmations
    kept as the file's claim without the organiser's signature, the chain computed again: the page
    said "confirmed by both players"."""
    save, cert = confirmed_game(tmp_path, "g1", "victory german held")
    season.add(league, save, cert, [], tmp_path / "org")

    def forged(records: list[dict]) -> None:
        game = records[2]
        game["certificate"] = game["certificate"].replace('"winner":"german"', '"winner":"british"')
        del game["vouched"]

    async def go() -> None:
        async with standings_served(league) as (_relay, base):
            status, page, _h = await fetch(base + "?lang=en")
            assert status == 200 and "confirmed by both players; counted" in page  # the honest file
            rechained(league, forged)
            status, page, _h = await fetch(base + "?lang=en")
            assert status == 200 and "confirmed by both players" not in page and "not counted: flagged" in page
            assert "club.league:3: seat confirmations not signed by the organiser: not counted as confirmed" in page

    asyncio.run(go())


async def test_fireteam_relay_serves_a_leagues_standings_without_a_venues_nats(tmp_path, league):
    """Issue #91: ``fireteam relay --league FILE`` refused to start without a NATS server; the file is
    all the standings need."""
    save, cert = confirmed_game(tmp_path, "g1", "victory german held")
    season.add(league, save, cert, [], tmp_path / "org")  # the organiser vouches for the seats
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = await fireteam_process(tmp_path, "relay", "--league", str(league), "--web", "0", env=env)
    try:
        out = await read_until(proc, "serving the league's standings alone", GUARD_S)
        found = re.search(r"the league's standings on (http://127\.0\.0\.1:\d+/standings)", out)
        assert found, out
        status, page, headers = await fetch(found[1] + "?lang=it")
        assert status == 200 and "<h2>Partite</h2>" in page and render.PAGE_STYLE in page
        assert render.PAGE_STYLE_SOURCE in headers["Content-Security-Policy"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), GUARD_S) == 0


def test_fireteam_relay_with_neither_a_nats_nor_a_league_says_what_it_needs(tmp_path, capsys):
    assert fireteam(["relay", "--web", "0"]) == 2
    assert "a relay needs the venue's NATS (--nats URL), or a league or an event to serve alone" in (
        capsys.readouterr().err
    )
    assert fireteam(["relay", "--web", "0", "--league", str(tmp_path / "none.league")]) == 2
    assert "none.league: no such file" in capsys.readouterr().err
