"""A catalogue as a start reads it: one ``.po``'s translations, compiled to one msgpack value.

``gettext.GNUTranslations`` parses a ``.mo`` entry by entry in Python, about 1.5 µs a
message: 5.4 ms for the three catalogues an Italian game reads (3,500 messages), which
was the whole difference between an Italian and an English start.  So the build
(setup.py), and a checkout whose ``.po`` was edited since (``core.language.i18n``),
compile each ``.po`` with babel to the ``.msgpack`` beside it: the messages, plural forms
and plural rule babel's ``write_mo`` would put in a ``.mo``, which msgspec reads back in
one decode (1.5 ms for the three, read, decoded and their plural rules compiled).
:class:`Catalogue` answers from them as ``GNUTranslations`` would from that ``.mo``
(``tests/core/test_i18n_compiled.py`` compares every message of every catalogue).

A compiled file is the build's and is read with the trust a ``.mo`` is: its every field's
type is checked (msgspec), its plural rule is ``gettext``'s to accept (a C expression of
``n``, nothing else), and a file that fails either raises :class:`Unreadable`, for the
reader to compile the ``.po`` again or speak English (``core.language.i18n``).
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping, Sequence
from typing import Literal

import msgspec

#: The compiled file's suffix, beside the ``.po``.
SUFFIX = ".msgpack"


class Catalogue(gettext.NullTranslations):
    """One domain's messages, answered as ``gettext.GNUTranslations`` answers from a ``.mo``."""

    def __init__(self, messages: Mapping[str, str], plurals: Mapping[str, Sequence[str]], rule: str) -> None:
        super().__init__()
        #: msgid (``context\\x04msgid`` in a context) -> msgstr; "" -> the header, as in a ``.mo``.
        self.messages = messages
        #: A plural message's msgid (with its context) -> its msgstr for each plural form.
        self.plurals = plurals
        #: The header's ``plural=`` expression, compiled as gettext compiles it (a ValueError if it refuses it).
        self.plural = gettext.c2py(rule)

    def gettext(self, message: str) -> str:
        said = self._said(message)
        return super().gettext(message) if said is None else said

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        said = self._form(msgid1, n)
        return super().ngettext(msgid1, msgid2, n) if said is None else said

    def pgettext(self, context: str, message: str) -> str:
        said = self._said(f"{context}\x04{message}")
        return super().pgettext(context, message) if said is None else said

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        said = self._form(f"{context}\x04{msgid1}", n)
        return super().npgettext(context, msgid1, msgid2, n) if said is None else said

    def _said(self, key: str) -> str | None:
        # gettext gives a plural message's form for 1 when asked for its msgid alone.
        said = self.messages.get(key)
        return said if said is not None or key not in self.plurals else self._form(key, 1)

    def _form(self, key: str, n: int) -> str | None:
        form = self.plural(n)  # (first, as gettext does: a count it refuses is refused, translated or not)
        forms = self.plurals.get(key)
        return forms[form] if forms is not None and 0 <= form < len(forms) else None


class Unreadable(Exception):
    """A compiled catalogue that cannot be read: missing, damaged or not one."""


class _Compiled(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """What a compiled file holds (``[1, rule, messages, plurals]``)."""

    #: The layout's number: a file of another layout is refused, never misread.
    layout: Literal[1]
    rule: str
    messages: dict[str, str]
    plurals: dict[str, list[str]]


_decoder = msgspec.msgpack.Decoder(_Compiled)


def read(path: str) -> Catalogue:
    """The catalogue compiled at ``path`` (:func:`compiled`)."""
    try:
        with open(path, "rb") as f:
            return decoded(f.read())
    except (OSError, ValueError, msgspec.MsgspecError) as e:
        raise Unreadable(f"{path}: {e}") from e


def decoded(data: bytes) -> Catalogue:
    """The catalogue compiled to ``data``; a ValueError (or msgspec's) if it is none."""
    kept = _decoder.decode(data)
    return Catalogue(kept.messages, kept.plurals, kept.rule)


def compiled(po: bytes, lang: str, domain: str) -> bytes:
    """``po`` compiled with babel, as ``write_mo(use_fuzzy=False)`` compiles it to a ``.mo``:
    the header kept, untranslated and fuzzy messages left out, an untranslated plural form
    its English.  Babel is a build requirement (and a checkout's), never a run-time one: it
    is imported here only (an ImportError without it)."""
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(po), locale=lang, domain=domain)
    header, *found = catalog
    messages: dict[str, str] = {"": str(header.string)}
    plurals: dict[str, list[str]] = {}
    for message in found:
        ids, said = message.id, message.string
        if not said or message.fuzzy:
            continue
        context = f"{message.context}\x04" if message.context else ""
        if isinstance(ids, str) and isinstance(said, str):
            messages[context + ids] = said
        else:
            plurals[context + ids[0]] = [form or ids[min(i, 1)] for i, form in enumerate(said)]
    # (The rule the .mo's Plural-Forms header would carry: babel writes it for a catalogue with a locale.)
    return msgspec.msgpack.encode(_Compiled(1, catalog.plural_expr, messages, plurals))
