"""The spectators' screens on core NATS: their subjects, a frame's message, and a relay's request for them.

A table draws its spectators' screens once (``tui.ssh.seating.sharedscreen``, the shared screens
its own spectators watch) and publishes their frames on core NATS (at most once, not
stored), one subject per table, language and shared size::

    fireteam.screen.TABLE.LANG.COLSxROWS

A frame's headers say which frame it is (``Fireteam-Frame``: the count of the frames the
screen's app has written), whether it is a **key frame** (``Fireteam-Key: 1``: the whole
screen as it stands after that frame, from its top left corner) and which run of the
screen it belongs to (``Fireteam-Run``: a token; a screen opened again counts from 0 again).
A relay that misses a frame sees the gap in the counts and waits for the next key frame.

A relay asks for the screens its watchers need on ``fireteam.want.TABLE`` (the language and
size, and whether it needs a key frame now), again every few seconds while they watch: a
table draws a screen only while some relay wants it, and a key frame at most once a second.

Everything read here came from NATS: it is checked and bounded before anything uses it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import msgspec

from core.language.reader import LANGUAGES
from core.venue import VenueError, checked_name
from tui.ssh.seating.stands import SHARED_SIZES

#: The largest frame published or read: NATS's default ``max_payload`` (a whole 120x40 truecolor screen is 30–51 KB).
MAX_FRAME_BYTES = 1 << 20
#: The largest request for a screen read (a language, a size and a flag).
MAX_WANT_BYTES = 256
#: Seconds between a relay's requests for a screen while its watchers watch it.
WANT_EVERY_S = 5.0
#: A screen no relay asked for in this long is no longer drawn for NATS.
WANTED_FOR_S = 3 * WANT_EVERY_S
#: Seconds between two key frames of one screen at least (a relay's request sooner waits for it).
KEY_MIN_S = 1.0
#: Seconds after which a screen that changed sends a key frame unasked (a lost frame is repaired by it).
KEY_EVERY_S = 10.0

FRAME = "Fireteam-Frame"
KEY = "Fireteam-Key"
RUN = "Fireteam-Run"
_RUN = re.compile(r"[0-9a-f]{1,32}")
#: Terminal sequences a frame may not hold: operating-system commands (a window title, the clipboard),
#: device control and privacy strings, and their 8-bit forms.  Textual draws with CSI and SGR only;
#: a frame from NATS that holds these is not a screen the table drew.
_FORBIDDEN = re.compile("\x1b[\\]P_^X]|[\x80-\x9f]")


class Screen(NamedTuple):
    """One spectators' screen of a table: its language and shared size."""

    table: str
    lang: str
    size: tuple[int, int]


def checked_screen(table: str, lang: str, size: tuple[int, int]) -> Screen:
    if lang not in LANGUAGES:
        raise VenueError(f"no language {lang[:16]!r}")
    if size not in SHARED_SIZES:
        raise VenueError(f"no shared size {size!r}")
    return Screen(checked_name(table, "table"), lang, size)


def screen_subject(screen: Screen) -> str:
    return f"fireteam.screen.{screen.table}.{screen.lang}.{screen.size[0]}x{screen.size[1]}"


def want_subject(table: str) -> str:
    return f"fireteam.want.{checked_name(table, 'table')}"


class Frame(NamedTuple):
    run: str
    number: int
    key: bool
    text: str


def frame_headers(run: str, number: int, key: bool) -> dict[str, str]:
    return {RUN: run, FRAME: str(number), KEY: "1" if key else "0"}


def read_frame(headers: dict[str, str] | None, data: bytes) -> Frame:
    """A frame from its message, checked: VenueError if it is not one."""
    if len(data) > MAX_FRAME_BYTES:
        raise VenueError(f"a frame of {len(data)} bytes, more than {MAX_FRAME_BYTES}")
    headers = headers or {}
    run, number, key = headers.get(RUN, ""), headers.get(FRAME, ""), headers.get(KEY, "")
    if not _RUN.fullmatch(run) or not (number.isdigit() and len(number) <= 12) or key not in ("0", "1"):
        raise VenueError("a frame without its run, number or kind")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise VenueError("a frame that is not UTF-8") from None
    if _FORBIDDEN.search(text):
        raise VenueError("a frame with terminal commands no screen of a table sends")
    return Frame(run, int(number), key == "1", text)


class Want(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A relay's request for a screen of a table: ``key`` when it needs a key frame now."""

    lang: str
    cols: int
    rows: int
    key: bool = False


def read_want(table: str, data: bytes) -> tuple[Screen, bool]:
    """A request's screen and whether it asks for a key frame; VenueError if it is not one."""
    if len(data) > MAX_WANT_BYTES:
        raise VenueError("a request too large")
    try:
        want = msgspec.json.decode(data, type=Want)
    except (msgspec.ValidationError, msgspec.DecodeError):
        raise VenueError("not a request for a screen") from None
    return checked_screen(table, want.lang, (want.cols, want.rows)), want.key


def want_bytes(screen: Screen, key: bool) -> bytes:
    return msgspec.json.encode(Want(screen.lang, screen.size[0], screen.size[1], key))
