"""Text from a save (names, titles, notes, commands) made inert for each format.

A save is hostile input: a unit named ``<script>`` or ``](javascript:…)`` must
come out as those characters, never as a tag or a link.  Control characters
and line breaks are shown as their escapes, so no text can start a new line
(a heading, a table row) of its own.
"""

from __future__ import annotations

import html

#: What Markdown may read as inline syntax (emphasis, code, links and images, table
#: cells, strikethrough, headings): written backslash-escaped, as CommonMark allows
#: for any ASCII punctuation; ``&``, ``<`` and ``>`` as entities (no tag, no autolink).
#: Every line the report writes starts with its own words or marker, so the
#: block syntax of a line's start (lists, quotes) never comes from the save.
_MD_PUNCTUATION = frozenset("\\`*_[]!|~#")
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _printable(c: str) -> str:
    return c if c.isprintable() else c.encode("unicode_escape").decode("ascii")


def md(text: str) -> str:
    out = []
    for c in text:
        if c in _MD_ENTITIES:
            out.append(_MD_ENTITIES[c])
        elif c in _MD_PUNCTUATION:
            out.append("\\" + c)
        else:
            out.append(_printable(c))
    return "".join(out)


def html_text(text: str) -> str:
    return html.escape("".join(_printable(c) for c in text), quote=True)
