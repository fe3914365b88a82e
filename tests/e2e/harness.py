"""What the browser tests share: the app server, the network recorder, the fallback-font
detector and a thin driver for a Flutter web page.

Nothing here knows pytest; conftest.py turns these into fixtures.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .layout import ClientErrors, Traffic, settled_layout

if TYPE_CHECKING:  # playwright is imported lazily: the tests skip cleanly without it
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Request, WebSocket

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("PENALTY_GUIDE_CHROMIUM", "/usr/bin/chromium")  # Debian's
# --liftoff-only: V8 compiles the Flutter client's WebAssembly with its baseline compiler only, not
# again with its optimising one: a third less browser CPU per test here, the same behaviour.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--js-flags=--liftoff-only",
]
# CI sets PENALTY_GUIDE_E2E=required: there a missing or broken browser fails the run.
E2E_REQUIRED = os.environ.get("PENALTY_GUIDE_E2E", "").strip().lower() == "required"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"

# Window sizes of the scenarios: a phone in portrait, a laptop window.
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}

BOOT_TIMEOUT_MS = 45_000  # Flutter boot: 3-10 s here, more on a loaded CI machine
STEP_TIMEOUT_MS = 15_000  # one interaction: a tap and the screen it leads to
SERVER_TIMEOUT_S = 60.0


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None (launching is tried later)."""
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


# -- the network ----------------------------------------------------------------------------

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
# URLs that never reach a network: the page's own inline data.
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "devtools"}


def is_loopback(url: str) -> bool:
    """True for a URL that stays on this machine (127.0.0.1 / localhost) or never leaves
    the page (data:, blob:, about:)."""
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return (parts.hostname or "") in LOOPBACK_HOSTS


# Flet 1.0.5's web client asks for the Rive runtime from a CDN whatever the app does; the
# request fails harmlessly offline (seen here; the team's notes on Flet 1.0.5 say so too).
# Nothing else may leave.
KNOWN_EXTERNAL = (re.compile(r"^https://cdn\.jsdelivr\.net/npm/@rive-app/.+/rive_native\.js$"),)


def is_known_external(url: str) -> bool:
    return any(pattern.match(url) for pattern in KNOWN_EXTERNAL)


# Flutter web asks for a Noto (or Roboto) fallback font when text holds a character that
# none of the loaded fonts covers. With Flet's no_cdn these requests go to local paths such
# as /assets/fonts/notosansjp/v53/<hash>.116.woff2 (404 here); otherwise to
# fonts.gstatic.com. Flet's own /assets/fonts/roboto.woff2 (its default font, listed in
# FontManifest.json) is not a fallback: fallback fonts live in a <family>/v<N>/ directory.
FALLBACK_FONT_PATH = re.compile(r"/fonts/[a-z0-9]+/v\d+/[^/]+\.(?:woff2?|ttf|otf)$", re.I)
FALLBACK_FONT_HOSTS = {"fonts.gstatic.com", "fonts.googleapis.com"}


def is_fallback_font(url: str) -> bool:
    parts = urlsplit(url)
    return (parts.hostname or "") in FALLBACK_FONT_HOSTS or bool(
        FALLBACK_FONT_PATH.search(parts.path)
    )


def fallback_font_requests(urls: Iterable[str]) -> list[str]:
    """The fallback-font detector: every URL that is Flutter asking for a fallback font, i.e.
    proof that some glyph did not come from the bundled font."""
    return sorted({url for url in urls if is_fallback_font(url)})


class DeadProxy:
    """A loopback port that refuses every connection: the proxy of every test context, so
    that a non-loopback request or WebSocket fails inside Chromium, before it leaves the
    machine. The socket is bound and never listens (a connection gets a reset at once); it is
    held for the life of the process, so no other server can take the port."""

    def __init__(self) -> None:
        self._socket: socket.socket | None = None

    @property
    def server(self) -> str:
        if self._socket is None:
            self._socket = socket.socket()
            self._socket.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}"


DEAD_PROXY = DeadProxy()


def offline_proxy() -> dict[str, str]:
    """A context's proxy settings that leave only loopback: every other request and WebSocket
    goes to DEAD_PROXY, which refuses it."""
    return {"server": DEAD_PROXY.server, "bypass": ",".join(sorted(LOOPBACK_HOSTS | {"[::1]"}))}


def offline_context(browser: Browser, **options: object) -> BrowserContext:
    """A browser context whose only way out is loopback (offline_proxy). Unlike a Playwright
    route, this pauses no request on its way (a route sends each of a Flutter page's requests
    through the test's Python, and turns the HTTP cache off)."""
    return browser.new_context(service_workers="block", proxy=offline_proxy(), **options)  # type: ignore[arg-type]


@dataclass
class NetworkLog:
    """Everything a browser context asked for, from Chromium's own network events. In an
    `offline_context` a non-loopback request or WebSocket fails before it leaves the machine;
    each one that failed is recorded in `blocked` as well."""

    requests: list[str] = field(default_factory=list)  # every request the pages made
    blocked: list[str] = field(default_factory=list)  # non-loopback, failed (refused)
    why: dict[str, str] = field(default_factory=dict)  # a blocked request's error, by URL
    websockets: list[str] = field(default_factory=list)  # every WebSocket opened

    def attach(self, context: BrowserContext) -> None:
        context.on("request", self._on_request)
        context.on("requestfailed", self._on_request_failed)
        context.on("page", self._watch_page)
        for page in context.pages:
            self._watch_page(page)

    def _on_request(self, request: Request) -> None:
        self.requests.append(request.url)

    def _on_request_failed(self, request: Request) -> None:
        if not is_loopback(request.url):
            self.blocked.append(request.url)
            self.why[request.url] = request.failure or ""

    def _watch_page(self, page: Page) -> None:
        page.on("websocket", self._on_websocket)

    def _on_websocket(self, ws: WebSocket) -> None:
        self.websockets.append(ws.url)
        if not is_loopback(ws.url):
            ws.on("socketerror", lambda _error: self._websocket_failed(ws.url))
            ws.on("close", lambda _ws: self._websocket_failed(ws.url))

    def _websocket_failed(self, url: str) -> None:
        if url not in self.blocked:
            self.blocked.append(url)

    def all_urls(self) -> list[str]:
        return [*self.requests, *self.blocked, *self.websockets]

    def external(self) -> list[str]:
        """Every non-loopback URL attempted, known or not."""
        return sorted({url for url in self.all_urls() if not is_loopback(url)})

    def unexpected_external(self) -> list[str]:
        return [url for url in self.external() if not is_known_external(url)]

    def fallback_fonts(self) -> list[str]:
        return fallback_font_requests(self.all_urls())


def offline_problems(log: NetworkLog) -> list[str]:
    """What breaks the offline promise in `log`, as readable lines (empty when all is well)."""
    problems = [f"external request: {url}" for url in log.unexpected_external()]
    problems += [
        f"fallback font requested (a glyph missing from the bundled font): {url}"
        for url in log.fallback_fonts()
    ]
    return problems


# -- the app server -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_environment() -> dict[str, str]:
    """The server's environment: no display (flet then serves the web client without trying
    to open a browser), and no FLET_* setting of the caller that would move the port or the
    assets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLET_")}
    for key in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(key, None)
    # With a display prefix set flet prints the URL instead of opening a browser (WSL has
    # no DISPLAY check), and the line doubles as a start-up message in the log.
    env["FLET_DISPLAY_URL_PREFIX"] = "App URL:"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class AppServer:
    """`python main.py --web --port N` in `root` (or another `script` taking the same
    arguments), its output in a log file; `extra_env` adds to or overrides its environment (a
    data folder of its own: PENALTY_GUIDE_DATA_DIR)."""

    def __init__(
        self,
        root: Path,
        log_path: Path,
        port: int | None = None,
        extra_env: dict[str, str] | None = None,
        *,
        script: str = "main.py",
    ) -> None:
        self.root = root
        self.port = port or free_port()
        self.log_path = log_path
        self.extra_env = extra_env or {}  # on top of server_environment() (a data folder, …)
        self.script = script
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def start(self, timeout: float = SERVER_TIMEOUT_S) -> AppServer:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, self.script, "--web", "--port", str(self.port)],
                cwd=self.root,
                env={**server_environment(), **self.extra_env},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends all of it
            )
        self._wait_until_serving(timeout)
        return self

    def _wait_until_serving(self, timeout: float) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the app server exited with {self.process.returncode} before serving:\n"
                    + self.log()
                )
            try:
                with urllib.request.urlopen(self.base_url + "/", timeout=2) as response:
                    if response.status == 200 and b"flutter" in response.read().lower():
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(
            f"the app server did not serve {self.base_url} in {timeout:.0f} s:\n{self.log()}"
        )

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "*.pyc",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "build",
    "screenshots",
    "*.egg-info",
    "bench",
)


def copy_repo(destination: Path, without: Iterable[str] = ()) -> Path:
    """A scratch copy of the repository (sources and assets only), minus `without` (paths
    relative to the root)."""
    shutil.copytree(REPO_ROOT, destination, ignore=COPY_IGNORE)
    for relative in without:
        target = destination / relative
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
    return destination


# -- a Flutter web page -----------------------------------------------------------------------


# Two animation frames, then a task (FlutterApp.drawn).
DRAWN_JS = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50))))"""
DRAWN_QUIET_S = 0.15  # since the page's last WebSocket frame

# Whether an element (a Flutter text field's accessibility node) holds the browser's focus.
HAS_FOCUS = "(e) => e === document.activeElement || e.contains(document.activeElement)"


class FlutterApp:
    """One browser page showing the app, with the accessibility tree switched on."""

    def __init__(self, page: Page, base_url: str, size: str, network: NetworkLog) -> None:
        self.page = page
        self.base_url = base_url
        self.size = size
        self.network = network
        # Build and layout errors the Flutter client reports (tests/e2e/layout.py).
        self.client_errors = ClientErrors()
        self.client_errors.attach(page)
        self.traffic = Traffic()  # when the screen last changed (layout.settled_layout)
        self.traffic.attach(page)
        page.set_default_timeout(STEP_TIMEOUT_MS)

    # navigation

    def open(self, path: str = "/") -> FlutterApp:
        self.page.goto(self.base_url + path, wait_until="load", timeout=BOOT_TIMEOUT_MS)
        self._enable_semantics()
        return self

    def go(self, path: str) -> FlutterApp:
        """Opens `path` inside the running app, as a link would (no reload: Flutter's router
        follows the browser's history), so that one page can show many screens quickly."""
        self.page.evaluate(
            """(path) => {
                const serial = (window.history.state?.serialCount ?? 0) + 1;
                window.history.pushState({serialCount: serial, state: null}, '', path);
                window.dispatchEvent(new PopStateEvent('popstate', {state: window.history.state}));
            }""",
            path,
        )
        return self

    def reload(self) -> FlutterApp:
        self.page.reload(wait_until="load", timeout=BOOT_TIMEOUT_MS)
        self._enable_semantics()
        return self

    def resize(self, size: str) -> FlutterApp:
        """The window becomes `size` (a laptop window resized, a phone turned): the app lays
        its screen out again, as it does for a judge, without a new start."""
        width, height = SIZES[size]
        self.page.set_viewport_size({"width": width, "height": height})
        self.size = size
        return self

    def drawn(self) -> None:
        """Until the server's last update is drawn: the WebSocket quiet for a moment (at most
        1 s), then two animation frames and a task. Flutter lays a text out in its frame and
        asks for any fallback font it needs in a task right after."""
        deadline = time.monotonic() + 1.0
        while self.traffic.quiet_for() < DRAWN_QUIET_S and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
        self.page.evaluate(DRAWN_JS)

    def _enable_semantics(self) -> None:
        """Flutter draws on a canvas; its accessibility tree (the DOM the locators read)
        appears once the hidden placeholder button is clicked."""
        placeholder = self.page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            self.page.evaluate("() => document.querySelector('flt-semantics-placeholder')?.click()")
            with contextlib.suppress(Exception):
                self.page.locator("flt-semantics[role], flt-semantics [role]").first.wait_for(
                    state="attached", timeout=2_000
                )
                return
        raise AssertionError("the Flutter accessibility tree never appeared")

    # finding things

    def button(self, name: str | re.Pattern[str], exact: bool = True) -> Locator:
        return self.page.get_by_role("button", name=name, exact=exact)

    def labelled(self, label: str) -> Locator:
        """A control by its tooltip: Flutter puts a tooltip on an aria-label around it."""
        return self.page.get_by_label(label, exact=True)

    def tab(self, name: str) -> Locator:
        return self.page.get_by_role("tab", name=name, exact=True)

    def text(self, text: str | re.Pattern[str], exact: bool = True) -> Locator:
        return self.page.get_by_text(text, exact=exact)

    def heading(self, name: str | re.Pattern[str]) -> Locator:
        return self.page.get_by_role("heading", name=name, exact=True)

    def wait_for(self, locator: Locator, timeout: float = BOOT_TIMEOUT_MS) -> Locator:
        locator.first.wait_for(state="visible", timeout=timeout)
        return locator

    def wait_gone(self, locator: Locator, timeout: float = STEP_TIMEOUT_MS) -> None:
        locator.first.wait_for(state="detached", timeout=timeout)

    # acting

    def tap(self, locator: Locator) -> None:
        locator.first.click()

    def type_into(self, field: Locator, text: str) -> None:
        """Focuses a Flutter text field (a tap may land while its route is still sliding in:
        tap until the browser's focus is in an editable element) and types `text`."""
        focused = "() => ['INPUT', 'TEXTAREA'].includes(document.activeElement?.tagName)"
        deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while not self.page.evaluate(focused):
            if time.monotonic() > deadline:
                raise AssertionError(f"could not focus {field}")
            field.first.click()
            for _ in range(4):  # the focus follows the tap within a few frames, or tap again
                self.page.wait_for_timeout(50)
                if self.page.evaluate(focused):
                    break
        self.page.keyboard.type(text, delay=20)
        deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while field.first.input_value() != text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{field} holds {field.first.input_value()!r}, not {text!r}")
            self.page.wait_for_timeout(100)

    def settle(self, ms: int | None = None) -> None:
        """Lets a route transition finish: until the screen's boxes stop moving and the server
        has nothing more to send (layout.settled_layout), or a fixed `ms`."""
        if ms is None:
            settled_layout(self)
        else:
            self.page.wait_for_timeout(ms)

    def local_storage(self, key: str) -> str | None:
        return self.page.evaluate("(key) => window.localStorage.getItem(key)", key)

    def wait_for_storage(self, key: str, contains: str, timeout_s: float = 10.0) -> str:
        deadline = time.monotonic() + timeout_s
        value = None
        while time.monotonic() < deadline:
            value = self.local_storage(key)
            if value is not None and contains in value:
                return value
            self.page.wait_for_timeout(100)
        raise AssertionError(f"localStorage[{key!r}] = {value!r}, expected it to hold {contains!r}")

    def screenshot(self, name: str) -> Path:
        """tests/e2e/screenshots/<size>-<name>.png, e.g. phone-ja-tiers.png."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.size}-{name}.png"
        self.page.mouse.move(1, 1)  # no hover highlight or tooltip left by the last tap
        self.settle()
        self.page.screenshot(path=str(path))
        return path


def y_positions(locators: Iterable[Locator]) -> Iterator[float]:
    for locator in locators:
        box = locator.first.bounding_box()
        assert box is not None, f"{locator} has no box"
        yield box["y"]
