"""The penalty log's screens with a large tournament: 10,000 records (300 players, 8 rounds, as
bench/bench_log.py makes them), in-process over the fake client (tests/flet_harness.py).

    python bench/bench_log_screen.py [--records N] [--runs N]

One session per layout (phone, desktop), as a judge uses the app, N passes through the screens.

Timed inside the app, like bench/bench_app.py: "built" is the screen's builder alone (the
store's queries and the controls); "shown" is the shell's whole `show()` for the route (the
builder, the list beside it on a desktop, Flet's diff and the encoded patch), which is what the
judge waits for on the Python side. Also: the name typed in the record form (type-ahead and the
repeat check, the parts of the form that follow it redrawn) and "show more" (the next page).
Target: the log screen shown in ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flet as ft  # noqa: E402
from bench_log import JST, PLAYERS, generated_export, player_name  # noqa: E402

from records.exchange import json_bytes, parse_export  # noqa: E402
from records.paths import DATABASE_NAME  # noqa: E402
from records.store import LogStore  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from tests.flet_harness import FakeApp  # noqa: E402
from views import app as app_module  # noqa: E402
from views import logbook as logbook_module  # noqa: E402
from views import routes  # noqa: E402
from views import shell as shell_module  # noqa: E402
from views.screens import log as log_module  # noqa: E402
from views.screens import log_form  # noqa: E402

TARGET_MS = 100.0
timings: dict[str, list[float]] = {}


def timed(name: str, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        result = function(*args, **kwargs)
        timings.setdefault(name, []).append((time.perf_counter() - start) * 1000)
        return result

    return wrapper


def fill(folder: Path, count: int) -> tuple[str, str]:
    """The log of a large tournament; returns its current event's id and a player with many
    records."""
    regulation = load_regulation()
    with LogStore.open(regulation, folder / DATABASE_NAME) as store:
        payload = generated_export(
            regulation, count, "本日の大会", datetime(2026, 11, 28, 10, tzinfo=JST)
        )
        event = store.merge(parse_export(json_bytes(payload), regulation)).event
        store.set_current_event(event.id)
        return event.id, player_name(7)


def warmed_up(shell: shell_module.Shell, timeout_s: float = 10.0) -> None:
    """Waits for the start-up's background thread (search index, the log opened): a judge
    opens the log seconds after the app, not in its first milliseconds."""
    deadline = time.monotonic() + timeout_s
    while shell._index is None or shell.logbook.path not in logbook_module._stores:
        if time.monotonic() > deadline:
            raise RuntimeError("the start-up's background work did not finish")
        time.sleep(0.01)


def one_pass(app: FakeApp, busy_player: str, timed_show) -> None:
    """The judge's round trip: the log, a page more, a record, a player's history, the form
    with a name that has repeats; from the tiers, the log shown from scratch each time."""
    app.page.data.logbook.pages = 1  # as when the log is first opened
    app.route(routes.TIERS.link())

    def show(label: str, route: str) -> None:
        # The fake client keeps every message it received; a real client keeps none. Dropped
        # here so that the garbage collector's pauses are the app's own, not the harness's.
        app.messages.clear()
        timed_show.label = label
        app.route(route)

    show("log screen", routes.LOG.link())
    more = app.find(ft.TextButton, text="さらに表示")
    start = time.perf_counter()
    app.click(more)  # its handler runs inside the app: timed from outside, fake client included
    timings.setdefault(f"show more (next {log_module.PAGE}), fake client included", []).append(
        (time.perf_counter() - start) * 1000
    )
    first = next(t for t in app.find_all(ft.ListTile) if t.on_click is not None)
    timed_show.label = "a record (log beside it on a desktop)"
    app.click(first)
    show("a player's history", routes.LOG_PLAYER.link(busy_player, pid="0000000007"))
    show("record form", routes.LOG_NEW.link(infraction="drew-extra-cards"))
    app.type(app.find(ft.TextField, label="プレイヤー名"), busy_player)
    assert not app.crashes, app.crashes


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=40, help="passes through the screens")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PENALTY_GUIDE_DATA_DIR"] = folder
        _event_id, busy = fill(Path(folder), args.records)
        log_module.log_screen = timed("log screen built", log_module.log_screen)
        log_form.RecordForm._on_name = timed(  # type: ignore[method-assign]
            "name typed in the form (type-ahead, repeat check)", log_form.RecordForm._on_name
        )
        shell = shell_module.Shell
        real_show = shell.show

        class Show:
            label = "other"

            def __call__(self, this: shell_module.Shell, raw_route: str | None) -> None:
                start = time.perf_counter()
                real_show(this, raw_route)
                timings.setdefault(f"{self.label} shown", []).append(
                    (time.perf_counter() - start) * 1000
                )
                self.label = "other"

        timed_show = Show()

        def show(this: shell_module.Shell, raw_route: str | None) -> None:
            timed_show(this, raw_route)

        shell.show = show  # type: ignore[method-assign,assignment]
        print(f"{args.records} records in the current tournament ({PLAYERS} players)")
        for label, width in (("phone 390 px", 390), ("desktop 1280 px", 1280)):
            app = FakeApp.start(app_module.main, prefs={}, locale="ja-JP", width=width, height=800)
            warmed_up(app.page.data)
            one_pass(app, busy, timed_show)  # warm-up: imports, caches
            timings.clear()
            for _ in range(args.runs):
                one_pass(app, busy, timed_show)
            app.stop()
            print(f"{label}: {args.runs} passes in one session, ms: p50, p95, max")
            for name, values in sorted(timings.items()):
                if name.startswith("other"):
                    continue
                note = f"   (aim ≤ {TARGET_MS:g} ms)" if name == "log screen shown" else ""
                print(
                    f"  {name:<52} {percentile(values, 0.5):7.1f} {percentile(values, 0.95):7.1f}"
                    f" {max(values):7.1f}{note}"
                )


if __name__ == "__main__":
    main()
