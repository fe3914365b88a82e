"""Start-up cost of the data: loading the YAML (regulation and finder tree), the catalog and the
search index, against
`import flet` measured in the same process.

Each run is a fresh interpreter (so imports are cold in the same way for both), with compiled
bytecode as an installed app has it (the script compiles the project first and lets the children
use .pyc files even where PYTHONDONTWRITEBYTECODE is set). It reports medians over the runs:
    python bench/bench_startup.py [--runs 15]
The app loads the data before its first view and builds the search index right after it, in a
background thread (views/shell.py), so the two are reported apart; the same thread then opens the
penalty log (views/logbook.py; here a new, empty one), which nothing before the first view
imports (tests/test_log_screens.py checks that).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the child interpreter: one measurement, printed as JSON.
CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
import flet  # noqa: F401
t1 = time.perf_counter()
from regulation.loader import load_regulation
from regulation.catalog import load_catalog
from regulation.finder import load_finder
t2 = time.perf_counter()
catalog = load_catalog()
regulation = load_regulation(catalog=catalog)
t3 = time.perf_counter()
finder = load_finder(regulation, catalog)
t3f = time.perf_counter()
from regulation.search import SearchIndex
t4 = time.perf_counter()
index = SearchIndex.build(regulation)
t5 = time.perf_counter()
import tempfile
from pathlib import Path
from records.store import LogStore
import records.tiers
t6 = time.perf_counter()
with tempfile.TemporaryDirectory() as folder:
    store = LogStore.open(regulation, Path(folder) / "penalty-log.sqlite3")
    store.current_event()
    t7 = time.perf_counter()
    store.close()
print(json.dumps({{"import_flet": t1 - t0, "import_regulation": t2 - t1,
                   "load_data_and_catalog": t3 - t2, "load_finder": t3f - t3,
                   "import_search": t4 - t3f, "build_search_index": t5 - t4,
                   "import_records": t6 - t5, "open_new_log": t7 - t6}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    code = CHILD.format(root=str(ROOT))
    for package in ("regulation", "records", "views"):
        compileall.compile_dir(ROOT / package, quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
            ).stdout
        )
        for _ in range(args.runs)
    ]
    medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    flet = medians["import_flet"]
    print(f"median of {args.runs} fresh interpreters")
    for key, value in medians.items():
        print(f"  {key:<28} {value * 1000:8.2f} ms")
    before_view = (
        medians["import_regulation"] + medians["load_data_and_catalog"] + medians["load_finder"]
    )
    after_view = medians["import_search"] + medians["build_search_index"]
    log = medians["import_records"] + medians["open_new_log"]
    for label, value in (
        ("before the first view", before_view),
        ("search index (background)", after_view),
        ("penalty log (background)", log),
        ("all data work", before_view + after_view + log),
    ):
        print(f"  {label:<28} {value * 1000:8.2f} ms = {value / flet:.3f} x import flet")
    print("  target: the work before the first view < 0.25 x import flet")


if __name__ == "__main__":
    main()
