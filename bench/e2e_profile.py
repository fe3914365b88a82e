"""Where a browser test's time goes: a pytest plugin that times every Playwright call (and the
app servers' start-up) of each browser test, by kind and by the harness function that made it.

    PYTHONPATH=bench E2E_PROFILE=/tmp/e2e-profile PENALTY_GUIDE_E2E=required \
        .venv/bin/python -m pytest tests/e2e -p e2e_profile
    .venv/bin/python bench/e2e_profile.py /tmp/e2e-profile      # the breakdown

Each worker appends one JSON line per test to <E2E_PROFILE>/<worker>.jsonl: the test's
duration (set-up, call and tear-down) and the seconds spent per category; what no category
holds is Python and pytest (the fixtures' own work, the harness's loops, the checks). Nothing
is changed in what a test does: the calls are wrapped, not replaced.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import FrameType

import pytest

OUT = os.environ.get("E2E_PROFILE", "")
E2E_DIR = f"{os.sep}tests{os.sep}e2e{os.sep}"
# The harness functions a Playwright call is credited to (the innermost one on the stack).
HELPERS = {
    "settle",
    "screenshot",
    "assert_laid_out",
    "layout_faults",
    "type_into",
    "type_in",
    "_enable_semantics",
    "open",
    "reload",
    "confirm",
    "sweep",
    "shot",
    "settled_layout",
}

_spent: dict[str, float] = defaultdict(float)
_calls: dict[str, int] = defaultdict(int)


def _caller() -> str:
    """The two innermost harness helpers on the stack, else the test function (or fixture)."""
    frame: FrameType | None = sys._getframe(2)
    helpers: list[str] = []
    outer = "?"
    while frame is not None:
        code = frame.f_code
        if E2E_DIR in code.co_filename:
            if code.co_name in HELPERS and code.co_name not in helpers:
                helpers.append(code.co_name)
            elif outer == "?":
                outer = "test" if code.co_name.startswith("test_") else code.co_name
        frame = frame.f_back
    return " < ".join(helpers[:2]) if helpers else outer


def _timed(kind: str, by_caller: bool):
    def wrap(method):
        @functools.wraps(method)
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                key = f"{kind} [{_caller()}]" if by_caller else kind
                _spent[key] += time.perf_counter() - start
                _calls[key] += 1

        return timed

    return wrap


def _patch(cls, name: str, kind: str, by_caller: bool = True) -> None:
    setattr(cls, name, _timed(kind, by_caller)(getattr(cls, name)))


def pytest_configure(config: pytest.Config) -> None:
    if not OUT:
        return
    from playwright.sync_api import Browser, BrowserContext, BrowserType, Keyboard, Locator, Page

    _patch(Page, "wait_for_timeout", "fixed wait")
    _patch(Page, "goto", "page load", by_caller=False)
    _patch(Page, "reload", "page load", by_caller=False)
    _patch(Page, "screenshot", "screenshot capture", by_caller=False)
    _patch(Page, "evaluate", "evaluate")
    _patch(Keyboard, "type", "keyboard.type")
    _patch(Keyboard, "press", "keyboard.press", by_caller=False)
    _patch(Locator, "wait_for", "wait for a control")
    _patch(Locator, "click", "click", by_caller=False)
    _patch(Locator, "input_value", "input_value", by_caller=False)
    _patch(Locator, "count", "count", by_caller=False)
    _patch(Locator, "bounding_box", "bounding_box", by_caller=False)
    _patch(BrowserType, "launch", "chromium launch", by_caller=False)
    _patch(Browser, "new_context", "new context", by_caller=False)
    _patch(BrowserContext, "new_page", "new page", by_caller=False)
    _patch(BrowserContext, "close", "context close", by_caller=False)


def pytest_collection_finish(session: pytest.Session) -> None:
    if not OUT:
        return
    for name, module in list(sys.modules.items()):
        if name.endswith("e2e.harness") and hasattr(module, "AppServer"):
            _patch(module.AppServer, "start", "app server start", by_caller=False)
        if name.endswith("e2e.test_sync_browser") and hasattr(module, "start_host"):
            _patch(module, "start_host", "sync host start", by_caller=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    if not OUT or "e2e" not in item.path.parts:
        return (yield)
    _spent.clear()
    _calls.clear()
    start = time.perf_counter()
    result = yield
    total = time.perf_counter() - start
    Path(OUT).mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    line = {"test": item.nodeid, "worker": worker, "total": total, "spent": dict(_spent)}
    line["calls"] = dict(_calls)
    line["start"], line["load"] = start, os.getloadavg()[0]
    with open(Path(OUT) / f"{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return result


def report(folder: Path, top: int = 6) -> None:
    """The breakdown: seconds per category over all browser tests, then the slowest tests."""
    tests = [
        json.loads(line)
        for path in sorted(folder.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    total = sum(t["total"] for t in tests)
    by_kind: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    for t in tests:
        for kind, seconds in t["spent"].items():
            by_kind[kind] += seconds
        for kind, count in t.get("calls", {}).items():
            calls[kind] += count
        by_kind["(the rest: Python, pytest, fixtures)"] += t["total"] - sum(t["spent"].values())
    print(f"{len(tests)} browser test runs, {total:.0f} s in all (summed over workers)")
    for kind, seconds in sorted(by_kind.items(), key=lambda kv: -kv[1]):
        if seconds >= 0.05 * total / 100:
            count = f"{calls[kind]:5d}×" if kind in calls else "      "
            print(f"  {seconds:7.1f} s  {100 * seconds / total:5.1f} %  {count}  {kind}")
    workers: dict[str, float] = defaultdict(float)
    ends: dict[str, float] = defaultdict(float)
    first = min(t["start"] for t in tests)
    for t in tests:
        workers[t["worker"]] += t["total"]
        ends[t["worker"]] = max(ends[t["worker"]], t["start"] + t["total"] - first)
    print(
        "per worker (busy, last browser test done after the first began): "
        + ", ".join(f"{w} {s:.0f} s, {ends[w]:.0f} s" for w, s in sorted(workers.items()))
    )
    print(f"\nthe {top} slowest:")
    for t in sorted(tests, key=lambda t: -t["total"])[:top]:
        print(f"  {t['total']:5.1f} s  {t['test']}  (load {t['load']:.1f})")
        for kind, seconds in sorted(t["spent"].items(), key=lambda kv: -kv[1])[:8]:
            print(f"           {seconds:5.1f} s  {kind}")


if __name__ == "__main__":
    report(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/e2e-profile"))
