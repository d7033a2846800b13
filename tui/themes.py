"""The client's own themes, beside Textual's: a high-contrast one.

``fireteam-high-contrast`` is white and bright colours on black, every text at
a contrast of at least 7 to 1 with what is behind it (WCAG's AAA for text;
``tests/tui/test_tui_contrast.py`` measures the screens), for a reader who
needs more than the default theme gives, or a projector in a lit room.  It is
chosen as any theme is, in the command palette (Ctrl+P, "Theme"), and
remembered with the client's settings (``tui.userdata``).  The colours the
panes name (``red``, ``green`` …) are its own bright ones
(:data:`HIGH_CONTRAST_ANSI`), and ``tui.contrast.ContrastGuard`` sees that
every character reads at 7 to 1.
"""

from __future__ import annotations

from rich.terminal_theme import TerminalTheme
from textual.theme import Theme

HIGH_CONTRAST = Theme(
    name="fireteam-high-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffff00",
    warning="#ffaa00",
    error="#ff6e6e",
    success="#00ff66",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#000000",
    boost="#000000",
    dark=True,
    variables={
        # What Textual draws muted (hints, placeholders, a blurred border) stays clear.
        "text-muted": "#ffffff",
        "text-disabled": "#d0d0d0",
        "foreground-muted": "#ffffff",
        "border-blurred": "#ffffff",
        "block-cursor-foreground": "#000000",
        "block-cursor-background": "#ffff00",
        "block-cursor-blurred-foreground": "#000000",
        "block-cursor-blurred-background": "#d0d0d0",
        "block-hover-background": "#333333",
        "footer-key-foreground": "#ffff00",
        "footer-description-foreground": "#ffffff",
        "footer-background": "#000000",
        # Solid: a selection blended into black (40%) was a mid olive no text reads on at 7 to 1.
        "input-selection-background": "#ffff00",
        "scrollbar": "#ffffff",
        "scrollbar-background": "#000000",
    },
)

#: The ANSI colours (``red``, ``green`` …, which the panes name) under the high-contrast
#: theme: each at 7 to 1 or more on black (``tui.contrast``).
HIGH_CONTRAST_ANSI = TerminalTheme(
    (0, 0, 0),
    (255, 255, 255),
    [
        (0, 0, 0),
        (255, 112, 112),
        (0, 255, 102),
        (255, 255, 0),
        (153, 153, 255),
        (255, 128, 255),
        (0, 255, 255),
        (255, 255, 255),
        (160, 160, 160),
    ],
    [
        (255, 112, 112),
        (0, 255, 102),
        (255, 255, 0),
        (153, 153, 255),
        (255, 128, 255),
        (0, 255, 255),
        (255, 255, 255),
    ],
)

#: The themes the client adds to Textual's (FireteamApp registers them).
THEMES = (HIGH_CONTRAST,)
