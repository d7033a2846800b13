"""The cache of compiled catalogues (core/language/cache.py): what it serves reads exactly as
a catalogue compiled now, an edited catalogue is never served stale, and a damaged or
hostile entry is never believed: the catalogue is compiled again and the entry healed."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import platformdirs
import pytest

import core.language.i18n as i18n
from core import cachedir
from core.cachedir import CACHE_DIR_ENV
from core.language import cache as i18n_cache
from core.language.cache import KEEP, MAGIC, MAX_BYTES, Parsed, compile_po, entry_name, load, packed, read_entry
from core.language.catalogues import DOMAINS
from core.language.i18n import Msg, render

IT = i18n.LOCALE_DIR / "it" / "LC_MESSAGES"
#: A small catalogue of the shapes a catalogue has: a plain message, one in a context,
#: plural forms, a template with fields.
SMALL_PO = r"""msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "fire"
msgstr "fuoco"

msgctxt "command"
msgid "fire"
msgstr "tira"

msgid "{n} figure down"
msgid_plural "{n} figures down"
msgstr[0] "{n} figura a terra"
msgstr[1] "{n} figure a terra"

msgid "{unit} moved {cm} cm"
msgstr "{unit} ha mosso di {cm} cm"
"""


@pytest.fixture
def cache(tmp_path) -> Iterator[Path]:
    """core.language.i18n reading through a cache folder of the test's own, from nothing."""
    folder = tmp_path / "cache" / "locale"
    i18n_cache.use_folder(folder)
    i18n.forget_catalogues()
    yield folder
    i18n_cache.use_default_folder()
    i18n.forget_catalogues()


def questions(domain: str) -> Iterator[tuple[str, tuple]]:
    """Every question a reader asks of ``domain``'s catalogue: each message plain, in
    its context, in the plural for several counts, and as a template with its fields."""
    po = (IT / f"{domain}.po").read_bytes()
    fresh = i18n_cache._parsed(compile_po(po, "it", domain))
    for key in fresh._catalog:
        if isinstance(key, tuple):  # (msgid, plural form index)
            msgid = key[0]
            context, _, msgid = msgid.rpartition("\x04")
            if context:
                yield "npgettext", (context, msgid, msgid + "s", 1)
                yield "npgettext", (context, msgid, msgid + "s", 5)
            else:
                for n in (0, 1, 2, 11, 1000):
                    yield "ngettext", (msgid, msgid + "s", n)
            continue
        context, _, msgid = key.rpartition("\x04")
        if not msgid:
            continue  # the header
        if context:
            yield "pgettext", (context, msgid)
        else:
            yield "gettext", (msgid,)
            yield "render", (msgid,)
    yield "gettext", ("not a message of any catalogue",)


def answers(domain: str) -> dict[tuple[str, tuple], str]:
    tr = i18n.translations("it", domain)
    out = {}
    for how, args in questions(domain):
        if how == "render":
            # The template with a value for every plain field: core.language.i18n's field checks apply.
            fields = {name: f"<{name}>" for name in _field_names(args[0])}
            out[how, args] = render(Msg(args[0], fields), domain, "it")
        else:
            out[how, args] = getattr(tr, how)(*args)
    return out


def _field_names(template: str) -> list[str]:
    import string

    try:
        return [f for _, f, _, _ in string.Formatter().parse(template) if f and f.isidentifier()]
    except ValueError:
        return []


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_answer_from_the_cache_is_the_freshly_compiled_one(cache, domain, monkeypatch):
    """gettext, pgettext, ngettext and rendering of every message of every domain, through
    its fallback chain (ruleset, client, core, English): compiled now, then from the cache."""
    i18n_cache.use_folder(None)
    i18n.forget_catalogues()
    fresh = answers(domain)
    i18n_cache.use_folder(cache)
    i18n.forget_catalogues()
    assert answers(domain) == fresh  # (compiled, and the entries written)
    assert {p.name.split("-")[1] for p in cache.iterdir()} >= {domain, "fireteam"}
    i18n.forget_catalogues()

    def no_babel(*args):
        raise AssertionError("compiled again although the cache holds it")

    monkeypatch.setattr(i18n_cache, "compile_po", no_babel)
    assert answers(domain) == fresh
    assert any(v != k[1][-1] for k, v in fresh.items() if k[0] == "gettext")  # some Italian was read


def test_the_chains_share_each_catalogue_without_tangling(cache):
    """Each domain is parsed once and every chain links copies of it: the answers of all
    the domains asked in one process are those of each asked alone."""
    alone = {}
    for domain in DOMAINS:
        i18n.forget_catalogues()
        alone[domain] = answers(domain)
    i18n.forget_catalogues()
    assert {domain: answers(domain) for domain in DOMAINS} == alone


def test_a_small_catalogue_from_the_cache_answers_as_compiled(tmp_path):
    po = SMALL_PO.encode()
    fresh = load(po, "it", "small")
    load(po, "it", "small", tmp_path)
    cached = read_entry(tmp_path / entry_name(po, "it", "small"))
    assert cached is not None
    for tr in (fresh, cached):
        assert tr.gettext("fire") == "fuoco" and tr.pgettext("command", "fire") == "tira"
        assert [tr.ngettext("{n} figure down", "{n} figures down", n) for n in (1, 2)] == [
            "{n} figura a terra",
            "{n} figure a terra",
        ]
    assert cached._catalog == fresh._catalog and cached._info == fresh._info


def test_an_edited_catalogue_is_compiled_again_and_only_the_newest_entries_are_kept(tmp_path):
    po = SMALL_PO.encode()
    assert load(po, "it", "small", tmp_path).gettext("fire") == "fuoco"
    edited = po.replace(b'msgstr "fuoco"', b'msgstr "fuoco!"')
    assert load(edited, "it", "small", tmp_path).gettext("fire") == "fuoco!"
    assert load(po, "it", "small", tmp_path).gettext("fire") == "fuoco"  # (the first, still there)
    assert load(po, "it", "other", tmp_path).gettext("fire") == "fuoco"
    versions = [po.replace(b"fuoco", b"fuoco %d" % n) for n in range(KEEP + 2)]
    later = time.time_ns()
    for n, version in enumerate(versions):
        assert load(version, "it", "small", tmp_path).gettext("fire") == f"fuoco {n}"
        # Each newer than the last, whatever the file system's clock granularity.
        os.utime(tmp_path / entry_name(version, "it", "small"), ns=(later + n * 10**9,) * 2)
    kept = {entry_name(v, "it", "small") for v in versions[-KEEP:]} | {entry_name(po, "it", "other")}
    assert {p.name for p in tmp_path.iterdir()} == kept
    # Through core.language.i18n: an edited .po file in the locale folder.
    locale = tmp_path / "locale" / "it" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    (locale / "fireteam.po").write_bytes(po)
    i18n_cache.use_folder(tmp_path / "cache")
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
            i18n.forget_catalogues()
            assert i18n.translations("it").gettext("fire") == "fuoco"
            (locale / "fireteam.po").write_bytes(edited)
            i18n.forget_catalogues()  # a new process
            assert i18n.translations("it").gettext("fire") == "fuoco!"
    finally:
        i18n_cache.use_default_folder()
        i18n.forget_catalogues()


def test_the_key_holds_the_babel_release_the_python_the_language_and_the_domain(monkeypatch):
    po = SMALL_PO.encode()
    name = entry_name(po, "it", "small")
    assert entry_name(po, "it", "small") == name
    assert entry_name(po, "it", "other") != name and entry_name(po, "en", "small") != name
    assert entry_name(po + b"\n", "it", "small") != name
    assert i18n_cache._babel_release()  # babel's __init__.py was found
    monkeypatch.setattr(i18n_cache, "_babel_release", lambda: b'__version__ = "99.0"')
    assert entry_name(po, "it", "small") != name
    monkeypatch.undo()
    monkeypatch.setattr(i18n_cache.sys.implementation, "cache_tag", "cpython-399")
    assert entry_name(po, "it", "small") != name


# ------------------------------------------------------------------------- attacks


def _with_plural(entry: bytes, plural: str) -> bytes:
    """A well-formed entry (its digest right) whose plural rule is ``plural``."""
    kept = msgspec.msgpack.decode(entry[len(MAGIC) + 32 :], type=Parsed)
    return packed(msgspec.msgpack.encode(msgspec.structs.replace(kept, plural=plural)))


def _flip(at: int) -> Callable[[bytes], bytes]:
    def flip(entry: bytes) -> bytes:
        b = bytearray(entry)
        b[at] ^= 0x10
        return bytes(b)

    return flip


#: What may lie where an entry should be: a function of the sound entry's bytes.
DAMAGED: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda e: b"",
    "truncated": lambda e: e[: len(e) // 2],
    "only the header": lambda e: e[: len(MAGIC) + 32],
    "a bit flipped in the catalogue": _flip(-10),
    "a bit flipped in the digest": _flip(len(MAGIC) + 3),
    "wrong magic": lambda e: b"XXXX" + e[4:],
    "an older format": lambda e: MAGIC[:-1] + b"\x00" + e[len(MAGIC) :],
    "not a catalogue, its digest right": lambda e: packed(b"\x00" * 64),
    "another shape, its digest right": lambda e: packed(msgspec.msgpack.encode({"messages": {"fire": 1}})),
    "a message that is no text, its digest right": lambda e: packed(
        msgspec.msgpack.encode(["utf-8", {}, "", {"fire": ["fuoco"]}, []])
    ),
    "a plural rule that is code, its digest right": lambda e: _with_plural(e, "__import__('os').getpid()"),
    "a plural rule too deep, its digest right": lambda e: _with_plural(e, "(" * 2000 + "n" + ")" * 2000),
    "a .mo where the catalogue should be, its digest right": lambda e: packed(compile_po(SMALL_PO.encode(), "it", "s")),
    "larger than the limit": lambda e: e + b"\x00" * (MAX_BYTES + 1 - len(e)),
}


@pytest.mark.parametrize("damage", DAMAGED, ids=list(DAMAGED))
def test_a_damaged_entry_is_compiled_again_and_healed(tmp_path, damage):
    po = SMALL_PO.encode()
    fresh = load(po, "it", "small")
    path = tmp_path / entry_name(po, "it", "small")
    load(po, "it", "small", tmp_path)
    sound = path.read_bytes()
    path.write_bytes(DAMAGED[damage](sound))
    assert read_entry(path) is None
    assert load(po, "it", "small", tmp_path)._catalog == fresh._catalog
    assert path.read_bytes() == sound  # healed
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def _directory(path: Path) -> None:
    path.mkdir()


def _full_directory(path: Path) -> None:
    path.mkdir()
    (path / "x").write_text("x")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _link_to_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _dangling_link(path: Path) -> None:
    path.symlink_to(path.parent / "nowhere")


#: What may stand in an entry's place instead of a file.
IN_PLACE: dict[str, tuple[Callable[[Path], None], bool]] = {  # (make it, healed?)
    "an empty directory": (_directory, True),
    "a directory with a file": (_full_directory, False),
    "a FIFO (reading it would block)": (_fifo, True),
    "a link to /dev/zero": (_link_to_zero, True),
    "a dangling link": (_dangling_link, True),
}


@pytest.mark.parametrize("thing", IN_PLACE, ids=list(IN_PLACE))
def test_something_else_in_an_entrys_place_is_not_read(tmp_path, thing):
    make, healed = IN_PLACE[thing]
    po = SMALL_PO.encode()
    path = tmp_path / entry_name(po, "it", "small")
    make(path)
    assert load(po, "it", "small", tmp_path).gettext("fire") == "fuoco"
    if healed:
        assert not path.is_symlink() and read_entry(path) is not None
    else:
        assert path.is_dir() and read_entry(path) is None
        assert load(po, "it", "small", tmp_path).gettext("fire") == "fuoco"  # every time
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp")]


def test_a_folder_that_cannot_be_written_leaves_every_load_compiling(tmp_path):
    # (A folder under a file: unwritable even for root, who ignores permissions.)
    (tmp_path / "file").write_text("not a folder")
    where = tmp_path / "file" / "locale"
    assert load(SMALL_PO.encode(), "it", "small", where).gettext("fire") == "fuoco"
    assert i18n_cache.write_entry(where / "x.mo", b"") is False


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to a read-only folder")
def test_a_read_only_folder_leaves_every_load_compiling(tmp_path):
    tmp_path.chmod(0o500)
    try:
        assert load(SMALL_PO.encode(), "it", "small", tmp_path).gettext("fire") == "fuoco"
        assert list(tmp_path.iterdir()) == []
    finally:
        tmp_path.chmod(0o700)


def test_an_entry_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A write that fails before its file takes the entry's name leaves neither."""
    po = SMALL_PO.encode()

    def refused(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cachedir.os, "replace", refused)  # where a cache's entry is written
    assert load(po, "it", "small", tmp_path).gettext("fire") == "fuoco"
    assert list(tmp_path.iterdir()) == []


def test_a_dead_writers_temporary_file_is_removed_by_the_next_writer(tmp_path):
    dead, alive = tmp_path / ".tmp-dead.mo", tmp_path / ".tmp-alive.mo"
    dead.write_bytes(b"half")
    alive.write_bytes(b"half")
    an_hour_ago = time.time() - i18n_cache.ABANDONED_S - 60
    os.utime(dead, (an_hour_ago, an_hour_ago))
    load(SMALL_PO.encode(), "it", "small", tmp_path)
    assert not dead.exists() and alive.exists()


# ------------------------------------------------------------------------- folders


def test_the_folder_is_the_users_cache_unless_told(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    assert i18n_cache.folder() == platformdirs.user_cache_path("fireteam") / "locale"
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    assert i18n_cache.folder() == tmp_path / "locale"
    i18n_cache.use_folder(tmp_path / "mine")
    try:
        assert i18n_cache.folder() == tmp_path / "mine"
        i18n_cache.use_folder(None)
        assert i18n_cache.folder() is None
    finally:
        i18n_cache.use_default_folder()
    assert i18n_cache.folder() == tmp_path / "locale"


def test_with_the_cache_off_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    i18n_cache.use_folder(None)
    i18n.forget_catalogues()
    try:
        assert i18n.translations("it", "client").gettext("Roster") != "Roster"
    finally:
        i18n_cache.use_default_folder()
        i18n.forget_catalogues()
    assert list(tmp_path.iterdir()) == []
