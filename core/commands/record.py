"""A recorded line (``Issued.text``, English names) shown in the reader's names."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.commands.naming import DISTANCE, decimal_point, local_name, spec_domain
from core.commands.words import QUOTES, Word, spliced, words_of
from core.language.i18n import CORE_DOMAIN, scenario_words
from core.language.reader import SOURCE, lang
from core.language.shapes import CommandShape, ParamShape
from core.ruleset import CommandSpec, Param, Refused


def localize_line(
    text: str,
    specs: Sequence[CommandSpec | CommandShape],
    domain: str = CORE_DOMAIN,
    prose: Callable[[str, str], str] | None = None,
) -> str:
    """A recorded line (``Issued.text``, English names) as the reader would type it:
    the verb, options and choices named in full in English given their names in the
    reader's language, distances their decimal comma.  Units, sides and text stay as
    written, but for ``prose(words, domain)``, given, of a ``Param.prose`` text (help's
    examples: ``out ahmed fled the table``); a word given as a prefix stays as typed; a
    line that does not read as a command (an older or hostile save's) is shown as it is."""
    if lang() == SOURCE:
        return text
    return _localized(text, specs, domain, prose)


def example_prose(example: str, spec: CommandSpec) -> list[str]:
    """The player's own words ``example`` gives (``Param.prose``): what the catalogues translate
    for help to show it in the reader's language (``core.language.catalogues``)."""
    found: list[str] = []

    def kept(words: str, _domain: str) -> str:
        found.append(words)
        return words

    _localized(example, [spec], CORE_DOMAIN, kept)
    return found


def _localized(
    text: str,
    specs: Sequence[CommandSpec | CommandShape],
    domain: str,
    prose: Callable[[str, str], str] | None,
) -> str:
    try:
        given = words_of(text)
    except Refused:
        return text
    if not given:
        return text
    by_name = {a: s for s in specs for a in (s.name, *s.aliases)}
    spec = by_name.get(given[0].text.lower())
    if spec is None:
        return text
    domain = spec.domain if isinstance(spec, CommandShape) else spec_domain(spec, domain)
    subs = [(given[0].start, given[0].end, local_name("command", given[0].text.lower(), domain))]
    params = {p.name: p for p in spec.params}
    choice_words = {c: p for p in spec.params if p.kind == "choice" and p.keyword for c in p.choices}
    keyed = {w.text.partition("=")[0].lower() for w in given[1:] if "=" in w.text and not w.literal}
    pos_params = [p for p in spec.params if not p.keyword and p.name not in keyed]
    point = decimal_point()

    def next_option(word: Word) -> int:
        """Where the next option given by name after ``word`` starts: a text ends there."""
        return next((v.start for v in given if v.start > word.start and _option_of(v) in (*params, "dice")), len(text))

    i, past = 0, 0  # past: the end of a text already given in the reader's words
    for word in given[1:]:
        w = word.text
        if word.start < past:
            continue
        if "=" in w and not w.startswith("=") and not word.literal:
            key, _eq, value = w.partition("=")
            mine = local_name("option", key.lower(), domain) if key.lower() in params or key == "dice" else None
            if mine is not None:
                subs.append((word.start, word.start + len(key), mine))
            p = params.get(key.lower())
            said: str | None
            if prose is not None and isinstance(p, Param) and p.prose:
                # a text by name takes the words after it too, up to the next option by name
                at = word.start + len(key) + 1
                words = text[at : word.end if text[at : at + 1] in tuple(QUOTES) else next_option(word)].rstrip()
                past = at + len(words)
                subs.append((at, past, _quoted_as_given(words, prose, domain)))
                continue
            if p is not None and p.many and p.kind == "choice":  # cover=heavy,open: each choice shown
                said = ",".join(_value_shown(p, v, domain, point) or v for v in value.split(","))
            else:
                said = _value_shown(p, value, domain, point) if p is not None and not p.many else None
            if said is not None:
                subs.append((word.start + len(key) + 1, word.end, said))
            continue
        if w.lower() in choice_words:
            subs.append((word.start, word.end, local_name("choice", w.lower(), domain)))
            continue
        place = pos_params[i] if i < len(pos_params) else None
        if prose is not None and place is not None and (place.kind == "team" or getattr(place, "prose", False)):
            # a text or a team is the rest of the line, up to the next option given by name; an
            # example's team as the reader reads a built-in one (ruling I18N-TEAM)
            words = text[word.start : next_option(word)].rstrip()
            past = word.start + len(words)
            said = scenario_words(words) if place.kind == "team" else _quoted_as_given(words, prose, domain)
            subs.append((word.start, past, said))
            continue
        if i >= len(pos_params) or pos_params[i].kind in ("text", "team"):
            continue  # the rest of the bare words are text, shown as written
        p = pos_params[i]
        new = _value_shown(p, w, domain, point)
        if new is not None:
            subs.append((word.start, word.end, new))
        if not p.many:
            i += 1
    return spliced(text, subs)


def _value_shown(p: Param | ParamShape, value: str, domain: str, point: str) -> str | None:
    """A choice's ``value`` by its name in the reader's language, a distance with his decimal
    ``point``; None for a value shown as given."""
    if p.kind in ("choice", "side") and value.lower() in p.choices:  # a side's place takes draw
        return local_name("choice", value.lower(), domain)
    if p.kind == "distance" and DISTANCE.fullmatch(value) and "." in value:
        return value.replace(".", point)
    return None


def _quoted_as_given(given: str, prose: Callable[[str, str], str], domain: str) -> str:
    """``prose`` of the words ``given``, in the quotes they were given in (``note "a b"``)."""
    if len(given) > 1 and given[0] in QUOTES and given[-1] == given[0]:
        return given[0] + prose(given[1:-1], domain) + given[0]
    return prose(given, domain)


def _option_of(word: Word) -> str:
    """The option a word gives by name (``range=30``: ``range``), lower case; "" if none."""
    return "" if word.literal or "=" not in word.text[1:] else word.text.partition("=")[0].lower()
