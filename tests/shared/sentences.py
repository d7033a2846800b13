"""What a whole sentence written as plain text is, for the tests of the line client
(``fireteam --plain``, a plain SSH seat): no control character, no table or box art,
no padding, no decorative sign a screen reader would spell out, a sentence's end.

A test module imports it with ``tests/shared`` on ``sys.path`` (see ``hostile.py``).
"""

from __future__ import annotations

import re

#: Box drawing, block elements and the geometric shapes tables and frames are drawn with.
BOX_ART = re.compile("[\u2500-\u259f\u25a0-\u25ff]")
#: Signs a screen reader spells out by their Unicode names ("right-pointing double angle quotation
#: mark", "anticlockwise top semicircle arrow"), where the Textual panes draw them as decoration:
#: arrows, dingbats (✓ ✗ ★), the middle dot that separates a pane's items.
SPELLED_SIGNS = re.compile("[«»·\u2190-\u21ff\u2600-\u27bf]")
#: Table art made of plain characters: a cell's bar, a rule, columns lined up with spaces.
TABLE_ART = re.compile(r"\||\+-|-{3,}|={3,}|\S {2,}\S")
#: What may end a sentence (a question's prompt ends with its colon).
SENTENCE_END = (".", "!", "?", "…", ":")


def problems_of(lines: list[str]) -> list[str]:
    """The lines that are not whole sentences written as plain text."""
    bad = []
    for line in lines:
        if not line.strip():
            bad.append(f"an empty line: {line!r}")
        elif "\x1b" in line or any(ord(c) < 32 for c in line):
            bad.append(f"a control character: {line!r}")
        elif BOX_ART.search(line) or TABLE_ART.search(line):
            bad.append(f"table or box art: {line!r}")
        elif SPELLED_SIGNS.search(line):
            bad.append(f"a sign read out by its name: {line!r}")
        elif line != line.strip():
            bad.append(f"indented or padded: {line!r}")
        elif not line.endswith(SENTENCE_END):
            bad.append(f"no sentence's end: {line!r}")
    return bad
