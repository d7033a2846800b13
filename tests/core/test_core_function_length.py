"""No function of core/ runs over 80 lines (issue 45): a reader holds one in mind.

Measured with ``ast`` (``end_lineno - lineno + 1``, its decorators aside).  A function
that grows past the limit is split into its named steps before it lands.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import core

CORE = Path(core.__file__).parent
LIMIT = 80


def long_functions(root: Path = CORE) -> dict[str, int]:
    """Every function under ``root`` over the limit: ``path:name`` -> its lines."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > LIMIT:
                    found[f"{path.relative_to(root.parent).as_posix()}:{node.name}"] = lines
    return found


@pytest.mark.long
def test_no_function_of_core_is_over_80_lines():
    assert long_functions() == {}, f"functions over {LIMIT} lines: split them into named steps"


def test_a_long_function_is_found(tmp_path):
    """The measure finds a function one line over the limit, so the test above can fail."""
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT - 1))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text(f"def long():\n{body}\n    return 0\n")
    assert long_functions(tmp_path / "pkg") == {"pkg/long.py:long": LIMIT + 1}
