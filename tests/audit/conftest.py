"""The audit's session: a folder for the games its tables set up once (audit_common.copied)
and the closing of the games its cases open, and the fixtures more than one module asks
for: the Ludonet table's games and the Linea di Tiro table's game dealt alternately (a
module's own fixture of the same name comes first)."""

import pytest
from audit_common import close_games, keep_templates_in  # noqa: F401  (fixture)
from audit_ln_table import fire, ln, move  # noqa: F401  (fixtures)
from audit_lt_table import lt  # noqa: F401  (fixture)


@pytest.fixture(scope="session", autouse=True)
def _templates(tmp_path_factory):
    keep_templates_in(tmp_path_factory.mktemp("templates"))
