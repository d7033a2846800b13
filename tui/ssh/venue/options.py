"""Where a table or a relay finds the venue's NATS: ``--nats URL`` (and its credentials), or the
table's settings, ``venue.toml`` in the data folder (docs/ssh.md, *A venue on NATS*)::

    nats = "tls://nats.venue.lan:4222"
    creds = "/home/anna/.config/fireteam/table.creds"   # optional
    ca = "/home/anna/.config/fireteam/venue-ca.pem"     # optional

With neither, nothing of the venue runs: a table is what it always was.
This module imports no NATS client, so ``fireteam serve`` without one pays nothing.
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from core.folders import doc
from tui.ssh.language import _

if TYPE_CHECKING:  # (the connection reads the venue's streams, core.venue, which reads games: not for --help)
    from tui.ssh.venue.connection import NatsOptions

SETTINGS_NAME = "venue.toml"
_KEYS = {"nats", "creds", "ca"}


def add_nats_arguments(parser: argparse.ArgumentParser, *, table: bool) -> None:
    group = parser.add_argument_group(_("venue on NATS (see {doc}, A venue on NATS)").format(doc=doc("ssh.md")))
    group.add_argument(
        "--nats",
        metavar="URL",
        help=_("the venue's NATS server (nats://HOST:4222 or tls://...; several, comma-separated)")
        + (_("; else {settings} in the data folder").format(settings=SETTINGS_NAME) if table else ""),
    )
    group.add_argument("--nats-creds", type=Path, metavar="FILE", help=_("NATS credentials file (JWT and nkey)"))
    group.add_argument(
        "--nats-ca", type=Path, metavar="FILE", help=_("the CA that signed the NATS server's TLS certificate")
    )
    if table:
        group.add_argument(
            "--nats-take-over",
            action="store_true",
            help=_("publish the tables even if another fireteam serve claimed them (its laptop is gone)"),
        )


def nats_options(args: argparse.Namespace, folder: Path | None) -> NatsOptions | None:
    """The NATS to use (the command line's, else the settings'), or None; ValueError says what is wrong."""
    url = getattr(args, "nats", None)
    creds, ca = getattr(args, "nats_creds", None), getattr(args, "nats_ca", None)
    if url is None and folder is not None:
        settings = _settings(folder / SETTINGS_NAME)
        url = settings.get("nats")
        creds = creds or (Path(settings["creds"]) if "creds" in settings else None)
        ca = ca or (Path(settings["ca"]) if "ca" in settings else None)
    if url is None:
        if creds or ca:
            raise ValueError("--nats-creds and --nats-ca are options of --nats: give --nats URL too")
        return None
    if not all(u.strip().startswith(("nats://", "tls://")) for u in url.split(",")):
        raise ValueError(f"--nats takes nats://HOST:PORT or tls://HOST:PORT addresses, not {url!r}")
    for path in (creds, ca):
        if path is not None and not path.is_file():
            raise ValueError(f"{path}: no such file")
    from tui.ssh.venue.connection import NatsOptions

    return NatsOptions(url, creds, ca)


def _settings(path: Path) -> dict[str, str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path}: {e}") from None
    unknown = set(data) - _KEYS
    if unknown:
        raise ValueError(f"{path}: unknown settings {', '.join(sorted(unknown))} (known: {', '.join(sorted(_KEYS))})")
    if not all(isinstance(v, str) and len(v) < 4096 for v in data.values()):
        raise ValueError(f"{path}: each setting is a string")
    return data
