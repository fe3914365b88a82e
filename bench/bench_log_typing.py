"""Typing a player's name in the record form, in-process over the fake client
(tests/flet_harness.py), on a phone: each change of the name field until the app is idle.
Two forms: opened from an infraction's page (the infraction shown) and from the log's "new
record" (the infraction picker shown), in a tournament holding records of that player, so the
names that match, the player's records and the repeat notice all follow the typing.

Reported: the CPU of each change (`time.process_time`, which the machine's load moves far less
than wall time; the fake client's own work included) and the controls it sent to the client
(each control in the patches), a count no load moves.
    python bench/bench_log_typing.py [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flet as ft  # noqa: E402
from bench_log_save import controls_in  # noqa: E402
from flet.messaging.protocol import MessageAction  # noqa: E402

from tests.flet_harness import FakeApp  # noqa: E402
from views import app as app_module  # noqa: E402
from views import routes  # noqa: E402

INFRACTION = "drew-extra-cards"
NAME = "山田太郎"


def name_field(app: FakeApp) -> ft.TextField:
    return app.find(ft.TextField, label="プレイヤー名")


def one_run() -> dict[str, tuple[float, int]]:
    os.environ["PENALTY_GUIDE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-log-typing-")
    app = FakeApp.start(
        app_module.main, before_main=app_module.before_main, prefs={}, locale="ja-JP"
    )
    try:
        for _ in range(2):  # the player's earlier records: the repeat notice and history show
            app.route(routes.INFRACTION.link(INFRACTION))
            app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
            app.type(name_field(app), NAME)
            app.click(app.find(ft.FilledButton, text="保存"))
            app.settle()
        found: dict[str, tuple[float, int]] = {}
        for form, route in (
            ("from an infraction", None),
            ("from the log (picker)", routes.LOG_NEW.link()),
        ):
            if route is None:
                app.route(routes.INFRACTION.link(INFRACTION))
                app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
            else:
                app.route(route)
            cpu, controls = 0.0, 0
            for length in range(1, len(NAME) + 1):  # a key at a time, as a judge types
                sent = len(app.messages)
                start = time.process_time()
                app.type(name_field(app), NAME[:length])
                cpu += time.process_time() - start
                controls += sum(
                    controls_in(body)
                    for action, body in app.messages[sent:]
                    if action == MessageAction.PATCH_CONTROL
                )
            assert app.has_text(re.compile("この大会での記録")), "no records of the player"
            found[form] = (cpu * 1000 / len(NAME), controls // len(NAME))
        return found
    finally:
        app.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    one_run()  # imports, the search index, the log's screens
    runs = [one_run() for _ in range(args.runs)]
    for form in runs[0]:
        cpus = sorted(run[form][0] for run in runs)
        print(
            f"a key typed in the name, form {form}, {args.runs} runs: CPU median "
            f"{statistics.median(cpus):.1f} ms (min {cpus[0]:.1f}, max {cpus[-1]:.1f}); "
            f"controls sent a key {sorted({run[form][1] for run in runs})}; "
            f"load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
