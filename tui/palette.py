"""Command palette entries: one per game command (from ``game.commands``) and per app action."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from core.language.i18n import Domain
from tui.plain import visible
from tui.screens.game import GameScreen


class GameCommands(Provider):
    """Every command of the game's ruleset and the client's own actions."""

    def _entries(self) -> list[tuple[str, str, object]]:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return []
        out: list[tuple[str, str, object]] = []
        if not screen.replay:
            words = Domain(screen.game.ruleset.domain)
            for spec in screen.game.commands:
                name = words.pgettext("command", spec.name)  # the reader's name for it, beside the English
                shown = spec.name if name == spec.name else f"{spec.name} · {name}"
                said = words.gettext(spec.help) if spec.help else spec.help
                out.append((shown, said, partial(screen.runner.start, spec)))
        for name, help_text, action in screen.palette_actions():
            out.append((name, help_text, partial(screen.call_later, screen.run_action, action)))
        return out

    # (Textual types a hit's help as str; it reads it with Content.from_markup, which takes a Content as it is.)

    async def discover(self) -> Hits:
        for name, help_text, callback in self._entries():
            yield DiscoveryHit(Content(name), callback, text=name, help=_help(help_text))  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._entries():
            score = max(matcher.match(name), matcher.match(help_text) * 0.5)
            if score > 0:
                # A command's name is the ruleset's own word; its help may quote a
                # player's command (undo's), so it is shown as text.
                yield Hit(score, matcher.highlight(name), callback, text=name, help=_help(help_text))  # type: ignore[arg-type]


def _help(text: str) -> Content:
    """Help text as the palette shows it: never markup (a bare string would be read as markup)."""
    return Content(visible(text))
