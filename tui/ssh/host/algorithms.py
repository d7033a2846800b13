"""The SSH algorithms the server offers (OpenSSH's defaults, SHA-1 only when the organiser
allows it) and the options of a terminal-only server."""

from __future__ import annotations

from typing import Any

import asyncssh
from asyncssh.encryption import get_encryption_algs
from asyncssh.kex import get_kex_algs
from asyncssh.mac import get_mac_algs
from asyncssh.public_key import get_public_key_algs

from tui.ssh.invitations.store import loggable_user
from tui.ssh.limits import Limits, QuietLog

# What current OpenSSH (9.x) offers by default, strongest first; SHA-1 only
# where the organiser turns it on (``fireteam serve --sha1``), as OpenSSH left it.
_KEX = (
    "mlkem768x25519-sha256", "sntrup761x25519-sha512", "sntrup761x25519-sha512@openssh.com",
    "curve25519-sha256", "curve25519-sha256@libssh.org",
    "ecdh-sha2-nistp256", "ecdh-sha2-nistp384", "ecdh-sha2-nistp521",
    "diffie-hellman-group-exchange-sha256",
    "diffie-hellman-group16-sha512", "diffie-hellman-group18-sha512", "diffie-hellman-group14-sha256",
)  # fmt: skip
_CIPHERS = (
    "chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr",
    "aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
)  # fmt: skip
_MACS = (
    "umac-64-etm@openssh.com", "umac-128-etm@openssh.com",
    "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com",
    "umac-64@openssh.com", "umac-128@openssh.com", "hmac-sha2-256", "hmac-sha2-512",
)  # fmt: skip
_SIGNATURES = (
    "ssh-ed25519", "sk-ssh-ed25519@openssh.com",
    "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "sk-ecdsa-sha2-nistp256@openssh.com",
    "rsa-sha2-512", "rsa-sha2-256",
)  # fmt: skip
_SHA1_KEX, _SHA1_MACS, _SHA1_SIGNATURES = (
    ("diffie-hellman-group14-sha1",),
    ("hmac-sha1-etm@openssh.com", "hmac-sha1"),
    ("ssh-rsa",),
)


def algorithms(*, sha1: bool) -> dict[str, list[str]]:
    """asyncssh's options for the algorithms offered: OpenSSH's defaults that this asyncssh has."""

    def known(names: tuple[str, ...], extra: tuple[str, ...], have: list[bytes]) -> list[str]:
        return [n for n in names + (extra if sha1 else ()) if n.encode() in have]

    return dict(
        kex_algs=known(_KEX, _SHA1_KEX, get_kex_algs()),
        encryption_algs=known(_CIPHERS, (), get_encryption_algs()),
        mac_algs=known(_MACS, _SHA1_MACS, get_mac_algs()),
        signature_algs=known(_SIGNATURES, _SHA1_SIGNATURES, get_public_key_algs()),
        compression_algs=["none"],
    )


def terminal_options(key: asyncssh.SSHKey, limits: Limits, keepalive_s: float, misses: int) -> dict[str, Any]:
    """asyncssh's server options for a terminal and nothing else (no forwarding, no scp): a client
    silent for ``misses`` keepalives ``keepalive_s`` apart is dropped."""
    return dict(
        server_host_keys=[key],
        line_editor=False,
        encoding="utf-8",
        errors="replace",
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        keepalive_interval=keepalive_s,
        keepalive_count_max=misses,
        login_timeout=limits.login_grace_s,
        **algorithms(sha1=limits.sha1),
    )


def signature_algorithm(signature: bytes) -> str:
    """The algorithm an SSH signature blob names (its first string)."""
    n = int.from_bytes(signature[:4], "big")
    return signature[4 : 4 + n].decode("ascii", "replace")


def refuse_sha1_signatures(conn: asyncssh.SSHServerConnection, limits: Limits, quiet_log: QuietLog) -> None:
    """Refuse a login signed with SHA-1 (``ssh-rsa``) unless the organiser allows SHA-1.

    asyncssh advertises ``signature_algs`` to the client but accepts any
    signature its key type can check; the check is added to this connection.
    """
    if limits.sha1:
        return
    allowed = set(algorithms(sha1=False)["signature_algs"])
    check = conn.validate_public_key

    async def validate(username: str, key_data: bytes, msg: bytes, signature: bytes) -> bool:
        if signature and (alg := signature_algorithm(signature)) not in allowed:
            peer = conn.get_extra_info("peername")
            quiet_log.warning(
                f"signature {peer[0] if peer else '?'}",
                "login refused from=%s user=%r: signed with %s (SHA-1 is off)",
                f"{peer[0]}:{peer[1]}" if peer else "?",
                loggable_user(username),
                alg,
            )
            return False
        return await check(username, key_data, msg, signature)

    conn.validate_public_key = validate  # type: ignore[method-assign]  # (asyncssh has no hook of a connection's own for it)
