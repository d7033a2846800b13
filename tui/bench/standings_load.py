"""``fireteam bench --league``'s second part: the relay's ``/standings`` of a 60 MB league under 200
requests at once (issue #90: one parse a waiting request took the relay to 2,090 MB on 63 MB).

The league is the season's own (``tui.bench.league``) grown to ``BIG_MB``: each of its games
copied with a fresh game id, save digest and play, and signed again by its two players' own keys,
in this process (the SSHSIG format ``ssh-keygen -Y sign`` writes, built with ``sshsig``'s
structures over ``cryptography``), so that every signature in it holds when the relay judges it
again.  It is made once and kept in the bench's folder.

The relay runs as a child process (``python -m tui.bench.standings_load LEAGUE``: a relay with no
NATS, serving ``/standings`` alone); ``REQUESTS`` requests are sent at once, half in Italian, half
in English, and its peak resident memory (``VmHWM``) is read before it is stopped:

* ``standings_rss_start_mb``, ``standings_rss_peak_mb``: the relay before the requests, and at its peak;
* ``standings_first_answer_s``, ``standings_all_answered_s``: the first and the last answer;
* ``standings_league_mb``, ``standings_games``: the league read.

Target: the peak under ``RSS_TARGET_MB`` (docs/benchmark.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

BIG_MB, REQUESTS, RSS_TARGET_MB = 60, 200, 400


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def sshsig(data: bytes, key_file: Path, namespace: str) -> str:
    """``data`` signed as ``ssh-keygen -Y sign -f KEY -n NAMESPACE`` signs it (an Ed25519 key)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from sshsig.sshsig import SshsigWrapper, ssh_enarmor_sshsig

    private = serialization.load_ssh_private_key(key_file.read_bytes(), password=None)
    assert isinstance(private, Ed25519PrivateKey), key_file
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    blob = _string(b"ssh-ed25519") + _string(public)
    signed = SshsigWrapper(
        namespace=namespace.encode(), hash_algo=b"sha512", hash=hashlib.sha512(data).digest()
    ).to_bytes()
    signature = _string(b"ssh-ed25519") + _string(private.sign(signed))
    raw = b"SSHSIG" + struct.pack(">I", 1) + _string(blob) + _string(namespace.encode()) + _string(b"")
    return ssh_enarmor_sshsig(raw + _string(b"sha512") + _string(signature))


def grow(small: Path, big: Path, home: Path, target_mb: int = BIG_MB) -> None:
    """``big``: the league ``small`` (the season's) with its games copied, signed again, to ``target_mb``."""
    import msgspec

    from core.league import season
    from core.league.certificate import NAMESPACE, Certificate
    from core.league.records import Added, Signed, decode_record
    from core.storage import journal

    j, _s = season.read(small)
    games = [r for r in j.records if isinstance(r, Added)]
    room = target_mb * 1_000_000 - small.stat().st_size
    copies: list[Added] = []
    n = 0
    while room > 0:
        original = games[n % len(games)]
        cert = msgspec.json.decode(original.certificate, type=Certificate)
        fresh = hashlib.sha256(f"copy {n}".encode()).hexdigest()
        cert = msgspec.structs.replace(cert, game=fresh, save_sha256=fresh, play=fresh)
        text = msgspec.json.encode(cert) + b"\n"
        signed = tuple(
            Signed(s.identity, s.fingerprint, sshsig(text, home / f"{s.identity}.key", NAMESPACE), as_=s.as_)
            for s in original.signed
        )
        copy = msgspec.structs.replace(original, certificate=text.decode(), signed=signed)
        copies.append(copy)
        room -= len(msgspec.json.encode(copy)) + 10
        n += 1
    big.unlink(missing_ok=True)
    big.write_bytes(small.read_bytes())
    journal.append(big, lambda p: season.read(p)[0], lambda _j: copies, decode_record)


def _hwm_mb(pid: int, field: str = "VmHWM") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _load(port: int, requests: int) -> tuple[float, float, set[int]]:
    import aiohttp

    url = f"http://127.0.0.1:{port}/standings"
    started = time.perf_counter()
    firsts: list[float] = []

    async def one(session: aiohttp.ClientSession, n: int) -> int:
        async with session.get(url + ("?lang=it" if n % 2 else "?lang=en")) as r:
            async for _piece in r.content.iter_chunked(1 << 16):  # (read and let go: 200 pages are not kept)
                pass
            firsts.append(time.perf_counter() - started)
            return r.status

    timeout = aiohttp.ClientTimeout(total=3600)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=timeout) as session:
        statuses = await asyncio.gather(*(one(session, n) for n in range(requests)))
    return min(firsts), max(firsts), set(statuses)


def run_standings_load(big: Path, requests: int = REQUESTS) -> dict[str, object]:
    """The relay's figures under ``requests`` requests at once for ``big``'s standings."""
    from core.league import season

    child = subprocess.Popen(
        [sys.executable, "-m", "tui.bench.standings_load", str(big)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        start_mb = _hwm_mb(child.pid, "VmRSS")
        first, last, statuses = asyncio.run(_load(port, requests))
        peak_mb = _hwm_mb(child.pid)
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(timeout=60)
    return {
        "standings_league_mb": round(big.stat().st_size / 1e6, 1),
        "standings_games": len(season.read(big)[1].games),
        "standings_requests": requests,
        "standings_statuses": sorted(statuses),
        "standings_rss_start_mb": round(start_mb),
        "standings_rss_peak_mb": round(peak_mb),
        "standings_first_answer_s": round(first, 1),
        "standings_all_answered_s": round(last, 1),
    }


def _serve(league: Path) -> None:
    """The child: a relay serving ``league``'s standings alone, its port on stdout, until stdin closes."""
    from tui.ssh.venue.connection import NatsOptions
    from tui.ssh.venue.leaguepage import LeaguePage
    from tui.ssh.venue.relay import Relay

    async def go() -> None:
        relay = Relay(NatsOptions("nats://127.0.0.1:1"), logging.getLogger("bench.standings"))
        relay.standings = LeaguePage(league)
        print(await relay.start_web("127.0.0.1", 0), flush=True)
        await asyncio.to_thread(sys.stdin.read)  # until the bench closes it
        await relay.close()

    asyncio.run(go())


if __name__ == "__main__":
    _serve(Path(sys.argv[1]))
    os._exit(0)
