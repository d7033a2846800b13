"""What every test runs under."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

# asyncssh looks for its post-quantum library when first imported (ctypes' find_library
# runs ldconfig and gcc): imported here, those processes are the library's, started
# before any test, not a process the first test to import it would be blamed for.
import asyncssh  # noqa: F401
import pytest

from core.dice import faces as dice
from core.language.reader import lang, set_process_language

# A roll that names no step of its command's dice order fails the test that plays it
# (core.dice.faces.UnplacedRoll): every command the tests play with exact faces proves
# that its rolls and its declared order agree.
dice.CHECK_STEPS = True

# The fifth ruleset is registered, and the rulesets the guard tests walk are taken from
# the registry, before any test module is collected (tests/registry_walk.py).
import registry_walk  # noqa: E402, F401

# --- The fast subset (docs/testing.md) -------------------------------------------------
#
# A test that starts a server, a process or a browser, or searches long, says so by a
# mark; every such test is also ``slow``, and ``pytest -m "not slow"`` runs the rest: the
# inner loop, in minutes.  The marks are checked, not trusted: an audit hook (Python's own
# way to watch a process's sockets and processes, sys.addaudithook) sees every socket
# bound and every process started while a test runs, and a test that did either without
# its mark fails by name, so the fast subset never quietly grows a server.

#: Each mark a slow test gives, and what it allows.
SLOW_MARKS = {
    "server": "it starts a server (binds a socket)",
    "subprocess": "it starts a process",
    "browser": "it drives a browser (a process too)",
    "long": "it runs long (a search, a sweep, a whole game many times)",
}
#: Audit events (docs.python.org/3/library/audit_events.html) and the marks that allow them.
_ALLOWED_BY = {
    "socket.bind": ("server",),
    "subprocess.Popen": ("subprocess", "browser"),
    "os.fork": ("subprocess", "browser"),
    "os.forkpty": ("subprocess", "browser"),
    "os.posix_spawn": ("subprocess", "browser"),
    "os.spawn": ("subprocess", "browser"),
    "os.system": ("subprocess", "browser"),
}
#: The marks of the test running now (None between tests), and what it did without one.
_running: dict[str, object] = {"marks": None, "unmarked": []}


#: A RAM disk, where the system has one: a test's folders go there unless the developer
#: names a place (PYTEST_DEBUG_TEMPROOT, pytest's own variable for it).  Every command a test
#: plays is synced to disk, as a user's is; in memory a sync costs nothing, and the suite
#: spends its time on what it checks.  What a sync guarantees is tested where it is made
#: (tests/faults: every write and sync failing in turn), never by the medium.
RAM_DISK = "/dev/shm"


def _usable(folder: str) -> bool:
    """Whether tests can write in ``folder`` and run what they write there (some tests run
    a script they made: a RAM disk mounted noexec would fail them)."""
    return os.access(folder, os.W_OK) and not os.statvfs(folder).f_flag & os.ST_NOEXEC


def pytest_configure(config) -> None:
    if "PYTEST_DEBUG_TEMPROOT" not in os.environ and _usable(RAM_DISK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = RAM_DISK
    for name, why in SLOW_MARKS.items():
        config.addinivalue_line("markers", f"{name}: {why}; a slow test, left out of the fast subset")
    config.addinivalue_line("markers", "slow: a test with one of the marks " + ", ".join(SLOW_MARKS))
    sys.addaudithook(_audit)
    if getattr(config.option, "dist", "no") == "load":
        # -n's workers share the tests by stealing: each starts on a contiguous half and takes from
        # the other's when it runs out, so a module's set-ups (one Chromium, one server) are mostly
        # made once and no worker idles at the end (xdist's default deals small rounds to both).
        # Here, not in addopts: an environment without xdist (the floors' in .ci/run) runs pytest too.
        config.option.dist = "worksteal"


@pytest.hookimpl(optionalhook=True)  # xdist's hook: an environment without xdist runs pytest too
def pytest_xdist_auto_num_workers(config) -> int | None:
    """``-n auto``: three workers a core, not xdist's one.  Much of the suite's time is spent
    waiting (servers, browsers and processes answering, grace times running out), when one
    worker a core leaves its core idle; the others run their tests in those waits.  Measured in
    pairs on a 2-core machine under the same outside load (docs/testing.md): 4 workers 862 s and
    1,087 s, 6 workers 630 s and 805 s."""
    if "PYTEST_XDIST_AUTO_NUM_WORKERS" in os.environ:
        return None  # the developer's own number, which xdist reads
    from xdist.plugin import pytest_xdist_auto_num_workers as one_per_core

    return 3 * one_per_core(config)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session) -> None:
    """Collect once: before xdist starts its workers, the modules they will all import are compiled
    by one process a core, each collecting a share of the run's test modules, when nothing is compiled
    yet (a fresh clone, as CI's).  Every worker imports every test module, and pytest rewrites a test
    module's asserts before compiling it: six workers on a fresh clone each did all of it (31 s of CPU
    a worker for the whole suite, 9 s with the bytecode cached; docs/testing.md)."""
    config = session.config
    if hasattr(config, "workerinput") or getattr(config.option, "dist", "no") == "no":
        return  # a worker, or a run without xdist: it compiles what it imports, once
    root = config.rootpath
    product = [path for top in ("core", "tui") for path in (root / top).rglob("*.py")]
    compiled = sum(os.path.exists(importlib.util.cache_from_source(str(path))) for path in product)
    if compiled * 2 > len(product):
        return  # compiled by a run before: each worker reads what it imports (a changed module, compiled again)
    here = config.invocation_params.dir
    modules = sorted({module for arg in config.args for module in _test_modules(here / arg.split("::")[0])})
    cores = os.cpu_count() or 1
    collecting = [
        subprocess.Popen(
            [sys.executable, "-m", "pytest", "--collect-only", "-qq", "-p", "no:xdist", "-p", "no:cacheprovider"]
            + [str(module) for module in modules[share::cores]],
            cwd=root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for share in range(min(cores, len(modules)))
    ]
    for process in collecting:
        process.wait()  # (a module that fails to import fails the run's own collection, said there)


def _test_modules(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(path.rglob("test_*.py"))
    return [path] if path.suffix == ".py" else []


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if any(item.get_closest_marker(name) for name in SLOW_MARKS):
            item.add_marker(pytest.mark.slow)


def _audit(event: str, args: tuple) -> None:
    marks = _running["marks"]
    allowed = _ALLOWED_BY.get(event)
    if marks is None or allowed is None or marks & set(allowed):
        return
    _running["unmarked"].append(f"{event} {allowed[0]}")


#: The process's language as the run began: a test that sets it (``set_process_language``, an
#: app's ``lang``) leaves the next one in it, whatever order the workers take the tests in.
PROCESS_LANGUAGE = lang()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _running["marks"] = {name for name in SLOW_MARKS if item.get_closest_marker(name)}
    _running["unmarked"] = []
    try:
        return (yield)
    finally:
        _running["marks"] = None
        set_process_language(PROCESS_LANGUAGE)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield
    unmarked = sorted(set(_running["unmarked"]))
    if unmarked:
        marks = sorted({what.split()[1] for what in unmarked})
        pytest.fail(
            f"{item.nodeid} did {', '.join(what.split()[0] for what in unmarked)} without its mark: "
            f"give it @pytest.mark.{' or '.join(marks)} (or pytestmark in its module), docs/testing.md",
            pytrace=False,
        )
    return result
