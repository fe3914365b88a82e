"""What one browser test's page load costs, by how its context is made (issue 22, item 3).

    python bench/bench_e2e_boot.py [--loads N] [--size phone] [--locale ja-JP]

One app server (`main.py --web`, 127.0.0.1), Chromium as the browser tests launch it
(harness.CHROMIUM_ARGS). Each load is a browser test's start: a page, `goto`, the accessibility
tree switched on, the app bar's title shown; then the page is closed. The ways are loaded in
turn (ABBA…), so that each meets the same load (this machine is shared); the load average is
printed before and after. Each load's CPU seconds (the whole process tree: Chromium's processes,
Playwright's driver, the app server) are printed too: they move far less with the load than
wall time does.

- `route`: the recorder before this change: a new context with a Playwright route on every
  request (each request waits for the test's Python to let it through; a route also turns
  Chromium's HTTP cache off);
- `proxy`: a new context, harness.offline_context: no route; a non-loopback request goes to a
  refusing proxy;
- `shared`: a new page in one persistent context (a profile on disk, offline the same way),
  its storage for the app's origin cleared first: the pages share Chromium's HTTP cache and
  its cache of compiled code, which a fresh (incognito) context never has;
- `warm`: what the browser tests do now (tests/e2e/profiles.py): a Chromium of its own per
  page, on a new copy of the disk caches of an earlier load (caches only, nothing stored).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SIZES,
    AppServer,
    FlutterApp,
    NetworkLog,
    is_loopback,
    offline_context,
    offline_proxy,
    warm_context,
)
from tests.e2e.profiles import WarmProfiles  # noqa: E402
from views import strings as S  # noqa: E402

WAYS = ("route", "proxy", "shared", "warm")


def routed_context(browser, **options):  # the recorder before: every request through Python
    context = browser.new_context(service_workers="block", **options)

    def route(route) -> None:
        if is_loopback(route.request.url):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    context.route("**/*", route)
    return context


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of the processes under `root` (this bench's Chromium, its
    renderers and GPU process, Playwright's driver, the app server), from Linux's /proc, those
    that ended and were reaped by a live parent included (a closed page's renderer)."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            parents[int(entry.name)] = int(fields[1])
            ticks[int(entry.name)] = sum(int(v) for v in fields[11:15])
    total, frontier = 0, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                total += ticks[pid]
                frontier.append(pid)
    return total / CLOCK_TICKS


def load(
    browser, shared, warm, way: str, base_url: str, size: str, locale: str
) -> tuple[float, float]:
    """One page load of `way`: (seconds, CPU seconds of the process tree, the page closed)."""
    cpu = tree_cpu(os.getpid())
    start = time.perf_counter()
    width, height = SIZES[size]
    viewport = {"width": width, "height": height}
    if way == "shared":
        page = shared.new_page()
        page.set_viewport_size(viewport)
        cdp = shared.new_cdp_session(page)
        cdp.send(
            "Storage.clearDataForOrigin",
            {"origin": base_url, "storageTypes": "local_storage,indexeddb,cookies"},
        )
        context = None
    elif way == "warm":
        driver, profiles = warm
        folder = profiles.copy(base_url)
        context = warm_context(driver, folder, locale=locale, viewport=viewport)
        page = context.pages[0]
    else:
        make = routed_context if way == "route" else offline_context
        context = make(browser, locale=locale, viewport=viewport)
        page = context.new_page()
    app = FlutterApp(page, base_url, size, NetworkLog()).open("/")
    app.wait_for(app.heading(S.APP_TITLE if locale == "ja-JP" else "OCG Penalty Guide"))
    seconds = time.perf_counter() - start
    page.close()
    if context is not None:
        context.close()
    if way == "warm":
        warm[1].keep(base_url, folder)
    time.sleep(0.3)  # the closed processes reaped
    return seconds, tree_cpu(os.getpid()) - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=8, help="loads per way (after a warm-up)")
    parser.add_argument("--size", default="phone", choices=sorted(SIZES))
    parser.add_argument("--locale", default="ja-JP", choices=["ja-JP", "en-US"])
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        server = AppServer(ROOT, Path(scratch) / "server.log").start()
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                shared = driver.chromium.launch_persistent_context(
                    Path(scratch) / "profile",
                    executable_path=CHROMIUM,
                    args=CHROMIUM_ARGS,
                    locale=args.locale,
                    service_workers="block",
                    proxy=offline_proxy(),
                )
                warm = (driver, WarmProfiles(Path(scratch) / "warm"))
                print(f"load average before {os.getloadavg()[0]:.1f}")
                times: dict[str, list[float]] = {way: [] for way in WAYS}
                cpus: dict[str, list[float]] = {way: [] for way in WAYS}
                for n in range(-1, args.loads):
                    for way in WAYS if n % 2 else WAYS[::-1]:  # ABBA: no order bias
                        seconds, cpu = load(
                            browser, shared, warm, way, server.base_url, args.size, args.locale
                        )
                        if n >= 0:
                            times[way].append(seconds)
                            cpus[way].append(cpu)
                print(f"load average after {os.getloadavg()[0]:.1f}")
                for way, values in times.items():
                    spread = " ".join(f"{v:.2f}" for v in sorted(values))
                    print(f"{way:6s} median {statistics.median(values):.2f} s  ({spread})")
                for way, values in cpus.items():
                    spread = " ".join(f"{v:.2f}" for v in sorted(values))
                    print(f"{way:6s} CPU median {statistics.median(values):.2f} s  ({spread})")
                shared.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
