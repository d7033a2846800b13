"""The footer of keys, rebuilt only when the keys it shows change.

Textual's ``Footer`` recomposes (removes and mounts a widget per key, then
lays out the screen) whenever the screen's bindings are refreshed: on every
focus change and every time a dialog closes, even when it would show the same
keys.  That was most of the time an undo or a redo took (Ctrl+Z opens a
dialog, ``y`` closes it: two rebuilds, the second after the panes had
already been drawn, so a second full frame).  This footer compares what it
would show with what it shows, and rebuilds only when they differ.

The bindings' descriptions are English (marked ``N_``): the footer shows them
in the reader's language, and a change of language rebuilds it.

The keys fit the width: Textual's footer lays them all out in a row that
scrolls, under the palette's key docked at the right, so that on a narrow
screen (a phone's, 64 columns) a label was cut and a letter of it left beside
the palette's ("^z Ann▏^p comandii", #61).  Those that do not fit are left
out, each label shown whole, the first ones kept; a change of width rebuilds it.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.screen import Screen
from textual.widgets import Footer

from core.language.reader import lang
from tui.i18n import _
from tui.textual_internals import FooterKey


def _cells(key: FooterKey, compact: bool) -> int:
    """The columns ``key`` takes in the bar, its margin with it, as Textual's footer styles it (compact:
    ``^z Undo`` and a space; else `` ^z `` ``Undo ``; the palette's has a border at its left)."""
    label = cell_len(key.key_display) + (cell_len(key.description) + 1 if key.description else 0)
    palette = key.has_class("-command-palette")
    if compact:
        return label + 1 + palette
    return label + 2 + (1 if key.description else 0) + 2 * palette


class KeysFooter(Footer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple | None = None

    def _keys(self) -> tuple:
        """What :meth:`Footer.compose` reads from the screen, as a value to compare."""
        palette = self.app.COMMAND_PALETTE_BINDING if self.show_command_palette else None
        return tuple(
            (binding.key, binding.action, binding.description, binding.group, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
            if binding.show or key == palette
        ) + (self.app.ENABLE_COMMAND_PALETTE, lang(), self.app.size.width)

    def compose(self):
        # Textual's footer yields nothing until its screen's bindings are ready: only
        # keys shown are remembered as shown (a footer with none is built again next time).
        # Lazily, as Textual composes: a group of keys is a container its keys go into.
        keys, shown = self._keys(), None
        widgets = list(super().compose())  # (no binding of ours is in a group: no container to lay out)
        for widget in widgets:
            shown = keys
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description) if widget.description else ""
                # Each key is told it is compact once mounted (a data binding), which
                # restyles it: with the class given now, that changes nothing.
                widget.set_class(self.compact, "-compact", update=False)
        free = self.app.size.width - sum(
            _cells(w, self.compact) for w in widgets if isinstance(w, FooterKey) and w.has_class("-command-palette")
        )
        for widget in widgets:
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                cells = _cells(widget, self.compact)
                if cells > free:
                    continue
                free -= cells
            yield widget
        self._shown = shown

    def on_resize(self, event: events.Resize) -> None:
        self.bindings_changed(self.screen)

    def on_mount(self) -> None:
        # The game screen mounts it once its keys are settled (after its first frame):
        # no change of them may come then to tell it, so it shows them as it is mounted.
        self.bindings_changed(self.screen)

    def bindings_changed(self, screen: Screen) -> None:
        if self._shown is not None and screen is self.screen and self.is_attached and self._keys() == self._shown:
            return
        super().bindings_changed(screen)
