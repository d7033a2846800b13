"""The tests' refusal checks say which rule they expect (issue #76).

A check that a command is refused passes on a refusal for any reason unless it names the
rule: the shared helpers (``tests/shared/playing.py``: ``refused``, ``all_refused``,
``refusal``, ``parse_refusal``, ``names``; ``allowed`` in ``tests/audit/audit_common.py``)
take the rule as an argument they cannot be called without, and every
``pytest.raises(Refused)`` in the tests reads the rule of what it caught: it is ``with
pytest.raises(Refused…) as NAME:`` and the function (or module) that holds it passes
``NAME.value`` to ``names`` or reads ``NAME.value.rules``.

Left out, because their rule is fixed by their class: ``pytest.raises`` of a subclass of
``Refused`` (``ScenarioError``, ``Meant``), which always name ``TYPING``
(``tests/core/test_refusal_rules.py``).
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from pathlib import Path

import playing
import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "audit"))
import audit_common  # noqa: E402  (test folders are not packages)


def _names_refused(node: ast.expr) -> bool:
    """``node`` (the first argument of ``raises``) is ``Refused`` or a tuple holding it."""
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    return any(
        (isinstance(e, ast.Name) and e.id == "Refused") or (isinstance(e, ast.Attribute) and e.attr == "Refused")
        for e in elts
    )


def _is_raises_of_refused(call: ast.expr) -> bool:
    if not isinstance(call, ast.Call) or not call.args:
        return False
    func = call.func
    named = (isinstance(func, ast.Attribute) and func.attr == "raises") or (
        isinstance(func, ast.Name) and func.id == "raises"
    )
    return named and _names_refused(call.args[0])


def _reads_rule(scope: ast.AST, name: str) -> bool:
    """``scope`` reads the rule of ``name.value``: ``names(name.value, …)`` or ``name.value.rules``."""
    for node in ast.walk(scope):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "rules"
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "value"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == name
        ):
            return True
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if (
                called == "names"
                and isinstance(first, ast.Attribute)
                and first.attr == "value"
                and isinstance(first.value, ast.Name)
                and first.value.id == name
            ):
                return True
    return False


def unchecked(source: str, where: str = "<test>") -> list[str]:
    """Each ``pytest.raises(Refused)`` of ``source`` whose refusal's rule is never read, as
    ``where:line``."""
    tree = ast.parse(source)
    scopes: list[ast.AST] = [tree]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_raises_of_refused(node) and len(node.args) > 1:
            out.append(f"{where}:{node.lineno}")  # pytest.raises(Refused, call, …): nothing to read the rule of
        if not isinstance(node, ast.With | ast.AsyncWith):
            continue
        for item in node.items:
            if not _is_raises_of_refused(item.context_expr):
                continue
            var = item.optional_vars
            # the innermost function holding the with (or the module)
            scope = min(
                (s for s in scopes if s is tree or (s.lineno <= node.lineno <= (s.end_lineno or 0))),
                key=lambda s: (s.end_lineno or 0) - getattr(s, "lineno", 0) if s is not tree else 1 << 30,
            )
            if not isinstance(var, ast.Name) or not _reads_rule(scope, var.id):
                out.append(f"{where}:{node.lineno}")
    return out


@pytest.mark.long  # it walks every test module (1.1 s of CPU on a loaded machine)
def test_every_refusal_check_of_the_tests_reads_the_rule_it_expects():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        # Only a file that says both can hold a raises of Refused: the others (six in seven) are not
        # parsed, which was most of this walk's time (4.3 s of CPU, 1.1 s so).
        if "raises" in source and "Refused" in source:
            found += unchecked(source, str(path.relative_to(TESTS)))
    assert found == []


@pytest.mark.parametrize(
    ("source", "bare"),
    [
        ("with pytest.raises(Refused):\n    f()", True),
        ("with pytest.raises(Refused, match='x') as no:\n    f()", True),
        ("with pytest.raises((Refused, KeyError)) as no:\n    f()\nassert str(no.value)", True),
        ("with reading('it'), pytest.raises(core.Refused) as no:\n    f()", True),
        ("pytest.raises(Refused, f, 1)", True),
        ("def t():\n    with pytest.raises(Refused) as no:\n        f()\ndef u(no):\n    names(no.value, 'X')", True),
        ("with pytest.raises(Refused) as no:\n    f()\nnames(no.value, 'ENG-1')", False),
        ("with pytest.raises(Refused) as no:\n    f()\nplaying.names(no.value, TYPING)", False),
        ("with pytest.raises(Refused) as no:\n    f()\nassert no.value.rules == ('LN-R030',)", False),
        ("with pytest.raises(ScenarioError) as no:\n    f()", False),
        ("with pytest.raises(KeyError):\n    f()", False),
    ],
)
def test_the_walk_finds_a_refusal_check_that_reads_no_rule(source, bare):
    assert bool(unchecked(textwrap.dedent(source))) is bare


@pytest.mark.parametrize(
    "helper",
    [
        playing.names,
        playing.refusal,
        playing.parse_refusal,
        playing.refused,
        playing.all_refused,
        audit_common.allowed,
    ],
)
def test_the_shared_refusal_checks_cannot_be_called_without_a_rule(helper):
    rule = inspect.signature(helper).parameters["rule"]
    assert rule.default is inspect.Parameter.empty
