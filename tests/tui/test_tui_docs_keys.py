"""The docs name the keys the client binds: docs/report.md once told Ctrl+R (the replay's
key) for the report, which is F4 and Ctrl+O (#61)."""

from __future__ import annotations

import re
from pathlib import Path

from tui.keymap import GAME_BINDINGS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _keys_named(text: str) -> set[str]:
    """The keys a page names as ``Ctrl+X``/``F4`` in backquotes, as Textual spells them."""
    return {k.lower() for k in re.findall(r"`((?:Ctrl\+)?(?:F\d+|[A-Z]))`", text)}


def test_the_report_page_names_the_reports_keys():
    (report,) = [b for b in GAME_BINDINGS if b.action == "report"]
    bound = set(report.key.split(","))
    text = (DOCS / "report.md").read_text(encoding="utf-8")
    said = re.search(r"In the client, (.+?) \(or \*Report\*", text)
    assert said is not None
    named = _keys_named(said.group(1))
    assert named and named <= bound, (named, bound)
