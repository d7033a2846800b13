"""The ``fireteam`` command: the client by default, headless subcommands from core."""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

# Fireteam's own modules are imported in the functions, not here: the client's
# start pauses the cycle collector before the first of them (``main``).  So
# are argparse and pathlib: the terminal is quieted for keys typed ahead
# (``tui.typeahead``) as soon as the command runs, and each import before is
# milliseconds more of the shell's echo.


def _parser() -> argparse.ArgumentParser:
    import argparse
    from pathlib import Path

    from core.cli.lang import add_lang_option
    from core.cli.main import add_headless
    from tui.i18n import _

    client = _app_parser()
    p = argparse.ArgumentParser(
        prog="fireteam",
        usage=f"{client.usage}\n       fireteam COMMAND ...",
        description=_("A terminal referee for tabletop skirmish wargames. With no save it opens the start screen."),
        # The client's own options, as `fireteam SAVE --help` gives them, kept as written.
        epilog=client.format_help().removeprefix("usage: "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"fireteam {_version()}", help=_("show the version and exit"))
    add_lang_option(p, top=True)
    sub = p.add_subparsers(dest="command", prog="fireteam")  # "fireteam log", not the usage above
    add_headless(sub)
    s = sub.add_parser("serve", help=_("host games over SSH"))
    s.add_argument("saves", nargs="*", type=Path)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=2222)
    s.add_argument("--seats", type=Path, help=_("seats file: public keys, names and roles"))
    add_lang_option(s)  # the server's: a seat's when its seats-file entry and its client name none
    s.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_("processes that draw the seats, in parallel (default: one per core; 0: all in the server's process)"),
    )
    web = s.add_argument_group(_("browser seats (see docs/ssh.md, Browser seats)"))
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

    add_arguments(s)
    i = sub.add_parser("invite", help=_("invite a player to a seat of fireteam serve: a link and an SSH command"))
    from tui.ssh.invite import add_arguments as add_invite_arguments

    add_invite_arguments(i)
    return p


def _app_parser() -> argparse.ArgumentParser:
    import argparse
    from pathlib import Path

    from core.language.reader import LANGUAGE_NAMES, LANGUAGES
    from tui.i18n import _

    p = argparse.ArgumentParser(
        prog="fireteam",
        usage="fireteam [SAVE] [--replay] [--as ROLE] [--lang LANG] [--demo] [--plain]",
        description=_("Open the Fireteam client."),
    )
    p.add_argument("save", nargs="?", type=Path, metavar="SAVE", help=_("a save to open (default: the start screen)"))
    p.add_argument("--demo", action="store_true", help=_("with no save: a new demo game in saves/"))
    p.add_argument("--replay", action="store_true", help=_("open the save in replay mode (never writes)"))
    p.add_argument(
        "--plain",
        action="store_true",
        help=_("plain lines, no screen: for screen readers, braille displays, slow links and scripts"),
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
    """The installed package's version; in a source tree with no metadata, pyproject's."""
    from importlib import metadata

    try:
        return metadata.version("fireteam")
    except metadata.PackageNotFoundError:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]


def main(argv: list[str] | None = None, *, terminal: bool = False) -> int:
    """The ``fireteam`` command; ``terminal``: it owns the terminal on stdin (the console
    script's, not a caller's), which is quieted at once for keys typed ahead (``tui.typeahead``)."""
    argv = sys.argv[1:] if argv is None else argv
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
    if terminal and "--plain" not in argv:  # the line client reads the terminal as the shell left it
        tty.quiet()
    plain = None
    try:
        if _is_client(argv):
            args = _app_parser().parse_args(argv)
            if args.plain:
                plain = args
            else:
                from tui.app import run_app

                return run_app(
                    save=args.save,
                    replay=args.replay,
                    role=args.as_role,
                    lang=args.lang,
                    typed=tty.take_typed(),
                    demo=args.demo,
                )
    except KeyboardInterrupt:  # Ctrl+C before the client took the terminal: the start is given up (128 + SIGINT)
        return 130
    finally:
        tty.restore()  # the modes found, on every way out
        gc.enable()
    if plain is not None:
        from tui.lines.terminal import run_plain  # no Textual: tui/lines/__init__.py

        try:
            return run_plain(plain.save, replay=plain.replay, role=plain.as_role, lang=plain.lang)
        except KeyboardInterrupt:  # Ctrl+C outside a prompt (which it only clears): leave, as a shell's command does
            return 130
    tty.give_back()  # not the client's: what was typed is for whatever reads the terminal next
    return _headless(argv)


def _is_client(argv: list[str]) -> bool:
    """Whether the command line opens the client (else: a headless command, the server, the help)."""
    from core.cli.lang import after_lang, choose_language
    from core.cli.main import HEADLESS

    choose_language(argv)  # before any parser is built: its help and errors are in it too
    words = after_lang(argv)
    return not (words and (words[0] in (*HEADLESS, "serve", "invite") or words[0] in ("-h", "--help", "--version")))


def _headless(argv: list[str]) -> int:
    """``fireteam COMMAND``: a headless command, the SSH server or a bench."""
    from core.cli.main import run_headless

    args = _parser().parse_args(argv)
    if args.command == "serve":
        from tui.ssh.main import serve_main

        return serve_main(args)
    if args.command == "invite":
        from tui.ssh.invite import invite_main

        return invite_main(args)
    if args.command is None:
        return 0
    if args.command == "bench" and args.flood:
        from tui.floodbench import run_flood_bench

        return run_flood_bench(args.flood, unbounded=args.unbounded, as_json=args.json)
    if args.command == "bench" and args.client:
        from tui.bench import BIG_EVENTS, run_client_bench

        return run_client_bench(
            events=args.events or BIG_EVENTS,
            rounds=args.rounds,
            start_rounds=args.start_rounds,
            as_json=args.json,
            keys=not args.starts,
        )
    return run_headless(args)


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
