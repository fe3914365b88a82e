"""Start-up cost of the data: loading the YAML, the catalog and the search index, against
`import flet` measured in the same process.

Each run is a fresh interpreter (so imports are cold in the same way for both), and the script
reports medians over the runs:  python bench/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import json
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
t2 = time.perf_counter()
catalog = load_catalog()
regulation = load_regulation(catalog=catalog)
t3 = time.perf_counter()
from regulation.search import SearchIndex
index = SearchIndex.build(regulation)
t4 = time.perf_counter()
print(json.dumps({{"import_flet": t1 - t0, "import_regulation": t2 - t1,
                   "load_data_and_catalog": t3 - t2, "build_search_index": t4 - t3}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    code = CHILD.format(root=str(ROOT))
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(args.runs)
    ]
    medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    ours = (
        medians["import_regulation"]
        + medians["load_data_and_catalog"]
        + medians["build_search_index"]
    )
    print(f"median of {args.runs} fresh interpreters")
    for key, value in medians.items():
        print(f"  {key:<24} {value * 1000:8.2f} ms")
    print(f"  {'data total':<24} {ours * 1000:8.2f} ms")
    print(f"  ratio data / import flet   {ours / medians['import_flet']:.3f}  (target < 0.25)")


if __name__ == "__main__":
    main()
