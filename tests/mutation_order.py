"""A pytest plugin for mutation testing only (`-p tests.mutation_order` in [tool.mutmut]): it
orders the tests mutmut runs for a mutant so that the one that kills it most likely comes
first (mutmut runs them with `-x`: the first failure decides the mutant, and a mutant of a
function every store test calls would otherwise wait for hundreds of them).

The order, for a mutant of records.sync.hlc.x_stamp_of:
1. the tests that killed an earlier mutant of the same function, those that killed most first
   (mutmut runs a function's mutants one after another, and most of them fall to the same few
   tests), then those that killed a mutant of another function of the module;
2. the module's own tests, tests/test_mutation_<module>.py then tests/test_records_<module>.py
   (conftest.py does the same for the regulation's modules, test_<module>.py);
3. the rest;
each group fastest first, by the times mutmut measured (mutants/mutmut-stats.json).

A quick first pass (`scripts/mutation.sh --quick "records.merge*"`, which sets MUTATION_FIRST_PASS
to the module, or to several separated by commas) runs groups 1 and 2 alone: a mutant they kill is
killed (a test failed), and one that no such test reaches is handed to pytest with no test (exit 5,
mutmut's "no tests", counted alive). What survives the quick pass is not decided: the second pass
(the same pattern without --quick) runs exactly those with the whole selection, as mutmut would
have. A survivor of a store function costs its module's few tests there, not the hundreds of store
tests that reach it, and it can be read, and a test written, before the whole selection runs it
once. The clean run before the mutants (mutmut's check that the tests pass unmutated) is cut to the
same tests.

Outside the quick pass only the order changes: a mutant is killed when any of its tests fails,
whatever the order, and every test builds what it needs (the records tests make their store per
test). The killers are kept in mutants/mutation-killers.txt, one "function<TAB>test" line per kill
(appended, so that mutmut's parallel children can share it; `--fresh` deletes it with the rest of
mutants/).

It also freezes the garbage collector's view of what the fork inherited (pytest_configure)."""

from __future__ import annotations

import gc
import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import Phase, settings

# Two of hypothesis's habits, for mutation runs only:
# - a property's deadline (200 ms per example) is a timing, not an answer: in a fork under
#   `nice -n 19` on a loaded machine an example can take seconds, and hypothesis then fails the
#   test, which would count the mutant as killed. Speed is measured in bench/, never by a test.
# - once a property fails, hypothesis shrinks the failing example, running it again and again
#   for a smaller one: a mutant is killed by the first failure, and nobody reads the example.
#   The same examples are tried (explicit ones, those saved, generated, targeted); only the
#   shrinking is left out.
settings.register_profile(
    "mutation",
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target),
)
settings.load_profile("mutation")

# records.sync.hlc.x_stamp_of__mutmut_3, records.store.xǁLogStoreǁopen__mutmut_1
_MUTANT = re.compile(r"(?P<module>[\w.]+?)\.x[_ǁ].*?(?=__mutmut_\d+$)")
# bench/bench_mutation_order.py replays a run with a file of its own.
KILLERS = os.environ.get("MUTATION_KILLERS", "mutation-killers.txt")
# records.merge: a quick first pass over that module's mutants (scripts/mutation.sh --quick).
FIRST_PASS = "MUTATION_FIRST_PASS"
STATS = "mutmut-stats.json"
# A records module's own tests beyond tests/test_mutation_<module>.py and test_records_<module>.py.
_OWN_TESTS = {
    # the file import (records/exchange.py, the clock in exports) is how a file reaches merge()
    "merge": (
        "test_records_merge_elsewhere.py",
        "test_sync_merge.py",
        "test_records_exchange.py",
        "test_round_clock_store.py",
    ),
    # reading records apart from writing them; the evidence, the times and identity as stored
    "history": (
        "test_mutation_history_reads.py",
        "test_records_store.py",
        "test_record_evidence_sync.py",
        "test_records_invisible.py",
        "test_records_times.py",
    ),
    "players": ("test_records_store.py",),
    "events": ("test_records_store.py",),
    "opening": ("test_records_faults.py", "test_records_schema.py"),
    "exchange": ("test_mutation_exchange_files.py",),  # reading the file, apart from parsing it
    # venue sync: the ledger is what a host's and a joiner's requests read and write
    "ledger": (
        "test_mutation_ledger_pages.py",
        "test_sync_merge.py",
        "test_sync_join.py",
        "test_sync_service.py",
    ),
    # records/sync/items.py: a version's body, checked where a sync page is parsed (protocol)
    "items": (
        "test_mutation_sync_items.py",
        "test_mutation_protocol.py",
        "test_sync_merge.py",
        "test_record_evidence_sync.py",
    ),
    "clock": ("test_round_clock.py",),  # the round clock's own arithmetic
    # records/sync/local.py: every local save writes its version (the store's, the sync's)
    "local": ("test_mutation_sync_local.py", "test_sync_merge.py", "test_sync_clock.py"),
    # the small modules share two files (tests/test_mutation_small.py, _small_sync.py)
    "addresses": ("test_mutation_small_sync.py",),
    "codes": ("test_mutation_small_sync.py",),
    "errors": ("test_mutation_small.py",),
    "export_file": ("test_mutation_small.py",),
    "model": ("test_mutation_small.py",),
    "paths": ("test_mutation_small.py",),
    "state": ("test_mutation_small_sync.py",),
    # records/sync/server.py: the listener request by request, and venue sync's security
    "server": ("test_mutation_server_requests.py", "test_sync_security.py"),
    # the clock's rows share one file; they are stored by the clock's store and merged by file
    # import (merge's tests) and by sync
    "clock_merge": (
        "test_mutation_clock_small.py",
        "test_round_clock_store.py",
        "test_sync_clock.py",
        "test_mutation_merge.py",
    ),
    "clock_tables": (
        "test_mutation_clock_small.py",
        "test_round_clock_store.py",
        "test_sync_clock.py",
        "test_mutation_merge.py",
    ),
    "clock_rows": (
        "test_mutation_clock_small.py",
        "test_round_clock_store.py",
        "test_mutation_exchange.py",
        "test_sync_clock.py",
    ),
    "clock_store": (
        "test_round_clock_store.py",
        "test_round_cli.py",
        "test_mutation_clock_small.py",
        "test_sync_clock.py",
    ),
    # records/sync/clock_items.py: the clock's bodies, checked on a push and merged
    "clock_items": ("test_mutation_sync_local.py", "test_sync_clock.py", "test_sync_merge.py"),
    # the log's command line: what its commands share, then the commands one by one
    "cli": ("test_mutation_cli_commands.py",),
    # records/sync/client.py: a joiner's requests (test_mutation_client.py, a scripted host)
    "client": ("test_sync_join.py",),
    # records/sync/protocol.py: the wire format; its pages apart from its checks
    "protocol": ("test_mutation_protocol_pages.py", "test_sync_security.py"),
    # records/sync/service.py: what the screens and the command line use of venue sync
    "service": ("test_mutation_service_pages.py", "test_sync_service.py"),
    # the command lines of the round clock and of venue sync: their in-process tests
    "cli_round": ("test_round_cli.py",),
    "cli_sync": ("test_sync_cli.py",),
    # the front the screens call: its edges in test_mutation_small.py, then the files that open
    # a LogStore most (its versions, listeners and ledger are reached by the exchange and sync)
    "store": (
        "test_mutation_small.py",
        "test_records_faults.py",
        "test_records_schema.py",
        "test_mutation_events.py",
        "test_mutation_players.py",
        "test_mutation_merge.py",
        "test_records_exchange.py",
    ),
}
_root = Path.cwd()


def _mutant() -> re.Match[str] | None:
    return _MUTANT.match(os.environ.get("MUTANT_UNDER_TEST", ""))


def _killers(root: Path, function: str, module: str) -> tuple[Counter[str], Counter[str]]:
    """How often each test killed a mutant of `function`, and of any function of `module`."""
    own: Counter[str] = Counter()
    near: Counter[str] = Counter()
    try:
        lines = (root / KILLERS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return own, near
    for line in lines:
        killed, _, test = line.partition("\t")
        if killed == function:
            own[test] += 1
        elif killed.startswith(f"{module}.x"):
            near[test] += 1
    return own, near


def _durations(root: Path) -> dict[str, float]:
    try:
        found = json.loads((root / STATS).read_text(encoding="utf-8"))["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return {}
    return found if isinstance(found, dict) else {}


def _own_tests(module: str) -> tuple[str, ...]:
    name = module.rsplit(".", 1)[-1]
    return (f"test_mutation_{name}.py", f"test_records_{name}.py", *_OWN_TESTS.get(name, ()))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    found = _mutant()
    if found is None:  # not a mutant: stats, a clean run, or no mutmut at all
        quick = [module for module in os.environ.get(FIRST_PASS, "").split(",") if module]
        if quick and os.environ.get("MUTANT_UNDER_TEST") == "":  # mutmut's clean run
            _first_pass(config, items, "", quick, clean=True)
        return
    function, module = found.group(0), found.group("module")
    own, near = _killers(config.rootpath, function, module)
    # The regulation's mutants keep conftest.py's order after their killers.
    records = module.startswith("records.")
    durations = _durations(config.rootpath) if records else {}
    first = _own_tests(module)

    def rank(item: pytest.Item) -> tuple[int, int, float]:
        seconds = durations.get(item.nodeid, 0.0)
        if item.nodeid in own:
            return (0, -own[item.nodeid], seconds)
        if item.nodeid in near:
            return (1, -near[item.nodeid], seconds)
        if not records:
            return (2, 0, 0.0)
        return (2 if item.path.name in first else 3, 0, seconds)

    items.sort(key=rank)  # stable: ties keep their order
    if module in os.environ.get(FIRST_PASS, "").split(","):
        _first_pass(config, items, function, [module], clean=False)


def _first_pass(
    config: pytest.Config,
    items: list[pytest.Item],
    function: str,
    modules: list[str],
    *,
    clean: bool,
) -> None:
    """Keep the tests that killed a mutant of `modules` and their own test files, in order.

    With none of them, a mutant is left with no test (pytest's exit 5: not decided, run again
    in the second pass); the clean run keeps every test then (it must pass, not be empty)."""
    wanted: set[str] = set()
    first: set[str] = set()
    for module in modules:
        own, near = _killers(config.rootpath, function, module)
        wanted |= own.keys() | near.keys()
        first.update(_own_tests(module))
    kept = [item for item in items if item.nodeid in wanted or item.path.name in first]
    if clean and not kept:
        return
    keep = {id(item) for item in kept}
    dropped = [item for item in items if id(item) not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def pytest_configure(config: pytest.Config) -> None:
    global _root
    _root = config.rootpath  # a test may change the working folder
    if _mutant() is not None:
        # A mutant's run is a fork of mutmut's fork server, which holds every test module, flet
        # and the regulation: without this, each garbage collection (pytest forces several at
        # its end) walks all of that again, and touches its pages, which the fork then copies.
        # Frozen, they are left out; only what this run makes is collected. bench/
        # bench_mutation_speed.py: 0.36 → 0.22 s of CPU for a mutant killed by its first test.
        gc.freeze()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not report.failed:
        return
    found = _mutant()
    if found is None:
        return
    # One short line in append mode: whole, even beside another child's write.
    with (_root / KILLERS).open("a", encoding="utf-8") as killers:
        killers.write(f"{found.group(0)}\t{report.nodeid}\n")
