"""Where the in-process suite's CPU goes, test by test: a pytest plugin that measures each test's
set-up, call and tear-down in CPU seconds of its worker (`time.process_time`: every thread of
the worker, none of another process), which a shared machine's load moves far less than wall
time, and each worker's start (interpreter, imports, collection) before its first test.

    PYTHONPATH=bench TEST_CPU=/tmp/test-cpu scripts/test.sh -m "not browser and not process" \
        -p test_cpu
    .venv/bin/python bench/test_cpu.py /tmp/test-cpu          # the largest tests and modules

Each worker writes <TEST_CPU>/<worker>.jsonl: one line per test phase, and one for its start.
Nothing a test does is changed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

OUT = os.environ.get("TEST_CPU", "")


def _write(config: pytest.Config, row: dict[str, object]) -> None:
    if not OUT:
        return
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    folder = Path(OUT)
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{worker}.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def pytest_collection_finish(session: pytest.Session) -> None:
    _write(session.config, {"start": time.process_time()})


def _timed(item: pytest.Item, phase: str) -> Iterator[None]:
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        yield
    finally:
        _write(
            item.config,
            {
                "test": item.nodeid,
                "phase": phase,
                "cpu": round(time.process_time() - cpu, 4),
                "wall": round(time.perf_counter() - wall, 4),
            },
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    return (yield from _timed(item, "setup"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    return (yield from _timed(item, "call"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    return (yield from _timed(item, "teardown"))


def report(folder: Path, top: int = 40) -> None:
    by_test: dict[str, float] = defaultdict(float)
    by_phase: dict[str, float] = defaultdict(float)
    by_module: dict[str, float] = defaultdict(float)
    rows: list[tuple[float, float, str, str]] = []
    starts: list[float] = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if "start" in row:
                starts.append(row["start"])
                continue
            by_test[row["test"]] += row["cpu"]
            by_phase[row["phase"]] += row["cpu"]
            by_module[row["test"].split("::")[0]] += row["cpu"]
            rows.append((row["cpu"], row["wall"], row["phase"], row["test"]))
    print(
        f"{len(by_test)} tests, CPU s by phase: "
        + ", ".join(f"{phase} {seconds:.1f}" for phase, seconds in sorted(by_phase.items()))
    )
    print("workers' start (imports, collection), CPU s: " + ", ".join(f"{s:.1f}" for s in starts))
    print(f"\nlargest {top} phases (CPU s, wall s):")
    for cpu, wall, phase, test in sorted(rows, reverse=True)[:top]:
        print(f"{cpu:7.2f} {wall:7.2f} {phase:8} {test}")
    print("\nmodules (CPU s):")
    for module, seconds in sorted(by_module.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{seconds:7.2f} {module}")


if __name__ == "__main__":
    report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 40)
