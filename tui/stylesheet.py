"""A stylesheet whose rules are parsed once per process, not once per app.

Each Textual app parses its CSS (the widgets' default CSS, the app's, the
screens') into rule sets of its own: about 0.45 MB a seat, the same rules
every time, since every seat of ``fireteam serve`` runs the same app with the
same theme.  :class:`SharedStylesheet` keeps what it parses in a cache of the
process, keyed by the CSS and where it came from (as Textual's own cache of
one stylesheet is) and by the stylesheet's variables (the theme's colours,
which the parse substitutes): an app of another theme parses its own.

Rule sets are only read once parsed (matched against nodes, their styles
copied into each node's), so apps can share them.  Textual's ``reparse``
parses in a fresh ``Stylesheet``; ours parses in a fresh one of its own class,
so that reparsing (a screen with CSS pushed, the theme set) shares too
(``tui.textual_internals.ParsingStylesheet``, where the private step this
refines is named).
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation

from tui.textual_internals import ParsingStylesheet, css_variables

#: Parsed rules, by (CSS, where from, default rules?, tie breaker, scope, variables): a few themes × some
#: fifty sources of CSS fit.
_RULES: LRUCache[tuple[object, ...], list[RuleSet]] = LRUCache(1024)


class SharedStylesheet(ParsingStylesheet):
    """Textual's stylesheet, parsing each piece of CSS once per process and theme (see the module's doc)."""

    #: The variables last frozen (Textual's dict, never changed in place: replaced), and them as a key.
    _frozen: tuple[dict[str, str], tuple[tuple[str, str], ...]] | None = None

    def _variables_key(self) -> tuple[tuple[str, str], ...]:
        # Each parse asks for every piece of CSS again (some 100 asks a start, 23 pieces):
        # the ~150 variables are sorted once per set, not at every ask.
        variables = css_variables(self)
        if self._frozen is None or self._frozen[0] is not variables:
            self._frozen = (variables, tuple(sorted(variables.items())))
        return self._frozen[1]

    def parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_key())
        rules = _RULES.get(key)
        if rules is None:
            rules = _RULES[key] = super().parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        return rules
