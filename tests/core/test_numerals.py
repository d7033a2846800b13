"""Numbers in the reader's notation (core/language/numerals.py), written without babel as babel
writes them, so that no start pays for importing it."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol
from hypothesis import given
from hypothesis import strategies as st

from core.language.numerals import SEPARATORS, grouped, point
from core.language.reader import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
#: From 25 digits on babel raises (three decimals past the decimal context's 28 digits); this writes them.
WHOLE = st.integers(min_value=-(10**24) + 1, max_value=10**24 - 1)
DECIMALS = st.decimals(
    min_value=Decimal("-1e15"), max_value=Decimal("1e15"), allow_nan=False, allow_infinity=False, places=6
)
FLOATS = st.floats(min_value=-1e15, max_value=1e15, allow_nan=False, allow_infinity=False)


def test_every_language_has_babels_separators():
    assert set(SEPARATORS) == set(LANGUAGES)
    for language, (decimal_sign, group) in SEPARATORS.items():
        assert (decimal_sign, group) == (get_decimal_symbol(language), get_group_symbol(language))
        assert point(language) == decimal_sign


@pytest.mark.parametrize("language", LANGUAGES)
@given(n=st.one_of(WHOLE, DECIMALS, FLOATS))
def test_a_number_is_grouped_as_babel_groups_it(language, n):
    assert grouped(n, language) == format_decimal(n, locale=language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "n", [0, -0.0, Decimal("-0.0001"), 2.0005, 2.0015, Decimal("0.0005"), 1234567.8915, float("inf"), float("nan")]
)
def test_the_edges_are_babels(language, n):
    assert grouped(n, language) == format_decimal(n, locale=language)


@pytest.mark.subprocess
def test_the_client_imports_no_babel_for_english_or_for_the_numbers_of_italian():
    code = """
import sys
import tui.main
from decimal import Decimal
from core.language.numerals import grouped, localised
from tui.i18n import number
for language in ("en", "it"):
    grouped(1234567, language), grouped(Decimal("2.5"), language), localised("2.5", language)
number(2.5)
print(sorted(m for m in sys.modules if m.split(".")[0] == "babel"))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
