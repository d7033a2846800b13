"""The server's files that no one but the host's account may read: its data folder, its
host key, its log file, and the saves it serves (they name hidden units)."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import asyncssh

from tui.ssh.language import _

HOST_KEY_NAME = "ssh_host_ed25519_key"


def private_folder(folder: Path) -> Path:
    """``folder``, created if need be, readable by its owner only (the log names hidden units)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.stat().st_mode & 0o077:
        folder.chmod(0o700)
    return folder


def private_file(path: Path) -> Path:
    """``path``, created empty if need be, readable and writable by its owner only."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return path


def private_save(path: Path) -> str | None:
    """Make a served save readable by its owner only (it names hidden units); what to tell the host.

    A save the program makes is its owner's only (``core.storage.writer.OWNER_ONLY``); one
    an older Fireteam made, or one copied in under the usual umask ``022``, is readable
    by every account of the host while it is served.  Only
    its mode changes, never its bytes; one the host does not own is left as it
    is, and said to be readable by others.
    """
    mode = stat.S_IMODE(path.stat().st_mode)
    if not mode & 0o077:
        return None
    try:
        path.chmod(mode & 0o700)
    except OSError as e:
        said = _(
            "warning: {path} is readable by other accounts of this host and stays so ({error}): it names hidden units"
        )
        return said.format(path=path, error=e.strerror)
    said = _("{path} was readable by other accounts of this host: now by its owner only (it names hidden units)")
    return said.format(path=path)


def host_key(folder: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The server's host key, created (readable by its owner only) on first start."""
    path = folder / HOST_KEY_NAME
    if path.exists():
        return asyncssh.read_private_key(path), False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="fireteam serve")
    private_folder(folder)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        # Half a key would be read at the next start, and refused there: none is left.
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    return key, True
