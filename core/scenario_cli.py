"""``fireteam scenarios`` and ``fireteam scenario check FILE`` (docs/scenarios.md)."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from core.ruleset import available, get_ruleset
from core.rulesets.common import Loaded, parse_scenario
from core.scenario_files import ScenarioError, read_text, user_scenarios_dir
from core.scenario_forces import load_force


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scenarios", help="list the built-in and your own scenarios")
    p.add_argument("--ruleset", choices=available(), help="only this ruleset's")
    p.add_argument("--json", action="store_true", help="a list of {ruleset, id, title, path}")

    p = sub.add_parser("scenario", help="check a scenario file")
    what = p.add_subparsers(dest="scenario_command", required=True)
    check = what.add_parser("check", help="validate FILE and print what it sets up")
    check.add_argument("file", type=Path)
    check.add_argument("--ruleset", choices=available(), help="the file's ruleset (else its ruleset = ...)")


def run(args: argparse.Namespace) -> int:
    if args.command == "scenarios":
        return run_list(args.ruleset, args.json)
    return run_check(args.file, args.ruleset)


def listing(ruleset_id: str | None = None) -> list[dict[str, Any]]:
    """Every built-in scenario and every file of the user's scenario folders."""
    out: list[dict[str, Any]] = []
    for rid in [ruleset_id] if ruleset_id else available():
        ruleset = get_ruleset(rid)
        for loaded in ruleset.scenarios.values():  # type: ignore[attr-defined]
            out.append({"ruleset": rid, "id": loaded.id, "title": loaded.title, "path": loaded.file, "builtin": True})
        out += user_scenarios(ruleset)
    return out


#: The most files of a user scenario folder that are read and listed (by name).
MAX_LISTED = 200


def user_scenarios(ruleset: Any) -> list[dict[str, Any]]:
    """The files of ``<data>/scenarios/<ruleset>/``, each checked (``error`` when refused):
    the first :data:`MAX_LISTED` by name."""
    fmt = getattr(ruleset, "scenario_format", None)
    own = user_scenarios_dir(ruleset.id)
    if fmt is None or not own.is_dir():
        return []
    out = []
    for path in sorted(own.glob("*.toml"))[:MAX_LISTED]:
        entry = {"ruleset": ruleset.id, "id": path.stem, "title": "", "path": str(path), "builtin": False}
        try:
            loaded = parse_scenario(fmt, read_text(path), str(path))
            entry |= {"id": loaded.id, "title": loaded.title}
        except ScenarioError as e:
            entry["error"] = str(e).splitlines()[0]
        out.append(entry)
    return out


def run_list(ruleset_id: str | None, as_json: bool, out=None) -> int:
    out = out or sys.stdout
    rows = listing(ruleset_id)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=1), file=out)
        return 0
    for row in rows:
        where = "built-in" if row["builtin"] else row["path"]
        title = row["title"] or f"(refused: {row['error']})"
        print(f"{row['ruleset']:16} {row['id']:16} {title}  [{where}]", file=out)
    return 0


def _ruleset_of(path: Path, text: str, given: str | None) -> str:
    if given:
        return given
    try:
        named = tomllib.loads(text).get("ruleset")
    except tomllib.TOMLDecodeError:
        named = None
    if isinstance(named, str) and named in available():
        return named
    for rid in available():
        if path.resolve().is_relative_to(user_scenarios_dir(rid).resolve()):
            return rid
    raise ScenarioError(str(path), 1, f'which ruleset? give --ruleset or ruleset = "ID" ({", ".join(available())})')


def run_check(path: Path, given: str | None, out=None) -> int:
    """Check a scenario file, or a force file (one with no ``sides``)."""
    out = out or sys.stdout
    try:
        text = read_text(path)
        rid = _ruleset_of(path, text, given)
        ruleset = get_ruleset(rid)
        fmt = ruleset.scenario_format  # type: ignore[attr-defined]
        if _is_force(text):
            force, _ = load_force(fmt, path)
            lines = force_summary(ruleset, fmt, str(path), force)
        else:
            lines = summary(rid, parse_scenario(fmt, text, str(path)))
    except ScenarioError as e:
        print(str(e), file=sys.stderr)
        return 1
    for line in lines:
        print(line, file=out)
    return 0


def _is_force(text: str) -> bool:
    try:
        return "sides" not in tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False  # the scenario decoder says where


def force_summary(ruleset: Any, fmt: Any, file: str, force: Any) -> list[str]:
    units = fmt.force_units(force, "force")
    points = fmt.force_points(force)
    cost = f", {points} points" if points is not None else ""
    lines = [f"{file}: force {force.name!r} ({ruleset.name}): valid, {len(units)} units{cost}"]
    lines += [f"    {line}" for line in _unit_lines(ruleset, units)]
    return lines


def _unit_lines(ruleset: Any, units: Any) -> list[str]:
    out = []
    for u in units:
        details = ", ".join(x for x in (u.kind, ruleset.class_name(u.cls) if u.cls else "", *u.weapons) if x)
        out.append(f"{u.id}: {u.name} [{details}]")
    return out


def summary(ruleset_id: str, loaded: Loaded) -> list[str]:
    """What the scenario sets up: its sides and units, and points where the ruleset has them."""
    ruleset = get_ruleset(ruleset_id)
    sc = loaded.sc
    points = ruleset.scenario_format.points(sc)  # type: ignore[attr-defined]
    lines = [f"{loaded.file}: {sc.title} ({ruleset.name}, scenario {sc.id}): valid"]
    for side in sc.sides:
        units = [u for u in sc.units if u.side == side.id]
        limit = f" of {sc.points}" if getattr(sc, "points", 0) else ""
        cost = f", {points[side.id]}{limit} points" if side.id in points else ""
        army = f" ({side.army})" if side.army else ""
        lines.append(f"  {side.id}: {side.name}{army}, {len(units)} units{cost}")
        lines += [f"    {line}" for line in _unit_lines(ruleset, units)]
    for file, _ in loaded.forces:
        lines.append(f"  force file: {file}")
    return lines
