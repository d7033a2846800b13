"""Another module's private names are its own: core/ and tui/ use at most ten of them, each
listed here with why (issue #93).  A name another module needs is its module's public name:
rename it there, or give the module a public function for what the other needs.

Counted as the import-circle test walks the imports: a name starting with ``_`` (neither
``_`` itself, gettext's, nor a dunder) imported from another module of the project
(``from core.storage.savefile import _line_ok``), or read as an attribute of another module
(``sealing._dice``, ``core.storage.savefile._line_ok``).  A private attribute of an object
(``self._views``) is its class's business, not a module's name, and is not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_import_circles import imported_from, modules

#: The most uses of other modules' private names the product may make.
MOST = 10

#: The uses allowed, (the module that uses it, the name it uses): why each stays private.
ALLOWED = {
    ("core.storage.salvage", "core.storage.savefile._line_ok"): (
        "salvage checks each line's frame and check as the reader does, to stop where the reader would"
    ),
    ("tui.manpage", "tui.main._parser"): "the manual page is written from the entry point's own argument parsers",
    ("tui.manpage", "tui.main._app_parser"): "the manual page is written from the entry point's own argument parsers",
    ("tui.manpage", "tui.main._version"): "the manual page names the version as `fireteam --version` says it",
}


def _private(name: str) -> bool:
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


def private_uses(known: dict[str, Path]) -> list[tuple[str, str, int]]:
    """Every use, by a module of ``known``, of another module's private name: (the module, the
    name in full, its line)."""
    uses = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound: dict[str, str] = {}  # a name in this module -> the project's module it is
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = imported_from(node, name, path)
                for alias in node.names:
                    if f"{base}.{alias.name}" in known:
                        bound[alias.asname or alias.name] = f"{base}.{alias.name}"
                    elif base in known and base != name and _private(alias.name):
                        uses.append((name, f"{base}.{alias.name}", node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known:
                        bound[alias.asname or alias.name.split(".")[0]] = (
                            alias.name if alias.asname else alias.name.split(".")[0]
                        )
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                chain = ast.unparse(node.value)
                head = chain.split(".")[0]
                module = bound[head] + chain[len(head) :] if head in bound else ""
                if module in known and module != name:
                    uses.append((name, f"{module}.{node.attr}", node.lineno))
    return uses


def test_the_product_uses_at_most_ten_private_names_of_other_modules_each_with_why():
    uses = private_uses(modules())
    unexplained = sorted({(user, used) for user, used, _line in uses} - ALLOWED.keys())
    assert unexplained == [], "another module's private name: make it public there, or say here why not"
    assert len(uses) <= MOST
    assert len(ALLOWED) <= MOST
    stale = sorted(ALLOWED.keys() - {(user, used) for user, used, _line in uses})
    assert stale == [], "allowed but no longer used: take it off the list"


def test_the_count_finds_an_import_and_an_attribute_and_leaves_the_rest(tmp_path):
    """So that the test above can fail: each way of reaching a private name is counted once."""
    files = {
        "p.a": "def _hidden(): ...\ndef shown(): ...\n_ = str\n",
        "p.b": (
            "from p.a import _hidden, shown, _\n"
            "from p import a\n"
            "import p.a as also\n"
            "a._hidden(); also._hidden(); a.shown(); a.__doc__\n"
            "class C:\n    def m(self): return self._own\n"
        ),
    }
    known = {}
    for name, text in files.items():
        path = tmp_path / f"{name.replace('.', '_')}.py"
        path.write_text(text)
        known[name] = path
    assert sorted(private_uses(known)) == [
        ("p.b", "p.a._hidden", 1),
        ("p.b", "p.a._hidden", 4),
        ("p.b", "p.a._hidden", 4),
    ]
