"""The headless commands' parsers (``fireteam COMMAND --help``), built without the engine: ``fireteam
--help`` lists every command with its options, and a command's run (``core.cli.main.run_headless``)
imports what it uses when it runs.  A command line naming a command builds that command's parser
alone (``add_headless``): its start imports none of the others' (the rulesets' registry, the log's
views, the league's commands).  Each parser's help is in the process's language (``core.cli.lang``)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from core.cli.lang import add_lang_option
from core.language.i18n import _

#: The ruleset ``fireteam script`` starts a new save with.
DEFAULT_RULESET = "breaking-news"


class _OnStderr(logging.Handler):
    """Each record in one line on the standard error as it is when it comes (a redirection, a capture)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"fireteam: {record.getMessage()}", file=sys.stderr)


_LEFT_OUT = _OnStderr(logging.WARNING)
#: ``core.registry.LOG``, by its name: the handler is set before any parser is built, and a command
#: that lists no ruleset never imports the registry (nor every ruleset's base, ``core.ruleset``).
RULESETS_LOG = logging.getLogger("fireteam.rulesets")


def say_plugins_left_out() -> None:
    """From now on, each ruleset plugin the registry leaves out (its import fails, it is no
    whole ruleset, its id is taken: ``core.registry.LOG``) is said in one line on stderr when
    the rulesets are first listed (``script --help``, ``rules``, ``scenarios``): a command that
    lists the rulesets never leaves one out without a word, whatever logging a library set up
    (Python's last resort speaks only where nothing is set up)."""
    if _LEFT_OUT not in RULESETS_LOG.handlers:
        RULESETS_LOG.addHandler(_LEFT_OUT)


def add_headless(sub: argparse._SubParsersAction, command: str | None = None) -> None:
    """The headless subcommands, their help in the process's language (``core.cli.lang``): every one
    (``fireteam --help``, the completion, the man page), or only the builder that adds ``command``."""
    for names, add in _BUILDERS:
        if command is None or command in names:
            add(sub)


def _add_script(sub: argparse._SubParsersAction) -> None:
    """``script``: a file of commands played into a save."""
    from core.registry import RulesetIds

    p = sub.add_parser("script", help=_("run a file of commands headlessly into a save"))
    p.add_argument("file", type=Path)
    p.add_argument(
        "--save",
        type=Path,
        help=_("save to create or append to (default: FILE-NAME.ft in the data folder's saves/: fireteam paths)"),
    )
    p.add_argument("--seed", type=int, help=_("dice seed for a new save"))
    p.add_argument(
        "--ruleset",
        # The built-ins and the installed plugins, looked for only when the help is shown or a
        # ruleset is named: a start that names none is spared their search.
        choices=RulesetIds(),
        metavar="RULESET",
        help=_(
            "the ruleset of a new save: %(choices)s (default: the one its first command's scenario file "
            "names, else {default})"
        ).format(default=DEFAULT_RULESET),
    )
    p.add_argument("--variant", default="", help=_("ruleset variant for a new save"))
    add_lang_option(p)


def _add_readers(sub: argparse._SubParsersAction) -> None:
    """``replay`` and ``log``: a save read at a step, or as its log."""
    from core.log.views import REFEREE

    p = sub.add_parser("replay", help=_("print the state of a save at a step"))
    p.add_argument("path", type=Path)
    p.add_argument(
        "--step", type=int, help=_("effective events to apply, counting only those the role may see (default: all)")
    )
    p.add_argument("--turn", type=int, help=_("the start of this turn"))
    p.add_argument("--as", dest="as_role", default=REFEREE, help=_("referee, a side id, or spectator"))
    p.add_argument("--json", action="store_true", help=_("the state as JSON, the same in every language"))
    add_lang_option(p)

    p = sub.add_parser("log", help=_("print the log in plain words"))
    p.add_argument("path", type=Path)
    p.add_argument("--as", dest="as_role", default=REFEREE, help=_("referee, a side id, or spectator"))
    p.add_argument(
        "--json",
        action="store_true",
        help=_("a list of {command, kind, text, undone, inner}, one per line of the log, inner variables too"),
    )
    p.add_argument(
        "--all",
        action="store_true",
        help=_("the game's inner variables too: key = value lines the rules keep for themselves"),
    )
    add_lang_option(p)


def _add_report(sub: argparse._SubParsersAction) -> None:
    """``report`` (run by ``core.report.cli``)."""
    from core.log.views import REFEREE

    p = sub.add_parser("report", help=_("the after-action report of a save (Markdown or HTML, with charts)"))
    p.add_argument("path", type=Path)
    p.add_argument("--as", dest="as_role", default=REFEREE, help=_("referee, a side id, or spectator"))
    p.add_argument("--format", choices=("md", "html"), help=_("md or html (default: from -o's suffix, else md)"))
    p.add_argument(
        "-o", "--out", type=Path, help=_("the file to write (Markdown: its charts beside it); default: stdout")
    )
    p.add_argument("--step", type=int, help=_("report the game up to this step of the role's (default: all)"))
    p.add_argument(
        "--rerolls",
        type=int,
        default=0,
        metavar="N",
        help=_("play the game's own orders again N times with fresh dice (the referee's report; e.g. 1000)"),
    )
    p.add_argument(
        "--reroll-seed", type=int, default=0, help=_("the re-rolls' seed (the same seed, the same re-rolls)")
    )
    p.add_argument(
        "--reroll-from", type=int, help=_("re-roll the orders after this step (default: a what-if's fork, else 0)")
    )
    p.add_argument(
        "--chances",
        type=int,
        default=0,
        metavar="N",
        help=_("each side's chances after every step, from N re-rolled games a step (e.g. 200; uses every core)"),
    )
    add_lang_option(p)


def _add_copies(sub: argparse._SubParsersAction) -> None:
    """``salvage``, ``fork``, ``export`` and ``verify``: new files made from a save, and its checks."""
    p = sub.add_parser("salvage", help=_("copy the valid start of a damaged save into a new save"))
    p.add_argument("path", type=Path)
    p.add_argument("--to", type=Path, help=_("the new save (default: NAME.salvaged.ft next to it; never overwritten)"))
    add_lang_option(p)

    p = sub.add_parser("fork", help=_("a what-if game: a new save holding a save's effective history up to a step"))
    p.add_argument("path", type=Path)
    p.add_argument("--step", type=int, required=True, help=_("effective events to keep (between two commands)"))
    p.add_argument("--save", type=Path, required=True, help=_("the new save (never an existing file)"))
    p.add_argument("--seed", type=int, help=_("dice seed for the new game (default: a new random one)"))
    add_lang_option(p)

    p = sub.add_parser("export", help=_("a side's copy of a game: what that role saw, for fireteam verify"))
    p.add_argument("path", type=Path)
    p.add_argument("--as", dest="as_role", required=True, help=_("referee, a side id, or spectator"))
    p.add_argument("-o", dest="out", type=Path, help=_("the file to write (never an existing one; default: stdout)"))
    add_lang_option(p)

    p = sub.add_parser(
        "verify", help=_("check every secret and sealed roll of a save or a side's copy against its inputs")
    )
    p.add_argument("path", type=Path)
    p.add_argument("--json", action="store_true", help=_("print every check as one JSON document"))
    p.add_argument(
        "--side-copy",
        type=Path,
        metavar="COPY",
        help=_(
            "a side's copy of this game: check that the full save gives every event of it at its step; or a "
            "browser page's record of its dice: check that each roll of its seat used the share the page sent"
        ),
    )
    add_lang_option(p)


# Each builder imports its commands' module itself: only the parser that lists them needs it.
def _add_league(sub: argparse._SubParsersAction) -> None:
    """``certify`` and ``league`` (``core.league.cli``)."""
    from core.league import cli as league_cli

    league_cli.add_parsers(sub)


def _add_event(sub: argparse._SubParsersAction) -> None:
    """``event`` (``core.event.cli``)."""
    from core.event import cli as event_cli

    event_cli.add_parsers(sub)


def _add_scenarios(sub: argparse._SubParsersAction) -> None:
    """The scenario tools, ``scenarios`` and ``scenario``."""
    from core.cli import scenarios as scenario_cli

    scenario_cli.add_parsers(sub)


def _add_rules(sub: argparse._SubParsersAction) -> None:
    from core.cli import rules as rules_cli

    rules_cli.add_parser(sub)


def _add_paths(sub: argparse._SubParsersAction) -> None:
    from core.cli import paths as paths_cli

    paths_cli.add_parser(sub)


def _add_bench(sub: argparse._SubParsersAction) -> None:
    """``bench``: the load, the seek, the client's start and keys."""
    p = sub.add_parser("bench", help=_("measure load, seek, append and memory (--client: the client's start and keys)"))
    p.add_argument("--json", action="store_true")
    p.add_argument("--events", type=int, help=_("size of the big save (default 100,000)"))
    # The benches live in tui/bench/, outside the product's rooms: tui.main runs them.
    p.add_argument(
        "--client", action="store_true", help=_("time the client's start and keys instead (tui/bench/client.py)")
    )
    p.add_argument("--rounds", type=int, default=15, help=_("--client: timed presses of each key per save"))
    p.add_argument("--start-rounds", type=int, default=9, help=_("--client: timed starts of each app per save"))
    p.add_argument("--starts", action="store_true", help=_("--client: time the starts only, no key"))
    p.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help=_("--client: time the starts of the Fireteam checkout in DIR too, in the same rounds"),
    )
    p.add_argument(
        "--flood",
        type=int,
        metavar="N",
        help=_("what N characters typed at once cost the client (tui/bench/key_flood.py)"),
    )
    p.add_argument("--unbounded", action="store_true", help=_("--flood: on Textual's own driver, unbounded"))
    p.add_argument(
        "--spoken",
        action="store_true",
        help=_("how long a plain seat's answers take to hear, read by eSpeak NG (tui/bench/spoken.py)"),
    )
    p.add_argument(
        "--rules",
        action="store_true",
        help=_(
            "how fast and how well rule? answers the tuned question set and the held-out one (tui/bench/rulesearch.py)"
        ),
    )
    p.add_argument(
        "--chances",
        type=int,
        metavar="N",
        help=_("time the demo game's chances, N re-rolled games a step, on every core (e.g. 200)"),
    )
    p.add_argument(
        "--league",
        nargs="?",
        const="",
        metavar="FOLDER",
        help=_("time a club's season of 400 signed games: league add and standings (tui/bench/league.py)"),
    )
    p.add_argument(
        "--event",
        nargs="?",
        const="",
        metavar="FOLDER",
        help=_(
            "pair a 64-player Swiss and a 16-player round robin from their event files, then play a round at "
            "real tables over a venue (tui/bench/event.py, event_tables.py)"
        ),
    )
    p.add_argument(
        "--tables",
        type=int,
        default=32,
        metavar="N",
        help=_("with --event: the tables played over the venue (default: %(default)s; 0: the pairing alone)"),
    )
    add_lang_option(p)


#: Each builder by the commands it adds, in ``fireteam --help``'s order.
_BUILDERS = (
    (("script",), _add_script),
    (("replay", "log"), _add_readers),
    (("report",), _add_report),
    (("salvage", "fork", "export", "verify"), _add_copies),
    (("certify", "league"), _add_league),
    (("event",), _add_event),
    (("scenarios", "scenario"), _add_scenarios),
    (("rules",), _add_rules),
    (("paths",), _add_paths),
    (("bench",), _add_bench),
)
