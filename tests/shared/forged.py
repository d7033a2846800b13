"""A save edited as a referee who rewrites his file would: its events decoded with the product's
own schema, changed, and every line's check chained again, so the file loads as an honest one.

A test module imports it with ``tests/shared`` on ``sys.path`` (see ``hostile.py``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path

import msgspec

from core.game import Game
from core.log import events as ev


def rewrite(path: Path, edit: Callable[[list[ev.Event]], list[ev.Event]]) -> None:
    """``path``'s events decoded, given to ``edit`` (which returns them changed), encoded
    again and each line's check re-chained: a file that loads, with the edit in it."""
    lines = path.read_bytes().splitlines()
    events = [msgspec.json.decode(line[9:], type=ev.AnyEvent) for line in lines[1:]]
    events = edit(events)
    check = zlib.crc32(lines[0][9:])
    out = [lines[0]]
    for e in events:
        payload = msgspec.json.encode(e)
        check = zlib.crc32(payload, check)
        out.append(b"%08x %b" % (check, payload))
    path.write_bytes(b"\n".join(out) + b"\n")
    Game.open(path, writable=False).close()  # the file's own checks pass
