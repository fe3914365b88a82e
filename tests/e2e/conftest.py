"""Fixtures of the browser tests: Chromium (Debian's), the app server, fresh browser contexts.

Skipping rules: without a usable Chromium the tests skip with one reason, except when
PENALTY_GUIDE_E2E=required (CI sets it): then a missing or broken Chromium is a failure.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    E2E_REQUIRED,
    REPO_ROOT,
    SCREENSHOTS,
    SIZES,
    AppServer,
    FlutterApp,
    NetworkLog,
    missing_browser,
    offline_context,
    offline_problems,
    warm_context,
)
from .profiles import WarmProfiles


def unavailable(reason: str) -> None:
    """Skips the browser tests, or fails them when they are required (CI)."""
    if E2E_REQUIRED:
        pytest.fail(
            f"{reason}; PENALTY_GUIDE_E2E=required, so the browser tests must run",
            pytrace=False,
        )
    pytest.skip(f"{reason} (browser tests skipped; PENALTY_GUIDE_E2E=required makes this fail)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails is run again, at most twice (pytest-rerunfailures), and fails
    the run only when every try fails. Typing reaches Flutter, then the server, asynchronously:
    on a fresh clone one run of three lost 2 of 68 tests to a step that missed its 45 s wait,
    where the other runs passed them. A rerun is reported as one ("R" and "rerun" in the summary),
    never hidden; a fault that fails every try still fails CI."""
    for item in items:
        if "e2e" in item.path.parts:
            item.add_marker(pytest.mark.flaky(reruns=2))


# How often each browser test has started in this worker (its tries: pytest-rerunfailures).
_tries: collections.Counter[str] = collections.Counter()


@pytest.fixture
def rerun_mark(request: pytest.FixtureRequest) -> str:
    """Empty on a browser test's first try in this worker, " 2", " 3" on the tries after it:
    a test that saves records by a player's name adds it to the name. The server and its log
    outlive a failed try, so without it the next try's player already has that record, and
    the line the test waits for (a first offence) never comes (CI, 2026-12-02: one try failed
    by chance, the two after it on "（同一違反2回目）")."""
    _tries[request.node.nodeid] += 1
    tries = _tries[request.node.nodeid]
    return "" if tries == 1 else f" {tries}"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    # Keeps each phase's report on the item, so fixtures can tell whether the test failed.
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


# A browser test that runs this long is stuck, not slow (the slowest take about 35 s on a
# quiet machine, about 70 s on a loaded one): once, in a fresh-clone CI run, a page's renderer
# spun at 100 % CPU for eight minutes, and Playwright's `evaluate`, which has no timeout,
# waited on it. The watchdog kills this worker's renderers then: the test fails (its page is
# gone) and is tried again like any failed browser test, instead of the run hanging. It was
# 300 s until a fresh clone's page hung in the teardown of its failed test (2026-12-02: the
# call 48 s, the teardown 252 s, no failure screenshot written) in a 569 s run.
STUCK_TEST_S = float(os.environ.get("PENALTY_GUIDE_STUCK_TEST_S", "150"))


def _renderers_under(root: int) -> list[int]:
    """The Chromium renderer processes descended from process `root` (Linux's /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                frontier.append(pid)
                with contextlib.suppress(OSError):
                    if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                        found.append(pid)
    return found


def _kill_renderers(root: int) -> None:
    for pid in _renderers_under(root):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture(autouse=True)
def stuck_page_watchdog(request: pytest.FixtureRequest) -> Iterator[None]:
    if "browser" not in request.fixturenames:
        yield
        return
    timer = threading.Timer(STUCK_TEST_S, _kill_renderers, args=(os.getpid(),))
    timer.daemon = True
    timer.start()
    yield
    timer.cancel()


# PENALTY_GUIDE_E2E_RERUN_AUDIT=1 (docs/testing.md): every browser test that passes its first
# try is failed on purpose, so that it runs again on the same server, as a rerun does in CI: a
# test that cannot pass a second time (what its first try left in the shared log) shows here,
# not in a CI run where some other try failed by chance.
RERUN_AUDIT = os.environ.get("PENALTY_GUIDE_E2E_RERUN_AUDIT", "0").strip() == "1"
_audited: set[str] = set()


@pytest.fixture(autouse=True)
def rerun_audit(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    node = request.node
    if not RERUN_AUDIT or "e2e" not in node.path.parts or node.nodeid in _audited:
        return
    _audited.add(node.nodeid)
    call = getattr(node, "report_call", None)
    if call is not None and call.passed:
        pytest.fail("rerun audit: the first try passed; failed on purpose to try it again")


# Package scope, not session: Playwright's sync API keeps its asyncio loop marked as running
# in this thread until it stops, and the in-process UI tests (tests/flet_harness.py) that run
# after this package need to run loops of their own.
@pytest.fixture(scope="package")
def playwright_driver() -> Iterator[object]:
    reason = missing_browser()
    if reason:
        unavailable(reason)
    from playwright.sync_api import sync_playwright

    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="package")
def browser(playwright_driver) -> Iterator[object]:
    failure = ""
    try:
        chromium = playwright_driver.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000
        )
    except Exception as exc:  # a broken install: missing libraries, no sandbox, …
        failure = str(exc).strip() or type(exc).__name__
    if failure:
        # A skip gets the first line; a required run's failure keeps the browser's own log.
        detail = failure if E2E_REQUIRED else failure.splitlines()[0]
        unavailable(f"Chromium at {CHROMIUM} could not be launched: {detail}")
    yield chromium
    chromium.close()


@pytest.fixture(scope="package")
def app_server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The app, served once for all the browser tests from the repository (`main.py --web`)."""
    server = AppServer(REPO_ROOT, tmp_path_factory.mktemp("server") / "server.log")
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()
    # Checked when the server stops, whichever test ran last: no request raised in the app.
    if "Traceback" in server.log():
        pytest.fail(f"the app server logged a Python error:\n{server.log()}", pytrace=False)


# Each page in a Chromium of its own on warm disk caches (profiles.py); with
# PENALTY_GUIDE_E2E_WARM=0, in a fresh incognito context of the worker's one Chromium. Fresh
# contexts cost less CPU on a quiet machine (the same browser test files in one worker, in
# turn: 119-120 s against 128-133 s), but pages hung in fresh clones either way (two of two
# with fresh contexts, one of five warm; docs/testing.md, 2026-12-02), and a hang costs a
# worker 150 s: warm stays, as it was. Why pages hang is not known.
WARM_PROFILES = os.environ.get("PENALTY_GUIDE_E2E_WARM", "1").strip() != "0"


@pytest.fixture(scope="package")
def warm_profiles(tmp_path_factory: pytest.TempPathFactory) -> WarmProfiles:
    return WarmProfiles(tmp_path_factory.mktemp("profiles"))


OpenApp = Callable[..., FlutterApp]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., AppServer]]:
    """App servers of a test's own, each on the data folder of its device `name`:
    `servers("a", PENALTY_GUIDE_SYNC_PORT="…")`; `servers("a", port=…, start=False)` is a
    second server of device a, started by the test. `open_app` depends on this fixture, so
    these servers stop only after every page has closed: a page whose server stopped shows
    Flet's own reconnect screen, whose text asks for fallback fonts, and the offline check
    would fail the test by chance (it did, in CI)."""
    made: list[AppServer] = []

    def make(name: str, *, port: int | None = None, start: bool = True, **env: str) -> AppServer:
        server = AppServer(
            REPO_ROOT,
            tmp_path / f"server-{name}-{len(made) + 1}.log",
            port,
            extra_env={"PENALTY_GUIDE_DATA_DIR": str(tmp_path / f"device-{name}"), **env},
        )
        made.append(server)
        return server.start() if start else server

    yield make
    for server in made:
        server.stop()
    for server in made:
        assert "Traceback" not in server.log(), server.log()


@pytest.fixture
def open_app(
    request: pytest.FixtureRequest,
    playwright_driver,
    browser,
    app_server: AppServer,
    warm_profiles: WarmProfiles,
    servers: Callable[..., AppServer],
) -> Iterator[OpenApp]:
    """Opens the app in a Chromium of its own on warm disk caches (profiles.py), or with
    PENALTY_GUIDE_E2E_WARM=0 (or `warm=False`) in a fresh browser context; either way with its
    own storage, own locale, own window size:

        app = open_app("phone", "ja-JP", "/infractions/drew-extra-cards")
        big = open_app("desktop", "en-US", "/log", settings={"text_scale": "1.75"})

    Every context is offline (harness.offline_context): non-loopback requests fail, and are
    recorded. When the test ends, a context that asked for anything external but Flet's
    rive_native.js, or for a fallback font, fails the test (pass `offline_check=False` to
    inspect that yourself)."""
    opened: list[tuple[object, FlutterApp, bool]] = []
    profiles: list[tuple[str, Path]] = []

    def open_(
        size: str = "phone",
        locale: str = "ja-JP",
        path: str = "/",
        server: AppServer | None = None,
        offline_check: bool = True,
        settings: dict[str, str] | None = None,
        warm: bool = True,
    ) -> FlutterApp:
        width, height = SIZES[size]
        target = server or app_server
        key = f"{target.base_url} {target.process.pid if target.process else 0}"
        viewport = {"width": width, "height": height}
        if warm and WARM_PROFILES:
            folder = warm_profiles.copy(key)
            context = warm_context(playwright_driver, folder, locale=locale, viewport=viewport)
            profiles.append((key, folder))
        else:
            context = offline_context(browser, locale=locale, viewport=viewport)
        if settings:  # as the app stored them (SharedPreferences: localStorage, JSON values)
            values = json.dumps(settings)
            context.add_init_script(
                f"for (const [k, v] of Object.entries({values}))"
                " window.localStorage.setItem('flutter.' + k, JSON.stringify(v));"
            )
        network = NetworkLog()
        network.attach(context)
        page = context.pages[0] if context.pages else context.new_page()
        app = FlutterApp(page, target.base_url, size, network)
        opened.append((context, app, offline_check))
        return app.open(path)

    yield open_

    failed = getattr(request.node, "report_call", None)
    problems: list[str] = []
    for context, app, offline_check in opened:
        if failed is not None and failed.failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
            with contextlib.suppress(Exception):
                app.page.screenshot(path=str(SCREENSHOTS / f"FAILED-{name}.png"))
        # A fallback-font request follows the layout of the text that needs it: the last
        # screen's text drawn (FlutterApp.drawn) before judging, instead of a fixed 400 ms.
        with contextlib.suppress(Exception):
            app.drawn()
        context.close()
        if offline_check:
            problems += offline_problems(app.network)
    for key, folder in profiles:
        warm_profiles.keep(key, folder)
    if problems:
        pytest.fail(
            "the app broke its offline promise:\n  " + "\n  ".join(sorted(set(problems))),
            pytrace=False,
        )
