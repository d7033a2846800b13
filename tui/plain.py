"""Text from outside the code, shown as text.

A player's command, a save, a scenario, a roster, a rule table and a refusal
may hold any character: ``[b]`` is a word to show, not markup to read, and a
control character is shown as its escape, never sent to a terminal.  So, in
``tui/``:

* text widgets are :class:`Plain` and :class:`PlainLabel` (a ``Static`` and a
  ``Label`` that never read markup and show control characters escaped), never
  ``Static`` or ``Label`` themselves;
* any other string that reaches the screen (a list's option, a table's cell, a
  tree's label, a title) goes in a rich ``Text`` styled by the code, with what
  came from outside passed through :func:`visible` (or made by :func:`plain`);
* ``notify`` is always given ``markup=False``;
* text boxes are :class:`PlainInput`: a paste of several lines, or holding a
  control character, is refused whole, saying why (a key never types one), and
  its keys act in the order they were typed, however fast they come.

``tests/tui/test_tui_plain.py`` holds the client to these rules.
"""

from __future__ import annotations

import re

from rich.text import Text
from textual import events
from textual.visual import VisualType
from textual.widgets import Input, Label, Static

from tui.i18n import _
from tui.textual_internals import key_bindings, keymap
from tui.visible import IN_A_LINE, shows_as_is, visible

__all__ = ["Plain", "PlainInput", "PlainLabel", "plain", "refused_paste", "visible", "visible_text"]

#: A line break in a paste (terminals send one as CR), and those that end it.
_LINE_END = re.compile("\\r\\n|[\\r\\n]")
_LINE_ENDS_AT_THE_END = re.compile("[\\r\\n]+\\Z")


def plain(text: str, style: str = "", *, lines: bool = False) -> Text:
    """``text`` to show as it is: never markup, control characters escaped."""
    return Text(visible(text, lines=lines), style=style)


def visible_text(text: Text, *, lines: bool = True) -> Text:
    """A rich ``Text`` (built by the code from outside words) with its hidden characters
    escaped as :func:`visible` does, its styles kept."""
    if shows_as_is(text.plain, lines=lines):
        return text
    out = Text(style=text.style, justify=text.justify, overflow=text.overflow, no_wrap=text.no_wrap, end=text.end)
    # Cut at every span's ends, each piece has one set of styles over the whole of it.
    cuts = sorted({offset for span in text.spans for offset in (span.start, span.end)})
    for piece in text.divide(cuts):
        shown = Text(visible(piece.plain, lines=lines))
        for span in piece.spans:
            shown.stylize(span.style, 0, len(shown))
        out.append_text(shown)
    return out


def _shown(content: VisualType) -> VisualType:
    if isinstance(content, str):
        return plain(content, lines=True)
    return visible_text(content) if isinstance(content, Text) else content


class Plain(Static):
    """A ``Static`` whose strings are shown as they are (see the module's rules)."""

    def __init__(self, content: VisualType = "", **kwargs) -> None:
        super().__init__(_shown(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(_shown(content), layout=layout)


class PlainLabel(Label):
    """A ``Label`` whose strings are shown as they are (see the module's rules)."""

    def __init__(self, content: VisualType = "", **kwargs) -> None:
        super().__init__(_shown(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(_shown(content), layout=layout)


class PlainInput(Input):
    """An ``Input`` that never holds a control character (see the module's rules)."""

    async def on_key(self, event: events.Key) -> None:
        # Textual runs a widget's key bindings only once the key has bubbled up
        # to the app, and by then the characters typed after it may already be
        # in the box: in a burst (a fast typist, a macro, tmux send-keys) Ctrl+U,
        # Tab or Enter would act after them (Ctrl+U then 6 4 Enter in the dice
        # prompt gave no faces at all).  The box's own bindings run here instead,
        # in order with the characters.  (Textual calls this before ``Input``'s
        # own handler, which the key then does not reach.)  A binding that passes
        # (the arrows Input has from scrolling, in a box with nothing to scroll)
        # leaves the key to go on up, to the screen's own binding for it.  Its keys are the
        # user's where his keymap rebinds one (``tui.keymap``), as Textual's would be.
        bindings = [] if event.is_printable else key_bindings(self, event.key, keymap(self))
        if bindings and await self.app.run_action(bindings[0].action, self):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        # Textual runs this, then Input's own handler, which puts the text in.
        text = self.pasted(event.text)
        if text is None:
            event.prevent_default()  # nothing of it goes in: not cut, not with its escapes
            event.stop()
            return
        event.text = text

    def typed(self, text: str) -> None:
        """``text`` typed into the box, as a printable key is (over the selection, if any)."""
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)

    def pasted(self, text: str) -> str | None:
        """``text`` as the box takes it pasted, or None: refused whole (and said why)."""
        why = refused_paste(text)
        if why:
            self.paste_refused(why)
            return None
        return _LINE_ENDS_AT_THE_END.sub("", text).replace("\t", " ")

    def paste_refused(self, why: str) -> None:
        """Say why a paste was refused (a box with a line of its own for messages says it there)."""
        self.notify(why, title=_("Paste refused"), severity="warning", markup=False)


def refused_paste(text: str) -> str:
    """Why a box refuses to take ``text`` pasted, or "" if it takes it.

    A box holds one line, of characters that show as themselves: a paste of
    several lines, or holding a control character (an escape sequence, a bell,
    a bidirectional override), is refused whole, never cut or put in with its
    escapes (a command line would otherwise give a command other than the one
    pasted).  A tab goes in as a space, and the line break that ends a copied
    line is left out.
    """
    text = _LINE_ENDS_AT_THE_END.sub("", text)
    if _LINE_END.search(text):
        return _("the paste holds {count} lines: a box takes one").format(count=len(_LINE_END.split(text)))
    bad = re.search(IN_A_LINE, text.replace("\t", " "))
    if bad:
        return _("the paste holds the control character {char} (character {at}): nothing was put in").format(
            char=ascii(bad.group())[1:-1], at=bad.start() + 1
        )
    return ""
