"""Forces between games: a side's force in a file of its own, fielded by any scenario
of its ruleset with ``rosters = { SIDE = "NAME-OR-PATH" }`` (docs/scenarios.md).

A force file holds a name, an army and the side's pieces (a ``[[units]]`` table
without ``side``), with what its ruleset's scenarios define beside pieces
(Linea di Tiro's profiles, Ludonet's weapons).  It is checked on its own, so a
mistake in it is reported at its own line; what only shows once it is on the
table (an id the scenario uses too) is reported at the scenario's ``rosters``
line.  Breaking News's forces are its rosters (docs/rosters.md), priced against
the scenario's points.

Where a name is looked for: a word with ``/`` or ending in ``.toml`` is a path
(relative to the scenario file's folder); otherwise ``<data>/forces/<ruleset>/``
and then the ruleset's built-in ``forces/`` folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgspec

from core.language.i18n import _
from core.scenarios.files import Problem, decode_all, dotted, error_at, is_path, read_text, user_forces_dir
from core.scenarios.schema import Side, Unit


class Fielded(msgspec.Struct, frozen=True):
    """A force put on a side: what it adds to the scenario, and its file."""

    side: str
    file: str
    text: str
    units: tuple[Unit, ...]
    force: Any


def find_force(fmt: Any, word: str, base: Path | None) -> Path | None:
    if is_path(word):
        path = Path(os.path.expanduser(word))
        return path if path.is_absolute() or base is None else base / path
    for folder in (user_forces_dir(fmt.ruleset_id), fmt.forces_dir):
        if folder is not None and (folder / f"{word}.toml").is_file():
            return folder / f"{word}.toml"
    return None


def load_force(fmt: Any, path: Path, side: Side | None = None, sc: Any = None) -> tuple[Any, str]:
    """A force file decoded and checked on its own (for ``side`` of ``sc``, when given)."""
    text = read_text(path)
    force, problems = decode_all(text, fmt.force_schema, str(path))
    if force is None:
        raise error_at(str(path), text, *problems)
    problems += fmt.check_force(force, side, sc)
    if problems:
        raise error_at(str(path), text, *problems)
    return force, text


def field_forces(
    fmt: Any, sc: Any, text: str, file: str, base: Path | None
) -> tuple[Any, list[Fielded], list[Problem]]:
    """The scenario with each ``rosters`` force on its side, the forces' files, and what
    does not fit (a force's profile that differs from the scenario's...)."""
    fielded: list[Fielded] = []
    sides = {s.id: s for s in sc.sides}
    problems: list[Problem] = []
    for side_id, word in sc.rosters.items():
        if side_id not in sides:
            continue  # the scenario's own check names it
        at = ("rosters", side_id)
        path = find_force(fmt, word, base)
        if path is None:
            places = f"{user_forces_dir(fmt.ruleset_id)} or the built-in forces"
            why = _("{field} = {value}: no force of that name in {places}").format(
                field=dotted(at), value=repr(word), places=places
            )
            problems.append(Problem(at, why))
            continue
        force, force_text = load_force(fmt, path, sides[side_id], sc)
        fielded.append(Fielded(side_id, str(path), force_text, fmt.force_units(force, side_id), force))
    if problems:
        raise error_at(file, text, *problems)
    merged, clashes = fmt.merge_forces(sc, fielded)
    return merged, fielded, clashes


def remap(problems: list[Problem], own_units: int, fielded: list[Fielded]) -> list[Problem]:
    """Problems about a fielded force's pieces, moved to the scenario's ``rosters`` line."""
    out = []
    starts = []
    n = own_units
    for f in fielded:
        starts.append((n, n + len(f.units), f))
        n += len(f.units)
    for p in problems:
        if len(p.path) >= 2 and p.path[0] == "units" and isinstance(p.path[1], int) and p.path[1] >= own_units:
            index = p.path[1]
            for first, end, f in starts:
                if first <= index < end:
                    local = p.message.replace(f"units[{index}]", f"units[{index - first}]", 1)
                    p = Problem(("rosters", f.side), _("force {file}: {problem}").format(file=f.file, problem=local))
        out.append(p)
    return out
