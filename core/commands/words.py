"""A line's words (quotes group them), and a word matched to the names it may be: in the
reader's language first, then in English; refused naming the choices where it is none or several."""

from __future__ import annotations

import difflib
from collections.abc import Callable

import msgspec

from core.commands.naming import fold, fold_name
from core.language.i18n import _
from core.language.reader import SOURCE, lang
from core.refusal import TYPING, Refused

QUOTES = "\"'"


class Word(msgspec.Struct, frozen=True):
    text: str
    #: Whether it began with a quote (literal text: its ``=`` sets no option).
    literal: bool
    #: Where it stands in the line, quotes included.
    start: int
    end: int


def words_of(text: str) -> list[Word]:
    """The words of a line.

    A quote groups words only where it opens a word or a value (``note "a b"``,
    ``d="6 4 3"``); inside a word it is a letter (``Rossi's``).  A word that
    began with a quote is literal text: its ``=`` sets no option.
    """
    words: list[Word] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start, parts = i, []
        while i < n and not text[i].isspace():
            c = text[i]
            if c in QUOTES and (i == start or text[i - 1] == "="):
                end = text.find(c, i + 1)
                if end < 0:
                    raise Refused(_("cannot read the command: no closing {quote}").format(quote=c), rule=TYPING)
                parts.append(text[i + 1 : end])
                i = end + 1
            else:
                parts.append(c)
                i += 1
        words.append(Word("".join(parts), text[start] in QUOTES, start, i))
    return words


def split(text: str) -> list[str]:
    return [w.text for w in words_of(text)]


def spliced(text: str, subs: list[tuple[int, int, str]]) -> str:
    """``text`` with each span of ``subs`` replaced."""
    out, at = [], 0
    for start, end, new in sorted(subs):
        out += [text[at:start], new]
        at = end
    out.append(text[at:])
    return "".join(out)


def quoted(word: str, most: int = 40) -> str:
    """``word`` as a refusal quotes it: escaped, and cut if long."""
    return repr(word) if len(word) <= most else repr(word[:most]) + "…"


def match_prefix(word: str, options: list[str], what: str, local: Callable[[str], str] | None = None) -> str:
    """The one option equal to or starting with ``word`` (case-insensitive).

    ``local`` gives an option's name in the reader's language: that name is
    matched first (an ambiguous prefix of it is refused), then the English one."""
    return match_word(word, options, what, local)[0]


#: The most commands a refusal names as those of the phase: more would not fit its line.
_FEW = 8


def match_word(
    word: str,
    options: list[str],
    what: str,
    local: Callable[[str], str] | None,
    about: Callable[[], list[str]] | None = None,
    now: Callable[[], list[str]] | None = None,
    formerly: Callable[[str], tuple[str, ...]] | None = None,
    offered: Callable[[str], tuple[str, ...]] | None = None,
) -> tuple[str, bool]:
    """The option ``word`` names, and whether it was named in the reader's language:
    exactly in it, exactly by a name it had in it (``formerly``: whole, never a
    prefix, that no old name makes a new one's prefix ambiguous), exactly in English,
    by a prefix in it, by a prefix in English.
    Asked only when ``word`` is none of them, for the few to name instead: ``about``,
    those whose help speaks of it; else, where none is near it and there are too many
    to list, ``now``, those fitting the moment.  ``offered``: the other words of the
    reader's language an option is typed as, named too when one is near (Italian ``n``: *no*)."""
    w = word.lower()
    mine = [(fold_name(local(o)), o) for o in options] if local is not None and lang() != SOURCE else []
    folded = fold(word)
    if mine:
        hits = list(dict.fromkeys(o for n, o in mine if n == folded))
        if len(hits) == 1:
            return hits[0], True
        if hits:
            raise Refused(could_be(word, [local(h) for h in hits]), rule=TYPING)  # type: ignore[misc]
        if formerly is not None:
            old = [o for o in options if any(fold_name(n) == folded for n in formerly(o))]
            if len(old) == 1:
                return old[0], True
    exact = [o for o in options if o.lower() == w]
    if exact:
        return exact[0], False
    if mine:
        hits = list(dict.fromkeys(o for n, o in mine if n.startswith(folded)))
        if len(hits) == 1:
            return hits[0], True
        if hits:
            raise Refused(could_be(word, [local(h) for h in hits]), rule=TYPING)  # type: ignore[misc]
    hits = [o for o in options if o.lower().startswith(w)]
    if len(hits) == 1:
        return hits[0], False
    if not hits:
        shown = [local(o) for o in options] if mine else options  # type: ignore[misc]
        speak = about() if about is not None else []
        if 0 < len(speak) <= _FEW:
            raise Refused(
                _("no {what} {word}; the word is in the help of {options}").format(
                    what=what, word=quoted(word), options=", ".join(speak)
                ),
                rule=TYPING,
            )
        others = [a for o in options for a in offered(o)] if offered is not None and mine else []
        near = near_names(folded, [*shown, *others]) or near_names(w, options)
        if near:
            raise Meant(_("no {what} {word}").format(what=what, word=quoted(word)), near)
        if len(shown) <= 12:
            raise Refused(
                _("no {what} {word} (choose from {options})").format(
                    what=what, word=quoted(word), options=", ".join(shown)
                ),
                rule=TYPING,
            )
        few = now() if now is not None else []
        if 0 < len(few) <= _FEW:
            raise Refused(
                _("no {what} {word}; now: {options}").format(what=what, word=quoted(word), options=", ".join(few)),
                rule=TYPING,
            )
        raise Refused(_("no {what} {word}").format(what=what, word=quoted(word)), rule=TYPING)
    raise Refused(could_be(word, hits), rule=TYPING)


def near_names(word: str, names: list[str]) -> list[str]:
    """The names a mistyped ``word`` most likely meant (``nxet``: next), nearest first."""
    folded = {fold(n): n for n in names}
    return [folded[n] for n in difflib.get_close_matches(word, list(folded), n=3, cutoff=0.6)]


class Meant(Refused):
    """A refusal that asks whether the player meant one of ``near``: one question naming
    every word, however many steps of the parse add theirs (:func:`asking`)."""

    def __init__(self, refusal: str, near: list[str]) -> None:
        self.refusal, self.near = refusal, list(dict.fromkeys(near))
        super().__init__(
            _("{refusal}; did you mean {options}?").format(refusal=refusal, options=or_list(self.near)), rule=TYPING
        )


def asking(refused: Refused, near: list[str]) -> Meant:
    """``refused`` asking also whether the player meant ``near``: into its own question where it
    asks one ("did you mean a2 or prepare=2?", never "did you mean a2?; did you mean prepare=2?")."""
    if isinstance(refused, Meant):
        return Meant(refused.refusal, [*refused.near, *near])
    return Meant(str(refused), near)


def could_be(word: str, items: list[str]) -> str:
    return _("{word} could be {options}").format(word=quoted(word), options=or_list(items))


def or_list(items: list[str]) -> str:
    items = sorted(items)
    if len(items) == 1:
        return items[0]
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])
