"""Every word readable on its background: under ``NO_COLOR``, and in the high-contrast theme.

**NO_COLOR.**  Textual honours it by turning every colour into the grey of the
same lightness (``textual.filter.Monochrome``).  Text whose meaning was its
colour then sank into the background: red on the dark screen became grey 59
on 18 (the "Game over" line, the defeat points, the log's losses: a contrast
of 1.7 to 1), green and the muted greys little better.  So the client keeps
Textual's greys for the backgrounds, which tell the panes, the cursor's row
and a badge apart, and writes every character in black or in white, whichever
reads better on its own background (:class:`ReadableMonochrome`).  What colour
alone said is said in words or signs too: a roll's outcome is marked ✓ or ✗
(``tui.panes.log``, ``tui.panes.dice``), the command line's answers already
are, a badge is its word.

**The high-contrast theme** (``tui.themes``) is bright colours on black; on
top of it :class:`ContrastGuard` writes in black or white any character whose
colour would read at less than 7 to 1 on its background (WCAG's AAA for text:
a badge's white on its red, a blue), and draws none dim; on a mid grey neither
reaches 7 to 1 (the game dimmed behind a dialog), so that background goes
black or white too.

``tests/tui/test_tui_contrast.py`` measures every cell of the screens in both.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

_BLACK = Color(0, 0, 0)
_WHITE = Color(255, 255, 255)
#: WCAG's least contrast for text: AA, and AAA (the high-contrast theme's).
AA, AAA = 4.5, 7.0
_NOT_DIM = Style(dim=False)


def contrast(a: Color, b: Color) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _luminance(color: Color) -> float:
    def channel(c: int) -> float:
        share = c / 255
        return share / 12.92 if share <= 0.03928 else ((share + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def _black_or_white(behind: Color) -> RichColor:
    """Black or white, whichever reads better on ``behind``."""
    text = _WHITE if contrast(_WHITE, behind) >= contrast(_BLACK, behind) else _BLACK
    return RichColor.from_rgb(*text.rgb)


def _colours(style: Style, background: Color) -> tuple[Color, Color]:
    """(the text's colour, what is behind it) as the style draws them (``background``: under a clear one)."""
    fg = Color.from_rich_color(style.color) if style.color is not None else _WHITE
    bg = Color.from_rich_color(style.bgcolor) if style.bgcolor is not None else background
    return fg, bg


@lru_cache(4096)
def readable(style: Style, background: Color) -> Style:
    """``style`` in greys: its background as Textual's monochrome makes it, its text black or white."""
    grey = _colours(style, background)[1].monochrome
    return style + Style.from_color(_black_or_white(grey), grey.rich_color)


@lru_cache(4096)
def guarded(style: Style, background: Color) -> Style:
    """``style``, never dim, its text in black or white where its colour would read at less than
    AAA; on a mid grey, where neither would (the game dimmed behind a dialog), its background
    too: black or white, whichever it is nearer, the text the other."""
    style = style + _NOT_DIM
    fg, bg = _colours(style, background)
    if style.reverse:  # the terminal swaps them: the background is what is read
        fg, bg = bg, fg
    if contrast(fg, bg) >= AAA:
        return style
    text = _black_or_white(bg)
    if contrast(Color.from_rich_color(text), bg) < AAA:
        dark = contrast(bg, _BLACK) < contrast(bg, _WHITE)
        bg_colour, text_colour = (_BLACK, _WHITE) if dark else (_WHITE, _BLACK)
        behind = RichColor.from_rgb(*bg_colour.rgb)
        text = RichColor.from_rgb(*text_colour.rgb)
        return style + (Style(color=behind, bgcolor=text) if style.reverse else Style(color=text, bgcolor=behind))
    if style.reverse:
        return style + Style(bgcolor=text)
    return style + Style(color=text)


class ReadableMonochrome(LineFilter):
    """``NO_COLOR``: Textual's ``Monochrome``, every character black or white on its grey."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else readable(style, background), control)
            for text, style, control in segments
        ]


class ContrastGuard(LineFilter):
    """The high-contrast theme: every character at AAA on its background, none dim."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else guarded(style, background), control)
            for text, style, control in segments
        ]
