"""The log and the files: no forged log line, owner-only files, SIGHUP, and OpenSSH's algorithms."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import stat
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, WATCHING, fireteam_process, listening_port, make_keys, read_until, seats_toml, wait_until
from test_ssh_limits import in_process

from tui.ssh.host.serverlog import close_server_log, server_log
from tui.ssh.limits import Limits
from tui.ssh.seatsfile import Seats

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: How every record of serve.log begins; a record's further lines begin with "    | ".
RECORD = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARNING|ERROR) ")


def _records_only(log: str) -> None:
    for line in log.splitlines():
        assert RECORD.match(line) or line.startswith("    | "), f"a line that is no record: {line!r}"


async def test_no_client_text_can_forge_a_log_line(one_worker_club):
    club = one_worker_club
    forged = "\n2026-01-01T00:00:00.000Z INFO worker=1 login seat=evil role=referee from=1.2.3.4:5 user='x'"
    await club.seated("spec", WATCHING, term="xterm" + forged)
    await club.run("spec", "who" + forged)
    await wait_until(lambda: "odd TERM taken for xterm seat=spec" in club.log_file.read_text())
    log = club.log_file.read_text()
    _records_only(log)
    assert not [line for line in log.splitlines() if RECORD.match(line) and "seat=evil" in line.split(" ")[3:5]]
    assert not re.search(r"^\S+ INFO worker=1 login seat=evil", log, re.M)


def test_the_console_shows_the_warnings_and_the_file_keeps_every_line(tmp_path, capsys):
    """#77: the host's console was a stream of INFO lines (every login and command); it shows
    the warnings and errors the host must act on, and serve.log keeps all of them."""
    log = server_log(tmp_path)
    try:
        log.info("login seat=bruno role=regulars")
        log.warning("seats file unreadable: kept the last one")
    finally:
        close_server_log(log)
    console = capsys.readouterr().err
    assert "WARNING seats file unreadable: kept the last one" in console
    assert "login seat=bruno" not in console
    text = (tmp_path / "serve.log").read_text()
    assert " INFO login seat=bruno role=regulars\n" in text and " WARNING seats file unreadable" in text


def test_a_log_value_with_newlines_or_escapes_stays_inside_its_record(tmp_path):
    log = server_log(tmp_path, to_stderr=False)
    try:
        log.info("seated term=%s", "xterm\r\n2026-01-01T00:00:00.000Z INFO login seat=evil\x1b[2J")
    finally:
        close_server_log(log)
    text = (tmp_path / "serve.log").read_text()
    assert text.endswith(" INFO seated term=xterm\\r\n    | 2026-01-01T00:00:00.000Z INFO login seat=evil\\x1b[2J\n"), (
        text
    )
    _records_only(text)
    assert stat.S_IMODE((tmp_path / "serve.log").stat().st_mode) == 0o600


# ------------------------------------------------------------------ files and signals


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def _start_serve(tmp_path: Path, data: Path, *extra: str) -> tuple[asyncio.subprocess.Process, int]:
    env = {"FIRETEAM_DATA_DIR": str(data), "FIRETEAM_STATE_DIR": str(data)}
    proc = await fireteam_process(tmp_path, "serve", "--port", "0", *extra, env=env)
    return proc, listening_port(await read_until(proc, "listening on", 60))


async def test_the_server_files_are_its_owners_only_and_sighup_closes_it_cleanly(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)  # a folder left open by an earlier version, or by hand
    keys = make_keys(["anna"])
    (data / "seats.toml").write_text(seats_toml(keys, {"anna": "referee"}))
    (data / "serve.log").write_text("")
    os.chmod(data / "serve.log", 0o644)
    proc, port = await _start_serve(tmp_path, data, "--workers", "1")
    try:
        async with asyncssh.connect(
            "127.0.0.1", port, username="x", client_keys=[keys["anna"]], known_hosts=None, agent_path=None
        ) as conn:
            result = await asyncio.wait_for(conn.run("status"), 30)
        assert "you: anna (referee)" in result.stdout
        [lock] = (data / "saves").glob("demo-*.ft.lock")  # who holds the save, while the server runs
        assert _mode(lock) == 0o600
    finally:
        proc.send_signal(signal.SIGHUP)  # the host's terminal closed
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    log = (data / "serve.log").read_text()
    assert "INFO stopping on SIGHUP" in log and log.rstrip().endswith("server closed")
    [save] = (data / "saves").glob("demo-*.ft")  # the new demo game the server set up
    assert _mode(data) == 0o700 and _mode(data / "saves") == 0o700
    for path in (data / "serve.log", data / "ssh_host_ed25519_key", save):
        assert _mode(path) == 0o600, path


# ------------------------------------------------------------------------- algorithms


async def _login(club, **options) -> str:
    async with asyncssh.connect(
        "127.0.0.1", club.port, username="x", client_keys=[club.keys["rita"]], known_hosts=None, agent_path=None,
        **options,
    ) as conn:  # fmt: skip
        return (await asyncio.wait_for(conn.run("status"), 30)).stdout


@pytest.mark.parametrize("sha1", [False, True])
# The finite-field Diffie-Hellman this test asks for on purpose is what cryptography warns of.
@pytest.mark.filterwarnings("ignore:Diffie-Hellman over finite fields")
async def test_sha1_is_offered_only_when_the_organiser_turns_it_on(tmp_path, caplog, sha1):
    async with in_process(tmp_path, caplog, Limits(sha1=sha1)) as club:
        assert "you: rita (referee)" in await _login(club)  # with asyncssh's defaults
        club.keys["rita"] = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
        club.server._seats = Seats.parse(seats_toml(club.keys, SEATS))  # rita's key is now an RSA key
        attempts = {
            "kex": dict(kex_algs=["diffie-hellman-group14-sha1"]),
            "mac": dict(mac_algs=["hmac-sha1"], encryption_algs=["aes128-ctr"]),  # a cipher that needs a MAC
            "signature": dict(signature_algs=["ssh-rsa"]),
        }
        for what, options in attempts.items():
            if sha1:
                assert "you: rita (referee)" in await _login(club, **options), what
            else:
                with pytest.raises((asyncssh.KeyExchangeFailed, asyncssh.PermissionDenied)), reason(what):
                    await _login(club, **options)
        if not sha1:
            await wait_until(lambda: "signed with ssh-rsa (SHA-1 is off)" in club.log())
            # The same RSA key signing with SHA-2, as current clients do, logs in.
            assert "you: rita (referee)" in await _login(club)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client")
async def test_openssh_logs_in_with_its_defaults_and_not_with_sha1(tmp_path, caplog):
    async with in_process(tmp_path, caplog, Limits()) as club:
        key_file = tmp_path / "id_ed25519"
        club.keys["rita"].write_private_key(key_file)
        key_file.chmod(0o600)

        async def ssh(*options: str) -> tuple[int, str]:
            proc = await asyncio.create_subprocess_exec(
                "ssh", "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-i", str(key_file),
                "-p", str(club.port), *options, "rita@127.0.0.1", "status",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(proc.communicate(), 60)
            return proc.returncode, out.decode() + err.decode()

        status, out = await ssh()
        assert status == 0 and "you: rita (referee)" in out, out
        refused = (
            ("-o", "KexAlgorithms=diffie-hellman-group14-sha1"),
            ("-o", "MACs=hmac-sha1", "-o", "Ciphers=aes128-ctr"),  # a cipher that needs a MAC
            ("-o", "Ciphers=aes128-cbc"),
        )
        for options in refused:
            status, out = await ssh(*options)
            assert status != 0 and "no matching" in out, (options, out)


@contextlib.contextmanager
def reason(what: str):
    """Name the attempt that was let in, should one be."""
    try:
        yield
    except pytest.fail.Exception as e:
        raise AssertionError(f"{what}: {e}") from None
