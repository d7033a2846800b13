"""``fireteam report SAVE [--as ROLE] [--format md|html] [-o FILE]``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from core.game.builtins import copy_role_error, reading_role
from core.language.i18n import _
from core.log.views import roles
from core.report import render_html, render_md
from core.report.build import build
from core.secrets.sidecopy import open_to_read
from core.storage.errors import SaveError


def run(args: argparse.Namespace) -> int:
    """``fireteam report`` (its parser is ``core.cli.parsers``', built without the report for ``fireteam --help``)."""
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
        report = build(
            game,
            reading_role(game, args.as_role),
            args.step,
            rerolls=args.rerolls,
            seed=args.reroll_seed,
            start=args.reroll_from,
            progress=progress_bar(sys.stderr) if args.rerolls or args.chances else None,
            chances_count=args.chances,
            workers=os.cpu_count() or 1,
        )
    except ValueError as e:
        print(f"{args.path}: {e}", file=sys.stderr)
        return 2
    if fmt == "html":
        text = render_html.render(report)
        if args.out is None:
            sys.stdout.write(text)
            return 0
        return _written(args.out, lambda: render_md.write_text(args.out, text))
    if args.out is None:
        sys.stdout.write(render_md.render(report))
        print(_("(the charts are written only with -o FILE.md, beside it)"), file=sys.stderr)
        return 0
    return _written(args.out, lambda: render_md.write(report, args.out))


def _written(out: Path, write: Callable[[], object]) -> int:
    """Run ``write`` and name the files it wrote (``out``, or the list it returns); a
    write that fails (a full disk) is said in one line, and leaves no temporary file."""
    try:
        files = write()
    except OSError as e:
        said = _("{path}: cannot write: {error}; free some space or choose another place with -o")
        print(said.format(path=out, error=e.strerror or e), file=sys.stderr)
        return 2
    for path in files if isinstance(files, list) else [out]:
        print(path)
    return 0


def progress_bar(out: TextIO, width: int = 30) -> Callable[[int, int], None]:
    """A bar on ``out`` (standard error: the report goes to standard output), redrawn
    at each whole percent, ended by a new line."""
    shown = -1

    def tell(done: int, total: int) -> None:
        nonlocal shown
        percent = done * 100 // total
        if percent == shown:
            return
        shown = percent
        full = width * done // total
        out.write(f"\r{_('re-rolling')} [{'#' * full}{'.' * (width - full)}] {done}/{total}")
        if done == total:
            out.write("\n")
        out.flush()

    return tell


def _refuse_out(out: Path, save: Path) -> str | None:
    """A report never overwrites a save (its own or any other) or a folder."""
    if out.suffix.lower() == ".ft" or (out.exists() and save.exists() and out.resolve() == save.resolve()):
        return _("{out}: will not write a report over a save; choose a .md or .html file").format(out=out)
    if out.is_dir():
        return _("{out}: is a folder; give a file name (e.g. {example})").format(out=out, example=out / "report.md")
    if not out.parent.is_dir():
        return _("{folder}: no such folder").format(folder=out.parent)
    return None
