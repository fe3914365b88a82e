"""What one mutant of records/ costs in wall time, and what the temporary folder and the quick
first pass save: replays mutmut's work on some mutants (each in a process forked from one that
collected the tests once, like mutmut's fork server; `pytest -x` over the tests mutmut saw reach
the function, ordered by tests/mutation_order.py) in two or more arms, in turn on each mutant:

- `disk`: the tests' temporary folders (every test's LogStore) on the disk;
- `tmpfs`: on /dev/shm, as tests/conftest.py puts them (a store commits with `PRAGMA
  synchronous = FULL`: on the disk every commit waits for an fsync, on tmpfs it returns at once);
- `quick`: on /dev/shm, and only the module's own tests and its earlier killers
  (`scripts/mutation.sh --quick`, MUTATION_FIRST_PASS in tests/mutation_order.py).

The code and the tests are the same in every arm. Each arm learns its own killers from nothing.

    nice -n 19 .venv/bin/python bench/bench_mutation_speed.py records.schema.x_is_foreign 6
    nice -n 19 .venv/bin/python bench/bench_mutation_speed.py records.validate.x_aware 8 tmpfs,quick

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

# arm → where the temporary folders are, and whether it is the quick first pass
ARMS = {
    "disk": (Path(tempfile.gettempdir()), False),
    "tmpfs": (Path("/dev/shm"), False),
    "quick": (Path("/dev/shm"), True),
}


def mutants_of(function: str, count: int) -> list[str]:
    return list(exit_codes(function))[:count]


def run(
    mutant: str, tests: list[str], folder: Path, killers: Path, quick: bool
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
        if quick:
            os.environ["MUTATION_FIRST_PASS"] = mutant.split(".x", 1)[0]
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
    arms = {
        arm: ARMS[arm] for arm in (sys.argv[3] if len(sys.argv) > 3 else "disk,tmpfs").split(",")
    }
    tests = tests_of(function)
    mutants = mutants_of(function, count)
    print(f"{function}: {len(tests)} tests; {len(mutants)} mutants, load {os.getloadavg()[0]:.1f}")
    warm_up()
    totals = {arm: [0.0, 0.0, 0.0] for arm in arms}
    with tempfile.TemporaryDirectory() as scratch:
        for mutant in mutants:
            for arm, (base, quick) in arms.items():  # in turn, so that the load falls on both arms
                with tempfile.TemporaryDirectory(dir=base) as folder:
                    killers = Path(scratch) / f"{arm}.txt"
                    wall, cpu, ran, code, failed = run(mutant, tests, Path(folder), killers, quick)
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
