"""The language of a ``fireteam`` command line: ``--lang it|en``, else the locale, else English.

It is chosen before any parser is built (:func:`choose_language`), so the
parsers' help, argparse's own words ("usage:", its errors) and everything the
command prints are in it.  argparse takes its words from the stdlib ``gettext``
(a ``.mo`` file of the ``messages`` domain, which Fireteam does not ship):
:func:`choose_language` points argparse's two translating functions at the
``fireteam`` catalogue instead, whose Italian for them is listed below.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from core.language.i18n import N_, _, ngettext
from core.language.reader import LANGUAGE_NAMES, LANGUAGES, from_environment, language_asked, set_process_language

#: argparse's messages that a ``fireteam`` command can show, as Python 3.11+ writes them.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def choose_language(argv: Sequence[str], environ: dict[str, str] | None = None) -> str:
    """Set the process's language from ``argv``'s ``--lang``, else the locale; return it."""
    code = language_asked(argv) or from_environment(environ)
    set_process_language(code)
    # argparse looks these two up in its module each time it says something.
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    return code


def add_lang_option(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``--lang`` on ``parser``; chosen before parsing (:func:`choose_language`), so a
    subcommand's leaves the top parser's value alone (SUPPRESS)."""
    names = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None if top else argparse.SUPPRESS,
        help=_("the language of what is shown: {languages} (default: from the locale, else English)").format(
            languages=names
        ),
    )
