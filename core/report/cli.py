"""``fireteam report SAVE [--as ROLE] [--format md|html] [-o FILE]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.cli.lang import add_lang_option
from core.game import copy_role_error, reading_role
from core.language.i18n import _
from core.report import render_html, render_md
from core.report.build import build
from core.secrets.sidecopy import open_to_read
from core.storage.savefile import SaveError
from core.views import REFEREE, roles

FORMATS = ("md", "html")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help=_("the after-action report of a save (Markdown or HTML, with charts)"))
    p.add_argument("path", type=Path)
    p.add_argument("--as", dest="as_role", default=REFEREE, help=_("referee, a side id, or spectator"))
    p.add_argument("--format", choices=FORMATS, help=_("md or html (default: from -o's suffix, else md)"))
    p.add_argument(
        "-o", "--out", type=Path, help=_("the file to write (Markdown: its charts beside it); default: stdout")
    )
    p.add_argument("--step", type=int, help=_("report the game up to this step of the role's (default: all)"))
    add_lang_option(p)


def run(args: argparse.Namespace) -> int:
    fmt = args.format or ("html" if args.out is not None and args.out.suffix.lower() in (".html", ".htm") else "md")
    if args.out is not None:
        problem = _refuse_out(args.out, args.path)
        if problem:
            print(problem, file=sys.stderr)
            return 2
    try:
        game = open_to_read(args.path)
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return 2
    if game.copy_role:
        if problem := copy_role_error(game, args.as_role):
            print(problem, file=sys.stderr)
            return 2
    elif args.as_role not in roles(game.state):
        said = _("{path}: no role {role} in this game (choose from {roles})")
        print(said.format(path=args.path, role=repr(args.as_role), roles=", ".join(roles(game.state))), file=sys.stderr)
        return 2
    try:
        report = build(game, reading_role(game, args.as_role), args.step)
    except ValueError as e:
        print(f"{args.path}: {e}", file=sys.stderr)
        return 2
    if fmt == "html":
        text = render_html.render(report)
        if args.out is None:
            sys.stdout.write(text)
            return 0
        render_md.write_text(args.out, text)
        print(args.out)
        return 0
    if args.out is None:
        sys.stdout.write(render_md.render(report))
        print(_("(the charts are written only with -o FILE.md, beside it)"), file=sys.stderr)
        return 0
    for path in render_md.write(report, args.out):
        print(path)
    return 0


def _refuse_out(out: Path, save: Path) -> str | None:
    """A report never overwrites a save (its own or any other) or a folder."""
    if out.suffix.lower() == ".ft" or (out.exists() and save.exists() and out.resolve() == save.resolve()):
        return _("{out}: will not write a report over a save; choose a .md or .html file").format(out=out)
    if out.is_dir():
        return _("{out}: is a folder; give a file name (e.g. {example})").format(out=out, example=out / "report.md")
    if not out.parent.is_dir():
        return _("{folder}: no such folder").format(folder=out.parent)
    return None
