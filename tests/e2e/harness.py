"""What the browser tests share: Chromium's settings, the window sizes, and a thin driver for a
Flutter web page (FlutterApp). The network recorder and the offline contexts are in network.py,
the app server in server.py; their names are importable from here as well.

Nothing here knows pytest; conftest.py turns these into fixtures.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .layout import ClientErrors, Traffic, settled_layout
from .network import DEAD_PROXY as DEAD_PROXY
from .network import KNOWN_EXTERNAL as KNOWN_EXTERNAL
from .network import DeadProxy as DeadProxy
from .network import NetworkLog as NetworkLog
from .network import fallback_font_requests as fallback_font_requests
from .network import is_fallback_font as is_fallback_font
from .network import is_known_external as is_known_external
from .network import is_loopback as is_loopback
from .network import offline_context as offline_context
from .network import offline_problems as offline_problems
from .network import offline_proxy as offline_proxy
from .network import warm_context as warm_context
from .server import REPO_ROOT as REPO_ROOT
from .server import SERVER_TIMEOUT_S as SERVER_TIMEOUT_S
from .server import AppServer as AppServer
from .server import copy_repo as copy_repo
from .server import free_port as free_port
from .server import server_environment as server_environment

if TYPE_CHECKING:  # playwright is imported lazily: the tests skip cleanly without it
    from playwright.sync_api import Locator, Page

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


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None (launching is tried later)."""
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


# -- a Flutter web page -----------------------------------------------------------------------


# Two animation frames, then a task (FlutterApp.drawn).
DRAWN_JS = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50))))"""
DRAWN_QUIET_S = 0.15  # since the page's last WebSocket frame

# Whether an element (a Flutter text field's accessibility node) holds the browser's focus.
HAS_FOCUS = "(e) => e === document.activeElement || e.contains(document.activeElement)"
# What holds the browser's focus, for a failure message: its tag, role and label.
FOCUSED_JS = """() => { const e = document.activeElement; if (!e) return 'none';
  return [e.tagName, e.getAttribute('role'), e.getAttribute('aria-label')].join(' '); }"""


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
        self._type_and_check(field, text)

    def type_where_focused(self, field: Locator, text: str, hold_s: float = 0.5) -> None:
        """Types `text` with no tap, as a judge does into the field a screen opens with: the
        browser's focus must be in `field` and stay there `hold_s` on end (a focus the app gave
        and Flutter's engine took back was gone within 0.1 s) before the keys go."""
        deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
        since: float | None = None
        while since is None or time.monotonic() - since < hold_s:
            held = field.first.evaluate(HAS_FOCUS)
            since = (since or time.monotonic()) if held else None
            if time.monotonic() > deadline:
                where = self.page.evaluate(FOCUSED_JS)
                raise AssertionError(f"{field} did not keep the focus; it is on {where}")
            self.page.wait_for_timeout(50)
        self._type_and_check(field, text)

    def _type_and_check(self, field: Locator, text: str) -> None:
        """Types `text` where the focus is; `field` must then hold exactly it."""
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
