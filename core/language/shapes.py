"""The shape of each built-in ruleset's commands, kept as data: what showing a
recorded command line in the reader's language needs, without the commands.

A line is recorded in English names (``Issued.text``) and shown in the reader's
(``core.commands.localize_line``): its verb, options and choices, each named in
the catalogue of the command's domain.  That takes each command's names,
domain and parameters, and nothing else; but gathering a ruleset's commands
imports most of its modules (its rules, tables and scenario code: 25-40 ms of
a client's start).  An Italian start showed a log of command lines before its
first frame, and paid that there; with the shapes it reads a file of 40 KB
(under a millisecond), and the commands are gathered after the frame, as
in English.

``command_shapes.json`` is written by ``python -m core.language.catalogues
update``, which is run whenever a command's words change (its names are the
catalogues' words); ``check`` and ``tests/core/test_command_shapes.py`` fail
when it is stale.  A ruleset or variant it does not list (one registered by a
plugin) is shown from its commands, gathered as before.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

PATH = Path(__file__).resolve().parent / "command_shapes.json"


class ParamShape(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True, forbid_unknown_fields=True):
    """What ``localize_line`` reads of a ``core.ruleset.Param``; its choices only for a
    ``choice``, or a ``side`` (``draw``)."""

    name: str
    kind: str
    keyword: bool
    many: bool
    choices: tuple[str, ...] = ()


class CommandShape(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """What ``localize_line`` reads of a ``core.ruleset.CommandSpec``, with the domain
    that names it (``core.commands.spec_domain``, which needs the handler, resolved)."""

    name: str
    domain: str
    aliases: tuple[str, ...] = ()
    params: tuple[ParamShape, ...] = ()


#: By ruleset id, then variant ("" for none).
Shapes = dict[str, dict[str, tuple[CommandShape, ...]]]


def encode(shapes: Shapes) -> bytes:
    """The file's bytes: a JSON list of ``[ruleset id, variant, command]``, one command a
    line, in the order the ruleset gives them (a later name wins, as in ``localize_line``)."""
    lines = [
        msgspec.json.encode([ruleset_id, variant, command]).decode()
        for ruleset_id, variants in sorted(shapes.items())
        for variant, commands in sorted(variants.items())
        for command in commands
    ]
    return ("[\n" + ",\n".join(lines) + "\n]\n").encode()


def decode(data: bytes) -> Shapes:
    gathered: dict[str, dict[str, list[CommandShape]]] = {}
    for ruleset_id, variant, command in msgspec.json.decode(data, type=list[tuple[str, str, CommandShape]]):
        gathered.setdefault(ruleset_id, {}).setdefault(variant, []).append(command)
    return {r: {v: tuple(commands) for v, commands in variants.items()} for r, variants in gathered.items()}


@cache
def _kept() -> Shapes:
    try:
        return decode(PATH.read_bytes())
    except (OSError, msgspec.DecodeError):
        return {}  # an install without it: every line is shown from the commands, gathered


def command_shapes(ruleset_id: str, variant: str) -> tuple[CommandShape, ...] | None:
    """The kept shapes of a built-in ruleset's commands (with the commands every game has), or None."""
    return _kept().get(ruleset_id, {}).get(variant)
