"""Each seat in its own language: which one, and the server's words in it.

A seat reads the language its seats-file entry names (``lang = "it"``), else
the one its SSH client's locale asks for (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, sent with the session), else the server's
(``fireteam serve --lang``, else the server's locale, else English).

The client's variables are hostile: they are only ever mapped by
``core.language.reader.from_environment`` to one of ``core.language.reader.LANGUAGES``, never shown,
logged or used otherwise.

Each seat's app runs with its own ``core.language.reader.Reader`` (``tui.ssh.host.session``).
Its tasks inherit it; threads do not (``loop.run_in_executor`` does not copy
the caller's context), so the server's loop runs its threads with
:class:`ContextExecutor`, which does: a Textual thread worker of a seat's app
writes in the seat's language too.

The server's log is the organiser's and stays English: what a seat is told
(why its session ends, why its input was dropped) is a ``core.language.i18n.Msg``,
logged with :func:`core.language.i18n.plain` and shown with :func:`told`.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from core.language.i18n import SERVER_DOMAIN, Domain, Text, render
from core.language.reader import LANGUAGES, SOURCE, Reader, from_environment

_words = Domain(SERVER_DOMAIN)
#: The server's own words, in the current reader's language (a seat's, inside its session).
_ = _words.gettext

#: The variables of the client's environment that may name its language, as gettext reads them.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: Characters of each that are looked at: a locale name is short (``it_IT.UTF-8``, ``it:en``).
LOCALE_VALUE_LIMIT = 256


def seat_language(chosen: str, environment: Mapping[str, str], default: str) -> str:
    """The language of a seat: ``chosen`` in the seats file, else its client's locale, else ``default``.

    ``environment`` is what the client sent; only the locale variables are read,
    each cut to :data:`LOCALE_VALUE_LIMIT` characters, and only the language
    they map to is kept.  A client that names a locale the server has no
    words for (``fr_FR``, ``C``, garbage) reads English, as a local client would.
    """
    if chosen:
        return chosen
    asked = {key: str(environment[key])[:LOCALE_VALUE_LIMIT] for key in LOCALE_VARIABLES if environment.get(key)}
    return from_environment(asked) if asked else default


#: Characters of a browser's ``Accept-Language`` that are looked at.
ACCEPT_LANGUAGE_LIMIT = 256


def browser_language(chosen: str, accept_language: str | None, default: str) -> str:
    """The language of a browser seat: ``chosen`` in the seats file, else the first language of its browser's
    ``Accept-Language`` that the server speaks (by the weights the browser gave), else ``default``.

    As for an SSH client's locale (:func:`seat_language`), a browser that asks only for languages the server
    has no words for reads English; the header is cut to :data:`ACCEPT_LANGUAGE_LIMIT` characters and only
    mapped to a language, never shown or logged.
    """
    if chosen:
        return chosen
    if not accept_language:
        return default
    ranked: list[tuple[float, int, str]] = []
    for n, part in enumerate(accept_language[:ACCEPT_LANGUAGE_LIMIT].split(",")):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        code = tag.strip().split("-")[0].lower()
        if code and weight > 0:
            ranked.append((-weight, n, code))
    for _weight, _n, code in sorted(ranked):
        if code in LANGUAGES:
            return code
    return SOURCE


def told(text: Text, reader: Reader) -> str:
    """``text`` (a message of the server's, or a finished sentence) in ``reader``'s language."""
    return render(text, SERVER_DOMAIN, reader.lang)


class ContextExecutor(ThreadPoolExecutor):
    """A thread pool whose work runs in the context of whoever submitted it (as ``asyncio.to_thread`` does)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return super().submit(contextvars.copy_context().run, fn, *args, **kwargs)


def carry_readers_into_threads(loop: asyncio.AbstractEventLoop) -> None:
    """Make ``loop``'s threads (``run_in_executor(None, ...)``) run in their caller's context, and so with its reader.

    A pool the loop had already made (asyncio reads no public name for it) is
    let go once its work is done.
    """
    old = getattr(loop, "_default_executor", None)
    if isinstance(old, ContextExecutor):
        return
    loop.set_default_executor(ContextExecutor(thread_name_prefix="fireteam-seat"))
    if isinstance(old, ThreadPoolExecutor):
        old.shutdown(wait=False)
