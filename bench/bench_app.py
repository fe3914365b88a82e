"""The app's own work, in-process over the fake client (tests/flet_harness.py): from `main(page)`
to the first view, a language switch, and opening an infraction page.

Timed inside the app (the shell's methods are wrapped), so the figures hold what a real client
would also cost on the Python side, view building, Flet's diff and encoding the patch, and not the
fake client's own bookkeeping:  python bench/bench_app.py [--runs 15]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flet as ft  # noqa: E402

from tests.flet_harness import FakeApp  # noqa: E402
from views import app as app_module  # noqa: E402
from views import routes  # noqa: E402
from views import shell as shell_module  # noqa: E402

TARGETS_MS = {"first view": 100, "language switch": 30, "open infraction": 30}
# Not on screen-time: after a switch, the views below the top are rebuilt in a task of their own.
FOLLOW_UP = "views below, after a switch"
timings: dict[str, list[float]] = {}


def timed(name: str, function):
    """Wraps `function` (sync or async) to add its duration to timings[name]."""
    if hasattr(function, "__await__") or function.__code__.co_flags & 0x80:  # coroutine function

        @functools.wraps(function)
        async def wrapper(*args, **kwargs):
            start = time.perf_counter()
            result = await function(*args, **kwargs)
            timings.setdefault(name, []).append((time.perf_counter() - start) * 1000)
            return result

        return wrapper

    @functools.wraps(function)
    def sync_wrapper(*args, **kwargs):
        start = time.perf_counter()
        result = function(*args, **kwargs)
        timings.setdefault(name, []).append((time.perf_counter() - start) * 1000)
        return result

    return sync_wrapper


def one_run(width: int) -> None:
    app = FakeApp.start(app_module.main, prefs={}, locale="ja-JP", width=width, height=800)
    app.route(routes.CATEGORY.link("play"))
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))
    app.route(routes.INFRACTION.link("drew-extra-cards"))
    assert not app.crashes, app.crashes
    app.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    # Wrapped in place: the app calls these through the module and the class.
    shell = shell_module.Shell
    app_module.main = timed("first view", app_module.main)
    shell.change_settings = timed("language switch", shell.change_settings)  # type: ignore[method-assign]
    shell._refresh_views_below = timed(FOLLOW_UP, shell._refresh_views_below)  # type: ignore[method-assign]
    shell.show = timed("show", shell.show)  # type: ignore[method-assign]
    for label, width in (("phone 390 px", 390), ("desktop 1280 px", 1280)):
        one_run(width)  # warm-up: imports, first-use caches
        timings.clear()
        for _ in range(args.runs):
            one_run(width)
        # show() runs for the first view, the category and the infraction: the last is ours.
        timings["open infraction"] = timings["show"][2::3]
        print(f"{label}: median of {args.runs} runs")
        for step, target in TARGETS_MS.items():
            print(f"  {step:<16} {statistics.median(timings[step]):7.1f} ms   (aim < {target} ms)")
        print(f"  ({FOLLOW_UP}: {statistics.median(timings[FOLLOW_UP]):.1f} ms, in the background)")


if __name__ == "__main__":
    main()
