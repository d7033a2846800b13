"""``fireteam paths``: where Fireteam keeps its files (``core.folders``), and what moves each folder."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from core import folders
from core.cli.lang import add_lang_option
from core.language.i18n import N_, _

#: What each folder holds, in words.
HOLDS = {
    "data": N_("scenarios, forces, the server's keys and seats, screenshots"),
    "saves": N_("the games Fireteam makes when no path is given (the data folder's saves/)"),
    "config": N_("settings"),
    "state": N_("each save's command history, errors.log, serve.log"),
    "cache": N_("what can be made again (safe to delete)"),
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("paths", help=_("where Fireteam keeps games, settings, state and caches"))
    p.add_argument("--json", action="store_true", help=_("an object {data, saves, config, state, cache} of paths"))
    add_lang_option(p)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    found = folders.where()
    if args.json:
        print(json.dumps({kind: str(path) for kind, path in found.items()}, ensure_ascii=False, indent=1), file=out)
        return 0
    width = max(map(len, found))
    for kind, path in found.items():
        variable = folders.KINDS.get(kind, folders.KINDS["data"])[0]  # (saves/ moves with the data folder)
        print(f"{kind:<{width}}  {path}", file=out)
        moved = _("(moved by {variable})").format(variable=variable)
        print(" " * width + "  " + _(HOLDS[kind]) + " " + moved, file=out)
    return 0
