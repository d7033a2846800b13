"""``python -m core.language.catalogues update`` on an untouched clone changes nothing, and it
settles a catalogue edited by hand (a message appended out of the code's order, another babel's
header) into exactly the committed bytes (issue #76)."""

from __future__ import annotations

import shutil

import pytest

from core.language import catalogues
from core.language.i18n import LOCALE_DIR

pytestmark = pytest.mark.long  # update extracts every message of the code (about 15 s)


def _files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.po"))}


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """The committed catalogues, copied; ``update`` writes the copy."""
    shutil.copytree(LOCALE_DIR, tmp_path / "locale", ignore=shutil.ignore_patterns("*.msgpack"))
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path / "locale")
    return tmp_path / "locale"


def test_update_on_the_committed_catalogues_changes_no_byte(copy):
    before = _files(copy)
    assert len(before) == len(catalogues.DOMAINS)
    catalogues.update()
    assert _files(copy) == before


def test_update_settles_a_catalogue_edited_by_hand_into_the_committed_bytes(copy):
    path = copy / "it" / "LC_MESSAGES" / "breaking_news.po"
    committed = path.read_bytes()
    text = committed.decode("utf-8")
    # the first message of the file, moved to its end, as a hand edit appends one;
    # the header written by another babel; a message the code never had
    first = text.index("\n#: ") + 1
    second = text.index("\n#: ", first) + 1
    moved = text[first:second]
    edited = text[:first] + text[second:] + "\n" + moved + '\nmsgid "no such words"\nmsgstr "nessuna parola"\n'
    last = '"Content-Transfer-Encoding: 8bit\\n"\n'
    edited = edited.replace(last, last + '"Generated-By: Babel 2.12.0\\n"\n')
    path.write_bytes(edited.encode("utf-8"))
    assert catalogues.unsettled("it", "breaking_news")
    catalogues.update(("breaking_news",))
    assert path.read_bytes() == committed
    assert not catalogues.unsettled("it", "breaking_news")
