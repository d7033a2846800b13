"""The audit of the rules maps: every rule a map calls ``enforced`` (or ``partial``) is
checked again by a test written from the rulebook and its digest alone, by someone who did
not write that rule's code (docs/testing.md, "The audit").

An audit test lives in ``tests/audit/`` and names the rules it checks with
``@pytest.mark.audits("BI-R080", ...)``.  This module proves the marks honest: every id
named is a rule of the map, ``enforced`` or ``partial`` there (a rule left to the referee
has nothing to audit), and every ruleset with a rules map (the registry's, as the guards
walk it) has every one of its ``enforced`` and ``partial`` rules audited.  ``python tests/audit/test_audit_map.py``
prints the counts, ruleset by ruleset.
"""

from __future__ import annotations

import ast
import collections
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script
from registry_walk import RULESETS  # noqa: E402

from core.registry import get_ruleset  # noqa: E402

pytestmark = pytest.mark.long

HERE = Path(__file__).resolve().parent
CHECKED = ("enforced", "partial")


def audit_marks() -> dict[str, list[str]]:
    """Every rule id an audit test names -> the tests (``file::name``) that audit it."""
    found: dict[str, list[str]] = collections.defaultdict(list)
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and ast.unparse(deco.func) == "pytest.mark.audits":
                    for arg in deco.args:
                        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                            f"{path.name}::{node.name}: audits() takes rule ids, as strings"
                        )
                        found[arg.value].append(f"{path.name}::{node.name}")
    return found


def checked_rules() -> dict[str, dict[str, str]]:
    """Each ruleset with a rules map -> its rule ids -> their status."""
    out = {}
    for ruleset in RULESETS:
        rules_map = get_ruleset(ruleset).rules_map()
        if rules_map is not None:
            out[ruleset] = {rule.id: rule.status for rule in rules_map.rules}
    return out


def test_every_audited_id_is_a_checked_rule_of_a_map():
    statuses = {rid: status for rules in checked_rules().values() for rid, status in rules.items()}
    wrong = {rid: statuses.get(rid, "no such rule") for rid in audit_marks() if statuses.get(rid) not in CHECKED}
    assert wrong == {}


def test_every_checked_rule_of_every_map_is_audited():
    marks = audit_marks()
    for ruleset, rules in checked_rules().items():
        missing = sorted(rid for rid, status in rules.items() if status in CHECKED and rid not in marks)
        assert missing == [], f"{ruleset}: not audited"


def test_the_marks_are_read_from_the_audit_tests(tmp_path, monkeypatch):
    """The reader finds a mark, so the checks above can fail."""
    (tmp_path / "test_x.py").write_text('@pytest.mark.audits("BI-R001", "NO-1")\ndef test_a(): ...\n')
    monkeypatch.setattr(__import__(__name__), "HERE", tmp_path)
    assert dict(audit_marks()) == {"BI-R001": ["test_x.py::test_a"], "NO-1": ["test_x.py::test_a"]}


def counts() -> dict[str, tuple[int, int]]:
    """Each ruleset -> (checked rules audited, checked rules)."""
    marks = audit_marks()
    out = {}
    for ruleset, rules in checked_rules().items():
        checked = [rid for rid, status in rules.items() if status in CHECKED]
        out[ruleset] = (sum(rid in marks for rid in checked), len(checked))
    return out


if __name__ == "__main__":
    for ruleset, (done, total) in counts().items():
        print(f"{ruleset:16} {done:4} of {total:4} audited")
