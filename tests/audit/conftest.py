"""The audit's session: a folder for the games its tables set up once (audit_common.copied),
and the fixtures more than one module asks for: the Ludonet table's games, and the Linea di
Tiro table's game dealt alternately and its closing of the games its cases open (a module's
own fixture of the same name comes first)."""

import pytest
from audit_common import keep_templates_in
from audit_ln_table import fire, ln, move  # noqa: F401  (fixtures)
from audit_lt_table import close_games, lt  # noqa: F401  (fixtures)


@pytest.fixture(scope="session", autouse=True)
def _templates(tmp_path_factory):
    keep_templates_in(tmp_path_factory.mktemp("templates"))
