"""Fixtures of every test."""

from __future__ import annotations

import gc
import itertools
import os
import stat
import sys
import tempfile

#: The user's terminal and locale settings that change what Fireteam draws or says: colour
#: (NO_COLOR, as many who use screen readers or plain terminals set it), the terminal's size,
#: Textual's own switches, the language.  The suite runs the same whatever they are (issue #77):
#: each is taken out of this process's environment, and so of every process a test starts, before
#: anything is imported; a test of one sets it itself.
TERMINAL_SETTINGS = (
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLORTERM",
    "COLUMNS",
    "LINES",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "LANGUAGE",
    "LC_ALL",
    "LC_MESSAGES",
)
# (Not the snapshot plugin's own TEXTUAL_SNAPSHOT_TEMPDIR: xdist's controller sets it for its workers.)
_TEXTUALS = (name for name in os.environ if name.startswith("TEXTUAL") and not name.startswith("TEXTUAL_SNAPSHOT"))
for _name in [*TERMINAL_SETTINGS, *_TEXTUALS]:
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"  # English, in UTF-8

#: Where the suite keeps compiled modules when the environment forbids writing them beside the
#: sources (PYTHONDONTWRITEBYTECODE, as containers and sandboxes set it): a folder of the user's
#: in the system's temporary folder, mirroring the sources' paths (PYTHONPYCACHEPREFIX), so nothing
#: is written in the checkout.  Every xdist worker imports every test module, and pytest rewrites a
#: test module's asserts before compiling it: without a cache each worker did all of that again in
#: every run (31 s of CPU a worker for the whole suite, 9 s with the cache; docs/testing.md).  An
#: environment that names its own PYTHONPYCACHEPREFIX keeps it.
BYTECODE_FOLDER = f"fireteam-tests-pycache-{os.getuid()}"


def _bytecode_cache_outside_the_sources() -> None:
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    folder = os.path.join(tempfile.gettempdir(), BYTECODE_FOLDER)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        mode = os.lstat(folder)
    except OSError:
        return  # nowhere to keep it: the run compiles as it did
    if not stat.S_ISDIR(mode.st_mode) or mode.st_uid != os.getuid() or mode.st_mode & 0o022:
        return  # a folder someone else could write in: bytecode read from there could be anyone's
    sys.pycache_prefix = folder
    sys.dont_write_bytecode = False
    # ... and in every process the run starts: its xdist workers, and the programs tests start.
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_cache_outside_the_sources()

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from core.cachedir import CACHE_DIR_ENV  # noqa: E402
from core.folders import KINDS  # noqa: E402

# The tests run on machines shared with other work (CI has two busy cores): a time
# taken is never a verdict, so no example has a deadline and generating one is
# never too slow.  Every property test runs with this, unless it says otherwise.
#
# How many examples (docs/testing.md, Property tests): each test names the count of its full search
# (``examples(n)``, tests/shared/examples.py; hypothesis's 100 where it names none).  A named run
# (``--hypothesis-profile=full``) draws the full search; every other run, CI's per commit included,
# a fifth of it (``commit``), never under ten: the whole suite must fit CI's 15 minutes on two cores.
settings.register_profile("full", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("commit", settings.get_profile("full"), max_examples=20)
settings.load_profile("commit")
# A long search by the leak oracle (tests/core/test_leak_oracle.py, docs/testing.md):
#     pytest tests/core/test_leak_oracle.py --hypothesis-profile=oracle
settings.register_profile("oracle", settings.get_profile("full"), max_examples=500)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """Once every test and fixture is done: collect the garbage once, then freeze what is left.

    At its cleanup pytest collects five times over (a finaliser's warning left unraised is
    reported so), and an xdist worker's heap at the end of the whole suite takes about a second a
    collection: execnet interrupts a worker still busy 5 s after it was told to end, with a
    SIGINT that struck those collections on a loaded machine (a KeyboardInterrupt traceback in
    the log, and a worker that ended late). One collection reports what the last tests left
    behind; the frozen heap makes pytest's five instant."""
    gc.collect()
    gc.freeze()


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


#: The number of the next test's own folders, in this process's run folder.
_FOLDER_NUMBERS = itertools.count()


@pytest.fixture(autouse=True)
def _own_folders(tmp_path_factory, monkeypatch):
    """Saves, settings and state (core.folders) go to folders of each test's, never the
    user's (in this process and in every process the test starts); a test that looks
    at one sets its own."""
    # One folder a test, numbered by the process, in a folder of their own: pytest numbers its
    # folders (``mktemp``, ``tmp_path``) by reading the whole run's folder, and six of them a test,
    # left there, made every set-up slower than the last (1,000 tests took 50 s, 5.3 s so).  A
    # number, not a random name: paths are shown in texts some tests read word by word.
    own = tmp_path_factory.getbasetemp() / "folders" / str(next(_FOLDER_NUMBERS))
    for kind, (variable, _function) in KINDS.items():
        if variable != CACHE_DIR_ENV:
            (own / kind).mkdir(parents=True)
            monkeypatch.setenv(variable, str(own / kind))
