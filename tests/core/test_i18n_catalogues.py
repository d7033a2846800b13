"""Every word the product shows has its Italian, and no catalogue holds words the code dropped.

A failure lists the messages: run ``python -m core.language.catalogues update`` and
translate what it added (``core/language/locale/it/LC_MESSAGES/<domain>.po``)."""

from __future__ import annotations

import pytest

from core.language.catalogues import DOMAINS, read, template, untranslated
from core.language.i18n import render, translations
from core.language.reader import LANGUAGES, SOURCE

TARGETS = [lang for lang in LANGUAGES if lang != SOURCE]


@pytest.mark.long
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TARGETS)
def test_no_message_is_missing_its_translation(lang, domain):
    assert untranslated(lang, domain) == []


@pytest.mark.long  # the template is extracted from every module of the domain (up to 1.2 s of CPU each)
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TARGETS)
def test_no_catalogue_keeps_messages_the_code_no_longer_has(lang, domain):
    wanted = {(m.id, m.context) for m in template(domain) if m.id}
    kept = {(m.id, m.context) for m in read(lang, domain) if m.id}
    assert sorted(map(str, kept - wanted)) == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TARGETS)
def test_every_translation_keeps_the_fields_of_its_message(lang, domain):
    """A translation that drops or misspells ``{unit}`` would show a raw template."""
    import string

    def fields(s: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(s) if f is not None}

    bad = []
    for m in read(lang, domain):
        if not m.id or not m.string or isinstance(m.id, tuple):
            continue
        try:
            if fields(m.id) != fields(m.string):
                bad.append(m.id)
        except ValueError:  # not a template: braces of its own
            continue
    assert bad == []


def test_english_is_the_source_and_needs_no_catalogue():
    assert translations("en", "breaking_news").gettext("fire") == "fire"
    assert render("anything at all", language="en") == "anything at all"
