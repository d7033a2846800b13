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

import re
from pathlib import Path

import msgspec
from rich.terminal_theme import TerminalTheme
from textual.theme import Theme

from tui.i18n import _

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

#: Red, green, yellow, blue, magenta, cyan and white under the high-contrast theme, each at 7 to 1
#: or more on black (``tui.contrast``): the bright ones are the same, already as bright as that allows.
_HIGH_CONTRAST_COLOURS = [
    (255, 112, 112),
    (0, 255, 102),
    (255, 255, 0),
    (153, 153, 255),
    (255, 128, 255),
    (0, 255, 255),
    (255, 255, 255),
]
#: The ANSI colours (``red``, ``green`` …, which the panes name) under the high-contrast theme:
#: black, the seven, then grey as bright black.
HIGH_CONTRAST_ANSI = TerminalTheme(
    (0, 0, 0), (255, 255, 255), [(0, 0, 0), *_HIGH_CONTRAST_COLOURS, (160, 160, 160)], _HIGH_CONTRAST_COLOURS
)

#: The themes the client adds to Textual's (FireteamApp registers them).
THEMES = (HIGH_CONTRAST,)


class ThemeFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A theme file of the user's (``<config>/themes/NAME.toml``): Textual's theme fields."""

    name: str
    primary: str
    dark: bool = True
    secondary: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    #: Textual's design variables (``footer-key-foreground``...), each a colour.
    variables: dict[str, str] = msgspec.field(default_factory=dict)


#: Theme files read, at most (the first, by name).
MAX_THEME_FILES = 32
#: A theme file larger than this is not read.
MAX_THEME_BYTES = 64 * 1024
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_VARIABLE = re.compile(r"[a-z0-9-]{1,40}")


def user_themes(folder: Path) -> tuple[list[Theme], list[str]]:
    """The themes of the user's files in ``folder`` (as harlequin and posting take them), and
    why any file was left out.  Each is hostile input: bounded, every field checked."""
    themes: list[Theme] = []
    problems: list[str] = []
    try:
        paths = sorted(folder.glob("*.toml"))[:MAX_THEME_FILES]
    except OSError:
        return [], []
    if not paths:
        return [], []
    import tomllib  # (read only where the user has theme files: not at every start)

    from textual.color import Color, ColorParseError

    for path in paths:
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_THEME_BYTES:
                raise ValueError(_("not a regular file of at most {limit} bytes").format(limit=MAX_THEME_BYTES))
            found = msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), ThemeFile)
            if not _NAME.fullmatch(found.name):
                raise ValueError(
                    _("a name is lower-case letters, digits and hyphens: {name}").format(name=repr(found.name[:40]))
                )
            colours = {
                f: getattr(found, f) for f in ThemeFile.__struct_fields__ if f not in ("name", "dark", "variables")
            }
            for field, value in [*colours.items(), *found.variables.items()]:
                if field in found.variables and not _VARIABLE.fullmatch(field):
                    raise ValueError(_("no variable {name}").format(name=repr(field[:40])))
                if value is not None:
                    Color.parse(value)  # a colour, or ColorParseError
            themes.append(Theme(dark=found.dark, variables=dict(found.variables), name=found.name, **colours))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, msgspec.ValidationError, ColorParseError,
                ValueError) as e:  # fmt: skip
            problems.append(_("theme file ignored ({path}): {error}").format(path=path, error=e))
    return themes, problems
