"""Numbers as the reader writes them: ``25.5`` in English, ``25,5`` in Italian.

A number is first written as the code always wrote it (``str``, or a fixed
number of decimals), then its decimal point is the reader's (babel's symbol for
the language), so English stays byte for byte what it was and no digit is
rounded differently in another language.  Whole numbers are never grouped
(``1000``, not ``1,000``): a number in a sentence is one a player typed.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache

from core.i18n import SOURCE, lang


@cache
def _point(language: str) -> str:
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(language)


def localised(written: str, language: str | None = None) -> str:
    """``written`` (digits with a ``.``) with the reader's decimal point."""
    language = language or lang()
    return written if language == SOURCE else written.replace(".", _point(language))


def decimal(value: int | float | Decimal | str, places: int | None = None) -> str:
    """``value`` as written (``places`` decimals if given), in the reader's notation."""
    written = str(value) if places is None else f"{float(value):.{places}f}"
    return localised(written)


def percent(fraction: float, places: int = 1) -> str:
    """``0.704`` → ``70.4%`` (``70,4%`` in Italian)."""
    return localised(f"{fraction * 100:.{places}f}%")
