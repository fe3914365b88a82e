"""The browser tests' network: every context offline (a refusing proxy), a recorder of what each
context asked for, and the fallback-font detector. Nothing here knows pytest."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # playwright is imported lazily: the tests skip cleanly without it
    from pathlib import Path

    from playwright.sync_api import (
        Browser,
        BrowserContext,
        Page,
        Playwright,
        Request,
        WebSocket,
    )

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


def warm_context(driver: Playwright, profile: Path, **options: object) -> BrowserContext:
    """A Chromium of its own on the profile folder `profile` (profiles.WarmProfiles: warm caches,
    nothing stored), offline like `offline_context`; closing the context ends that Chromium."""
    from .harness import CHROMIUM, CHROMIUM_ARGS  # lazily: harness imports this module

    return driver.chromium.launch_persistent_context(  # type: ignore[misc]
        profile,
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        timeout=60_000,
        service_workers="block",
        proxy=offline_proxy(),
        **options,
    )


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
