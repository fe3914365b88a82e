"""Another site cannot frame the app (issue 21, item 6): a page served from another port on
this machine puts the app in an iframe; Chromium refuses to show it there, and no session is
opened for the frame."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .harness import AppServer


@pytest.fixture
def other_site(app_server: AppServer) -> Iterator[str]:
    """http://127.0.0.1:OTHER/, a page that frames the app's log screen."""
    page = f'<html><body><iframe id="app" src="{app_server.base_url}/log"></iframe></body></html>'

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}/"
    site.shutdown()
    site.server_close()


def test_another_site_cannot_frame_the_app(browser, app_server: AppServer, other_site: str) -> None:
    context = browser.new_context(service_workers="block")
    sockets: list[str] = []
    try:
        page = context.new_page()
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(other_site)
        # The frame's load event fires for the refused page too (Chromium's error page).
        page.wait_for_function(
            "() => document.getElementById('app').contentWindow !== null", timeout=30_000
        )
        frame = next(f for f in page.frames if f is not page.main_frame)
        frame.wait_for_load_state("load", timeout=30_000)
        # Long enough for Flutter's bootstrap to have opened its session, had it loaded.
        page.wait_for_timeout(5_000)
        refused_url = frame.url
    finally:
        context.close()
    assert not refused_url.startswith(app_server.base_url), refused_url
    assert sockets == []
