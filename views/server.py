"""Serving the app: in a desktop window, or to one person's browser on this machine (`--web`).

The web mode is Flet's own web server (flet_web's FastAPI app on uvicorn), assembled here rather
than through `ft.run` so that it serves one person on 127.0.0.1 and nothing more:

- The port is bound here, once, and handed to uvicorn: a busy port is refused before anything
  is printed, `--port 0` reports the port the system chose, and a restart is not refused while
  the last run's connections sit in TIME_WAIT (SO_REUSEADDR, as uvicorn and asyncio bind).
- Sessions (WebSockets) are accepted only from the app's own page, http://127.0.0.1:PORT or
  http://localhost:PORT. A browser always sends `Origin` with a WebSocket, so a request without
  one is not the app's page either, and is refused too. Any other site open in the same browser
  cannot open sessions (each costs memory) or drive the app.
- A disconnected session is kept SESSION_TIMEOUT_S (Flet's default is an hour), long enough for
  a reconnect after a network blip or a sleeping laptop, short enough to bound memory.
- FastAPI's API pages (/docs loads Swagger UI from a CDN, /openapi.json, /redoc) and Flet's
  OAuth callback (the app has no sign-in) answer 404.
- What is served is the app's decision alone: flet_web lets environment variables replace its
  arguments (FLET_ASSETS_DIR=/ would serve the whole disk, the log included), so every one it
  reads (`FLET_WEB_SETTINGS`) is dropped before the app is built.
- No other site may frame the app (clickjacking, and each frame would cost a session): every
  response says X-Frame-Options: DENY and Content-Security-Policy: frame-ancestors 'none'.
  The app never frames itself. Flet's `Access-Control-Allow-Origin: *` (which would let any
  page read what is served) is taken off.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from regulation.paths import ASSETS_DIR

HOST = "127.0.0.1"
SESSION_TIMEOUT_S = 5 * 60
SHUTDOWN_TIMEOUT_S = 2  # Ctrl+C or SIGTERM: open connections get this long to close
NOT_SERVED = frozenset(
    {"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"}
)
WS_POLICY_VIOLATION = 1008  # closing a WebSocket before accepting it answers HTTP 403
# Every variable flet_web 1.0.5 reads to override what it serves or how (tests/test_server.py
# checks the list against flet_web's source, so an upgrade that adds one fails a test).
FLET_WEB_SETTINGS = (
    "FLET_ASSETS_DIR",
    "FLET_UPLOAD_DIR",
    "FLET_WEBSOCKET_HANDLER_ENDPOINT",
    "FLET_UPLOAD_HANDLER_ENDPOINT",
    "FLET_OAUTH_CALLBACK_HANDLER_ENDPOINT",
    "FLET_SESSION_TIMEOUT",
    "FLET_OAUTH_STATE_TIMEOUT",
    "FLET_WEB_RENDERER",
    "FLET_WEB_ROUTE_URL_STRATEGY",
    "FLET_WEB_NO_CDN",
    "FLET_WEB_PATH",
    "FLET_WEB_APP_PATH",
    "FLET_MAX_UPLOAD_SIZE",
    "FLET_SECRET_KEY",
)
FRAMING_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
)
DROPPED_HEADERS = frozenset({b"access-control-allow-origin"}) | {n for n, _ in FRAMING_HEADERS}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def run_app(web: bool = False, port: int = 8550) -> int:
    """Runs the app until it is closed; returns the exit status. The data is checked first
    (main.py), so nothing here reports a data fault."""
    import flet as ft

    from .app import before_main, main

    if not web:
        reason = no_window_reason()
        if reason is None:
            ft.run(main, before_main=before_main, assets_dir=str(ASSETS_DIR))
            return 0
        # Flet would serve the browser client on every network interface (no display) or
        # download its desktop client (not installed): neither, here.
        web, instead = True, f"No window can be opened here ({reason})"
    else:
        instead = None
    try:
        listener = listen(port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            fault = "is busy; choose another with --port"
        else:  # a port below 1024 without the right, …
            fault = f"cannot be used: {exc.strerror or exc}"
        sys.stderr.write(f"error: port {port} on {HOST} {fault}\n")
        return 1
    port = listener.getsockname()[1]  # the one the system chose for --port 0
    url = f"http://{HOST}:{port}/"
    if instead:
        print(f"{instead}: open {url} in a browser (offline; Ctrl+C to stop)", flush=True)
    else:
        print(f"Serving 罰則ガイド on {url} (offline; Ctrl+C to stop)", flush=True)
    open_browser(url)
    serve(web_app(port), listener)
    return 0


def no_window_reason() -> str | None:
    """Why the app cannot open a desktop window here, or None when it can: a packaged app
    (Flet's own host runs it), or a display and Flet's desktop client already on this machine.
    Flet would otherwise download the client (from GitHub) on first use."""
    from flet.utils import is_embedded, is_linux_server

    if is_embedded():
        return None
    if is_linux_server() or (sys.platform.startswith("linux") and _no_linux_display()):
        return "no display"
    if not desktop_client_installed():
        return "Flet's desktop client is not installed, and the app downloads nothing"
    return None


def _no_linux_display() -> bool:
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def desktop_client_installed() -> bool:
    """Whether Flet 1.0.5 would find its desktop client without downloading it
    (flet_desktop.__locate_and_unpack_flet_view): a `flet build` in the working directory,
    FLET_VIEW_PATH, an archive bundled in the package, or the client in ~/.flet/client."""
    try:
        import flet_desktop
        import flet_desktop.version
    except ImportError:  # installed without it (a phone package never gets here)
        return False

    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, "linux")
    build = Path.cwd() / "build" / system
    if build.is_dir() and any(build.iterdir()):
        return True
    view_path = os.environ.get("FLET_VIEW_PATH")
    if view_path and Path(view_path).exists():
        return True
    bundled = Path(flet_desktop.get_package_bin_dir()) / flet_desktop.get_artifact_filename()
    if bundled.exists():
        return True
    cached = Path.home() / ".flet" / "client"
    version = flet_desktop.version.version
    return any(cached.glob(f"flet-desktop-*-{version}*")) if cached.is_dir() else False


def listen(port: int) -> socket.socket:
    """A socket listening on HOST:port (0: any free port). Raises OSError (EADDRINUSE: busy)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if os.name == "posix":  # on Windows the option would let two servers share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def own_origins(port: int) -> frozenset[str]:
    hosts = (HOST, "localhost")
    origins = {f"http://{host}:{port}" for host in hosts}
    if port == 80:  # browsers leave the default port out
        origins |= {f"http://{host}" for host in hosts}
    return frozenset(origins)


def web_app(port: int) -> ASGIApp:
    """Flet's web app for the app's `main`, behind OwnSiteOnly."""
    import flet_web.fastapi as flet_fastapi

    from .app import before_main, main

    # Flet lets these variables override its arguments; what this server serves is its own.
    for name in FLET_WEB_SETTINGS:
        os.environ.pop(name, None)
    flet_app = flet_fastapi.app(
        main,
        before_main=before_main,
        assets_dir=str(ASSETS_DIR),
        no_cdn=True,
        session_timeout_seconds=SESSION_TIMEOUT_S,
    )
    return OwnSiteOnly(flet_app, own_origins(port))


class OwnSiteOnly:
    """ASGI middleware: WebSockets only from `origins`; NOT_SERVED paths answer 404; every HTTP
    response forbids framing and allows no other origin to read it.

    It also keeps a tab that goes away while the app is sending from leaving its session behind
    for good: Flet's send loop dies on the failed send, and the session is then never marked
    disconnected, so it never expires. A send to a client that has gone is dropped instead;
    the receiving side sees the disconnect and ends the session the usual way."""

    def __init__(self, app: ASGIApp, origins: frozenset[str]) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from . import stored_look  # here: it imports Flet, which `main.py --help` does without

        if scope["type"] == "websocket":
            if self._origin(scope) not in self.origins:
                await send({"type": "websocket.close", "code": WS_POLICY_VIOLATION})
                return
            stored_look.follow(scope.get("headers", ()))  # for before_main (views/app.py)
            await self.app(scope, receive, _drop_sends_after_disconnect(send))
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_look_script(_own_headers(send))
        if scope["path"].rstrip("/") in NOT_SERVED:
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _origin(scope: Scope) -> str | None:
        for name, value in scope.get("headers", ()):
            if name == b"origin":
                return value.decode("latin-1")
        return None


def _own_headers(send: Send) -> Send:
    """`send` with the framing headers on every response start, and no CORS grant."""

    async def send_with_own_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [
                (name, value)
                for name, value in message.get("headers", ())
                if bytes(name).lower() not in DROPPED_HEADERS
            ]
            message = {**message, "headers": [*headers, *FRAMING_HEADERS]}
        await send(message)

    return send_with_own_headers


def _with_look_script(send: Send) -> Send:
    """`send` with views/stored_look.py's script in every HTML page (Flet's index.html): the
    page then sends the stored look with its WebSocket. Such a page is not cached (no ETag, no
    Last-Modified): a page kept from before would lack the script or hold an old one."""
    from . import stored_look

    held: list[Message] = []

    async def send_with_script(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(bytes(n).lower(), bytes(v)) for n, v in message.get("headers", ())]
            if any(n == b"content-type" and v.startswith(b"text/html") for n, v in headers):
                held.append(message)
                return
        elif held and message["type"] == "http.response.body":
            held.append(message)
            if message.get("more_body", False):
                return
            start, *bodies = held
            held.clear()
            html = stored_look.with_script(b"".join(m.get("body", b"") for m in bodies))
            headers = [
                (n, v)
                for n, v in start.get("headers", ())
                if bytes(n).lower() not in {b"content-length", b"etag", b"last-modified"}
            ]
            headers.append((b"content-length", str(len(html)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": html})
            return
        await send(message)

    return send_with_script


def _drop_sends_after_disconnect(send: Send) -> Send:
    async def send_while_connected(message: Message) -> None:
        try:
            await send(message)
        except OSError:  # uvicorn's ClientDisconnected: the client is gone
            if message["type"] != "websocket.send":
                raise

    return send_while_connected


def serve(app: ASGIApp, listener: socket.socket) -> None:
    """Serves until Ctrl+C (or SIGTERM), as Flet's own web mode does."""
    import uvicorn

    # A bounded shutdown: Flet's handler of a WebSocket that closes before it registers waits
    # for ever, and uvicorn would wait for it on Ctrl+C.
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws="websockets-sansio",
        timeout_graceful_shutdown=SHUTDOWN_TIMEOUT_S,
    )
    uvicorn.Server(config).run(sockets=[listener])


def open_browser(url: str) -> None:
    """Opens the app in the browser where Flet's web mode would: on a machine with a display,
    unless FLET_DISPLAY_URL_PREFIX asks for the address to be printed instead (the tests)."""
    from flet.utils import get_bool_env_var, is_linux_server, open_in_browser

    if os.environ.get("FLET_DISPLAY_URL_PREFIX") is not None:
        return
    if get_bool_env_var("FLET_FORCE_WEB_SERVER") or is_linux_server():
        return
    open_in_browser(url)
