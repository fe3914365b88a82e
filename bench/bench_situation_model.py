"""Situation model benchmark: the weights' load and check, the model's scoring per query, and
the search with and without it, in wall time and in CPU time (the machine is shared: CPU time
is the query's own cost, wall time includes waiting for a core).

    python bench/bench_situation_model.py [--runs N]

The queries are those of tests/search_queries.yaml and tests/situation_queries.yaml (both
halves: latency only, nothing is looked at but the time). Each query's figure is the median of
REPEATS passes; p50 and p99 are over queries; each figure is the median over runs. Target:
the model's scoring p99 under 1 ms. Nothing is written.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_search import LIMIT, load_queries, percentile  # noqa: E402

from regulation.loader import load_regulation  # noqa: E402
from regulation.search import SearchIndex  # noqa: E402
from regulation.situation_model import (  # noqa: E402
    MODEL_PATH,
    read_situation_model,
    verify_situation_model,
)

REPEATS = 5
TARGET_MODEL_P99_MS = 1.0


def per_query(
    action: Callable[[str], object], queries: list[str]
) -> tuple[list[float], list[float]]:
    """Each query's median wall and CPU milliseconds over REPEATS passes."""
    walls: list[list[float]] = []
    cpus: list[list[float]] = []
    for _ in range(REPEATS):
        wall_pass, cpu_pass = [], []
        for query in queries:
            wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
            action(query)
            cpu_pass.append((time.thread_time_ns() - cpu) / 1e6)
            wall_pass.append((time.perf_counter_ns() - wall) / 1e6)
        walls.append(wall_pass)
        cpus.append(cpu_pass)
    median = statistics.median
    return (
        [median(times) for times in zip(*walls, strict=True)],
        [median(times) for times in zip(*cpus, strict=True)],
    )


def once(action: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
    action()
    return (time.perf_counter_ns() - wall) / 1e6, (time.thread_time_ns() - cpu) / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs to take the median of")
    args = parser.parse_args(argv)
    regulation = load_regulation()
    entry_ids = [entry.id for entry in regulation.entries()]
    queries = load_queries()
    model = read_situation_model(MODEL_PATH)
    words = SearchIndex.build(regulation, model=False)
    blended = SearchIndex.build(regulation, model=model)
    rows: dict[str, list[tuple[float, ...]]] = {}
    for _ in range(args.runs):
        rows.setdefault("verify (start-up)", []).append(
            once(lambda: verify_situation_model(entry_ids))
        )
        rows.setdefault("read weights", []).append(once(lambda: read_situation_model(MODEL_PATH)))
        rows.setdefault("index build, words", []).append(
            once(lambda: SearchIndex.build(regulation, model=False))
        )
        rows.setdefault("index build, model", []).append(
            once(lambda: SearchIndex.build(regulation, model=model))
        )
        for name, action in (
            ("model scoring", model.probabilities),
            ("search, words", lambda q: words.search(q, limit=LIMIT)),
            ("search, words + model", lambda q: blended.search(q, limit=LIMIT)),
        ):
            wall, cpu = per_query(action, queries)
            rows.setdefault(name, []).append(
                (
                    percentile(wall, 0.5),
                    percentile(wall, 0.99),
                    percentile(cpu, 0.5),
                    percentile(cpu, 0.99),
                )
            )
    size = MODEL_PATH.stat().st_size
    print(f"{len(queries)} queries, weights {size:,} bytes, median of {args.runs} runs, ms\n")
    print(f"{'':<24}{'wall p50':>9}{'wall p99':>9}{'CPU p50':>9}{'CPU p99':>9}")
    met = True
    for name, figures in rows.items():
        medians = [statistics.median(column) for column in zip(*figures, strict=True)]
        if len(medians) == 2:  # a one-off cost: wall, CPU
            print(f"{name:<24}{medians[0]:>9.2f}{'':>9}{medians[1]:>9.2f}")
            continue
        print(f"{name:<24}" + "".join(f"{value:>9.3f}" for value in medians))
        if name == "model scoring":
            met = medians[3] <= TARGET_MODEL_P99_MS
    print(f"\nmodel scoring CPU p99 <= {TARGET_MODEL_P99_MS:g} ms: {'ok' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
