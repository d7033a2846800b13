"""SSH keys and signatures for tests, made with ``ssh-keygen`` as a player makes them (docs/league.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from core.league.certificate import NAMESPACE


def keygen(folder: Path, name: str, kind: str = "ed25519") -> Path:
    key = folder / name
    subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", "", "-C", name, "-f", str(key)], check=True)
    return key


def signer_line(key: Path, identity: str) -> str:
    kind, blob, *_ = key.with_name(key.name + ".pub").read_text().split()
    return f"{identity} {kind} {blob}"


def sign(key: Path, file: Path, namespace: str = NAMESPACE) -> Path:
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", namespace, str(file)], check=True)
    return file.with_name(file.name + ".sig")
