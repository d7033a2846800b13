"""A player's name as the league compares it: folded (issue #90).

``Anna``, ``anna`` and ``ａｎｎａ`` (full-width) are one player: names are compared after Unicode
compatibility normalisation and case folding (NFKC_Casefold, Unicode §3.13: NFKC, fold, NFKC
again, since folding can undo a normalisation).  Accents are kept: ``José`` and ``Jose`` may be
two people.  A name is shown as the league first wrote it.
"""

from __future__ import annotations

import unicodedata


def folded(name: str) -> str:
    """``name`` as compared: compatibility-normalised and case-folded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
