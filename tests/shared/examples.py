"""How many examples a property test draws: the count it names in the full profile, fewer per commit.

A test names the examples its search needs (``@settings(max_examples=examples(300))``); the profile
in force (``conftest.py``) draws that many in CI and in a named run (``--hypothesis-profile=full``),
and a fifth of it, never fewer than ten (or the count, if smaller), in a developer's runs between
two commits (the ``commit`` profile, the default outside CI): the search that CI makes whole is the
same search, shorter.  ``FIRETEAM_EXAMPLES``, where a test reads it, still names the count itself.
"""

from __future__ import annotations

from hypothesis import settings

#: Hypothesis's own default count, which the ``full`` profile keeps: a profile's ``max_examples``
#: over it is the share of each test's count that profile draws.
FULL = 100
#: The fewest examples a shortened search draws.
FLOOR = 10


def examples(full: int) -> int:
    """The examples to draw of a search that draws ``full`` in the full profile."""
    share = settings().max_examples / FULL
    return max(min(full, FLOOR), round(full * share))
