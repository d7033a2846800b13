"""Who reads: the reader's language, a small mutable box in a context variable.

A process sets one from ``--lang`` or the locale; an SSH seat gets its own before
its app starts, so every task of that app (which inherits the context) reads the
same box, and changing the box's language in a setting changes it for that seat
alone, live.  Numbers (``numerals``) and words (``i18n``) both follow it.

Which language a command line asks for (``--lang``) is read here too, with nothing else
imported: ``fireteam --version`` reads past it before anything of Fireteam is loaded.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

#: The languages a reader may choose, the source language first.
LANGUAGES: tuple[str, ...] = ("en", "it")
SOURCE = "en"
#: Each language's name in itself, for the settings and ``--lang`` help.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "it": "Italiano"}


class Reader:
    """Whoever reads what is shown: a language, changeable in place (a seat's setting)."""

    __slots__ = ("lang",)

    def __init__(self, lang: str = SOURCE) -> None:
        self.lang = checked(lang)

    def set(self, lang: str) -> None:
        self.lang = checked(lang)

    def __repr__(self) -> str:
        return f"Reader({self.lang!r})"


def checked(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose from {', '.join(LANGUAGES)}")
    return lang


#: The process's reader, until a seat or a test sets its own.
_DEFAULT = Reader()
_reader: ContextVar[Reader] = ContextVar("fireteam_reader", default=_DEFAULT)


def reader() -> Reader:
    return _reader.get()


def lang() -> str:
    """The current reader's language."""
    return _reader.get().lang


def set_process_language(lang: str) -> None:
    """The language of everything this process shows, unless a seat has its own."""
    _DEFAULT.set(lang)


@contextmanager
def reading(who: Reader | str) -> Iterator[Reader]:
    """Everything shown inside (and in tasks started inside) is for ``who``."""
    r = who if isinstance(who, Reader) else Reader(who)
    token = _reader.set(r)
    try:
        yield r
    finally:
        _reader.reset(token)


def use_reader(r: Reader) -> None:
    """Make ``r`` the reader of the current context for good (an SSH seat's task,
    before it starts its app: every task the app starts inherits it)."""
    _reader.set(r)


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language a locale asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, the first set wins, as gettext reads them), else English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if not value:
            continue
        for choice in value.split(":"):  # LANGUAGE may list several: it:en
            code = choice.split("_")[0].split(".")[0].split("@")[0].lower()
            if code in LANGUAGES:
                return code
            if code in ("c", "posix"):
                return SOURCE
        return SOURCE
    return SOURCE


def language_asked(argv: Sequence[str]) -> str | None:
    """The language ``--lang X`` or ``--lang=X`` asks for in ``argv`` (before ``--``);
    None when absent or not one of ours (the parser then says so, by name)."""
    asked = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif word.startswith("--lang="):
            asked = word.partition("=")[2]
    return asked if asked in LANGUAGES else None


def after_lang(argv: Sequence[str]) -> list[str]:
    """``argv`` without a leading ``--lang X`` (``fireteam --lang it log SAVE``), to see
    which command it names."""
    i = 0
    while i < len(argv):
        if argv[i] == "--lang":
            i += 2
        elif argv[i].startswith("--lang="):
            i += 1
        else:
            break
    return list(argv[i:])
