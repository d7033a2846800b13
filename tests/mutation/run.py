"""Mutation testing, one module at a time, with the tests chosen for it (docs/testing.md).

    .venv/bin/python tests/mutation/run.py views                 # a module of modules.toml
    .venv/bin/python tests/mutation/run.py views numbering --jobs 2
    .venv/bin/python tests/mutation/run.py --mutate core/x.py --tests tests/core/test_x.py
    .venv/bin/python tests/mutation/run.py views --again         # re-run only what survived
    .venv/bin/python tests/mutation/run.py --list

mutmut 3 reads its settings from the ``pyproject.toml`` of the folder it runs in
and keeps everything under a ``mutants/`` beside it.  So each module gets a
folder of its own, ``mutants/NAME/`` in the repository (git-ignored): links to
the project's folders, a ``setup.cfg`` naming the file to mutate and the tests
to run, and mutmut's own ``mutants/`` under it.  Two modules can be measured
side by side, and ``cd mutants/NAME && mutmut show MUTANT`` shows a mutant.

The kill rate is computed here, the same way for every module: a mutant is
*killed* when a selected test fails on it (mutmut's ``killed``, or ``timeout``:
a mutant that hangs the tests is caught too); every other mutant (survived, no
test reaching it, suspicious) is *not killed*.  A surviving mutant that behaves
exactly as the original is listed in docs/testing.md with its reason; the rate
leaves those out of the count::

    kill rate = killed / (mutants - listed equivalents)

Listed mutants that were killed, or that no longer exist, are reported as stale.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = Path(__file__).with_name("modules.toml")
TESTING_DOC = ROOT / "docs" / "testing.md"
#: What a module's folder links to: what the tests read (the source, the tests, the
#: recorded games, the docs some tests check).  ``tui`` is left out on purpose: it is
#: not mutated, and imported from the installed project it still imports the mutated core.
LINKED = ("core", "tests", "docs", "saves", "conftest.py", "README.md", "pyproject.toml")
#: mutmut's statuses that count as killed.
KILLED = {"killed", "timeout"}
#: A mutant named in docs/testing.md: `core.log.views.x_name__mutmut_3` in a table's first cell.
_LISTED = re.compile(r"^\|\s*`([\w.ǁ]+__mutmut_\d+)`\s*\|")


@dataclass
class Module:
    name: str
    mutate: list[str]
    tests: list[str]
    statuses: dict[str, str] = field(default_factory=dict)


def modules() -> dict[str, Module]:
    table = tomllib.loads(MODULES.read_text(encoding="utf-8"))
    return {name: Module(name, entry["mutate"], entry["tests"]) for name, entry in table.items()}


def listed_equivalents() -> set[str]:
    """The mutants docs/testing.md lists as behaving exactly as the original."""
    if not TESTING_DOC.exists():
        return set()
    return {m.group(1) for line in TESTING_DOC.read_text(encoding="utf-8").splitlines() if (m := _LISTED.match(line))}


def prepare(module: Module) -> Path:
    """The module's folder: links to the project and mutmut's settings for this module."""
    folder = ROOT / "mutants" / module.name
    folder.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = folder / name
        if not link.is_symlink() and (ROOT / name).exists():
            link.symlink_to(ROOT / name)
    lines = [
        "[mutmut]",
        "source_paths = core",
        "only_mutate =",
        *(f"    {path}" for path in module.mutate),
        "also_copy =",
        *(f"    {name}" for name in ("conftest.py", "docs", "saves", "README.md")),
        "pytest_add_cli_args_test_selection =",
        *(f"    {path}" for path in module.tests),
        # No cache of test outcomes kept between runs.
        "pytest_add_cli_args =",
        "    -p",
        "    no:cacheprovider",
        "",
    ]
    (folder / "setup.cfg").write_text("\n".join(lines), encoding="utf-8")
    return folder


def mutmut(folder: Path, *args: str, log: Path | None = None) -> str:
    command = [sys.executable, "-m", "mutmut", *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if log is None:
        return subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True, text=True).stdout
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(command, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        sys.exit(f"mutmut failed for {folder.name}: see {log}")
    return ""


def statuses(folder: Path) -> dict[str, str]:
    out = mutmut(folder, "results", "--all", "true")
    found = {}
    for line in out.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            found[name] = status
    return found


def run(module: Module, jobs: int, again: bool, fresh: bool) -> Module:
    folder = prepare(module)
    if fresh and (folder / "mutants").exists():
        shutil.rmtree(folder / "mutants")
    names: list[str] = []
    if again and (folder / "mutants").exists():
        names = [n for n, s in statuses(folder).items() if s not in KILLED]
        if not names:
            module.statuses = statuses(folder)
            return module
    elif (folder / "mutants").exists():
        shutil.rmtree(folder / "mutants")  # results of older tests would stand: start over
    print(f"{module.name}: mutating {', '.join(module.mutate)} ...", flush=True)
    mutmut(folder, "run", "--max-children", str(jobs), *names, log=folder / "run.log")
    module.statuses = statuses(folder)
    return module


def report(module: Module, equivalents: set[str]) -> float:
    names = module.statuses
    killed = [n for n, s in names.items() if s in KILLED]
    listed = [n for n in names if n in equivalents]
    alive = sorted((n for n, s in names.items() if s not in KILLED and n not in equivalents), key=_order)
    counted = len(names) - len([n for n in listed if names[n] not in KILLED])
    rate = 100.0 * len(killed) / counted if counted else 100.0
    print(
        f"{module.name}: {len(killed)} killed of {counted} counted = {rate:.1f}%"
        f"  ({len(names)} mutants, {len(names) - counted} listed as equivalent;"
        f" raw {100.0 * len(killed) / max(len(names), 1):.1f}%)"
    )
    for n in alive:
        print(f"    not killed: {n} ({names[n]})")
    for n in sorted(listed, key=_order):
        if names[n] in KILLED:
            print(f"    stale: {n} is listed as equivalent but was killed")
    prefixes = tuple(p.removesuffix(".py").replace("/", ".") + "." for p in module.mutate)
    for n in sorted(equivalents - set(names), key=_order):
        if n.startswith(prefixes):
            print(f"    stale: {n} is listed as equivalent but no longer exists")
    return rate


def _order(name: str) -> tuple[str, int]:
    stem, _, number = name.rpartition("__mutmut_")
    return stem, int(number)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="modules of tests/mutation/modules.toml")
    parser.add_argument("--mutate", nargs="+", help="files to mutate (instead of a listed module)")
    parser.add_argument("--tests", nargs="+", help="the tests to run against them (with --mutate, or to override)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once (default 1: the machine is shared)")
    parser.add_argument("--again", action="store_true", help="re-run only the mutants that were not killed last time")
    parser.add_argument("--show", action="store_true", help="print the diff of each mutant not killed")
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    args = parser.parse_args(argv)
    known = modules()
    if args.list:
        for m in known.values():
            print(f"{m.name}: {' '.join(m.mutate)}\n    tests: {' '.join(m.tests)}")
        return 0
    chosen: list[Module] = []
    if args.mutate:
        if not args.tests:
            parser.error("--mutate needs --tests")
        name = args.names[0] if args.names else Path(args.mutate[0]).stem
        chosen.append(Module(name, args.mutate, args.tests))
    else:
        unknown = [n for n in args.names if n not in known]
        if unknown or not args.names:
            not_known = f" (not {', '.join(unknown)})" if unknown else ""
            parser.error(f"name one or more of: {', '.join(known)}{not_known}")
        chosen = [known[n] for n in args.names]
        if args.tests:
            for m in chosen:
                m.tests = args.tests
    equivalents = listed_equivalents()
    for module in chosen:
        run(module, args.jobs, args.again, fresh=False)
        report(module, equivalents)
        if args.show:
            folder = ROOT / "mutants" / module.name
            for n, s in module.statuses.items():
                if s not in KILLED and n not in equivalents:
                    print(mutmut(folder, "show", n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
