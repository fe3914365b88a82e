"""What one mutant of records/ costs in wall time, and where the temporary folder puts it: replays
mutmut's work on some mutants (each in a process forked from one that collected the tests once,
like mutmut's fork server; `pytest -x` over the tests mutmut saw reach the function, ordered by
tests/mutation_order.py) twice, in turn: with the tests' temporary folders (every test's
LogStore) on the disk, and on tmpfs (/dev/shm), as scripts/mutation.sh now runs them.

A store commits with `PRAGMA synchronous = FULL` (records/opening.py): on the disk every commit
waits for an fsync, on tmpfs an fsync returns at once. The code and the tests are the same in
both arms; only where the files live changes.

    nice -n 19 .venv/bin/python bench/bench_mutation_speed.py records.schema.x_is_foreign 6

Run after `scripts/mutation.sh` has collected its statistics (it reads mutants/). Prints, per
arm, the wall and CPU seconds per mutant, the tests run, and mutants a minute (one child).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import pytest
from mutation_replay import MUTANTS, exit_codes, tests_of, warm_up

ARMS = {"disk": Path(tempfile.gettempdir()), "tmpfs": Path("/dev/shm")}


def mutants_of(function: str, count: int) -> list[str]:
    return list(exit_codes(function))[:count]


def run(
    mutant: str, tests: list[str], folder: Path, killers: Path
) -> tuple[float, float, int, int, str]:
    """Wall and CPU seconds of one forked pytest run of the mutant's tests, the tests it ran,
    its exit code (1: killed, 0: survived) and the test that failed."""
    args = [
        "--rootdir=.",
        "--tb=no",
        "-x",
        "-q",
        "-rf",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-p",
        "tests.mutation_order",
        "-n",
        "0",
        "-m",
        "not browser and not process",
        *tests,
    ]
    report = MUTANTS / f".bench-{os.getpid()}.txt"
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.environ.update(MUTANT_UNDER_TEST=mutant, MUTATION_KILLERS=str(killers))
        os.environ["TMPDIR"] = str(folder)
        tempfile.tempdir = str(folder)  # gettempdir() was cached by the warm-up
        with report.open("w") as out, contextlib.redirect_stdout(out):
            code = pytest.main(args)
        os._exit(int(code))
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    text = report.read_text()
    report.unlink()
    ran = sum(int(n) for n, _ in re.findall(r"(\d+) (passed|failed)", text))
    failed = re.search(r"^FAILED (\S+)", text, re.MULTILINE)
    code = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, ran, code, failed.group(1) if failed else ""


def main() -> int:
    function, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 6
    tests = tests_of(function)
    mutants = mutants_of(function, count)
    print(f"{function}: {len(tests)} tests; {len(mutants)} mutants, load {os.getloadavg()[0]:.1f}")
    warm_up()
    totals = {arm: [0.0, 0.0, 0.0] for arm in ARMS}
    with tempfile.TemporaryDirectory() as scratch:
        for mutant in mutants:
            for arm, base in ARMS.items():  # in turn, so that the load falls on both arms
                with tempfile.TemporaryDirectory(dir=base) as folder:
                    killers = Path(scratch) / f"{arm}.txt"
                    wall, cpu, ran, code, failed = run(mutant, tests, Path(folder), killers)
                print(
                    f"  {mutant:50} {arm:5} {wall:7.2f} s wall {cpu:6.2f} s CPU {ran:4} tests"
                    f" exit {code} {failed}"
                )
                totals[arm][0] += wall
                totals[arm][1] += cpu
                totals[arm][2] += ran
    n = len(mutants) or 1
    for arm, (walls, cpus, tests_run) in totals.items():
        print(
            f"{arm:5}: {walls / n:6.2f} s wall, {cpus / n:5.2f} s CPU,"
            f" {tests_run / n:5.1f} tests per mutant;"
            f" {60 * n / walls if walls else 0:5.1f} mutants a minute"
        )
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
