"""The round clock's ticker: Python time per second shown, and the bytes Flet sends per tick.

    python bench/bench_clock.py [--seconds N]

The real app runs in-process over the fake client (tests/flet_harness.py) on the clock screen
of a started round with two running judge calls and three tables on extra time, on a phone and
on a desktop. A fake clock moves one second per tick, so N ticks are N seconds shown, through a
10-minute mark (the panel's colours change there) and into overtime.

"Python per tick" is the app's work for one second shown (wall time, and this thread's CPU time,
which leaves out the time other processes of a loaded machine took the core): the tick
(records/clock.py's computation, the texts compared), Flet's diff of the changed controls and
their msgpack encoding: what the server does before the bytes leave. The fake client's own
decoding is measured separately and subtracted. "Bytes per tick" is the encoded message(s),
exactly what Flet's socket server writes. Target: ≤ 2 ms of Python per second shown. Also
checked: with another screen shown there is no ticker at all (no task, no timer).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # type: ignore[import-untyped]  # noqa: E402

from records.paths import DATABASE_NAME  # noqa: E402
from records.store import LogStore  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from tests import flet_harness  # noqa: E402
from tests.flet_harness import FakeApp  # noqa: E402
from views import routes  # noqa: E402
from views.app import main as app_main  # noqa: E402
from views.screens import clock_calls  # noqa: E402

JST = timezone(timedelta(hours=9))
START = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
TARGET_MS = 2.0


class FakeNow:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


class Wire:
    """Wraps the fake connection's send: the encoded size of every message, and the time the
    fake client spends decoding and learning it (not the app's)."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.client_s = 0.0
        self.client_cpu_s = 0.0
        encode = flet_harness._ENCODE

        def server_to_client(message):
            packed = msgpack.packb([message.action, message.body], default=encode)
            self.sizes.append(len(packed))
            start, cpu = time.perf_counter(), time.thread_time()
            decoded = msgpack.unpackb(
                packed, ext_hook=flet_harness.decode_ext_from_msgpack, strict_map_key=False
            )
            self.client_s += time.perf_counter() - start
            self.client_cpu_s += time.thread_time() - cpu
            return decoded

        flet_harness._server_to_client = server_to_client


def prepare(folder: Path) -> None:
    regulation = load_regulation()
    with LogStore.open(regulation, folder / DATABASE_NAME) as store:
        event = store.current_event()
        store.round_clock.start(event.id, 3, START)
        for table, minutes in (("12", 3), ("4", 5), ("12", 2), ("30", 1)):
            store.round_clock.extend(event.id, 3, table, minutes)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(layout: str, size: tuple[int, int], seconds: int, wire: Wire) -> dict[str, object]:
    now = FakeNow(START + timedelta(minutes=39, seconds=30))  # 10:30 left: crosses 10:00
    clock_calls.now = now
    app = FakeApp.start(
        app_main, route=routes.CLOCK.link(), width=size[0], height=size[1], locale="ja-JP", prefs={}
    )
    try:
        shell = app.page.data
        for table in ("7", "15"):  # two judge calls being timed
            app.type(app.find(flet_harness.ft.TextField, label="ジャッジコールの卓"), table)
            app.click(app.find(flet_harness.ft.FilledButton, text="ジャッジコール"))
        app.messages.clear()
        ticks_ms: list[float] = []
        cpu_ms: list[float] = []
        sizes: list[int] = []
        for _ in range(seconds):
            now.at += timedelta(seconds=1)
            wire.sizes.clear()
            wire.client_s = wire.client_cpu_s = 0.0
            client_before = len(app.messages)
            start, cpu = time.perf_counter(), time.thread_time()
            shell._top_tick()
            elapsed, cpu_used = time.perf_counter() - start, time.thread_time() - cpu
            app.settle()
            ticks_ms.append((elapsed - wire.client_s) * 1000)
            cpu_ms.append((cpu_used - wire.client_cpu_s) * 1000)
            sizes.append(sum(wire.sizes))
            del app.messages[client_before:]
        app.route(routes.TIERS.link())
        app.settle()
        idle = not shell.ticker.running and shell._top_tick is None
        return {
            "layout": layout,
            "ms": ticks_ms,
            "cpu_ms": cpu_ms,
            "bytes": sizes,
            "idle_elsewhere": idle,
        }
    finally:
        app.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=600, help="ticks (seconds shown) per run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PENALTY_GUIDE_DATA_DIR"] = folder
        prepare(Path(folder))
        wire = Wire()
        for layout, size in (("phone", (390, 844)), ("desktop", (1280, 800))):
            result = run(layout, size, args.seconds, wire)
            ms, cpu, sizes = result["ms"], result["cpu_ms"], result["bytes"]
            assert isinstance(ms, list) and isinstance(cpu, list) and isinstance(sizes, list)
            ordinary = sorted(sizes)[len(sizes) // 2]
            print(
                f"{layout}: {len(ms)} seconds shown; Python per tick ms p50 "
                f"{percentile(ms, 0.5):.3f}, p99 {percentile(ms, 0.99):.3f}, "
                f"max {max(ms):.3f}; CPU of this thread p50 {percentile(cpu, 0.5):.3f}, p99 "
                f"{percentile(cpu, 0.99):.3f}, max {max(cpu):.3f} (target ≤ {TARGET_MS} ms); "
                f"bytes per tick p50 {ordinary}, "
                f"max {max(sizes)} (the 10-minute mark redraws the panel); "
                f"no ticker on another screen: {result['idle_elsewhere']}"
            )


if __name__ == "__main__":
    main()
