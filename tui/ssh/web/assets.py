"""The browser door's pages and static files: the files served from ``page/``, read once, their
version in the pages' addresses, the templates the pages are made of, and what every answer says
to the browser about itself (``tui.ssh.web.door``).  Static files are a fixed table of names: no
path from a request ever reaches the file system."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

PAGE_FOLDER = Path(__file__).with_name("page")
#: The static files, by the name they are asked for: nothing else is ever read from disk.
ASSETS = {
    "xterm.mjs": "text/javascript",
    "xterm.css": "text/css",
    "fireteam.mjs": "text/javascript",
    "fireteam.css": "text/css",
    "plain.mjs": "text/javascript",
    "sha256.mjs": "text/javascript",
    "shares.mjs": "text/javascript",
}
#: How long a browser keeps a static file under this version's address: a year, never asking again whether it
#: changed (a phone opening the page another day fetches nothing but the page; Chromium keeps the scripts compiled).
STATIC_KEPT = "public, max-age=31536000, immutable"
#: The one script written in a page: the terminal page that answers ``/join/TOKEN`` takes the token out of
#: the address bar and out of its entry of the history before anything else is read (and marks the entry,
#: so that the page knows where it came from); the Content-Security-Policy lets it run by its hash alone.
LEAVE_JOIN = 'history.replaceState("joined", "", "/")'
_LEAVE_JOIN_HASH = base64.b64encode(hashlib.sha256(LEAVE_JOIN.encode()).digest()).decode()
#: What every answer says to the browser about itself.
SECURITY_HEADERS = {
    # xterm.js styles its rows with <style> elements it makes: styles may be inline, scripts may not.
    "Content-Security-Policy": (
        f"default-src 'none'; script-src 'self' 'sha256-{_LEAVE_JOIN_HASH}'; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self'; "
        "img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Server": "fireteam",  # not aiohttp's name and version
}


def json_in_html(value: Any) -> str:
    """JSON in a script element: no "<" may close it early."""
    return json.dumps(value, ensure_ascii=True).replace("<", "\\u003c")


@cache
def asset(name: str, gzipped: bool = False) -> bytes:
    """A static file, read once; ``gzipped``, compressed once (xterm.mjs: 345 KB, 88 KB so: thirty phones
    on a venue's Wi-Fi fetch it at once)."""
    data = (PAGE_FOLDER / name).read_bytes()
    return gzip.compress(data, compresslevel=9, mtime=0) if gzipped else data


@cache
def digest(name: str) -> str:
    """A static file's digest, its ETag."""
    return hashlib.sha256(asset(name)).hexdigest()[:20]


@cache
def version() -> str:
    """The static files' version, in the addresses the pages give them (``/static/NAME?v=VERSION``): a digest of
    them all, so that a browser keeps them for good, and a server with other files gives them other addresses."""
    return hashlib.sha256("".join(f"{name} {digest(name)}\n" for name in sorted(ASSETS)).encode()).hexdigest()[:12]


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (and does not refuse it with ``q=0``)."""
    for item in accept_encoding.split(",")[:32]:
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() == "gzip":
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


@cache
def template(name: str) -> str:
    return (PAGE_FOLDER / name).read_text(encoding="utf-8")
