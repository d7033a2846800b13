"""The ``fireteam`` command: the client by default, headless subcommands from core."""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

# Fireteam's own modules are imported in the functions, not here: the client's
# start pauses the cycle collector before the first of them (``main``).  So
# are argparse and pathlib: the terminal is quieted for keys typed ahead
# (``tui.typeahead``) as soon as the command runs, and each import before is
# milliseconds more of the shell's echo.


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's (``fireteam --help``, the completion, the man page);
    or, given the command a line names, that command's alone under the same top, so its start imports
    no other's (the rulesets' registry, the SSH server's limits and asyncio).  The top's description
    and epilog, which such a line can no longer ask for (its ``--help`` is the command's), are left
    out with the client's words they need."""
    import argparse

    from core.cli.lang import add_lang_option
    from core.cli.parsers import add_headless

    p = argparse.ArgumentParser(
        prog="fireteam",
        usage=f"{CLIENT_USAGE}\n       fireteam COMMAND ...",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    version = p.add_argument("--version", action="version", version=f"fireteam {_version()}")
    if command is None:
        from tui.i18n import _

        p.description = _("A terminal referee for tabletop skirmish wargames. With no save it opens the start screen.")
        # The client's own options, as `fireteam SAVE --help` gives them, kept as written.
        p.epilog = _app_parser().format_help().removeprefix("usage: ")
        version.help = _("show the version and exit")
    add_lang_option(p, top=True)
    sub = p.add_subparsers(dest="command", prog="fireteam")  # "fireteam log", not the usage above
    add_headless(sub, command)
    for name, add in _SERVER_COMMANDS:
        if command in (None, name):
            add(sub)
    return p


def _add_serve(sub: argparse._SubParsersAction) -> None:
    from pathlib import Path

    from tui.i18n import _

    s = sub.add_parser("serve", help=_("host games over SSH"))
    s.add_argument("saves", nargs="*", type=Path)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=2222)
    s.add_argument("--seats", type=Path, help=_("seats file: public keys, names and roles"))
    s.add_argument(
        "--event",
        type=Path,
        metavar="EVENT",
        help=_("serve the tables of an event's current round, and each next round's as it is paired (docs/event.md)"),
    )
    s.add_argument(
        "--organiser-key",
        type=Path,
        metavar="KEY",
        help=_(
            "with --event, required: the organiser's SSH key, with which the server vouches for the games "
            "confirmed at its seats (ssh-keygen -Y sign runs it)"
        ),
    )
    from core.cli.lang import add_lang_option

    add_lang_option(s)  # the server's: a seat's when its seats-file entry and its client name none
    s.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_("processes that draw the seats, in parallel (default: one per core; 0: all in the server's process)"),
    )
    from core.folders import doc

    web = s.add_argument_group(_("browser seats (see {doc}, Browser seats)").format(doc=doc("ssh.md")))
    web.add_argument("--web", type=int, metavar="PORT", help=_("also take players in browsers, on this port"))
    web.add_argument("--web-host", metavar="H", help=_("the address browsers connect to (default: --host's)"))
    web.add_argument(
        "--url",
        default="",
        help=_("the address players open, when it is not http://HOST:PORT (a reverse proxy: https://...)"),
    )
    web.add_argument("--cert", type=Path, metavar="FILE", help=_("TLS certificate (PEM) of the browser seats"))
    web.add_argument("--key", type=Path, metavar="FILE", help=_("its private key (PEM)"))
    from tui.ssh.limits import add_arguments
    from tui.ssh.venue.options import add_nats_arguments

    add_arguments(s)
    add_nats_arguments(s, table=True)


def _add_relay(sub: argparse._SubParsersAction) -> None:
    from tui.ssh.venue.relaymain import add_relay_parser

    add_relay_parser(sub)


def _add_invite(sub: argparse._SubParsersAction) -> None:
    from tui.i18n import _
    from tui.ssh.invitations.cli import add_arguments as add_invite_arguments

    i = sub.add_parser("invite", help=_("invite a player to a seat of fireteam serve: a link and an SSH command"))
    add_invite_arguments(i)


def _add_completion(sub: argparse._SubParsersAction) -> None:
    from tui.i18n import _

    c = sub.add_parser("completion", help=_("the shell completion script of fireteam, to source in the shell"))
    c.add_argument("shell", choices=COMPLETION_SHELLS)


#: The commands of ``tui/`` (the server's, the completion), each by its parser's builder, after
#: the headless ones in ``fireteam --help``.
_SERVER_COMMANDS = (
    ("serve", _add_serve),
    ("relay", _add_relay),
    ("invite", _add_invite),
    ("completion", _add_completion),
)


#: The client's usage line, the top of every command's too (``_app_parser``, ``_parser``).
CLIENT_USAGE = "fireteam [SAVE] [--replay] [--as ROLE] [--lang LANG] [--demo] [--plain [--bot | --json] [--strict]]"

#: The shells ``fireteam completion`` writes a script for (shtab's).
COMPLETION_SHELLS = ("bash", "zsh", "fish")


def _completion(shell: str) -> str:
    """``fireteam completion SHELL``: the commands, their options and the client's, paths where a path goes."""
    import shtab

    p = _parser()
    # The client's options beside the commands (its SAVE is any path: the shell's own completion).
    for action in _app_parser()._actions:
        if action.option_strings and not set(action.option_strings) & set(p._option_string_actions):
            p._add_action(action)
    for parser in [p, *_subparsers(p)]:
        for action in parser._actions:
            if action.type is not None and getattr(action.type, "__name__", "") in ("Path", "PosixPath", "WindowsPath"):
                action.complete = shtab.FILE  # type: ignore[attr-defined]  # (shtab's own attribute of an action)
    return shtab.complete(p, shell=shell)


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    import argparse

    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                found += [child, *_subparsers(child)]
    return found


def _app_parser() -> argparse.ArgumentParser:
    import argparse
    from pathlib import Path

    from core.language.reader import LANGUAGE_NAMES, LANGUAGES
    from tui.i18n import _

    p = argparse.ArgumentParser(
        prog="fireteam",
        usage=CLIENT_USAGE,
        description=_("Open the Fireteam client."),
    )
    p.add_argument("save", nargs="?", type=Path, metavar="SAVE", help=_("a save to open (default: the start screen)"))
    p.add_argument("--demo", action="store_true", help=_("with no save: a new demo game in the data folder's saves/"))
    p.add_argument("--replay", action="store_true", help=_("open the save in replay mode (never writes)"))
    p.add_argument(
        "--plain",
        action="store_true",
        help=_("plain lines, no screen: for screen readers, braille displays, slow links and scripts"),
    )
    answers = p.add_mutually_exclusive_group()
    answers.add_argument(
        "--bot",
        action="store_true",
        help=_("with --plain: every answer ends with a line holding a full stop alone (docs/client.md)"),
    )
    answers.add_argument(
        "--json",
        action="store_true",
        help=_("with --plain: every answer is one JSON object on a line of its own (docs/client.md)"),
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help=_("with --plain: exit with status 1 at the end of the input if a command was refused"),
    )
    p.add_argument(
        "--as", dest="as_role", default="referee", metavar="ROLE", help=_("referee, a side id, or spectator")
    )
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        metavar="LANG",
        help=_(
            "the client's language: {choices} (default: the one chosen in the client, else the locale, else English)"
        ).format(choices=", ".join(f"{code} ({name})" for code, name in LANGUAGE_NAMES.items())),
    )
    return p


def _version() -> str:
    """Fireteam's version: written once, in ``core.__version__`` (pyproject.toml reads it there),
    so a source tree run without the package's metadata says the same."""
    from core import __version__

    return __version__


def main(argv: list[str] | None = None, *, terminal: bool = False) -> int:
    """The ``fireteam`` command; ``terminal``: it owns the terminal on stdin (the console
    script's, not a caller's), which is quieted at once for keys typed ahead (``tui.typeahead``)."""
    argv = sys.argv[1:] if argv is None else argv
    from core.language.reader import after_lang

    if after_lang(argv)[:1] == ["--version"]:
        # Said as argparse's ``--version`` would (the parser still lists it), with nothing imported
        # first: the parser's subcommands import the engine and the report's charts.
        try:
            print(f"fireteam {_version()}", flush=True)
        except BrokenPipeError:
            raise
        except OSError as e:  # a full disk: said as any command's output that cannot be written
            from core.cli.output import UNWRITTEN, unwritten

            unwritten(sys.stdout, e, "--version")
            return UNWRITTEN
        return 0
    # Starting the client builds a few hundred thousand objects that live as
    # long as it does (modules, styles, widgets, the game), and the cycle
    # collector would go through them again and again while they are made: it
    # is paused from the first import until the first frame is drawn, and then
    # those objects are set aside for good (gc.freeze, in FireteamApp), so no
    # later collection scans them either.  A headless command runs with it, as
    # any program.  ``fireteam bench --client`` measures the start.
    gc.disable()
    from tui.typeahead import QuietTerminal

    tty = QuietTerminal()
    dumb = os.environ.get("TERM") == "dumb"  # (Emacs's shell): it cannot draw a screen, only take lines
    if terminal and "--plain" not in argv and not dumb:  # the line client reads the terminal as the shell left it
        tty.quiet()
    plain = None
    try:
        if _is_client(argv):
            args = _app_parser().parse_args(argv)
            if args.save is not None and (said := _not_a_command(args.save)):
                print(f"fireteam: {said}", file=sys.stderr)
                return 2
            if args.plain:
                plain = args
            elif args.bot or args.json or args.strict:
                from tui.i18n import _

                _app_parser().error(_("--bot, --json and --strict go with --plain"))
            elif dumb:
                from tui.i18n import _

                said = _("TERM=dumb cannot show the screen: plain lines instead (--plain)")
                print(f"fireteam: {said}", file=sys.stderr)
                plain = args
            else:
                from core.storage.readahead import ReadAhead

                # A big save's bytes are read on another core while the client is imported.
                ahead = ReadAhead.of(args.save)
                from tui.run import run_app

                return run_app(
                    save=args.save,
                    replay=args.replay,
                    role=args.as_role,
                    lang=args.lang,
                    typed=tty.take_typed(),
                    demo=args.demo,
                    ahead=ahead,
                )
    except KeyboardInterrupt:  # Ctrl+C before the client took the terminal: the start is given up (128 + SIGINT)
        return 130
    finally:
        tty.restore()  # the modes found, on every way out
        gc.enable()
    if plain is not None:
        from tui.lines.terminal import run_plain  # no Textual: tui/lines/__init__.py

        try:
            return run_plain(
                plain.save,
                replay=plain.replay,
                role=plain.as_role,
                lang=plain.lang,
                protocol="json" if plain.json else "bot" if plain.bot else "",
                strict=plain.strict,
                demo=plain.demo,
            )
        except KeyboardInterrupt:  # Ctrl+C outside a prompt (which it only clears): leave, as a shell's command does
            return 130
    tty.give_back()  # not the client's: what was typed is for whatever reads the terminal next
    return _headless(argv)


def _commands() -> tuple[str, ...]:
    from core.cli import HEADLESS

    return (*HEADLESS, "serve", "invite", "relay", "completion")


def _is_client(argv: list[str]) -> bool:
    """Whether the command line opens the client (else: a headless command, the server, the help)."""
    from core.cli.lang import choose_language
    from core.language.reader import after_lang

    choose_language(argv)  # before any parser is built: its help and errors are in it too
    words = after_lang(argv)
    return not (words and (words[0] in _commands() or words[0] in ("-h", "--help", "--version")))


def _not_a_command(save: Path) -> str:
    """Why the word given as a save is taken for a mistyped command ("" when it is a save to open).

    A bare word (no folder, no suffix) that names no file is a command mistyped, as
    git and gh say: ``fireteam reprot`` is not a save to look for.  A file by that
    name is opened, whatever its name; a path or a name with a suffix is a save.
    """
    word = str(save)
    if save.suffix or len(save.parts) != 1 or os.path.lexists(save):
        return ""
    import difflib  # (a mistyped command's suggestions only: not at a save's start)

    from tui.i18n import _

    near = difflib.get_close_matches(word, _commands(), n=3, cutoff=0.6)
    if near:
        return _("no command {word}; did you mean {commands}?").format(word=word, commands=", ".join(near))
    return _("no command and no save {word}; the commands: {commands}").format(
        word=word, commands=", ".join(_commands())
    )


def _headless(argv: list[str]) -> int:
    """``fireteam COMMAND``: a headless command, the SSH server or a bench; where what it prints
    cannot be written (a full disk, an I/O error), its own status said on standard error, never a
    traceback (``core.cli.output.watched``, issue #90 point 9)."""
    from core.cli.output import watched

    with watched(lambda: _said_command(argv)) as status:
        status[0] = _command(argv)
    return status[0]


def _said_command(argv: list[str]) -> str:
    """The command a line runs, as a failing output names it: ``log``, ``league standings``."""
    from core.language.reader import after_lang

    words = after_lang(argv)
    if words and words[0] in ("league", "event") and len(words) > 1 and not words[1].startswith("-"):
        return f"{words[0]} {words[1]}"
    return words[0] if words else ""


def _command(argv: list[str]) -> int:
    from core.cli.parsers import say_plugins_left_out
    from core.language.reader import after_lang

    say_plugins_left_out()  # before the parser: its help and its check of a --ruleset list the rulesets
    words = after_lang(argv)
    args = _parser(words[0] if words and words[0] in _commands() else None).parse_args(argv)
    if args.command in ("serve", "invite") and not _posix():
        from tui.i18n import _

        print("fireteam: " + _("the SSH server runs on Linux and macOS only"), file=sys.stderr)
        return 2
    if args.command == "serve":
        from tui.ssh.main import serve_main

        return serve_main(args)
    if args.command == "relay":
        from tui.ssh.venue.relaymain import relay_main

        return relay_main(args)
    if args.command == "invite":
        from tui.ssh.invitations.cli import invite_main

        return invite_main(args)
    if args.command == "completion":
        print(_completion(args.shell))
        return 0
    if args.command is None:
        return 0
    if args.command == "bench":
        from tui.bench import run

        return run(args)
    if args.command == "event":  # (no game engine: an event reads certificates, never a save, but to add it)
        from core.event.cli import run as run_event

        return run_event(args)
    from core.cli.main import run_headless  # the engine, once the line is parsed: --help needs none of it

    return run_headless(args)


def _posix() -> bool:
    """Whether this system has the POSIX modules the SSH server needs (not Windows)."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("fcntl", "termios"))


def entry() -> int:
    """The console script: ``main`` with a quiet exit when the output pipe closes (``| head``)."""
    try:
        return main(terminal=True)
    except BrokenPipeError:
        # Python flushes stdout again at exit; point it at devnull so that is silent too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(entry())
