"""The catalogues as a start reads them (``core.language.compiled``): every message, plural form
and context as ``gettext`` gives it from the ``.mo`` babel's ``write_mo`` makes of the same ``.po``,
and a compiled file that cannot be read compiled again from its ``.po``, or said, never taken for a
catalogue."""

from __future__ import annotations

import copy
import gettext
import io
import os
from pathlib import Path

import msgspec
import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from core.language import i18n
from core.language.compiled import SUFFIX, Catalogue, Unreadable, compiled, decoded, read

SOURCES = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
#: Counts for the plural forms: every form of every rule the languages here have, and then some.
COUNTS = (0, 1, 2, 3, 4, 5, 11, 21, 22, 101, 111, 1000)


class Marked(gettext.NullTranslations):
    """A fallback that says where an answer came from."""

    def gettext(self, message: str) -> str:
        return f"<{message}>"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"<{msgid1}|{msgid2}|{n}>"

    def pgettext(self, context: str, message: str) -> str:
        return f"<{context}|{message}>"

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return f"<{context}|{msgid1}|{msgid2}|{n}>"


@pytest.fixture
def locale(tmp_path, monkeypatch):
    """An empty folder of catalogues for the loader (``i18n.LOCALE_DIR``), its ``it`` folder given."""
    folder = tmp_path / "locale" / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n.forget_catalogues()
    yield folder
    monkeypatch.undo()
    i18n.forget_catalogues()


def built(folder: Path, domain: str, po: bytes) -> None:
    """``po``'s catalogue in ``folder`` as an installed wheel has it: compiled, with no ``.po``."""
    (folder / f"{domain}{SUFFIX}").write_bytes(compiled(po, folder.parts[-2], domain))


def from_mo(po: bytes, lang: str, domain: str) -> gettext.GNUTranslations:
    """``po`` as ``gettext`` reads the ``.mo`` babel compiles it to (as the build did before the ``.msgpack``)."""
    mo = io.BytesIO()
    write_mo(mo, read_po(io.BytesIO(po), locale=lang, domain=domain), use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


#: A book's catalogue, with what the catalogues here have not (yet): fuzzy and untranslated messages,
#: a plural message half translated (its .mo has its English for the form left untranslated), and a
#: plural rule not Italian's (0 is singular), to be sure the header's is the one taken.
BOOK_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "fire"
msgstr "fuoco"

msgctxt "command"
msgid "fire"
msgstr "spara"

msgid "{n} hit"
msgid_plural "{n} hits"
msgstr[0] "{n} colpo"
msgstr[1] "{n} colpi"

msgctxt "term"
msgid "{n} turn"
msgid_plural "{n} turns"
msgstr[0] "{n} turno"
msgstr[1] "{n} turni"

#, fuzzy
msgid "smoke"
msgstr "fumo"

msgid "rally"
msgstr ""

msgid "{n} shot"
msgid_plural "{n} shots"
msgstr[0] "{n} tiro"
msgstr[1] ""

msgid "{n} step"
msgid_plural "{n} steps"
msgstr[0] ""
msgstr[1] ""

#, fuzzy
msgctxt "term"
msgid "{n} round"
msgid_plural "{n} rounds"
msgstr[0] "{n} round"
msgstr[1] "{n} round"
"""


#: Each catalogue here, and the book's: (language, domain, its .po).
CASES = {
    **{f"{po.parts[-3]}-{po.stem}": (po.parts[-3], po.stem, po) for po in SOURCES},
    "book": ("it", "book", BOOK_PO.encode()),
}


@pytest.mark.parametrize("case", CASES)
def test_every_message_reads_as_gettext_reads_it_from_the_mo(case, locale):
    lang, domain, source = CASES[case]
    po = source.read_bytes() if isinstance(source, Path) else source
    built(locale, domain, po)
    ours = i18n._loaded(lang, domain)  # (no .po beside it: the compiled file is read, as in a wheel)
    assert isinstance(ours, Catalogue)
    theirs = from_mo(po, lang, domain)
    # The same entries (gettext keys a plural form (msgid, form)), header included...
    forms = {(msgid, form): text for msgid, said in ours.plurals.items() for form, text in enumerate(said)}
    assert {**ours.messages, **forms} == theirs._catalog
    assert len(theirs._catalog) > (5 if case == "book" else 100)
    # ...and the same answers, each alone and as a plural of every count, in a context or not.
    keys = list(theirs._catalog)
    asked = [*{k[0] if isinstance(k, tuple) else k: None for k in keys}, "no such message", "command\x04no such"]
    _same(ours, theirs, asked)
    # And as a link of a chain, a miss answered by the next (``i18n.translations``).
    ours, theirs = copy.copy(ours), copy.copy(theirs)
    ours.add_fallback(Marked())
    theirs.add_fallback(Marked())
    _same(ours, theirs, asked)


def _same(ours: gettext.NullTranslations, theirs: gettext.NullTranslations, asked: list[str]) -> None:
    """Each of ``asked`` (a msgid, with its context) reads the same in both, alone and as a plural."""
    for msgid in asked:
        context, _, message = msgid.rpartition("\x04")
        if context:
            assert ours.pgettext(context, message) == theirs.pgettext(context, message), msgid
            said = [
                (ours.npgettext(context, message, "m", n), theirs.npgettext(context, message, "m", n)) for n in COUNTS
            ]
        else:
            assert ours.gettext(message) == theirs.gettext(message), msgid
            said = [(ours.ngettext(message, "m", n), theirs.ngettext(message, "m", n)) for n in COUNTS]
        assert [a for a, b in said] == [b for a, b in said], msgid


def test_a_message_missing_from_a_catalogue_is_its_fallbacks_or_english_as_with_gettext(locale):
    ours = decoded(compiled(BOOK_PO.encode(), "it", "book"))
    theirs = from_mo(BOOK_PO.encode(), "it", "book")
    for words in (ours, theirs):
        assert words.gettext("fire") == "fuoco" and words.pgettext("command", "fire") == "spara"
        assert words.gettext("{n} hit") == "{n} colpo"  # a plural message asked for alone: its form for 1
        assert words.pgettext("term", "{n} turn") == "{n} turno"
        assert [words.ngettext("{n} hit", "{n} hits", n) for n in (0, 1, 2)] == ["{n} colpo", "{n} colpo", "{n} colpi"]
        assert words.npgettext("term", "{n} turn", "{n} turns", 1) == "{n} turno"
        assert words.pgettext("phase", "fire") == "fire" and words.ngettext("fire", "fires", 2) == "fires"
        words.add_fallback(Marked())
        assert words.gettext("smoke") == "<smoke>" and words.pgettext("phase", "fire") == "<phase|fire>"
        assert words.ngettext("fire", "fires", 2) == "<fire|fires|2>"  # a message with no plural forms
        assert words.npgettext("command", "fire", "fires", 3) == "<command|fire|fires|3>"
    with pytest.raises(TypeError):
        ours.ngettext("{n} hit", "{n} hits", "2")  # type: ignore[arg-type]  # (gettext refuses a count that is none)


def test_a_po_edited_since_it_was_compiled_is_compiled_again(locale):
    po = locale / "book.po"
    po.write_text(BOOK_PO, encoding="utf-8")
    assert i18n._loaded("it", "book").gettext("fire") == "fuoco"
    fast = po.with_suffix(SUFFIX)
    assert read(fast).gettext("fire") == "fuoco"  # left for the next process
    assert sorted(p.name for p in locale.iterdir()) == [f"book{SUFFIX}", "book.po"]  # and no .mo
    po.write_text(BOOK_PO.replace('"fuoco"', '"tiro"'), encoding="utf-8")
    later = fast.stat().st_mtime_ns + 1_000_000
    os.utime(po, ns=(later, later))
    i18n.forget_catalogues()
    assert i18n._loaded("it", "book").gettext("fire") == "tiro"
    assert read(fast).gettext("fire") == "tiro"


def _layout(*fields: object) -> bytes:
    return msgspec.msgpack.encode(list(fields))


DAMAGE = {
    "empty": b"",
    "truncated": None,  # (the real file's first half)
    "not msgpack": b"\xc1 not a catalogue",
    "another layout": _layout(2, "(n != 1)", {"fire": "incendio"}, {}),
    "a field more": _layout(1, "(n != 1)", {"fire": "incendio"}, {}, 0),
    "a translation not text": _layout(1, "(n != 1)", {"fire": 7}, {}),
    "plural forms not a list": _layout(1, "(n != 1)", {}, {"{n} hit": "{n} colpo"}),
    "no plural rule": _layout(1, None, {"fire": "incendio"}, {}),
    "a plural rule of code": _layout(1, "__import__('os').getpid()", {"fire": "incendio"}, {}),
    "a plural rule that does not parse": _layout(1, "n != ", {"fire": "incendio"}, {}),
}


def _damage(path: Path, how: str) -> None:
    data = DAMAGE[how]
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2] if data is None else data)


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_compiled_file_is_refused_never_read_as_a_catalogue(locale, how):
    po = locale / "book.po"
    po.write_text(BOOK_PO, encoding="utf-8")
    i18n._loaded("it", "book")
    _damage(po.with_suffix(SUFFIX), how)
    with pytest.raises(Unreadable):
        read(po.with_suffix(SUFFIX))


@pytest.mark.parametrize("how", DAMAGE)
def test_a_checkout_compiles_a_damaged_compiled_file_again_from_its_po(locale, how, capsys):
    po = locale / "book.po"
    po.write_text(BOOK_PO, encoding="utf-8")
    i18n._loaded("it", "book")
    _damage(po.with_suffix(SUFFIX), how)
    i18n.forget_catalogues()
    assert i18n._loaded("it", "book").gettext("fire") == "fuoco"
    assert read(po.with_suffix(SUFFIX)).gettext("fire") == "fuoco"  # mended for the next process
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("how", DAMAGE)
def test_an_install_with_a_damaged_compiled_file_says_it_speaks_english(locale, how, capsys):
    built(locale, "book", BOOK_PO.encode())
    _damage(locale / f"book{SUFFIX}", how)
    assert i18n._loaded("it", "book") is None
    said = capsys.readouterr().err
    assert said.startswith(f"fireteam: the it book catalogue cannot be read ({locale / 'book'}{SUFFIX}: ")
    assert said.endswith("): English instead\n")


@pytest.mark.parametrize("what", ["folder", "fifo"])
def test_a_folder_or_a_fifo_in_a_compiled_files_place_is_passed_over(locale, what):
    fast = locale / f"book{SUFFIX}"
    fast.mkdir() if what == "folder" else os.mkfifo(fast)  # (a FIFO opened would wait for a writer for ever)
    assert i18n._loaded("it", "book") is None  # an install: none
    (locale / "book.po").write_text(BOOK_PO, encoding="utf-8")
    i18n.forget_catalogues()
    assert i18n._loaded("it", "book").gettext("fire") == "fuoco"  # a checkout: compiled from the .po
