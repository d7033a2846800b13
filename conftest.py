"""Fixtures of every test."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from core.cachedir import CACHE_DIR_ENV

# A long search by the leak oracle (tests/core/test_leak_oracle.py, docs/testing.md):
#     pytest tests/core/test_leak_oracle.py --hypothesis-profile=oracle
settings.register_profile("oracle", max_examples=500, deadline=None)


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory):
    """Caches (compiled catalogues, opened saves) go to a folder of the test run's,
    not the user's (in this process and in every process a test starts)."""
    before = os.environ.get(CACHE_DIR_ENV)
    os.environ[CACHE_DIR_ENV] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ[CACHE_DIR_ENV]
    else:
        os.environ[CACHE_DIR_ENV] = before
