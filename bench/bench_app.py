"""The app's own work, in-process over the fake client (tests/flet_harness.py): time from
`main(page)` to the first view, a language switch, and opening an infraction page.

The figures include the fake client's round trips (msgpack both ways), so they are an upper
bound on the Python side of each step:  python bench/bench_app.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import flet as ft  # noqa: E402
from flet_harness import FakeApp  # noqa: E402

from views import routes  # noqa: E402
from views.app import main  # noqa: E402

TARGETS_MS = {"first view": 100, "language switch": 30, "open infraction": 30}


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def one_run(width: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    started: list[FakeApp] = []
    options = {"prefs": {}, "locale": "ja-JP", "width": width, "height": 800}
    figures["first view"] = timed(lambda: started.append(FakeApp.start(main, **options)))
    app = started[0]
    button = app.find(ft.TextButton, tooltip="言語を切り替え")
    figures["language switch"] = timed(lambda: app.click(button))
    figures["open infraction"] = timed(lambda: app.route(routes.infraction("drew-extra-cards")))
    assert not app.crashes, app.crashes
    app.stop()
    return figures


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for label, width in (("phone 390 px", 390), ("desktop 1280 px", 1280)):
        one_run(width)  # warm-up: imports, first-use caches
        runs = [one_run(width) for _ in range(args.runs)]
        print(f"{label}: median of {args.runs} runs")
        for step, target in TARGETS_MS.items():
            median = statistics.median(r[step] for r in runs)
            print(f"  {step:<16} {median:7.1f} ms   (aim < {target} ms)")


if __name__ == "__main__":
    main_bench()
