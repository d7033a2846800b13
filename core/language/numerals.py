"""Numbers as the reader writes them: ``25.5`` in English, ``25,5`` in Italian.

A number is first written as the code always wrote it (``str``, or a fixed
number of decimals), then its decimal point is the reader's (babel's symbol for
the language), so English stays byte for byte what it was and no digit is
rounded differently in another language.  Whole numbers are never grouped
(``1000``, not ``1,000``): a number in a sentence is one a player typed.
A count or a size the program states is grouped (:func:`grouped`).

The separators of the languages Fireteam speaks are kept here (:data:`SEPARATORS`,
CLDR's as babel has them: a test compares them), so that no start pays for
importing babel (~40 ms); a language missing from the table asks babel.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import cache

from core.language.reader import SOURCE, lang

#: Each language's decimal and thousands separators, as babel's CLDR data has
#: them (``tests/core/test_numerals.py`` checks); both write numbers with CLDR's
#: pattern ``#,##0.###``.
SEPARATORS: dict[str, tuple[str, str]] = {"en": (".", ","), "it": (",", ".")}
#: That pattern rounds to three decimals.
_THOUSANDTH = Decimal("0.001")


@cache
def point(language: str) -> str:
    """``language``'s decimal separator (``,`` in Italian)."""
    if language in SEPARATORS:
        return SEPARATORS[language][0]
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(language)


def localised(written: str, language: str | None = None) -> str:
    """``written`` (digits with a ``.``) with the reader's decimal point."""
    language = language or lang()
    return written if language == SOURCE else written.replace(".", point(language))


def decimal(value: int | float | Decimal | str, places: int | None = None) -> str:
    """``value`` as written (``places`` decimals if given), in the reader's notation."""
    written = str(value) if places is None else f"{float(value):.{places}f}"
    return localised(written)


def percent(fraction: float, places: int = 1) -> str:
    """``0.704`` → ``70.4%`` (``70,4%`` in Italian)."""
    return localised(f"{fraction * 100:.{places}f}%")


def grouped(n: int | float | Decimal, language: str | None = None) -> str:
    """``n`` with the reader's thousands separator, to at most three decimals:
    ``1,000,000.5`` in English, ``1.000.000,5`` in Italian (babel's ``format_decimal``)."""
    language = language or lang()
    written = _written(n, *SEPARATORS[language]) if language in SEPARATORS else None
    if written is not None:
        return written
    from babel.numbers import format_decimal

    return format_decimal(n, locale=language)


def _written(n: int | float | Decimal, decimal_sign: str, group: str) -> str | None:
    """``n`` as babel's ``format_decimal`` writes it with the pattern ``#,##0.###``
    and these separators (its steps: the sign apart, normalised, rounded half to
    even to three decimals, trailing zeros dropped, the whole part grouped by
    threes); None where babel has words of its own (infinities, not-a-number) or
    the number is past the decimal context's precision."""
    if isinstance(n, int):
        return f"{n:,}".replace(",", group)
    value = n if isinstance(n, Decimal) else Decimal(str(n))
    if not value.is_finite():
        return None
    try:
        rounded = abs(value).normalize().quantize(_THOUSANDTH)
    except InvalidOperation:
        return None
    whole, _, fraction = f"{rounded:f}".partition(".")
    fraction = fraction.rstrip("0")
    sign = "-" if value.is_signed() else ""
    return sign + f"{int(whole):,}".replace(",", group) + (decimal_sign + fraction if fraction else "")
