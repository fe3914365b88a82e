"""What one browser test's page load costs, by how its context is kept offline (issue 22, item 3).

    python bench/bench_e2e_boot.py [--loads N] [--size phone] [--locale ja-JP]

One app server (`main.py --web`, 127.0.0.1), one Chromium as the browser tests launch it
(harness.CHROMIUM_ARGS). Each load is a browser test's start: a new context, a new page, `goto`,
the accessibility tree switched on, the app bar's title shown; then the context is closed. The
ways are loaded in turn, so that each meets the same load (this machine is shared); the load
average is printed before and after.

- `route`: the recorder before this change: a Playwright route on every request (each request
  waits for the test's Python to let it through; a route also turns Chromium's HTTP cache off);
- `proxy`: harness.offline_context: no route; a non-loopback request goes to a refusing proxy.
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
)
from views import strings as S  # noqa: E402


def routed_context(browser, **options):  # the recorder before: every request through Python
    context = browser.new_context(service_workers="block", **options)

    def route(route) -> None:
        if is_loopback(route.request.url):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    context.route("**/*", route)
    return context


WAYS = {"route": routed_context, "proxy": offline_context}


def load(browser, way: str, base_url: str, size: str, locale: str) -> float:
    start = time.perf_counter()
    width, height = SIZES[size]
    context = WAYS[way](browser, locale=locale, viewport={"width": width, "height": height})
    network = NetworkLog()
    network.attach(context)
    app = FlutterApp(context.new_page(), base_url, size, network).open("/")
    app.wait_for(app.heading(S.APP_TITLE if locale.startswith("ja") else "OCG Penalty Guide"))
    seconds = time.perf_counter() - start
    context.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=8, help="loads per way (after one warm-up)")
    parser.add_argument("--size", default="phone", choices=sorted(SIZES))
    parser.add_argument("--locale", default="ja-JP")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        server = AppServer(ROOT, Path(scratch) / "server.log").start()
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print(f"load average before {os.getloadavg()[0]:.1f}")
                times: dict[str, list[float]] = {way: [] for way in WAYS}
                for n in range(-1, args.loads):
                    for way in WAYS if n % 2 else reversed(list(WAYS)):  # ABBA: no order bias
                        seconds = load(browser, way, server.base_url, args.size, args.locale)
                        if n >= 0:
                            times[way].append(seconds)
                print(f"load average after {os.getloadavg()[0]:.1f}")
                for way, values in times.items():
                    spread = " ".join(f"{v:.2f}" for v in sorted(values))
                    print(f"{way:6s} median {statistics.median(values):.2f} s  ({spread})")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
