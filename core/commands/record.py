"""A recorded line (``Issued.text``, English names) shown in the reader's names."""

from __future__ import annotations

from collections.abc import Sequence

from core.commands.naming import decimal_point, local_name, spec_domain
from core.commands.values import DISTANCE
from core.commands.words import spliced, words_of
from core.language.i18n import CORE_DOMAIN
from core.language.reader import SOURCE, lang
from core.language.shapes import CommandShape, ParamShape
from core.ruleset import CommandSpec, Param, Refused


def localize_line(text: str, specs: Sequence[CommandSpec | CommandShape], domain: str = CORE_DOMAIN) -> str:
    """A recorded line (``Issued.text``, English names) as the reader would type it:
    the verb, options and choices named in full in English given their names in the
    reader's language, distances their decimal comma.  Units, sides and text stay as
    written; a word given as a prefix stays as typed; a line that does not read as a
    command (an older or hostile save's) is shown as it is."""
    if lang() == SOURCE:
        return text
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

    def shown(p: Param | ParamShape, value: str) -> str | None:
        if p.kind == "choice" and value.lower() in p.choices:
            return local_name("choice", value.lower(), domain)
        if p.kind == "distance" and DISTANCE.fullmatch(value) and "." in value:
            return value.replace(".", point)
        return None

    i = 0
    for word in given[1:]:
        w = word.text
        if "=" in w and not w.startswith("=") and not word.literal:
            key, _eq, value = w.partition("=")
            mine = local_name("option", key.lower(), domain) if key.lower() in params or key == "dice" else None
            if mine is not None:
                subs.append((word.start, word.start + len(key), mine))
            p = params.get(key.lower())
            said: str | None
            if p is not None and p.many and p.kind == "choice":  # cover=heavy,open: each choice shown
                said = ",".join(shown(p, v) or v for v in value.split(","))
            else:
                said = shown(p, value) if p is not None and not p.many else None
            if said is not None:
                subs.append((word.start + len(key) + 1, word.end, said))
            continue
        if w.lower() in choice_words:
            subs.append((word.start, word.end, local_name("choice", w.lower(), domain)))
            continue
        if i >= len(pos_params) or pos_params[i].kind in ("text", "team"):
            continue  # the rest of the bare words are text, shown as written
        p = pos_params[i]
        new = shown(p, w)
        if new is not None:
            subs.append((word.start, word.end, new))
        if not p.many:
            i += 1
    return spliced(text, subs)
