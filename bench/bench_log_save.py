"""Saving a record from an infraction's page, in-process over the fake client
(tests/flet_harness.py), on a phone: the save's tap until the app is idle (the record's view, and
the views below it that the change of the records rebuilds, in their own task).

Reported: the CPU of that tap (`time.process_time`, which the machine's load moves far less than
wall time; the fake client's own work included) and the controls it sent to the client (each
new control in the patches: what Flet had to configure, encode and send, and a real client to
build), a count no load moves.   python bench/bench_log_save.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flet as ft  # noqa: E402
from flet.messaging.protocol import MessageAction  # noqa: E402

from tests.flet_harness import FakeApp  # noqa: E402
from views import app as app_module  # noqa: E402
from views import routes  # noqa: E402

INFRACTION = "drew-extra-cards"


def controls_in(value: Any) -> int:
    """Controls (dicts with an id and a Dart type) anywhere in a decoded message body."""
    if isinstance(value, dict):
        own = 1 if "_i" in value and "_c" in value else 0
        return own + sum(controls_in(v) for v in value.values())
    if isinstance(value, list):
        return sum(controls_in(v) for v in value)
    return 0


def one_run() -> tuple[float, int]:
    os.environ["PENALTY_GUIDE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-log-save-")
    app = FakeApp.start(
        app_module.main,
        before_main=app_module.before_main,
        prefs={},
        locale="ja-JP",
        width=390,
        height=844,
    )
    try:
        app.route(routes.INFRACTION.link(INFRACTION))
        app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
        app.type(app.find(ft.TextField, label="プレイヤー名"), "山田太郎")
        save = app.find(ft.FilledButton, text="保存")
        sent = len(app.messages)
        start = time.process_time()
        app.click(save)
        app.settle()  # the views below, in their own task
        cpu = (time.process_time() - start) * 1000
        assert app.client_route.startswith("/log/records/"), app.client_route
        controls = sum(
            controls_in(body)
            for action, body in app.messages[sent:]
            if action == MessageAction.PATCH_CONTROL
        )
        return cpu, controls
    finally:
        app.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    one_run()  # imports, the search index, the log's screens
    runs = [one_run() for _ in range(args.runs)]
    cpus = sorted(cpu for cpu, _ in runs)
    print(
        f"save from an infraction's page, phone, {args.runs} runs: CPU median "
        f"{statistics.median(cpus):.1f} ms (min {cpus[0]:.1f}, max {cpus[-1]:.1f}); "
        f"controls sent {sorted({n for _, n in runs})}; load {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
