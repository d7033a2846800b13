"""The local client's terminal driver: Textual's own, with what is typed bounded.

Textual's ``LinuxDriver`` reads the terminal in a thread, parses every byte
with its ``XTermParser`` and posts each event to the app at once.  A paste
without bracketed paste (a terminal that does not bracket, a slow paste, a
macro) is then thousands of keys queued at once: 170 KB of them froze the
client for minutes while it grew to gigabytes, and Ctrl+Q waited behind them.
:class:`LocalDriver` reads the same way, but what it reads passes
``tui.input_limits`` (the bounds an SSH seat's input passes, with the same
defaults and the same words when input is dropped) before it is parsed, and
the events are handed to the app in the app's loop, a slice at a time as it
handles them.  Ctrl+Q and Esc always answer.

Everything else (the terminal's modes, output, resizes, suspending) is the
Linux driver's; Windows keeps Textual's own driver.
"""

from __future__ import annotations

import asyncio
import os
import selectors
from codecs import getincrementaldecoder
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.drivers.linux_driver import LinuxDriver

from core.language.i18n import CLIENT_DOMAIN, Msg, render
from tui.i18n import _
from tui.input_limits import NOTICE, NOTICE_TITLE, BoundedInput, InputLimits, Notices
from tui.terminal_parser import TerminalParser
from tui.textual_internals import ParseError

if TYPE_CHECKING:
    from textual.message import Message

#: Bytes read from the terminal at once (the Linux driver's own figure).
READ_SIZE = 4096
#: Seconds the reading thread waits for input before it looks whether it should stop.
POLL_S = 0.1


class LocalDriver(LinuxDriver):
    """Textual's Linux driver, with its input bounded by ``tui.input_limits``."""

    #: The bounds on what is typed (a test may lower them).
    limits = InputLimits()

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        #: The app's loop, where the events are handed on (a driver is made in it, as Textual's own are).
        self._app_loop = asyncio.get_running_loop()
        self._notices = Notices()
        self._input = self._bounded()

    def _bounded(self) -> BoundedInput:
        return BoundedInput(self._app, self.limits, deliver=self.process_message, refuse=self._refused)

    def _refused(self, why: Msg) -> None:
        """Input over a limit was dropped: say so, now and then (in the app's loop)."""
        if self._notices.due():
            self._app.notify(
                _(NOTICE).format(why=render(why, CLIENT_DOMAIN)),
                title=_(NOTICE_TITLE),
                severity="warning",
                markup=False,
            )

    def send_message(self, message: Message) -> None:
        # The events are handed on in the app's loop (BoundedInput's pump): no thread hop then.
        try:
            here = asyncio.get_running_loop() is self._app_loop
        except RuntimeError:
            here = False
        if here:
            self._app.post_message(message)
        else:
            super().send_message(message)

    def disable_input(self) -> None:
        super().disable_input()  # the reading thread has stopped
        self._input.close()
        self._input = self._bounded()  # for the next start (after a suspend)

    def run_input_thread(self) -> None:
        """Read the terminal, bound what was read, parse it, and queue the events in the app's loop.

        As ``LinuxDriver.run_input_thread``, but for the bounds, for the parser
        (a paste keeps its NULs, ``tui.terminal_parser``), and for where the
        events go: to :class:`BoundedInput`'s queue, in the app's loop.
        """
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = TerminalParser(max_paste=self.limits.line_length)
        decode = getincrementaldecoder("utf-8")(errors="replace").decode
        bounded = self._input

        def queue(messages: list[Message], dropped: int = 0, cut_paste: bool = False) -> None:
            if messages or dropped:
                self._app_loop.call_soon_threadsafe(
                    partial(bounded.queue, messages, dropped=dropped, cut_paste=cut_paste)
                )

        def read(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Read what is there; False at the end of the input."""
            more = True
            if ready:
                data = os.read(self.fileno, READ_SIZE)
                more = bool(data)
                text = decode(data, final=final or not more)
                if text:
                    admitted = bounded.admit(text)
                    parsed = list(parser.feed(admitted.text)) if admitted.text else []
                    queue([*parsed, *admitted.kept], admitted.dropped, admitted.cut_paste)
            queue(list(parser.tick()))
            return more

        try:
            while not self.exit_event.is_set():
                if not read(selector.select(POLL_S)):
                    break  # stdin was a pipe, and it has ended
            selector.unregister(self.fileno)
            read(selector.select(POLL_S), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
