"""The first screen in Chromium: the app against a hello-world Flet app with the same font.

Both are served the same way (views/server.py: Flet's web server on 127.0.0.1, the web client
from the package, no CDN, the bundled IPAexGothic as the theme's font, set before the first
state reaches the client: views/app.py first_look; not the app's services, which the
hello-world has no use for). The hello-world's `main` adds one line of text, the first tier's
label; the app's first screen is the tier list. Loads alternate (app, hello, app, hello, …),
each in a fresh browser context (no cache, no stored settings: a first start).

Measured: from navigation start (the page's `performance.timeOrigin`) to the first frame that
shows the first tier card ("A 注意"). Flutter draws on a canvas; the signal is its
accessibility tree, which Flutter updates in the same frame it paints: a script installed
before the page loads turns the tree on as soon as Flutter offers it (the hidden placeholder
button) and notes `performance.now()` when a node with the label appears (MutationObserver).
The same script runs on both pages, so both pay the same for the tree. It also notes when
the page asks for the session's WebSocket (Flutter has booted): the time from there to the
first screen is the part the app decides, printed beside the totals, which the boot's noise
(the wasm and the 6 MB font on a loaded machine) dominates.

    .venv/bin/python bench/bench_first_screen.py     # 3 runs of 9 loads each (~2-3 min quiet)
    .venv/bin/python bench/bench_first_screen.py --runs 1 --loads 15
    .venv/bin/python bench/bench_first_screen.py --against ../main   # + another checkout

With --against, a third server runs the other checkout's app (its own main.py, with this
venv) and the three are loaded in turn (rotated each round), so a change is compared with
the code before it under the same load; its ratio to the same hello-world is printed too.

The machine's load moves both numbers; the ratio of medians over alternating loads is the
figure (docs/performance.md). Each run prints its ratio of medians and, as its spread, the
ratios of the loads of one round (which met the same load): their median, quartiles and range.
The runs follow one another on the same servers and browser; the last line gives the ratio over
all loads and each run's, so that one lucky run is not mistaken for the figure.
Needs /usr/bin/chromium and playwright (the test extra).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("PENALTY_GUIDE_CHROMIUM", "/usr/bin/chromium")
# Offline like a venue, without intercepting each request (that would slow both pages down):
# every host name fails to resolve (Flet's client asks a CDN for one script, which then fails).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
VIEWPORT = {"width": 390, "height": 844}  # a phone
BOOT_TIMEOUT_S = 60.0

# Turns the accessibility tree on when Flutter offers it and notes when `target` first shows.
MARKER_SCRIPT = """
(target) => {
  window.__firstScreenMs = null;
  window.__placeholderMs = null;  // Flutter's engine is up and offers the tree
  window.__socketMs = null;  // the session's WebSocket asked for: Flutter has booted
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    if (window.__socketMs === null) window.__socketMs = performance.now();
    return new Socket(...args);
  };
  window.WebSocket.prototype = Socket.prototype;
  const labelled = (node) =>
    (node.getAttribute && (node.getAttribute('aria-label') || '').startsWith(target)) ||
    (node.textContent || '').startsWith(target);
  const check = () => {
    if (window.__firstScreenMs !== null) return;
    const placeholder = document.querySelector('flt-semantics-placeholder');
    if (placeholder && window.__placeholderMs === null) window.__placeholderMs = performance.now();
    if (placeholder && !document.querySelector('flt-semantics[role], flt-semantics [role]')) {
      placeholder.click();
    }
    for (const node of document.querySelectorAll('flt-semantics, flt-semantics *')) {
      if (labelled(node)) {
        window.__firstScreenMs = performance.now();
        return;
      }
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
}
"""


def hello_main_module() -> str:
    """The hello-world server: this file run with --serve-hello PORT."""
    return str(Path(__file__).resolve())


def serve_hello(port: int) -> None:
    """A hello-world Flet app served like the app (same server code, the same look before the
    first state)."""
    import flet as ft
    import flet_web.fastapi as flet_fastapi

    from regulation.loader import load_regulation
    from regulation.paths import ASSETS_DIR
    from views import server
    from views.app import first_look

    tier = load_regulation().tiers[0]
    label = f"{tier.letter} {tier.title.ja}"

    def main(page: ft.Page) -> None:
        page.add(ft.Text(label, size=20))

    listener = server.listen(port)
    app = flet_fastapi.app(main, before_main=first_look, assets_dir=str(ASSETS_DIR), no_cdn=True)
    server.serve(server.OwnSiteOnly(app, server.own_origins(port)), listener)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(
    command: list[str], port: int, data_dir: Path, cwd: Path = ROOT
) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLET_")}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["FLET_DISPLAY_URL_PREFIX"] = "App URL:"
    env["PENALTY_GUIDE_DATA_DIR"] = str(data_dir)
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + BOOT_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{command} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{command} did not serve on port {port}")


def first_screen_ms(browser: object, url: str, target: str) -> tuple[float, float]:
    """From navigation start to the first screen, and from the WebSocket to it (the part
    after Flutter's boot, which the app decides)."""
    context = browser.new_context(  # type: ignore[attr-defined]
        locale="ja-JP", viewport=VIEWPORT, service_workers="block"
    )
    try:
        page = context.new_page()
        page.add_init_script(f"({MARKER_SCRIPT})({json.dumps(target)})")
        page.goto(url, wait_until="commit", timeout=BOOT_TIMEOUT_S * 1000)
        page.wait_for_function(
            "() => window.__firstScreenMs !== null", timeout=BOOT_TIMEOUT_S * 1000
        )
        first, socket = page.evaluate("() => [window.__firstScreenMs, window.__socketMs]")
        return float(first), float(first) - float(socket)
    finally:
        context.close()


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """The lower quartile, the median and the upper quartile."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    low, middle, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, middle, high


def measure(
    browser: object, urls: dict[str, str], target: str, loads: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """`loads` rounds, each loading every page once in turn (rotated each round): per page, the
    totals and the times from the WebSocket, in round order."""
    times: dict[str, list[float]] = {name: [] for name in urls}
    after_socket: dict[str, list[float]] = {name: [] for name in urls}
    names = list(urls)
    for i in range(loads):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            total, after = first_screen_ms(browser, urls[name], target)
            times[name].append(total)
            after_socket[name].append(after)
    return times, after_socket


def report_run(
    run: int, times: dict[str, list[float]], after_socket: dict[str, list[float]]
) -> dict[str, float]:
    """One run's lines; returns its ratio of medians per page (against the hello-world)."""
    print(f"run {run}  (load average {os.getloadavg()[0]:.1f})")
    for name, values in times.items():
        print(
            f"  {name:5}  median {statistics.median(values):6.0f} ms"
            f"   from the WebSocket {statistics.median(after_socket[name]):5.0f} ms   "
            + " ".join(f"{v:.0f}" for v in values)
        )
    hello = statistics.median(times["hello"])
    ratios: dict[str, float] = {}
    for name in (name for name in times if name != "hello"):
        ratios[name] = statistics.median(times[name]) / hello
        # The same round's loads met the same load: their ratios show the spread.
        paired = [a / h for a, h in zip(times[name], times["hello"], strict=True)]
        low, middle, high = quartiles(paired)
        print(
            f"  ratio  {name} / hello-world {ratios[name]:.2f}× (medians);"
            f" round by round median {middle:.2f}×, quartiles {low:.2f}–{high:.2f}×,"
            f" range {min(paired):.2f}–{max(paired):.2f}×"
        )
    return ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=9, help="loads of each per run (default 9)")
    parser.add_argument("--runs", type=int, default=3, help="runs, one after another (default 3)")
    parser.add_argument("--against", type=Path, help="another checkout's app, loaded in turn")
    parser.add_argument("--serve-hello", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_hello:
        serve_hello(args.serve_hello)
        return 0

    from playwright.sync_api import sync_playwright

    from regulation.loader import load_regulation

    tier = load_regulation().tiers[0]
    target = f"{tier.letter} {tier.title.ja}"
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the start")
    ports = {"app": free_port(), "hello": free_port()}
    if args.against:
        ports["base"] = free_port()
    runs: list[dict[str, float]] = []
    pooled: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-first-screen-") as data:
        app = [sys.executable, "main.py", "--web", "--port"]
        servers = [
            start([*app, str(ports["app"])], ports["app"], Path(data) / "app"),
            start(
                [sys.executable, hello_main_module(), "--serve-hello", str(ports["hello"])],
                ports["hello"],
                Path(data) / "hello",
            ),
        ]
        if args.against:
            base = [sys.executable, str(args.against.resolve() / "main.py"), "--web", "--port"]
            servers.append(
                start([*base, str(ports["base"])], ports["base"], Path(data) / "base", args.against)
            )
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                urls = {name: f"http://127.0.0.1:{port}/" for name, port in ports.items()}
                for url in urls.values():  # warm-up: the servers' first sessions
                    first_screen_ms(browser, url, target)
                for run in range(1, args.runs + 1):
                    times, after_socket = measure(browser, urls, target, args.loads)
                    runs.append(report_run(run, times, after_socket))
                    for name, values in times.items():
                        pooled.setdefault(name, []).extend(values)
                browser.close()
        finally:
            for process in servers:
                process.terminate()
                process.wait(timeout=10)
    hello = statistics.median(pooled["hello"])
    for name in runs[0]:
        per_run = [ratios[name] for ratios in runs]
        print(
            f"{name} / hello-world: {statistics.median(pooled[name]) / hello:.2f}× over all"
            f" {len(pooled[name])} loads (medians {statistics.median(pooled[name]):.0f} /"
            f" {hello:.0f} ms); the runs: {', '.join(f'{r:.2f}×' for r in per_run)}"
        )
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
