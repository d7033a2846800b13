"""``fireteam scenarios`` and ``fireteam scenario check FILE`` (docs/scenarios.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.cli.lang import add_lang_option
from core.language.i18n import _, ngettext
from core.registry import RulesetIds, available, get_ruleset
from core.scenarios.files import ScenarioError, is_path, read_text, toml_data, user_scenarios_dir

if TYPE_CHECKING:
    from core.rulesets.common import Loaded

# The rulesets' shared scenario code is imported where a file is read: the parser is built for
# ``fireteam --help`` too, which reads none.


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scenarios", help=_("list the built-in and your own scenarios"))
    p.add_argument("--ruleset", choices=RulesetIds(), metavar="RULESET", help=_("only this ruleset's"))
    p.add_argument("--json", action="store_true", help=_("a list of {ruleset, id, title, path}"))
    add_lang_option(p)

    p = sub.add_parser("scenario", help=_("check a scenario file"))
    add_lang_option(p)
    what = p.add_subparsers(dest="scenario_command", required=True)
    check = what.add_parser("check", help=_("validate FILE and print what it sets up"))
    check.add_argument("file", type=Path)
    check.add_argument(
        "--ruleset", choices=RulesetIds(), metavar="RULESET", help=_("the file's ruleset (else its ruleset = ...)")
    )
    add_lang_option(check)


def run(args: argparse.Namespace) -> int:
    if args.command == "scenarios":
        return run_list(args.ruleset, args.json)
    return run_check(args.file, args.ruleset)


def listing(ruleset_id: str | None = None) -> list[dict[str, Any]]:
    """Every built-in scenario and every file of the user's scenario folders."""
    out: list[dict[str, Any]] = []
    for rid in [ruleset_id] if ruleset_id else available():
        ruleset = get_ruleset(rid)
        for loaded in ruleset.scenarios.values():
            out.append({"ruleset": rid, "id": loaded.id, "title": loaded.title, "path": loaded.file, "builtin": True})
        out += user_scenarios(ruleset)
    return out


#: The most files of a user scenario folder that are read and listed (by name).
MAX_LISTED = 200


def user_scenarios(ruleset: Any) -> list[dict[str, Any]]:
    """The files of ``<data>/scenarios/<ruleset>/``, each checked (``error`` when refused):
    the first :data:`MAX_LISTED` by name."""
    from core.rulesets.common import parse_scenario

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
            titles = {lang: said[loaded.title] for lang, said in loaded.sc.translations.items() if loaded.title in said}
            if titles:  # the file's own title in another language (docs/scenarios.md, Languages)
                entry["titles"] = titles
        except ScenarioError as e:
            entry["error"] = str(e).splitlines()[0]
        out.append(entry)
    return out


def run_list(ruleset_id: str | None, as_json: bool) -> int:
    rows = listing(ruleset_id)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        where = _("built-in") if row["builtin"] else row["path"]
        title = row["title"] or _("(refused: {error})").format(error=row["error"])
        print(f"{row['ruleset']:16} {row['id']:16} {title}  [{where}]")
    return 0


def declared_ruleset(path: Path, data: dict[str, Any]) -> str | None:
    """The ruleset a scenario file is for: its ``ruleset = "ID"``, else the user's folder of
    a ruleset it lies in; None where neither says."""
    named = data.get("ruleset")
    if isinstance(named, str) and named in available():
        return named
    for rid in available():
        if path.resolve().is_relative_to(user_scenarios_dir(rid).resolve()):
            return rid
    return None


def script_ruleset(lines: list[str]) -> str | None:
    """The ruleset a script's game is for, where its first command sets up a scenario file
    that names one (``scenario ~/club/breakout.toml``): a new save takes it, as ``scenario
    check`` does; None for any other first command, or a file that cannot be read or says none."""
    words = next((line.split() for line in lines if line.strip() and not line.lstrip().startswith("#")), [])
    if len(words) < 2 or words[0] != "scenario" or not is_path(words[1]):
        return None
    path = Path(os.path.expanduser(words[1].removeprefix("name=")))
    try:
        return declared_ruleset(path, toml_data(read_text(path), str(path)))
    except ScenarioError:
        return None  # the scenario command says what is wrong with it, at its line


def _ruleset_of(path: Path, data: dict[str, Any], given: str | None) -> str:
    found = given or declared_ruleset(path, data)
    if found:
        return found
    said = _('which ruleset? give --ruleset or ruleset = "ID" ({rulesets})')
    raise ScenarioError(str(path), 1, said.format(rulesets=", ".join(available())))


def run_check(path: Path, given: str | None) -> int:
    from core.rulesets.common import parse_scenario
    from core.scenarios.forces import load_force

    """Check a scenario file, or a force file (one with no ``sides``)."""
    try:
        text = read_text(path)
        # The file's syntax first: a syntax error is said at its line, not hidden
        # behind "which ruleset?" (which the file would have said, once it parses).
        data = toml_data(text, str(path))
        rid = _ruleset_of(path, data, given)
        ruleset = get_ruleset(rid)
        fmt = ruleset.scenario_format
        if fmt is None:
            raise ScenarioError(
                str(path), 1, _("{ruleset} reads no scenario files").format(ruleset=ruleset.shown_name())
            )
        if "sides" not in data:  # a force file
            force = load_force(fmt, path)[0]
            lines = force_summary(ruleset, fmt, str(path), force)
        else:
            lines = summary(rid, parse_scenario(fmt, text, str(path)))
    except ScenarioError as e:
        print(str(e), file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def force_summary(ruleset: Any, fmt: Any, file: str, force: Any) -> list[str]:
    units = fmt.force_units(force, "force")
    points = fmt.force_points(force)
    fields = {
        "file": file,
        "force": repr(force.name),
        "ruleset": ruleset.shown_name(),
        "units": len(units),
        "points": points,
    }
    if points is not None:
        said = _("{file}: force {force} ({ruleset}): valid, {units} units, {points} points")
    else:
        said = _("{file}: force {force} ({ruleset}): valid, {units} units")
    lines = [said.format(**fields)]
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
    fmt = ruleset.scenario_format
    assert fmt is not None  # (the scenario was read with it)
    points = fmt.points(sc)
    said = _("{file}: {title} ({ruleset}, scenario {id}): valid")
    lines = [said.format(file=loaded.file, title=sc.title, ruleset=ruleset.shown_name(), id=sc.id)]
    for side in sc.sides:
        units = [u for u in sc.units if u.side == side.id]
        limit = getattr(sc, "points", 0)
        fields = {"points": points.get(side.id), "limit": limit}
        if side.id not in points:
            cost = ""
        elif limit:
            cost = ", " + _("{points} of {limit} points").format(**fields)
        else:
            cost = ", " + _("{points} points").format(**fields)
        army = f" ({side.army})" if side.army else ""
        said = ngettext("{units} unit", "{units} units", len(units)).format(units=len(units))
        lines.append(f"  {side.id}: {side.name}{army}, {said}{cost}")
        lines += [f"    {line}" for line in _unit_lines(ruleset, units)]
    for file, _force in loaded.forces:
        lines.append("  " + _("force file: {file}").format(file=file))
    return lines
