"""The versions of Fireteam released, as data: CHANGELOG.md's list of versions, oldest first.

A save records the version that wrote each of its sessions (``core.log.events.Issued.version``),
and ``fireteam verify`` believes a claimed version only if it is one of these, or newer than this
Fireteam (which cannot know of it: verify says so with an exit status of its own). A test holds
this list equal to CHANGELOG.md's headings (``tests/core/test_versions.py``); a release adds its
line here and its heading there, in the commit that sets ``core.__version__`` (CHANGELOG.md says
how releases are tagged).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import core


class Release(NamedTuple):
    version: str
    #: The day it was released (ISO 8601), as CHANGELOG.md's heading says it.
    date: str
    #: The rulesets (ids) whose results this release decides otherwise than the one before: where
    #: a game ends, its winner, a draw, the scores, from the table as it stands. A command an older
    #: version recorded may end a game otherwise only where one of them changed since (``fireteam
    #: verify``); CHANGELOG.md says how.
    results: tuple[str, ...] = ()
    #: The rulesets (ids) in which this release ends a game at a command where the one before
    #: went on (a rule that ends games sooner), the result of an end both give unchanged: a
    #: command an older version recorded may end a game the file does not end only where one of
    #: them changed since; an end the file records and the rules do not give is never a rule's.
    ends: tuple[str, ...] = ()


#: Every version released, oldest first; the last is this Fireteam's own (``core.__version__``).
RELEASES: tuple[Release, ...] = (
    Release("0.1.0", "2026-11-21"),
    Release("0.2.0", "2026-11-27"),
    Release(
        "0.3.0",
        "2026-11-28",
        # A scenario's break point ends the game in every ruleset (ruling CORE-BREAK-AT).
        ends=("bassa-intensita", "breaking-news", "linea-di-tiro", "ludonet"),
    ),
)

#: The first version that wrote its version on the sessions it wrote: a save that names none was
#: written by the one before it (0.1.0), and a command that names an older one claims what no
#: Fireteam ever wrote.
VERSION_RECORDED_FROM = "0.2.0"
#: The first version that recorded the language each command was given in (``Issued.lang``): in an
#: older session, a command that names none was given in a language nobody wrote down.
LANGUAGE_RECORDED_FROM = "0.3.0"

_SHAPE = re.compile(r"\d{1,4}\.\d{1,4}\.\d{1,4}")


def key(version: str) -> tuple[int, ...] | None:
    """``"0.2.0"`` as ``(0, 2, 0)``, to compare versions by; None for anything else (a save's text)."""
    if not _SHAPE.fullmatch(version):
        return None
    return tuple(int(part) for part in version.split("."))


def released(version: str) -> bool:
    return version in {r.version for r in RELEASES}


def newer(version: str) -> bool:
    """Whether ``version`` is a version after this Fireteam's (one it cannot know the rules of)."""
    mine, theirs = key(core.__version__), key(version)
    return mine is not None and theirs is not None and theirs > mine


def before(version: str, other: str) -> bool:
    """Whether release ``version`` came before ``other`` (both of the shape ``key`` reads)."""
    a, b = key(version), key(other)
    return a is not None and b is not None and a < b


def results_changed_since(version: str, ruleset: str) -> bool:
    """Whether a release after ``version``, up to this Fireteam, decides ``ruleset``'s results otherwise."""
    return any(ruleset in r.results for r in RELEASES if before(version, r.version) and not newer(r.version))


def ends_changed_since(version: str, ruleset: str) -> bool:
    """Whether a release after ``version``, up to this Fireteam, ends ``ruleset``'s games at more commands."""
    return any(ruleset in r.ends for r in RELEASES if before(version, r.version) and not newer(r.version))
