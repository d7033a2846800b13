"""The line client's sentences: a stop at the end, a capital at the start, a list in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable

from tui.i18n import _

#: What ends a sentence (a line that ends otherwise gets a full stop).
_ENDS = (".", "!", "?", "…", ":")


def stopped(text: str) -> str:
    """``text`` with a full stop at its end, unless it ends a sentence already."""
    text = text.strip()
    return text if not text or text.endswith(_ENDS) else text + "."


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end (a line
    that begins with a word to type, a command's or a name, keeps its case: :func:`stopped`)."""
    text = stopped(text)
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def listed(items: Iterable[str]) -> str:
    """``a, b and c`` in the reader's language."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    # TRANSLATORS: the last two items of a list ("rifle, grenade and radio")
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])
