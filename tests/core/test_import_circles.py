"""No import circles in core/ or tui/: every import counts, the ones made inside a
function too (hiding an import there does not break a circle), but the ones under
``if TYPE_CHECKING:`` (never run).  Within the packages of ``UNTANGLED`` (the whole product) those
count too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Packages whose modules import one another in no circle even for the type checker: a
#: module that names, to type it, the class it is a part of (``engine``'s ``Game``, the game
#: screen) cannot be read or moved without it.  A concern of a game is given what it needs
#: (``core.game.sealing``'s ``Sealing``: the timeline, the header); what a screen or a built-in's
#: hook needs of a game is a ``Protocol`` of its own module (``core.game.front``, the game
#: screen's ``tui.screens.seat.SeatScreen``, the seat's ``Host`` that a browser's seat is given
#: rather than the door that made it).
UNTANGLED = ("core", "tui")


def modules() -> dict[str, Path]:
    out = {}
    for top in ("core", "tui"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imported(name: str, path: Path, known: dict[str, Path], *, typed: bool = False) -> set[str]:
    """The project's modules ``name`` imports: ``from P import m`` names the module
    ``P.m`` when there is one, else ``P``; ``typed``: those imported for the type checker too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = {
        id(n)
        for node in ast.walk(tree)
        if not typed and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    out = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = imported_from(node, name, path)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    out.add(f"{base}.{alias.name}")
                elif base in known:
                    out.add(base)
    return with_packages(name, out, known, package=path.name == "__init__.py")


def imported_from(node: ast.ImportFrom, name: str, path: Path) -> str:
    """The module ``from P import …`` in module ``name`` (at ``path``) reads, ``P`` made absolute."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    return ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))


def with_packages(name: str, imports: set[str], known: dict[str, Path], package: bool = False) -> set[str]:
    """Importing ``a.b.c`` runs the packages ``a`` and ``a.b`` first: an edge to each of
    them too, but to those ``name`` lies in itself (they are running when it is imported)."""
    own = {name.rsplit(".", i)[0] for i in range(1, name.count(".") + 1)} | ({name} if package else set())
    out = set(imports)
    for module in imports:
        parts = module.split(".")
        out |= {".".join(parts[:i]) for i in range(1, len(parts))} - own
    return (out & known.keys()) - {name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def a_cycle(graph: dict[str, set[str]], members: list[str]) -> str:
    """One way round the circle of ``members`` (a strongly connected component of ``graph``),
    from its first member back to it: the imports to follow to see it."""
    start = members[0]
    came: dict[str, str] = {}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & set(members)):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return " -> ".join([*reversed(path), start])
            if w not in came:
                came[w] = v
                queue.append(w)
    raise AssertionError(f"no way round {members}")


def test_the_finder_finds_a_circle_and_its_members():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert a_cycle(graph, ["a", "b", "c"]) == "a -> b -> c -> a"
    assert a_cycle({"a": {"b", "c"}, "b": {"a"}, "c": {"b"}}, ["a", "b", "c"]) == "a -> b -> a"


def test_importing_a_module_imports_its_packages():
    known = dict.fromkeys(["p", "p.q", "p.q.r", "p.s"], Path())
    assert with_packages("p.s", {"p.q.r"}, known) == {"p.q.r", "p.q"}
    assert with_packages("p.q.r", {"p.s"}, known) == {"p.s"}  # not "p": its own package runs already


def test_an_import_inside_a_function_counts(tmp_path):
    known = {"p.a": tmp_path / "a.py", "p.b": tmp_path / "b.py"}
    known["p.a"].write_text("def f():\n    from p import b\n")
    known["p.b"].write_text("from p.a import f\nif TYPE_CHECKING:\n    import p.c\n")
    assert imported("p.a", known["p.a"], known) == {"p.b"}
    assert imported("p.b", known["p.b"], known) == {"p.a"}


def test_an_import_for_the_type_checker_counts_when_asked(tmp_path):
    known = {"p.a": tmp_path / "a.py", "p.b": tmp_path / "b.py"}
    known["p.a"].write_text("from p import b\n")
    known["p.b"].write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.a import A\n")
    assert imported("p.b", known["p.b"], known) == set()
    assert imported("p.b", known["p.b"], known, typed=True) == {"p.a"}


@pytest.mark.long
def test_core_and_tui_have_no_import_circle():
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    assert circles(graph) == []


@pytest.mark.long  # it parses every module of the package (1.2-1.9 s of CPU each on a loaded machine)
@pytest.mark.parametrize("package", UNTANGLED)
def test_no_circle_within_the_package_even_for_the_type_checker(package):
    known = {name: path for name, path in modules().items() if name == package or name.startswith(f"{package}.")}
    graph = {name: imported(name, path, known, typed=True) for name, path in known.items()}
    assert [a_cycle(graph, members) for members in circles(graph)] == []
