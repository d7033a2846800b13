"""Compiled catalogues kept between runs, so that Italian starts as fast as English.

Compiling a ``.po`` with babel costs more than a client's whole start-up budget
(importing babel and reading the three catalogues a game needs, ~140 ms), while
the ``.mo`` it makes reads with the standard library in a millisecond or two.  So
the first process to need a catalogue compiles it (babel's ``write_mo``), reads
the ``.mo`` with ``gettext`` and leaves the catalogue as ``gettext`` read it (its
messages, header and plural rule: :class:`Parsed`, in msgpack) in the ``locale``
folder of Fireteam's cache (``core.cachedir``), or whatever :func:`use_folder`
names; every later one reads it back in a fraction of a millisecond, through
``gettext.GNUTranslations``' own hook for another format (``_parse``), without
parsing a ``.mo`` (4.5 ms for the three a game needs, a start's catalogues).

**Never stale.**  An entry is named by a digest of everything its bytes depend
on: the ``.po`` file's bytes, its language and domain, this cache's format, the
Python it was compiled under and babel's release (its ``__init__.py``, which
names its version, read without importing babel).  An edited catalogue or an
upgraded babel is a different name: the old entry is never read again, and
only the :data:`KEEP` newest entries of a language and domain are kept.

**Hostile input.**  A cache folder is only a file system's word: an entry may
be truncated by a crash, flipped by a disk, replaced by a directory, a FIFO or a
link, or written by something else.  An entry is read only if it is a regular
file (links are not followed) of at most :data:`MAX_BYTES`, starts with
:data:`MAGIC`, carries the SHA-256 of the bytes that follow it, and those
decode as a :class:`Parsed` (msgspec checks every field's type) whose plural
rule ``gettext`` accepts (a C expression of ``n``, nothing else).  Anything
else, and any error in reading or writing, falls back silently to compiling
from the ``.po``; the fresh entry is then written atomically (a temporary file,
then ``os.replace``), so no reader ever sees half of one.  A folder that cannot
be written leaves every start compiling, as before the cache.  (The digest
guards against damage, not against a writer with the user's own rights: such a
writer could change the ``.po`` files as well.  What a catalogue says is shown
as text, and its ``{field}`` templates are checked before they are filled,
wherever it came from: ``core.language.i18n.fill``.)
"""

from __future__ import annotations

import contextlib
import gettext
import hashlib
import io
import sys
import time
from functools import cache
from importlib.util import find_spec
from pathlib import Path

import msgspec

from core.cachedir import cache_root, read_entry_bytes, write_entry_bytes

SUBFOLDER = "locale"
#: The first bytes of an entry; the number changes with the entry's layout (2: the catalogue
#: as parsed, :class:`Parsed`; 1 was the ``.mo`` bytes).
MAGIC = b"FTMO\x00\x00\x00\x02"
DIGEST = hashlib.sha256
DIGEST_SIZE = DIGEST().digest_size
#: The largest entry read: the largest catalogue compiles to ~100 KB today.
MAX_BYTES = 8 * 1024 * 1024
#: Entries kept per language and domain (the newest written): a few, so that two
#: installs or checkouts with different catalogues do not evict each other at every start.
KEEP = 4
#: A temporary file this old is a dead writer's (one lives for a millisecond).
ABANDONED_S = 3600

#: The folder :func:`use_folder` chose (None: no cache), if it was called.
_chosen: tuple[Path | None] | None = None


def use_folder(where: Path | None) -> None:
    """Keep compiled catalogues in ``where`` (a test's or a server's own folder),
    or nowhere (``None``: compile in every process), whatever the environment says."""
    global _chosen
    _chosen = (where,)


def use_default_folder() -> None:
    """The folder the environment names again (undoes :func:`use_folder`)."""
    global _chosen
    _chosen = None


def folder() -> Path | None:
    """The folder entries live in, or None when the cache is off."""
    if _chosen is not None:
        return _chosen[0]
    return cache_root() / SUBFOLDER


def compile_po(po: bytes, lang: str, domain: str) -> bytes:
    """``po`` compiled to ``.mo`` bytes with babel (untranslated and fuzzy messages left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(po), locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def load(po: bytes, lang: str, domain: str, where: Path | None = None) -> gettext.GNUTranslations:
    """The catalogue ``po`` compiles to: read from the cache in ``where`` when a sound
    entry is there, else compiled now and left there for the next process."""
    if where is None:
        return _parsed(compile_po(po, lang, domain))
    path = where / entry_name(po, lang, domain)
    found = read_entry(path)
    if found is not None:
        return found
    fresh = _parsed(compile_po(po, lang, domain))
    write_entry(path, parsed_form(fresh))
    return fresh


def _parsed(mo: bytes) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(mo))


class Parsed(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A catalogue as ``gettext`` read it from its ``.mo``: what an entry holds."""

    #: The header's ``Content-Type`` charset ("" if none).
    charset: str
    #: The header's fields, as ``GNUTranslations.info()`` gives them.
    info: dict[str, str]
    #: The ``Plural-Forms`` header's ``plural=`` expression ("" if none: gettext's ``n != 1``).
    plural: str
    #: msgid (``context\x04msgid`` in a context): msgstr.
    messages: dict[str, str]
    #: (msgid, form, msgstr) of each plural form.
    plurals: list[tuple[str, int, str]]


_parsed_decoder = msgspec.msgpack.Decoder(Parsed)


def parsed_form(catalogue: gettext.GNUTranslations) -> bytes:
    """What an entry holds of a catalogue ``gettext`` has read."""
    plural = ""
    read = vars(catalogue)  # what gettext parsed, in attributes of its own (not in its type stubs)
    forms = read["_info"].get("plural-forms")
    if forms:
        plural = forms.split(";")[1].split("plural=")[1]  # as gettext reads it from the header
    messages, plurals = {}, []
    for key, msgstr in read["_catalog"].items():
        if isinstance(key, tuple):
            plurals.append((key[0], key[1], msgstr))
        else:
            messages[key] = msgstr
    charset = read["_charset"] or ""
    return msgspec.msgpack.encode(Parsed(charset, dict(read["_info"]), plural, messages, plurals))


class _Restored(gettext.GNUTranslations):
    """A catalogue read back from an entry's :class:`Parsed`, through the hook ``gettext``
    gives for another format (``_parse``): the same messages, header and plural rule."""

    def _parse(self, fp) -> None:  # gettext's hook: fp is what it opened
        kept = _parsed_decoder.decode(fp.read())
        # The plural rule goes through gettext's own check (only a C expression of n, else ValueError).
        self.plural = gettext.c2py(kept.plural) if kept.plural else (lambda n: int(n != 1))
        self._info = dict(kept.info)
        self._charset = kept.charset or None
        catalog: dict[str | tuple[str, int], str] = {}
        catalog.update(kept.messages)
        for msgid, form, msgstr in kept.plurals:
            catalog[(msgid, form)] = msgstr
        self._catalog = catalog


def entry_name(po: bytes, lang: str, domain: str) -> str:
    """``it-client-<digest>.mo``: the language and domain for a reader of the folder
    (and for keeping a few of each), the digest for the cache."""
    key = DIGEST()
    python = (sys.implementation.cache_tag or "").encode()
    for part in (MAGIC, python, _babel_release(), lang.encode(), domain.encode()):
        key.update(len(part).to_bytes(4, "big") + part)
    key.update(po)
    return f"{lang}-{domain}-{key.hexdigest()[:40]}.mo"


@cache
def _babel_release() -> bytes:
    """Babel's ``__init__.py``, which names its release: found, not imported (importing
    babel costs what the cache saves)."""
    spec = find_spec("babel")
    if spec is None or spec.origin is None:
        return b""
    try:
        return Path(spec.origin).read_bytes()[:65536]
    except OSError:
        return b""


def read_entry(path: Path) -> gettext.GNUTranslations | None:
    """The catalogue an entry holds, or None unless every check passes."""
    data = read_entry_bytes(path, MAX_BYTES)
    if data is None:
        return None
    return unpacked(data)


def unpacked(data: bytes) -> gettext.GNUTranslations | None:
    """The catalogue in an entry's ``data`` if its magic, digest and catalogue are sound."""
    head = len(MAGIC) + DIGEST_SIZE
    if len(data) > MAX_BYTES or len(data) < head or not data.startswith(MAGIC):
        return None
    body = data[head:]
    if DIGEST(body).digest() != data[len(MAGIC) : head]:
        return None
    try:
        # The digest proves the bytes are those written; decoding, that they were a catalogue.
        return _Restored(io.BytesIO(body))
    except Exception:  # noqa: BLE001 - a catalogue the reader refuses, however it refuses it
        return None


def packed(body: bytes) -> bytes:
    """An entry of ``body`` (a :func:`parsed_form`)."""
    return MAGIC + DIGEST(body).digest() + body


def write_entry(path: Path, body: bytes) -> bool:
    """Leave ``body`` (a :func:`parsed_form`) at ``path`` whole or not at all, and remove the oldest entries of the
    same language and domain past :data:`KEEP`; False if the folder refused."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()  # an empty directory in an entry's place; a full one stays (and is never read)
    if not write_entry_bytes(path, packed(body), ".mo"):
        return False
    _remove_oldest(path)
    return True


def _remove_oldest(path: Path) -> None:
    """The entries of ``path``'s language and domain past the newest :data:`KEEP`, and
    the temporary files of writers that died before they were done."""
    for tmp in path.parent.glob(".tmp-*.mo"):
        with contextlib.suppress(OSError):
            if tmp.lstat().st_mtime < time.time() - ABANDONED_S:
                tmp.unlink()
    lang, domain, _key = path.name.split("-", 2)
    entries = []
    for entry in path.parent.glob(f"{lang}-{domain}-*.mo"):
        with contextlib.suppress(OSError):
            entries.append((entry == path, entry.lstat().st_mtime_ns, entry))
    entries.sort(reverse=True)  # the one just written, then the newest
    for _written, _when, old in entries[KEEP:]:
        with contextlib.suppress(OSError):  # (a directory stays)
            old.unlink()
