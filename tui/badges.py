"""Status badges: short, coloured labels for the roster and the details lines.

Colours are ANSI names so they stay distinct in a 16-colour terminal.
"""

from __future__ import annotations

from rich.text import Text

#: status → (short label, style).  Statuses a ruleset adds fall back to a plain badge.
BADGES: dict[str, tuple[str, str]] = {
    "hidden": ("HID", "bold white on blue"),
    "suppressed": ("SUP", "bold black on yellow"),
    "pinned": ("PIN", "bold black on yellow"),
    "wounded": ("WND", "bold white on magenta"),
    "down": ("DOWN", "bold white on red"),
    "retreating": ("RETR", "bold white on magenta"),
    "stabilised": ("STAB", "bold black on cyan"),
    "captured": ("CAPT", "bold white on red"),
    "in-vehicle": ("VEH", "bold black on white"),
}
OUT_STYLE = "bold white on red"
PLAIN_STYLE = "bold black on white"


def badge(status: str) -> Text:
    label, style = BADGES.get(status, (_short(status), PLAIN_STYLE))
    return Text(f" {label} ", style=style)


def _short(status: str) -> str:
    """A ruleset's badge in four letters; a counting one keeps its number (``ready-2`` → READ2)."""
    word, _, count = status.rpartition("-")
    if word and count.isdigit():
        return f"{word[:4].upper()}{count}"
    return status[:4].upper()


def badges(statuses: tuple[str, ...], out: str = "") -> Text:
    text = Text()
    for s in statuses:
        text.append(" ")
        text.append_text(badge(s))
    if out:
        text.append(" ")
        text.append(" OUT ", style=OUT_STYLE)
    return text


def legend() -> list[tuple[Text, str]]:
    rows = [(badge(s), s) for s in BADGES]
    rows.append((Text(" OUT ", style=OUT_STYLE), "out of action"))
    return rows
