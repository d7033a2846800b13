"""The audit's session: a folder for the games its tables set up once (audit_common.copied)."""

import pytest
from audit_common import keep_templates_in


@pytest.fixture(scope="session", autouse=True)
def _templates(tmp_path_factory):
    keep_templates_in(tmp_path_factory.mktemp("templates"))
