"""What the order of a mutant's tests costs: replays mutmut's work on the killed mutants of one
function, with the old order (the module's own test files first, then mutmut's) and with
tests/mutation_order.py's (the earlier mutants' killers first, then the module's own tests,
fastest first), and prints the CPU seconds per mutant and the tests run before the kill.

Run after `scripts/mutation.sh` has run the function's mutants (it reads mutants/, the tests
mutmut saw call the function and which mutants they killed):

    nice -n 19 .venv/bin/python bench/bench_mutation_order.py records.identity.x_visible 8

Each mutant's tests run as mutmut runs them (`pytest -x` in mutants/, in a process forked from
one that collected the tests once, like mutmut's fork server; the tests sorted by name), one
after another, from an empty list of killers, so that the new
order learns only what a run would have learnt by then. Surviving mutants are left out: every
one of their tests runs whatever the order.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest
from mutation_replay import MUTANTS, ROOT, exit_codes, tests_of, warm_up

KILLED = {1, 3}
# tests/mutation_order.py before the killers (git show 815e53b~1:tests/mutation_order.py).
OLD_ORDER = """
import os, re, pytest
_MUTANT = re.compile(r"(?P<module>[\\w.]+?)\\.x[_ǁ]")
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    found = _MUTANT.match(os.environ.get("MUTANT_UNDER_TEST", ""))
    if found is None:
        return
    module = found.group("module").rsplit(".", 1)[-1]
    first = (f"test_mutation_{module}.py", f"test_records_{module}.py")
    items.sort(key=lambda item: first.index(item.path.name) if item.path.name in first else 2)
"""


def killed_mutants(function: str) -> list[str]:
    return [name for name, code in exit_codes(function).items() if code in KILLED]


def run(mutant: str, tests: list[str], plugin: str, killers: Path) -> tuple[float, int]:
    """CPU seconds of one pytest run of the mutant's tests, forked from this warmed-up process
    as mutmut's fork server does, and how many tests it ran."""
    config = ["-p", "no:cacheprovider", "-n", "0", "-m", "not browser and not process"]
    args = ["--rootdir=.", "--tb=no", "-x", "-q", "-p", plugin, *config, *tests]
    report = MUTANTS / f".bench-{os.getpid()}.txt"
    pid = os.fork()
    if pid == 0:
        os.environ.update(MUTANT_UNDER_TEST=mutant, MUTATION_KILLERS=str(killers))
        with report.open("w") as out, contextlib.redirect_stdout(out):
            code = pytest.main(args)
        os._exit(int(code))
    _, _, usage = os.wait4(pid, 0)
    text = report.read_text()
    report.unlink()
    counts = re.findall(r"(\d+) (passed|failed)", text)
    return usage.ru_utime + usage.ru_stime, sum(int(n) for n, _ in counts)


def main() -> int:
    function, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8
    tests = tests_of(function)
    mutants = killed_mutants(function)[:count]
    (MUTANTS / "tests" / "_bench_old_order.py").write_text(OLD_ORDER, encoding="utf-8")
    new_order = (ROOT / "tests" / "mutation_order.py").read_text(encoding="utf-8")
    (MUTANTS / "tests" / "_bench_new_order.py").write_text(new_order, encoding="utf-8")
    print(f"{function}: {len(tests)} tests; {len(mutants)} killed mutants replayed")
    warm_up()
    with tempfile.TemporaryDirectory() as folder:
        for label, plugin in (("old", "tests._bench_old_order"), ("new", "tests._bench_new_order")):
            killers = Path(folder) / f"{label}.txt"
            cpu = ran = 0.0
            for mutant in mutants:
                seconds, tests_run = run(mutant, tests, plugin, killers)
                cpu += seconds
                ran += tests_run
            n = len(mutants) or 1
            print(f"{label}: {cpu / n:6.2f} s of CPU and {ran / n:6.1f} tests per mutant")
    return 0


if __name__ == "__main__":
    sys.exit(main())
