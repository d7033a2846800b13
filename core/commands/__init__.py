"""The command language: parsing and completion.

A command is one line: a verb, then its arguments::

    fire rossi ahmed range=30 aimed dice=6,4,3
    move ahmed 12 run
    undo

* Verbs, unit names, sides and choices are case-insensitive and may be
  shortened to any unambiguous prefix (``fi ro ah r=30``).  A unit is matched by
  its id or by any word of its name.
* ``name=value`` sets an argument by name; bare words fill the positional
  arguments in order; a bare word that is one of a choice argument's values
  sets that argument (``aimed``, ``burst``).
* ``dice=6,4,3`` (or ``d=643``) gives the faces of physical dice, in the order
  the rolls happen; without it the game's seeded dice roll.
* Quotes group words: ``note "ambush at the well"``.  A text argument (a note, a
  reason) takes the rest of the line, typed bare or by name: ``reason=they broke``
  takes the words after it up to the next ``name=value``.
* Every verb, option and choice also has a name in the reader's language (its
  ruleset's catalogue, msgctxt ``command`` / ``option`` / ``choice``): a word is
  matched in the reader's language first, then in English, and the line is
  recorded with the English names (:attr:`Parsed.text`), so a script typed in
  Italian and its English equivalent write the same events.  An Italian reader
  may write a decimal comma (``25,5``); the record holds ``25.5``.

Unit names resolve against what the issuing role can see, so a hidden enemy
is "no such unit" exactly like one that does not exist.  Where the book lets a
side aim at a hidden enemy's marker (``Param.markers``), the marker's label
(``K7Q``) names it: the core resolves it to the unit, and the side learns
nothing from that but what the rules then show it.

The package holds one concept a module, each importing only those listed before it:
``naming`` (a command's names in the reader's language and in English, its usage,
the reader's numbers), ``words`` (a line's words, and a word matched to names),
``pieces`` (units, teams and sides found by a word of their name), ``values`` (the
line's checks, whole numbers, distances, a word as its argument's value), ``verbs``
(the commands found and offered now), then ``parsing`` (:class:`Parsed`,
:func:`parse`), ``record`` (a recorded line in the reader's names) and
``completion`` (Tab's candidates), none of which imports another of the three
(pyproject.toml's contract ``command-language-layers``).  What the rest of the
program uses is imported from here: each name from its module when it is first asked
for, so that drawing a log's lines in the reader's names (``record``) imports neither
the parser nor completion, nor what they stand on.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.commands.completion import complete
    from core.commands.naming import example_words, local_name, meanings, names, spec_domain, title, usage
    from core.commands.parsing import Parsed, parse
    from core.commands.pieces import find_side, find_unit, teams
    from core.commands.record import example_prose, localize_line
    from core.commands.values import MAX_LINE, check_line, distance, whole_number
    from core.commands.verbs import find_verb, shortest_start
    from core.commands.words import match_prefix, or_list, split

#: Where each name lives: imported when first asked for, not with the package (issue #93).
_HOMES = {
    "complete": "core.commands.completion",
    "example_words": "core.commands.naming",
    "local_name": "core.commands.naming",
    "meanings": "core.commands.naming",
    "names": "core.commands.naming",
    "spec_domain": "core.commands.naming",
    "title": "core.commands.naming",
    "usage": "core.commands.naming",
    "Parsed": "core.commands.parsing",
    "parse": "core.commands.parsing",
    "find_side": "core.commands.pieces",
    "find_unit": "core.commands.pieces",
    "teams": "core.commands.pieces",
    "example_prose": "core.commands.record",
    "localize_line": "core.commands.record",
    "MAX_LINE": "core.commands.values",
    "check_line": "core.commands.values",
    "distance": "core.commands.values",
    "whole_number": "core.commands.values",
    "find_verb": "core.commands.verbs",
    "shortest_start": "core.commands.verbs",
    "match_prefix": "core.commands.words",
    "or_list": "core.commands.words",
    "split": "core.commands.words",
}

__all__ = [
    "MAX_LINE",
    "Parsed",
    "check_line",
    "complete",
    "distance",
    "example_prose",
    "example_words",
    "find_side",
    "find_unit",
    "find_verb",
    "local_name",
    "localize_line",
    "match_prefix",
    "meanings",
    "names",
    "or_list",
    "parse",
    "spec_domain",
    "shortest_start",
    "split",
    "teams",
    "title",
    "usage",
    "whole_number",
]


def __getattr__(name: str) -> Any:
    """One of the package's names, imported from its module the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
