"""Shared fixtures: the real regulation, its search index and its finder, built once.

Under mutation testing (scripts/mutation.sh) they are built for every test while mutmut records
which tests call which function: it runs, for each mutant, only the tests it saw call the
mutated function, and a fixture built once would credit the loader, the index and the finder to
the first test that asked for them alone. The folding memos are forgotten before each test
there for the same reason, and a mutant's own module's tests run first (mutmut stops at the
first failure: most mutants are then decided in a second, not after the whole selection).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _memory_backed_temp() -> str | None:
    """A memory-backed folder (Linux's /dev/shm, a tmpfs) with room to spare, else None.

    The log commits with `PRAGMA synchronous = FULL` (records/opening.py): every commit is an
    fsync, which on this machine's disk waits milliseconds, and many times that while other
    work writes (the store, merge and sync tests' hypothesis runs: 46-63 s on disk against
    27-29 s here, at load 13-19). On a tmpfs the app makes the same calls in the same order and
    the data reaches the same page cache, which is all a test (or a killed process) can see:
    only a power cut could tell the two apart. A small /dev/shm (a container's 64 MB) is not
    used."""
    if os.environ.get("TMPDIR"):  # the caller chose
        return None
    folder = "/dev/shm"
    try:
        stats = os.statvfs(folder)
    except OSError:
        return None
    if stats.f_bavail * stats.f_frsize < 2 * 1024**3 or not os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder


# Set before pytest makes its first temporary folder (tmp_path, and the workers': xdist hands
# them the controller's) and inherited by every process a test starts.
if (_temp := _memory_backed_temp()) is not None:
    os.environ["TMPDIR"] = tempfile.tempdir = _temp

# Tests never touch the user's penalty log: every app a test starts opens the log
# (views/logbook.py) in this folder, unless the test gives it one of its own.
os.environ["PENALTY_GUIDE_DATA_DIR"] = tempfile.mkdtemp(prefix="penalty-guide-data-")
atexit.register(shutil.rmtree, os.environ["PENALTY_GUIDE_DATA_DIR"], ignore_errors=True)

from regulation import normalize  # noqa: E402
from regulation.finder import Finder, load_finder  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402
from regulation.search import SearchIndex  # noqa: E402

# The test module of each mutated module, where it is not test_<module>.py.
_TESTS_OF_MODULE = {
    "routes": "test_views.py",
    "normalize": "test_search.py",
    "highlight": "test_search.py",
    "explain": "test_search.py",
    "compile": "test_data.py",
    "extract": "test_catalogs.py",
    "catalog": "test_catalogs.py",
}


def _under_mutmut() -> bool:
    return bool(os.environ.get("MUTANT_UNDER_TEST"))


def _shared(scope: str) -> Callable[..., str]:
    """`scope`, except while mutmut collects its statistics: one per test then."""

    def scope_now(fixture_name: str, config: pytest.Config) -> str:
        return "function" if os.environ.get("MUTANT_UNDER_TEST") == "stats" else scope

    return scope_now


@pytest.fixture(scope=_shared("session"))
def regulation() -> Regulation:
    return load_regulation()


@pytest.fixture(scope=_shared("session"))
def index(regulation: Regulation) -> SearchIndex:
    return SearchIndex.build(regulation)


@pytest.fixture(scope=_shared("session"))
def finder(regulation: Regulation) -> Finder:
    return load_finder(regulation)


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's data folder for one test (PENALTY_GUIDE_DATA_DIR): the log made there."""
    folder = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope=_shared("session"))
def extracted_messages() -> list[tuple[str, int, str, list[str], str | None]]:
    """What `pybabel extract` finds with babel.cfg's mapping, as (file, line, message,
    comments, context): a walk of the whole project that parses the data with the pure-Python
    YAML loader, done once for the catalog tests that read it."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    return list(extract_from_dir(str(ROOT), method_map, options_map))


@pytest.fixture(autouse=True)
def _forget_folding_memos_under_mutmut() -> Iterator[None]:
    if _under_mutmut():
        normalize.stem.cache_clear()
        normalize._TABLE.clear()
    yield


def _keep_xdist_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`xdist_group` as pytest-xdist means it: each group's tests on one worker, so what they
    share (a module fixture: the training examples, the catalog extraction, the held-out
    model) is made once, not on both. xdist 3.8 names a worker's grouped tests `<id>@<group>`
    for its `loadgroup` scheduler by setting `item._nodeid`, which pytest 9.2 no longer reads
    (a node's id is `item._id`): every group was split over the workers as plain tests. The
    same name, where pytest reads it."""
    if not getattr(config.option, "loadgroup", False):  # on the workers of --dist loadgroup
        return
    from _pytest.nodeid import NodeId

    for item in items:
        groups = sorted(
            {
                str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                for m in item.iter_markers("xdist_group")
            }
        )
        suffix = "@" + "_".join(groups)
        if groups and not item.nodeid.endswith(suffix):
            item._id = NodeId.parse(item.nodeid.split("@")[0] + suffix)  # type: ignore[attr-defined]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under mutmut, the tests of the mutated module first (the order is otherwise mutmut's).

    Otherwise the modules whose longest test took longest in the last run first (the browser
    tests still before the rest: tests/e2e/conftest.py says why; each module's tests stay
    together and in order, so module fixtures are still made once): the workers take tests
    in this order, and a long test handed out last kept one core busy alone at the end (a
    10 s simulation in a 30 s run). A fresh clone, with no record yet, keeps the order."""
    _keep_xdist_groups(config, items)
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if _under_mutmut():
        if mutant.count(".") < 2:  # not a mutant: stats or a clean run
            return
        module = mutant.split(".")[1]
        own = _TESTS_OF_MODULE.get(module, f"test_{module}.py")
        items.sort(key=lambda item: item.path.name != own)
        return
    cache = getattr(config, "cache", None)
    last = cache.get(_DURATIONS_KEY, {}) if cache is not None else {}
    if not isinstance(last, dict) or not last:
        return
    longest: dict[Path, float] = {}
    for item in items:
        seconds = last.get(item.nodeid, 0.0)
        seconds = float(seconds) if isinstance(seconds, (int, float)) else 0.0
        longest[item.path] = max(longest.get(item.path, 0.0), seconds)
    # A stable sort: the tests of a module keep their order.
    items.sort(key=lambda item: ("e2e" not in item.path.parts, -longest[item.path]))


def pytest_collection_finish(session: pytest.Session) -> None:
    """What is there once the tests are collected (flet, the app's modules, the regulation, the
    test modules and items) stays for the whole run: frozen, Python's garbage collector no
    longer walks it again and again; and it runs after 10,000 new objects instead of 700 (a UI
    test makes hundreds of controls, each a dozen objects). Only when to look for garbage
    changes, not what is garbage: in test_log_screens and test_app its CPU fell from 1.3 to
    0.5 s (of 20). Under mutmut its own fork server does this (tests/mutation_order.py)."""
    if _under_mutmut():
        return
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


# Each test's time in the last run (setup, call and teardown), for the order above.
_DURATIONS_KEY = "penalty-guide/durations"
_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Seen in the main process for every worker's tests (pytest-xdist forwards the reports).
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    cache = getattr(session.config, "cache", None)
    if cache is None or hasattr(session.config, "workerinput") or not _durations:
        return
    last = cache.get(_DURATIONS_KEY, {})
    merged = {**(last if isinstance(last, dict) else {}), **_durations}
    cache.set(_DURATIONS_KEY, {k: round(v, 3) for k, v in merged.items()})


@pytest.fixture
def apps():
    """Starts the real app over the fake client (tests/flet_harness.py), as many times as a
    test asks: `apps(route=…, prefs=…, width=…, locale=…, handlers=…)` (a phone in Japanese by
    default). Every app is stopped after the test, which fails if any of them crashed."""
    try:
        from flet_harness import FakeApp
    except ImportError:  # tests/ as a package
        from tests.flet_harness import FakeApp
    from views.app import before_main, main

    started: list[FakeApp] = []

    def start(**options) -> FakeApp:
        options = {"locale": "ja-JP", "prefs": {}, "width": 390, "height": 844, **options}
        # As flet's servers run it: before the register answer.
        app = FakeApp.start(main, before_main=before_main, **options)
        started.append(app)
        return app

    yield start
    for app in started:
        assert app.crashes == [], app.crashes
        app.stop()


# -- The markers: the in-process suite (`-m "not browser and not process"`) starts no process --
# A test that starts one (main.py, a worker, Chromium) is marked `process` (or `browser`):
# mutmut cannot see what a child calls, and the in-process suite is the one run after every
# change. An unmarked test that starts a process fails, naming the marker it lacks.


def pytest_itemcollected(item: pytest.Item) -> None:
    if "browser" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.browser)  # whatever its module says


# The processes an unmarked test tried to start (tests/test_markers.py reads it).
PROCESSES_REFUSED = pytest.StashKey[list[str]]()


@contextlib.contextmanager
def _no_process_unless_marked(item: pytest.Item) -> Iterator[None]:
    if item.get_closest_marker("process") or item.get_closest_marker("browser"):
        yield
        return
    refused = item.stash.setdefault(PROCESSES_REFUSED, [])
    popen_init = subprocess.Popen.__init__

    def refuse(self: subprocess.Popen[bytes], args: object, *rest: object, **kw: object) -> None:
        refused.append(repr(args)[:200])
        raise AssertionError(f"starts a process but is not marked `process`: {refused[-1]}")

    subprocess.Popen.__init__ = refuse  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]
    if refused:  # even where the code under test caught the error
        pytest.fail(f"{item.nodeid} starts a process but is not marked `process`: {refused}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _no_process_unless_marked(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _no_process_unless_marked(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    with _no_process_unless_marked(item):
        return (yield)
