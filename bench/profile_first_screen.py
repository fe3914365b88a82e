"""Where the page's time goes between the WebSocket and the first screen, app and hello-world
(served as bench/bench_first_screen.py serves them), each load a fresh context.

`--trace` (the useful one on a shared machine): Chromium's trace of each load, and the
renderer's CPU (thread time of its top-level tasks) from the page asking for its WebSocket to
the first tier card, per thread: the main thread (Dart, the DOM, the accessibility tree), the
thread pool (V8 compiling the wasm's hot functions, the GC), the renderer's worker. Thread
time is what the machine's load stretches least; wall time is printed beside it.

Without it: V8's sampling profile of the same window, by function (self time) and by script
(main.dart.wasm: Dart; skwasm.wasm: Flutter's renderer; the page's JS). The wasm carries no
names, so this tells the parts apart, not the functions.

`--variant NAME:VAR=VALUE` serves the app once more with an environment variable set, for
experiments that read one.

    .venv/bin/python bench/profile_first_screen.py --trace --loads 6
    .venv/bin/python bench/profile_first_screen.py --loads 3 --top 40
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_first_screen as bench

# Marks the WebSocket's opening in the profile: a function of its own, busy for 5 ms so that
# the sampler sees it (the page's and the profile's clocks are matched on it).
ANCHOR_SCRIPT = """
(() => {
  const Socket = window.WebSocket;
  window.WebSocket = function __profileAnchor(...args) {
    const until = performance.now() + 5;
    while (performance.now() < until) {}
    return new Socket(...args);
  };
  window.WebSocket.prototype = Socket.prototype;
})();
"""


def profile_load(browser: object, url: str, target: str) -> tuple[dict, float, float]:
    """One load's profile, the WebSocket's and the first screen's `performance.now()`."""
    context = browser.new_context(  # type: ignore[attr-defined]
        locale="ja-JP", viewport=bench.VIEWPORT, service_workers="block"
    )
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
        page.add_init_script(f"({bench.MARKER_SCRIPT})({json.dumps(target)})")
        page.add_init_script(ANCHOR_SCRIPT)
        page.goto(url, wait_until="commit", timeout=bench.BOOT_TIMEOUT_S * 1000)
        page.wait_for_function(
            "() => window.__firstScreenMs !== null", timeout=bench.BOOT_TIMEOUT_S * 1000
        )
        first, socket = page.evaluate("() => [window.__firstScreenMs, window.__socketMs]")
        profile = cdp.send("Profiler.stop")["profile"]
        return profile, float(socket), float(first)
    finally:
        context.close()


def window_self_times(
    profile: dict, start_ms: float, end_ms: float
) -> dict[tuple[str, str], float]:
    """Self time (ms) per (function, script) of the samples in [start, end] of the page's
    clock (`performance.now()`). The clocks are matched on the anchor's first sample, taken
    as `start_ms`."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent: dict[int, int] = {}
    for node in profile["nodes"]:
        for child in node.get("children", ()):
            parent[child] = node["id"]
    samples = profile["samples"]
    times: list[float] = []
    t = float(profile["startTime"])
    for delta in profile["timeDeltas"]:
        t += delta
        times.append(t / 1000.0)

    def anchored(node_id: int) -> bool:
        while True:
            if nodes[node_id]["callFrame"].get("functionName") == "__profileAnchor":
                return True
            if node_id not in parent:
                return False
            node_id = parent[node_id]

    anchor = next((times[i] for i, node_id in enumerate(samples) if anchored(node_id)), None)
    if anchor is None:  # not sampled (the thread was off its core): the load is left out
        return {}
    shift = anchor - start_ms  # profile ms → page ms
    out: dict[tuple[str, str], float] = collections.defaultdict(float)
    for i, node_id in enumerate(samples):
        at = times[i] - shift
        if not start_ms <= at <= end_ms or i + 1 >= len(times):
            continue
        frame = nodes[node_id]["callFrame"]
        script = frame.get("url", "").rsplit("/", 1)[-1] or "(native)"
        out[(frame.get("functionName") or "(anonymous)", script)] += times[i + 1] - times[i]
    return out


TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "toplevel",
    "blink.user_timing",
    "v8",
    "__metadata",
]


def trace_load(browser: object, url: str, target: str) -> tuple[float, dict[str, float]]:
    """One load traced: the window from the WebSocket to the first screen (ms) and the
    renderer's CPU in it (Chromium's thread time of its top-level tasks), per thread name;
    thread CPU is what the machine's load stretches least."""
    context = browser.new_context(  # type: ignore[attr-defined]
        locale="ja-JP", viewport=bench.VIEWPORT, service_workers="block"
    )
    try:
        page = context.new_page()
        page.add_init_script(f"({bench.MARKER_SCRIPT})({json.dumps(target)})")
        page.add_init_script(MARK_SCRIPT)
        browser.start_tracing(categories=TRACE_CATEGORIES)  # type: ignore[attr-defined]
        page.goto(url, wait_until="commit", timeout=bench.BOOT_TIMEOUT_S * 1000)
        page.wait_for_function(
            "() => window.__firstScreenMs !== null", timeout=bench.BOOT_TIMEOUT_S * 1000
        )
        first, socket = page.evaluate("() => [window.__firstScreenMs, window.__socketMs]")
        events = json.loads(browser.stop_tracing())  # type: ignore[attr-defined]
    finally:
        context.close()
    events = events["traceEvents"] if isinstance(events, dict) else events
    mark = next(e for e in events if e.get("name") == "pg-socket")
    pid = mark["pid"]
    start = float(mark["ts"])
    end = start + (float(first) - float(socket)) * 1000
    names = {
        e["tid"]: e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("pid") == pid
    }
    cpu: dict[str, float] = collections.defaultdict(float)
    covered: dict[int, float] = {}  # per thread: the end of the last top-level task counted
    for e in sorted(
        (e for e in events if e.get("pid") == pid and e.get("ph") == "X" and "tdur" in e),
        key=lambda e: e["ts"],
    ):
        ts, dur = float(e["ts"]), float(e.get("dur", 0))
        if ts < covered.get(e["tid"], -1.0):
            continue  # nested in a task counted already
        covered[e["tid"]] = ts + dur
        overlap = min(ts + dur, end) - max(ts, start)
        if overlap <= 0 or dur <= 0:
            continue
        thread = names.get(e["tid"], str(e["tid"]))
        cpu[thread.rstrip("0123456789/")] += float(e["tdur"]) * overlap / dur / 1000
    return float(first) - float(socket), dict(cpu)


MARK_SCRIPT = """
(() => {
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    performance.mark('pg-socket');
    return new Socket(...args);
  };
  window.WebSocket.prototype = Socket.prototype;
})();
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME:VAR=VALUE",
        help="also the app with an environment variable set (experiments)",
    )
    parser.add_argument(
        "--trace", action="store_true", help="the renderer's thread CPU instead of a profile"
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from regulation.loader import load_regulation

    tier = load_regulation().tiers[0]
    target = f"{tier.letter} {tier.title.ja}"
    variants = {}
    for spec in args.variant:
        name, _, assignment = spec.partition(":")
        key, _, value = assignment.partition("=")
        variants[name] = (key, value)
    ports = {"app": bench.free_port(), "hello": bench.free_port()}
    ports.update((name, bench.free_port()) for name in variants)
    totals: dict[str, dict[tuple[str, str], float]] = {}
    windows: dict[str, list[float]] = {name: [] for name in ports}
    with tempfile.TemporaryDirectory(prefix="profile-first-screen-") as data:
        app = [sys.executable, "main.py", "--web", "--port", str(ports["app"])]
        hello = [sys.executable, bench.hello_main_module(), "--serve-hello", str(ports["hello"])]
        servers = [
            bench.start(app, ports["app"], Path(data) / "app"),
            bench.start(hello, ports["hello"], Path(data) / "hello"),
        ]
        for name, (key, value) in variants.items():
            os.environ[key] = value
            command = [sys.executable, "main.py", "--web", "--port", str(ports[name])]
            servers.append(bench.start(command, ports[name], Path(data) / name))
            del os.environ[key]
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=bench.CHROMIUM, args=bench.CHROMIUM_ARGS
                )
                urls = {name: f"http://127.0.0.1:{port}/" for name, port in ports.items()}
                for url in urls.values():
                    bench.first_screen_ms(browser, url, target)
                traced: dict[str, list[tuple[float, dict[str, float]]]] = {n: [] for n in urls}
                for _ in range(args.loads if args.trace else 0):
                    for name, url in urls.items():
                        traced[name].append(trace_load(browser, url, target))
                        window, cpu = traced[name][-1]
                        print(  # as it goes: a long run on a loaded machine shows its progress
                            f"  {name:9} {window:6.0f} ms, main thread"
                            f" {cpu.get('CrRendererMain', 0.0):4.0f} ms,"
                            f" all threads {sum(cpu.values()):4.0f} ms",
                            flush=True,
                        )
                for _ in range(0 if args.trace else args.loads):
                    for name, url in urls.items():
                        profile, socket, first = profile_load(browser, url, target)
                        windows[name].append(first - socket)
                        summed = totals.setdefault(name, collections.defaultdict(float))
                        for key, ms in window_self_times(profile, socket, first).items():
                            summed[key] += ms
                browser.close()
        finally:
            for process in servers:
                process.terminate()
                process.wait(timeout=10)
    for name, loads in traced.items():
        if not loads:
            continue
        main_cpu = [cpu.get("CrRendererMain", 0.0) for _, cpu in loads]
        all_cpu = [sum(cpu.values()) for _, cpu in loads]
        print(
            f"{name:9} window median {statistics.median(w for w, _ in loads):6.0f} ms   "
            f"renderer main-thread CPU median {statistics.median(main_cpu):5.0f} ms "
            f"({' '.join(f'{v:.0f}' for v in main_cpu)})   all threads "
            f"{statistics.median(all_cpu):5.0f} ms"
        )
        threads = sorted({t for _, cpu in loads for t in cpu})
        per_thread = {t: statistics.median(cpu.get(t, 0.0) for _, cpu in loads) for t in threads}
        print(
            "          "
            + ", ".join(
                f"{t} {ms:.0f}" for t, ms in sorted(per_thread.items(), key=lambda x: -x[1])
            )
        )
    for name, summed in totals.items():
        n = args.loads
        print(
            f"\n== {name}: WebSocket → first screen, median {statistics.median(windows[name]):.0f}"
            f" ms; sampled CPU per load {sum(summed.values()) / n:.0f} ms"
        )
        by_script: dict[str, float] = collections.defaultdict(float)
        for (_, script), ms in summed.items():
            by_script[script] += ms
        for script, ms in sorted(by_script.items(), key=lambda kv: -kv[1])[:8]:
            print(f"  {ms / n:7.1f} ms  {script}")
        print("  -- functions (self) --")
        for (function, script), ms in sorted(summed.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {ms / n:7.1f} ms  {function[:70]}  [{script}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
